#!/usr/bin/env python3
"""hayanagi against Fairy-Stockfish and GPSShogi at a time control, with shogiarena (resumable).

usage: scripts/arena/gauntlet.py NAME HAYANAGI_BINARY [--games G] [--byoyomi MS] [--margin MS]
                                 [--opponents fairy,gps] [--option K=V ...]
       scripts/arena/gauntlet.py NAME           # resume (or just print the result of) run NAME

Each opponent plays G games (default 200) against hayanagi: taya36 openings, each with both
colours, byoyomi MS ms a move (default 300, no main time), two games at once. Every engine
gets 1 thread and 64 MiB; hayanagi RootMateSearch false, gpsusi BookDepth 0. A move later
than byoyomi + margin (default 100 ms) loses on time. Opponents come from Debian's packages
`fairy-stockfish` (/usr/games/fairy-stockfish, in USI mode: its default variant is then
shogi) and `gpsshogi` (/usr/games/gpsusi). hayanagi is copied into
~/hayanagi-data/arena/NAME/bin/ on the first start; the same NAME resumes.
"""

import argparse
import os
import shutil
import sys

import common
import report

# name, binary, options, and a time control of its own (None: the gauntlet's)
OPPONENTS = {
    # Fairy-Stockfish speaks USI when its first command is `usi`; its hash option is `Hash`
    # there (it answers `No such option: USI_Hash`), and UCI_Variant's default is then shogi.
    # Its own defaults otherwise (Move Overhead 30: about 220 ms a move at 300 ms byoyomi;
    # two moves of 426 and 434 ms were seen while another 2-game run shared the 2 cores, so
    # gauntlets run on an idle machine, with the runner's expiry margin for both engines).
    "fairy": ("fairy-stockfish", "/usr/games/fairy-stockfish",
              {"Threads": 1, "Hash": 64, "UCI_Variant": "shogi"}, None),
    # gpsusi advertises `Thread` (max 2), not `Threads`, and no hash option; USI_Hash is sent
    # anyway (the USI standard's name; it is accepted without a word). It thinks 0.8-1.2 s a
    # move at byoyomi 100, 300 or 1000 ms alike (as if rounding it up to whole seconds), so at
    # 300 ms it loses every game on time: it plays on a soft clock (no loss on time, at most
    # 5 s a move) and its move times are printed beside the result.
    "gps": ("gpsusi", "/usr/games/gpsusi", {"Thread": 1, "USI_Hash": 64, "BookDepth": 0},
            {"should_allow_timeout": True, "max_wait_ms": 5000}),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("binary", nargs="?")
    ap.add_argument("--games", type=int)
    ap.add_argument("--byoyomi", type=int)
    ap.add_argument("--margin", type=int)
    ap.add_argument("--opponents")
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()

    dest = common.run_dir(a.name)
    given = {"games": a.games, "byoyomi": a.byoyomi, "margin": a.margin, "opponents": a.opponents,
             "options": common.parse_options(a.option) or None}
    params, fresh = common.load_or_create(dest, given, given.keys())
    if fresh:
        if not a.binary:
            sys.exit(f"{dest} does not exist yet: give HAYANAGI_BINARY")
        params = {"games": a.games or 200, "byoyomi": a.byoyomi or 300,
                  "margin": a.margin if a.margin is not None else 100,
                  "opponents": a.opponents or "fairy,gps", "options": given["options"] or {},
                  "source": a.binary}
        common.distinct_openings(dest, params["games"])
        binary = common.copy_binary(a.binary, dest / "bin" / "hayanagi")
        params["sha256"] = common.sha256(binary)
        clock = {"time_ms": 0, "byoyomi_ms": params["byoyomi"], "expiry_margin_ms": params["margin"]}
        relay = common.copy_binary(common.HERE / "usi_advertise.py", dest / "bin" / "usi_advertise.py")
        options = common.stage_eval_file({**common.HAYANAGI_OPTIONS, **params["options"]},
                                         dest / "bin")
        engines = [{"name": "hayanagi", "engine_path": common.engine_file(
            dest / "engines" / "hayanagi.yaml", "hayanagi", binary, options)}]
        for key in params["opponents"].split(","):
            if key not in OPPONENTS:
                sys.exit(f"unknown opponent {key!r} (known: {', '.join(OPPONENTS)})")
            name, path, opts, own_clock = OPPONENTS[key]
            path = shutil.which(name) or path
            if not os.access(path, os.X_OK):
                sys.exit(f"{path} not found: apt-get install -y fairy-stockfish gpsshogi")
            # neither advertises USI_Ponder, so shogiarena would ponder with them: the relay
            # advertises it as false (see usi_advertise.py)
            engines.append({"name": name, "engine_path": common.engine_file(
                dest / "engines" / f"{name}.yaml", name, relay, opts,
                ["--check", "USI_Ponder:false", "--", path], workdir=dest / "bin")})
            if own_clock:
                engines[-1]["time_control"] = {**clock, **own_clock}
        common.write_json(dest / "config.yaml", {
            "experiment_name": a.name,
            "engines": engines,
            "tournament": {"scheduler": "gauntlet", "baseline_count": 1,
                           "games_per_pair": params["games"], "num_parallel": 2, "seed": 1},
            "rules": common.rules(clock, sync_max_plies=False,
                                  openings=dest / "openings.sfen"),
            "dashboard": {"enabled": False},
        })
        common.write_json(dest / "params.json", params)

    rc = common.shogiarena("run", "tournament", dest / "config.yaml", "--run-dir", dest / "run",
                           progress=lambda: f"{len(report.games(dest / 'run'))} games done")
    report.print_gauntlet(dest / "run", "hayanagi")
    return rc


if __name__ == "__main__":
    sys.exit(main())
