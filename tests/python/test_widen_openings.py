"""scripts/arena/widen_openings.py: the wider opening book for fixed-node SPRTs (more distinct
positions than taya36's 1,473). Each line it writes extends a base line by two legal moves,
every position is new, the file is the same on a second run, and a resumed run adds nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cshogi

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "arena"))

import report  # noqa: E402
import widen_openings  # noqa: E402

BASES = ["startpos moves 7g7f 3c3d 2g2f", "startpos moves 2g2f 8c8d 7g7f", "startpos moves 7g7f 3c3d 2g2f"]


def engine_binary() -> Path:
    binary = ROOT / "target" / "release" / "hayanagi"
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "hayanagi"], cwd=ROOT, check=True)
    return binary


def widen(binary: Path, openings: Path, out: Path) -> None:
    env = {**os.environ, "HAYANAGI_OPENINGS": str(openings)}
    subprocess.run([sys.executable, str(ROOT / "scripts" / "arena" / "widen_openings.py"), str(binary),
                    str(out), "--variants", "4", "--nodes", "3000", "--check-nodes", "5000"],
                   env=env, check=True, capture_output=True, text=True)


def test_candidates_keep_the_close_legal_moves_and_promote() -> None:
    legal = {"7g7f", "8h2b", "8h2b+", "2g2f", "5g5f"}
    result = [(50, "8h2b+"), (49, "8h2b"), (30, "7g7f"), (None, "2g2f"), (-20, "5g5f"), (60, "9a9b")]
    # 9a9b is not legal, 2g2f has a mate score, 5g5f is 70 below the best, 8h2b has a promotion.
    assert widen_openings.candidates(result, 40, legal) == ["8h2b+", "7g7f"]
    assert widen_openings.candidates([(None, "7g7f")], 40, legal) == []


def test_the_book_extends_each_base_by_two_new_positions_and_is_reproducible(tmp_path: Path) -> None:
    binary = engine_binary()
    openings = tmp_path / "bases.sfen"
    openings.write_text("\n".join(BASES) + "\n")
    out = tmp_path / "wide.sfen"
    widen(binary, openings, out)
    lines = out.read_text().splitlines()
    assert lines, "no position kept"
    keys = set()
    for line in lines:
        words = line.split()
        assert words[:2] == ["startpos", "moves"] and " ".join(words[:-2]) in BASES, line
        board = cshogi.Board()
        for move in words[2:]:
            assert board.is_legal(board.move_from_usi(move)), line
            board.push_usi(move)
        assert board.turn == cshogi.WHITE   # three base plies and two more: white to move
        keys.add(report.position_key(board.sfen()))
    assert len(keys) == len(lines)

    widen(binary, openings, out)   # resumes: every base is done
    assert out.read_text().splitlines() == lines
    again = tmp_path / "again.sfen"
    widen(binary, openings, again)
    assert again.read_text().splitlines() == lines
