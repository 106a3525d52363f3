//! All evaluation weights in one table, so that they can be tuned later.
//!
//! Units are centipawn-like (a pawn on the board is 100). Tables indexed by square use the
//! square *relative to the piece's owner* (`rel_sq`): as if that side were black.
//! King-relative tables are indexed by the offset of a piece from a king, seen from the
//! piece owner's side: `(df + 8) * 17 + (dr + 8)`, with `dr < 0` meaning "towards the
//! owner's far side".

use crate::shogi::types::PieceType;

/// Offsets from a king: 17 x 17 windows.
pub const KING_WINDOW: usize = 17 * 17;

/// Evaluation weights.
pub struct Weights {
    /// Value of a piece on the board, by piece type.
    pub board_value: [i32; PieceType::NB],
    /// Value of a piece in hand, by piece type (the first few of a kind are worth more).
    pub hand_value: [[i32; 19]; 8],
    /// Piece-square bonus by piece type and owner-relative square.
    pub psqt: [[i32; 81]; PieceType::NB],
    /// Bonus for a piece standing near its own king (defence), by type and offset.
    pub own_king: [[i32; KING_WINDOW]; PieceType::NB],
    /// Bonus for a piece standing near the enemy king (attack), by type and offset.
    pub enemy_king: [[i32; KING_WINDOW]; PieceType::NB],
    /// Per attacked square of a long-range piece (lance, bishop, rook, horse, dragon).
    pub mobility: [i32; PieceType::NB],
    /// Bonus for the side to move.
    pub tempo: i32,
}

/// The default weights, built once.
pub fn weights() -> &'static Weights {
    static W: std::sync::LazyLock<Box<Weights>> = std::sync::LazyLock::new(Weights::default_boxed);
    &W
}

fn offset_index(df: i32, dr: i32) -> usize {
    ((df + 8) * 17 + (dr + 8)) as usize
}

impl Weights {
    fn default_boxed() -> Box<Weights> {
        use PieceType::*;
        let mut w = Box::new(Weights {
            board_value: [0; PieceType::NB],
            hand_value: [[0; 19]; 8],
            psqt: [[0; 81]; PieceType::NB],
            own_king: [[0; KING_WINDOW]; PieceType::NB],
            enemy_king: [[0; KING_WINDOW]; PieceType::NB],
            mobility: [0; PieceType::NB],
            tempo: 20,
        });
        let values = [
            (Pawn, 100),
            (Lance, 320),
            (Knight, 380),
            (Silver, 500),
            (Gold, 560),
            (Bishop, 800),
            (Rook, 950),
            (King, 0),
            (ProPawn, 560),
            (ProLance, 540),
            (ProKnight, 540),
            (ProSilver, 540),
            (Horse, 1050),
            (Dragon, 1250),
        ];
        for (pt, v) in values {
            w.board_value[pt.index()] = v;
        }
        // In hand a piece is flexible: worth a little more, with diminishing returns.
        for pt in PieceType::HAND {
            let base = w.board_value[pt.index()];
            for n in 1..19usize {
                let mut total = 0;
                for k in 1..=n {
                    let bonus = match k {
                        1 => base / 8,
                        2 => base / 16,
                        _ => 0,
                    };
                    total += base + bonus;
                }
                w.hand_value[pt.index()][n] = total;
            }
        }
        // Piece-square terms (owner-relative: rank 0 is the far side).
        for sq in 0..81usize {
            let file = (sq / 9) as i32;
            let rank = (sq % 9) as i32;
            let centre = 4 - (file - 4).abs();
            // Pawns and silvers gain by advancing; knights prefer the middle ranks.
            w.psqt[Pawn.index()][sq] = (6 - rank) * 4;
            w.psqt[Silver.index()][sq] = (6 - rank) * 3 + centre * 2;
            w.psqt[Knight.index()][sq] =
                if (2..=5).contains(&rank) { 10 } else { -10 } + centre * 2;
            w.psqt[Lance.index()][sq] = if rank >= 6 { 5 } else { 0 };
            w.psqt[Gold.index()][sq] = -((rank - 7).abs()) * 4;
            // Promoted minors are strongest near the enemy camp.
            for pt in [ProPawn, ProLance, ProKnight, ProSilver] {
                w.psqt[pt.index()][sq] = (6 - rank) * 4;
            }
            w.psqt[Rook.index()][sq] = if rank <= 2 { 30 } else { 0 };
            w.psqt[Dragon.index()][sq] = if rank <= 2 { 20 } else { 0 };
            w.psqt[Bishop.index()][sq] = centre * 3;
            w.psqt[Horse.index()][sq] = -((rank - 6).abs()) * 3;
            // A king prefers its own back ranks and the sides early on.
            w.psqt[King.index()][sq] = (rank - 8) * 6 - centre * 3;
        }
        // Defence: golds and silvers next to their own king.
        for df in -8i32..=8 {
            for dr in -8i32..=8 {
                let dist = df.abs().max(dr.abs());
                let i = offset_index(df, dr);
                let near = match dist {
                    1 => 40,
                    2 => 18,
                    3 => 6,
                    _ => 0,
                };
                for pt in [Gold, Silver, ProPawn, ProLance, ProKnight, ProSilver] {
                    w.own_king[pt.index()][i] = near;
                }
                w.own_king[Horse.index()][i] = near / 2;
                // Attack: pieces close to the enemy king, by Chebyshev distance.
                let attack = match dist {
                    1 => 55,
                    2 => 30,
                    3 => 12,
                    _ => 0,
                };
                for pt in PieceType::ALL {
                    let scale = match pt {
                        King => 0,
                        Pawn => 1,
                        Lance | Knight => 2,
                        Silver | Gold | ProPawn | ProLance | ProKnight | ProSilver => 3,
                        Bishop | Rook => 2,
                        Horse | Dragon => 4,
                    };
                    w.enemy_king[pt.index()][i] = attack * scale / 3;
                }
            }
        }
        w.mobility[Lance.index()] = 2;
        w.mobility[Bishop.index()] = 4;
        w.mobility[Rook.index()] = 3;
        w.mobility[Horse.index()] = 3;
        w.mobility[Dragon.index()] = 2;
        w
    }
}
