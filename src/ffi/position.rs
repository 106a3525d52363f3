//! A light position handle: rules queries (SFEN, legal moves, legality, playing and taking
//! back moves, perft, game state, the hand-crafted evaluation) without an engine, for GUIs
//! and bindings that check moves and show boards. An engine costs a table, threads and
//! milliseconds to create; a position is a few kilobytes and microseconds.
//!
//! Failures are recorded as the calling thread's last error (`hayanagi_last_error`), as
//! for the other calls without an engine handle.

use super::strings::{copy_out, read_str};
use super::types::*;
use super::{copy_failure, game_state_codes, position_message, set_thread_error};
use crate::eval::{EvalConfig, Evaluator};
use crate::shogi::{GameRules, Position, PositionError};
use parking_lot::Mutex;
use std::ffi::c_char;

/// A position with the moves played on it. Opaque to C. Calls on one handle from several
/// threads are serialised by its lock.
pub struct hayanagi_position {
    pos: Mutex<Position>,
}

/// Borrow the position behind a handle, or fail with NULL_ARG.
macro_rules! position_ref {
    ($ptr:expr) => {{
        if $ptr.is_null() {
            set_thread_error("position handle is NULL");
            return HAYANAGI_NULL_ARG;
        }
        // SAFETY: non-null handles come from `hayanagi_position_new` and stay valid until
        // `hayanagi_position_free`; the header makes using a freed handle the host's error.
        unsafe { &*$ptr }
    }};
}

/// A NUL-terminated UTF-8 argument, or its status with the thread's last error set.
macro_rules! text_arg {
    ($ptr:expr, $name:expr) => {
        match read_str($ptr, $name) {
            Ok(s) => s,
            Err((st, m)) => {
                set_thread_error(&m);
                return st;
            }
        }
    };
}

fn fail(status: hayanagi_status, msg: impl AsRef<str>) -> hayanagi_status {
    set_thread_error(msg.as_ref());
    status
}

/// `text` as `hayanagi_engine_set_position` reads it: `startpos`, `sfen <SFEN>` (or a bare
/// SFEN), optionally followed by `moves ...`.
fn parse(text: &str) -> Result<Position, hayanagi_status> {
    Position::from_usi_position(text).map_err(|e| {
        let status = match e {
            PositionError::Sfen(_) => HAYANAGI_PARSE,
            PositionError::Move { .. } => HAYANAGI_ILLEGAL_MOVE,
        };
        fail(status, position_message(&e))
    })
}

/// Fill the out-param `out` with what `value` answers: NULL_ARG (before `value` runs) when
/// it is NULL, the status of `value`'s failure, else OK.
fn answer<T>(out: *mut T, value: impl FnOnce() -> Result<T, hayanagi_status>) -> hayanagi_status {
    if out.is_null() {
        return fail(HAYANAGI_NULL_ARG, "out is NULL");
    }
    match value() {
        Ok(v) => {
            // SAFETY: non-null out-param, written once on success only.
            unsafe { out.write(v) };
            HAYANAGI_OK
        }
        Err(st) => st,
    }
}

fn copy_text(s: &str, buf: *mut c_char, cap: usize, out_len: *mut usize) -> hayanagi_status {
    let st = copy_out(s, buf, cap, out_len);
    match copy_failure(st, buf, "buffer too small") {
        Some(m) => fail(st, m),
        None => st,
    }
}

/// Create a position from `position` (NULL: the start position) in the syntax of
/// `hayanagi_engine_set_position`. `HAYANAGI_PARSE` for a bad SFEN, `HAYANAGI_ILLEGAL_MOVE`
/// for an illegal move in the list; nothing is created then.
#[no_mangle]
pub extern "C" fn hayanagi_position_new(
    position: *const c_char,
    out: *mut *mut hayanagi_position,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        if out.is_null() {
            return fail(HAYANAGI_NULL_ARG, "out is NULL");
        }
        let pos = if position.is_null() {
            Position::startpos()
        } else {
            match parse(text_arg!(position, "position")) {
                Ok(p) => p,
                Err(st) => return st,
            }
        };
        let handle = Box::new(hayanagi_position {
            pos: Mutex::new(pos),
        });
        // SAFETY: non-null out-param.
        unsafe { out.write(Box::into_raw(handle)) };
        HAYANAGI_OK
    })
}

/// Free a position (NULL is a no-op).
#[no_mangle]
pub extern "C" fn hayanagi_position_free(position: *mut hayanagi_position) -> hayanagi_status {
    super::ffi_boundary(|| {
        if !position.is_null() {
            // SAFETY: the handle came from `hayanagi_position_new` and is freed once.
            drop(unsafe { Box::from_raw(position) });
        }
        HAYANAGI_OK
    })
}

/// Replace the position (same syntax and statuses as `hayanagi_position_new`); on failure
/// the previous position is kept.
#[no_mangle]
pub extern "C" fn hayanagi_position_set(
    position: *mut hayanagi_position,
    text: *const c_char,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        match parse(text_arg!(text, "text")) {
            Ok(pos) => {
                *p.pos.lock() = pos;
                HAYANAGI_OK
            }
            Err(st) => st,
        }
    })
}

/// Play `usi_move`; `HAYANAGI_ILLEGAL_MOVE` (position unchanged) when it is not legal.
#[no_mangle]
pub extern "C" fn hayanagi_position_play(
    position: *mut hayanagi_position,
    usi_move: *const c_char,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        let text = text_arg!(usi_move, "usi_move");
        let mut pos = p.pos.lock();
        match pos.parse_usi_move(text) {
            Ok(m) => {
                pos.do_move(m);
                HAYANAGI_OK
            }
            Err(e) => fail(
                HAYANAGI_ILLEGAL_MOVE,
                format!("{e} in position {}", pos.to_sfen()),
            ),
        }
    })
}

/// Take back the last move played (by `hayanagi_position_play` or in the `moves` list);
/// `HAYANAGI_INVALID_ARG` when none is left.
#[no_mangle]
pub extern "C" fn hayanagi_position_undo(position: *mut hayanagi_position) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        let mut pos = p.pos.lock();
        if pos.moves_played() == 0 {
            return fail(HAYANAGI_INVALID_ARG, "no move to take back");
        }
        pos.undo_move();
        HAYANAGI_OK
    })
}

/// The number of moves played since the position was set (what `undo` can take back).
#[no_mangle]
pub extern "C" fn hayanagi_position_moves_played(
    position: *const hayanagi_position,
    out: *mut u32,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        answer(out, || {
            Ok(p.pos.lock().moves_played().min(u32::MAX as usize) as u32)
        })
    })
}

/// The current position as SFEN (buffer rules of `hayanagi_engine_sfen`).
#[no_mangle]
pub extern "C" fn hayanagi_position_sfen(
    position: *const hayanagi_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        let sfen = p.pos.lock().to_sfen();
        copy_text(&sfen, buf, cap, out_len)
    })
}

/// The legal moves, space-separated USI in ASCII order (as `hayanagi_engine_legal_moves`).
#[no_mangle]
pub extern "C" fn hayanagi_position_legal_moves(
    position: *const hayanagi_position,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        let moves = crate::shogi::legal_in_usi_order(&p.pos.lock());
        let text: Vec<String> = moves.iter().map(|m| m.usi()).collect();
        copy_text(&text.join(" "), buf, cap, out_len)
    })
}

/// Is `usi_move` legal here? Malformed text is simply not legal.
#[no_mangle]
pub extern "C" fn hayanagi_position_is_legal(
    position: *const hayanagi_position,
    usi_move: *const c_char,
    out: *mut bool,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        if out.is_null() {
            return fail(HAYANAGI_NULL_ARG, "out is NULL");
        }
        let text = text_arg!(usi_move, "usi_move");
        answer(out, || Ok(p.pos.lock().parse_usi_move(text).is_ok()))
    })
}

/// Whether the side to move is in check; `*side` 0 (black) or 1 (white) to move. Either
/// out-param may be NULL.
#[no_mangle]
pub extern "C" fn hayanagi_position_side_to_move(
    position: *const hayanagi_position,
    side: *mut i32,
    in_check: *mut bool,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        let pos = p.pos.lock();
        if !side.is_null() {
            // SAFETY: non-null out-param.
            unsafe { side.write(pos.side_to_move().index() as i32) };
        }
        if !in_check.is_null() {
            // SAFETY: non-null out-param.
            unsafe { in_check.write(pos.in_check()) };
        }
        HAYANAGI_OK
    })
}

/// Perft (depth 0 to 10, as `hayanagi_engine_perft`).
#[no_mangle]
pub extern "C" fn hayanagi_position_perft(
    position: *const hayanagi_position,
    depth: u32,
    out: *mut u64,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        answer(out, || {
            let depth = crate::request::perft_depth(depth as u64)
                .map_err(|e| fail(HAYANAGI_INVALID_ARG, e.to_string()))?;
            // A copy: a long perft does not hold the lock against other threads' queries.
            let mut pos = p.pos.lock().clone();
            Ok(crate::shogi::perft::perft(&mut pos, depth))
        })
    })
}

/// The game state under the default rules (CSA rule 27 declarations, no move limit):
/// `*state` a `HAYANAGI_GAME_*` value, `*winner` 0 (black), 1 (white) or -1.
#[no_mangle]
pub extern "C" fn hayanagi_position_game_state(
    position: *const hayanagi_position,
    state: *mut i32,
    winner: *mut i32,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        if state.is_null() || winner.is_null() {
            return fail(HAYANAGI_NULL_ARG, "state or winner is NULL");
        }
        let (s, w) = game_state_codes(p.pos.lock().game_state(&GameRules::default()));
        // SAFETY: both out-params are non-null.
        unsafe {
            state.write(s);
            winner.write(w);
        }
        HAYANAGI_OK
    })
}

/// The hand-crafted static evaluation for the side to move (centipawns; an engine's
/// `hayanagi_engine_evaluate` uses its net when one is loaded).
#[no_mangle]
pub extern "C" fn hayanagi_position_evaluate(
    position: *const hayanagi_position,
    out: *mut i32,
) -> hayanagi_status {
    super::ffi_boundary(|| {
        let p = position_ref!(position);
        answer(out, || {
            Ok(Evaluator::evaluate_from_scratch(
                &p.pos.lock(),
                &EvalConfig::default(),
            ))
        })
    })
}
