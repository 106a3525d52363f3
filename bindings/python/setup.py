"""The build step of the Python package: compile the Rust library and put it in the wheel.

The metadata lives in pyproject.toml; this file only adds what setuptools cannot declare:

- ``build_py`` also runs cargo on the repository this directory belongs to (two levels up)
  and copies ``libhayanagi.so`` (``.dylib``, ``hayanagi.dll``) next to the package's modules,
  where ``hayanagi/_native.py`` looks first. The command is the one ``cargo clib --release``
  (.cargo/config.toml) runs, with the same crate types, so a library already built by
  ``cargo clib --release`` (scripts, CMake) is reused as it is and the two never rebuild each
  other. ``CARGO_TARGET_DIR`` is honoured; ``CARGO`` names the cargo binary.
- ``bdist_wheel`` tags the wheel ``py3-none-<platform>``: the package is pure Python over
  ctypes (it works with every Python 3 of the platform) but carries a native library.
  ``scripts/build-wheel.sh`` then runs ``auditwheel repair`` for a manylinux tag.
- Every build folder (setuptools' ``build/`` and ``*.egg-info``) goes to a temporary
  directory removed at exit, so a build leaves nothing in the source tree.
- ``sdist`` is refused: the Rust sources lie outside this directory, so an sdist of it could
  not build. Install from a checkout (``pip install ./bindings/python``) or build a wheel.

Why not setuptools-rust or maturin: maturin packages a Rust library only as a PyO3, cffi or
UniFFI module (or a binary), not as a plain cdylib loaded with ctypes; setuptools-rust's
``Binding.NoBinding`` names the library after the CPython extension suffix and tags the wheel
for one CPython ABI, although the library never touches the Python C API. Both would add a
build dependency for what is one cargo command and one file copy.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py as _build_py
from setuptools.command.sdist import sdist as _sdist

try:  # setuptools >= 70.1 carries bdist_wheel itself
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # pragma: no cover
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MANIFEST = ROOT / "Cargo.toml"
CRATE = "hayanagi"


def library_filename() -> str:
    """The file name of the shared library on this platform (as hayanagi/_native.py)."""
    if sys.platform == "win32":
        return "hayanagi.dll"
    if sys.platform == "darwin":
        return "libhayanagi.dylib"
    return "libhayanagi.so"


def fail(message: str) -> "None":
    sys.stderr.write(f"hayanagi build: {message}\n")
    raise SystemExit(1)


def check_checkout() -> None:
    if not (MANIFEST.is_file() and (ROOT / "src" / "ffi").is_dir()):
        fail(
            f"no hayanagi Rust crate at {MANIFEST}: the package is built from a checkout of "
            "the hayanagi repository (pip install ./bindings/python in a clone; pip 21.3 or "
            "newer builds in place rather than from a copy of this directory)"
        )
    crate = re.search(r'^version\s*=\s*"([^"]+)"', MANIFEST.read_text(encoding="utf-8"), re.M)
    init = re.search(
        r'^__version__\s*=\s*"([^"]+)"', (HERE / "hayanagi" / "__init__.py").read_text(encoding="utf-8"), re.M
    )
    if not crate or not init or crate.group(1) != init.group(1):
        fail(
            f"the crate version ({crate.group(1) if crate else '?'}) and hayanagi.__version__ "
            f"({init.group(1) if init else '?'}) differ"
        )


def build_library() -> Path:
    """Run cargo and return the path of the shared library it built."""
    check_checkout()
    cargo = os.environ.get("CARGO", "cargo")
    if shutil.which(cargo) is None:
        fail(f"{cargo} not found: the package compiles its Rust library; install a Rust toolchain (https://rustup.rs)")
    # = `cargo clib --release` (.cargo/config.toml): same crate types, same build, no rebuild.
    cmd = [
        cargo, "rustc", "--release", "--lib", "--crate-type", "cdylib,staticlib",
        "--manifest-path", str(MANIFEST), "--message-format=json-render-diagnostics",
    ]
    sys.stderr.write("hayanagi build: " + " ".join(cmd) + "\n")
    sys.stderr.flush()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        fail(f"cargo failed (exit {proc.returncode}); its messages are above")
    name = library_filename()
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") != "compiler-artifact" or msg.get("target", {}).get("name") != CRATE:
            continue
        for f in msg.get("filenames", []):
            if Path(f).name == name:
                return Path(f)
    fail(f"cargo reported no {name}")
    raise AssertionError  # unreachable


class build_py(_build_py):
    """build_py plus the Rust library, copied into the package of the build directory."""

    def run(self) -> None:
        super().run()
        lib = build_library()
        if getattr(self, "editable_mode", False):
            # An editable install imports the package from this directory and loads the
            # library from the checkout's target/ (hayanagi/_native.py); never copy into
            # the source tree.
            return
        dest = Path(self.build_lib) / "hayanagi" / library_filename()
        dest.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(lib), str(dest), preserve_mode=True)


class BinaryDistribution(Distribution):
    """A distribution with a native file: installed to platlib (the wheel's root, where
    auditwheel looks for it) and never tagged pure."""

    def has_ext_modules(self) -> bool:
        return True


class bdist_wheel(_bdist_wheel):
    """A platform wheel that fits every Python 3: py3-none-<platform>."""

    def get_tag(self) -> "tuple[str, str, str]":
        _, _, plat = super().get_tag()
        return "py3", "none", plat


class sdist(_sdist):
    """Refused: the Rust sources are outside bindings/python."""

    def run(self) -> None:
        fail(
            "no sdist: the Rust library's sources lie outside bindings/python. Install from a "
            "checkout (pip install ./bindings/python) or build a wheel (scripts/build-wheel.sh, "
            "or pip wheel --no-deps -w DIR ./bindings/python)"
        )


# Every setuptools build folder in a temporary directory, removed when this process exits.
_tmp = tempfile.mkdtemp(prefix="hayanagi-pybuild-")
atexit.register(shutil.rmtree, _tmp, True)

setup(
    distclass=BinaryDistribution,
    cmdclass={"build_py": build_py, "bdist_wheel": bdist_wheel, "sdist": sdist},
    options={
        "build": {"build_base": os.path.join(_tmp, "build")},
        "egg_info": {"egg_base": _tmp},
    },
)
