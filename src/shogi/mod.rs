//! The rules of shogi: types, bitboards, positions, move generation, game-end rules and
//! static exchange evaluation. Nothing here knows about search.

pub mod attacks;
pub mod bitboard;
pub mod hand;
mod mate1;
pub mod movegen;
pub mod moves;
pub mod packed_sfen;
pub mod perft;
pub mod position;
pub mod rules;
pub mod see;
pub mod sfen;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use movegen::{
    count_evasions, generate, generate_legal, legal, legal_in_usi_order, legal_moves, GenType,
    MoveList,
};
pub use moves::Move;
pub use position::Position;
pub use rules::{DeclarationRule, DrawReason, GameRules, GameState, Repetition, WinReason};
pub use sfen::{
    MoveError, PositionError, SfenError, SfenErrorKind, SfenField, Validation, STARTPOS_SFEN,
};
pub use types::{Color, Piece, PieceType, Square};
