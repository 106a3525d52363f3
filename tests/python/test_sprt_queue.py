"""The SPRT queue runner of scripts/arena/sprt_queue.py: how it takes tests off its file, and
its early-stop rule on the figures of tests stopped or decided in stop 43."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "arena"))

import sprt_queue  # noqa: E402


def test_the_first_test_line_leaves_the_file_and_comments_stay(tmp_path: Path) -> None:
    queue = tmp_path / "queue.txt"
    queue.write_text("# next\n\nrfp-x NEW BASE --new-option Tune_RfpDepth=9\nlmr-y\nSTOP\n")
    assert sprt_queue.take_first(queue) == "rfp-x NEW BASE --new-option Tune_RfpDepth=9"
    assert queue.read_text() == "# next\n\nlmr-y\nSTOP\n"
    assert sprt_queue.take_first(queue) == "lmr-y"
    assert sprt_queue.take_first(queue) == "STOP"
    assert sprt_queue.take_first(queue) is None
    assert queue.read_text() == "# next\n\n"


def test_a_line_can_exempt_its_test_from_the_early_stop_rule() -> None:
    args = ["v-x", "NEW", "BASE", "--no-early-stop", "--base-option", "Tune_RfpDepth=5"]
    assert sprt_queue.without_early_stop_flag(args) == (
        ["v-x", "NEW", "BASE", "--base-option", "Tune_RfpDepth=5"], True)
    assert sprt_queue.without_early_stop_flag(["v-x"]) == (["v-x"], False)


def test_the_early_stop_rule() -> None:
    reason = sprt_queue.early_stop_reason
    # s-rfpd7 when it was accepted (H1, +26.2 Elo): goes on.
    assert reason([121, 9, 389, 15, 171]) is None
    # s-qsstore1 (577 games, -16.9): stopped by the second rule.
    assert reason([79, 4, 137, 2, 66]).startswith("576 games, Elo -16.9")
    # s-lmpd6r7 (1,006 games in pairs, +0.7): stopped by the third rule; the same counts
    # halved (under 1,000 games) go on.
    assert reason([119, 9, 246, 9, 120]) is not None
    assert reason([60, 4, 123, 4, 60]) is None
    # Clearly worse but too few games for any rule: goes on; more of the same: stops.
    assert reason([30, 0, 60, 0, 10]) is None
    assert reason([60, 0, 120, 0, 20]).startswith("400 games")
    # No pair yet, or every pair lost: nothing to judge by.
    assert reason([0, 0, 0, 0, 0]) is None
    assert reason([40, 0, 0, 0, 0]) is None


def test_spsa_theta_becomes_one_rounded_option_per_parameter(tmp_path: Path, monkeypatch) -> None:
    run = tmp_path / "spsa-x" / "run" / "spsa"
    run.mkdir(parents=True)
    (run / "current.json").write_text(
        '{"update_idx": 7, "theta": {"Tune_RfpMargin": 121.6, "Tune_LmpBase": 2.4,'
        ' "Tune_QsearchSeeMargin": -130.5}}'
    )
    monkeypatch.setattr(sprt_queue.common, "ARENA_ROOT", tmp_path)
    args = ["s-x", "NEW", "BASE", "--spsa-theta", "spsa-x", "--games", "2000"]
    assert sprt_queue.spsa_theta_options(args) == [
        "s-x", "NEW", "BASE",
        "--new-option", "Tune_LmpBase=2",
        "--new-option", "Tune_QsearchSeeMargin=-130",
        "--new-option", "Tune_RfpMargin=122",
        "--games", "2000",
    ]
    # Lines without it are left alone.
    assert sprt_queue.spsa_theta_options(["lmr-y"]) == ["lmr-y"]
