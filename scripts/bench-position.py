#!/usr/bin/env python3
"""What a Python `Position` costs against the engine that used to back it (issue 20).

usage: scripts/bench-position.py [--count 50] [--rounds 3] [--library PATH ...]

Each round runs two child processes side by side in turn: one creates --count
`hayanagi.Position()` objects (the C ABI's light position handle), the other --count
`hayanagi.Engine(hash_mib=1)` objects (what every Position was before), each playing 7g7f
and listing the legal moves. Prints the time per object and the process's peak RSS growth
(ru_maxrss after minus before), median over the rounds. Needs the library
(`cargo clib --release`); with --library given more than once, each library in turn (through
HAYANAGI_LIB), so two builds compare in one run (the Position rows need a library that has
the position handle).
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import hayanagi
kind, count = sys.argv[2], int(sys.argv[3])
hayanagi.Engine(hash_mib=1).close() if kind == "engine" else hayanagi.Position().close()  # load the library first
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
held = []
for _ in range(count):
    if kind == "position":
        p = hayanagi.Position()
        p.push("7g7f")
        p.legal_moves()
    else:
        p = hayanagi.Engine(hash_mib=1)
        p.set_position("startpos moves 7g7f")
        p.legal_moves()
    held.append(p)
ms = (time.perf_counter() - t0) * 1000 / count
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for p in held:
    p.close()
print(json.dumps({"ms": ms, "kib": peak - before}))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--library", action="append", default=[])
    a = ap.parse_args()
    import os
    libraries = a.library or [None]
    rows = {(lib, kind): [] for lib in libraries for kind in ("position", "engine")}
    for _ in range(a.rounds):
        for (lib, kind) in rows:
            env = dict(os.environ)
            if lib:
                env["HAYANAGI_LIB"] = lib
            run = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "bindings" / "python"), kind, str(a.count)],
                                 capture_output=True, text=True, env=env)
            if run.returncode == 0:
                rows[(lib, kind)].append(json.loads(run.stdout))
    for (lib, kind), rs in rows.items():
        label = ("Position()" if kind == "position" else "Engine(hash_mib=1)") + (f" [{lib}]" if lib else "")
        if not rs:
            print(f"{label}: failed (no position handle in this library?)")
            continue
        ms = statistics.median(r["ms"] for r in rs)
        kib = statistics.median(r["kib"] for r in rs)
        print(f"{label}: {ms:8.3f} ms each, peak RSS +{kib / 1024:8.1f} MiB for {a.count} "
              f"({kib / a.count:8.1f} KiB each)")


if __name__ == "__main__":
    main()
