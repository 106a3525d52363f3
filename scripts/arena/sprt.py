#!/usr/bin/env python3
"""SPRT of a new hayanagi binary against a base one, with shogiarena (resumable).

usage: scripts/arena/sprt.py NAME NEW_BINARY BASE_BINARY [--nodes N | --byoyomi MS] [--elo1 E] [--games CAP]
                             [--openings FILE] [--option K=V ...] [--new-option K=V ...] [--base-option K=V ...]
       scripts/arena/sprt.py NAME            # resume (or just print the result of) run NAME

Protocol (scripts/arena/README.md): `go nodes N` every move (default 15000), pentanomial GSPRT,
elo0 0, elo1 10 (5 for tweaks), alpha = beta = 0.05, 2 games at once, at most 2,946 games:
the 1,473 distinct positions of the taya36 openings, each played once with both colours
(--openings: another file of lines, e.g. one from widen_openings.py, for more distinct
positions and so a higher cap).
Both binaries are copied into ~/hayanagi-data/arena/NAME/bin/ on the first start; a second
call with the same NAME resumes the run where it stopped (Ctrl-C stops it cleanly, so does a
kill: only the games in flight are lost). --option goes to both engines, --new-option / --base-option to one (e.g. an A/B
test of the hidden SearchFeatures with the same binary on both sides). --parallel 1 plays one
game at a time (a Threads=2 engine against Threads=1 on 2 cores: only one engine thinks at a
time, pondering being off).
--byoyomi MS plays at equal time instead (MS ms a move, no main time, 100 ms expiry margin):
for a change that costs speed, such as an evaluation term or a net; it needs an otherwise
idle machine, since both games at once take a core each.
"""

import argparse
import sys
from pathlib import Path

import common
import report


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("new", nargs="?")
    ap.add_argument("base", nargs="?")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--byoyomi", type=int)
    ap.add_argument("--elo1", type=float)
    ap.add_argument("--games", type=int)
    ap.add_argument("--openings",
                    help="a file of `startpos moves ...` lines (default: taya36, or $HAYANAGI_OPENINGS)")
    ap.add_argument("--parallel", type=int,
                    help="games at once (default 2; 1 for an engine with 2 threads on 2 cores)")
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--new-option", action="append", default=[])
    ap.add_argument("--base-option", action="append", default=[])
    a = ap.parse_args()

    dest = common.run_dir(a.name)
    given = {
        "nodes": a.nodes, "byoyomi": a.byoyomi, "elo1": a.elo1, "games": a.games,
        "parallel": a.parallel,
        "openings_source": str(Path(a.openings).resolve()) if a.openings else None,
        "new_options": common.parse_options(a.option + a.new_option) or None,
        "base_options": common.parse_options(a.option + a.base_option) or None,
    }
    params, fresh = common.load_or_create(dest, given, given.keys())
    if fresh:
        if not (a.new and a.base):
            sys.exit(f"{dest} does not exist yet: give NEW_BINARY and BASE_BINARY")
        params = {
            "nodes": a.nodes or 15000, "byoyomi": a.byoyomi, "elo1": a.elo1 if a.elo1 is not None else 10.0,
            "games": a.games or 6000, "parallel": a.parallel or 2,
            "new_options": given["new_options"] or {}, "base_options": given["base_options"] or {},
            "new_source": a.new, "base_source": a.base,
        }
        source = Path(given["openings_source"] or common.OPENINGS)
        positions = common.distinct_openings(dest, source=source)
        params["openings_source"] = str(source)
        if a.games and a.games > 2 * positions:
            print(f"note: at most {2 * positions} games, one pair per distinct opening position",
                  flush=True)
        params["games"] = min(params["games"], 2 * positions)
        params["positions"] = positions
        if a.nodes and a.byoyomi:
            sys.exit("give --nodes or --byoyomi, not both")
        if not a.byoyomi and not 10000 <= params["nodes"] <= 20000:
            print(f"note: {params['nodes']} nodes is outside the protocol's 10k-20k", flush=True)
        bins = {side: common.copy_binary(getattr(a, side), dest / "bin" / side) for side in ("new", "base")}
        params["sha256"] = {side: common.sha256(path) for side, path in bins.items()}
        engines = []
        for side in ("new", "base"):
            options = common.stage_eval_file(
                {**common.HAYANAGI_OPTIONS, **params[f"{side}_options"]}, dest / "bin")
            engines.append({"name": side, "engine_path": common.engine_file(
                dest / "engines" / f"{side}.yaml", side, bins[side], options)})
        config = {
            "experiment_name": a.name,
            "engines": engines,
            "tournament": {"scheduler": "round_robin", "num_parallel": params["parallel"], "seed": 1},
            "rules": common.rules(
                {"time_ms": 0, "byoyomi_ms": params["byoyomi"], "expiry_margin_ms": 100}
                if params.get("byoyomi") else {"node_limit": params["nodes"]},
                openings=dest / "openings.sfen"),
            "sprt": {
                "tested_engine": "new", "model": "gsprt-pentanomial-v1",
                "elo0": 0.0, "elo1": params["elo1"], "alpha": 0.05, "beta": 0.05,
                "max_games": params["games"], "num_parallel": params["parallel"],
            },
            "dashboard": {"enabled": False},
        }
        common.write_json(dest / "config.yaml", config)
        common.write_json(dest / "params.json", params)   # last: marks a complete start
    elif a.new or a.base:
        for side in ("new", "base"):
            path = getattr(a, side)
            if path and common.sha256(path) != params["sha256"][side]:
                print(f"note: {path} differs from the copy the run started with; "
                      f"the copy in {dest / 'bin'} is used", flush=True)

    rc = common.shogiarena("run", "tournament", dest / "config.yaml", "--run-dir", dest / "run",
                           progress=lambda: report.sprt_line(dest / "run", float(params["elo1"]))[0])
    report.print_sprt(dest / "run", params)
    return rc


if __name__ == "__main__":
    sys.exit(main())
