#!/usr/bin/env python3
"""Mate-solver benchmark: hayanagi's df-pn (`hayanagi mate`) and cshogi's DfPn side by side
on the same problems, in the same run, with the same time cap per problem.

Both run in this process: hayanagi through its C ABI (the shared library loaded with
ctypes: `hayanagi_engine_set_position`, `hayanagi_engine_go_mate`, `hayanagi_engine_wait`,
`hayanagi_engine_last_mate`), cshogi through its Python binding (`DfPn.search`). Each time
is the wall time of that call sequence (for hayanagi it includes starting the solver
thread); the position is set up before the clock starts for both. For each problem the
script records whether a mate was answered, the length of the line, whether that length is
the listed shortest length, the time and the nodes. Every mate line of either solver is
replayed with cshogi (legal, each attacker move checks, the end is mate).

usage: scripts/bench-mate.py [--file tests/data/tsume/tsume_sample100.tsv] [--cap 10]
                             [--lib target/release/libhayanagi.so] [--any-length] [--verbose]
(build the library first: cargo clib --release)
"""
import argparse
import ctypes
import os
import sys
import threading
import time

import cshogi

from tsume_replay import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class MateResult(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("plies", ctypes.c_uint32), ("shortest", ctypes.c_bool),
                ("nodes", ctypes.c_uint64), ("time_ms", ctypes.c_uint64)]


MATE_FOUND, MATE_NONE, MATE_TIMEOUT = 1, 2, 3
MATE_ANY_LENGTH = 1


class Hayanagi:
    """One engine of the shared library, driven through the C ABI."""

    def __init__(self, lib_path, flags):
        lib = ctypes.CDLL(lib_path)
        lib.hayanagi_engine_new.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.hayanagi_engine_set_position.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.hayanagi_engine_go_mate.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64,
                                                ctypes.c_uint32]
        lib.hayanagi_engine_wait.argtypes = [ctypes.c_void_p, ctypes.c_int64]
        lib.hayanagi_engine_last_mate.argtypes = [ctypes.c_void_p, ctypes.POINTER(MateResult),
                                                  ctypes.c_char_p, ctypes.c_size_t,
                                                  ctypes.POINTER(ctypes.c_size_t)]
        lib.hayanagi_engine_free.argtypes = [ctypes.c_void_p]
        self.lib, self.flags = lib, flags
        self.engine = ctypes.c_void_p()
        assert lib.hayanagi_engine_new(None, ctypes.byref(self.engine)) == 0

    def solve(self, sfen, cap_s):
        lib, e = self.lib, self.engine
        assert lib.hayanagi_engine_set_position(e, ("sfen " + sfen).encode()) == 0, sfen
        start = time.perf_counter()
        assert lib.hayanagi_engine_go_mate(e, int(cap_s * 1000), 0, self.flags) == 0
        assert lib.hayanagi_engine_wait(e, -1) == 0
        elapsed = time.perf_counter() - start
        r = MateResult()
        buf = ctypes.create_string_buffer(1 << 16)
        assert lib.hayanagi_engine_last_mate(e, ctypes.byref(r), buf, len(buf), None) == 0
        if r.kind == MATE_FOUND:
            return "mate", buf.value.decode().split(), elapsed, r.nodes
        return ("nomate" if r.kind == MATE_NONE else "timeout"), None, elapsed, r.nodes


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
    ap.add_argument("--lib", default=os.path.join(ROOT, "target/release/libhayanagi.so"))
    ap.add_argument("--any-length", action="store_true",
                    help="hayanagi answers its first proven mate (as cshogi does) instead of the shortest")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    hayanagi = Hayanagi(args.lib, MATE_ANY_LENGTH if args.any_length else 0)

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
                kind, moves, t, nodes = hayanagi.solve(sfen, args.cap)
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
