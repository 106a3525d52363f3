"""Differential test: the binding's legal moves against cshogi's on random positions.

Random playouts (seeded) from the start position and the standard handicap positions, a
560 positions in all; every position's set of USI moves must be exactly cshogi's
(both generate every legal non-promotion and exclude pawn-drop mate and nifu). Positions
are handed over as SFEN through Engine.set_position, and every tenth one also as the
start position plus the moves played, through Position.push (the moves path).
"""

from __future__ import annotations

import random

import pytest

import hayanagi

cshogi = pytest.importorskip("cshogi")

STARTS = {
    "even": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lance": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "bishop": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "rook": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "two-piece": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "four-piece": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "six-piece": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
POSITIONS_PER_START = 80


def cshogi_moves(board) -> set:
    return {cshogi.move_to_usi(m) for m in board.legal_moves}


def playout_positions(start: str, rng: random.Random, count: int):
    """(sfen, moves from start) pairs sampled along random games (half the moves are
    captures when there are any, so hands fill up and drops abound)."""
    out = []
    while len(out) < count:
        board = cshogi.Board(start)
        played = []
        for _ in range(rng.randrange(20, 160)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            caps = [m for m in moves if board.piece(cshogi.move_to(m)) != 0]
            m = rng.choice(caps) if caps and rng.random() < 0.5 else rng.choice(moves)
            board.push(m)
            played.append(cshogi.move_to_usi(m))
            # Positions in check (evasions, interpositions by drop) are favoured.
            if rng.random() < (0.5 if board.is_check() else 0.06) and len(out) < count:
                out.append((board.sfen(), list(played)))
        if len(out) < count:
            out.append((board.sfen(), list(played)))
    return out


@pytest.mark.parametrize("name", sorted(STARTS))
def test_legal_moves_match_cshogi(name: str) -> None:
    start = STARTS[name]
    rng = random.Random(f"hayanagi-{name}")
    positions = playout_positions(start, rng, POSITIONS_PER_START)
    checks = drops = 0
    with hayanagi.Engine(hash_mib=1) as engine:
        for k, (sfen, played) in enumerate(positions):
            board = cshogi.Board(sfen)
            want = cshogi_moves(board)
            engine.set_position("sfen " + sfen)
            got = engine.legal_moves()
            assert len(got) == len(set(got)), f"duplicates in {sfen}"
            assert set(got) == want, (
                f"{name} position {k} ({sfen}): only hayanagi {sorted(set(got) - want)}, "
                f"only cshogi {sorted(want - set(got))}"
            )
            assert engine.sfen().split()[:3] == sfen.split()[:3]
            if k % 10 == 0:
                with hayanagi.Position("sfen " + start, played) as pos:
                    assert set(pos.legal_moves()) == want
                    assert pos.sfen().split()[:3] == sfen.split()[:3]
            checks += board.is_check()
            drops += any("*" in m for m in want)
    # The sample covers the hard cases.
    assert checks >= 3, f"only {checks} positions in check"
    assert drops >= POSITIONS_PER_START // 4, f"only {drops} positions with drops"
