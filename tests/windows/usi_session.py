#!/usr/bin/env python3
"""Drive a USI engine through one GUI-like session and check its answers.

    python3 tests/windows/usi_session.py COMMAND [ARG ...]

scripts/test-windows.sh runs it on the cross-built hayanagi.exe under Wine
(`wine64 hayanagi.exe`); it works with any command that speaks USI on stdin/stdout.
Every command is sent with a CRLF line end, as a Windows program writing lines with
its platform's newline sends it. The session: usi (id lines, the EvalFile/EvalDir options,
usiok), setoption, isready/readyok, usinewgame, position, the legal moves (the engine's
`moves` extra), go depth 6 (info lines, then a bestmove that is one of those legal moves),
a second go with byoyomi, then quit (the process must exit with status 0).
Prints each line it sends and receives; exits 1 on the first failed check.
"""

import queue
import subprocess
import sys
import threading
import time


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    proc = subprocess.Popen(
        sys.argv[1:],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=sys.stderr,
        bufsize=0,
    )
    lines: "queue.Queue[str | None]" = queue.Queue()

    def reader() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()

    def fail(what: str) -> int:
        print(f"usi_session: FAILED: {what}", file=sys.stderr)
        proc.kill()
        return 1

    def send(cmd: str) -> None:
        print(f"> {cmd}")
        assert proc.stdin is not None
        proc.stdin.write((cmd + "\r\n").encode())
        proc.stdin.flush()

    def until(pred, timeout: float, what: str):
        """Lines up to and including the first one `pred` accepts, or None on timeout/EOF."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                print(f"usi_session: no {what} within {timeout} s", file=sys.stderr)
                return None
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                print(f"usi_session: output ended before {what}", file=sys.stderr)
                return None
            print(f"< {line}")
            seen.append(line)
            if pred(line):
                return seen

    # The first start of a Wine prefix can take a while; later commands are quick.
    send("usi")
    got = until(lambda l: l == "usiok", 60, "usiok")
    if got is None:
        return fail("usi -> usiok")
    if not any(l.startswith("id name hayanagi") for l in got):
        return fail("no 'id name hayanagi' line")
    for option in ("USI_Hash", "Threads", "EvalFile", "EvalDir", "FV_SCALE"):
        if not any(l.startswith(f"option name {option} type") for l in got):
            return fail(f"no option line for {option}")

    send("setoption name USI_Hash value 32")
    send("setoption name Threads value 2")
    send("isready")
    if until(lambda l: l == "readyok", 30, "readyok") is None:
        return fail("isready -> readyok")
    send("usinewgame")

    send("position startpos moves 7g7f 3c3d")
    send("moves")
    got = until(lambda l: " " in l and l.split()[0] == "1g1f", 10, "the legal-move list")
    if got is None:
        return fail("moves")
    legal = set(got[-1].split())
    # 39, as cshogi counts them; 8h2b and 8h2b+ both (a promotion may be declined).
    if len(legal) != 39 or not {"8h2b", "8h2b+"} <= legal:
        return fail(f"{len(legal)} legal moves after 7g7f 3c3d (39 expected, 8h2b+ among them)")

    send("go depth 6")
    got = until(lambda l: l.startswith("bestmove "), 60, "bestmove")
    if got is None:
        return fail("go depth 6 -> bestmove")
    if not any(l.startswith("info depth 6 ") for l in got):
        return fail("no 'info depth 6' line before the bestmove")
    best = got[-1].split()[1]
    if best not in legal:
        return fail(f"bestmove {best} is not a legal move")
    print(f"usi_session: bestmove {best} is legal")

    # A timed move as a game sends it (1 s byoyomi, both clocks at 0).
    send("position startpos moves 7g7f 3c3d " + best)
    send("go btime 0 wtime 0 byoyomi 1000")
    started = time.monotonic()
    got = until(lambda l: l.startswith("bestmove "), 10, "bestmove")
    if got is None:
        return fail("go byoyomi 1000 -> bestmove")
    took = time.monotonic() - started
    if took > 2.0:  # 2 s, not 1: CI machines are loaded (the time is printed either way)
        return fail(f"byoyomi 1000 answered after {took:.2f} s")
    print(f"usi_session: byoyomi 1000 answered in {took:.2f} s: {got[-1]}")

    send("quit")
    try:
        rc = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        return fail("no exit within 30 s of quit")
    if rc != 0:
        return fail(f"exit status {rc} after quit")
    print("usi_session: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
