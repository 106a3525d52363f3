#!/usr/bin/env python3
"""Relay a USI engine unchanged, but print extra `option name ...` lines before its `usiok`.

usage: usi_advertise.py [--spin NAME:DEFAULT:MIN:MAX] [--check NAME:DEFAULT] ... -- ENGINE [ARGS...]

Two uses with shogiarena:
- SPSA tunes only spin options the engine advertises at `usi`; hayanagi's hidden developer
  options are accepted by `setoption` without being printed (--spin).
- shogiarena ponders (`go ponder`) with any engine whose `bestmove` names a ponder move unless
  the engine advertises `USI_Ponder` as false; Fairy-Stockfish has only `Ponder`, so
  `--check USI_Ponder:false` keeps it from pondering (its `No such option` reply to a
  `setoption name USI_Ponder` is harmless).
An option the engine itself prints is not printed twice. Stdlib only.
"""

import subprocess
import sys
import threading


def parse(flags):
    extra = []
    for i in range(0, len(flags), 2):
        kind = flags[i].lstrip("-")
        if kind not in ("spin", "check") or i + 1 >= len(flags):
            raise ValueError(flags[i])
        if kind == "spin":
            name, default, lo, hi = flags[i + 1].rsplit(":", 3)
            extra.append((name, f"type spin default {default} min {lo} max {hi}"))
        else:
            name, default = flags[i + 1].rsplit(":", 1)
            extra.append((name, f"type check default {default}"))
    return extra


def main():
    args = sys.argv[1:]
    try:
        cut = args.index("--")
        extra = parse(args[:cut])
    except ValueError:
        print(__doc__, file=sys.stderr)
        return 2
    proc = subprocess.Popen(args[cut + 1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def gui_to_engine():
        try:
            for raw in sys.stdin.buffer:
                proc.stdin.write(raw)
                proc.stdin.flush()
            proc.stdin.close()
        except OSError:
            pass

    threading.Thread(target=gui_to_engine, daemon=True).start()
    out = sys.stdout.buffer
    seen = set()
    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace").strip()
        if line.startswith("option name "):
            seen.add(line[len("option name "):].split(" type ")[0].strip().lower())
        elif line == "usiok":
            for name, decl in extra:
                if name.lower() not in seen:
                    out.write(f"option name {name} {decl}\n".encode())
            seen = set()
        out.write(raw)
        out.flush()
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
