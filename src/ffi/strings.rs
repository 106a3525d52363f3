//! Strings across the boundary: NUL-terminated UTF-8 in, caller buffers out.

use super::types::*;
use std::ffi::{c_char, CStr};

/// Borrow a NUL-terminated UTF-8 string from the host.
pub(super) fn read_str<'a>(
    p: *const c_char,
    what: &str,
) -> Result<&'a str, (hayanagi_status, String)> {
    if p.is_null() {
        return Err((HAYANAGI_NULL_ARG, format!("{what} is NULL")));
    }
    // SAFETY: non-null; the header requires a NUL-terminated string that stays valid for
    // the duration of the call.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str().map_err(|e| {
        (
            HAYANAGI_INVALID_ARG,
            format!("{what} is not valid UTF-8 (byte {})", e.valid_up_to()),
        )
    })
}

/// Copy `s` plus a NUL into `buf` (capacity `cap`). `*out_len` (when not NULL) receives the
/// length without the NUL: the bytes written, or the size needed on BUFFER_TOO_SMALL
/// (then `cap` must be at least `*out_len + 1`).
pub(super) fn copy_out(
    s: &str,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    let bytes = s.as_bytes();
    if !out_len.is_null() {
        // SAFETY: non-null out-param.
        unsafe { out_len.write(bytes.len()) };
    }
    if buf.is_null() {
        return if cap == 0 {
            HAYANAGI_BUFFER_TOO_SMALL
        } else {
            HAYANAGI_NULL_ARG
        };
    }
    if cap < bytes.len() + 1 {
        if cap > 0 {
            // SAFETY: `buf` has room for at least one byte: leave an empty string.
            unsafe { buf.write(0) };
        }
        return HAYANAGI_BUFFER_TOO_SMALL;
    }
    // SAFETY: `buf` has `cap >= len + 1` writable bytes (host's promise) and does not
    // overlap our string.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf as *mut u8, bytes.len());
        buf.add(bytes.len()).write(0);
    }
    HAYANAGI_OK
}

/// Copy `s` into a fixed array, NUL-terminated, truncated if it must be.
pub(super) fn write_fixed(s: &str, out: &mut [c_char]) {
    let n = s.len().min(out.len().saturating_sub(1));
    for (o, b) in out.iter_mut().zip(s.as_bytes()[..n].iter()) {
        *o = *b as c_char;
    }
    if let Some(last) = out.get_mut(n) {
        *last = 0;
    }
}
