#!/usr/bin/env bash
# The C# and Python bindings: build the release library, compile the C# tests, examples and
# the Unity-style driver with mcs (warnings are errors) and run them with mono, the binding
# without its library (the DllNotFoundException must say where the file goes), the C#
# snippets of README.md and bindings/csharp/README.md as shown (tests/csharp/readme_snippets.py),
# the Unity package's JSON files (tests/unity/test_package.py), run the two examples, then
# pytest: the Python package tests (including the cshogi differential test
# and the library lookup) and the header-versus-bindings test, then the Python package as a
# new user installs it (scripts/test-python-package.sh: a fresh venv, pip install
# ./bindings/python building the library from source, an analysis, the manylinux wheel).
#
# Needs mono (apt-get install -y mono-mcs mono-runtime), pytest and cshogi
# (python3 -m pip install pytest cshogi), python3-venv and PyPI for the package test;
# installs nothing outside temporary venvs itself.
#
#   scripts/test-bindings.sh
#   OUT_DIR=dir    where the C# programs are built (target/bindings)
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in mcs mono python3; do
  command -v "$tool" >/dev/null || { echo "test-bindings.sh: $tool not found (apt-get install -y mono-mcs mono-runtime python3)" >&2; exit 1; }
done
python3 -c "import pytest" 2>/dev/null || { echo "test-bindings.sh: pytest not found (python3 -m pip install pytest cshogi)" >&2; exit 1; }

OUT_DIR=${OUT_DIR:-target/bindings}
t0=$(date +%s)
cargo clib --release
LIB=target/release/libhayanagi.so
[[ -f "$LIB" ]] || { echo "test-bindings.sh: $LIB missing after the build" >&2; exit 1; }
t1=$(date +%s)

# ----- C# -----
cs="$OUT_DIR/csharp"
mkdir -p "$cs"
cp "$LIB" "$cs/"   # mono finds libhayanagi.so next to the executables
MCS=(mcs -nologo -warn:4 -warnaserror)
"${MCS[@]}" -out:"$cs/HayanagiTests.exe" bindings/csharp/Hayanagi.cs tests/csharp/HayanagiTests.cs
"${MCS[@]}" -out:"$cs/analyze.exe" bindings/csharp/Hayanagi.cs examples/csharp/Analyze.cs
# As Unity compiles it: UNITY_5_3_OR_NEWER set, AOT.MonoPInvokeCallbackAttribute from "Unity".
"${MCS[@]}" -define:UNITY_5_3_OR_NEWER -out:"$cs/unity.exe" bindings/csharp/Hayanagi.cs \
  examples/csharp/HayanagiAnalyzer.cs tests/csharp/UnityStub.cs tests/csharp/UnityDriver.cs
# The binding with a library name that is not there.
"${MCS[@]}" -define:HAYANAGI_TEST_MISSING_LIBRARY -out:"$cs/missing.exe" bindings/csharp/Hayanagi.cs \
  tests/csharp/MissingLibrary.cs
t2=$(date +%s)
mono --debug "$cs/HayanagiTests.exe"
mono --debug "$cs/unity.exe"
mono --debug "$cs/missing.exe"
python3 tests/csharp/readme_snippets.py "$cs"
python3 tests/unity/test_package.py
out=$(mono "$cs/analyze.exe" "startpos moves 7g7f 3c3d" 300)
echo "$out" | tail -n 2
last=$(echo "$out" | tail -n 1)
[[ "$last" == bestmove\ * ]] || { echo "test-bindings.sh: the C# example did not end with a best move" >&2; exit 1; }
echo "$out" | grep -q '^info depth ' || { echo "test-bindings.sh: the C# example printed no info line" >&2; exit 1; }
t3=$(date +%s)

# ----- Python -----
out=$(python3 examples/python/analyze.py "startpos moves 7g7f 3c3d" 300)
echo "$out" | tail -n 2
[[ "$(echo "$out" | tail -n 1)" == bestmove\ * ]] || { echo "test-bindings.sh: the Python example did not end with a best move" >&2; exit 1; }
echo "$out" | grep -q '^info depth ' || { echo "test-bindings.sh: the Python example printed no info line" >&2; exit 1; }
python3 -m pytest -q -p no:cacheprovider tests/python tests/bindings
t4=$(date +%s)
# pip builds the library with the command `cargo clib --release` ran above: nothing to redo.
scripts/test-python-package.sh
t5=$(date +%s)

echo "test-bindings.sh: library $((t1 - t0)) s, C# build $((t2 - t1)) s, C# tests $((t3 - t2)) s, Python tests $((t4 - t3)) s, Python package $((t5 - t4)) s"
