//! Zobrist hashing.
//!
//! A position key is `board ^ hand ^ side`, where
//! * `board` XORs one random value per (piece, square),
//! * `hand` XORs one random value per (colour, kind, count held), zero for a count of 0,
//! * `side` is 1 when white is to move (every other value has bit 0 clear, so bit 0 of a key
//!   always tells the side to move).
//!
//! Everything is XOR, so the key is a function of the position alone, whatever the path
//! that reached it.
//!
//! The tables are computed at compile time from a fixed seed, so keys are identical across
//! runs and builds.

use super::types::{Color, Piece, PieceType, Square};

const fn xorshift(mut s: u64) -> u64 {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    s
}

static BOARD: [[u64; 81]; Piece::NB] = {
    let mut t = [[0u64; 81]; Piece::NB];
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut p = 0;
    while p < Piece::NB {
        let mut sq = 0;
        while sq < 81 {
            s = xorshift(s);
            // Piece 0 (empty) never hashes.
            t[p][sq] = if p == 0 { 0 } else { s & !1 };
            sq += 1;
        }
        p += 1;
    }
    t
};

/// Counts up to 31 (the widest hand field).
static HAND: [[[u64; 32]; 8]; 2] = {
    let mut t = [[[0u64; 32]; 8]; 2];
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut c = 0;
    while c < 2 {
        let mut pt = 1;
        while pt < 8 {
            let mut n = 1;
            while n < 32 {
                s = xorshift(s);
                t[c][pt][n] = s & !1;
                n += 1;
            }
            pt += 1;
        }
        c += 1;
    }
    t
};

/// Key contribution of `piece` standing on `sq`.
#[inline(always)]
pub fn board(piece: Piece, sq: Square) -> u64 {
    BOARD[piece.index()][sq.index()]
}

/// Key contribution of `c` holding `count` pieces of kind `pt` (0 for none).
#[inline(always)]
pub fn hand(c: Color, pt: PieceType, count: u32) -> u64 {
    HAND[c.index()][pt.index()][count as usize & 31]
}

/// Key bit of the side to move.
pub const SIDE: u64 = 1;
