"""scripts/arena/report.py: a pair that starts from an opening position an earlier pair
started from replays that pair at fixed nodes, so the SPRT figures count it once."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "arena"))

import report  # noqa: E402

X = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
Y = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"


def write_run(run: Path, pairs: list[tuple[str, str, str]]) -> None:
    """One pair per (opening, result with new as black, result with new as white)."""
    run.mkdir(parents=True)
    con = sqlite3.connect(run / "game.db")
    con.execute("CREATE TABLE player (id INTEGER PRIMARY KEY, player_name TEXT)")
    con.execute("CREATE TABLE game (id INTEGER PRIMARY KEY, game_name TEXT, black_player_id"
                " INTEGER, white_player_id INTEGER, game_result TEXT, num_moves INTEGER)")
    con.executemany("INSERT INTO player VALUES (?, ?)", [(1, "new"), (2, "base")])
    schedule = []
    for i, (sfen, first, second) in enumerate(pairs):
        for j, (black, white, result) in enumerate([(1, 2, first), (2, 1, second)]):
            game_id = f"g{2 * i + j}"
            schedule.append({"game_id": game_id, "sfen": sfen, "pair_key": f"pair-{i}"})
            con.execute("INSERT INTO game (game_name, black_player_id, white_player_id,"
                        " game_result, num_moves) VALUES (?, ?, ?, ?, 100)",
                        (game_id, black, white, result))
    con.commit()
    con.close()
    (run / "schedule.json").write_text(json.dumps({"games": schedule}))


def test_a_pair_from_a_position_already_played_is_left_out(tmp_path: Path) -> None:
    # The second pair starts from X again (another move number: the same position) and
    # replays the first; the third starts from Y.
    x_again = X.replace(" 2", " 40")
    write_run(tmp_path / "run", [(X, "BLACK_WIN", "WHITE_WIN"),
                                 (x_again, "BLACK_WIN", "WHITE_WIN"),
                                 (Y, "WHITE_WIN", "WHITE_WIN")])
    rows, wdl, penta, repeats = report.sprt_stats(tmp_path / "run")
    assert len(rows) == 6
    assert repeats == 1
    assert penta == [0, 0, 1, 0, 1]
    assert (wdl[1.0], wdl[0.5], wdl[0.0]) == (3, 0, 1)
    line = report.sprt_line(tmp_path / "run", 10)[0]
    assert line.startswith("games 4  W/D/L 3/0/1  penta [0, 0, 1, 0, 1]")
    assert "left out: 1 pairs" in line


def test_distinct_positions_count_in_full(tmp_path: Path) -> None:
    write_run(tmp_path / "run", [(X, "BLACK_WIN", "WHITE_WIN"), (Y, "DRAW", "DRAW")])
    _, _, penta, repeats = report.sprt_stats(tmp_path / "run")
    assert repeats == 0
    assert penta == [0, 0, 1, 0, 1]


def test_missed_mates_count_the_moves_after_an_opponent_saw_itself_mated(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    con = sqlite3.connect(run / "game.db")
    con.execute("CREATE TABLE player (id INTEGER PRIMARY KEY, player_name TEXT)")
    con.execute("CREATE TABLE game (id INTEGER PRIMARY KEY, black_player_id INTEGER,"
                " white_player_id INTEGER, initial_position_sfen TEXT)")
    con.execute("CREATE TABLE game_move (id INTEGER PRIMARY KEY, game_id INTEGER, ply INTEGER,"
                " eval INTEGER)")
    con.executemany("INSERT INTO player VALUES (?, ?)", [(1, "new"), (2, "base")])
    # Game 1, black (new) to move first: base (white) reports mated in 4 at its first move,
    # new finds the mate; base reports it again later and new plays on with a centipawn score.
    # Game 2, white (new) to move first: new reports itself mated, base misses the mate.
    con.executemany("INSERT INTO game VALUES (?, ?, ?, ?)", [(1, 1, 2, X.replace(" w ", " b ")),
                                                             (2, 2, 1, X)])
    evals = {1: [100, -31996, 31997, -31996, 900], 2: [-31990, 500, None]}
    rows = [(gid, ply, value) for gid, values in evals.items() for ply, value in enumerate(values)]
    con.executemany("INSERT INTO game_move (game_id, ply, eval) VALUES (?, ?, ?)", rows)
    con.commit()
    con.close()
    assert report.missed_mates(run) == {"new": (2, 1), "base": (1, 1)}
