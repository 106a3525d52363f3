#!/usr/bin/env bash
# The Windows build, tested from Linux (docs/WINDOWS.md): cross-build hayanagi.exe and
# hayanagi.dll (scripts/build-windows.sh), check the DLL's exports against
# include/hayanagi.h and the DLLs both import, then run them under 64-bit Wine:
#   - a USI session with hayanagi.exe as a GUI drives it (tests/windows/usi_session.py:
#     usi/usiok, isready/readyok, position, go depth 6 -> a legal bestmove, a byoyomi move,
#     quit), and `hayanagi.exe perft` (startpos depth 4 = 719731);
#   - an NNUE net (tests/data/nnue/make_random_nn.py; needs numpy) in a folder named with
#     spaces and Japanese, through EvalDir as a relative Windows path and EvalFile as an
#     absolute one (Z:\...: Wine's drive for /);
#   - the C tests of tests/c (all but test_host_safety.c, which needs fork, rlimits and
#     signals) and examples/c/analyze.c, compiled with x86_64-w64-mingw32-gcc against
#     hayanagi.dll, and test_api against the static libhayanagi.a.
#
# Debian bookworm's Wine 8 lacks bcryptprimitives.dll, which Rust's standard library
# imports (ProcessPrng), so nothing Rust builds loads there. For the tests only, a stand-in
# (tests/windows/bcryptprimitives.c, ProcessPrng over RtlGenRandom) is compiled and put
# next to the programs in the Wine test folder; it is never part of what is shipped
# (target/x86_64-pc-windows-gnu/release/ holds no copy of it).
#
# Installs nothing itself: scripts/setup.sh test (or windows, plus wine64) does.
#   HAYANAGI_WINE=path     the Wine loader (default: wine64 on PATH, else /usr/lib/wine/wine64)
#   WINEPREFIX=dir         the Wine prefix (default target/wine-prefix, made on first use)
# On a host that is not x86_64 Linux the Wine stage is skipped with a message (the
# cross-build and the export checks still run); on x86_64 Linux a missing Wine is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
target=x86_64-pc-windows-gnu
cc=x86_64-w64-mingw32-gcc
objdump=x86_64-w64-mingw32-objdump
for tool in "$cc" "$objdump"; do
  command -v "$tool" >/dev/null || { echo "test-windows.sh: $tool not found (scripts/setup.sh windows)" >&2; exit 1; }
done

scripts/build-windows.sh
out=${CARGO_TARGET_DIR:-target}/$target/release
built=$(date +%s)

# The DLL exports exactly the functions the header declares.
want=$(grep -oE '\bhayanagi_[a-z0-9_]+\(' include/hayanagi.h | tr -d '(' | sort -u)
have=$("$objdump" -p "$out/hayanagi.dll" | sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' |
  awk '/^\t\[/ {print $NF}' | sort -u)
if [[ $want != "$have" ]]; then
  echo "test-windows.sh: hayanagi.dll exports differ from include/hayanagi.h (< header, > DLL):" >&2
  diff <(echo "$want") <(echo "$have") >&2 || true
  exit 1
fi
echo "test-windows.sh: hayanagi.dll exports the $(echo "$want" | wc -l) functions of include/hayanagi.h and nothing else"
# Only DLLs that Windows itself ships: no MinGW runtime (libgcc_s, libwinpthread) to copy.
for f in hayanagi.exe hayanagi.dll; do
  imports=$("$objdump" -p "$out/$f" | awk '/DLL Name:/ {print $3}' | sort -fu | tr '\n' ' ')
  echo "test-windows.sh: $f imports $imports"
  for dll in $imports; do
    case ${dll,,} in
      kernel32.dll | msvcrt.dll | ntdll.dll | bcryptprimitives.dll | api-ms-win-*.dll) ;;
      *) echo "test-windows.sh: $f imports $dll, which Windows does not ship" >&2; exit 1 ;;
    esac
  done
done

wine=${HAYANAGI_WINE:-$(command -v wine64 || echo /usr/lib/wine/wine64)}
if [[ $(uname -sm) != "Linux x86_64" ]]; then
  echo "test-windows.sh: Wine stage skipped: the host is $(uname -sm), not Linux x86_64"
  exit 0
fi
[[ -x $wine ]] || { echo "test-windows.sh: no Wine at $wine (scripts/setup.sh test installs wine64)" >&2; exit 1; }

# The Wine test folder: the artefacts, the test programs, the bcryptprimitives stand-in and
# MinGW's libwinpthread-1.dll (the C tests use pthreads; the library does not).
dir=${CARGO_TARGET_DIR:-target}/$target/wine-test
rm -rf "$dir"
mkdir -p "$dir"
cp "$out/hayanagi.exe" "$out/hayanagi.dll" "$dir/"
"$cc" -shared -O2 -s -o "$dir/bcryptprimitives.dll" tests/windows/bcryptprimitives.c -ladvapi32
cp "$("$cc" -print-file-name=libwinpthread-1.dll)" "$dir/"
cflags=(-std=c11 -O2 -Wall -Wextra -Werror -Iinclude)
programs=()
for src in tests/c/*.c examples/c/analyze.c; do
  name=$(basename "$src" .c)
  [[ $name == test_host_safety ]] && continue
  "$cc" "${cflags[@]}" -o "$dir/$name.exe" "$src" -L"$out" -lhayanagi -pthread
  programs+=("$name")
done
# Static: the system libraries are those `cargo rustc ... -- --print native-static-libs`
# lists for this target (docs/WINDOWS.md).
"$cc" "${cflags[@]}" -o "$dir/test_api_static.exe" tests/c/test_api.c "$out/libhayanagi.a" \
  -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp
programs+=(test_api_static)
compiled=$(date +%s)

export WINEPREFIX=${WINEPREFIX:-$PWD/${CARGO_TARGET_DIR:-target}/wine-prefix} WINEARCH=win64
# No debug channels, and no offer to install Wine's Mono and Gecko into a new prefix.
export WINEDEBUG=-all WINEDLLOVERRIDES="mscoree=;mshtml="
# Wine turns Unix file names into Windows ones through the locale's character set: under
# the POSIX locale (a bare root shell on a fresh Debian) the Japanese folder name of the
# NNUE check is not found. The files here are UTF-8 names.
export LC_ALL=C.UTF-8
wineserver=$(dirname "$wine")/wineserver
[[ -x $wineserver ]] || wineserver=$(command -v wineserver || true)
# This prefix's server lingers a few seconds after the last program; end it with the script.
trap '[[ -n $wineserver ]] && "$wineserver" -k 2>/dev/null || true' EXIT
if [[ ! -f $WINEPREFIX/system.reg ]]; then
  echo "test-windows.sh: creating the Wine prefix $WINEPREFIX"
  "$wine" wineboot --init >/dev/null 2>&1 || true
fi
# One persistent server for the whole run: by default the server exits a few seconds after
# its last program, and a program started just then loses its connection half-way ("wine
# client error:0: recvmsg: Connection reset by peer", seen once in CI on test_usi_channel).
# wineserver -p exits 2 while another server for the prefix runs (the one wineboot left
# lingering, seen in CI): wait for that one to end first, and treat a refusal as a warning,
# since the rerun below still covers a lost connection.
if [[ -n $wineserver ]]; then
  "$wineserver" -w || true
  "$wineserver" -p || echo "test-windows.sh: no persistent Wine server (wineserver -p exit $?); going on"
fi
prefixed=$(date +%s)

fail=0
(cd "$dir" && python3 "$root/tests/windows/usi_session.py" "$wine" hayanagi.exe) ||
  { echo "test-windows.sh: FAILED: the USI session" >&2; fail=1; }
# An NNUE net in a folder with spaces and Japanese in its name, as EvalDir, given as a
# Windows path relative to the engine's working directory (a GUI starting the engine in its
# own folder), then as an absolute Windows path through the CLI. Needs numpy (the venv).
if python3 -c "import numpy" 2>/dev/null; then
  evaldir='将棋 エンジン\eval'
  mkdir -p "$dir/将棋 エンジン/eval"
  python3 tests/data/nnue/make_random_nn.py "$dir/将棋 エンジン/eval/nn.bin" >/dev/null
  usi=$(cd "$dir" && printf 'eval\r\nsetoption name EvalDir value %s\r\nisready\r\neval\r\nquit\r\n' \
    "$evaldir" | "$wine" hayanagi.exe | tr -d '\r') || true
  echo "$usi"
  hce=$(sed -n '1s/^eval = //p' <<<"$usi")
  nnue=$(grep '^eval = ' <<<"$usi" | sed -n '2s/^eval = //p')
  cli=$(cd "$dir" && "$wine" hayanagi.exe eval --sfen startpos \
    --option "EvalFile=Z:$(pwd -P | tr / '\\')\\将棋 エンジン\\eval\\nn.bin" 2>/dev/null | tr -d '\r') || true
  echo "$cli (CLI, EvalFile as an absolute Windows path)"
  if ! grep -q "^info string NNUE: loaded '.*将棋 エンジン.eval.nn.bin'" <<<"$usi" ||
    [[ -z $nnue || $nnue == "$hce" || $cli != "eval = $nnue" ]]; then
    echo "test-windows.sh: FAILED: the NNUE net through EvalDir/EvalFile" >&2
    fail=1
  fi
else
  echo "test-windows.sh: NNUE check skipped: no numpy (scripts/setup.sh test puts it in the venv)"
fi
perft=$(cd "$dir" && "$wine" hayanagi.exe perft --sfen startpos --depth 4 | tr -d '\r') || true
echo "$perft"
grep -qx 'nodes 719731' <<<"$perft" || { echo "test-windows.sh: FAILED: perft 4" >&2; fail=1; }
for name in "${programs[@]}"; do
  args=()
  [[ $name == analyze ]] && args=("startpos moves 7g7f 3c3d" 500)
  set +e
  log=$(cd "$dir" && timeout 300 "$wine" "$name.exe" "${args[@]}" 2>&1 | tr -d '\r')
  rc=$?
  if ((rc != 0)) && grep -q '^wine client error' <<<"$log"; then
    # Wine's own client-server link broke (not the program): say so and run it once more.
    echo "test-windows.sh: $name: Wine lost its server ($(grep -m1 '^wine client error' <<<"$log")); running it again"
    log=$(cd "$dir" && timeout 300 "$wine" "$name.exe" "${args[@]}" 2>&1 | tr -d '\r')
    rc=$?
  fi
  set -e
  echo "test-windows.sh: $name: $(tail -n 1 <<<"$log") (exit $rc)"
  if ((rc != 0)); then
    echo "$log" | tail -n 30 >&2
    fail=1
  elif [[ $name == analyze ]] && ! grep -q '^bestmove ' <<<"$log"; then
    echo "test-windows.sh: FAILED: analyze printed no bestmove" >&2
    fail=1
  fi
done
done_at=$(date +%s)
echo "test-windows.sh: build $((built - start)) s, C programs $((compiled - built)) s," \
  "Wine prefix $((prefixed - compiled)) s, runs $((done_at - prefixed)) s," \
  "total $((done_at - start)) s"
if ((fail)); then
  echo "test-windows.sh: FAILED" >&2
  exit 1
fi
echo "test-windows.sh: all passed"
