#!/usr/bin/env python3
"""Build a platform wheel of the Python binding that bundles the shared library.

    python3 bindings/python/build_wheel.py [--lib PATH] [--out DIR]

--lib defaults to target/release/libhayanagi.so (.dylib, hayanagi.dll) of this checkout
(build it first: cargo clib --release; scripts/build-wheel.sh does both); --out defaults
to target/wheels. Prints the wheel's path. Standard library only: the wheel is a zip with
the package, the library next to it (where hayanagi/_native.py looks first) and the
dist-info files (METADATA, WHEEL, RECORD with sha256 digests). Tag py3-none-<platform>:
the package is pure Python, the library only depends on the platform. Entries are written
in a fixed order with a fixed timestamp, so the same inputs give the same bytes.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import re
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import List, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from hayanagi._native import library_filename  # noqa: E402  (no library load at import)

DATE = (1980, 1, 1, 0, 0, 0)


def project_field(name: str) -> str:
    text = (HERE / "pyproject.toml").read_text(encoding="utf-8")
    m = re.search(rf'^{name}\s*=\s*"([^"]*)"', text, re.M)
    if not m:
        raise SystemExit(f"build_wheel: no {name} in pyproject.toml")
    return m.group(1)


def platform_tag() -> str:
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build(lib: Path, out_dir: Path) -> Path:
    name, version = project_field("name"), project_field("version")
    init = (HERE / "hayanagi" / "__init__.py").read_text(encoding="utf-8")
    if f'__version__ = "{version}"' not in init:
        raise SystemExit(f"build_wheel: hayanagi/__init__.py __version__ differs from pyproject.toml {version}")
    tag = f"py3-none-{platform_tag()}"
    dist_info = f"{name}-{version}.dist-info"

    files: List[Tuple[str, bytes, int]] = []
    for src in sorted((HERE / "hayanagi").iterdir()):
        if src.suffix in (".py", ".typed") and src.is_file():
            files.append((f"hayanagi/{src.name}", src.read_bytes(), 0o644))
    files.append((f"hayanagi/{library_filename()}", lib.read_bytes(), 0o755))

    readme = (HERE / "README.md").read_text(encoding="utf-8")
    metadata = "\n".join(
        [
            "Metadata-Version: 2.1",
            f"Name: {name}",
            f"Version: {version}",
            f"Summary: {project_field('description')}",
            "License: MIT OR Apache-2.0",
            f"Requires-Python: {project_field('requires-python')}",
            "Classifier: Programming Language :: Python :: 3",
            "Classifier: Typing :: Typed",
            "Description-Content-Type: text/markdown",
            "",
            readme,
        ]
    )
    wheel = "\n".join(
        ["Wheel-Version: 1.0", "Generator: hayanagi build_wheel.py", "Root-Is-Purelib: false", f"Tag: {tag}", ""]
    )
    files.append((f"{dist_info}/METADATA", metadata.encode("utf-8"), 0o644))
    files.append((f"{dist_info}/WHEEL", wheel.encode("utf-8"), 0o644))
    record = "\n".join([record_line(p, d) for p, d, _ in files] + [f"{dist_info}/RECORD,,", ""])
    files.append((f"{dist_info}/RECORD", record.encode("utf-8"), 0o644))

    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{name}-{version}-{tag}.whl"
    tmp = target.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for path, data, mode in files:
            info = zipfile.ZipInfo(path, date_time=DATE)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    tmp.replace(target)
    return target


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", type=Path, default=ROOT / "target" / "release" / library_filename())
    ap.add_argument("--out", type=Path, default=ROOT / "target" / "wheels")
    args = ap.parse_args()
    if not args.lib.is_file():
        print(f"build_wheel: {args.lib} not found (cargo clib --release)", file=sys.stderr)
        return 2
    print(build(args.lib, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
