#!/usr/bin/env python3
"""SPSA over USI spin options of hayanagi, with shogiarena (resumable).

usage: scripts/arena/spsa.py NAME BINARY PARAMS_FILE [--nodes N] [--updates U] [--option K=V ...]
       scripts/arena/spsa.py NAME            # resume (or just print the result of) run NAME

PARAMS_FILE: one option a line, `NAME START MIN MAX STEP` (STEP: the final perturbation c_end,
in the option's units; '#' starts a comment); see spsa-params.example. Each update plays one
pair of games (the +/- perturbed engines, both colours of one taya36 opening) at `go nodes N`
(default 15000), two games at once; --updates (default 2000) updates in all. Options that
`usi` does not print (hayanagi's hidden developer options) are advertised to shogiarena by
usi_advertise.py, since shogiarena only tunes advertised spins. The binary is copied into
~/hayanagi-data/arena/NAME/bin/ on the first start; the same NAME resumes.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import common
import report


def read_params(path):
    params = []
    for line_no, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 5:
            sys.exit(f"{path}:{line_no}: expected NAME START MIN MAX STEP")
        name, *nums = words
        try:
            start, lo, hi = (int(x) for x in nums[:3])
            step = float(nums[3])
        except ValueError:
            sys.exit(f"{path}:{line_no}: START MIN MAX must be integers, STEP a number")
        if not lo <= start <= hi or lo >= hi or step <= 0:
            sys.exit(f"{path}:{line_no}: need MIN <= START <= MAX, MIN < MAX, STEP > 0")
        params.append({"name": name, "start": start, "min": lo, "max": hi, "step": step})
    if not params:
        sys.exit(f"{path}: no parameters")
    return params


def refused_options(binary, params):
    """The engine's error lines for `setoption` of these (hidden) options at their START;
    hayanagi answers an unknown name or a bad value with `info string error: ...`."""
    script = "usi\n" + "".join(f"setoption name {p['name']} value {p['start']}\n" for p in params)
    out = subprocess.run([binary], input=script + "isready\nquit\n", capture_output=True,
                         text=True, timeout=60).stdout
    return "\n".join(line for line in out.splitlines() if "error" in line.lower())


def space(params):
    return {
        "schema_version": "shogiarena.spsa.space.v1",
        "target": {"protocol": "usi_options", "engine_family": "hayanagi"},
        "parameters": [{
            "id": p["name"],
            "target": {"option": p["name"]},
            "value_type": "int",
            "initial": p["start"],
            "bounds": {"min": p["min"], "max": p["max"]},
            # c_end: the last perturbation; r_end: the last learning rate (fishtest's 0.002)
            "schedule": {"c_end": p["step"], "r_end": 0.002},
            "rounding": {"mode": "stochastic"},
        } for p in params],
    }


def progress(run, updates):
    current = report.read_json(run / "spsa" / "current.json") or {}
    theta = ", ".join(f"{k} {v:.1f}" for k, v in (current.get("theta") or {}).items())
    return f"update {current.get('update_idx', 0)}/{updates}  {theta}"


def print_result(run, params):
    """The tuned values now (theta, as shogiarena last wrote them) and the run's status."""
    current = report.read_json(run / "spsa" / "current.json")
    if not current:
        print(f"no SPSA state in {run} yet")
        return
    print(f"\n== SPSA {run.parent.name}: update {current.get('update_idx')}/{params['updates']}, "
          f"{params['nodes']} nodes/move")
    start = {p["name"]: p["start"] for p in params["params"]}
    for name, value in (current.get("theta") or {}).items():
        print(f"{name:24} {value:10.2f}   (start {start.get(name)}; as USI value {round(value)})")
    terminal = report.read_json(run / "spsa" / "terminal.json")
    if terminal:
        print(f"run: {terminal.get('status')}, {terminal.get('reason')}, resumable {terminal.get('resumable')}")
    print(f"per-update log: {run / 'spsa' / 'events.jsonl'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("binary", nargs="?")
    ap.add_argument("params_file", nargs="?")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--updates", type=int)
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()

    dest = common.run_dir(a.name)
    given = {"nodes": a.nodes, "updates": a.updates, "options": common.parse_options(a.option) or None}
    params, fresh = common.load_or_create(dest, given, given.keys())
    if fresh:
        if not (a.binary and a.params_file):
            sys.exit(f"{dest} does not exist yet: give BINARY and PARAMS_FILE")
        tunables = read_params(a.params_file)
        params = {"nodes": a.nodes or 15000, "updates": a.updates or 2000,
                  "options": given["options"] or {}, "source": a.binary, "params": tunables}
        binary = common.copy_binary(a.binary, dest / "bin" / "hayanagi")
        params["sha256"] = common.sha256(binary)
        shown = common.advertised_options([binary])
        hidden = [p for p in tunables if p["name"].lower() not in shown]
        cmd, args = binary, []
        if hidden:
            refused = refused_options(binary, hidden)
            if refused:
                sys.exit(f"the engine refuses these options (not printed at `usi` either):\n{refused}")
            print("advertising hidden options via usi_advertise.py:", ", ".join(p["name"] for p in hidden))
            cmd = common.copy_binary(common.HERE / "usi_advertise.py", dest / "bin" / "usi_advertise.py")
            for p in hidden:  # the engine's own range is not known; the file's range is used
                args += ["--spin", f"{p['name']}:{p['start']}:{p['min']}:{p['max']}"]
            args += ["--", binary]
        options = {**common.HAYANAGI_OPTIONS, **params["options"]}
        # one engine: shogiarena plays it against itself, +c and -c perturbed
        engine = common.engine_file(dest / "engines" / "hayanagi.yaml", "hayanagi", cmd, options, args,
                                    workdir=Path(binary).parent)
        common.write_json(dest / "space.yaml", space(tunables))
        common.write_json(dest / "config.yaml", {
            "experiment_name": a.name,
            "engines": [{"name": "hayanagi", "engine_path": engine}],
            "rules": common.rules({"node_limit": params["nodes"]}),
            "spsa": {
                "space": str(dest / "space.yaml"),
                "num_updates": params["updates"],
                "pairs_per_update": 1,
                "num_parallel": 2,
                "variants": {"apply": {"clear_hash": False}},  # hayanagi has no `Clear Hash` button
                "derived_json_min_interval_s": 5,  # spsa/current.json at most 5 s behind
            },
            "dashboard": {"enabled": False},
            # also bounds shogiarena's wait for an answer to `usi_tunables` (an engine-side
            # parameter manifest hayanagi does not have), 120 s by default
            "system": {"engine_handshake_timeout": 10},
        })
        common.write_json(dest / "params.json", params)

    rc = common.shogiarena("run", "spsa", dest / "config.yaml", "--run-dir", dest / "run",
                           progress=lambda: progress(dest / "run", params["updates"]))
    print_result(dest / "run", params)
    return rc


if __name__ == "__main__":
    sys.exit(main())
