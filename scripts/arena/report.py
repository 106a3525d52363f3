"""Summaries of a shogiarena run folder, from its game.db, schedule.json, state.json and
completion_status.json (stdlib only). Usable while the run goes on (game.db is SQLite WAL).

python3 scripts/arena/report.py RUN_FOLDER [ENGINE]   per-opponent results of ENGINE
"""

import json
import math
import sqlite3
import sys
from collections import Counter, defaultdict
from pathlib import Path

LLR_LO, LLR_HI = math.log(0.05 / 0.95), math.log(0.95 / 0.05)  # alpha = beta = 0.05


def games(run):
    """(game_id, black, white, result, plies) for every finished game, in order."""
    db = Path(run) / "game.db"
    if not db.is_file():
        return []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return con.execute(
            "SELECT g.game_name, b.player_name, w.player_name, g.game_result, g.num_moves "
            "FROM game g JOIN player b ON b.id = g.black_player_id "
            "JOIN player w ON w.id = g.white_player_id ORDER BY g.id").fetchall()
    except sqlite3.Error:
        return []
    finally:
        con.close()


def move_times(run):
    """engine -> list of its move times (ms, as shogiarena measured them), from game.db."""
    db = Path(run) / "game.db"
    out = defaultdict(list)
    if not db.is_file():
        return out
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        rows = con.execute(
            "SELECT g.id, b.player_name, w.player_name, g.initial_position_sfen, m.ply, m.wall_time_ms "
            "FROM game_move m JOIN game g ON g.id = m.game_id JOIN player b ON b.id = g.black_player_id "
            "JOIN player w ON w.id = g.white_player_id WHERE m.wall_time_ms IS NOT NULL "
            "ORDER BY g.id, m.ply").fetchall()
    except sqlite3.Error:
        return out
    finally:
        con.close()
    first = {}
    for gid, black, white, sfen, ply, ms in rows:
        p0 = first.setdefault(gid, ply)
        black_first = (sfen.split() + ["b", "b"])[1] == "b"
        mover = black if ((ply - p0) % 2 == 0) == black_first else white
        out[mover].append(ms)
    return out


# shogiarena stores a mate score as a centipawn value of at least this size (32000 less
# the plies to mate: 31995 is a mate in five).
MATE_EVAL = 30000


def missed_mates(run):
    """engine -> (chances, missed): how often the engine was to move just after its opponent
    had reported itself mated (a mate the opponent saw coming), and how often the engine's
    own score then was no mate. A fixed-node engine that misses many of those is blind to
    some mates (stop 50: quiet drops at quiescence leaves, DESIGN.md §4.9)."""
    db = Path(run) / "game.db"
    out = defaultdict(lambda: [0, 0])
    if not db.is_file():
        return {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        rows = con.execute(
            "SELECT g.id, b.player_name, w.player_name, g.initial_position_sfen, m.eval "
            "FROM game_move m JOIN game g ON g.id = m.game_id JOIN player b ON b.id = g.black_player_id "
            "JOIN player w ON w.id = g.white_player_id ORDER BY g.id, m.ply").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        con.close()
    previous = (None, None)   # (game id, eval of the move before)
    index = 0
    for gid, black, white, sfen, value in rows:
        index = index + 1 if previous[0] == gid else 0
        black_first = (sfen.split() + ["b", "b"])[1] == "b"
        mover = black if (index % 2 == 0) == black_first else white
        before = previous[1] if previous[0] == gid else None
        if before is not None and before <= -MATE_EVAL:
            out[mover][0] += 1
            if value is None or value < MATE_EVAL:
                out[mover][1] += 1
        previous = (gid, value)
    return {engine: tuple(counts) for engine, counts in out.items()}


def read_json(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def pair_keys(run):
    """game_id -> pair_key (one opening, colours swapped), from shogiarena's schedule.json."""
    schedule = read_json(Path(run) / "schedule.json") or {}
    return {g["game_id"]: g.get("pair_key") or g["game_id"] for g in schedule.get("games", [])}


def position_key(sfen):
    """Board, side to move and hands of an SFEN: the move number does not change a game."""
    return " ".join(sfen.split()[:3])


def positions(run):
    """game_id -> its opening position (position_key), from schedule.json."""
    schedule = read_json(Path(run) / "schedule.json") or {}
    return {g["game_id"]: position_key(g.get("sfen", g["game_id"]))
            for g in schedule.get("games", [])}


def score_for(engine, black, white, result):
    """1, 0.5 or 0 for `engine` in that game; None for a game without a result."""
    r = result.upper()
    if "DRAW" in r:
        return 0.5
    if r.startswith("BLACK_WIN"):
        return 1.0 if engine == black else 0.0
    if r.startswith("WHITE_WIN"):
        return 1.0 if engine == white else 0.0
    return None


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_interval(mean, var, n):
    """Elo and the ends of its 95% interval from n independent samples of mean `mean` and
    variance `var`; None at a score of 0% or 100%."""
    if not 0 < mean < 1:
        return None
    half = 1.959964 * math.sqrt(var / n)
    return elo(mean), elo(mean - half), elo(mean + half)


def fmt_elo(mean, var, n):
    """Elo with its 95% interval from n independent samples of mean `mean`, variance `var`."""
    figures = elo_interval(mean, var, n)
    if figures is None:
        return "Elo n/a (score 0% or 100%)"
    value, low, high = figures
    return f"Elo {value:+.1f} [{low:+.1f}, {high:+.1f}] (95%)"


def llr(counts, elo0, elo1):
    """fishtest's GSPRT approximation, as shogiarena computes it for 5 bins, with its guards:
    0 below 30 pairs, or while fewer than 5 pairs lie outside the fullest bin's class."""
    filled = sorted((c for c in counts if c), reverse=True)
    if sum(counts) < 30 or len(filled) < 2 or filled[1] < 5:
        return 0.0
    reg = [c if c else 1e-3 for c in counts]
    total = sum(reg)
    pdf = [(i / (len(reg) - 1), c / total) for i, c in enumerate(reg)]
    mean = sum(p * v for v, p in pdf)
    var = sum(p * (v - mean) ** 2 for v, p in pdf)
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    return total * (mean - (s0 + s1) / 2) * (s1 - s0) / var


def abnormal(rows, engine):
    """Losses of `engine` by illegal move, on time, by forfeit (crash, hang, disconnect)."""
    kinds = Counter()
    for _, black, white, result, _ in rows:
        r = result.upper()
        loser = white if r.startswith("BLACK_WIN") else black if r.startswith("WHITE_WIN") else None
        if loser == engine:
            for kind in ("ILLEGAL_MOVE", "TIMEOUT", "FORFEIT"):
                if r.endswith(kind):
                    kinds[kind.lower()] += 1
    return kinds


def sprt_stats(run, tested="new"):
    """The games so far (game.db rows), `tested`'s W/D/L (a Counter of 1.0, 0.5, 0.0), the
    pentanomial counts of its complete pairs, and how many complete pairs repeat an opening
    position an earlier pair started from. Those are left out of W/D/L and the pentanomial
    counts: at fixed nodes they replay the earlier pair move for move (runs started before
    stop 49 drew openings with replacement; common.distinct_openings)."""
    rows = games(run)
    keys = pair_keys(run)
    where = positions(run)
    pairs = defaultdict(list)
    for game_id, black, white, result, _ in rows:
        s = score_for(tested, black, white, result)
        if s is not None:
            key = keys.get(game_id, game_id)
            pairs[key].append((s, where.get(game_id, key)))
    wdl = Counter()
    penta = [0] * 5  # pair score 0, 0.5, 1, 1.5, 2: LL, LD, LW+DD, DW, WW
    seen = set()
    repeats = 0
    for games_of_pair in pairs.values():
        if len(games_of_pair) != 2:
            continue
        position = games_of_pair[0][1]
        if position in seen:
            repeats += 1
            continue
        seen.add(position)
        scores = [s for s, _ in games_of_pair]
        for s in scores:
            wdl[s] += 1
        penta[int(round(2 * sum(scores)))] += 1
    return rows, wdl, penta, repeats


def penta_moments(penta):
    """The mean pair score (0-1), its variance and the number of pairs; None without a pair."""
    m = sum(penta)
    if not m:
        return None
    mean = sum(i / 4 * c for i, c in enumerate(penta)) / m
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(penta)) / m
    return mean, var, m


def penta_elo(penta):
    """Elo and the ends of its 95% interval from pentanomial counts; None without a pair or
    at a score of 0% or 100%."""
    moments = penta_moments(penta)
    return None if moments is None else elo_interval(*moments)


def sprt_line(run, elo1, tested="new"):
    """Games, W/D/L, pentanomial counts, LLR and Elo so far, from game.db."""
    rows, wdl, penta, repeats = sprt_stats(run, tested)
    line = f"games {sum(wdl.values())}  W/D/L {wdl[1.0]}/{wdl[0.5]}/{wdl[0.0]}  penta {penta}"
    if repeats:
        line += f"  (left out: {repeats} pairs from a position already played)"
    moments = penta_moments(penta)
    if moments:
        mean, var, m = moments
        line += f"  LLR {llr(penta, 0.0, elo1):.2f}  score {100 * mean:.1f}%  {fmt_elo(mean, var, m)}"
    return line, rows


def print_sprt(run, params, tested="new"):
    line, rows = sprt_line(run, float(params["elo1"]), tested)
    limit = (f"{params['byoyomi']} ms byoyomi" if params.get("byoyomi")
             else f"{params['nodes']} nodes/move")
    print(f"\n== SPRT {Path(run).parent.name}: {tested} vs base at {limit}; "
          f"pentanomial GSPRT elo0 0, elo1 {params['elo1']:g}, alpha = beta = 0.05 "
          f"(LLR bounds {LLR_LO:.2f}, {LLR_HI:.2f}); cap {params['games']} games")
    print(line + f"  (W/L are {tested}'s; Elo from the pairs)")
    state = (read_json(Path(run) / "state.json") or {}).get("sprt_state")
    if state:
        value = state.get("llr", 0.0)
        verdict = ("H1 accepted: new is stronger" if value >= LLR_HI else
                   "H0 accepted: no gain of elo1" if value <= LLR_LO else "no decision")
        pairs = sum(state.get("penta_bins") or [])
        note = f" (it reports 0 below {state['min_pairs']} pairs)" if pairs < state.get("min_pairs", 0) else ""
        print(f"shogiarena: LLR {value:.3f}{note}, W/D/L {state.get('wins')}/{state.get('draws')}/"
              f"{state.get('losses')}, penta {state.get('penta_bins')} -> {verdict}")
    completion = read_json(Path(run) / "completion_status.json")
    if completion:
        print(f"run: {completion.get('status')}, {completion.get('termination_reason')}, "
              f"{completion.get('completed')}/{completion.get('scheduled')} games, "
              f"error games {completion.get('error_games')}, timeouts {completion.get('timeouts_by_origin')}")
    for who in (tested, "base"):
        bad = abnormal(rows, who)
        if bad:
            print(f"{who} lost by: {dict(bad)}")
    mates = missed_mates(run)
    if mates:
        print("mates missed (the opponent had reported itself mated): " + ", ".join(
            f"{who} {missed} of {chances}" for who, (chances, missed) in sorted(mates.items())))


def print_gauntlet(run, engine="hayanagi"):
    rows = games(run)
    by_opp = defaultdict(list)
    for row in rows:
        _, black, white, _, _ = row
        if engine in (black, white):
            by_opp[white if black == engine else black].append(row)
    print(f"\n== gauntlet {Path(run).parent.name}: {engine} against each opponent")
    for opp, opp_rows in sorted(by_opp.items()):
        scores = [s for s in (score_for(engine, b, w, r) for _, b, w, r, _ in opp_rows) if s is not None]
        n, c = len(scores), Counter(scores)
        line = f"vs {opp}: {n} games  +{c[1.0]} ={c[0.5]} -{c[0.0]}"
        if n:
            mean = sum(scores) / n
            var = sum((s - mean) ** 2 for s in scores) / n
            line += f"  score {100 * mean:.1f}%  {fmt_elo(mean, max(var, 1e-9), n)}"
        print(line)
        for who in (engine, opp):
            k = abnormal(opp_rows, who)
            print(f"    {who} lost by illegal move {k['illegal_move']}, on time {k['timeout']}, "
                  f"by forfeit (crash/hang) {k['forfeit']}")
        errors = sum(1 for row in opp_rows if score_for(engine, *row[1:4]) is None)
        if errors:
            print(f"    games without a result: {errors}")
    for who, times in sorted(move_times(run).items()):
        times.sort()
        print(f"move time {who}: mean {sum(times) / len(times):.0f} ms, "
              f"99% {times[int(0.99 * (len(times) - 1))]} ms, max {times[-1]} ms ({len(times)} moves)")
    completion = read_json(Path(run) / "completion_status.json")
    if completion:
        print(f"run: {completion.get('status')}, {completion.get('termination_reason')}, "
              f"{completion.get('completed')}/{completion.get('scheduled')} games, "
              f"error games {completion.get('error_games')}, timeouts {completion.get('timeouts_by_origin')}")
    print("endings:", dict(Counter(r for _, _, _, r, _ in rows)))


if __name__ == "__main__":
    print_gauntlet(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "hayanagi")
