"""The package's public surface: one Score shape everywhere, stop() on a closed engine,
a docstring on every public class, method and function, and ``python -m hayanagi`` (the USI
engine on stdin/stdout)."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import hayanagi
from hayanagi import Score, ScoreKind

from conftest import MATE1, ROOT, legal_moves_of


def test_score_shape(engine: hayanagi.Engine) -> None:
    cp = Score(ScoreKind.CP, 35)
    assert str(cp) == "cp 35" and cp.cp == 35 and cp.mate is None and not cp.is_mate
    assert cp.kind == "cp" and str(cp.kind) == "cp"
    assert repr(cp) == "Score(ScoreKind.CP, 35)" and eval(repr(cp), {"Score": Score, "ScoreKind": ScoreKind}) == cp
    assert Score.from_c(1, -3) == Score(ScoreKind.MATE, -3)
    assert str(Score.from_c(1, -3)) == "mate -3" and Score.from_c(1, -3).mate == -3

    # A mate score from a search, in Info, SearchResult and the table entry alike.
    engine.set_position(MATE1)
    result = engine.go(depth=3)
    assert result.move == "7b6b"
    assert result.score == Score(ScoreKind.MATE, 1) and result.score.is_mate and result.score.cp is None
    assert all(isinstance(i.score, Score) for i in result.infos)
    assert " score mate 1 " in result.last_info.usi
    engine.set_position("startpos moves 7g7f 3c3d")
    engine.go(depth=4)
    tt = engine.probe_tt()
    assert tt is not None and isinstance(tt.score, Score) and tt.score.kind == ScoreKind.CP
    for cls in (hayanagi.Info, hayanagi.TtEntry):
        fields = {f for f in cls.__dataclass_fields__}
        assert "score" in fields and "score_kind" not in fields, cls


def test_stop_on_a_closed_engine_is_a_no_op() -> None:
    e = hayanagi.Engine(hash_mib=1)
    e.stop()  # idle
    e.close()
    e.stop()  # closed: nothing to stop, no exception
    e.close()
    try:
        e.go(depth=1)
    except hayanagi.EngineClosedError:
        pass
    else:  # pragma: no cover
        raise AssertionError("go on a closed engine must raise")


def test_every_public_name_has_a_docstring() -> None:
    missing = []
    for name in hayanagi.__all__:
        obj = getattr(hayanagi, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        if not inspect.getdoc(obj):
            missing.append(name)
        if not inspect.isclass(obj):
            continue
        for attr, val in vars(obj).items():
            # Constructors are documented by their class; other dunders are protocol.
            if attr.startswith("_") and attr not in ("__getitem__", "__setitem__", "__iter__"):
                continue
            f = val.fget if isinstance(val, property) else getattr(val, "__func__", val)
            if inspect.isfunction(f) and not (f.__doc__ or "").strip():
                missing.append(f"{name}.{attr}")
    assert missing == []


def _python_m(stdin: str, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT / "bindings" / "python")
    return subprocess.run(
        [sys.executable, "-m", "hayanagi", *args], input=stdin, env=env, cwd="/", capture_output=True, text=True, timeout=60
    )


def test_python_m_hayanagi_speaks_usi() -> None:
    r = _python_m("usi\nisready\nusinewgame\nposition startpos moves 7g7f 3c3d\ngo depth 4\n")
    # End of input is taken as quit: the search finishes (or is stopped) and its best move
    # is still printed before the process exits.
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("id name ") and "usiok" in lines and "readyok" in lines
    assert lines.index("usiok") < lines.index("readyok")
    best = [l for l in lines if l.startswith("bestmove ")]
    assert len(best) == 1 and best[0].split()[1] in legal_moves_of("startpos moves 7g7f 3c3d")
    assert lines[-1] == best[0]


def test_python_m_hayanagi_streams_as_a_gui_sees_it_and_ends_on_quit() -> None:
    """A conversation: each answer is read before the next command is sent (so output is
    flushed line by line), a search's info lines come before its best move, and quit ends
    the process (a line after it is never read)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT / "bindings" / "python")
    p = subprocess.Popen(
        [sys.executable, "-m", "hayanagi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd="/", text=True, bufsize=1
    )
    assert p.stdin is not None and p.stdout is not None

    def send(line: str) -> None:
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def read_until(prefix: str) -> list:
        lines = []
        while True:
            line = p.stdout.readline()
            assert line, f"end of output before {prefix!r}: {lines}"
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    try:
        send("isready")
        assert read_until("readyok") == ["readyok"]
        send("position startpos moves 2g2f")
        send("go depth 5")
        lines = read_until("bestmove")
        infos = [l for l in lines if l.startswith("info depth ")]
        assert infos and lines[-1].split()[1] in legal_moves_of("startpos moves 2g2f"), lines
        send("quit")
        send("isready")
        assert p.wait(30) == 0
        assert p.stdout.read() == ""
    finally:
        if p.poll() is None:
            p.kill()
        p.stdin.close()
        p.stdout.close()
    r = _python_m("", "--version")
    assert r.returncode == 0 and r.stdout.startswith(f"hayanagi {hayanagi.__version__} (library ")
