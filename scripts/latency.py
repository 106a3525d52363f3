#!/usr/bin/env python3
"""How long a `go` really takes, as a GUI or match runner sees it (issue 17 item 6).

usage: scripts/latency.py [--binary target/release/hayanagi] [--byoyomi 300] [--moves 40]
                          [--option K=V ...] [--in-process]

Over pipes (default): the USI binary plays --moves positions of a fixed opening line with
`go btime 0 wtime 0 byoyomi B`, and for each move the time from writing `go` to reading
`bestmove` is compared with B. In process (--in-process): the same through the Python
binding over the C ABI (the library from `cargo clib --release`), from `go` to the best-move
callback. Prints min / median / p90 / max of the wall time, the engine's own `time` of its
last info line, and how many moves went over B. Run on an otherwise idle machine.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = ("7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 5g5f 7b8b 9g9f 9c9d "
        "4i5h 7a7b 1g1f 1c1d 6i6h 3a3b 5h5g 4a5b 3g3f 6c6d 2i3g 3b4c 2h2i 6a6b").split()


def summary(name, values, limit):
    values = sorted(values)
    over = sum(v > limit for v in values)
    p90 = values[int(0.9 * (len(values) - 1))]
    print(f"{name:>22}: min {values[0]:6.1f}  median {statistics.median(values):6.1f}  "
          f"p90 {p90:6.1f}  max {values[-1]:6.1f} ms   over {limit} ms: {over}/{len(values)}")


def over_pipes(a):
    p = subprocess.Popen([a.binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine exited")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("usi")
    until("usiok")
    for kv in a.option:
        k, v = kv.split("=", 1)
        send(f"setoption name {k} value {v}")
    send("isready")
    until("readyok")
    send("usinewgame")
    walls, engine_times = [], []
    for n in range(min(a.moves, len(LINE))):
        send("position startpos moves " + " ".join(LINE[:n]))
        t0 = time.perf_counter()
        send(f"go btime 0 wtime 0 byoyomi {a.byoyomi}")
        lines = until("bestmove")
        walls.append((time.perf_counter() - t0) * 1000)
        infos = [l for l in lines if l.startswith("info") and " time " in l]
        if infos:
            w = infos[-1].split()
            engine_times.append(float(w[w.index("time") + 1]))
    send("quit")
    p.wait(timeout=10)
    summary("pipe go -> bestmove", walls, a.byoyomi)
    if engine_times:
        summary("engine's own time", engine_times, a.byoyomi)


def in_process(a):
    sys.path.insert(0, str(ROOT / "bindings" / "python"))
    import hayanagi  # noqa: E402

    walls = []
    options = dict(kv.split("=", 1) for kv in a.option)
    with hayanagi.Engine(options=options) as engine:
        for n in range(min(a.moves, len(LINE))):
            engine.set_position("startpos", LINE[:n])
            t0 = time.perf_counter()
            engine.go(btime_ms=0, wtime_ms=0, byoyomi_ms=a.byoyomi)
            walls.append((time.perf_counter() - t0) * 1000)
    summary("C ABI go -> bestmove", walls, a.byoyomi)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "hayanagi"))
    ap.add_argument("--byoyomi", type=int, default=300)
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--option", action="append", default=["RootMateSearch=false", "USI_Ponder=false"])
    ap.add_argument("--in-process", action="store_true")
    a = ap.parse_args()
    if a.in_process:
        in_process(a)
    else:
        over_pipes(a)


if __name__ == "__main__":
    main()
