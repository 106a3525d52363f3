#!/usr/bin/env bash
# Parallel search figures, side by side in one run: nodes/s and time to a fixed depth over
# the bench positions for Threads=1 and Threads=2, Lazy SMP and root splitting.
#
#   scripts/bench-threads.sh [depth]     (default 9)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
depth=${1:-9}
printf '%-10s %-7s %12s %10s %12s\n' mode threads nodes time_ms nodes/s
declare -A T
for mode in lazy rootsplit; do
  for t in 1 2; do
    out=$(target/release/hayanagi bench --depth "$depth" --threads "$t" --option "ParallelMode=$mode")
    nodes=$(awk -F': ' '/^Nodes searched/{print $2}' <<<"$out")
    ms=$(awk -F': ' '/^Total time/{print $2}' <<<"$out")
    nps=$(awk -F': ' '/^Nodes\/second/{print $2}' <<<"$out")
    T[$mode$t]=$ms
    printf '%-10s %-7s %12s %10s %12s\n' "$mode" "$t" "$nodes" "$ms" "$nps"
  done
done
for mode in lazy rootsplit; do
  awk -v m="$mode" -v a="${T[${mode}1]}" -v b="${T[${mode}2]}" \
    'BEGIN { printf "%s: time to depth, 1 thread / 2 threads = %.2fx\n", m, a / b }'
done
echo "(root splitting searches every root move with a full window, DESIGN.md §7.4; compare its"
echo " time with Lazy SMP's at the same thread count)"
