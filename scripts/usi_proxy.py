#!/usr/bin/env python3
"""Relay a USI engine's stdin/stdout unchanged and log how long each search took, as the
GUI sees it: from the `go` line (or `ponderhit`) leaving the GUI to the `bestmove` line
arriving. Used by scripts/match.py to prove that no move overstepped the clock.

usage: usi_proxy.py --log FILE -- ENGINE [ARGS...]
Each finished search appends one line to FILE: `<elapsed ms> <go line>`.
"""
import subprocess
import sys
import threading
import time


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 4 or args[0] != "--log" or args[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    log_path, cmd = args[1], args[3:]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    state = {"start": None, "go": ""}
    lock = threading.Lock()

    def engine_to_gui() -> None:
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").strip()
            if line.startswith("bestmove"):
                with lock:
                    if state["start"] is not None:
                        ms = (time.perf_counter() - state["start"]) * 1000.0
                        with open(log_path, "a") as f:
                            f.write(f"{ms:.1f} {state['go']}\n")
                    state["start"] = None
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    reader = threading.Thread(target=engine_to_gui, daemon=True)
    reader.start()
    for raw in sys.stdin:
        line = raw.strip()
        with lock:
            if line.startswith("go") and " ponder" not in line:
                state["start"], state["go"] = time.perf_counter(), line
            elif line == "ponderhit":
                state["start"], state["go"] = time.perf_counter(), line
        try:
            proc.stdin.write((line + "\n").encode())
            proc.stdin.flush()
        except BrokenPipeError:
            break
        if line == "quit":
            break
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    proc.wait()
    reader.join(timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
