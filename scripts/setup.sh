#!/usr/bin/env bash
# Install what building and testing hayanagi needs on a Debian or Ubuntu machine that has
# only a Rust toolchain: Debian's packages through apt-get (as root, or through sudo), and
# the Python packages in a venv (Debian's own Python refuses `pip install` outside one, PEP
# 668). Only what is missing is installed; a second run does nothing.
#
#   scripts/setup.sh build    the C library and its examples: a C/C++ compiler, cmake, pkg-config
#   scripts/setup.sh test     also valgrind, mono, readelf, git, python3-venv, the venv, and
#                             what scripts/test-windows.sh needs (below)
#   scripts/setup.sh windows  the Windows cross-build only (scripts/build-windows.sh): the
#                             MinGW-w64 C compiler and the x86_64-pc-windows-gnu Rust target
#
# The Windows test (part of `test`, skipped with HAYANAGI_SKIP_WINDOWS=1) adds the MinGW-w64
# compiler, the Rust target (through rustup) and, on an x86_64 host, 64-bit Wine (`wine64`:
# no i386 architecture needed, docs/WINDOWS.md).
#
# The venv is $HAYANAGI_VENV (default .venv in the repository, ignored by git) with
# pytest, cshogi and numpy; the test scripts put it first on PATH. Other distributions:
# install the same tools by hand (the message below lists them) and rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}
case "$what" in
  build | test | windows) ;;
  *) echo "usage: scripts/setup.sh build|test|windows" >&2; exit 2 ;;
esac

# command -> Debian package that provides it.
declare -A package=()
if [[ $what != windows ]]; then
  package+=([cc]=gcc [c++]=g++ [make]=make [cmake]=cmake [pkg-config]=pkg-config)
fi
if [[ $what == test ]]; then
  package+=([valgrind]=valgrind [mcs]=mono-mcs [mono]=mono-runtime [readelf]=binutils [git]=git)
fi
windows=0
if [[ $what == windows || ($what == test && ${HAYANAGI_SKIP_WINDOWS:-0} == 0) ]]; then
  windows=1
  package+=([x86_64-w64-mingw32-gcc]=gcc-mingw-w64-x86-64)
  # Debian's wine64 installs its loader outside PATH (scripts/test-windows.sh finds it).
  if [[ $what == test && $(uname -m) == x86_64 ]]; then
    package+=([/usr/lib/wine/wine64]=wine64)
  fi
fi
missing=()
for tool in "${!package[@]}"; do
  command -v "$tool" >/dev/null || missing+=("${package[$tool]}")
done
# `python3 -m venv` needs ensurepip, which Debian ships in python3-venv.
if [[ $what == test ]] && ! python3 -c "import ensurepip, venv" 2>/dev/null; then
  missing+=(python3-venv)
fi

if ((${#missing[@]})); then
  if [[ $(id -u) == 0 ]]; then
    apt=(apt-get)
  elif command -v sudo >/dev/null; then
    apt=(sudo apt-get)
  else
    echo "setup.sh: not root and no sudo: install these packages, then rerun: ${missing[*]}" >&2
    exit 1
  fi
  command -v apt-get >/dev/null || {
    echo "setup.sh: no apt-get: install the tools that provide ${missing[*]} and rerun" >&2
    exit 1
  }
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${apt[@]}" update -qq
  "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ $what == test ]]; then
  venv=${HAYANAGI_VENV:-$PWD/.venv}
  if [[ ! -x $venv/bin/python3 ]]; then
    echo "setup.sh: creating the venv $venv"
    python3 -m venv "$venv"
  fi
  if ! "$venv/bin/python3" -c "import pytest, cshogi, numpy" 2>/dev/null; then
    echo "setup.sh: installing pytest, cshogi and numpy into $venv"
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check pytest cshogi numpy
  fi
fi
if [[ $what != windows ]]; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
fi
# The Rust standard library for Windows (GNU ABI, linked by the MinGW-w64 gcc).
if ((windows)); then
  target=x86_64-pc-windows-gnu
  if [[ ! -d $(rustc --print sysroot)/lib/rustlib/$target/lib ]]; then
    if command -v rustup >/dev/null; then
      echo "setup.sh: adding the Rust target $target"
      rustup target add "$target" >/dev/null
    else
      echo "setup.sh: no rustup: install the Rust standard library for $target and rerun" >&2
      exit 1
    fi
  fi
fi
