#!/usr/bin/env python3
"""Try the long composed problems of tests/data/tsume/famous_long_tsume.tsv (those with an
SFEN, except the paradox problem 最後の審判) with `hayanagi mate`, a time cap each (10
minutes by default), and replay every reported mate with cshogi.

usage: scripts/long-tsume.py [--cap-s 600 | --nodes N] [--mate-hash 4096] [--any-length]
                             [--jobs N] [--only NAME ...] [--engine target/release/hayanagi]

--nodes caps each problem by nodes instead of time (a node budget such as the issue's
"乱 within 240M nodes" gives the same answer on a busy machine).

With --any-length the solver answers its first proven mate, so the time is the time to
solve; without it, a solved problem goes on looking for a shorter mate until the cap and
answers the shortest line it has (then the time is the cap).
"""
import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from tsume_replay import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap-s", type=int, default=600)
    ap.add_argument("--nodes", type=int, help="a node cap instead of the time cap")
    ap.add_argument("--mate-hash", type=int, default=4096)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target/release/hayanagi"))
    ap.add_argument("--file", default=os.path.join(ROOT, "tests/data/tsume/famous_long_tsume.tsv"))
    ap.add_argument("--any-length", action="store_true")
    ap.add_argument("--jobs", type=int, default=1, help="problems solved at the same time")
    ap.add_argument("--only", nargs="*", default=[], help="problems whose name contains one of these")
    args = ap.parse_args()
    mode = "first mate proven" if args.any_length else "shortest mate"
    cap = f"{args.nodes} nodes" if args.nodes else f"{args.cap_s} s"
    print(f"cap {cap} per problem, MateHash {args.mate_hash} MiB, {mode}, "
          f"{args.jobs} at a time", flush=True)
    print("name\tclaimed\tanswer\tplies\treplay\tnodes\ttime_s", flush=True)
    with open(args.file, encoding="utf-8") as f:
        rows = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#") and l.strip()]
    rows = [r for r in rows if r[2] != "-" and "最後の審判" not in r[0]]
    if args.only:
        rows = [r for r in rows if any(o in r[0] for o in args.only)]
    limit = ["--nodes", str(args.nodes)] if args.nodes else ["--movetime", str(args.cap_s * 1000)]
    cmd = lambda sfen: ([args.engine, "mate", "--sfen", sfen] + limit
                        + ["--option", f"MateHash={args.mate_hash}"]
                        + (["--any-length"] if args.any_length else []))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = [pool.submit(subprocess.run, cmd(r[2]), capture_output=True, text=True) for r in rows]
        for row, run in zip(rows, runs):
            report(row, run.result().stdout.splitlines())
    return 0


def report(row, out):
    """Print one result row; every mate line is replayed with cshogi."""
    name, claimed, sfen = row[0], row[1], row[2]
    answer = out[0].split() if out else ["?", "?"]
    info = out[1].split() if len(out) > 1 else ["", "", "", "0", "", "0"]
    nodes, ms = int(info[3]), int(info[5])
    if answer[1] in ("nomate", "timeout", "?"):
        kind, plies, ok = answer[1], "-", "-"
    else:
        moves = answer[1:]
        kind, plies, ok = "mate", str(len(moves)), "ok" if replay(sfen, moves) else "FAILED"
    print(f"{name}\t{claimed}\t{kind}\t{plies}\t{ok}\t{nodes}\t{ms / 1000:.1f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
