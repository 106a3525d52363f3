#!/usr/bin/env python3
"""Cross-check hayanagi's legal move generator against cshogi.

Generates positions by biased random playouts with cshogi (from the start
position and a handful of varied start SFENs), asks the hayanagi CLI for the
legal moves of each one through its documented contract

    hayanagi moves --sfen "<SFEN>"   ->  one USI move per line, ASCII-sorted, exit 0

and compares the result with cshogi's legal move list.

Usage:
    python3 scripts/crosscheck.py                  # 2000 positions, seed 1
    python3 scripts/crosscheck.py --positions 5000 --seed 7 --jobs 4
    python3 scripts/crosscheck.py --bin path/to/hayanagi
    python3 scripts/crosscheck.py --dump > sfens.txt   # only print the SFENs

Exit status: 0 if every position matched, 1 on any mismatch, badly formatted
output or CLI failure (non-zero exit / timeout), 2 on a usage problem (e.g. the
binary does not exist).

Requires the PyPI package `cshogi` (tested with cshogi 1.1.0).

Note on cshogi: `Board.legal_moves` (cshogi >= 1.x) already yields every legal
non-promotion too (pawn/lance/knight/bishop/rook moves into, out of or inside
the promotion zone without promoting, wherever the piece still has a move
afterwards) and excludes pawn-drop mate (uchifuzume) and nifu. The script
re-verifies this at start-up on fixed positions (e.g. `4k4/9/9/9/9/9/9/9/L3K4 b
- 1` must give 15 moves including both 9i9b and 9i9b+, pawn-drop-mate
positions must lack the drop) and, for every generated position that is not in
check, against a second code path (cshogi's pseudo-legal generator filtered
with `pseudo_legal_move_is_legal`; the only difference allowed is pawn drops
that would be mate) and against a hand-built pawn drop in front of the enemy
king, which must be absent from the list whenever playing it gives mate.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

try:
    import cshogi
except ImportError:  # pragma: no cover
    sys.stderr.write("crosscheck: the Python package 'cshogi' is required (pip install cshogi)\n")
    sys.exit(2)

REPO_ROOT = Path(__file__).resolve().parent.parent

STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

# Start positions for the playouts: (sfen, ply cap). The first five are required
# by the brief; the rest add pawn-drop-mate corners and more variety. The sparse
# pawn-drop-mate positions get short playouts (a ply cap) and are never branched
# from, so that kings wandering around an empty board do not crowd out the
# interesting positions.
START_SFENS = [
    (STARTPOS, None),
    # "Matsuri" middle game: full hands, many tactics.
    ("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", None),
    # Black in check, promoted pieces everywhere, a hand of every piece type.
    ("k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1", None),
    # Two bare kings, everything else in hand: hundreds of drops.
    ("9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", None),
    # P*1b would be pawn-drop mate (must be excluded).
    ("7lk/9/8S/9/9/9/9/7L1/8K b P 1", 12),
    # The same, rotated for White: P*9h is pawn-drop mate.
    ("k8/1l7/9/9/9/9/s8/9/KL7 w p 1", 12),
    # P*1b is pawn-drop mate only because the gold on 2b is pinned by the bishop.
    ("7nk/7g1/8S/5B3/9/9/9/9/4K4 b P 1", 12),
    # Without the pin: P*1b is legal (the gold can take the pawn).
    ("7nk/7g1/8S/9/9/9/9/9/4K4 b P 1", 12),
    # P*1b is pawn-drop mate: the pawn is protected by a bishop from a distance.
    ("7nk/7p1/9/9/5B3/9/9/9/4K4 b P 1", 12),
    # Same, but a dragon on 1c can take the pawn: P*1b is legal.
    ("7nk/7p1/8+r/9/5B3/9/9/9/4K4 b P 1", 12),
    # Two-piece handicap (White moves first).
    ("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", None),
    # Bare kings with big hands, White to move, kings close together.
    ("9/9/3k5/9/4K4/9/9/9/9 w RG2N2L9Pr2b3g4s2n2l9p 1", None),
]

# Fixed sanity cases for cshogi itself: (sfen, expected move count, moves that must
# be present, moves that must be absent).
CSHOGI_SANITY = [
    ("4k4/9/9/9/9/9/9/9/L3K4 b - 1", 15, ["9i9b", "9i9b+", "9i9c", "9i9c+", "9i9a+"], ["9i9a"]),
    (STARTPOS, 30, ["7g7f", "2h1h"], []),
    ("4k4/9/9/4P4/9/9/9/9/4K4 b - 1", 7, ["5d5c", "5d5c+"], []),
    ("k8/4P4/9/9/9/9/9/9/4K4 b - 1", 6, ["5b5a+"], ["5b5a"]),
    ("k8/9/9/9/4B4/9/9/9/4K4 b - 1", 27, ["5e2b", "5e2b+", "5e9a", "5e9a+"], []),
    ("k8/9/9/9/4R4/9/9/9/4K4 b - 1", 23, ["5e5b", "5e5b+"], []),
    ("k3r4/9/8R/9/9/9/9/9/4K4 b - 1", 6, ["1c5c", "1c5c+"], []),
    ("k8/9/9/9/9/9/9/9/4K4 b N 1", 67, ["N*1c"], ["N*1b", "N*1a"]),
    ("7lk/9/8S/9/9/9/9/7L1/8K b P 1", None, ["P*2b"], ["P*1b"]),
    ("k8/1l7/9/9/9/9/s8/9/KL7 w p 1", None, [], ["P*9h"]),
    ("7nk/7g1/8S/5B3/9/9/9/9/4K4 b P 1", None, [], ["P*1b"]),
    ("7nk/7g1/8S/9/9/9/9/9/4K4 b P 1", None, ["P*1b"], []),
    ("7nk/7p1/9/9/5B3/9/9/9/4K4 b P 1", 92, [], ["P*1b"]),
    ("7nk/7p1/8+r/9/5B3/9/9/9/4K4 b P 1", 92, ["P*1b"], []),
    ("4k4/9/4p4/9/9/9/9/9/4K4 b P 1", None, ["P*1e", "P*5e"], ["P*1a"]),  # nifu is about own pawns only
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", None, ["P*1e"], ["P*5e"]),  # nifu
]


def usi_moves(board: "cshogi.Board") -> list[str]:
    return sorted(cshogi.move_to_usi(m) for m in board.legal_moves)


def sanity_check_cshogi() -> None:
    problems = []
    for sfen, count, present, absent in CSHOGI_SANITY:
        board = cshogi.Board(sfen)
        moves = set(usi_moves(board))
        if count is not None and len(moves) != count:
            problems.append(f"{sfen}: cshogi gives {len(moves)} moves, expected {count}")
        for m in present:
            if m not in moves:
                problems.append(f"{sfen}: cshogi lacks {m}")
        for m in absent:
            if m in moves:
                problems.append(f"{sfen}: cshogi wrongly has {m}")
    # The start positions must be legal: one king each, and the side that just
    # moved must not be left in check (cshogi would then let the king be taken).
    for sfen, _ in START_SFENS:
        board = cshogi.Board(sfen)
        kings = (board.pieces.count(cshogi.BKING), board.pieces.count(cshogi.WKING))
        parts = sfen.split()
        parts[1] = "w" if parts[1] == "b" else "b"
        if kings != (1, 1) or cshogi.Board(" ".join(parts)).is_check():
            problems.append(f"start position {sfen} is not legal")
    if problems:
        sys.stderr.write("crosscheck: cshogi does not behave as this script assumes:\n")
        for p in problems:
            sys.stderr.write(f"  {p}\n")
        sys.exit(2)


def is_pawn_drop_mate(board: "cshogi.Board", move: int) -> bool:
    if not cshogi.move_is_drop(move) or cshogi.move_drop_hand_piece(move) != cshogi.HPAWN:
        return False
    board.push(move)
    try:
        return board.is_check() and board.is_game_over()
    finally:
        board.pop()


def self_check_position(board: "cshogi.Board", legal: set[str]) -> tuple[bool, int]:
    """Compare cshogi.legal_moves with pseudo-legal + pseudo_legal_move_is_legal.

    Returns (ok, number of pawn-drop mates excluded). Only meaningful when the
    side to move is not in check (cshogi's pseudo-legal filter assumes the move
    came from the evasion generator otherwise)."""
    other = {}
    for m in board.pseudo_legal_moves:
        if board.pseudo_legal_move_is_legal(m):
            other[cshogi.move_to_usi(m)] = m
    only_pseudo = set(other) - legal
    only_legal = legal - set(other)
    drop_mates = 0
    for usi in only_pseudo:
        if is_pawn_drop_mate(board, other[usi]):
            drop_mates += 1
        else:
            return False, drop_mates
    return not only_legal, drop_mates


def pawn_drop_mate(board: "cshogi.Board") -> str | None:
    """The USI of the pawn drop in front of the enemy king if it would be mate
    (only call when the side to move is not in check), else None."""
    us = board.turn
    if board.pieces_in_hand[us][cshogi.HPAWN] == 0:
        return None
    ksq = board.king_square(us ^ 1)
    # Square index = file_index * 9 + rank_index (1a = 0, 1b = 1, ...).
    to = ksq + 1 if us == cshogi.BLACK else ksq - 1
    if not 0 <= to < 81 or to // 9 != ksq // 9 or board.piece(to) != 0:
        return None
    own_pawn = cshogi.BPAWN if us == cshogi.BLACK else cshogi.WPAWN
    if any(board.piece(to // 9 * 9 + r) == own_pawn for r in range(9)):
        return None  # nifu
    move = board.drop_move(to, cshogi.PAWN)
    if not board.pseudo_legal_move_is_legal(move):
        return None
    return cshogi.move_to_usi(move) if is_pawn_drop_mate(board, move) else None


def position_key(sfen: str) -> str:
    # Drop the move number so transpositions are not counted twice.
    return sfen.rsplit(" ", 1)[0]


def choose_move(board: "cshogi.Board", moves: list[int], rng: random.Random,
                bias: float, drop_weight: float) -> int:
    """Random move, weighted towards captures, checks and promotions by `bias`;
    quiet drops get weight `drop_weight` (< 1 lets the hands fill up)."""
    if (bias <= 0 and drop_weight == 1.0) or rng.random() < 0.1:
        return rng.choice(moves)
    weights = []
    ksq = board.king_square(board.turn ^ 1)
    for m in moves:
        w = drop_weight if cshogi.move_is_drop(m) else 1.0
        to = cshogi.move_to(m)
        if bias > 0 and max(abs(to // 9 - ksq // 9), abs(to % 9 - ksq % 9)) <= 2:
            w += 1.0 * bias  # crowd the enemy king: mates, pins, pawn-drop-mate shapes
        if cshogi.move_cap(m):
            w += 6.0 * bias
        if cshogi.move_is_promotion(m):
            w += 1.5 * bias
        if bias > 0:
            board.push(m)
            if board.is_check():
                w += 5.0 * bias
            board.pop()
        weights.append(w)
    return rng.choices(moves, weights=weights, k=1)[0]


def generate_positions(n: int, seed: int, max_ply: int = 150) -> tuple[list[str], dict]:
    rng = random.Random(seed)
    positions: list[str] = []
    seen: set[str] = set()
    stats = {"playouts": 0, "in_check": 0, "no_moves": 0, "drop_mate_positions": 0,
             "promo_choice": 0, "max_hand": 0, "max_moves": 0, "self_check_failures": []}
    branchable: list[int] = []  # indices into positions that later playouts may start from
    start_index = 0

    def record(board: "cshogi.Board") -> bool:
        sfen = board.sfen()
        key = position_key(sfen)
        if key in seen:
            return False
        seen.add(key)
        positions.append(sfen)
        return True

    while len(positions) < n:
        # Half of the playouts start from one of the start SFENs (in turn), the
        # other half branch off a random position reached by an earlier playout,
        # so that deep middle-game positions get explored more than once.
        if branchable and rng.random() < 0.5:
            start = positions[rng.choice(branchable)]
            limit = rng.randint(1, max(1, max_ply // 5))
            rich = True
        else:
            start, cap = START_SFENS[start_index % len(START_SFENS)]
            start_index += 1
            limit = rng.randint(max_ply // 10, max_ply) if cap is None else min(cap, max_ply)
            rich = cap is None
        stats["playouts"] += 1
        board = cshogi.Board(start)
        # Vary how strongly each playout prefers captures and checks.
        bias = rng.choice([0.0, 1.0, 2.0, 4.0, 8.0])
        # ... and how eagerly it drops pieces (rarely: hands fill up).
        drop_weight = rng.choice([1.0, 0.3, 0.05, 0.01])
        ply = 0
        while len(positions) < n:
            moves = sorted(board.legal_moves, key=cshogi.move_to_usi)
            if record(board):
                if rich:
                    branchable.append(len(positions) - 1)
                usis = {cshogi.move_to_usi(m) for m in moves}
                in_check = board.is_check()
                stats["in_check"] += in_check
                stats["no_moves"] += not moves
                stats["max_moves"] = max(stats["max_moves"], len(moves))
                stats["max_hand"] = max(stats["max_hand"], sum(map(sum, board.pieces_in_hand)))
                if any(u.endswith("+") and u[:-1] in usis for u in usis):
                    stats["promo_choice"] += 1
                if not in_check:
                    ok, _ = self_check_position(board, usis)
                    if not ok:
                        stats["self_check_failures"].append(positions[-1])
                    drop_mate = pawn_drop_mate(board)
                    if drop_mate:
                        stats["drop_mate_positions"] += 1
                        if drop_mate in usis:
                            stats["self_check_failures"].append(positions[-1])
            if not moves or ply >= limit:
                break
            board.push(choose_move(board, moves, rng, bias, drop_weight))
            ply += 1
    return positions[:n], stats


def run_cli(binary: str, sfen: str, timeout: float) -> tuple[str, list[str] | None, str]:
    """Returns (status, moves, detail) with status in {"ok", "fail", "format"}."""
    try:
        # peeper-1 (3 bishops, 3 rooks) is a composed position: allow extra pieces.
        proc = subprocess.run([binary, "moves", "--sfen", sfen, "--allow-extra-pieces"],
                              capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "fail", None, f"timed out after {timeout}s"
    except OSError as e:
        return "fail", None, f"could not run: {e}"
    if proc.returncode != 0:
        err = (proc.stderr or proc.stdout).strip().splitlines()
        return "fail", None, f"exit {proc.returncode}: {' | '.join(err[:5])}"
    lines = [line.strip() for line in proc.stdout.splitlines()]
    lines = [line for line in lines if line]
    if lines != sorted(set(lines)):
        dup = sorted({m for m in lines if lines.count(m) > 1})
        detail = "output not in ASCII order" + (f", duplicates: {' '.join(dup)}" if dup else "")
        return "format", lines, detail
    return "ok", lines, ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=2000, help="number of positions (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--bin", default=None,
                    help="hayanagi binary (default: <repo>/target/release/hayanagi)")
    ap.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 2),
                    help="parallel CLI invocations (default: number of CPUs, at least 2)")
    ap.add_argument("--timeout", type=float, default=20.0, help="per-call timeout in seconds")
    ap.add_argument("--max-ply", type=int, default=150, help="playout ply limit (default 150)")
    ap.add_argument("--dump", action="store_true",
                    help="only print the generated SFENs (one per line) and stats on stderr")
    ap.add_argument("--show", type=int, default=10, help="mismatches to print in detail (default 10)")
    args = ap.parse_args()

    t0 = time.monotonic()
    sanity_check_cshogi()
    positions, stats = generate_positions(args.positions, args.seed, args.max_ply)
    t_gen = time.monotonic() - t0
    stat_line = (f"generated {len(positions)} positions from {stats['playouts']} playouts in {t_gen:.1f}s: "
                 f"{stats['in_check']} in check, {stats['no_moves']} with no legal move, "
                 f"{stats['promo_choice']} with a promote/no-promote choice, "
                 f"{stats['drop_mate_positions']} (not in check) with a pawn-drop mate excluded, "
                 f"max {stats['max_moves']} moves, max {stats['max_hand']} pieces in hand")
    if stats["self_check_failures"]:
        sys.stderr.write("crosscheck: WARNING cshogi legal_moves disagrees with its pseudo-legal filter on:\n")
        for s in stats["self_check_failures"][:10]:
            sys.stderr.write(f"  {s}\n")

    if args.dump:
        for s in positions:
            print(s)
        sys.stderr.write(f"crosscheck: {stat_line}\n")
        return 0

    binary = Path(args.bin) if args.bin else REPO_ROOT / "target" / "release" / "hayanagi"
    if not binary.is_file() or not os.access(binary, os.X_OK):
        sys.stderr.write(f"crosscheck: binary not found or not executable: {binary}\n")
        return 2
    binary_s = str(binary)

    expected = [usi_moves(cshogi.Board(s)) for s in positions]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda s: run_cli(binary_s, s, args.timeout), positions))

    mismatches = []  # (sfen, kind, only_cshogi, only_hayanagi, detail)
    failures = 0
    for sfen, exp, (status, got, detail) in zip(positions, expected, results):
        if status == "fail":
            failures += 1
            mismatches.append((sfen, "cli failure", None, None, detail))
            continue
        exp_set, got_set = set(exp), set(got)
        if exp_set != got_set or status == "format":
            mismatches.append((sfen, "mismatch", sorted(exp_set - got_set), sorted(got_set - exp_set), detail))

    n_mis = len(mismatches) - failures
    print(f"crosscheck: {len(positions)} positions, {n_mis} mismatches, {failures} cli failures "
          f"(seed {args.seed}, {time.monotonic() - t0:.1f}s)")
    print(f"crosscheck: {stat_line}")
    for sfen, kind, only_c, only_h, detail in mismatches[:args.show]:
        print(f"--- {kind}: {sfen}")
        print(f"    reproduce: {binary_s} moves --sfen \"{sfen}\"")
        if kind == "cli failure":
            print(f"    {detail}")
            continue
        print(f"    only in cshogi  ({len(only_c)}): {' '.join(only_c)}")
        print(f"    only in hayanagi ({len(only_h)}): {' '.join(only_h)}")
        if detail:
            print(f"    {detail}")
    if len(mismatches) > args.show > 0:
        print(f"... and {len(mismatches) - args.show} more")
    if failures:
        # Group CLI failures by message so that a rare failure is not hidden behind
        # a frequent one (numbers in the message, e.g. columns, are ignored).
        groups: dict[str, list[tuple[str, str]]] = {}
        for sfen, kind, _, _, detail in mismatches:
            if kind == "cli failure":
                groups.setdefault(re.sub(r"\d+", "#", detail), []).append((sfen, detail))
        print(f"crosscheck: cli failures by message ({len(groups)} distinct):")
        for items in sorted(groups.values(), key=lambda v: -len(v)):
            print(f"  {len(items)} x {items[0][1]}")
            print(f"      e.g. {items[0][0]}")
    # Plain closing line that test-result readers understand: one check per position.
    print(f"crosscheck: {len(positions) - len(mismatches)} passed, {len(mismatches)} failed")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
