#!/usr/bin/env bash
# NNUE speed, single thread, in one run so that the figures compare:
#   1. evaluations per second (refresh, incremental, forward pass) for every kernel set the
#      CPU runs, and the hand-crafted evaluation on the same positions;
#   2. search speed: `hayanagi bench` (fixed depth, built-in positions) with the random
#      net against the hand-crafted evaluation, alternated to share the machine's noise.
# Usage: scripts/bench-nnue.sh [NN.BIN] [DEPTH]  (default: the tests' random net, depth 8)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example nnue_bench --bin hayanagi
net="${1:-target/nnue-random-seed12.bin}"
depth="${2:-8}"
if [ -n "${1:-}" ]; then
  target/release/examples/nnue_bench "$net"
else
  target/release/examples/nnue_bench
fi
echo
echo "search: hayanagi bench --depth $depth, 1 thread (nodes/s; each run twice, alternated)"
run() {
  target/release/hayanagi bench --depth "$depth" "$@" 2>/dev/null |
    awk '/^Nodes searched/ {n=$3} /^Nodes\/second/ {s=$2} END {print n, s}'
}
declare -a nnue classic
for i in 1 2; do
  read -r n s < <(run --option "EvalFile=$net")
  nnue+=("$s"); nnue_nodes=$n
  read -r n s < <(run)
  classic+=("$s"); classic_nodes=$n
done
best() { printf '%s\n' "$@" | sort -n | tail -1; }
bn=$(best "${nnue[@]}"); bc=$(best "${classic[@]}")
printf '%-10s nodes %10s   nodes/s %s (best %s)\n' nnue "$nnue_nodes" "${nnue[*]}" "$bn"
printf '%-10s nodes %10s   nodes/s %s (best %s)\n' classic "$classic_nodes" "${classic[*]}" "$bc"
awk -v a="$bn" -v b="$bc" 'BEGIN {printf "nnue / classic speed: %.2f\n", a / b}'
