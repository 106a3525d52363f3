"""Shared helpers for the shogiarena wrappers in this folder (stdlib + shogiarena only).

Each run lives in ~/hayanagi-data/arena/<NAME>/ (override the root with HAYANAGI_ARENA):
    params.json    what the run was started with (kept; a second call resumes from it)
    bin/           copies of the binaries under test (made on the first start only)
    engines/*.yaml shogiarena engine files      config.yaml  the shogiarena run config
    run/           shogiarena's own run folder (game.db, state.json, manifest.json, ...)
YAML files are written as JSON, which every YAML loader reads.
"""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import report

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ARENA_ROOT = Path(os.environ.get("HAYANAGI_ARENA", Path.home() / "hayanagi-data" / "arena"))
OPENINGS = Path(os.environ.get("HAYANAGI_OPENINGS", REPO.parent / "shared" / "data" / "openings-taya36.sfen"))

# Options every hayanagi gets in these tests: one thread, 64 MiB, no mate thread beside the
# search (it would take a third core at concurrency 2, and its nodes are not in the limit),
# and no pondering: shogiarena sends `go ponder` to every engine that names a ponder move
# unless USI_Ponder is false (two games at once would then keep four searches on 2 cores).
HAYANAGI_OPTIONS = {"Threads": 1, "USI_Hash": 64, "RootMateSearch": False, "USI_Ponder": False}

def distinct_openings(dest, games=None, source=None):
    """Write dest/openings.sfen, the positions the lines of `source` (a file of `startpos
    moves ...` lines; default OPENINGS, the taya36 lines) reach, each once (taya36's 1,957
    lines reach 1,473 positions; 42 lines reach one of them), and return how many there are;
    exit when `games` (a pair per position) needs more.

    At fixed nodes a game is a function of its opening (one thread: the A/A run s-aa-rfp7
    split every pair), so an opening drawn twice plays the same pair twice: a second
    sample of nothing. Drawn with replacement from the lines, 1,000 pairs of stop 49's
    s-postlmr1200 started from 634 positions, one of them 29 times, and counted so the
    run read +21.0 Elo where its distinct positions give -10.1 (DESIGN.md §6.5)."""
    from shogiarena._core.contexts.game_session.adapters.orchestration.config_core import (
        InitialPositionConfig)
    source = Path(source or OPENINGS)
    lines = sum(1 for line in source.open(encoding="utf-8") if line.strip())
    config = InitialPositionConfig(type="file", source=str(source), source_format="usi_line",
                                   selection_policy="without_replacement")
    seen = {}
    for entry in config.generate_entries(lines, "1"):
        seen.setdefault(report.position_key(entry.initial_sfen), entry.initial_sfen)
    if games is not None and games > 2 * len(seen):
        sys.exit(f"--games: at most {2 * len(seen)} (one pair per distinct opening position)")
    path = dest / "openings.sfen"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(sfen + "\n" for sfen in sorted(seen.values())), encoding="utf-8")
    return len(seen)


# Game rules shared by all runs: openings from taya36, each played with both colours
# (pair_both: a pentanomial pair per opening), openings drawn with a fixed seed; the
# official 4-fold repetition (sennichite) and a 320-ply draw.
def rules(time_control, sync_max_plies=True, openings=None):
    """sync_max_plies: also tell each engine the 320-ply limit (MaxMovesToDraw|Draw_Ply); an
    engine without either option then fails to start, so the gauntlet turns it off.
    openings: a file of distinct_openings(), drawn without replacement (at most one pair per
    position); None: the taya36 lines with replacement (SPSA, whose engines change every
    pair, so no two games repeat)."""
    positions = {
        "type": "file",
        "source": str(OPENINGS),
        "source_format": "usi_line",
        "flip_policy": "pair_both",
    }
    if openings is not None:
        positions.update(source=str(openings), source_format="sfen",
                         selection_policy="without_replacement")
    return {
        "time_control": time_control,
        "initial_positions": positions,
        "repetition_occurrences_to_draw": 4,
        "adjudication": {"max_plies": 320, "sync_max_plies_with_engine": sync_max_plies},
    }


def run_dir(name):
    if not name or "/" in name or name.startswith("."):
        sys.exit(f"bad run name: {name!r}")
    return ARENA_ROOT / name


def write_json(path, obj):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def copy_binary(src, dest):
    """Copy an engine binary (refusing a missing or non-executable one)."""
    src = Path(src).expanduser().resolve()
    if not src.is_file() or not os.access(src, os.X_OK):
        sys.exit(f"not an executable file: {src}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dest)
    return str(dest)


def stage_eval_file(options, bin_dir):
    """A net given as EvalFile=PATH is copied into the run's bin/ folder, so that the run
    keeps the net it started with (as it keeps its binaries), and named as EvalDir (that
    folder) plus EvalFile (the file's name): shogiarena reads EvalFile the way YaneuraOu
    does, relative to EvalDir (default "eval"), and sends an absolute EvalFile on as its
    bare name, which the engine would look for in its working directory."""
    path = options.get("EvalFile")
    if not path or path == "<empty>":
        return options
    src = Path(path).expanduser().resolve()
    if not src.is_file():
        sys.exit(f"EvalFile: no such file: {src}")
    bin_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, bin_dir / src.name)
    return {**options, "EvalDir": str(bin_dir.resolve()), "EvalFile": src.name}


def parse_options(pairs):
    """['K=V', ...] -> {K: V} with ints and true/false converted."""
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            sys.exit(f"expected NAME=VALUE, got {pair!r}")
        low = value.lower()
        if low in ("true", "false"):
            out[key] = low == "true"
        else:
            try:
                out[key] = int(value)
            except ValueError:
                out[key] = value
        # a bare string stays a string (SearchFeatures=none, ParallelMode=lazy, ...)
    return out


def advertised_options(cmd):
    """Lower-cased names of the options an engine prints at `usi`."""
    out = subprocess.run(list(cmd), input="usi\nquit\n", capture_output=True, text=True, timeout=60).stdout
    return {line[len("option name "):].split(" type ")[0].strip().lower()
            for line in out.splitlines() if line.startswith("option name ")}


def engine_file(path, name, binary, options, args=(), workdir=None):
    """Write a shogiarena engine YAML. shogiarena checks each option against what the engine
    prints at `usi`; options it does not print (hayanagi's hidden developer options, gpsusi's
    USI_Hash) are sent as they are ('raw'), after a note here."""
    shown = advertised_options([str(binary), *args])
    hidden = sorted(k for k in options if k.lower() not in shown)
    if hidden:
        print(f"{name}: not printed at `usi`, sent anyway: {', '.join(hidden)}", flush=True)
    write_json(path, {
        "name": name,
        "engine_path": str(binary),
        "engine_args": list(args),
        "working_directory": str(workdir or Path(binary).parent),
        "options": options,
        "option_validation": {"default": "strict", "overrides": {k: "raw" for k in hidden}},
        "handshake_timeout": 30,
    })
    return str(path)


def load_or_create(dest, params, resume_keys):
    """First call: store params and return (params, True). Later calls: return the stored
    params (False), refusing explicit arguments that contradict them."""
    path = dest / "params.json"
    if not path.exists():
        return params, True
    stored = json.loads(path.read_text(encoding="utf-8"))
    for key in resume_keys:
        given = params.get(key)
        if given is not None and given != stored.get(key):
            sys.exit(f"{dest.name}: run exists with {key}={stored.get(key)!r}, not {given!r}; "
                     f"call it without that argument to resume, or choose a new NAME")
    print(f"resuming {dest} (started with {json.dumps(stored)})", flush=True)
    return stored, False


def shogiarena(*args, progress=None, every=None):
    """Run the shogiarena CLI in the foreground, printing progress() every `every` seconds
    (ARENA_PROGRESS_S, default 60). Ctrl-C or SIGTERM is passed on and shogiarena is left
    to stop cleanly; the run folder then resumes on the next call."""
    exe = shutil.which("shogiarena") or sys.exit("shogiarena not found: python3 -m pip install shogiarena")
    every = every or float(os.environ.get("ARENA_PROGRESS_S", "60"))
    cmd = [exe, *map(str, args)]
    print("+", " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
    signal.signal(signal.SIGTERM, lambda *_: proc.send_signal(signal.SIGTERM))
    while True:
        try:
            return proc.wait(timeout=every if progress else None)
        except subprocess.TimeoutExpired:
            print(time.strftime("%H:%M:%S"), progress(), flush=True)
        except KeyboardInterrupt:
            print("interrupted: waiting for shogiarena to stop (the run can be resumed)", flush=True)
