#!/usr/bin/env python3
"""What a new game costs a GUI with a large table (issue 20, USI): the first move's time.

usage: scripts/bench-newgame.py [--binary A [--binary B]] [--hash 2048] [--reps 3]
                                [--byoyomi 1000] [--warmup-ms 3000]

For each binary in turn (alternating, --reps rounds, so two builds are compared side by side
in one run), over pipes as a GUI drives it: set `USI_Hash`, `isready`, play one search
(`go movetime 3000` by default, so that the table holds entries all over, as after a game),
then the GUI's sequence before the next game: `isready` (timed to `readyok`),
`usinewgame`, `position startpos`, and the first move `go btime 0 wtime 0 byoyomi B` (timed
from `usinewgame` to `bestmove`). The first move must come within the byoyomi: a table
cleared at `usinewgame` loses it on time. Prints each round and the median per binary. Run on an otherwise idle machine.
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Usi:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine exited")
            if line.startswith(prefix):
                return line.strip()

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=60)


def one_round(binary, a):
    e = Usi(binary)
    e.send("usi")
    e.until("usiok")
    e.send(f"setoption name USI_Hash value {a.hash}")
    e.send("setoption name RootMateSearch value false")
    e.send("isready")
    e.until("readyok")
    e.send("usinewgame")
    e.send("position startpos")
    e.send(f"go movetime {a.warmup_ms}")
    e.until("bestmove")
    # The next game.
    t0 = time.perf_counter()
    e.send("isready")
    e.until("readyok")
    isready_ms = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    e.send("usinewgame")
    e.send("position startpos")
    e.send(f"go btime 0 wtime 0 byoyomi {a.byoyomi}")
    e.until("bestmove")
    first_move_ms = (time.perf_counter() - t0) * 1000
    e.quit()
    return isready_ms, first_move_ms


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", action="append")
    ap.add_argument("--hash", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--byoyomi", type=int, default=1000)
    ap.add_argument("--warmup-ms", type=int, default=3000)
    a = ap.parse_args()
    binaries = a.binary or [str(ROOT / "target" / "release" / "hayanagi")]
    results = {b: [] for b in binaries}
    for r in range(a.reps):
        for b in binaries:
            isready_ms, first_ms = one_round(b, a)
            results[b].append((isready_ms, first_ms))
            print(f"round {r + 1} {b}: isready {isready_ms:8.1f} ms   usinewgame -> first "
                  f"bestmove {first_ms:8.1f} ms (byoyomi {a.byoyomi})", flush=True)
    print(f"USI_Hash {a.hash} MiB, medians of {a.reps} rounds:")
    for b, rows in results.items():
        over = sum(f > a.byoyomi for _, f in rows)
        print(f"  {b}: isready {statistics.median(i for i, _ in rows):8.1f} ms   first move "
              f"{statistics.median(f for _, f in rows):8.1f} ms   over the byoyomi: "
              f"{over}/{len(rows)}")


if __name__ == "__main__":
    main()
