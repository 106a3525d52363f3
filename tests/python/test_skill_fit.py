"""The rating fit of scripts/arena/skill.py (SkillLevel calibration) recovers known
ratings from games simulated with them, and anchors where it is told."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "arena"))

import skill  # noqa: E402


def simulate(true_elo: dict[str, float], games: int, seed: int) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    names = list(true_elo)
    out = []
    for _ in range(games):
        a, b = rng.sample(names, 2)
        p = 1.0 / (1.0 + 10.0 ** ((true_elo[b] - true_elo[a]) / 400.0))
        out.append((a, b, 1.0 if rng.random() < p else 0.0))
    return out


def test_the_fit_recovers_simulated_ratings_within_sampling_error() -> None:
    true_elo = {"ref": 0.0, "level20": 150.0, "level10": -250.0, "level00": -700.0}
    fitted = skill.fit(simulate(true_elo, 6000, seed=7), list(true_elo), "ref")
    assert fitted["ref"] == 0.0
    for name, elo in true_elo.items():
        # 6,000 games among four players: about 1,000 per pair, a standard error of about
        # 25 Elo for the close pairs and more for the far ones.
        assert abs(fitted[name] - elo) < 60, (name, fitted[name], elo)


def test_the_anchor_is_zero_and_differences_do_not_depend_on_it() -> None:
    true_elo = {"a": 0.0, "b": -100.0, "c": -300.0}
    games = simulate(true_elo, 3000, seed=3)
    by_a = skill.fit(games, list(true_elo), "a")
    by_c = skill.fit(games, list(true_elo), "c")
    assert by_c["c"] == 0.0
    for name in true_elo:
        assert abs((by_a[name] - by_a["c"]) - by_c[name]) < 1e-6


def test_a_player_who_lost_every_game_gets_a_finite_rating_below_the_others() -> None:
    games = [("a", "b", 0.5)] * 10 + [("a", "c", 1.0)] * 10 + [("b", "c", 1.0)] * 10
    fitted = skill.fit(games, ["a", "b", "c"], "a")
    assert fitted["c"] < fitted["b"] - 300
    assert abs(fitted["a"] - fitted["b"]) < 1
