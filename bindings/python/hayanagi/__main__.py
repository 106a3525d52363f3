"""``python -m hayanagi``: the USI engine on stdin/stdout, for a GUI or a match runner.

Each line read from stdin goes to the library's USI text channel
(``hayanagi_engine_usi_command``, the implementation the ``hayanagi`` binary serves); every
line the engine answers (``usiok``, ``readyok``, ``info ...``, ``bestmove ...``) is written to
stdout and flushed at once. It ends after ``quit``, or at the end of input (which is
answered as ``quit``: a running search is stopped and its best move still printed).

    python -m hayanagi               the engine
    python -m hayanagi --version     the package and library versions
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import IO, List, Optional

from . import __version__
from ._engine import Engine, HayanagiError, version
from ._native import library_path

_END = object()


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Run the USI loop on binary streams until ``quit`` or the end of ``stdin``; returns
    the exit status."""
    with Engine() as engine:
        # Lines arrive on the thread that produced them (the search thread for search
        # output): one writer thread keeps them in order and never blocks the engine.
        lines = engine._usi_line_queue()
        write_lock = threading.Lock()

        def writer() -> None:
            while True:
                line = lines.get()
                if line is _END:
                    return
                with write_lock:
                    stdout.write(line.encode("utf-8") + b"\n")
                    stdout.flush()

        thread = threading.Thread(target=writer, name="hayanagi-usi-out", daemon=True)
        thread.start()
        try:
            quit_sent = False
            for raw in stdin:
                line = raw.decode("utf-8", "replace").rstrip("\r\n").replace("\0", "")
                engine.usi_command(line)
                if line.strip() == "quit":
                    quit_sent = True
                    break
            if not quit_sent:
                engine.usi_command("quit")  # stops a running search, waits for its last line
        except KeyboardInterrupt:
            engine.stop()
            engine.wait(5.0)
        finally:
            lines.put(_END)
            thread.join(10.0)
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """The command line of ``python -m hayanagi``."""
    ap = argparse.ArgumentParser(
        prog="python -m hayanagi",
        description="The hayanagi shogi engine speaking USI on stdin/stdout.",
    )
    ap.add_argument("--version", action="store_true", help="print the package and library versions and exit")
    args = ap.parse_args(argv)
    try:
        if args.version:
            print(f"hayanagi {__version__} (library {version()}, {library_path()})")
            return 0
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except (HayanagiError, OSError) as e:
        print(f"hayanagi: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
