#!/usr/bin/env python3
"""Mate-solver benchmark: hayanagi's df-pn (`hayanagi mate`) and cshogi's DfPn side by side
on the same problems, in the same run, with the same time cap per problem.

For each problem the script runs both solvers one after the other and records whether it
answered a mate, the length of the line, whether that length is the listed shortest length,
the time and the nodes. hayanagi's time is the solver's own `time_ms` (process start-up
excluded); cshogi's is the wall time of `DfPn.search` in this process. Every mate line of
either solver is replayed with cshogi (each attacker move checks, the end is mate).

usage: scripts/bench-mate.py [--file tests/data/tsume/tsume_sample100.tsv] [--cap 10]
                             [--engine target/release/hayanagi]
"""
import argparse
import os
import subprocess
import sys
import threading
import time

import cshogi

EXTRA = []
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def replay(sfen, moves):
    """True when `moves` is a mate line: legal, every attacker move checks, ends in mate."""
    b = cshogi.Board(sfen)
    if len(moves) % 2 == 0:
        return False
    for i, m in enumerate(moves):
        mv = b.move_from_usi(m)
        if mv == 0 or not b.is_legal(mv):
            return False
        b.push(mv)
        if i % 2 == 0 and not b.is_check():
            return False
    return b.is_game_over()


def run_hayanagi(engine, sfen, cap_s):
    out = subprocess.run(
        [engine, "mate", "--sfen", sfen, "--movetime", str(int(cap_s * 1000))] + EXTRA,
        capture_output=True, text=True, check=True).stdout.splitlines()
    answer = out[0].split()
    info = out[1].split()
    nodes, ms = int(info[3]), int(info[5])
    moves = answer[1:] if answer[1] not in ("nomate", "timeout") else None
    return answer[1] if moves is None else "mate", moves, ms / 1000.0, nodes


def run_cshogi(sfen, cap_s):
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn()
    dfpn.set_max_depth(255)
    dfpn.set_max_search_node(2**31 - 1)
    timer = threading.Timer(cap_s, dfpn.stop)
    start = time.perf_counter()
    timer.start()
    found = dfpn.search(board)
    elapsed = time.perf_counter() - start
    timer.cancel()
    nodes = dfpn.searched_node
    if found:
        moves = [cshogi.move_to_usi(m) for m in dfpn.get_pv(board)]
        return "mate", moves, elapsed, nodes
    return ("timeout" if elapsed >= cap_s * 0.99 else "nomate"), None, elapsed, nodes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=os.path.join(ROOT, "tests/data/tsume/tsume_sample100.tsv"))
    ap.add_argument("--cap", type=float, default=10.0, help="seconds per problem and solver")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target/release/hayanagi"))
    ap.add_argument("--any-length", action="store_true",
                    help="hayanagi answers its first proven mate (as cshogi does) instead of the shortest")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if args.any_length:
        EXTRA.append("--any-length")

    problems = []
    with open(args.file, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            sfen, plies = line.rstrip("\n").split("\t")[:2]
            problems.append((sfen, int(plies)))

    stats = {name: dict(solved=0, exact=0, wrong=0, time=0.0, nodes=0) for name in ("hayanagi", "cshogi")}
    for sfen, plies in problems:
        row = []
        for name in ("hayanagi", "cshogi"):
            if name == "hayanagi":
                kind, moves, t, nodes = run_hayanagi(args.engine, sfen, args.cap)
            else:
                kind, moves, t, nodes = run_cshogi(sfen, args.cap)
            s = stats[name]
            s["time"] += t
            s["nodes"] += nodes
            if kind == "mate":
                if replay(sfen, moves):
                    s["solved"] += 1
                    if len(moves) == plies:
                        s["exact"] += 1
                else:
                    s["wrong"] += 1
            elif kind == "nomate":
                s["wrong"] += 1
            row.append(f"{name} {kind} {len(moves) if moves else '-'} {t:.3f}s {nodes}")
        if args.verbose:
            print(f"{plies:3d}  " + "  |  ".join(row), flush=True)

    n = len(problems)
    print(f"problems: {n} from {os.path.relpath(args.file, ROOT)}, cap {args.cap:g} s per problem")
    print(f"{'solver':10} {'solved':>7} {'shortest':>9} {'wrong':>6} {'total s':>9} {'nodes':>12} {'nodes/s':>10}")
    for name, s in stats.items():
        nps = s["nodes"] / s["time"] if s["time"] > 0 else 0
        print(f"{name:10} {s['solved']:>7} {s['exact']:>9} {s['wrong']:>6} {s['time']:>9.3f} {s['nodes']:>12} {nps:>10.0f}")
    h, c = stats["hayanagi"]["time"], stats["cshogi"]["time"]
    print(f"time ratio cshogi/hayanagi: {c / h:.2f}x" if h > 0 else "time ratio: n/a")
    return 0 if stats["hayanagi"]["wrong"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
