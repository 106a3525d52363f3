#!/usr/bin/env python3
"""Run SPRTs one after another from a queue file (editable while it runs; each test resumable).

usage: scripts/arena/sprt_queue.py QUEUE_FILE [--early-stop] [--poll SECONDS]

Each line of QUEUE_FILE holds the arguments of one sprt.py call (`NAME NEW BASE --games 2000
--new-option K=V ...`, or a bare NAME to resume that run); blank lines and lines starting
with # are skipped, and a line `STOP` ends the runner. A line `spsa ARGS` runs spsa.py ARGS
instead (`spsa NAME` resumes SPSA run NAME to its end), and in an sprt.py line
`--spsa-theta RUN` stands for one `--new-option K=V` per parameter of SPSA run RUN, its
current theta rounded (read when the line starts: queue it after that SPSA's line). A line is taken off the file when its
test starts, so the file always holds what is left: edit it to reorder or add tests while
one runs. Each test's output goes to ARENA_ROOT/NAME.log; every start, early stop and end is
appended to QUEUE_FILE.log. A test another process is running when the runner starts (an
sprt.py) is waited for, so that two never share the cores. Ctrl-C or SIGTERM (`kill PID`:
a runner started in the background with `nohup ... &` ignores SIGINT) stops the running test
cleanly (it resumes with its NAME) and ends the runner.

--early-stop ends a test before its SPRT decides, when it is clearly not worth the machine's
time (Ctrl-C to the test's process group; the run stays resumable), checked every --poll
seconds (default 60) from the complete pentanomial pairs so far (two games each):
  - at least 300 games, and the 95% interval's upper end below 0 Elo;
  - at least 400 games, and the point estimate below -15 Elo;
  - at least 1000 games, and the point estimate below +8 Elo (at best a gain that would take
    thousands more games to show; the time goes to the next idea).
Such a test is reported as stopped with its figures (DESIGN.md §6.6), never as rejected.
`--no-early-stop` in a line exempts that test (a verification of an accepted change, which
must run until its SPRT decides or reaches the cap); the runner takes the word out before it
calls sprt.py.
"""

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import common
import report

EARLY_STOP_RULES = (
    # (at least this many games, stop when this holds for (elo, low, high))
    (300, lambda elo, low, high: high < 0),
    (400, lambda elo, low, high: elo < -15),
    (1000, lambda elo, low, high: elo < 8),
)


def log(queue, text):
    with open(f"{queue}.log", "a", encoding="utf-8") as f:
        f.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n")


def take_first(queue):
    """The first test line of the queue file, removed from it (None when there is none)."""
    lines = Path(queue).read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() and not line.lstrip().startswith("#"):
            rest = lines[:i] + lines[i + 1:]
            Path(queue).write_text("".join(f"{l}\n" for l in rest), encoding="utf-8")
            return line.strip()
    return None


def other_sprt_running():
    """True while an sprt.py or spsa.py runs (the pattern does not match this runner's own
    name)."""
    try:
        out = subprocess.run(["pgrep", "-f", r"arena/(sprt|spsa)\.py"], capture_output=True,
                             text=True)
    except OSError:
        return False
    return bool(out.stdout.split())


def early_stop_reason(penta):
    """Why a test with these pentanomial counts should stop now (None: it goes on)."""
    figures = report.penta_elo(penta)
    if figures is None:
        return None
    games = 2 * sum(penta)
    for min_games, holds in EARLY_STOP_RULES:
        if games >= min_games and holds(*figures):
            elo, low, high = figures
            return f"{games} games, Elo {elo:+.1f} [{low:+.1f}, {high:+.1f}]"
    return None


def run_penta(name):
    run = common.run_dir(name) / "run"
    return report.sprt_stats(run)[2] if run.exists() else [0] * 5


def spsa_theta_options(args):
    """`args` with each `--spsa-theta RUN` replaced by `--new-option K=V` for every parameter
    of SPSA run RUN (its current theta, rounded to the integers the spin options take)."""
    out = []
    it = iter(args)
    for arg in it:
        if arg != "--spsa-theta":
            out.append(arg)
            continue
        run = next(it, None)
        if run is None:
            sys.exit("--spsa-theta needs the name of an SPSA run")
        current = common.run_dir(run) / "run" / "spsa" / "current.json"
        theta = json.loads(current.read_text(encoding="utf-8"))["theta"]
        for key, value in sorted(theta.items()):
            out += ["--new-option", f"{key}={round(value)}"]
    return out


def without_early_stop_flag(args):
    """`args` less every `--no-early-stop`, and whether there was one."""
    kept = [arg for arg in args if arg != "--no-early-stop"]
    return kept, len(kept) != len(args)


def run_test(queue, args, early_stop, poll):
    args, exempt = without_early_stop_flag(args)
    early_stop = early_stop and not exempt
    script = "sprt.py"
    if args[0] == "spsa":
        script, args, early_stop = "spsa.py", args[1:], False
    else:
        args = spsa_theta_options(args)
    name = args[0]
    out = common.ARENA_ROOT / f"{name}.log"
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(common.HERE / script), *args]
    with open(out, "a", encoding="utf-8") as f:
        # A process group of its own: a Ctrl-C to it reaches sprt.py and shogiarena alike.
        proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            while True:
                try:
                    return proc.wait(timeout=poll)
                except subprocess.TimeoutExpired:
                    reason = early_stop and early_stop_reason(run_penta(name))
                    if reason:
                        log(queue, f"early stop {name}: {reason}")
                        os.killpg(proc.pid, signal.SIGINT)
                        return proc.wait()
        except KeyboardInterrupt:
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait()
            raise


def stop_on_sigterm(_signum, _frame):
    raise KeyboardInterrupt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("queue")
    ap.add_argument("--early-stop", action="store_true")
    ap.add_argument("--poll", type=float, default=60.0)
    a = ap.parse_args()
    if not Path(a.queue).is_file():
        sys.exit(f"no queue file {a.queue}")
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        while True:
            while other_sprt_running():
                time.sleep(10)
            line = take_first(a.queue)
            if line is None:
                time.sleep(20)
                continue
            if line == "STOP":
                log(a.queue, "STOP")
                return
            args = shlex.split(line)
            log(a.queue, f"start {line}")
            rc = run_test(a.queue, args, a.early_stop, a.poll)
            log(a.queue, f"end {line.split()[0 if args[0] != 'spsa' else 1]} (exit {rc})")
    except KeyboardInterrupt:
        log(a.queue, "interrupted")


if __name__ == "__main__":
    main()
