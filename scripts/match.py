#!/usr/bin/env python3
"""Play hayanagi (USI binary) against Debian's fairy-stockfish with cshogi's match runner.

    python3 scripts/match.py [--games 100] [--byoyomi 300] [--openings FILE] ...

Runs `python -m cshogi.cli` (both colours per opening, no ponder, 1 thread each) with each
engine behind scripts/usi_proxy.py, which logs how long every move took as the match runner
sees it. Prints wins/losses/draws, the score, the Elo difference with a 95% interval,
illegal-move, time-loss and crash counts, and the slowest moves.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def elo_interval(wins: int, losses: int, draws: int):
    """Elo difference and a 95% interval from the per-game score variance."""
    n = wins + losses + draws
    if n == 0:
        return 0.0, 0.0, 0.0, 0.0
    score = (wins + draws / 2) / n
    var = (wins * (1 - score) ** 2 + losses * score ** 2 + draws * (0.5 - score) ** 2) / n
    half = 1.96 * math.sqrt(var / n)

    def elo(p: float) -> float:
        # Scores of 0% or 100% have no finite Elo; clamp to half a game either way.
        p = min(max(p, 0.5 / n), 1 - 0.5 / n)
        return -400 * math.log10(1 / p - 1)

    return score, elo(score), elo(score - half), elo(score + half)


def wrapper(dir_: Path, name: str, engine: str, log: Path) -> str:
    path = dir_ / name
    path.write_text(
        "#!/bin/sh\n"
        f"exec {sys.executable} {ROOT / 'scripts' / 'usi_proxy.py'} --log {log} -- {engine}\n")
    path.chmod(0o755)
    return str(path)


def timing(log: Path):
    if not log.exists():
        return []
    return [float(l.split()[0]) for l in log.read_text().splitlines() if l.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--byoyomi", type=int, default=300)
    ap.add_argument("--openings", default=str(ROOT.parent / "shared/data/openings-taya36.sfen"))
    ap.add_argument("--opening-seed", type=int, default=1)
    ap.add_argument("--engine", default=str(ROOT / "target/release/hayanagi"))
    ap.add_argument("--opponent", default="/usr/games/fairy-stockfish")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--options", default="",
                    help="extra hayanagi options, cshogi style: Name:Value,Name:Value")
    ap.add_argument("--draw", type=int, default=320, help="move number at which a game is drawn")
    ap.add_argument("--out", default=None, help="directory for logs (default: a temp dir)")
    a = ap.parse_args()

    for p in (a.engine, a.opponent, a.openings):
        if not os.path.exists(p):
            print(f"match.py: {p} not found", file=sys.stderr)
            return 2
    out = Path(a.out) if a.out else Path(tempfile.mkdtemp(prefix="hayanagi-match-"))
    out.mkdir(parents=True, exist_ok=True)
    logs = {"hayanagi": out / "hayanagi.times", "fairy": out / "fairy.times"}
    for log in logs.values():
        log.unlink(missing_ok=True)
    # A private copy: rebuilding the repo during a long match must not change the engine.
    engine_copy = out / "hayanagi-under-test"
    shutil.copy2(a.engine, engine_copy)
    eng1 = wrapper(out, "hayanagi.sh", str(engine_copy), logs["hayanagi"])
    eng2 = wrapper(out, "fairy.sh", a.opponent, logs["fairy"])
    opts1 = f"USI_Hash:{a.hash},Threads:1" + (f",{a.options}" if a.options else "")
    opts2 = f"USI_Hash:{a.hash},Threads:1"
    cmd = [sys.executable, "-m", "cshogi.cli", eng1, eng2,
           "--name1", "hayanagi", "--name2", "fairy-stockfish",
           "--options1", opts1, "--options2", opts2,
           "--games", str(a.games), "--byoyomi", str(a.byoyomi), "--time", "0",
           "--opening", a.openings, "--opening-moves", "36",
           "--opening-seed", str(a.opening_seed), "--draw", str(a.draw),
           "--csa", str(out / "csa")]
    print("running:", " ".join(cmd), flush=True)
    transcript = out / "cshogi.log"
    crashed = False
    with open(transcript, "w") as t:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout:
            t.write(line)
            t.flush()
            if "games finished" in line or "start." in line:
                print(line.rstrip(), flush=True)
        crashed = proc.wait() != 0
    text = transcript.read_text()
    wld = re.findall(r"^hayanagi vs fairy-stockfish: (\d+)-(\d+)-(\d+)", text, re.M)
    if not wld:
        print(f"match.py: no result in {transcript}", file=sys.stderr)
        return 1
    w, l, d = map(int, wld[-1])
    # cshogi prints who lost by an illegal move (反則負け) or on time (切れ負け).
    illegal = len(re.findall(r"反則負け", text))
    timeup = len(re.findall(r"切れ負け", text))
    score, elo, lo, hi = elo_interval(w, l, d)
    print(f"\ngames {w + l + d}: hayanagi {w} wins, {l} losses, {d} draws; score {score * 100:.1f}%")
    print(f"Elo difference {elo:+.0f} (95% interval {lo:+.0f} .. {hi:+.0f})")
    print(f"illegal-move losses {illegal}, time losses {timeup}, match runner failed: {crashed}")
    for name, log in logs.items():
        t = sorted(timing(log))
        if t:
            over = sum(1 for x in t if x > a.byoyomi)
            print(f"{name}: {len(t)} moves, slowest {t[-1]:.0f} ms, 99th percentile "
                  f"{t[int(len(t) * 0.99) - 1]:.0f} ms, over {a.byoyomi} ms: {over}")
    print(f"logs and CSA records: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
