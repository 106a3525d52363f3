#!/usr/bin/env bash
# Cross-build the Windows engine and C library from Linux (docs/WINDOWS.md): the USI engine
# hayanagi.exe and the C ABI's hayanagi.dll with its MinGW import library libhayanagi.dll.a
# (and the static libhayanagi.a), for x86_64-pc-windows-gnu, linked by Debian's MinGW-w64
# gcc. Installs what is missing first (scripts/setup.sh windows: gcc-mingw-w64-x86-64
# through apt-get as root or with sudo, the Rust target through rustup).
#
#   scripts/build-windows.sh          release build into target/x86_64-pc-windows-gnu/release/
#   CARGO_TARGET_DIR=dir              as for cargo
#
# The artefacts need only DLLs that Windows 10 and later ship (KERNEL32, msvcrt, ntdll,
# api-ms-win-core-synch, bcryptprimitives): no MinGW runtime DLL goes with them
# (scripts/test-windows.sh checks the list).
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-pc-windows-gnu
scripts/setup.sh windows
start=$(date +%s)
cargo build --release --target "$target" --bin hayanagi
cargo clib --release --target "$target"
out=${CARGO_TARGET_DIR:-target}/$target/release
for f in hayanagi.exe hayanagi.dll libhayanagi.dll.a libhayanagi.a; do
  [[ -f $out/$f ]] || { echo "build-windows.sh: $out/$f was not built" >&2; exit 1; }
done
echo "build-windows.sh: built in $(($(date +%s) - start)) s:"
echo "  $out/hayanagi.exe        the USI engine (register it in the GUI)"
echo "  $out/hayanagi.dll        the C ABI (include/hayanagi.h; C#/Unity: Plugins/x86_64/)"
echo "  $out/libhayanagi.dll.a   its import library for MinGW gcc/clang (-lhayanagi)"
echo "  $out/libhayanagi.a       the static library"
