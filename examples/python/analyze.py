#!/usr/bin/env python3
"""Analyse a position through the Python binding: info lines as they arrive, then the best
move.

    python3 examples/python/analyze.py ["startpos moves 7g7f 3c3d"] [movetime_ms]

Run with the package installed (`pip install ./bindings/python` in a venv, which builds
the library), or from a source checkout after `cargo clib --release` (the package is then
imported from bindings/python and finds target/release/libhayanagi.so).
"""

import sys
from pathlib import Path

try:
    import hayanagi
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
    import hayanagi


def main() -> int:
    position = sys.argv[1] if len(sys.argv) > 1 else "startpos"
    movetime = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    try:
        with hayanagi.Engine() as engine:
            engine.set_position(position)
            for item in engine.go(movetime_ms=movetime, stream=True):
                print(item, flush=True)  # "info ..." lines, then "bestmove ..."
    except hayanagi.HayanagiError as e:
        print(f"analyze: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
