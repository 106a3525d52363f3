#!/usr/bin/env bash
# Every test suite: formatting, lints, the Rust tests (release build: perft to depth 6 is
# part of them), the move-generator cross-check against cshogi, and the C/C++ tests through
# CMake/ctest plus valgrind memcheck.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import cshogi" 2>/dev/null || python3 -m pip install --quiet cshogi
cargo fmt --all -- --check
cargo clippy --release --all-targets -- -D warnings
cargo test --release
python3 scripts/crosscheck.py --positions 2000
scripts/test-c.sh
