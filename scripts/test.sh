#!/usr/bin/env bash
# Every test suite, after installing what they need (scripts/setup.sh test): formatting,
# lints, rustdoc, the Rust tests (release and debug builds: perft to depth 6 is part of
# them), the move-generator cross-check against cshogi, the C/C++ tests through CMake/ctest
# plus valgrind memcheck, the C# (mono) and Python bindings, and the Windows build under Wine.
set -euo pipefail
cd "$(dirname "$0")/.."
# What the suites need (apt packages as root or through sudo; pytest, cshogi and numpy in a
# venv: numpy because the NNUE tests check their net generator against make_random_nn.py).
scripts/setup.sh test
venv=${HAYANAGI_VENV:-$PWD/.venv}
export VIRTUAL_ENV=$venv PATH="$venv/bin:$PATH"
cargo fmt --all -- --check
cargo clippy --release --workspace --all-targets -- -D warnings
# The Rust API's documentation builds without a warning (broken or private links).
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
cargo test --release
# The workspace's tools: the evaluation tuner's pipeline test (gensfen records, then a fit).
cargo test --release -p hayanagi-tune
# The NNUE trainer: its nets load in the engine and evaluate as its integer pass does, and
# its pipeline test (gensfen records, a short training, EvalFile).
cargo test --release -p hayanagi-nnue-train
# The debug profile as well: debug_assert!s and overflow checks only run there (about 3
# minutes on 2 cores, build included).
cargo test --quiet
# Say which NNUE kernel sets this CPU ran against the portable path.
cargo test --release --quiet --test nnue -- simd_ the_best_supported --nocapture
python3 scripts/crosscheck.py --positions 2000
scripts/test-c.sh
scripts/test-bindings.sh
# The Windows build (cross-compiled with MinGW-w64) run under Wine: the USI engine and the C
# tests against hayanagi.dll (about a minute from scratch on 2 cores; HAYANAGI_SKIP_WINDOWS=1
# skips it, and scripts/setup.sh then installs neither MinGW nor Wine).
if [[ ${HAYANAGI_SKIP_WINDOWS:-0} == 0 ]]; then
  scripts/test-windows.sh
fi
