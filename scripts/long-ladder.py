#!/usr/bin/env python3
"""A ladder of mate problems between the short sets and the long composed problems: the
positions along a proven mating line of a long problem, every STEP plies, each with the
attacker to move and a mate within the rest of the line.

usage: scripts/long-ladder.py --only NAME [NAME ...] [--step 20] [--min-left 21]
                              [--nodes 300000000] [--mate-hash 4096]
                              [--engine target/release/hayanagi] > ladder.tsv

Each named problem of tests/data/tsume/famous_long_tsume.tsv is solved with `hayanagi mate
--any-length` (first mate proven; the line is replayed with cshogi), then the positions at
plies 0, STEP, 2 x STEP, ... of its line are printed as `sfen<TAB>plies left in the
line<TAB>name@ply`, as long as at least --min-left plies are left. The plies left are an
upper bound of the mate's length (the line's defence is not necessarily the longest), so
the ladder is for first-proof mode (`mate_bench --any-length`): a solver change measured on
problems from a few thousand to a few million nodes, instead of one long solve whose count
follows every detail of the table's replacement.
"""
import argparse
import os
import subprocess
import sys

import cshogi

from tsume_replay import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="+", required=True, help="problems whose name contains one of these")
    ap.add_argument("--step", type=int, default=20)
    ap.add_argument("--min-left", type=int, default=21)
    ap.add_argument("--nodes", type=int, default=300_000_000)
    ap.add_argument("--mate-hash", type=int, default=4096)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target/release/hayanagi"))
    ap.add_argument("--file", default=os.path.join(ROOT, "tests/data/tsume/famous_long_tsume.tsv"))
    args = ap.parse_args()
    if args.step % 2:
        sys.exit("--step must be even (the attacker moves at even plies)")
    with open(args.file, encoding="utf-8") as f:
        rows = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#") and l.strip()]
    rows = [r for r in rows if r[2] != "-" and any(o in r[0] for o in args.only)]
    for name, _claimed, sfen, *_ in rows:
        out = subprocess.run([args.engine, "mate", "--sfen", sfen, "--any-length",
                              "--nodes", str(args.nodes), "--option", f"MateHash={args.mate_hash}"],
                             capture_output=True, text=True).stdout.split()
        info = out[out.index("info"):] if "info" in out else []
        spent = " ".join(info[2:])  # nodes N time_ms T
        if len(out) < 2 or out[1] in ("nomate", "timeout"):
            print(f"{name}: no line ({' '.join(out[:2])}; {spent})", file=sys.stderr)
            continue
        moves = out[1:out.index("info")] if info else out[1:]
        if not replay(sfen, moves):
            sys.exit(f"{name}: the line does not replay")
        short = name.split(" ")[0]
        print(f"{short}: a {len(moves)}-ply line, replayed ({spent})", file=sys.stderr)
        board = cshogi.Board(sfen)
        for ply, m in enumerate(moves):
            left = len(moves) - ply
            if ply % args.step == 0 and left >= args.min_left:
                print(f"{board.sfen()}\t{left}\t{short}@{ply}", flush=True)
            board.push(board.move_from_usi(m))
    return 0


if __name__ == "__main__":
    sys.exit(main())
