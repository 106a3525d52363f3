//! SFEN reading and writing, and USI `position` arguments (`startpos moves ...`).
//!
//! The parser accepts positions without a king of either colour (tsume problems) but
//! rejects anything that could not occur in a game: pieces on ranks they can never leave,
//! two unpromoted pawns of one colour on a file, more pieces of a kind than the set holds,
//! two kings of one colour, or the side not to move standing in check. Every error names
//! the field, the column (1-based, in the whole string) and the character at fault.

use super::hand::{Hand, HAND_CAPACITY, MAX_IN_HAND};
use super::moves::Move;
use super::position::Position;
use super::types::{is_dead_square, Color, Piece, PieceType, Square};
use std::fmt;

/// SFEN of the standard starting position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// How strictly an SFEN is checked against what a real game can reach.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Validation {
    /// Only positions a game can reach: at most the real set (18 pawns, 4 each of lance,
    /// knight, silver and gold, 2 each of bishop and rook), and no pawn, lance or knight on
    /// a rank it could never leave.
    #[default]
    Standard,
    /// Composed positions (perft torture tests, declaration drills, fairy problems): more
    /// pieces than the set, up to what a hand can count (31 pawns, 7 lances, knights,
    /// silvers, golds, bishops and rooks), and immobile pieces on their last ranks.
    /// Nifu, king count and the side not to move being in check are still errors.
    Composed,
}

impl Validation {
    fn max(self, pt: PieceType) -> u32 {
        match self {
            Validation::Standard => MAX_IN_HAND[pt.index()],
            Validation::Composed => HAND_CAPACITY[pt.index()],
        }
    }
}

/// The part of an SFEN an error was found in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SfenField {
    /// The board field (ranks separated by `/`).
    Board,
    /// The side-to-move field (`b` or `w`).
    Side,
    /// The pieces-in-hand field.
    Hand,
    /// The move-number field.
    MoveNumber,
    /// The SFEN as a whole (e.g. a missing field, a king in check on the wrong side).
    Whole,
}

impl fmt::Display for SfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenField::Board => "board",
            SfenField::Side => "side to move",
            SfenField::Hand => "hand",
            SfenField::MoveNumber => "move number",
            SfenField::Whole => "sfen",
        })
    }
}

/// What is wrong with an SFEN.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SfenErrorKind {
    /// Fewer than three fields (board, side, hand), or nothing at all.
    MissingField,
    /// More than four fields.
    TrailingText,
    /// A character that is not a piece letter, digit, `+` or `/`.
    BadPieceLetter,
    /// `+` before a piece that cannot promote, or at the end of a rank.
    BadPromotion,
    /// A rank describes more than nine squares.
    RankTooLong,
    /// A rank describes fewer than nine squares.
    RankTooShort,
    /// Not exactly nine ranks.
    WrongRankCount,
    /// A pawn, lance or knight on a rank it could never move from.
    DeadRank,
    /// Two unpromoted pawns of one colour on a file.
    TwoPawnsOnFile,
    /// More pieces of a kind than the set holds (counting both hands and promoted pieces).
    TooManyPieces(PieceType),
    /// Two kings of one colour.
    TwoKings,
    /// Side to move is not `b` or `w`.
    BadSide,
    /// Malformed hand: bad letter, king in hand, zero or missing count, kind repeated.
    BadHand,
    /// Move number not a positive integer.
    BadMoveNumber,
    /// The side that just moved is in check.
    OpponentInCheck,
}

/// A precise SFEN error.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SfenError {
    /// The field the error is in.
    pub field: SfenField,
    /// 1-based column in the whole SFEN string (0 when it concerns the whole field).
    pub column: usize,
    /// The character at fault, if one is.
    pub found: Option<char>,
    /// What is wrong.
    pub kind: SfenErrorKind,
    /// Human-readable detail.
    pub detail: String,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad SFEN {}", self.field)?;
        if self.column > 0 {
            write!(f, " at column {}", self.column)?;
        }
        if let Some(c) = self.found {
            write!(f, " ('{c}')")?;
        }
        write!(f, ": {}", self.detail)
    }
}

impl std::error::Error for SfenError {}

fn err(
    field: SfenField,
    column: usize,
    found: Option<char>,
    kind: SfenErrorKind,
    detail: impl Into<String>,
) -> SfenError {
    SfenError {
        field,
        column,
        found,
        kind,
        detail: detail.into(),
    }
}

/// Split on spaces, remembering each token's 1-based starting column.
/// Columns count characters, not bytes.
fn tokens(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, column)
    for (column, (i, c)) in s.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((b, col)) = start.take() {
                out.push((col, &s[b..i]));
            }
        } else if start.is_none() {
            start = Some((i, column + 1));
        }
    }
    if let Some((b, col)) = start {
        out.push((col, &s[b..]));
    }
    out
}

fn rank_name(r: u8) -> char {
    (b'a' + r) as char
}

fn parse_board(
    pos: &mut Position,
    col0: usize,
    text: &str,
    limit: Validation,
) -> Result<(), SfenError> {
    use SfenErrorKind::*;
    let f = SfenField::Board;
    let mut rank: u8 = 0;
    let mut file: i32 = 8; // next square's 0-based file, counting down from file 9
    let mut promote_at: Option<usize> = None;
    for (i, c) in text.chars().enumerate() {
        let col = col0 + i;
        if c == '/' {
            if promote_at.is_some() {
                return Err(err(
                    f,
                    col,
                    Some(c),
                    BadPromotion,
                    "'+' must be followed by a piece letter",
                ));
            }
            if file >= 0 {
                return Err(err(
                    f,
                    col,
                    Some(c),
                    RankTooShort,
                    format!(
                        "rank {} has {} squares, expected 9",
                        rank_name(rank),
                        8 - file
                    ),
                ));
            }
            rank += 1;
            if rank > 8 {
                return Err(err(f, col, Some(c), WrongRankCount, "more than 9 ranks"));
            }
            file = 8;
            continue;
        }
        if let Some(d) = c.to_digit(10) {
            if promote_at.is_some() {
                return Err(err(
                    f,
                    col,
                    Some(c),
                    BadPromotion,
                    "'+' must be followed by a piece letter",
                ));
            }
            if d == 0 {
                return Err(err(
                    f,
                    col,
                    Some(c),
                    BadPieceLetter,
                    "empty-square count must be 1-9",
                ));
            }
            file -= d as i32;
            if file < -1 {
                return Err(err(
                    f,
                    col,
                    Some(c),
                    RankTooLong,
                    format!("rank {} has more than 9 squares", rank_name(rank)),
                ));
            }
            continue;
        }
        if c == '+' {
            if promote_at.is_some() {
                return Err(err(f, col, Some(c), BadPromotion, "'++' is not a piece"));
            }
            promote_at = Some(col);
            continue;
        }
        let Some(base) = PieceType::from_sfen_letter(c.to_ascii_uppercase()) else {
            return Err(err(
                f,
                col,
                Some(c),
                BadPieceLetter,
                "not a piece letter (expected one of KRBGSNLP, lower case for white)",
            ));
        };
        if file < 0 {
            return Err(err(
                f,
                col,
                Some(c),
                RankTooLong,
                format!("rank {} has more than 9 squares", rank_name(rank)),
            ));
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let pt = if promote_at.take().is_some() {
            if !base.can_promote() {
                return Err(err(
                    f,
                    col,
                    Some(c),
                    BadPromotion,
                    format!("'{c}' cannot be promoted"),
                ));
            }
            base.promoted()
        } else {
            base
        };
        let sq = Square::from_file_rank(file as u8, rank);
        if is_dead_square(color, pt, sq) && limit == Validation::Standard {
            return Err(err(
                f,
                col,
                Some(c),
                DeadRank,
                format!("'{c}' on {sq} could never move"),
            ));
        }
        if pt == PieceType::King && pos.king_square(color).is_some() {
            return Err(err(
                f,
                col,
                Some(c),
                TwoKings,
                format!(
                    "second {} king on {sq}",
                    if color == Color::Black {
                        "black"
                    } else {
                        "white"
                    }
                ),
            ));
        }
        if pt == PieceType::Pawn
            && (pos.pieces_of(color, PieceType::Pawn) & super::bitboard::Bitboard::file(sq.file()))
                .any()
        {
            return Err(err(
                f,
                col,
                Some(c),
                TwoPawnsOnFile,
                format!(
                    "second unpromoted pawn of one side on file {}",
                    sq.file() + 1
                ),
            ));
        }
        pos.put_piece(Piece::new(color, pt), sq);
        file -= 1;
    }
    let end = col0 + text.chars().count();
    if promote_at.is_some() {
        return Err(err(
            f,
            end,
            None,
            BadPromotion,
            "'+' at the end of the board",
        ));
    }
    if rank != 8 {
        return Err(err(
            f,
            end,
            None,
            WrongRankCount,
            format!("{} ranks, expected 9", rank + 1),
        ));
    }
    if file >= 0 {
        return Err(err(
            f,
            end,
            None,
            RankTooShort,
            format!("rank i has {} squares, expected 9", 8 - file),
        ));
    }
    Ok(())
}

fn parse_hand(
    pos: &mut Position,
    col0: usize,
    text: &str,
    limit: Validation,
) -> Result<(), SfenError> {
    use SfenErrorKind::BadHand;
    let f = SfenField::Hand;
    if text == "-" {
        return Ok(());
    }
    let mut count: Option<(u32, usize)> = None;
    let mut seen = [[false; 8]; 2];
    for (i, c) in text.chars().enumerate() {
        let col = col0 + i;
        if let Some(d) = c.to_digit(10) {
            let n = match count {
                None if d == 0 => return Err(err(f, col, Some(c), BadHand, "count must not be 0")),
                None => d,
                Some((n, _)) => n * 10 + d,
            };
            if n > 99 {
                return Err(err(
                    f,
                    col,
                    Some(c),
                    BadHand,
                    "count has more than two digits",
                ));
            }
            count = Some((n, count.map_or(col, |(_, s)| s)));
            continue;
        }
        let Some(pt) = PieceType::from_sfen_letter(c.to_ascii_uppercase()) else {
            return Err(err(
                f,
                col,
                Some(c),
                BadHand,
                "not a hand piece letter (RBGSNLP, lower case for white)",
            ));
        };
        if pt == PieceType::King {
            return Err(err(f, col, Some(c), BadHand, "a king cannot be in hand"));
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        if seen[color.index()][pt.index()] {
            return Err(err(f, col, Some(c), BadHand, format!("'{c}' listed twice")));
        }
        seen[color.index()][pt.index()] = true;
        let n = count.take().map_or(1, |(n, _)| n);
        if n > limit.max(pt) {
            return Err(err(
                f,
                col,
                Some(c),
                SfenErrorKind::TooManyPieces(pt),
                format!("{n} of '{c}' in hand, only {} exist", limit.max(pt)),
            ));
        }
        pos.hands[color.index()].set(pt, n);
    }
    if let Some((_, start)) = count {
        return Err(err(f, start, None, BadHand, "count without a piece letter"));
    }
    Ok(())
}

fn check_piece_counts(pos: &Position, limit: Validation) -> Result<(), SfenError> {
    let mut counts = [0u32; 8];
    for sq in Square::all() {
        if let Some(pt) = pos.piece_on(sq).kind() {
            if pt != PieceType::King {
                counts[pt.unpromoted().index()] += 1;
            }
        }
    }
    for c in Color::ALL {
        for pt in PieceType::HAND {
            counts[pt.index()] += pos.hand(c).count(pt);
        }
    }
    for pt in PieceType::HAND {
        let max = limit.max(pt);
        if counts[pt.index()] > max {
            return Err(err(
                SfenField::Whole,
                0,
                Some(pt.sfen_letter()),
                SfenErrorKind::TooManyPieces(pt),
                format!(
                    "{} pieces of kind '{}' on board and in hand, only {max} exist",
                    counts[pt.index()],
                    pt.sfen_letter()
                ),
            ));
        }
    }
    Ok(())
}

impl Position {
    /// Parse an SFEN (`<board> <side> <hand> [<move number>]`) holding at most the real
    /// set of pieces. The word `startpos` is accepted too.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        Position::from_sfen_with(sfen, Validation::Standard)
    }

    /// Parse an SFEN with the given limit on piece counts.
    pub fn from_sfen_with(sfen: &str, limit: Validation) -> Result<Position, SfenError> {
        use SfenErrorKind::*;
        let s = sfen.trim();
        if s == "startpos" {
            return Position::from_sfen(STARTPOS_SFEN);
        }
        let toks = tokens(sfen);
        if toks.len() < 3 {
            let names = ["board", "side to move", "hand"];
            let missing = names[toks.len().min(2)];
            return Err(err(
                SfenField::Whole,
                0,
                None,
                MissingField,
                format!("the {missing} field is missing"),
            ));
        }
        if toks.len() > 4 {
            return Err(err(
                SfenField::Whole,
                toks[4].0,
                toks[4].1.chars().next(),
                TrailingText,
                "unexpected text after the move number",
            ));
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, toks[0].0, toks[0].1, limit)?;
        pos.side = match toks[1].1 {
            "b" => Color::Black,
            "w" => Color::White,
            other => {
                return Err(err(
                    SfenField::Side,
                    toks[1].0,
                    other.chars().next(),
                    BadSide,
                    "side to move must be 'b' or 'w'",
                ));
            }
        };
        parse_hand(&mut pos, toks[2].0, toks[2].1, limit)?;
        if let Some(&(col, text)) = toks.get(3) {
            // Digits only: `u32::from_str` would also take a leading '+'.
            let digits_only = text.chars().all(|c| c.is_ascii_digit());
            match text.parse::<u32>() {
                Ok(n) if n >= 1 && digits_only => pos.start_move_number = n,
                _ => {
                    let (offset, bad) = text
                        .chars()
                        .enumerate()
                        .find(|(_, c)| !c.is_ascii_digit())
                        .map_or((0, text.chars().next()), |(i, c)| (i, Some(c)));
                    return Err(err(
                        SfenField::MoveNumber,
                        col + offset,
                        bad,
                        BadMoveNumber,
                        "move number must be a positive integer",
                    ));
                }
            }
        }
        check_piece_counts(&pos, limit)?;
        pos.reset_states();
        let mover = pos.side.flip();
        if let Some(k) = pos.king_square(mover) {
            if pos.is_attacked(pos.side, k) {
                return Err(err(
                    SfenField::Whole,
                    0,
                    None,
                    OpponentInCheck,
                    format!("the side not to move has its king on {k} in check"),
                ));
            }
        }
        Ok(pos)
    }

    /// The SFEN of the current position (what [`Display`](fmt::Display) writes). Hands are
    /// listed R B G S N L P, black first.
    pub fn to_sfen(&self) -> String {
        self.to_string()
    }
}

/// The SFEN of the position (hands listed R B G S N L P, black first); `{:?}` shows
/// `Position(<SFEN>)`.
impl fmt::Display for Position {
    fn fmt(&self, s: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_sfen(s, &self.board, self.side, &self.hands, self.move_number())
    }
}

/// Write the SFEN of these pieces (board indexed by square, hands R B G S N L P, black
/// first): what [`Position`]'s `Display` writes, also for pieces not (yet) in a
/// `Position`, such as a decoded packed SFEN.
pub(crate) fn write_sfen(
    s: &mut impl fmt::Write,
    board: &[Piece; 81],
    side: Color,
    hands: &[Hand; 2],
    move_number: u32,
) -> fmt::Result {
    for rank in 0..9u8 {
        if rank > 0 {
            s.write_char('/')?;
        }
        let mut empties = 0;
        for file in (0..9u8).rev() {
            let p = board[Square::from_file_rank(file, rank).index()];
            if p.is_empty() {
                empties += 1;
                continue;
            }
            if empties > 0 {
                s.write_char(char::from(b'0' + empties))?;
                empties = 0;
            }
            write!(s, "{p}")?;
        }
        if empties > 0 {
            s.write_char(char::from(b'0' + empties))?;
        }
    }
    s.write_char(' ')?;
    s.write_char(if side == Color::Black { 'b' } else { 'w' })?;
    s.write_char(' ')?;
    let order = [
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Gold,
        PieceType::Silver,
        PieceType::Knight,
        PieceType::Lance,
        PieceType::Pawn,
    ];
    let mut any = false;
    for c in Color::ALL {
        for pt in order {
            let n = hands[c.index()].count(pt);
            if n == 0 {
                continue;
            }
            any = true;
            if n > 1 {
                write!(s, "{n}")?;
            }
            let l = pt.sfen_letter();
            s.write_char(if c == Color::White {
                l.to_ascii_lowercase()
            } else {
                l
            })?;
        }
    }
    if !any {
        s.write_char('-')?;
    }
    s.write_char(' ')?;
    write!(s, "{move_number}")
}

/// Parses an SFEN (or `startpos`) under [`Validation::Standard`]; a USI `position`
/// argument with moves is [`Position::from_usi_position`].
impl std::str::FromStr for Position {
    type Err = SfenError;

    fn from_str(sfen: &str) -> Result<Position, SfenError> {
        Position::from_sfen(sfen)
    }
}

impl Position {
    /// Parse a move in USI notation and check that it is legal here.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, MoveError> {
        let Some(m) = Move::from_usi(text) else {
            return Err(MoveError::Malformed(text.to_string()));
        };
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }

    /// Parse a USI `position` argument: `startpos`, `sfen <SFEN>` or a bare SFEN,
    /// optionally followed by `moves <m1> <m2> ...`, and play the moves.
    pub fn from_usi_position(text: &str) -> Result<Position, PositionError> {
        Position::from_usi_position_with(text, Validation::Standard)
    }

    /// [`Position::from_usi_position`] with the given limit on piece counts.
    pub fn from_usi_position_with(
        text: &str,
        limit: Validation,
    ) -> Result<Position, PositionError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let split = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        let mut setup_words = &words[..split];
        if setup_words.first() == Some(&"sfen") {
            setup_words = &setup_words[1..];
        }
        let setup = setup_words.join(" ");
        let moves = words.get(split + 1..).unwrap_or(&[]).join(" ");
        if setup.is_empty() {
            return Err(PositionError::Sfen(err(
                SfenField::Whole,
                0,
                None,
                SfenErrorKind::MissingField,
                "no position given",
            )));
        }
        let mut pos = Position::from_sfen_with(&setup, limit).map_err(PositionError::Sfen)?;
        pos.play_usi_moves(&moves)?;
        Ok(pos)
    }

    /// Play space-separated USI moves, validating each.
    pub fn play_usi_moves(&mut self, moves: &str) -> Result<(), PositionError> {
        for (i, text) in moves.split_whitespace().enumerate() {
            match self.parse_usi_move(text) {
                Ok(m) => self.do_move(m),
                Err(e) => {
                    return Err(PositionError::Move {
                        index: i + 1,
                        error: e,
                        sfen: self.to_sfen(),
                    })
                }
            }
        }
        Ok(())
    }
}

/// A move that cannot be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not USI move syntax.
    Malformed(String),
    /// Well-formed but not legal in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(m) => write!(f, "'{m}' is not a USI move"),
            MoveError::Illegal(m) => write!(f, "'{m}' is not legal"),
        }
    }
}

/// An error in a USI position argument.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// The SFEN (or `startpos`) part is wrong.
    Sfen(SfenError),
    /// A move of the `moves` list cannot be played.
    Move {
        /// 0-based index of the move in the list.
        index: usize,
        /// Why it cannot be played.
        error: MoveError,
        /// The SFEN of the position the move was tried in.
        sfen: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Sfen(e) => write!(f, "{e}"),
            PositionError::Move { index, error, sfen } => {
                write!(f, "move {index}: {error} in position {sfen}")
            }
        }
    }
}

impl std::error::Error for PositionError {}
