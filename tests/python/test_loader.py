"""Where the package finds its library (hayanagi/_native.py): inside the package first (what
``pip install`` and wheels bundle), then ``HAYANAGI_LIB``, then the checkout's
``target/release``; a missing library fails with a message that says what to do.

Each case runs a fresh interpreter outside the checkout. Installing the package for real
(a fresh venv, ``pip install ./bindings/python``, a wheel with a platform tag and the licence
files) is scripts/test-python-package.sh."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bindings" / "python"))
from hayanagi import _native  # noqa: E402  (no library load at import)

NAME = _native.library_filename()
CODE = "import hayanagi; print(hayanagi.library_path())"


def _library() -> Path:
    env = os.environ.get("HAYANAGI_LIB")
    if env:
        p = Path(env)
        return p / NAME if p.is_dir() else p
    return ROOT / "target" / "release" / NAME


def _run(cwd: Path, pythonpath: Path, lib_env: Optional[str] = None) -> subprocess.CompletedProcess:
    env: Dict[str, str] = {k: v for k, v in os.environ.items() if k not in ("HAYANAGI_LIB", "PYTHONPATH")}
    env["PYTHONPATH"] = str(pythonpath)
    if lib_env is not None:
        env["HAYANAGI_LIB"] = lib_env
    return subprocess.run([sys.executable, "-c", CODE], cwd=cwd, env=env, capture_output=True, text=True)


def _installed_copy(site: Path, with_library: bool) -> Path:
    """The package as an installation lays it out: site/hayanagi/*.py (+ the library)."""
    pkg = site / "hayanagi"
    shutil.copytree(ROOT / "bindings" / "python" / "hayanagi", pkg, ignore=shutil.ignore_patterns("__pycache__", NAME))
    if with_library:
        shutil.copy2(_library(), pkg / NAME)
    return pkg


def test_source_tree_uses_hayanagi_lib_then_target(tmp_path: Path) -> None:
    """In the source tree (no bundled library): HAYANAGI_LIB (a file or a directory) wins and
    is never second-guessed; a wrong value fails naming it; without it, target/release."""
    src = ROOT / "bindings" / "python"
    assert not (src / "hayanagi" / NAME).exists(), "a build copied the library into the source tree"
    copy = tmp_path / "elsewhere" / NAME
    copy.parent.mkdir()
    copy.write_bytes(_library().read_bytes())
    r = _run(tmp_path, src, str(copy))
    assert r.returncode == 0 and Path(r.stdout.strip()) == copy, r.stderr
    r = _run(tmp_path, src, str(copy.parent))
    assert r.returncode == 0 and Path(r.stdout.strip()) == copy, r.stderr
    r = _run(tmp_path, src, str(tmp_path / "missing.so"))
    assert r.returncode != 0 and "HAYANAGI_LIB" in r.stderr and "missing.so" in r.stderr
    assert "LibraryNotFoundError" in r.stderr
    target = ROOT / "target" / "release" / NAME
    if target.is_file():
        r = _run(tmp_path, src)
        assert r.returncode == 0 and Path(r.stdout.strip()).resolve() == target.resolve(), r.stderr


def test_installed_package_uses_its_own_library_first(tmp_path: Path) -> None:
    site = tmp_path / "site"
    pkg = _installed_copy(site, with_library=True)
    r = _run(tmp_path, site)
    assert r.returncode == 0 and Path(r.stdout.strip()) == pkg / NAME, r.stderr
    # A HAYANAGI_LIB left in the environment (even a wrong one) does not displace it.
    r = _run(tmp_path, site, str(tmp_path / "missing.so"))
    assert r.returncode == 0 and Path(r.stdout.strip()) == pkg / NAME, r.stderr


def test_installed_package_without_library_says_what_to_do(tmp_path: Path) -> None:
    site = tmp_path / "site"
    pkg = _installed_copy(site, with_library=False)
    r = _run(tmp_path, site)
    assert r.returncode != 0
    err = r.stderr.strip().splitlines()[-1]
    assert err.startswith("hayanagi._native.LibraryNotFoundError: hayanagi: " + NAME + " not found"), err
    assert str(pkg / NAME) in err and "pip install ./bindings/python" in err and "HAYANAGI_LIB" in err
    assert "target" not in err.split("looked in", 1)[1].split(")", 1)[0], "no checkout path for an installed copy"
    # HAYANAGI_LIB rescues it.
    r = _run(tmp_path, site, str(_library()))
    assert r.returncode == 0 and Path(r.stdout.strip()) == _library(), r.stderr
