"""The wheel of bindings/python/build_wheel.py: well-formed (RECORD digests, WHEEL tag) and
really installable: ``pip install --target`` into an empty directory, then a fresh
interpreter without HAYANAGI_LIB, outside the checkout, imports the package, loads the
bundled library and searches."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bindings" / "python"))
from hayanagi import _native  # noqa: E402


def _library() -> Path:
    env = os.environ.get("HAYANAGI_LIB")
    if env:
        p = Path(env)
        return p / _native.library_filename() if p.is_dir() else p
    return ROOT / "target" / "release" / _native.library_filename()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheels")
    r = subprocess.run(
        [sys.executable, str(ROOT / "bindings" / "python" / "build_wheel.py"), "--lib", str(_library()), "--out", str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    path = Path(r.stdout.strip())
    assert path.is_file() and path.parent == out
    return path


def test_wheel_is_well_formed(wheel: Path) -> None:
    assert wheel.name.startswith("hayanagi-0.1.0-py3-none-") and wheel.suffix == ".whl"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert f"hayanagi/{_native.library_filename()}" in names
        assert {"hayanagi/__init__.py", "hayanagi/_native.py", "hayanagi/_engine.py", "hayanagi/py.typed"} <= set(names)
        wheel_meta = z.read("hayanagi-0.1.0.dist-info/WHEEL").decode()
        assert "Root-Is-Purelib: false" in wheel_meta
        assert f"Tag: {wheel.name[len('hayanagi-0.1.0-'):-len('.whl')]}" in wheel_meta
        meta = z.read("hayanagi-0.1.0.dist-info/METADATA").decode()
        assert "Name: hayanagi" in meta and "Version: 0.1.0" in meta
        rows = [l.split(",") for l in z.read("hayanagi-0.1.0.dist-info/RECORD").decode().splitlines()]
        recorded = {r[0] for r in rows}
        assert recorded == set(names)
        for path, digest, size in rows:
            if path.endswith("RECORD"):
                assert digest == size == ""
                continue
            data = z.read(path)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={want}" and int(size) == len(data), path
        lib_info = z.getinfo(f"hayanagi/{_native.library_filename()}")
        assert (lib_info.external_attr >> 16) & 0o111, "the library is executable"


def test_wheel_installs_and_runs_without_environment(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--no-index", "--target", str(site), str(wheel)],
        check=True,
    )
    env = {k: v for k, v in os.environ.items() if k not in ("HAYANAGI_LIB", "PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(site)
    script = (
        "import hayanagi, sys\n"
        "with hayanagi.Engine() as e:\n"
        "    e.set_position('startpos moves 7g7f 3c3d')\n"
        "    r = e.go(depth=4)\n"
        "    assert r.move in e.legal_moves(), r\n"
        "print(hayanagi.__file__)\n"
        "print(hayanagi.library_path())\n"
        "print(r.move)\n"
    )
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    pkg_file, lib_path, move = r.stdout.split()
    assert Path(pkg_file).resolve().is_relative_to(site.resolve())
    assert Path(lib_path).resolve() == (site / "hayanagi" / _native.library_filename()).resolve()
    assert len(move) >= 4


def test_library_lookup(tmp_path: Path) -> None:
    """HAYANAGI_LIB (a file or a directory) wins and is never second-guessed; a wrong value
    fails with a message naming what was tried."""
    lib = _library()
    code = "import hayanagi; print(hayanagi.library_path())"
    base = {k: v for k, v in os.environ.items() if k not in ("HAYANAGI_LIB", "PYTHONPATH")}
    base["PYTHONPATH"] = str(ROOT / "bindings" / "python")

    def run(value: str) -> subprocess.CompletedProcess:
        env = dict(base, HAYANAGI_LIB=value)
        return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)

    copy = tmp_path / "elsewhere" / _native.library_filename()
    copy.parent.mkdir()
    copy.write_bytes(lib.read_bytes())
    r = run(str(copy))
    assert r.returncode == 0 and Path(r.stdout.strip()) == copy, r.stderr
    r = run(str(copy.parent))
    assert r.returncode == 0 and Path(r.stdout.strip()) == copy, r.stderr
    r = run(str(tmp_path / "missing.so"))
    assert r.returncode != 0 and "missing.so" in r.stderr and "HAYANAGI_LIB" in r.stderr
    # Without the variable, inside the checkout: target/release.
    if not (ROOT / "target" / "release" / _native.library_filename()).is_file():
        return
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=base, capture_output=True, text=True)
    assert r.returncode == 0 and Path(r.stdout.strip()).resolve() == (ROOT / "target" / "release" / _native.library_filename()).resolve()
