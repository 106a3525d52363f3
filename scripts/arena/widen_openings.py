#!/usr/bin/env python3
"""Write a wider opening book: from each distinct position of the taya36 lines, a few
two-ply continuations chosen by a hayanagi search, kept only where that search still calls
the position balanced.

usage: widen_openings.py ENGINE OUT [--variants 8] [--nodes 60000] [--check-nodes 150000]
                         [--margin 40] [--balance 150] [--seed 1]

Why: at fixed nodes a game is a function of its opening, so an SPRT gets at most one pair of
games per distinct opening position (DESIGN.md §6.5): 2,946 games from taya36's 1,473
positions, an interval of about ±12 Elo, too coarse for changes worth a few Elo. Two more
plies (one move each, so the side to move stays as in taya36) from each position give
several distinct positions per line, each a new sample.

How: for each base position (the first line that reaches it, in file order), `go nodes
NODES` with MultiPV 8 lists the first move's candidates; a random one within MARGIN
centipawns of the best is played (a non-promotion is left out when its promotion is legal
too), then the same for the reply. The position is kept when `go nodes CHECK` scores it
within ±BALANCE centipawns and it is new (a continuation may reach a position another one
reached). The engine's hash is cleared before every search, so a run is a function of the
engine binary, the taya36 file and the arguments. OUT gets one `startpos moves ...` line per
position, the format of taya36 itself, so `HAYANAGI_OPENINGS=OUT` points every script of this
folder at it. Resumes: the base positions OUT already has lines for are skipped.
Stdlib and cshogi (for the legal-move check and the position key).
"""

import argparse
import random
import subprocess
import sys
from pathlib import Path

import common
import report


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for name, value in (("Threads", 1), ("USI_Hash", 64), ("MultiPV", 8),
                            ("RootMateSearch", "false"), ("USI_Ponder", "false")):
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, token):
        for line in self.proc.stdout:
            if line.split()[:1] == [token]:
                return line
        raise RuntimeError("engine exited")

    def search(self, moves, nodes, multipv):
        """[(score_cp or None for a mate, move)] by multipv index, from the last info lines."""
        self.send(f"setoption name MultiPV value {multipv}")
        self.send("usinewgame")   # clears the hash: the result depends on the position only
        self.send("isready")
        self.wait("readyok")
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go nodes {nodes}")
        lines = {}
        for line in self.proc.stdout:
            words = line.split()
            if words[:1] == ["bestmove"]:
                break
            if words[:1] != ["info"] or "pv" not in words or "score" not in words:
                continue
            if "lowerbound" in words or "upperbound" in words:
                continue
            index = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
            kind, value = words[words.index("score") + 1:words.index("score") + 3]
            lines[index] = (int(value) if kind == "cp" else None, words[words.index("pv") + 1])
        else:
            raise RuntimeError("engine exited")
        return [lines[i] for i in sorted(lines)]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def candidates(result, margin, legal):
    """Moves within margin of the best (no mate scores), promotions preferred."""
    scored = [(cp, move) for cp, move in result if cp is not None and move in legal]
    if not scored:
        return []
    best = max(cp for cp, _ in scored)
    return [move for cp, move in scored
            if cp >= best - margin and not (move + "+" in legal)]


def main():
    import cshogi

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("out")
    ap.add_argument("--variants", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=60000)
    ap.add_argument("--check-nodes", type=int, default=150000)
    ap.add_argument("--margin", type=int, default=40)
    ap.add_argument("--balance", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    bases = {}
    for line in common.OPENINGS.open(encoding="utf-8"):
        words = line.split()
        if words[:2] != ["startpos", "moves"]:
            continue
        board = cshogi.Board()
        for move in words[2:]:
            board.push_usi(move)
        bases.setdefault(report.position_key(board.sfen()), words[2:])

    out = Path(a.out)
    seen, done = set(), set()
    if out.exists():
        for line in out.open(encoding="utf-8"):
            words = line.split()
            board = cshogi.Board()
            for move in words[2:]:
                board.push_usi(move)
            seen.add(report.position_key(board.sfen()))
            done.add(" ".join(words[2:-2]))
    engine = Engine(a.engine)
    kept = tried = 0
    with out.open("a", encoding="utf-8") as sink:
        for number, (key, base) in enumerate(bases.items()):
            if " ".join(base) in done:
                continue
            rng = random.Random(f"{a.seed}:{key}")
            for _ in range(a.variants):
                moves, board = list(base), cshogi.Board()
                for move in moves:
                    board.push_usi(move)
                for _ply in range(2):
                    legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
                    choice = candidates(engine.search(moves, a.nodes, 8), a.margin, legal)
                    if not choice:
                        break
                    move = rng.choice(choice)
                    moves.append(move)
                    board.push_usi(move)
                else:
                    tried += 1
                    key2 = report.position_key(board.sfen())
                    if key2 in seen or board.is_game_over():
                        continue
                    (cp, _), = engine.search(moves, a.check_nodes, 1)
                    if cp is not None and abs(cp) <= a.balance:
                        seen.add(key2)
                        sink.write("startpos moves " + " ".join(moves) + "\n")
                        sink.flush()
                        kept += 1
            if number % 50 == 0:
                print(f"{number}/{len(bases)} base positions, {kept} kept of {tried}", flush=True)
    engine.close()
    print(f"done: {kept} new positions kept of {tried} tried; {len(seen)} in {out}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
