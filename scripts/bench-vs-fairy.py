#!/usr/bin/env python3
"""Search speed (nodes/second) of hayanagi side by side with Fairy-Stockfish.

Both engines search the positions of `hayanagi bench` one after the other (never in
parallel), single-threaded with a 16 MiB hash, for the same `movetime`. Nodes and time
are taken from each engine's last `info` line (the engines' own counters; node
definitions differ between engines, so the ratio is a rough guide, not an exact one).

Fairy-Stockfish (Debian package `fairy-stockfish`, /usr/games/fairy-stockfish) is driven
over USI: it switches to USI when the first command is `usi`, and its variant then
defaults to shogi (UCI_Variant is set to shogi explicitly anyway when it is offered).

Usage: scripts/bench-vs-fairy.py [--movetime MS] [--positions K] [--depth D]
                                 [--hayanagi PATH] [--fairy PATH] [--hash MB]
Stdlib only.
"""

import argparse
import os
import platform
import queue
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class EngineError(Exception):
    pass


class UsiEngine:
    """A USI engine in a subprocess, read by a thread so that every wait has a timeout."""

    def __init__(self, path):
        self.path = path
        self.proc = None
        self.lines = None
        self.id_name = None
        self.options = {}

    def start(self):
        self.proc = subprocess.Popen(
            [self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        t = threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True)
        t.start()

    @staticmethod
    def _reader(proc, q):
        for line in proc.stdout:
            q.put(line.rstrip("\n"))
        q.put(None)  # EOF

    def send(self, cmd):
        if self.proc is None or self.proc.poll() is not None:
            raise EngineError("engine is not running")
        try:
            self.proc.stdin.write(cmd + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"cannot write to engine: {e}")

    def read_until(self, pred, timeout):
        """Lines up to and including the first one for which pred is true."""
        deadline = time.monotonic() + timeout
        out = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(out)
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise TimeoutError(out)
            if line is None:
                raise EngineError("engine exited; last output: " + " | ".join(out[-5:]))
            out.append(line)
            if pred(line):
                return out

    def handshake(self, threads, hash_mb, timeout=10.0):
        self.send("usi")
        for line in self.read_until(lambda l: l.strip() == "usiok", timeout):
            if line.startswith("id name "):
                self.id_name = line[len("id name "):].strip()
            elif line.startswith("option name "):
                rest = line[len("option name "):]
                name = rest.split(" type ")[0].strip()
                default = None
                toks = rest.split()
                if "default" in toks:
                    i = toks.index("default")
                    default = toks[i + 1] if i + 1 < len(toks) else ""
                self.options[name] = default
        if "UCI_Variant" in self.options:
            self.send("setoption name UCI_Variant value shogi")
        self.send(f"setoption name Threads value {threads}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.isready(timeout)

    def isready(self, timeout=10.0):
        self.send("isready")
        return self.read_until(lambda l: l.strip() == "readyok", timeout)

    def go(self, go_cmd, timeout):
        """Send go_cmd, return all lines up to bestmove. On timeout send stop once."""
        self.send(go_cmd)
        is_best = lambda l: l.startswith("bestmove")
        try:
            return self.read_until(is_best, timeout)
        except TimeoutError as e:
            got = e.args[0]
            self.send("stop")
            try:
                return got + self.read_until(is_best, 5.0)
            except TimeoutError:
                raise EngineError(f"no bestmove {timeout + 5:.0f} s after '{go_cmd}'")

    def quit(self):
        if self.proc is None:
            return
        try:
            if self.proc.poll() is None:
                self.send("quit")
                self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def restart(self, threads, hash_mb):
        self.quit()
        self.start()
        self.handshake(threads, hash_mb)


# ---------------------------------------------------------------------------------------
# Parsing

def parse_info(line):
    """Dict of the integer fields of a USI info line (before 'pv'/'string')."""
    toks = line.split()
    if not toks or toks[0] != "info":
        return None
    d = {}
    i = 1
    while i < len(toks):
        k = toks[i]
        if k in ("pv", "string"):
            break
        if k == "score" and i + 2 < len(toks):
            d["score"] = toks[i + 1] + " " + toks[i + 2]
            i += 3
            continue
        if i + 1 < len(toks):
            try:
                d[k] = int(toks[i + 1])
                i += 2
                continue
            except ValueError:
                pass
        i += 1
    return d


def last_nodes_time(lines):
    """(nodes, time_ms, bestmove) from the last info line that has both nodes and time."""
    nodes = t = None
    best = None
    for line in lines:
        info = parse_info(line)
        if info and "nodes" in info and "time" in info:
            nodes, t = info["nodes"], info["time"]
        elif line.startswith("bestmove"):
            best = line.split()[1] if len(line.split()) > 1 else "?"
    return nodes, t, best


def depth_line(lines, depth):
    """(nodes, time_ms) of the last info line with exactly this depth."""
    found = None
    for line in lines:
        info = parse_info(line)
        if info and info.get("depth") == depth and "time" in info:
            found = (info.get("nodes"), info["time"])
    return found


def parse_sfen(sfen):
    """(board, side, sorted hand counts) of an SFEN, so that hand order does not matter."""
    f = sfen.split()
    if len(f) < 3:
        return None
    hand = {}
    if f[2] != "-":
        n = ""
        for ch in f[2]:
            if ch.isdigit():
                n += ch
            else:
                hand[ch] = hand.get(ch, 0) + (int(n) if n else 1)
                n = ""
    return f[0], f[1], tuple(sorted(hand.items()))


# ---------------------------------------------------------------------------------------
# hayanagi

def run(cmd, timeout, cwd=REPO):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def bench_positions(hayanagi):
    rc, out, err = run([hayanagi, "bench", "--depth", "1"], 120)
    if rc != 0:
        sys.exit(f"'hayanagi bench --depth 1' failed ({rc}): {err.strip()}")
    pos = []
    for line in out.splitlines():
        if line.startswith("position ") and ":" in line:
            head, arg = line.split(":", 1)
            pos.append((int(head.split()[1]), arg.strip()))
    if not pos:
        sys.exit("no 'position <i>: ...' lines in 'hayanagi bench --depth 1' output")
    return pos


def hayanagi_sfen(hayanagi, arg):
    rc, out, _ = run([hayanagi, "sfen", "--sfen", arg], 30)
    return out.strip() if rc == 0 else None


def hayanagi_search(hayanagi, arg, limit_args, hash_mb, timeout):
    cmd = [hayanagi, "analyze", "--sfen", arg] + limit_args + ["--option", f"Hash={hash_mb}"]
    rc, out, err = run(cmd, timeout)
    if rc != 0:
        raise EngineError(f"hayanagi analyze exited {rc}: {err.strip()}")
    return out.splitlines()


# ---------------------------------------------------------------------------------------
# Fairy-Stockfish

def fairy_position_cmd(arg):
    if arg == "startpos" or arg.startswith("startpos "):
        return "position " + arg
    if arg.startswith("sfen "):
        return "position " + arg
    return "position sfen " + arg


def fairy_setup(eng, arg):
    """usinewgame + position; returns the engine's own SFEN of it (from 'd')."""
    eng.send("usinewgame")
    eng.send(fairy_position_cmd(arg))
    eng.send("d")
    lines = eng.isready(10.0)
    for line in lines:
        if line.startswith("Sfen: "):
            return line[len("Sfen: "):].strip()
    return None


# ---------------------------------------------------------------------------------------

def fmt_int(x):
    return "-" if x is None else f"{x:,}"


def nps(nodes, ms):
    if nodes is None or ms is None:
        return None
    return nodes * 1000 // max(ms, 1)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def hayanagi_version(hayanagi):
    try:
        rc, head, _ = run(["git", "rev-parse", "--short", "HEAD"], 10)
        v = head.strip() if rc == 0 else "unknown"
        rc, st, _ = run(["git", "status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock"], 10)
        if rc == 0 and st.strip():
            v += " (+ uncommitted changes in src/)"
    except (OSError, subprocess.TimeoutExpired):
        v = "unknown"
    try:
        built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(hayanagi)))
        v += f", binary built {built}"
    except OSError:
        pass
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--movetime", type=int, default=2000, help="ms per position (default 2000)")
    ap.add_argument("--positions", type=int, default=None, help="only the first K positions")
    ap.add_argument("--depth", type=int, default=10, help="time-to-depth test depth (default 10)")
    ap.add_argument("--hash", type=int, default=16, help="hash MiB for both (default 16)")
    ap.add_argument("--hayanagi", default=os.path.join(REPO, "target", "release", "hayanagi"))
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()

    if not os.access(a.hayanagi, os.X_OK):
        sys.exit(f"{a.hayanagi} not found: build it with 'cargo build --release'")
    if not os.access(a.fairy, os.X_OK):
        sys.exit(f"{a.fairy} not found: apt-get install -y fairy-stockfish")

    positions = bench_positions(a.hayanagi)
    if a.positions is not None:
        positions = positions[: a.positions]

    fairy = UsiEngine(a.fairy)
    fairy.start()
    anomalies = []
    try:
        fairy.handshake(1, a.hash)

        print(f"machine:   {platform.machine()} ({os.cpu_count()} logical CPUs)")
        print(f"cpu:       {cpu_model()}")
        print(f"hayanagi:  {hayanagi_version(a.hayanagi)}")
        print(f"fairy:     {fairy.id_name} ({a.fairy}; UCI_Variant default "
              f"'{fairy.options.get('UCI_Variant')}' in USI mode)")
        print(f"settings:  Threads 1, Hash {a.hash} MiB, movetime {a.movetime} ms, "
              f"{len(positions)} positions, engines run alternately (hayanagi first)")
        print()

        hdr = (f"{'pos':>3}  {'hayanagi nodes':>14} {'ms':>6} {'nps':>10}   "
               f"{'fairy nodes':>12} {'ms':>6} {'nps':>10}   {'h/f':>5}")
        print(hdr)
        print("-" * len(hdr))
        tot = {"hn": 0, "ht": 0, "fn": 0, "ft": 0}
        go_timeout = a.movetime / 1000.0 + 15.0
        for idx, arg in positions:
            # Same position for both? Compare hayanagi's normalised SFEN with fairy's `d`.
            h_sfen = hayanagi_sfen(a.hayanagi, arg)
            try:
                f_sfen = fairy_setup(fairy, arg)
            except (EngineError, TimeoutError) as e:
                f_sfen = None
                anomalies.append(f"position {idx}: fairy-stockfish setup failed: {e}")
                fairy.restart(1, a.hash)
                try:
                    fairy_setup(fairy, arg)
                except (EngineError, TimeoutError) as e2:
                    anomalies.append(f"position {idx}: fairy-stockfish setup failed again: {e2}")
            if h_sfen is None:
                anomalies.append(f"position {idx}: 'hayanagi sfen' rejects '{arg}'")
            if f_sfen is None:
                anomalies.append(f"position {idx}: fairy-stockfish printed no 'Sfen:' for it")
            if h_sfen and f_sfen and parse_sfen(h_sfen) != parse_sfen(f_sfen):
                anomalies.append(
                    f"position {idx}: engines disagree on the position: hayanagi '{h_sfen}', "
                    f"fairy '{f_sfen}'")

            # hayanagi
            hn = ht = None
            try:
                lines = hayanagi_search(a.hayanagi, arg, ["--movetime", str(a.movetime)],
                                        a.hash, go_timeout + 15)
                hn, ht, hbest = last_nodes_time(lines)
                if hn is None:
                    anomalies.append(f"position {idx}: hayanagi printed no info line with "
                                     f"nodes/time (bestmove {hbest})")
            except (EngineError, subprocess.TimeoutExpired) as e:
                anomalies.append(f"position {idx}: hayanagi: {e}")

            # fairy-stockfish (position already set up above)
            fn = ft = None
            try:
                lines = fairy.go(f"go movetime {a.movetime}", go_timeout)
                fn, ft, fbest = last_nodes_time(lines)
                if fn is None:
                    anomalies.append(f"position {idx}: fairy-stockfish printed no info line "
                                     f"with nodes/time (bestmove {fbest})")
                elif fbest in ("resign", "win", "(none)", None):
                    anomalies.append(f"position {idx}: fairy-stockfish bestmove {fbest}")
                unknown = [l for l in lines if l.lower().startswith(("unknown", "invalid", "illegal"))]
                if unknown:
                    anomalies.append(f"position {idx}: fairy-stockfish said: {unknown[0]}")
            except (EngineError, TimeoutError) as e:
                anomalies.append(f"position {idx}: fairy-stockfish: {e}; restarting it")
                fairy.restart(1, a.hash)

            hr, fr = nps(hn, ht), nps(fn, ft)
            ratio = f"{hr / fr:5.2f}" if hr and fr else "    -"
            print(f"{idx:>3}  {fmt_int(hn):>14} {fmt_int(ht):>6} {fmt_int(hr):>10}   "
                  f"{fmt_int(fn):>12} {fmt_int(ft):>6} {fmt_int(fr):>10}   {ratio}", flush=True)
            if hn is not None and fn is not None:
                tot["hn"] += hn
                tot["ht"] += ht
                tot["fn"] += fn
                tot["ft"] += ft

        print("-" * len(hdr))
        hr, fr = nps(tot["hn"], tot["ht"]), nps(tot["fn"], tot["ft"])
        ratio = f"{hr / fr:5.2f}" if hr and fr else "    -"
        print(f"{'sum':>3}  {fmt_int(tot['hn']):>14} {fmt_int(tot['ht']):>6} {fmt_int(hr):>10}   "
              f"{fmt_int(tot['fn']):>12} {fmt_int(tot['ft']):>6} {fmt_int(fr):>10}   {ratio}")
        print("(totals over positions where both engines reported; nps = sum nodes / sum time)")
        print(f"overall nps ratio hayanagi/fairy-stockfish: {ratio.strip()}")
        print()

        # Time to depth (not comparable across engines: depth means different things).
        print(f"time to depth {a.depth} from the start position "
              f"(for the record; depths are not comparable across engines):")
        try:
            lines = hayanagi_search(a.hayanagi, "startpos", ["--depth", str(a.depth)], a.hash, 600)
            r = depth_line(lines, a.depth)
            print(f"  hayanagi:        " + (f"{r[1]:,} ms, {fmt_int(r[0])} nodes" if r else
                                              f"no depth-{a.depth} info line"))
        except (EngineError, subprocess.TimeoutExpired) as e:
            print(f"  hayanagi:        failed: {e}")
        try:
            fairy_setup(fairy, "startpos")
            lines = fairy.go(f"go depth {a.depth}", 600)
            r = depth_line(lines, a.depth)
            print(f"  fairy-stockfish: " + (f"{r[1]:,} ms, {fmt_int(r[0])} nodes" if r else
                                              f"no depth-{a.depth} info line"))
        except (EngineError, TimeoutError) as e:
            print(f"  fairy-stockfish: failed: {e}")
    finally:
        fairy.quit()

    if anomalies:
        print()
        print("anomalies:")
        for s in anomalies:
            print("  " + s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
