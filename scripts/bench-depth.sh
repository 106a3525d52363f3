#!/usr/bin/env bash
# Nodes and time to a fixed depth, position by position, for two builds side by side in one
# run (A and B alternate on each position, each from a fresh process and an empty table).
# The positions are the bench's own (`hayanagi bench` prints them); a position can be left
# out when one build would take hours on it. Time figures need an otherwise idle machine.
#
#   scripts/bench-depth.sh A_BINARY B_BINARY [depth] [positions]
#   scripts/bench-depth.sh ~/hayanagi-data/bin/hayanagi-old target/release/hayanagi 14 1-9
#
# positions: a list like "1-9" or "1,3,5" (default: all).
set -euo pipefail
a=$1
b=$2
depth=${3:-14}
want=${4:-1-10}
mapfile -t positions < <("$a" bench --depth 1 | sed -n 's/^position [0-9]*: //p')
selected() {
  local i=$1 part lo hi
  IFS=',' read -ra parts <<<"$want"
  for part in "${parts[@]}"; do
    lo=${part%-*}
    hi=${part#*-}
    if ((i >= lo && i <= hi)); then return 0; fi
  done
  return 1
}
# The last info line with a score: "nodes N ... time T".
run() {
  "$1" analyze --sfen "$2" --depth "$depth" --option RootMateSearch=false |
    awk '/^info depth/ && / nodes / {
           for (k = 1; k <= NF; k++) { if ($k == "nodes") n = $(k + 1); if ($k == "time") t = $(k + 1) }
         }
         END { print n, t }'
}
printf '%-4s %14s %10s %14s %10s\n' pos nodes_A ms_A nodes_B ms_B
total=(0 0 0 0)
for i in "${!positions[@]}"; do
  n=$((i + 1))
  selected "$n" || continue
  read -r na ta < <(run "$a" "${positions[$i]}")
  read -r nb tb < <(run "$b" "${positions[$i]}")
  printf '%-4s %14s %10s %14s %10s\n' "$n" "$na" "$ta" "$nb" "$tb"
  total=($((total[0] + na)) $((total[1] + ta)) $((total[2] + nb)) $((total[3] + tb)))
done
printf '%-4s %14s %10s %14s %10s\n' all "${total[@]}"
awk -v na="${total[0]}" -v ta="${total[1]}" -v nb="${total[2]}" -v tb="${total[3]}" \
  'BEGIN { printf "B / A: nodes %.3f, time %.3f\n", nb / na, tb / ta }'
