#!/usr/bin/env bash
# Perft speed benchmark (single thread, last ply bulk-counted) and the deep perft counts
# that CI does not run.
#
#   scripts/bench-perft.sh            start d6 and matsuri d4, 3 runs each, counts asserted
#   scripts/bench-perft.sh --deep     also start d7 and peeper-1..4 d4-d5 (tens of minutes)
#
# Prints one line per run: name, depth, nodes, time, nodes/s; exits 1 on a wrong count.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/hayanagi
deep=0
[ "${1:-}" = "--deep" ] && deep=1
fail=0

run() { # name sfen depth expected [extra flags]
  local name=$1 sfen=$2 depth=$3 expect=$4
  shift 4
  local out nodes ms nps
  out=$("$bin" perft --sfen "$sfen" --depth "$depth" "$@")
  nodes=$(awk '$1=="nodes"{print $2}' <<<"$out")
  ms=$(awk '$1=="time_ms"{print $2}' <<<"$out")
  nps=$(awk '$1=="nps"{print $2}' <<<"$out")
  local verdict=ok
  if [ "$nodes" != "$expect" ]; then verdict="WRONG (expected $expect)"; fail=1; fi
  printf '%-10s d%-2s nodes %-12s time_ms %-8s nps %-11s %s\n' "$name" "$depth" "$nodes" "$ms" "$nps" "$verdict"
}

START="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MATSURI="l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
for _ in 1 2 3; do
  run startpos "$START" 6 547581517
  run matsuri "$MATSURI" 4 516925165
done

if [ $deep = 1 ]; then
  run startpos "$START" 7 15086269607
  P1="k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1"
  P2="l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91"
  P3="8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124"
  P4="9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1"
  run peeper-1 "$P1" 4 13033326 --allow-extra-pieces
  run peeper-1 "$P1" 5 4178714829 --allow-extra-pieces
  run peeper-2 "$P2" 4 129175973
  run peeper-2 "$P2" 5 13896719538
  run peeper-3 "$P3" 4 207741677
  run peeper-3 "$P3" 5 24120401335
  run peeper-4 "$P4" 4 50852853772
fi
exit $fail
