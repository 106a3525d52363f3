/* A stand-in for Windows' bcryptprimitives.dll, for running the cross-built hayanagi under
 * Wine only (scripts/test-windows.sh); it is never shipped.
 *
 * Rust's standard library (1.78 and later) takes its random numbers (the seeds of HashMap's
 * RandomState) from ProcessPrng in bcryptprimitives.dll, which every Windows since 8 ships
 * but Debian bookworm's Wine 8 lacks, so a Rust program fails to load there ("Library
 * bcryptprimitives.dll ... not found", status c0000135). This DLL exports ProcessPrng with
 * Windows' signature and fills the buffer from RtlGenRandom (SystemFunction036 in
 * advapi32.dll), which that Wine has. Build (scripts/test-windows.sh does):
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

/* RtlGenRandom: exported by advapi32.dll under this name; ntsecapi.h declares it too. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData): Windows documents that it always
 * returns TRUE; this one returns FALSE if RtlGenRandom fails, which Rust reports. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
