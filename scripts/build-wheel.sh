#!/usr/bin/env bash
# Build the release library and a platform wheel of the Python binding that bundles it
# (target/wheels/hayanagi-<version>-py3-none-<platform>.whl). `pip install` that file and
# `import hayanagi` works with no environment variable.
#
#   scripts/build-wheel.sh [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo clib --release
python3 bindings/python/build_wheel.py "$@"
