#!/usr/bin/env python3
"""Elo of each SkillLevel, from a round robin of levels and a fixed reference, with
shogiarena (resumable).

usage: scripts/arena/skill.py NAME HAYANAGI_BINARY [--levels 0,4,8,...] [--games G]
                              [--byoyomi MS] [--margin MS] [--reference fairy|none]
       scripts/arena/skill.py NAME           # resume (or just print the table of) run NAME

Every listed level of one binary (default 0, 2, 4, ..., 20; SkillLevel 20 is full strength)
and the reference (default Fairy-Stockfish, as in the gauntlet: 1 thread, 64 MiB, its own
defaults) play each other G games a pair (default 10: five taya36 openings, each with both
colours), byoyomi MS ms a move (default 300, no main time, a move later than byoyomi +
margin loses), two games at once, so an otherwise idle machine. The ratings are one
maximum-likelihood fit over every game (Bradley-Terry, a draw half a win), anchored at the
reference (0) or, without one, at level 20; the 95% intervals come from 400 bootstrap
resamples of the games. A level between two measured ones may be read off by interpolation;
the table says which were measured.
"""

import argparse
import math
import os
import random
import shutil
import sys

import common
import report

REFERENCE = {
    # as in gauntlet.py: USI mode (its first command is `usi`), shogi by default, `Hash`
    "fairy": ("fairy-stockfish", "/usr/games/fairy-stockfish",
              {"Threads": 1, "Hash": 64, "UCI_Variant": "shogi"}),
}


def level_name(level):
    return f"level{level:02d}"


def fit(results, names, anchor, iterations=2000):
    """Ratings (Elo) maximising the likelihood of `results` [(a, b, score of a)], with
    `anchor` at 0. Minorisation-maximisation on the Bradley-Terry strengths: each step sets a
    player's strength to its points over the sum of its games' 1 / (its + opponent's)."""
    strength = {n: 1.0 for n in names}
    points = {n: 0.0 for n in names}
    for a, b, s in results:
        points[a] += s
        points[b] += 1.0 - s
    for _ in range(iterations):
        moved = 0.0
        for n in names:
            denominator = 0.0
            for a, b, _s in results:
                if n in (a, b):
                    denominator += 1.0 / (strength[a] + strength[b])
            if denominator == 0.0:
                continue
            # A player with no point (or every point) has no finite rating: keep it one
            # hundredth of a point inside, so the fit converges and the table says so.
            games = sum(1 for a, b, _s in results if n in (a, b))
            p = min(max(points[n], 0.01), games - 0.01)
            new = p / denominator
            moved = max(moved, abs(math.log(new / strength[n])))
            strength[n] = new
        if moved < 1e-9:
            break
    base = strength[anchor]
    return {n: 400.0 * math.log10(strength[n] / base) for n in names}


def table(run, names, anchor, levels, seed=1):
    rows = []
    for _gid, black, white, result, _plies in report.games(run):
        s = report.score_for(black, black, white, result)
        if s is not None and black in names and white in names:
            rows.append((black, white, s))
    if not rows:
        print("no games yet")
        return
    elo = fit(rows, names, anchor)
    rng = random.Random(seed)
    samples = {n: [] for n in names}
    for _ in range(400):
        resampled = [rows[rng.randrange(len(rows))] for _ in rows]
        present = {x for a, b, _s in resampled for x in (a, b)}
        if anchor not in present:
            continue
        for n, e in fit(resampled, sorted(present), anchor, iterations=300).items():
            samples[n].append(e)
    print(f"{len(rows)} games; Elo relative to {anchor} (95% bootstrap interval)")
    print(f"{'engine':<16} {'games':>5} {'score':>6} {'Elo':>7}   interval")
    for n in names:
        played = [(a, b, s) for a, b, s in rows if n in (a, b)]
        score = sum(s if a == n else 1.0 - s for a, b, s in played)
        lo = hi = float("nan")
        if len(samples[n]) >= 20:
            ordered = sorted(samples[n])
            lo, hi = ordered[int(0.025 * len(ordered))], ordered[int(0.975 * len(ordered)) - 1]
        share = score / len(played) if played else float("nan")
        edge = " (no point or every point: bound only)" if played and score in (0, len(played)) else ""
        print(f"{n:<16} {len(played):>5} {share:>6.1%} {elo[n]:>+7.0f}   {lo:+.0f}..{hi:+.0f}{edge}")
    print("measured levels: " + ", ".join(str(l) for l in levels))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("binary", nargs="?")
    ap.add_argument("--levels")
    ap.add_argument("--games", type=int)
    ap.add_argument("--byoyomi", type=int)
    ap.add_argument("--margin", type=int)
    ap.add_argument("--reference")
    a = ap.parse_args()

    dest = common.run_dir(a.name)
    given = {"levels": a.levels, "games": a.games, "byoyomi": a.byoyomi, "margin": a.margin,
             "reference": a.reference}
    params, fresh = common.load_or_create(dest, given, given.keys())
    if fresh:
        if not a.binary:
            sys.exit(f"{dest} does not exist yet: give HAYANAGI_BINARY")
        levels = sorted({int(x) for x in (a.levels or ",".join(map(str, range(0, 21, 2)))).split(",")})
        if not levels or min(levels) < 0 or max(levels) > 20:
            sys.exit("levels are 0 to 20")
        games = a.games or 10
        if games % 2:
            sys.exit("--games must be even (each opening with both colours)")
        params = {"levels": ",".join(map(str, levels)), "games": games,
                  "byoyomi": a.byoyomi or 300, "margin": a.margin if a.margin is not None else 100,
                  "reference": a.reference or "fairy", "source": a.binary}
        common.distinct_openings(dest, games)
        binary = common.copy_binary(a.binary, dest / "bin" / "hayanagi")
        params["sha256"] = common.sha256(binary)
        clock = {"time_ms": 0, "byoyomi_ms": params["byoyomi"], "expiry_margin_ms": params["margin"]}
        engines = []
        for level in levels:
            options = {**common.HAYANAGI_OPTIONS, "SkillLevel": level}
            engines.append({"name": level_name(level), "engine_path": common.engine_file(
                dest / "engines" / f"{level_name(level)}.yaml", level_name(level), binary, options)})
        if params["reference"] != "none":
            if params["reference"] not in REFERENCE:
                sys.exit(f"unknown reference {params['reference']!r} (known: {', '.join(REFERENCE)}, none)")
            name, path, opts = REFERENCE[params["reference"]]
            path = shutil.which(name) or path
            if not os.access(path, os.X_OK):
                sys.exit(f"{path} not found: apt-get install -y fairy-stockfish")
            relay = common.copy_binary(common.HERE / "usi_advertise.py", dest / "bin" / "usi_advertise.py")
            engines.append({"name": name, "engine_path": common.engine_file(
                dest / "engines" / f"{name}.yaml", name, relay, opts,
                ["--check", "USI_Ponder:false", "--", path], workdir=dest / "bin")})
        common.write_json(dest / "config.yaml", {
            "experiment_name": a.name,
            "engines": engines,
            "tournament": {"scheduler": "round_robin", "games_per_pair": games,
                           "num_parallel": 2, "seed": 1},
            "rules": common.rules(clock, sync_max_plies=False,
                                  openings=dest / "openings.sfen"),
            "dashboard": {"enabled": False},
        })
        common.write_json(dest / "params.json", params)

    levels = [int(x) for x in params["levels"].split(",")]
    names = [level_name(l) for l in levels]
    anchor = names[-1]
    if params["reference"] != "none":
        names.append(REFERENCE[params["reference"]][0])
        anchor = names[-1]
    pairs = len(names) * (len(names) - 1) // 2
    rc = common.shogiarena("run", "tournament", dest / "config.yaml", "--run-dir", dest / "run",
                           progress=lambda: f"{len(report.games(dest / 'run'))} of "
                                            f"{pairs * params['games']} games done")
    table(dest / "run", names, anchor, levels)
    return rc


if __name__ == "__main__":
    sys.exit(main())
