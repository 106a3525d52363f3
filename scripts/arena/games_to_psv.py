#!/usr/bin/env python3
"""Training records from the arena's games: every searched move of the shogiarena game
databases given, as YaneuraOu `PackedSfenValue` records (the format of `hayanagi gensfen`
and of `hayanagi-tune --data`, docs/DESIGN.md §14.1).

usage: scripts/arena/games_to_psv.py OUT.psv RUN_DIR_OR_GAME_DB ... [--eval-limit 3000]

An SPRT run plays thousands of games of the engine against itself at fixed nodes (15,000
a move under the protocol of scripts/arena/README.md), and the database keeps each move's
search score: the same kind of record gensfen makes (at 5,000 nodes), for nothing. Each
position is written with the score of the search that chose its move (the side to move's
view, as USI reports it), the move, its move number and the game's result for the side
to move. Skipped, as gensfen skips them: positions in check, scores at or beyond
--eval-limit (mate scores among them), moves without a search score (a book or an
unknown source); games that ended otherwise than by a win or a draw the rules decide
(an error, a time forfeit) are left out whole. A position already written (a fixed-node
pair often repeats its first game with colours swapped) is written once. Records stay in
game order, so the tuner's validation blocks of 1,000 records hold whole games.

Only pass runs whose both sides are this engine with the evaluation being fitted (not a
gauntlet: the opponents' scores mean something else).
"""
import argparse
import os
import sqlite3
import sys

import cshogi
import numpy as np

# Results for black (+1 win, -1 loss, 0 draw); anything else leaves the game out.
RESULTS = {
    "BLACK_WIN": 1,
    "WHITE_WIN": -1,
    "DRAW_BY_REPETITION": 0,
    "DRAW_BY_MAX_PLIES": 0,
}


def databases(paths):
    """Each path's database: a run folder's run/game.db, a folder's game.db, or the file."""
    for p in paths:
        candidates = [os.path.join(p, "run", "game.db"), os.path.join(p, "game.db")] if os.path.isdir(p) else [p]
        db = next((c for c in candidates if os.path.exists(c)), None)
        if db is None:
            sys.exit(f"no game.db under {p}")
        yield db


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--eval-limit", type=int, default=3000)
    a = ap.parse_args()
    seen = set()
    written = games = skipped_games = 0
    record = np.zeros(1, cshogi.PackedSfenValue)
    with open(a.out, "wb") as out:
        for db in databases(a.runs):
            con = sqlite3.connect(db)
            moves = {}
            for gid, ply, m, ev, src in con.execute(
                "select game_id, ply, next_move, eval, move_source from game_move order by game_id, ply"
            ):
                moves.setdefault(gid, []).append((ply, m, ev, src))
            for gid, sfen, result in con.execute(
                "select id, initial_position_sfen, game_result from game order by id"
            ):
                black_result = RESULTS.get(result)
                if black_result is None:
                    skipped_games += 1
                    continue
                games += 1
                board = cshogi.Board(sfen)
                chunk = []
                for ply, m, ev, src in moves.get(gid, []):
                    # The last row of a game holds its ending (a resignation, no move).
                    if m is None or src is None:
                        break
                    # The database keeps YaneuraOu's 16-bit move, the record's own format.
                    move = board.move_from_move16(cshogi.move16_from_psv(m))
                    if not board.is_legal(move):
                        sys.exit(f"{db}: game {gid} ply {ply}: illegal move {m:#06x}")
                    if src == "search" and ev is not None and abs(ev) < a.eval_limit and not board.is_check():
                        board.to_psfen(record["sfen"])
                        key = record["sfen"].tobytes()
                        if key not in seen:
                            seen.add(key)
                            side = 1 if board.turn == cshogi.BLACK else -1
                            record["score"] = ev
                            record["move"] = m
                            record["gamePly"] = min(ply + 1, 65535)
                            record["game_result"] = black_result * side
                            chunk.append(record.tobytes())
                    board.push(move)
                out.write(b"".join(chunk))
                written += len(chunk)
            print(f"{db}: {written:,} records so far", file=sys.stderr)
    print(f"{written:,} records from {games:,} games ({skipped_games} games left out) -> {a.out}")


if __name__ == "__main__":
    main()
