"""Training records against cshogi, both ways.

1. `hayanagi gensfen` writes a file (even and handicap starts, random moves, two threads);
   cshogi reads every record (`PackedSfenValue`, `set_psfen`, `move16_from_psv`) and must
   see the position, move, score and result that `hayanagi dump-psv` prints, a legal best
   move, no position in check and no adjudicated or mate score.
2. cshogi packs positions of random playouts from every start (hands full of drops,
   promoted pieces, handicap piece boxes) with their legal moves; `hayanagi dump-psv` must
   decode each to cshogi's SFEN and move.
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cshogi = pytest.importorskip("cshogi")

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("HAYANAGI_BIN", ROOT / "target" / "release" / "hayanagi"))
OPENINGS = ROOT.parent / "shared" / "data" / "openings-taya36.sfen"
EVAL_LIMIT = 3000

STARTS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
]


def hayanagi(*args: str) -> str:
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build it with cargo build --release")
    return subprocess.run(
        [str(BINARY), *args], check=True, capture_output=True, text=True, timeout=600
    ).stdout


def board_fields(sfen: str) -> str:
    """Board, side and hand: cshogi's set_psfen knows no move number."""
    return " ".join(sfen.split()[:3])


def dumped(path: Path) -> list:
    rows = []
    for line in hayanagi("dump-psv", "--input", str(path)).splitlines():
        words = line.split()
        assert words[0] == "sfen" and words[5] == "move", line
        rows.append(
            {
                "sfen": " ".join(words[1:5]),
                "move": words[6],
                "score": int(words[8]),
                "result": int(words[10]),
            }
        )
    return rows


def test_generated_records_read_the_same_in_cshogi(tmp_path: Path) -> None:
    out = tmp_path / "gen.psv"
    args = ["gensfen", "--output", str(out), "--positions", "1500", "--threads", "2",
            "--nodes", "1500", "--handicap", "30", "--seed", "11",
            "--eval-limit", str(EVAL_LIMIT)]
    if OPENINGS.exists():
        args += ["--openings", str(OPENINGS)]
    hayanagi(*args)
    records = np.fromfile(out, dtype=cshogi.PackedSfenValue)
    assert len(records) == 1500 and out.stat().st_size == 1500 * 40
    ours = dumped(out)
    assert len(ours) == len(records)
    board = cshogi.Board()
    results = set()
    for rec, mine in zip(records, ours):
        board.set_psfen(rec["sfen"])
        assert board_fields(board.sfen()) == board_fields(mine["sfen"])
        assert int(rec["gamePly"]) == int(mine["sfen"].split()[3])
        move = board.move_from_move16(cshogi.move16_from_psv(int(rec["move"])))
        assert board.is_legal(move), (board.sfen(), int(rec["move"]))
        assert cshogi.move_to_usi(move) == mine["move"]
        assert int(rec["score"]) == mine["score"] and abs(mine["score"]) < EVAL_LIMIT
        assert int(rec["game_result"]) == mine["result"] and mine["result"] in (-1, 0, 1)
        assert int(rec["padding"]) == 0
        assert not board.is_check(), board.sfen()
        results.add(mine["result"])
    assert {-1, 1} <= results


def test_cshogi_packed_positions_decode_the_same(tmp_path: Path) -> None:
    rng = random.Random(5)
    records = np.zeros(600, dtype=cshogi.PackedSfenValue)
    expected = []
    i = 0
    while i < len(records):
        board = cshogi.Board(rng.choice(STARTS))
        for _ in range(rng.randrange(1, 200)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over() or i >= len(records):
                break
            caps = [m for m in moves if board.piece(cshogi.move_to(m)) != 0]
            move = rng.choice(caps) if caps and rng.random() < 0.6 else rng.choice(moves)
            if rng.random() < 0.15:
                board.to_psfen(records[i]["sfen"])
                records[i]["move"] = cshogi.move16_to_psv(cshogi.move16(move))
                records[i]["score"] = rng.randrange(-2000, 2000)
                records[i]["gamePly"] = board.move_number
                records[i]["game_result"] = rng.choice((-1, 0, 1))
                expected.append((board.sfen(), cshogi.move_to_usi(move), board.move_number))
                i += 1
            board.push(move)
    path = tmp_path / "cshogi.psv"
    records.tofile(path)
    ours = dumped(path)
    assert len(ours) == len(expected)
    for rec, mine, (sfen, move, ply) in zip(records, ours, expected):
        assert board_fields(mine["sfen"]) == board_fields(sfen)
        assert int(mine["sfen"].split()[3]) == ply
        assert mine["move"] == move
        assert mine["score"] == int(rec["score"]) and mine["result"] == int(rec["game_result"])
