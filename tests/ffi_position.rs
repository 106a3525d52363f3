//! The light position handle of the C ABI (`hayanagi_position_*`): the rules answers of the
//! Rust core, every kind of bad input answered with its status, and no engine involved.

use hayanagi::ffi::*;
use hayanagi::{legal_in_usi_order, perft, GameRules, GameState, Position, WinReason};
use std::ffi::{c_char, CString};
use std::ptr::{null, null_mut};

fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

struct Handle(*mut hayanagi_position);

impl Handle {
    fn new(text: Option<&str>) -> Result<Handle, i32> {
        let text = text.map(c);
        let mut out = null_mut();
        match hayanagi_position_new(text.as_ref().map_or(null(), |t| t.as_ptr()), &mut out) {
            HAYANAGI_OK => Ok(Handle(out)),
            st => {
                assert!(out.is_null(), "no handle on failure");
                Err(st)
            }
        }
    }

    fn text(
        &self,
        f: extern "C" fn(*const hayanagi_position, *mut c_char, usize, *mut usize) -> i32,
    ) -> String {
        let mut n = 0usize;
        assert_eq!(f(self.0, null_mut(), 0, &mut n), HAYANAGI_BUFFER_TOO_SMALL);
        let mut buf = vec![0u8; n + 1];
        let mut m = usize::MAX;
        assert_eq!(
            f(self.0, buf.as_mut_ptr().cast(), buf.len(), &mut m),
            HAYANAGI_OK
        );
        assert_eq!((m, buf[n]), (n, 0));
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    fn sfen(&self) -> String {
        self.text(hayanagi_position_sfen)
    }

    fn moves(&self) -> String {
        self.text(hayanagi_position_legal_moves)
    }

    fn play(&self, m: &str) -> i32 {
        hayanagi_position_play(self.0, c(m).as_ptr())
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        assert_eq!(hayanagi_position_free(self.0), HAYANAGI_OK);
    }
}

fn last_error() -> String {
    let mut buf = vec![0u8; 1024];
    let mut n = 0usize;
    assert_eq!(
        hayanagi_last_error(buf.as_mut_ptr().cast(), buf.len(), &mut n),
        HAYANAGI_OK
    );
    String::from_utf8(buf[..n].to_vec()).unwrap()
}

fn usi_list(pos: &Position) -> String {
    legal_in_usi_order(pos)
        .iter()
        .map(|m| m.usi())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn answers_are_the_rules_cores_along_a_game() {
    let p = Handle::new(None).unwrap();
    let mut pos = Position::startpos();
    assert_eq!(p.sfen(), pos.to_sfen());
    let line = "7g7f 3c3d 8h2b+ 3a2b B*4e 8b3b 4e3d 2b3c 3d4e 4a4b 2g2f";
    for m in line.split_whitespace() {
        assert_eq!(p.moves(), usi_list(&pos));
        let mut n = 0u64;
        assert_eq!(hayanagi_position_perft(p.0, 2, &mut n), HAYANAGI_OK);
        assert_eq!(n, perft(&mut pos.clone(), 2));
        let (mut side, mut check) = (-1, true);
        assert_eq!(
            hayanagi_position_side_to_move(p.0, &mut side, &mut check),
            HAYANAGI_OK
        );
        assert_eq!(
            (side, check),
            (pos.side_to_move().index() as i32, pos.in_check())
        );
        assert_eq!(p.play(m), HAYANAGI_OK, "{m}");
        pos.do_move(pos.parse_usi_move(m).unwrap());
        assert_eq!(p.sfen(), pos.to_sfen());
    }
    let mut played = 0u32;
    assert_eq!(
        hayanagi_position_moves_played(p.0, &mut played),
        HAYANAGI_OK
    );
    assert_eq!(played, 11);
    // Taking every move back returns to the start, then there is nothing left to take.
    for _ in 0..11 {
        assert_eq!(hayanagi_position_undo(p.0), HAYANAGI_OK);
    }
    assert_eq!(p.sfen(), Position::startpos().to_sfen());
    assert_eq!(hayanagi_position_undo(p.0), HAYANAGI_INVALID_ARG);
    assert!(last_error().contains("no move"));
    // A position given with moves can take those back too.
    let q = Handle::new(Some("startpos moves 7g7f 3c3d")).unwrap();
    assert_eq!(hayanagi_position_undo(q.0), HAYANAGI_OK);
    assert_eq!(
        q.sfen(),
        Position::from_usi_position("startpos moves 7g7f")
            .unwrap()
            .to_sfen()
    );
    let mut n = 0u64;
    assert_eq!(
        hayanagi_position_perft(Handle::new(None).unwrap().0, 3, &mut n),
        HAYANAGI_OK
    );
    assert_eq!(n, 25_470);
}

#[test]
fn game_state_and_evaluation() {
    // Black has just mated: white to move, no legal move.
    let mated = "sfen 4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1";
    let p = Handle::new(Some(mated)).unwrap();
    let (mut state, mut winner) = (-5, -5);
    assert_eq!(
        hayanagi_position_game_state(p.0, &mut state, &mut winner),
        HAYANAGI_OK
    );
    let want = Position::from_usi_position(mated)
        .unwrap()
        .game_state(&GameRules::default());
    assert!(matches!(
        want,
        GameState::Win {
            reason: WinReason::Checkmate,
            ..
        }
    ));
    assert_eq!((state, winner), (HAYANAGI_GAME_CHECKMATE, 0));
    assert_eq!(p.moves(), "");
    let s = Handle::new(None).unwrap();
    assert_eq!(
        hayanagi_position_game_state(s.0, &mut state, &mut winner),
        HAYANAGI_OK
    );
    assert_eq!((state, winner), (HAYANAGI_GAME_ONGOING, -1));
    // The hand-crafted evaluation: a bishop down is far below the start position.
    let (mut even, mut down) = (0, 0);
    assert_eq!(hayanagi_position_evaluate(s.0, &mut even), HAYANAGI_OK);
    let b = Handle::new(Some("startpos moves 7g7f 3c3d 8h2b+")).unwrap();
    assert_eq!(hayanagi_position_evaluate(b.0, &mut down), HAYANAGI_OK);
    assert!(down < even - 300, "{down} vs {even}");
}

#[test]
fn every_kind_of_bad_input_has_its_status() {
    assert_eq!(
        Handle::new(Some("sfen nonsense")).err(),
        Some(HAYANAGI_PARSE)
    );
    assert!(!last_error().is_empty());
    assert_eq!(
        Handle::new(Some("startpos moves 7g7f 7g7f")).err(),
        Some(HAYANAGI_ILLEGAL_MOVE)
    );
    assert!(
        last_error().contains("move 1 (0-based)"),
        "{}",
        last_error()
    );
    assert_eq!(hayanagi_position_new(null(), null_mut()), HAYANAGI_NULL_ARG);
    let bad_utf8 = [0xffu8, 0];
    let mut out = null_mut();
    assert_eq!(
        hayanagi_position_new(bad_utf8.as_ptr().cast(), &mut out),
        HAYANAGI_INVALID_ARG
    );
    assert!(out.is_null());

    let p = Handle::new(None).unwrap();
    let start = p.sfen();
    assert_eq!(p.play("5e5d"), HAYANAGI_ILLEGAL_MOVE);
    assert_eq!(p.play("garbage"), HAYANAGI_ILLEGAL_MOVE);
    assert_eq!(hayanagi_position_play(p.0, null()), HAYANAGI_NULL_ARG);
    assert_eq!(
        hayanagi_position_set(p.0, c("sfen 9/9 b").as_ptr()),
        HAYANAGI_PARSE
    );
    assert_eq!(p.sfen(), start, "failures change nothing");
    let mut n = 0u64;
    assert_eq!(
        hayanagi_position_perft(p.0, 11, &mut n),
        HAYANAGI_INVALID_ARG
    );
    assert_eq!(
        hayanagi_position_perft(p.0, 1, null_mut()),
        HAYANAGI_NULL_ARG
    );
    let mut legal = true;
    assert_eq!(
        hayanagi_position_is_legal(p.0, c("9z9y").as_ptr(), &mut legal),
        HAYANAGI_OK
    );
    assert!(!legal);
    assert_eq!(
        hayanagi_position_is_legal(p.0, c("7g7f").as_ptr(), &mut legal),
        HAYANAGI_OK
    );
    assert!(legal);
    // A buffer one byte short: BUFFER_TOO_SMALL, the size needed, an empty string.
    let mut buf = vec![b'x'; start.len()];
    let mut need = 0usize;
    assert_eq!(
        hayanagi_position_sfen(p.0, buf.as_mut_ptr().cast(), buf.len(), &mut need),
        HAYANAGI_BUFFER_TOO_SMALL
    );
    assert_eq!((need, buf[0]), (start.len(), 0));
    assert_eq!(
        hayanagi_position_sfen(p.0, null_mut(), 10, &mut need),
        HAYANAGI_NULL_ARG
    );

    // A NULL handle is NULL_ARG for every call, and freeing NULL is a no-op.
    let none: *mut hayanagi_position = null_mut();
    let mut i = 0i32;
    assert_eq!(hayanagi_position_free(none), HAYANAGI_OK);
    assert_eq!(
        hayanagi_position_set(none, c("startpos").as_ptr()),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(
        hayanagi_position_play(none, c("7g7f").as_ptr()),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(hayanagi_position_undo(none), HAYANAGI_NULL_ARG);
    assert_eq!(
        hayanagi_position_moves_played(none, &mut 0),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(
        hayanagi_position_sfen(none, null_mut(), 0, null_mut()),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(
        hayanagi_position_legal_moves(none, null_mut(), 0, null_mut()),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(
        hayanagi_position_is_legal(none, c("7g7f").as_ptr(), &mut legal),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(
        hayanagi_position_side_to_move(none, &mut i, null_mut()),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(hayanagi_position_perft(none, 1, &mut n), HAYANAGI_NULL_ARG);
    assert_eq!(
        hayanagi_position_game_state(none, &mut i, &mut i.clone()),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(hayanagi_position_evaluate(none, &mut i), HAYANAGI_NULL_ARG);
    assert!(last_error().contains("NULL"));
}

#[test]
fn one_handle_used_from_several_threads_stays_consistent() {
    let p = Handle::new(None).unwrap();
    let addr = p.0 as usize;
    let threads: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                let h = addr as *mut hayanagi_position;
                for _ in 0..500 {
                    let mut legal = false;
                    assert_eq!(
                        hayanagi_position_is_legal(h, c("7g7f").as_ptr(), &mut legal),
                        HAYANAGI_OK
                    );
                    let mut n = 0u64;
                    assert_eq!(hayanagi_position_perft(h, 1, &mut n), HAYANAGI_OK);
                    assert_eq!(n, 30, "only the start position is ever observed");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}
