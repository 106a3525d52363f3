//! Every verdict of tests/data/rules.tsv (R01-R23, N01-N10), asserted one by one.

mod common;

use hayanagi::perft;
use hayanagi::{
    legal, Color, DeclarationRule, DrawReason, GameRules, GameState, Move, Position, Repetition,
    Validation, WinReason,
};

fn sfen_of(id: &str) -> String {
    let rows = common::tsv_rows("rules.tsv");
    rows.into_iter()
        .find(|r| r[0] == id)
        .unwrap_or_else(|| panic!("{id} missing"))[1]
        .clone()
}

/// R20 (four bishops) and N01-N10 (lances and knights on rank a) are composed positions.
fn pos(id: &str) -> Position {
    Position::from_usi_position_with(&sfen_of(id), Validation::Composed)
        .unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn legal_usi(p: &Position) -> Vec<String> {
    legal(p).iter().map(|m| m.usi()).collect()
}

/// Asserts the move count and that each of `yes` is legal and each of `no` is not, both
/// through the generator and through `parse_usi_move` (is_pseudo_legal + is_legal).
fn check(id: &str, count: usize, yes: &[&str], no: &[&str]) {
    let p = pos(id);
    let moves = legal_usi(&p);
    assert_eq!(moves.len(), count, "{id} legal move count");
    for m in yes {
        assert!(moves.contains(&m.to_string()), "{id}: {m} should be legal");
        assert!(p.parse_usi_move(m).is_ok(), "{id}: {m} should validate");
    }
    for m in no {
        assert!(
            !moves.contains(&m.to_string()),
            "{id}: {m} should be illegal"
        );
        assert!(p.parse_usi_move(m).is_err(), "{id}: {m} should be rejected");
    }
}

#[test]
fn r01_pawn_drop_mate_is_illegal() {
    check("R01", 85, &["P*1d"], &["P*1b"]);
    let mut p = pos("R01");
    assert_eq!(
        [1, 2, 3, 4].map(|d| perft(&mut p, d)),
        [85, 639, 10786, 167089]
    );
}

#[test]
fn r02_pawn_drop_mate_when_only_capturer_is_pinned() {
    check("R02", 107, &[], &["P*5b"]);
}

#[test]
fn r03_pawn_drop_check_that_can_be_captured_is_legal() {
    check("R03", 86, &["P*5b"], &[]);
}

#[test]
fn r04_r05_lance_drop_mate_is_fine_pawn_drop_mate_is_not() {
    check("R04", legal(&pos("R04")).len(), &["L*5b"], &["P*5b"]);
    check("R05", legal(&pos("R05")).len(), &["L*5b"], &["P*5b"]);
    // R05 has no black king: the tsume-style position still generates.
    assert!(pos("R05").king_square(Color::Black).is_none());
    // L*5b is mate.
    let mut p = pos("R04");
    p.do_move(Move::from_usi("L*5b").unwrap());
    assert!(p.in_check() && legal(&p).is_empty());
}

#[test]
fn r06_pawn_push_mate_is_legal() {
    for m in ["1c1b", "1c1b+"] {
        let mut p = pos("R06");
        let mv = p.parse_usi_move(m).unwrap();
        p.do_move(mv);
        assert!(p.in_check() && legal(&p).is_empty(), "{m} mates");
        let state = p.game_state(&GameRules::default());
        assert_eq!(
            state,
            GameState::Win {
                winner: Color::Black,
                reason: WinReason::Checkmate
            }
        );
    }
}

#[test]
fn r07_r08_nifu() {
    check("R07", 70, &["P*4e"], &["P*5e", "P*5b"]);
    check("R08", 81, &["P*5e"], &[]);
}

#[test]
fn r09_r10_drop_ranks() {
    check(
        "R09",
        209,
        &["P*1b", "L*1b", "N*1c"],
        &["P*1a", "L*1a", "N*1a", "N*1b"],
    );
    // White: pawn/lance not on rank i, knight not on ranks h-i.
    check(
        "R10",
        209,
        &["P*1h", "L*1h", "N*1g"],
        &["P*1i", "L*1i", "N*1i", "N*1h"],
    );
}

#[test]
fn r11_to_r16_promotion_rules() {
    check("R11", 6, &["9b9a+"], &["9b9a"]);
    check("R12", 15, &["9i9a+", "9i9b", "9i9b+"], &["9i9a"]);
    check("R13", 6, &["9d8b+"], &["9d8b"]);
    check("R14", 7, &["9e8c+", "9e8c"], &[]);
    check("R15", 15, &["5c4d+", "5c4d"], &[]);
    check("R16", 13, &["5d5c+"], &["5d4e+"]);
}

#[test]
fn r17_pin_r18_double_check_r19_interposition_r20_quadruple_check() {
    check("R17", 6, &["5g5f"], &["5g4f", "5g6f"]);
    check("R18", 3, &[], &["G*5h"]);
    check("R19", 7, &["G*5h", "G*5f"], &["G*4h"]);
    let p = pos("R20");
    let mut moves = legal_usi(&p);
    moves.sort();
    assert_eq!(moves, ["5e4e", "5e5d", "5e5f", "5e6e"]);
    assert_eq!(p.checkers().count(), 4);
}

#[test]
fn r21_checkmated_position_has_no_moves() {
    let p = pos("R21");
    assert!(p.in_check());
    assert!(legal(&p).is_empty());
    assert_eq!(
        p.game_state(&GameRules::default()),
        GameState::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        }
    );
}

#[test]
fn r22_fourfold_repetition_is_a_draw() {
    let p = pos("R22");
    assert_eq!(p.repetition(4), Repetition::Draw);
    assert_eq!(
        p.game_state(&GameRules::default()),
        GameState::Draw(DrawReason::Repetition)
    );
    // One move earlier the start position has occurred only three times.
    let text = sfen_of("R22");
    let short = text.rsplit_once(' ').unwrap().0;
    let q = Position::from_usi_position(short).unwrap();
    assert!(
        Position::from_sfen(&sfen_of("R20")).is_err(),
        "four bishops are not a standard position"
    );
    assert_eq!(q.game_state(&GameRules::default()), GameState::Ongoing);
    // Search semantics: the second occurrence already counts.
    let mut r = Position::startpos();
    r.play_usi_moves("2h5h 8b5b 5h2h 5b8b").unwrap();
    assert_eq!(r.repetition(2), Repetition::Draw);
    assert_eq!(r.repetition(3), Repetition::None);
}

#[test]
fn r23_perpetual_check_loses_for_the_checker() {
    let p = pos("R23");
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.repetition(4), Repetition::Loss);
    assert_eq!(
        p.game_state(&GameRules::default()),
        GameState::Win {
            winner: Color::White,
            reason: WinReason::PerpetualCheck
        }
    );
    // Seen from the other side: one ply later white is to move and black checked throughout.
    let mut q = pos("R23");
    q.play_usi_moves("2e2d 1d1e 2d2e 1e1d").unwrap();
    assert_eq!(q.repetition(4), Repetition::Loss);
    let mut w = pos("R23");
    w.play_usi_moves("2e2d").unwrap();
    assert_eq!(w.side_to_move(), Color::White);
    assert_eq!(w.repetition(4), Repetition::Win);
}

/// (id, CSA 27-point verdict, 24-point verdict): "WIN", "DRAW" or "NONE".
const DECLARATIONS: [(&str, &str, &str); 10] = [
    ("N01", "WIN", "DRAW"),
    ("N02", "NONE", "DRAW"),
    ("N03", "WIN", "WIN"),
    ("N04", "NONE", "DRAW"),
    ("N05", "NONE", "NONE"),
    ("N06", "WIN", "DRAW"),
    ("N07", "NONE", "DRAW"),
    ("N08", "NONE", "NONE"),
    ("N09", "NONE", "NONE"),
    ("N10", "NONE", "NONE"),
];

fn verdict(p: &Position, rule: DeclarationRule) -> &'static str {
    match p.declaration(rule) {
        None => "NONE",
        Some(GameState::Win {
            winner,
            reason: WinReason::Declaration,
        }) => {
            assert_eq!(winner, p.side_to_move());
            "WIN"
        }
        Some(GameState::Draw(DrawReason::Declaration)) => "DRAW",
        Some(other) => panic!("unexpected {other:?}"),
    }
}

#[test]
fn n01_to_n10_entering_king_declarations() {
    for (id, law27, law24) in DECLARATIONS {
        let p = pos(id);
        assert_eq!(verdict(&p, DeclarationRule::Csa27), law27, "{id} 27-point");
        assert_eq!(
            verdict(&p, DeclarationRule::Points24),
            law24,
            "{id} 24-point"
        );
        assert_eq!(verdict(&p, DeclarationRule::Off), "NONE");
    }
    // The points themselves for N01 (28) and N06 (27, white).
    assert_eq!(pos("N01").declaration_points(Color::Black).0, 28);
    assert_eq!(pos("N06").declaration_points(Color::White).0, 27);
    assert_eq!(pos("N08").declaration_points(Color::Black).1, 9);
    // game_state reports the declaration the side to move may make.
    let rules = GameRules {
        declaration: DeclarationRule::Csa27,
        max_moves: None,
    };
    assert_eq!(
        pos("N01").game_state(&rules),
        GameState::Win {
            winner: Color::Black,
            reason: WinReason::Declaration
        }
    );
    assert_eq!(pos("N02").game_state(&rules), GameState::Ongoing);
}

#[test]
fn try_rule() {
    // Black king on 5b may step to 5a (white king elsewhere, 5a unattacked).
    let mut p = Position::from_sfen("9/4K4/9/9/9/9/9/9/k8 b - 1").unwrap();
    let rules = GameRules {
        declaration: DeclarationRule::Try,
        max_moves: None,
    };
    assert_eq!(p.try_move().map(|m| m.usi()), Some("5b5a".to_string()));
    assert_eq!(
        p.declaration(DeclarationRule::Try),
        Some(GameState::Win {
            winner: Color::Black,
            reason: WinReason::Try
        })
    );
    p.do_move(p.try_move().unwrap());
    assert_eq!(
        p.game_state(&rules),
        GameState::Win {
            winner: Color::Black,
            reason: WinReason::Try
        }
    );
    // Guarded try square: no try.
    let q = Position::from_sfen("3g5/4K4/9/9/9/9/9/9/k8 b - 1").unwrap();
    assert_eq!(q.try_move(), None);
}

#[test]
fn max_moves_draw() {
    let p = Position::from_usi_position("startpos moves 7g7f 3c3d").unwrap();
    assert_eq!(p.move_number(), 3);
    let rules = GameRules {
        declaration: DeclarationRule::Off,
        max_moves: Some(2),
    };
    assert_eq!(p.game_state(&rules), GameState::Draw(DrawReason::MaxMoves));
    let rules = GameRules {
        declaration: DeclarationRule::Off,
        max_moves: Some(3),
    };
    assert_eq!(p.game_state(&rules), GameState::Ongoing);
}
