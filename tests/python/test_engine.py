"""The Python binding against the real library: searches with info reports, stop, error
paths with their exact status codes, close while searching, finalizers, a gc.collect()
stress while callbacks fire, threads, mate search, shared tables, the USI channel and the
library's own event queue."""

from __future__ import annotations

import gc
import queue
import re
import signal
import threading
import time
from typing import List

import pytest

import hayanagi
from hayanagi import BestMove, HayanagiError, Info, Status
from hayanagi import _engine

from conftest import AFTER_7G7F, MATE1, MATE3, MATED, NOMATE, STARTPOS_SFEN, legal_moves_of


def expect(status: Status, fn, *args, **kwargs) -> HayanagiError:
    with pytest.raises(HayanagiError) as info:
        fn(*args, **kwargs)
    e = info.value
    assert e.status == status, f"expected {status!r}, got {e.status!r}: {e}"
    assert e.code == int(status)
    assert hayanagi.status_str(status) in str(e)
    return e


def drain(q: "queue.SimpleQueue") -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


# ----- library and position ---------------------------------------------------------------


def test_versions_and_status_strings() -> None:
    assert hayanagi.abi_version() == 1
    assert re.match(r"^\d+\.\d+\.\d+", hayanagi.version())
    assert hayanagi.version() == hayanagi.__version__
    assert hayanagi.status_str(Status.OK) == "ok"
    assert hayanagi.status_str(Status.BUSY) == "a search is running"
    assert hayanagi.status_str(999) == "unknown status code"
    assert hayanagi.library_path() is not None


def test_position_helpers(engine: hayanagi.Engine) -> None:
    assert engine.sfen() == STARTPOS_SFEN
    moves = engine.legal_moves()
    assert len(moves) == 30 and moves == sorted(moves)
    assert {"7g7f", "2h1h"} <= set(moves)
    assert [engine.perft(d) for d in (0, 1, 2, 3)] == [1, 30, 900, 25470]
    assert engine.is_legal("7g7f") and not engine.is_legal("5e5d") and not engine.is_legal("garbage")
    engine.set_position("startpos", ["7g7f"])
    assert engine.sfen() == AFTER_7G7F
    engine.set_position("startpos moves 7g7f", ["3c3d"])
    assert engine.sfen().split()[-1] == "3"
    assert engine.game_state() == (hayanagi.GameState.ONGOING, None)
    assert engine.evaluate() == engine.evaluate()
    engine.set_position("startpos moves 7g7f 3c3d 8h2b+")
    assert engine.evaluate() < -300
    engine.set_position(MATED)
    assert engine.game_state() == (hayanagi.GameState.CHECKMATE, 0)
    assert engine.legal_moves() == []

    p = hayanagi.Position()
    p.push("7g7f")
    p.push("3c3d")
    assert p.moves == ("7g7f", "3c3d")
    assert p.usi() == "startpos moves 7g7f 3c3d"
    assert p.side_to_move == "b"
    assert p.perft(1) == len(p.legal_moves()) == 39  # bishop exchange and more open up
    e = expect(Status.ILLEGAL_MOVE, p.push, "5e5d")
    assert "5e5d" in e.message
    assert p.moves == ("7g7f", "3c3d")
    assert p.pop() == "3c3d"
    assert p.sfen() == AFTER_7G7F
    q = hayanagi.Position.from_sfen(AFTER_7G7F)
    assert q.sfen() == AFTER_7G7F and q.usi() == "sfen " + AFTER_7G7F
    assert hayanagi.Position("startpos moves 7g7f").sfen() == AFTER_7G7F
    engine.set_position(p)
    assert engine.sfen() == AFTER_7G7F
    expect(Status.PARSE, hayanagi.Position, "sfen nonsense")
    p.close()
    q.close()


# ----- searching -------------------------------------------------------------------------


def test_analyse_with_info_reports(engine: hayanagi.Engine) -> None:
    engine.set_position("startpos moves 7g7f 3c3d")
    legal = engine.legal_moves()
    seen: List[Info] = []
    threads = set()
    result = engine.go(depth=6, on_info=lambda i: (seen.append(i), threads.add(threading.get_ident())))
    assert result.move in legal
    assert result.ponder is None or len(result.ponder) >= 4
    assert result.infos == seen and len(seen) > 0
    assert threads == {threading.get_ident()}  # on_info runs on the calling thread
    assert max(i.depth for i in seen) == 6
    assert [i.depth for i in seen] == sorted(i.depth for i in seen)
    for i in seen:
        assert i.usi.startswith(f"info depth {i.depth} ")
        assert i.pv and i.pv[0] in legal
        assert (" pv " + " ".join(i.pv)) in i.usi
        assert i.multipv == 1 and i.score.kind == hayanagi.ScoreKind.CP == "cp" and abs(i.score.value) < 2000
        assert i.score.cp == i.score.value and i.score.mate is None and not i.score.is_mate
        assert f" score {i.score} " in i.usi  # "cp 35", as the USI line says it
    assert result.pv == seen[-1].pv and result.score == seen[-1].score
    assert isinstance(result.score, hayanagi.Score)
    assert not engine.is_searching()
    tt = engine.probe_tt()
    assert tt is not None and tt.move_legal and tt.move in legal and tt.depth > 0
    assert engine.probe_tt("startpos moves 7g7f 3c3d") == tt
    assert 0 <= engine.hashfull() <= 1000
    engine.clear_hash()
    assert engine.probe_tt() is None
    assert engine.callback_errors == 0

    # Streaming: Info reports, then exactly one BestMove, last.
    items = list(engine.go(depth=5, stream=True))
    assert all(isinstance(x, Info) for x in items[:-1]) and len(items) >= 2
    assert isinstance(items[-1], BestMove) and items[-1].move in legal
    assert str(items[-1]).startswith("bestmove " + items[-1].move)


def test_stop_early_and_busy(engine: hayanagi.Engine) -> None:
    legal = engine.legal_moves()
    engine.start(infinite=True)
    it = engine.stream()
    first = next(it)
    assert isinstance(first, Info)
    assert engine.is_searching()
    assert engine.wait(0.05) is False
    expect(Status.BUSY, engine.start, depth=1)
    expect(Status.BUSY, engine.set_position, "startpos moves 7g7f")
    e = expect(Status.BUSY, engine.set_option, "MultiPV", 2)
    assert engine.options["MultiPV"] == 1  # a refused value changes nothing
    expect(Status.BUSY, engine.new_game)
    expect(Status.BUSY, engine.start_mate, 100)
    t0 = time.monotonic()
    engine.stop()
    rest = list(it)
    assert time.monotonic() - t0 < 3
    assert isinstance(rest[-1], BestMove) and rest[-1].move in legal
    assert sum(isinstance(x, BestMove) for x in rest) == 1
    assert not engine.is_searching()
    engine.stop()  # idle: no-op
    assert engine.sfen() == STARTPOS_SFEN

    # Leaving a stream early stops the search.
    for item in engine.go(infinite=True, stream=True):
        break
    assert not engine.is_searching()
    # Stop at once after start: still exactly one best move.
    engine.start(infinite=True)
    engine.stop()
    r = engine.results()
    assert r.move in legal


def test_stop_from_another_thread_while_go_waits(engine: hayanagi.Engine) -> None:
    engine.set_position("startpos moves 2g2f")
    legal = engine.legal_moves()
    stopper = threading.Timer(0.4, engine.stop)
    stopper.start()
    t0 = time.monotonic()
    result = engine.go(infinite=True)  # blocks until the other thread stops it
    elapsed = time.monotonic() - t0
    stopper.join()
    assert 0.35 <= elapsed < 5, elapsed
    assert result.move in legal
    assert len(result.infos) >= 1


def test_callbacks_fire_while_python_waits_in_native_wait(engine: hayanagi.Engine) -> None:
    """The search thread needs the GIL for every callback; Python sits in
    hayanagi_engine_wait (GIL released by ctypes) meanwhile: infos still arrive, no deadlock."""
    engine.start(infinite=True)
    t0 = time.monotonic()
    assert engine.wait(1.0) is False  # one native wait slice after another, 1 s in all
    assert time.monotonic() - t0 >= 0.95
    infos = [x for x in drain(engine._state.events) if isinstance(x, Info)]
    assert len(infos) >= 1
    # Now a waiter on another thread, stop from this one.
    done = threading.Event()
    threading.Thread(target=lambda: (engine.wait(), done.set()), daemon=True).start()
    time.sleep(0.2)
    assert not done.is_set()
    engine.stop()
    assert done.wait(5)
    best = [x for x in drain(engine._state.events) if isinstance(x, BestMove)]
    assert len(best) == 1 and best[0].move in engine.legal_moves()


def test_ctrl_c_during_go_stops_the_search(engine: hayanagi.Engine) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals only reach the main thread")
    old = signal.signal(signal.SIGALRM, signal.default_int_handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            engine.go(infinite=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert not engine.is_searching()
    assert engine.go(depth=2).move in engine.legal_moves()


def test_searchmoves_multipv_and_resign(engine: hayanagi.Engine) -> None:
    r = engine.go(depth=3, searchmoves=["2g2f", "1g1f"])
    assert r.move in ("2g2f", "1g1f")
    r = engine.go(hayanagi.Limits(depth=3, multipv=3))
    assert {i.multipv for i in r.infos if i.depth == 3} == {1, 2, 3}
    engine.set_position(MATED)
    r = engine.go(depth=3)
    assert r.bestmove.is_resign and r.ponder is None


# ----- errors ----------------------------------------------------------------------------


def test_error_paths(engine: hayanagi.Engine) -> None:
    engine.set_position("startpos moves 7g7f")
    for bad in [
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9 b - 1",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNZ b - 1",
        "sfen",
        "",
        "nonsense",
        "sfen 王",
    ]:
        e = expect(Status.PARSE, engine.set_position, bad)
        assert e.message
        assert engine.sfen() == AFTER_7G7F  # previous position kept
    e = expect(Status.ILLEGAL_MOVE, engine.set_position, "startpos moves 7g7f 3c3d 5e5d")
    assert "5e5d" in e.message and "move 2 " in e.message
    assert engine.last_error() == e.message
    assert hayanagi.last_error() == e.message
    assert engine.sfen() == AFTER_7G7F
    expect(Status.ILLEGAL_MOVE, engine.set_position, "startpos", ["P*5e"])

    e = expect(Status.INVALID_ARG, engine.set_option, "NoSuchOption", 1)
    assert "NoSuchOption" in e.message
    e = expect(Status.INVALID_ARG, engine.set_option, "MultiPV", 99)
    assert "99" in e.message
    expect(Status.INVALID_ARG, engine.set_option, "Hash", "abc")
    expect(Status.INVALID_ARG, engine.set_option, "Threads", 0)
    expect(Status.INVALID_ARG, engine.set_option, "EnteringKingRule", "Bogus")
    with pytest.raises(ValueError):
        engine.options["USI_Ponder"] = "maybe"
    with pytest.raises(hayanagi.InvalidArgumentError):
        engine.set_option("Threads", 0)
    assert engine.options["MultiPV"] == 1 and engine.options["USI_Ponder"] is True
    engine.set_options({"MultiPV": 2, "USI_Ponder": False, "EnteringKingRule": "TryRule"})
    assert engine.options["multipv"] == 2 and engine.options["USI_Ponder"] is False
    assert engine.options["EnteringKingRule"] == "TryRule"
    # The engine's own values, not a shadow copy: every option a GUI is shown.
    assert "ParallelMode" not in list(engine.options) and "ParallelMode" in engine.options
    assert engine.options["Hash"] == engine.options["USI_Hash"] > 0
    with pytest.raises(KeyError):
        engine.options["NoSuchOption"]
    with pytest.raises(TypeError):
        del engine.options["MultiPV"]
    engine.ready()

    expect(Status.ILLEGAL_MOVE, engine.start, depth=1, searchmoves="3c3d 5e5d")
    expect(Status.INVALID_ARG, engine.start, depth=1, multipv=33)
    assert not engine.is_searching()
    expect(Status.INVALID_ARG, engine.perft, 11)
    expect(Status.PARSE, engine.probe_tt, "nonsense")
    expect(Status.ILLEGAL_MOVE, engine.probe_tt, "startpos moves 5e5d")
    expect(Status.INVALID_ARG, engine.last_mate)
    e = expect(Status.INVALID_ARG, engine.poll_event)
    assert "enable_events" in e.message
    expect(Status.INVALID_ARG, hayanagi.Table, 0)
    expect(Status.INVALID_ARG, hayanagi.Engine, threads=257)
    with pytest.raises(ValueError):
        engine.set_position("start\0pos")
    with pytest.raises(TypeError):
        engine.set_position(b"startpos")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        engine.go(hayanagi.Limits(depth=1), depth=2)


# ----- lifetime --------------------------------------------------------------------------


def test_close_while_searching() -> None:
    base = _engine.live_user_data()
    e = hayanagi.Engine(hash_mib=4)
    assert _engine.live_user_data() == base + 5
    e.set_position("startpos moves 2g2f")
    legal = e.legal_moves()
    e.start(infinite=True)
    state = e._state
    # A thread blocked in results() while the engine is closed under it.
    outcome: list = []

    def waiter() -> None:
        try:
            outcome.append(e.results())
        except hayanagi.EngineClosedError as x:
            outcome.append(x)

    th = threading.Thread(target=waiter)
    th.start()
    time.sleep(0.2)
    t0 = time.monotonic()
    e.close()
    assert time.monotonic() - t0 < 5
    th.join(5)
    assert not th.is_alive()
    assert e.closed
    assert _engine.live_user_data() == base  # the library released every user_data key
    # Exactly one best move was delivered: to the waiter, or still queued.
    delivered = [x for x in outcome if isinstance(x, hayanagi.SearchResult)]
    queued = [x for x in drain(state.events) if isinstance(x, BestMove)]
    moves = [r.move for r in delivered] + [b.move for b in queued]
    assert len(moves) == 1 and moves[0] in legal
    assert state.bestmoves == 1
    e.close()  # idempotent
    with pytest.raises(hayanagi.EngineClosedError):
        e.sfen()
    with hayanagi.Engine(hash_mib=1):
        pass
    assert _engine.live_user_data() == base


def _abandon_searching_engine(position: str):
    e = hayanagi.Engine(hash_mib=2)
    e.set_position(position)
    e.start(infinite=True)
    next(iter(e.stream()))  # reporting: really searching
    return e._state  # the state does not keep the engine alive


def test_finalizer_without_close() -> None:
    base = _engine.live_user_data()
    positions = ["startpos", "startpos moves 7g7f", "startpos moves 2g2f 8c8d"]
    states = [_abandon_searching_engine(p) for p in positions]
    gc.collect()
    deadline = time.monotonic() + 10
    while _engine.live_user_data() != base and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.01)
    assert _engine.live_user_data() == base
    for position, st in zip(positions, states):
        best = [x for x in drain(st.events) if isinstance(x, BestMove)]
        assert len(best) == 1 and best[0].move in legal_moves_of(position)


def test_finalizer_of_engine_in_a_reference_cycle() -> None:
    """An engine kept only by a cycle is freed by the cycle collector, whichever thread
    runs it (possibly a search thread inside a callback: then free is handed to a helper
    thread instead of failing with REENTRANT)."""
    base = _engine.live_user_data()
    e = hayanagi.Engine(hash_mib=1)
    e.cycle = e  # type: ignore[attr-defined]
    e.start(depth=3)
    st = e._state
    del e
    deadline = time.monotonic() + 10
    while _engine.live_user_data() != base and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.01)
    assert _engine.live_user_data() == base
    assert st.bestmoves == 1


def test_engine_collected_on_its_own_search_thread() -> None:
    """Force the cycle collector to run inside the engine's best-move callback (threshold 1,
    the main thread asleep): the finalizer's hayanagi_engine_free is REENTRANT there and is
    handed to a helper thread; the engine is still freed."""
    base = _engine.live_user_data()
    deferred = _engine._deferred_frees
    thresholds = gc.get_threshold()
    gc.collect()
    gc.disable()
    try:
        e = hayanagi.Engine(hash_mib=1)
        e.cycle = e  # type: ignore[attr-defined]
        e.set_position("startpos moves 7g7f 3c3d")
        e.start(depth=6)
        del e
        gc.set_threshold(1, 1, 1)
        gc.enable()
        time.sleep(1.5)  # no allocation here: the search thread's callbacks trigger the collection
    finally:
        gc.set_threshold(*thresholds)
        gc.enable()
    deadline = time.monotonic() + 10
    while _engine.live_user_data() != base and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _engine.live_user_data() == base
    assert _engine._deferred_frees == deferred + 1


def test_gc_stress_while_callbacks_fire(engine: hayanagi.Engine) -> None:
    import random

    stop = threading.Event()
    collections = [0]

    def collector() -> None:
        junk: list = []
        while not stop.is_set():
            for _ in range(100):
                a: list = []
                a.append(a)  # cycles for the collector
                junk.append(a)
            if len(junk) > 5000:
                junk.clear()
            gc.collect()
            collections[0] += 1
            time.sleep(0.001)

    th = threading.Thread(target=collector, daemon=True)
    th.start()
    rng = random.Random(7)
    engine.set_options({"NetworkDelay": 0, "MinimumThinkingTime": 0})
    searches = bestmoves = infos = 0
    t0 = time.monotonic()
    try:
        with hayanagi.Position() as pos:
            while time.monotonic() - t0 < 4 or searches < 15:
                while len(pos.moves):
                    pos.pop()
                for _ in range(rng.randrange(4, 30)):
                    ms = pos.legal_moves()
                    if not ms:
                        break
                    pos.push(rng.choice(ms))
                engine.set_position(pos)
                engine.new_game()
                legal = pos.legal_moves()
                kind = searches % 3
                if kind == 2:
                    engine.start(infinite=True)
                    time.sleep(rng.random() * 0.01)
                    engine.stop()
                    items = list(engine.stream())
                else:
                    items = list(engine.go(depth=6, stream=True) if kind == 0 else engine.go(movetime_ms=40, stream=True))
                best = [x for x in items if isinstance(x, BestMove)]
                assert len(best) == 1 and items[-1] is best[0]
                assert best[0].move in legal or (not legal and best[0].is_resign), (pos.usi(), best[0])
                bestmoves += 1
                infos += len(items) - 1
                searches += 1
                if time.monotonic() - t0 > 20:
                    break
    finally:
        stop.set()
        th.join()
    assert searches == bestmoves == engine._state.bestmoves
    assert infos > searches
    assert collections[0] > 10
    assert engine.callback_errors == 0


# ----- mate, tables, channels ------------------------------------------------------------


def test_mate_search(engine: hayanagi.Engine) -> None:
    engine.set_option("MateHash", 16)
    engine.set_position(MATE1)
    m = engine.go_mate(movetime_ms=5000)
    assert m.found and m.moves == ("7b6b",) and m.plies == 1
    assert str(m) == "checkmate 7b6b"
    engine.set_position(MATE3)
    m = engine.go_mate(movetime_ms=10000)
    assert m.kind == hayanagi.MateKind.FOUND and m.plies == 3 and m.shortest
    assert m.moves[0] in engine.legal_moves()
    assert engine.last_mate() == m
    engine.set_position(NOMATE)
    m = engine.go_mate(movetime_ms=5000)
    assert m.kind == hayanagi.MateKind.NO_MATE and m.moves == ()
    assert str(m) == "checkmate nomate"
    expect(Status.INVALID_ARG, engine._call, "hayanagi_engine_go_mate", 100, 0, 0x80)


def test_shared_table_and_usi_channel() -> None:
    with hayanagi.Table(4) as table, hayanagi.Engine(hash_mib=1) as a, hayanagi.Engine(hash_mib=1) as b:
        a.set_table(table)
        b.set_table(table)
        a.set_position("startpos moves 7g7f")
        a.go(depth=5)
        assert b.probe_tt("startpos moves 7g7f") is not None
        table.close()  # engines keep it alive
        assert b.probe_tt("startpos moves 7g7f") is not None
        with pytest.raises(hayanagi.EngineClosedError):
            a.set_table(table)

        b.usi_command("usi")
        lines = b.usi_output(timeout=5, until="usiok")
        assert lines[-1] == "usiok" and any(l.startswith("id name ") for l in lines)
        b.usi_command("isready")
        assert b.usi_output(timeout=5, until="readyok")[-1] == "readyok"
        b.usi_command("position startpos moves 2g2f\ngo depth 3")
        lines = b.usi_output(timeout=30, until="bestmove")
        assert lines[-1].startswith("bestmove ") and lines[-1].split()[1] in legal_moves_of("startpos moves 2g2f")
        b.wait()
        b.usi_command("bogus command")
        assert any(l.startswith("info string error") for l in b.usi_output(timeout=1, until="info string"))
        # A structured search after the channel's.
        assert b.go(depth=2).move in legal_moves_of("startpos moves 2g2f")


def test_library_event_queue(engine: hayanagi.Engine) -> None:
    engine.enable_events()
    assert engine.poll_event() is None
    engine.set_position("startpos moves 7g7f")
    legal = engine.legal_moves()
    r = engine.go(depth=4)
    events = []
    while (ev := engine.poll_event()) is not None:
        events.append(ev)
    assert [e.kind for e in events] == [hayanagi.EventKind.INFO] * (len(events) - 1) + [hayanagi.EventKind.BESTMOVE]
    assert [e.info.usi for e in events[:-1]] == [i.usi for i in r.infos]
    for e in events[:-1]:
        assert e.info.pv and e.info.pv[0] in legal
    assert events[-1].bestmove == r.bestmove and events[-1].text == str(r.bestmove)
    engine.enable_events(False)
    expect(Status.INVALID_ARG, engine.poll_event)


def test_interpreter_exit_while_searching(tmp_path) -> None:
    """An engine left searching at interpreter exit (a module global, never closed) is stopped
    and freed by the weakref.finalize atexit hook while callbacks can still run: the process
    exits promptly and cleanly."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'bindings' / 'python')!r})\n"
        "import hayanagi\n"
        "engine = hayanagi.Engine(hash_mib=2)\n"
        "engine.start(infinite=True)\n"
        "next(engine.stream())\n"
        "other = hayanagi.Engine(hash_mib=1)\n"
        "other.start(infinite=True)\n"
        "print('searching', flush=True)\n"
    )
    env = dict(os.environ)
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "searching"
    assert "Exception" not in r.stderr, r.stderr
    assert time.monotonic() - t0 < 20


def test_nnue_file_errors_keep_the_evaluation(engine: hayanagi.Engine, tmp_path) -> None:
    """EvalFile is loaded at ready(): a file that is not an nn.bin raises FORMAT, a missing
    one IO, and the evaluation stays the hand-crafted one."""
    before = engine.evaluate()
    bad = tmp_path / "nn.bin"
    bad.write_bytes(b"\x00" * 64)
    engine.set_option("EvalFile", str(bad))
    e = expect(Status.FORMAT, engine.ready)
    assert "wrong version" in e.message and str(bad) in e.message
    assert engine.evaluate() == before
    engine.set_option("EvalFile", str(tmp_path / "missing.bin"))
    e = expect(Status.IO, engine.ready)
    assert "missing.bin" in e.message
    expect(Status.INVALID_ARG, engine.set_option, "FV_SCALE", 0)
    engine.set_option("EvalFile", "")
    engine.ready()
    assert engine.evaluate() == before


def test_options_come_from_the_engine_registry() -> None:
    """The options USI ``usi`` prints are the ones the C enumeration lists without hidden
    ones, with the same types, defaults and ranges; hidden ones are listed on request."""
    with hayanagi.Engine() as engine:
        engine.usi_command("usi")
        lines = engine.usi_output(timeout=10.0, until="usiok")
        usi = [l for l in lines if l.startswith("option name ")]
        shown = engine.options.all_info(hidden=False)
        assert [l.split()[2] for l in usi] == [i.name for i in shown] == list(engine.options)
        for line, info in zip(usi, shown):
            kind = line.split()[4]
            assert kind == info.type.name.lower(), line
            default = line.split(" default ", 1)[1].split(" min ")[0].split(" var ")[0]
            d = info.default
            text = ("true" if d else "false") if isinstance(d, bool) else str(d)
            assert default == (text or "<empty>"), line
            if info.type == hayanagi.OptionType.SPIN:
                assert line.endswith(f" min {info.min} max {info.max}"), line
            if info.type == hayanagi.OptionType.COMBO:
                assert line.endswith("".join(f" var {c}" for c in info.choices)), line
        everything = engine.options.all_info(hidden=True)
        hidden = [i.name for i in everything if i.hidden]
        assert [h for h in hidden if not h.startswith("Tune_")] == ["ParallelMode", "SearchFeatures"]
        assert len(hidden) > 2 and all(engine.options.info(h).type == hayanagi.OptionType.SPIN for h in hidden[2:])
        assert not any(h in " ".join(usi) for h in hidden)
        assert engine.options.info("hash").name == "USI_Hash"
        assert engine.options.info("USI_Hash").at_ready and not engine.options.info("MultiPV").at_ready
        engine.options["SearchFeatures"] = "none"
        assert engine.options["SearchFeatures"] == "none"


def test_request_rules_are_the_engines() -> None:
    """movetime 0 and a clock of 0 move at once (the same rules as USI and C)."""
    with hayanagi.Engine(options={"RootMateSearch": False}) as engine:
        assert engine.go(movetime_ms=0).bestmove.move in engine.legal_moves()
        assert engine.go(btime_ms=0, wtime_ms=0).bestmove.move in engine.legal_moves()
        with pytest.raises(ValueError):
            engine.go(depth=1, multipv=33)
