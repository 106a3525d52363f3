//! SFEN parser errors (kind, field, column, character), accepted corner cases, USI
//! `position` arguments and SFEN round trips.
//!
//! Columns are 1-based in the whole string. For the small test board
//! `4k4/9/9/9/9/9/9/9/4K4 b - 1` the ranks start at columns a:1 b:5 c:7 d:9 e:11 f:13
//! g:15 h:17 i:19, the side is at 23, the hand at 25 and the move number at 27. For the
//! start position the side is at 59, the hand at 61 and the move number at 63.

use hayanagi::{
    Color, MoveError, PieceType, Position, PositionError, SfenError, SfenErrorKind, SfenField,
    Validation, STARTPOS_SFEN,
};

const START_BOARD: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

fn parse_err(sfen: &str) -> SfenError {
    match Position::from_sfen(sfen) {
        Ok(p) => panic!("{sfen:?} was accepted as {}", p.to_sfen()),
        Err(e) => e,
    }
}

/// Parse `sfen`, expect an error with exactly these properties, and check that its
/// `Display` text mentions the column, the character and each of `mentions`.
fn expect_err(
    sfen: &str,
    kind: SfenErrorKind,
    field: SfenField,
    column: usize,
    found: Option<char>,
    mentions: &[&str],
) -> SfenError {
    let e = parse_err(sfen);
    assert_eq!(e.kind, kind, "kind for {sfen:?}: {e}");
    assert_eq!(e.field, field, "field for {sfen:?}: {e}");
    assert_eq!(e.column, column, "column for {sfen:?}: {e}");
    assert_eq!(e.found, found, "found for {sfen:?}: {e}");
    let text = e.to_string();
    assert!(text.starts_with("bad SFEN"), "{text}");
    if column > 0 {
        assert!(
            text.contains(&format!("column {column}")),
            "{sfen:?}: {text}"
        );
    }
    if let Some(c) = found {
        assert!(text.contains(&format!("'{c}'")), "{sfen:?}: {text}");
    }
    for m in mentions {
        assert!(
            text.contains(m),
            "{sfen:?}: {text:?} does not mention {m:?}"
        );
    }
    e
}

fn parse_ok(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen:?} rejected: {e}"))
}

// ----- one test per error kind ----------------------------------------------------------

#[test]
fn missing_field() {
    use SfenErrorKind::MissingField;
    let f = SfenField::Whole;
    expect_err("", MissingField, f, 0, None, &["sfen", "board", "missing"]);
    expect_err("   ", MissingField, f, 0, None, &["board", "missing"]);
    expect_err(
        START_BOARD,
        MissingField,
        f,
        0,
        None,
        &["side to move", "missing"],
    );
    expect_err(
        &format!("{START_BOARD} b"),
        MissingField,
        f,
        0,
        None,
        &["hand", "missing"],
    );
}

#[test]
fn trailing_text() {
    expect_err(
        &format!("{START_BOARD} b - 1 extra"),
        SfenErrorKind::TrailingText,
        SfenField::Whole,
        65,
        Some('e'),
        &["after the move number"],
    );
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K4 b - 1  moves",
        SfenErrorKind::TrailingText,
        SfenField::Whole,
        30,
        Some('m'),
        &["unexpected text"],
    );
}

#[test]
fn bad_piece_letter() {
    use SfenErrorKind::BadPieceLetter;
    let f = SfenField::Board;
    expect_err(
        "4k4/9/9/9/4x4/9/9/9/4K4 b - 1",
        BadPieceLetter,
        f,
        12,
        Some('x'),
        &["board", "piece letter"],
    );
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K3q b - 1",
        BadPieceLetter,
        f,
        22,
        Some('q'),
        &["piece letter"],
    );
    // Leading blanks count in the column.
    expect_err(
        "  4k4/9/9/9/9/9/9/9/4Z4 b - 1",
        BadPieceLetter,
        f,
        22,
        Some('Z'),
        &["piece letter"],
    );
    // A zero count of empty squares.
    expect_err(
        "4k4/9/9/09/9/9/9/9/4K4 b - 1",
        BadPieceLetter,
        f,
        9,
        Some('0'),
        &["1-9"],
    );
    // In the full start position.
    expect_err(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS*L b - 1",
        BadPieceLetter,
        f,
        56,
        Some('*'),
        &["piece letter"],
    );
}

#[test]
fn bad_promotion() {
    use SfenErrorKind::BadPromotion;
    let f = SfenField::Board;
    // Gold and king cannot promote.
    expect_err(
        "4k4/9/9/9/9/9/9/9/3+GK4 b - 1",
        BadPromotion,
        f,
        21,
        Some('G'),
        &["cannot be promoted"],
    );
    expect_err(
        "3+k5/9/9/9/9/9/9/9/4K4 b - 1",
        BadPromotion,
        f,
        3,
        Some('k'),
        &["cannot be promoted"],
    );
    // `++`.
    expect_err(
        "4k4/9/9/9/++P8/9/9/9/4K4 b - 1",
        BadPromotion,
        f,
        12,
        Some('+'),
        &["++"],
    );
    // `+` before a digit or a `/`: the character after the `+` is reported.
    expect_err(
        "4k4/9/9/9/+18/9/9/9/4K4 b - 1",
        BadPromotion,
        f,
        12,
        Some('1'),
        &["piece letter"],
    );
    expect_err(
        "4k4/9/9/9/8+/9/9/9/4K4 b - 1",
        BadPromotion,
        f,
        13,
        Some('/'),
        &["piece letter"],
    );
    // `+` at the very end of the board: reported just past it (column 23 is the blank
    // after the board; the `+` itself is at 22), with no character.
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K4+ b - 1",
        BadPromotion,
        f,
        23,
        None,
        &["end of the board"],
    );
}

#[test]
fn rank_too_long() {
    use SfenErrorKind::RankTooLong;
    let f = SfenField::Board;
    // A digit that overflows the rank.
    expect_err(
        "4k5/9/9/9/9/9/9/9/4K4 b - 1",
        RankTooLong,
        f,
        3,
        Some('5'),
        &["rank a", "more than 9"],
    );
    expect_err(
        "4k4/9/9/99/9/9/9/9/4K4 b - 1",
        RankTooLong,
        f,
        10,
        Some('9'),
        &["rank d"],
    );
    // A piece after nine squares.
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K4G b - 1",
        RankTooLong,
        f,
        22,
        Some('G'),
        &["rank i"],
    );
    // A promoted piece after nine squares: the letter is reported.
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K4+P b - 1",
        RankTooLong,
        f,
        23,
        Some('P'),
        &["rank i"],
    );
}

#[test]
fn rank_too_short() {
    use SfenErrorKind::RankTooShort;
    let f = SfenField::Board;
    expect_err(
        "4k3/9/9/9/9/9/9/9/4K4 b - 1",
        RankTooShort,
        f,
        4,
        Some('/'),
        &["rank a has 8 squares"],
    );
    // An empty rank.
    expect_err(
        "4k4//9/9/9/9/9/9/4K4 b - 1",
        RankTooShort,
        f,
        5,
        Some('/'),
        &["rank b has 0 squares"],
    );
    // The last rank: reported at the end of the board.
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K3 b - 1",
        RankTooShort,
        f,
        22,
        None,
        &["rank i has 8 squares"],
    );
}

#[test]
fn wrong_rank_count() {
    use SfenErrorKind::WrongRankCount;
    let f = SfenField::Board;
    // Eight ranks: reported at the end of the board.
    expect_err(
        "4k4/9/9/9/9/9/9/4K4 b - 1",
        WrongRankCount,
        f,
        20,
        None,
        &["8 ranks"],
    );
    // Ten ranks: reported at the ninth `/`.
    expect_err(
        "4k4/9/9/9/9/9/9/9/9/4K4 b - 1",
        WrongRankCount,
        f,
        20,
        Some('/'),
        &["more than 9 ranks"],
    );
    // One rank.
    expect_err("9 b - 1", WrongRankCount, f, 2, None, &["1 ranks"]);
}

#[test]
fn dead_rank_black_pawn() {
    expect_err(
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        1,
        Some('P'),
        &["9a", "could never move"],
    );
}

#[test]
fn dead_rank_white_pawn() {
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K3p b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        22,
        Some('p'),
        &["1i", "could never move"],
    );
}

#[test]
fn dead_rank_black_lance() {
    expect_err(
        "4k3L/9/9/9/9/9/9/9/4K4 b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        4,
        Some('L'),
        &["1a"],
    );
}

#[test]
fn dead_rank_white_lance() {
    expect_err(
        "4k4/9/9/9/9/9/9/9/l3K4 b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        19,
        Some('l'),
        &["9i"],
    );
}

#[test]
fn dead_rank_black_knight() {
    expect_err(
        "N3k4/9/9/9/9/9/9/9/4K4 b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        1,
        Some('N'),
        &["9a"],
    );
    expect_err(
        "4k4/8N/9/9/9/9/9/9/4K4 b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        6,
        Some('N'),
        &["1b"],
    );
}

#[test]
fn dead_rank_white_knight() {
    expect_err(
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        17,
        Some('n'),
        &["9h"],
    );
    expect_err(
        "4k4/9/9/9/9/9/9/9/4K3n b - 1",
        SfenErrorKind::DeadRank,
        SfenField::Board,
        22,
        Some('n'),
        &["1i"],
    );
}

#[test]
fn pieces_that_move_are_not_dead_on_the_last_ranks() {
    // Promoted pawn, lance and knight on black's far rank, white's on its far rank,
    // a black knight on rank c and a white knight on rank g.
    let sfen = "+P+L+N1k4/9/N8/9/9/9/8n/9/4K1+n+l+p b - 1";
    let pos = parse_ok(sfen);
    assert_eq!(pos.to_sfen(), sfen);
}

#[test]
fn two_pawns_on_file() {
    expect_err(
        "4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1",
        SfenErrorKind::TwoPawnsOnFile,
        SfenField::Board,
        18,
        Some('P'),
        &["file 5"],
    );
    expect_err(
        "4k4/4p4/9/4p4/9/9/9/9/4K4 b - 1",
        SfenErrorKind::TwoPawnsOnFile,
        SfenField::Board,
        12,
        Some('p'),
        &["file 5"],
    );
    // A black and a white pawn on one file are fine.
    parse_ok("4k4/9/9/4p4/9/4P4/9/9/4K4 b - 1");
}

#[test]
fn too_many_pieces() {
    use SfenErrorKind::TooManyPieces;
    // Board plus hand: the start position holds all 18 pawns, one more in hand is 19.
    expect_err(
        &format!("{START_BOARD} b P 1"),
        TooManyPieces(PieceType::Pawn),
        SfenField::Whole,
        0,
        Some('P'),
        &["19", "18"],
    );
    expect_err(
        &format!("{START_BOARD} w p 1"),
        TooManyPieces(PieceType::Pawn),
        SfenField::Whole,
        0,
        Some('P'),
        &["19"],
    );
    // A rook in each hand on top of the two on the board.
    expect_err(
        &format!("{START_BOARD} b Rr 1"),
        TooManyPieces(PieceType::Rook),
        SfenField::Whole,
        0,
        Some('R'),
        &["4 pieces"],
    );
    // Hand alone.
    let small = "4k4/9/9/9/9/9/9/9/4K4";
    expect_err(
        &format!("{small} b 19P 1"),
        TooManyPieces(PieceType::Pawn),
        SfenField::Hand,
        27,
        Some('P'),
        &["hand", "19", "18"],
    );
    expect_err(
        &format!("{small} b 3R 1"),
        TooManyPieces(PieceType::Rook),
        SfenField::Hand,
        26,
        Some('R'),
        &["3", "2"],
    );
    expect_err(
        &format!("{small} w P3r 1"),
        TooManyPieces(PieceType::Rook),
        SfenField::Hand,
        27,
        Some('r'),
        &["3"],
    );
    expect_err(
        &format!("{small} b S5g 1"),
        TooManyPieces(PieceType::Gold),
        SfenField::Hand,
        27,
        Some('g'),
        &["5"],
    );
    // Board alone, counting a promoted bishop: B, +B and b.
    expect_err(
        "4k4/9/9/9/9/9/9/9/B+Bb2K3 b - 1",
        TooManyPieces(PieceType::Bishop),
        SfenField::Whole,
        0,
        Some('B'),
        &["3"],
    );
    // Five golds split between the board and both hands.
    expect_err(
        "4k4/9/9/9/9/9/9/9/3GKG3 b G2g 1",
        TooManyPieces(PieceType::Gold),
        SfenField::Whole,
        0,
        Some('G'),
        &["5"],
    );
}

#[test]
fn two_kings() {
    expect_err(
        "4k4/9/9/9/9/9/9/9/3KK4 b - 1",
        SfenErrorKind::TwoKings,
        SfenField::Board,
        21,
        Some('K'),
        &["black king", "5i"],
    );
    expect_err(
        "3kk4/9/9/9/9/9/9/9/4K4 b - 1",
        SfenErrorKind::TwoKings,
        SfenField::Board,
        3,
        Some('k'),
        &["white king", "5a"],
    );
}

#[test]
fn bad_side() {
    use SfenErrorKind::BadSide;
    let f = SfenField::Side;
    for side in ["x", "B", "W", "-", "0"] {
        let c = side.chars().next();
        expect_err(
            &format!("{START_BOARD} {side} - 1"),
            BadSide,
            f,
            59,
            c,
            &["side to move", "'b' or 'w'"],
        );
    }
    let e = parse_err(&format!("{START_BOARD} black - 1"));
    assert_eq!((e.kind, e.field, e.column), (BadSide, f, 59));
    // Hand and side swapped.
    let e = parse_err(&format!("{START_BOARD} - b 1"));
    assert_eq!((e.kind, e.field, e.column), (BadSide, f, 59));
    assert_eq!(e.found, Some('-'));
}

#[test]
fn bad_hand_letter() {
    let s = |hand: &str| format!("{START_BOARD} b {hand} 1");
    use SfenErrorKind::BadHand;
    let f = SfenField::Hand;
    expect_err(&s("X"), BadHand, f, 61, Some('X'), &["hand", "letter"]);
    expect_err(&s("-P"), BadHand, f, 61, Some('-'), &["letter"]);
    expect_err(&s("+P"), BadHand, f, 61, Some('+'), &["letter"]);
    expect_err(&s("2Gx"), BadHand, f, 63, Some('x'), &["letter"]);
}

#[test]
fn bad_hand_king() {
    let small = "4k4/9/9/9/9/9/9/9/4K4";
    use SfenErrorKind::BadHand;
    let f = SfenField::Hand;
    expect_err(
        &format!("{small} b K 1"),
        BadHand,
        f,
        25,
        Some('K'),
        &["king"],
    );
    expect_err(
        &format!("{small} b Pk 1"),
        BadHand,
        f,
        26,
        Some('k'),
        &["king"],
    );
}

#[test]
fn bad_hand_zero_count() {
    let small = "4k4/9/9/9/9/9/9/9/4K4";
    expect_err(
        &format!("{small} b 0P 1"),
        SfenErrorKind::BadHand,
        SfenField::Hand,
        25,
        Some('0'),
        &["0"],
    );
    expect_err(
        &format!("{small} b R02p 1"),
        SfenErrorKind::BadHand,
        SfenField::Hand,
        26,
        Some('0'),
        &["0"],
    );
}

#[test]
fn bad_hand_count_without_letter() {
    let small = "4k4/9/9/9/9/9/9/9/4K4";
    // The column is where the dangling count starts.
    let e = expect_err(
        &format!("{small} b P2 1"),
        SfenErrorKind::BadHand,
        SfenField::Hand,
        26,
        None,
        &["without a piece letter"],
    );
    assert!(e.to_string().contains("column 26"));
    let e = parse_err(&format!("{small} b 12 1"));
    assert_eq!(
        (e.kind, e.field, e.column),
        (SfenErrorKind::BadHand, SfenField::Hand, 25)
    );
    // Three digits.
    expect_err(
        &format!("{small} b 100P 1"),
        SfenErrorKind::BadHand,
        SfenField::Hand,
        27,
        Some('0'),
        &["two digits"],
    );
}

#[test]
fn bad_hand_repeated_kind() {
    let small = "4k4/9/9/9/9/9/9/9/4K4";
    expect_err(
        &format!("{small} b PP 1"),
        SfenErrorKind::BadHand,
        SfenField::Hand,
        26,
        Some('P'),
        &["twice"],
    );
    expect_err(
        &format!("{small} b 2P3P 1"),
        SfenErrorKind::BadHand,
        SfenField::Hand,
        28,
        Some('P'),
        &["twice"],
    );
    expect_err(
        &format!("{small} b gSg 1"),
        SfenErrorKind::BadHand,
        SfenField::Hand,
        27,
        Some('g'),
        &["'g' listed twice"],
    );
    // The same kind once per colour is fine.
    let pos = parse_ok(&format!("{small} b Pp 1"));
    assert_eq!(pos.hand(Color::Black).count(PieceType::Pawn), 1);
    assert_eq!(pos.hand(Color::White).count(PieceType::Pawn), 1);
}

#[test]
fn bad_move_number() {
    use SfenErrorKind::BadMoveNumber;
    let f = SfenField::MoveNumber;
    let s = |n: &str| format!("{START_BOARD} b - {n}");
    expect_err(
        &s("0"),
        BadMoveNumber,
        f,
        63,
        Some('0'),
        &["positive integer"],
    );
    expect_err(&s("-1"), BadMoveNumber, f, 63, Some('-'), &["move number"]);
    expect_err(&s("abc"), BadMoveNumber, f, 63, Some('a'), &["move number"]);
    // Too large for the counter.
    let e = parse_err(&s("99999999999"));
    assert_eq!((e.kind, e.field, e.column), (BadMoveNumber, f, 63));
}

#[test]
fn bad_move_number_column_points_at_the_bad_character() {
    // `found` is the first non-digit, so `column` must be that character's column (64),
    // as everywhere else in the parser, not the start of the field (63).
    let sfen = format!("{START_BOARD} b - 1x");
    expect_err(
        &sfen,
        SfenErrorKind::BadMoveNumber,
        SfenField::MoveNumber,
        64,
        Some('x'),
        &["move number"],
    );
}

#[test]
fn opponent_in_check() {
    // Black to move, and the white king on 5a stands in check from the rook on 5e.
    expect_err(
        "4k4/9/9/9/4R4/9/9/9/4K4 b - 1",
        SfenErrorKind::OpponentInCheck,
        SfenField::Whole,
        0,
        None,
        &["5a", "check"],
    );
    expect_err(
        "4k4/9/9/9/4r4/9/9/9/4K4 w - 1",
        SfenErrorKind::OpponentInCheck,
        SfenField::Whole,
        0,
        None,
        &["5i", "check"],
    );
    // A knight check on the side not to move.
    expect_err(
        "4k4/9/3N5/9/9/9/9/9/4K4 b - 1",
        SfenErrorKind::OpponentInCheck,
        SfenField::Whole,
        0,
        None,
        &["5a"],
    );
    // The side to move may stand in check.
    let pos = parse_ok("4k4/9/9/9/4R4/9/9/9/4K4 w - 1");
    assert!(pos.in_check());
}

// ----- accepted positions -----------------------------------------------------------------

#[test]
fn tsume_without_black_king_is_accepted() {
    let sfen = "3rkr3/9/8p/4N4/1B7/9/1SG6/2S6/9 b LPp 1";
    let pos = parse_ok(sfen);
    assert_eq!(pos.king_square(Color::Black), None);
    assert!(pos.king_square(Color::White).is_some());
    assert_eq!(pos.hand(Color::Black).count(PieceType::Lance), 1);
    assert_eq!(pos.hand(Color::Black).count(PieceType::Pawn), 1);
    assert_eq!(pos.hand(Color::White).count(PieceType::Pawn), 1);
    assert_eq!(pos.to_sfen(), sfen);
}

#[test]
fn tokin_and_pawn_on_one_file_are_accepted() {
    let sfen = "4k4/9/9/9/4+P4/9/4P4/9/4K4 b - 1";
    assert_eq!(parse_ok(sfen).to_sfen(), sfen);
    let sfen = "4k4/4p4/9/4+p4/9/9/9/9/4K4 w - 1";
    assert_eq!(parse_ok(sfen).to_sfen(), sfen);
}

#[test]
fn missing_move_number_defaults_to_one() {
    let pos = parse_ok(&format!("{START_BOARD} b -"));
    assert_eq!(pos.move_number(), 1);
    assert_eq!(pos.to_sfen(), STARTPOS_SFEN);
    let pos = parse_ok("4k4/9/9/9/9/9/9/9/4K4 w 2P");
    assert_eq!(pos.move_number(), 1);
    assert_eq!(pos.side_to_move(), Color::White);
    assert_eq!(pos.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 w 2P 1");
}

#[test]
fn startpos_forms() {
    assert_eq!(parse_ok("startpos").to_sfen(), STARTPOS_SFEN);
    assert_eq!(parse_ok("  startpos ").to_sfen(), STARTPOS_SFEN);
    assert_eq!(Position::startpos().to_sfen(), STARTPOS_SFEN);
    let pos = Position::from_usi_position("startpos").unwrap();
    assert_eq!(pos.to_sfen(), STARTPOS_SFEN);
    let pos = Position::from_usi_position(&format!("sfen {STARTPOS_SFEN}")).unwrap();
    assert_eq!(pos.to_sfen(), STARTPOS_SFEN);
    // A bare SFEN is accepted too.
    let pos = Position::from_usi_position(STARTPOS_SFEN).unwrap();
    assert_eq!(pos.to_sfen(), STARTPOS_SFEN);
    let pos = Position::from_usi_position("startpos moves").unwrap();
    assert_eq!(pos.to_sfen(), STARTPOS_SFEN);
}

#[test]
fn usi_position_with_moves() {
    let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    let pos = Position::from_usi_position("startpos moves 7g7f 3c3d").unwrap();
    assert_eq!(pos.to_sfen(), after);
    assert_eq!(pos.moves_played(), 2);
    assert_eq!(pos.move_number(), 3);
    let pos =
        Position::from_usi_position(&format!("sfen {STARTPOS_SFEN} moves 7g7f 3c3d")).unwrap();
    assert_eq!(pos.to_sfen(), after);
    // The move number of the SFEN is carried on.
    let pos = Position::from_usi_position(
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 41 moves 7g7f",
    )
    .unwrap();
    assert_eq!(pos.move_number(), 42);
    assert_eq!(
        pos.to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 42"
    );
}

#[test]
fn usi_position_sfen_errors_are_passed_on() {
    match Position::from_usi_position("sfen 4k4/9/9/9/4x4/9/9/9/4K4 b - 1 moves 5i5h") {
        Err(PositionError::Sfen(e)) => {
            assert_eq!(e.kind, SfenErrorKind::BadPieceLetter);
            assert_eq!(e.found, Some('x'));
        }
        other => panic!("{other:?}"),
    }
    match Position::from_usi_position("") {
        Err(PositionError::Sfen(e)) => assert_eq!(e.kind, SfenErrorKind::MissingField),
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_move_in_usi_position() {
    let r = Position::from_usi_position("startpos moves 7g7f 3c3d 7x7y");
    match r {
        Err(PositionError::Move { index, error, sfen }) => {
            assert_eq!(index, 3);
            assert_eq!(error, MoveError::Malformed("7x7y".into()));
            assert_eq!(
                sfen,
                "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
            );
        }
        other => panic!("{other:?}"),
    }
    let r = Position::from_usi_position("startpos moves 7g7x");
    match r {
        Err(e @ PositionError::Move { .. }) => {
            let text = e.to_string();
            let PositionError::Move { index, error, sfen } = e else {
                unreachable!()
            };
            assert_eq!(index, 1);
            assert_eq!(error, MoveError::Malformed("7g7x".into()));
            assert_eq!(sfen, STARTPOS_SFEN);
            assert!(text.contains("move 1"), "{text}");
            assert!(text.contains("7g7x"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn illegal_move_in_usi_position() {
    let r = Position::from_usi_position("startpos moves 7g7e");
    match r {
        Err(e @ PositionError::Move { .. }) => {
            let text = e.to_string();
            let PositionError::Move { index, error, sfen } = e else {
                unreachable!()
            };
            assert_eq!(index, 1);
            assert_eq!(error, MoveError::Illegal("7g7e".into()));
            assert_eq!(sfen, STARTPOS_SFEN);
            assert!(text.contains("not legal"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // Second move illegal: white may not play a black move.
    match Position::from_usi_position("startpos moves 7g7f 2g2f") {
        Err(PositionError::Move { index, error, .. }) => {
            assert_eq!(index, 2);
            assert_eq!(error, MoveError::Illegal("2g2f".into()));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn composed_limit_allows_three_bishops() {
    let sfen = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1";
    expect_err(
        sfen,
        SfenErrorKind::TooManyPieces(PieceType::Bishop),
        SfenField::Whole,
        0,
        Some('B'),
        &["3"],
    );
    let pos = Position::from_sfen_with(sfen, Validation::Composed)
        .unwrap_or_else(|e| panic!("composed limit rejected {sfen}: {e}"));
    assert_eq!(pos.to_sfen(), sfen);
    let pos =
        Position::from_usi_position_with(&format!("sfen {sfen}"), Validation::Composed).unwrap();
    assert_eq!(pos.to_sfen(), sfen);
    assert_eq!(Validation::default(), Validation::Standard);
    // The composed limit still has a ceiling: eight bishops in one hand.
    let e =
        Position::from_sfen_with("4k4/9/9/9/9/9/9/9/4K4 b 8B 1", Validation::Composed).unwrap_err();
    assert_eq!(e.kind, SfenErrorKind::TooManyPieces(PieceType::Bishop));
    assert_eq!(
        (e.field, e.column, e.found),
        (SfenField::Hand, 26, Some('B'))
    );
    // ... and 32 pawns overall.
    let e = Position::from_sfen_with("4k4/9/9/9/9/9/9/9/4K4 b 16P16p 1", Validation::Composed)
        .unwrap_err();
    assert_eq!(e.kind, SfenErrorKind::TooManyPieces(PieceType::Pawn));
    assert_eq!(e.field, SfenField::Whole);
}

#[test]
fn composed_validation_allows_dead_pieces_but_not_nifu_or_check() {
    // A black pawn on 9a and a white knight on 1h: rejected by default, accepted composed.
    let sfen = "P3k4/9/9/9/9/9/9/8n/4K4 b - 1";
    let e = parse_err(sfen);
    assert_eq!((e.kind, e.column), (SfenErrorKind::DeadRank, 1));
    let pos = Position::from_sfen_with(sfen, Validation::Composed).unwrap();
    assert_eq!(pos.to_sfen(), sfen);
    // Nifu, two kings and the opponent in check stay errors.
    let e = Position::from_sfen_with("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1", Validation::Composed)
        .unwrap_err();
    assert_eq!((e.kind, e.column), (SfenErrorKind::TwoPawnsOnFile, 18));
    let e =
        Position::from_sfen_with("4k4/9/9/9/9/9/9/9/3KK4 b - 1", Validation::Composed).unwrap_err();
    assert_eq!((e.kind, e.column), (SfenErrorKind::TwoKings, 21));
    let e = Position::from_sfen_with("4k4/9/9/9/4R4/9/9/9/4K4 b - 1", Validation::Composed)
        .unwrap_err();
    assert_eq!(e.kind, SfenErrorKind::OpponentInCheck);
}

// ----- round trips --------------------------------------------------------------------------

#[test]
fn sfen_round_trips() {
    let sfens = [
        STARTPOS_SFEN,
        // After 7g7f, white to move.
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        // Handicaps: lance, two pieces.
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        // Middle game with a bishop in each hand.
        "ln1g3nl/1r1s1kg2/p2pppsp1/2p3p1p/1p5P1/2P1P4/PPSP1PP1P/2G2S1R1/LN2KG1NL w Bb 24",
        // A well-known perft position.
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        // Tsume problem without a black king.
        "3rkr3/9/8p/4N4/1B7/9/1SG6/2S6/9 b LPp 1",
        // Every piece in black's hand, then in white's.
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
        "4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1",
        // Mixed hands with counts and a large move number.
        "4k4/9/9/9/9/9/9/9/4K4 b RB2G3Pbs2n4p 42",
        "4k4/9/9/9/9/9/9/9/4K4 b 10P8p 7",
        // Promoted pieces of every kind.
        "4k4/9/+P+L+N+S+B+R3/9/9/9/3+r+b+s+n+l+p/9/4K4 b - 100",
        // Tokin and pawn on one file.
        "4k4/9/9/9/4+P4/9/4P4/9/4K4 b - 1",
        // Corners and a big move number.
        "8k/9/9/9/9/9/9/9/K8 w - 999",
        // Only a white king, black holds the rest of the set's golds.
        "8k/9/9/9/9/9/9/9/9 b 4G 1",
        // White to move, side to move in check.
        "4k4/9/9/9/4R4/9/9/9/4K4 w - 5",
    ];
    assert!(sfens.len() >= 15);
    for sfen in sfens {
        let pos = parse_ok(sfen);
        assert_eq!(pos.to_sfen(), sfen);
        // Parsing the output again gives the same position.
        let again = parse_ok(&pos.to_sfen());
        assert_eq!(again.to_sfen(), sfen);
        assert_eq!(again.key(), pos.key(), "{sfen}");
    }
    // Composed positions round-trip through the composed limit.
    let composed = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1";
    let pos = Position::from_sfen_with(composed, Validation::Composed).unwrap();
    assert_eq!(pos.to_sfen(), composed);
}

#[test]
fn hands_are_normalised() {
    let small = "4k4/9/9/9/9/9/9/9/4K4";
    let cases = [
        ("2rP", "P2r"),
        ("P2r", "P2r"),
        ("Pb3pGR", "RGPb3p"),
        ("pP", "Pp"),
        ("1P", "P"),
        ("PLNSGBR", "RBGSNLP"),
        ("plnsgbr", "rbgsnlp"),
        ("2p3P1l", "3Pl2p"),
    ];
    for (input, normal) in cases {
        let pos = parse_ok(&format!("{small} b {input} 3"));
        assert_eq!(pos.to_sfen(), format!("{small} b {normal} 3"), "{input}");
    }
    // Extra blanks between fields are dropped.
    let pos = parse_ok("  4k4/9/9/9/9/9/9/9/4K4   b\t2rP   3 ");
    assert_eq!(pos.to_sfen(), format!("{small} b P2r 3"));
}

#[test]
fn errors_are_std_errors() {
    let e: Box<dyn std::error::Error> = Box::new(parse_err("4k4/9/9/9/4x4/9/9/9/4K4 b - 1"));
    assert!(e.to_string().contains("column 12"));
    let e: Box<dyn std::error::Error> =
        Box::new(Position::from_usi_position("startpos moves 7g7e").unwrap_err());
    assert!(e.to_string().contains("7g7e"));
}

#[test]
fn move_number_with_sign_and_usi_position_with_any_whitespace() {
    let e = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - +5").unwrap_err();
    assert_eq!(e.kind, SfenErrorKind::BadMoveNumber);
    assert_eq!(e.found, Some('+'));
    let p = Position::from_usi_position("startpos\tmoves  7g7f\t3c3d").unwrap();
    assert_eq!(p.moves_played(), 2);
    let p = Position::from_usi_position("sfen\t4k4/9/9/9/9/9/9/9/4K4 b P 3 moves P*5b").unwrap();
    assert_eq!(p.move_number(), 4);
}

/// SFEN through the standard traits: `FromStr` parses what `Display` writes, `Debug` wraps
/// it, and a bad SFEN is the same error as `Position::from_sfen` gives.
#[test]
fn sfen_goes_through_display_and_from_str() {
    for sfen in [
        STARTPOS_SFEN,
        "4k4/9/9/9/4+P4/9/4P4/9/4K4 b - 1",
        "ln1g3nl/1r1sk1g2/p1ppppspp/1p5P1/9/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL w Bp 14",
        "8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L18P 1",
    ] {
        let pos: Position = sfen.parse().unwrap();
        assert_eq!(pos.to_string(), sfen);
        assert_eq!(pos.to_sfen(), sfen);
        assert_eq!(format!("{pos:?}"), format!("Position({sfen})"));
        assert_eq!(
            pos.to_string().parse::<Position>().unwrap().key(),
            pos.key()
        );
    }
    assert_eq!(
        "startpos".parse::<Position>().unwrap().to_string(),
        STARTPOS_SFEN
    );
    let bad = "4k4/9/9/9/9/9/9/9/4K4 x - 1";
    assert_eq!(
        bad.parse::<Position>().unwrap_err(),
        Position::from_sfen(bad).unwrap_err()
    );
}
