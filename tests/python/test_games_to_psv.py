"""scripts/arena/games_to_psv.py: training records from the arena's game databases. On a
database built here (shogiarena's tables, only the columns the script reads), cshogi must
read back each searched position with its score, move (board moves, a promotion, a drop),
move number and the result for the side to move; positions in check, mate scores, moves
without a search and the ending row are skipped; a repeated game adds nothing; a game that
ended in an error is left out."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cshogi = pytest.importorskip("cshogi")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "arena" / "games_to_psv.py"
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
PIECES = "PLNSBRG"


def yaneuraou_move16(usi: str) -> int:
    """The 16-bit move shogiarena stores (YaneuraOu's), written independently of the script."""
    def square(s: str) -> int:
        return (int(s[0]) - 1) * 9 + ord(s[1]) - ord("a")
    if usi[1] == "*":
        return square(usi[2:4]) | (PIECES.index(usi[0]) + 1) << 7 | 1 << 14
    return square(usi[2:4]) | square(usi[0:2]) << 7 | (1 << 15 if usi.endswith("+") else 0)


def a_checking_drop(board) -> str:
    for m in board.legal_moves:
        usi = cshogi.move_to_usi(m)
        if "*" in usi:
            board.push(m)
            check = board.is_check()
            board.pop()
            if check:
                return usi
    raise AssertionError("no checking drop")


def build_games() -> tuple[list[tuple], list[str]]:
    """A game with every kind of row, as (ply, usi or None, eval, source) rows."""
    board = cshogi.Board(START)
    moves = ["7g7f", "3c3d", "8h2b+", "3a2b"]
    for m in moves:
        board.push_usi(m)
    check = a_checking_drop(board)   # black drops the bishop it took with check
    board.push_usi(check)
    evasion = cshogi.move_to_usi(next(iter(board.legal_moves)))
    board.push_usi(evasion)
    last = cshogi.move_to_usi(next(iter(board.legal_moves)))
    moves += [check, evasion, last]
    evals = [30, -20, 50, -40, 300, -250, 31999]
    rows = [(ply, m, ev, "search") for ply, (m, ev) in enumerate(zip(moves, evals))]
    rows[2] = (2, moves[2], 50, "book")            # not searched: not written
    rows.append((len(moves), None, None, None))    # the ending (resignation) row
    return rows, moves


def write_db(path: Path, games: list[tuple[str, list[tuple]]]) -> None:
    con = sqlite3.connect(path)
    con.execute("create table game (id integer primary key, initial_position_sfen text, game_result text)")
    con.execute("create table game_move (id integer primary key, game_id integer, ply integer, "
                "next_move integer, eval integer, move_source text)")
    for gid, (result, rows) in enumerate(games, start=1):
        con.execute("insert into game values (?, ?, ?)", (gid, START, result))
        for ply, usi, ev, src in rows:
            m = 516 if usi is None else yaneuraou_move16(usi)
            con.execute("insert into game_move (game_id, ply, next_move, eval, move_source) values (?, ?, ?, ?, ?)",
                        (gid, ply, m, ev, src))
    con.commit()
    con.close()


def test_records_from_a_game_database(tmp_path: Path) -> None:
    rows, moves = build_games()
    db = tmp_path / "game.db"
    # The game, its repetition (a fixed-node pair), a game that ended in an error.
    write_db(db, [("BLACK_WIN", rows), ("BLACK_WIN", rows), ("ERROR", rows)])
    out = tmp_path / "out.psv"
    done = subprocess.run([sys.executable, str(SCRIPT), str(out), str(db)], check=True,
                          capture_output=True, text=True)
    assert "2 games (1 games left out)" in done.stdout, done.stdout
    records = np.fromfile(out, cshogi.PackedSfenValue)
    # Written: plies 0, 1, 3 and 4 (the checking drop); not ply 2 (a book move), ply 5 (the
    # evasion: its position is in check) nor ply 6 (a mate score).
    board = cshogi.Board(START)
    expected = []
    for ply, (usi, ev, src) in enumerate((r[1], r[2], r[3]) for r in rows[:-1]):
        if src == "search" and abs(ev) < 3000 and not board.is_check():
            side = 1 if board.turn == cshogi.BLACK else -1
            expected.append((board.sfen(), ev, usi, ply + 1, side))
        board.push_usi(usi)
    assert [e[2] for e in expected] == [moves[0], moves[1], moves[3], moves[4]]
    assert len(records) == len(expected)
    read = cshogi.Board()
    for r, (sfen, ev, usi, ply, result) in zip(records, expected):
        read.set_psfen(r["sfen"])
        assert read.sfen().split()[:3] == sfen.split()[:3]
        assert int(r["score"]) == ev
        assert cshogi.move_to_usi(read.move_from_move16(cshogi.move16_from_psv(int(r["move"])))) == usi
        assert int(r["gamePly"]) == ply
        assert int(r["game_result"]) == result
