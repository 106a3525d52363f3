#!/usr/bin/env bash
# Install what building and testing hayanagi needs on a Debian or Ubuntu machine that has
# only a Rust toolchain: Debian's packages through apt-get (as root, or through sudo), and
# the Python packages in a venv (Debian's own Python refuses `pip install` outside one, PEP
# 668). Only what is missing is installed; a second run does nothing.
#
#   scripts/setup.sh build   the C library and its examples: a C/C++ compiler, cmake, pkg-config
#   scripts/setup.sh test    also valgrind, mono, readelf, git, python3-venv, and the venv
#
# The venv is $HAYANAGI_VENV (default .venv in the repository, ignored by git) with
# pytest, cshogi and numpy; the test scripts put it first on PATH. Other distributions:
# install the same tools by hand (the message below lists them) and rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}
case "$what" in
  build | test) ;;
  *) echo "usage: scripts/setup.sh build|test" >&2; exit 2 ;;
esac

# command -> Debian package that provides it.
declare -A package=(
  [cc]=gcc [c++]=g++ [make]=make [cmake]=cmake [pkg-config]=pkg-config
)
if [[ $what == test ]]; then
  package+=([valgrind]=valgrind [mcs]=mono-mcs [mono]=mono-runtime [readelf]=binutils [git]=git)
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
rustup component add rustfmt clippy >/dev/null 2>&1 || true
