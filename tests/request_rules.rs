//! The engine's request rules (src/request.rs) give the same answer through every front
//! end: the USI binary over pipes, the C ABI and the CLI (Python: tests/python).

mod common;

use common::usi::UsiProcess;
use hayanagi::ffi::*;
use hayanagi::MAX_PERFT_DEPTH;
use std::ffi::{c_char, CString};
use std::process::Command;

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hayanagi"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

struct CEngine(*mut hayanagi_engine);

impl CEngine {
    fn new() -> CEngine {
        let mut e = std::ptr::null_mut();
        assert_eq!(hayanagi_engine_new(std::ptr::null(), &mut e), HAYANAGI_OK);
        CEngine(e)
    }

    fn call(&self, f: impl FnOnce(*mut hayanagi_engine) -> hayanagi_status) -> hayanagi_status {
        f(self.0)
    }

    fn set_position(&self, text: &str) {
        let text = CString::new(text).unwrap();
        assert_eq!(
            hayanagi_engine_set_position(self.0, text.as_ptr()),
            HAYANAGI_OK
        );
    }

    /// (`HAYANAGI_GAME_*`, winner) of the current position.
    fn game_state(&self) -> (i32, i32) {
        let (mut state, mut winner) = (-1, -2);
        assert_eq!(
            hayanagi_engine_game_state(self.0, &mut state, &mut winner),
            HAYANAGI_OK
        );
        (state, winner)
    }

    fn text(
        &self,
        f: impl Fn(*mut hayanagi_engine, *mut c_char, usize, *mut usize) -> hayanagi_status,
    ) -> String {
        let mut buf = vec![0u8; 1 << 16];
        let mut len = 0usize;
        assert_eq!(
            f(self.0, buf.as_mut_ptr().cast(), buf.len(), &mut len),
            HAYANAGI_OK
        );
        String::from_utf8(buf[..len].to_vec()).unwrap()
    }
}

impl Drop for CEngine {
    fn drop(&mut self) {
        assert_eq!(hayanagi_engine_free(self.0), HAYANAGI_OK);
    }
}

const POSITION: &str = "startpos moves 7g7f 3c3d 8h2b+";

#[test]
fn perft_has_one_depth_limit() {
    let too_deep = MAX_PERFT_DEPTH + 1;
    // C
    let e = CEngine::new();
    let mut n = 0u64;
    assert_eq!(
        e.call(|h| hayanagi_engine_perft(h, too_deep, &mut n)),
        HAYANAGI_INVALID_ARG
    );
    assert_eq!(e.call(|h| hayanagi_engine_perft(h, 2, &mut n)), HAYANAGI_OK);
    assert_eq!(n, 900);
    // USI
    let mut u = UsiProcess::start();
    let out = u.sync(&format!("perft {too_deep}"));
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: perft: ")
                && l.contains("perft depth 11 is not in 0..=10")),
        "{out:?}"
    );
    u.send("perft 2");
    assert!(u.expect_prefix("perft 2 ").0.contains("nodes 900 "));
    // CLI
    let (code, out) = cli(&[
        "perft",
        "--sfen",
        "startpos",
        "--depth",
        &too_deep.to_string(),
    ]);
    assert_ne!(code, 0);
    assert!(out.contains("perft depth 11 is not in 0..=10"), "{out}");
}

#[test]
fn legal_moves_come_in_one_order() {
    let e = CEngine::new();
    e.set_position(POSITION);
    let c: Vec<String> = e
        .text(|h, b, c, l| hayanagi_engine_legal_moves(h, b, c, l))
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let mut sorted = c.clone();
    sorted.sort();
    assert_eq!(c, sorted, "by USI text");
    let mut u = UsiProcess::start();
    u.send(&format!("position {POSITION}"));
    u.send("moves");
    u.send("isready");
    let (_, lines) = u.expect("readyok", |l| l == "readyok");
    let usi: Vec<String> = lines[0].split_whitespace().map(str::to_string).collect();
    assert_eq!(usi, c);
    let (code, out) = cli(&["moves", "--sfen", "startpos", "--moves", "7g7f 3c3d 8h2b+"]);
    assert_eq!(code, 0);
    let cli_moves: Vec<String> = out.lines().map(str::to_string).collect();
    assert_eq!(cli_moves, c);
}

#[test]
fn the_game_state_counts_max_moves_to_draw() {
    let e = CEngine::new();
    let name = CString::new("MaxMovesToDraw").unwrap();
    let value = CString::new("3").unwrap();
    assert_eq!(
        e.call(|h| hayanagi_engine_set_option(h, name.as_ptr(), value.as_ptr())),
        HAYANAGI_OK
    );
    // Three moves played: move number 4 is beyond the limit.
    e.set_position(POSITION);
    assert_eq!(e.game_state(), (HAYANAGI_GAME_DRAW, -1));
    e.set_position("startpos moves 7g7f");
    assert_eq!(e.game_state().0, HAYANAGI_GAME_ONGOING);
}
