#!/usr/bin/env python3
"""Seeded generator of mate problems from game-like positions, verified by cshogi.

Games start from taya36 openings (`../shared/data/openings-taya36.sfen` or
$HAYANAGI_OPENINGS) and go on with seeded greedy-random moves (captures of valuable pieces
and checks preferred, so that kings get exposed the way they do at the end of real games).
Every position from the 50th ply on is probed with cshogi's DfPn; a position with a mate
is kept with its shortest length:

- the length is that of the line cshogi's DfPn finds at the smallest odd depth limit d
  (1, 3, 5, ...) at which it finds one no longer than d (its limit is not exact: a search
  limited to 9 plies answered an 11-ply line), and a search with the depth limit raised
  (255) must find a mate too. A shorter mate that cshogi misses within its node budget can
  remain: above 3 plies the length is cshogi's, an upper bound of the shortest;
- for lengths up to 3 an exhaustive search (every check, every evasion) confirms that
  no shorter mate exists and that the length is right;
- the mate line cshogi prints is replayed (legal, each attacker move checks, mate at the end).

Problems are kept until each length of the requested range has its quota, so the lengths
are spread evenly. Output: `sfen<TAB>plies` lines, the format of tsume_sample100.tsv.

usage: scripts/gen-tsume.py [--seed 1] [--per-length 150] [--min 3] [--max 15]
                            [--out tests/data/tsume/generated.tsv]
"""
import argparse
import os
import random
import sys
import time

import cshogi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VALUE = {cshogi.PAWN: 1, cshogi.LANCE: 3, cshogi.KNIGHT: 4, cshogi.SILVER: 5, cshogi.GOLD: 6,
         cshogi.BISHOP: 8, cshogi.ROOK: 10, cshogi.PROM_PAWN: 6, cshogi.PROM_LANCE: 6,
         cshogi.PROM_KNIGHT: 6, cshogi.PROM_SILVER: 6, cshogi.PROM_BISHOP: 10,
         cshogi.PROM_ROOK: 12}


def openings():
    path = os.environ.get("HAYANAGI_OPENINGS") or os.path.join(
        ROOT, "..", "shared", "data", "openings-taya36.sfen")
    with open(path) as f:
        return [l.split()[2:] for l in f if l.startswith("startpos moves")]


def choose(board, rng):
    """A greedy-random move: the most valuable capture or a check, often; else any."""
    moves = list(board.legal_moves)
    checks = set(board.check_moves)

    def score(m):
        to = cshogi.move_to(m)
        captured = board.piece(to) if not cshogi.move_is_drop(m) else 0
        s = VALUE.get(cshogi.piece_to_piece_type(captured), 0) if captured else 0
        if m in checks:
            s += 4
        return s + rng.random() * 6

    return max(moves, key=score)


def dfpn(board, depth, nodes):
    d = cshogi.DfPn()
    d.set_max_depth(depth)
    d.set_max_search_node(nodes)
    found = d.search(board)
    return found, (d.get_pv(board) if found else [])


def shortest_length(board, max_len, probe_nodes, nodes):
    """Smallest odd d <= max_len with a mate within d plies (by cshogi), else None. A first
    probe with `probe_nodes` sorts out most positions (no mate, or none found cheaply)."""
    found, _ = dfpn(board, max_len, probe_nodes)
    if not found:
        return None
    for d in range(1, max_len + 1, 2):
        found, pv = dfpn(board, d, nodes)
        # cshogi's depth limit is not exact: a search limited to d plies can answer a
        # longer mate (seen: d = 9 with an 11-ply line), so the line must fit too.
        if found and len(pv) <= d and replays(board, pv):
            return len(pv)
    return None


def replays(board, pv):
    b = cshogi.Board(board.sfen())
    for i, m in enumerate(pv):
        if not b.is_legal(m):
            return False
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return False
    return len(pv) % 2 == 1 and b.is_game_over()


def mated(board):
    return not any(True for _ in board.legal_moves)


def exhaustive_mate_within(board, plies):
    """True when the side to move mates within `plies` (odd, at most 3), by brute force."""
    for m in list(board.check_moves):
        board.push(m)
        try:
            if mated(board):
                return True
            if plies >= 3 and all(escapes_fail(board, e) for e in list(board.legal_moves)):
                return True
        finally:
            board.pop()
    return False


def escapes_fail(board, evasion):
    board.push(evasion)
    try:
        return exhaustive_mate_within(board, 1)
    finally:
        board.pop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-length", type=int, default=150)
    ap.add_argument("--min", type=int, default=3)
    ap.add_argument("--max", type=int, default=15)
    ap.add_argument("--probe-nodes", type=int, default=5_000)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/data/tsume/generated.tsv"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lines = openings()
    want = {l: args.per_length for l in range(args.min, args.max + 1, 2)}
    kept = {l: [] for l in want}
    seen = set()
    games = probes = 0
    start = last = time.time()
    while any(len(kept[l]) < want[l] for l in want):
        games += 1
        board = cshogi.Board()
        for u in rng.choice(lines):
            board.push_usi(u)
        for ply in range(36, 320):
            if board.is_game_over():
                break
            if ply >= 50 and not board.is_check():
                key = " ".join(board.sfen().split()[:3])
                if key not in seen:
                    seen.add(key)
                    probes += 1
                    n = shortest_length(board, args.max, args.probe_nodes, args.nodes)
                    if n is not None and n >= args.min and len(kept[n]) < want[n]:
                        ok_deep, pv = dfpn(board, 255, args.nodes * 4)
                        ok = ok_deep and replays(board, pv)
                        if ok and n <= 3:
                            ok = exhaustive_mate_within(board, n) and not (
                                n > 1 and exhaustive_mate_within(board, n - 2))
                        if ok:
                            kept[n].append(board.sfen())
            board.push(choose(board, rng))
        if time.time() - last >= 30:
            last = time.time()
            counts = " ".join(f"{l}:{len(kept[l])}" for l in kept)
            print(f"{time.time() - start:6.0f}s games {games} probes {probes} kept {counts}",
                  file=sys.stderr, flush=True)
    with open(args.out, "w") as f:
        f.write(f"#sfen\tmate_ply   (scripts/gen-tsume.py --seed {args.seed} --per-length "
                f"{args.per_length} --min {args.min} --max {args.max}: shortest lengths by "
                f"cshogi's DfPn, {games} games, {probes} positions probed)\n")
        for l in sorted(kept):
            for sfen in kept[l]:
                f.write(f"{sfen}\t{l}\n")
    print(f"wrote {sum(len(v) for v in kept.values())} problems to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
