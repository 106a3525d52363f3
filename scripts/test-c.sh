#!/usr/bin/env bash
# The C API suite: configure and build with CMake into build-c/ (Release; cargo builds the
# library), run ctest (C/C++ tests, the analyze example, and the package as users get it:
# an installed tree through find_package and pkg-config, with the SONAME checked by
# readelf, and a parent project using add_subdirectory), then run the C test executables
# and the analyze example under valgrind memcheck, failing on any memory error or
# definite/indirect leak.
#
# Needs cmake, a C/C++ compiler, valgrind, pkg-config and readelf (apt-get install -y
# cmake valgrind pkg-config binutils); installs nothing itself. (Without pkg-config or
# readelf, ctest alone skips those checks; this script refuses to.)
#
#   scripts/test-c.sh                   everything
#   SKIP_VALGRIND=1 scripts/test-c.sh   ctest only
#   HAYANAGI_VALGRIND_CYCLES=N          go/stop cycles of test_stress under valgrind (300)
#   BUILD_DIR=dir                       build directory (build-c)
#
# Ends with the plain line "N passed, M failed" for the valgrind stage (ctest prints its
# own summary).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build-c}
JOBS=$(nproc 2>/dev/null || echo 2)

for tool in cmake ctest pkg-config readelf; do
  command -v "$tool" >/dev/null || { echo "test-c.sh: $tool not found (apt-get install -y cmake pkg-config binutils)" >&2; exit 1; }
done

start=$(date +%s)
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" --parallel "$JOBS"
built=$(date +%s)

(cd "$BUILD_DIR" && ctest --output-on-failure --timeout 600)
tested=$(date +%s)
echo "test-c.sh: build $((built - start)) s, ctest $((tested - built)) s"

if [[ "${SKIP_VALGRIND:-0}" != "0" ]]; then
  echo "test-c.sh: valgrind stage skipped (SKIP_VALGRIND)"
  exit 0
fi
command -v valgrind >/dev/null || { echo "test-c.sh: valgrind not found (apt-get install -y valgrind)" >&2; exit 1; }

# Memcheck. "Still reachable" blocks (tables the library builds once and keeps for the
# process) are fine; definitely/indirectly lost blocks and memory errors are failures.
# No suppression file: the suite runs clean without one. --fair-sched=yes: valgrind runs one
# thread at a time, and with its default lock a busy search thread can starve the test
# thread that is about to call stop (test_stress took 12 minutes instead of 20 seconds).
VALGRIND=(valgrind --tool=memcheck --error-exitcode=1 --leak-check=full
          --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
          --track-origins=yes --num-callers=40 --fair-sched=yes --quiet)
export HAYANAGI_TEST_CYCLES=${HAYANAGI_VALGRIND_CYCLES:-300}
export HAYANAGI_TEST_SLOW=1

mapfile -t tests < <(grep -v '^$' "$BUILD_DIR/c-tests.txt")
if [[ -x "$BUILD_DIR/test_api_static" ]]; then
  tests+=(test_api_static)
fi
pass=0
fail=0
failed=()
run_vg() {
  local name=$1
  shift
  local log="$BUILD_DIR/valgrind-$name.log"
  local t0
  t0=$(date +%s)
  if "${VALGRIND[@]}" --log-file="$log" "$@" >"$BUILD_DIR/valgrind-$name.out" 2>&1; then
    pass=$((pass + 1))
    echo "valgrind: $name ok ($(( $(date +%s) - t0 )) s): $(tail -n 1 "$BUILD_DIR/valgrind-$name.out")"
  else
    fail=$((fail + 1))
    failed+=("$name")
    echo "valgrind: $name FAILED ($(( $(date +%s) - t0 )) s); program output:"
    cat "$BUILD_DIR/valgrind-$name.out"
    echo "valgrind report ($log):"
    cat "$log"
  fi
}
for t in "${tests[@]}"; do
  run_vg "$t" "$BUILD_DIR/$t"
done
if [[ -x "$BUILD_DIR/analyze" ]]; then
  run_vg analyze "$BUILD_DIR/analyze" "startpos moves 7g7f 3c3d" 500
fi
done_at=$(date +%s)
echo "test-c.sh: valgrind $((done_at - tested)) s (test_stress with $HAYANAGI_TEST_CYCLES cycles)"
if ((fail > 0)); then
  echo "test-c.sh: valgrind failures: ${failed[*]}"
fi
echo "valgrind: $pass passed, $fail failed"
((fail == 0))
