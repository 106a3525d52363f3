//! All evaluation weights in one table, so that they can be tuned later.
//!
//! Units are centipawn-like (a pawn on the board is 100). Tables indexed by square use the
//! square *relative to the piece's owner* (`rel_sq`): as if that side were black.
//! King-relative tables are indexed by the offset of a piece from a king, seen from the
//! piece owner's side: `(df + 8) * 17 + (dr + 8)`, with `dr < 0` meaning "towards the
//! owner's far side".

use super::attack_terms;
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
    /// The attack-map terms of `src/eval/attack_terms.rs` (king danger, drop checks, hanging
    /// pieces, pawn threats, saturating mobility), in its layout.
    pub attack: [i32; attack_terms::PARAMS],
}

/// The committed weights (`src/eval/classic-weights.txt`, written by the tuner of
/// `tools/tune`, docs/DESIGN.md §14.3), parsed once. A test proves the file parses; the
/// hand-picked formulas below are the fallback all the same, since a library must not
/// panic.
pub fn weights() -> &'static Weights {
    static W: std::sync::LazyLock<Box<Weights>> = std::sync::LazyLock::new(|| {
        Weights::from_text(COMMITTED).unwrap_or_else(|_| Weights::hand_picked())
    });
    &W
}

/// The text of the committed weights.
pub const COMMITTED: &str = include_str!("classic-weights.txt");

/// [`weights`] as the flat vector of [`Weights::to_flat`], for the terms evaluated by index.
pub fn flat_weights() -> &'static [i32] {
    static F: std::sync::LazyLock<Vec<i32>> = std::sync::LazyLock::new(|| weights().to_flat());
    &F
}

/// Where each table starts in the flat parameter vector of [`Weights::to_flat`].
pub mod layout {
    use super::KING_WINDOW;
    use crate::shogi::types::PieceType;
    /// The tempo bonus.
    pub const TEMPO: usize = 0;
    /// `board_value[pt]`.
    pub const BOARD: usize = 1;
    /// `hand_value[pt][n]`: 19 per piece type.
    pub const HAND: usize = BOARD + PieceType::NB;
    /// `psqt[pt][sq]`: 81 per piece type.
    pub const PSQT: usize = HAND + 8 * 19;
    /// `own_king[pt][offset]`.
    pub const OWN_KING: usize = PSQT + PieceType::NB * 81;
    /// `enemy_king[pt][offset]`.
    pub const ENEMY_KING: usize = OWN_KING + PieceType::NB * KING_WINDOW;
    /// `mobility[pt]`.
    pub const MOBILITY: usize = ENEMY_KING + PieceType::NB * KING_WINDOW;
    /// `attack[..]`: the terms of `attack_terms`, in its layout.
    pub const ATTACK: usize = MOBILITY + PieceType::NB;
    /// The number of parameters.
    pub const PARAMS: usize = ATTACK + super::attack_terms::PARAMS;

    /// The weight that plays `i`'s part in the left-right mirrored position (files 1-9
    /// swapped, a legal symmetry of shogi): tuning keeps the two equal, so the evaluation
    /// stays symmetric. Indices past [`PARAMS`] map to themselves.
    pub fn mirror(i: usize) -> usize {
        let window = |j: usize| {
            let (df, dr) = (j / 17, j % 17);
            (16 - df) * 17 + dr
        };
        if (PSQT..OWN_KING).contains(&i) {
            let (pt, sq) = ((i - PSQT) / 81, (i - PSQT) % 81);
            PSQT + pt * 81 + (8 - sq / 9) * 9 + sq % 9
        } else if (OWN_KING..ENEMY_KING).contains(&i) {
            let (pt, j) = ((i - OWN_KING) / KING_WINDOW, (i - OWN_KING) % KING_WINDOW);
            OWN_KING + pt * KING_WINDOW + window(j)
        } else if (ENEMY_KING..MOBILITY).contains(&i) {
            let (pt, j) = (
                (i - ENEMY_KING) / KING_WINDOW,
                (i - ENEMY_KING) % KING_WINDOW,
            );
            ENEMY_KING + pt * KING_WINDOW + window(j)
        } else {
            i
        }
    }
}

fn offset_index(df: i32, dr: i32) -> usize {
    ((df + 8) * 17 + (dr + 8)) as usize
}

/// The tables of the text format, in the order they are written: a name, how many rows
/// (one per piece type, or one) and how many values a row.
const TABLES: [(&str, usize, usize); 16] = [
    ("tempo", 1, 1),
    ("board_value", 1, PieceType::NB),
    ("hand_value", 8, 19),
    ("psqt", PieceType::NB, 81),
    ("own_king", PieceType::NB, KING_WINDOW),
    ("enemy_king", PieceType::NB, KING_WINDOW),
    ("mobility", 1, PieceType::NB),
    ("king_danger", 16, 9),
    ("drop_check", attack_terms::DROP_CHECKERS.len(), 5),
    ("hanging", 2, PieceType::NB),
    ("pawn_threat", 2, PieceType::NB),
    ("slider_mobility", attack_terms::MOBILE.len(), 21),
    ("king_double", 1, 9),
    ("king_attackers", 1, 11),
    ("king_hand", 12, 9),
    ("minor_threat", 2, PieceType::NB),
];

impl Weights {
    fn zero() -> Box<Weights> {
        Box::new(Weights {
            board_value: [0; PieceType::NB],
            hand_value: [[0; 19]; 8],
            psqt: [[0; 81]; PieceType::NB],
            own_king: [[0; KING_WINDOW]; PieceType::NB],
            enemy_king: [[0; KING_WINDOW]; PieceType::NB],
            mobility: [0; PieceType::NB],
            tempo: 0,
            attack: [0; attack_terms::PARAMS],
        })
    }

    /// Every weight as one vector, tables in the order of [`layout`].
    pub fn to_flat(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(layout::PARAMS);
        v.push(self.tempo);
        v.extend_from_slice(&self.board_value);
        self.hand_value.iter().for_each(|r| v.extend_from_slice(r));
        self.psqt.iter().for_each(|r| v.extend_from_slice(r));
        self.own_king.iter().for_each(|r| v.extend_from_slice(r));
        self.enemy_king.iter().for_each(|r| v.extend_from_slice(r));
        v.extend_from_slice(&self.mobility);
        v.extend_from_slice(&self.attack);
        debug_assert_eq!(v.len(), layout::PARAMS);
        v
    }

    /// Weights from [`Weights::to_flat`]'s vector; `None` for a vector of another length.
    pub fn from_flat(v: &[i32]) -> Option<Box<Weights>> {
        if v.len() != layout::PARAMS {
            return None;
        }
        let mut w = Weights::zero();
        let mut rest = v;
        let mut take = |out: &mut [i32]| {
            let (head, tail) = rest.split_at(out.len());
            out.copy_from_slice(head);
            rest = tail;
        };
        take(std::slice::from_mut(&mut w.tempo));
        take(&mut w.board_value);
        w.hand_value.iter_mut().for_each(|r| take(r));
        w.psqt.iter_mut().for_each(|r| take(r));
        w.own_king.iter_mut().for_each(|r| take(r));
        w.enemy_king.iter_mut().for_each(|r| take(r));
        take(&mut w.mobility);
        take(&mut w.attack);
        Some(w)
    }

    /// The text format of `src/eval/classic-weights.txt`: `#` comments, then one line per
    /// table row, `name[.row] values...`, rows numbered by piece type.
    pub fn to_text(&self, comment: &str) -> String {
        let flat = self.to_flat();
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        let mut at = 0;
        for (name, rows, len) in TABLES {
            for row in 0..rows {
                out.push_str(name);
                if rows > 1 {
                    out.push_str(&format!(".{row}"));
                }
                for v in &flat[at..at + len] {
                    out.push_str(&format!(" {v}"));
                }
                out.push('\n');
                at += len;
            }
        }
        out
    }

    /// Parse [`Weights::to_text`]'s format: every row exactly once, in any order.
    pub fn from_text(text: &str) -> Result<Box<Weights>, String> {
        let mut flat = vec![0i32; layout::PARAMS];
        let mut seen = vec![false; TABLES.iter().map(|t| t.1).sum()];
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or_default();
            let (name, row) = match key.split_once('.') {
                Some((name, row)) => (
                    name,
                    row.parse::<usize>()
                        .map_err(|_| format!("line {}: bad row '{key}'", n + 1))?,
                ),
                None => (key, 0),
            };
            let (mut at, mut slot) = (0, 0);
            let mut found = None;
            for (t, rows, len) in TABLES {
                if t == name && row < rows && (rows > 1 || !key.contains('.')) {
                    found = Some((at + row * len, slot + row, len));
                    break;
                }
                at += rows * len;
                slot += rows;
            }
            let (start, slot, len) =
                found.ok_or_else(|| format!("line {}: unknown row '{key}'", n + 1))?;
            if std::mem::replace(&mut seen[slot], true) {
                return Err(format!("line {}: '{key}' given twice", n + 1));
            }
            let values: Vec<i32> = words
                .map(|w| {
                    w.parse::<i32>()
                        .map_err(|_| format!("line {}: bad number '{w}'", n + 1))
                })
                .collect::<Result<_, _>>()?;
            if values.len() != len {
                return Err(format!(
                    "line {}: '{key}' needs {len} values, has {}",
                    n + 1,
                    values.len()
                ));
            }
            flat[start..start + len].copy_from_slice(&values);
        }
        if let Some(missing) = seen.iter().position(|s| !s) {
            return Err(format!("row {missing} of the tables is missing"));
        }
        Weights::from_flat(&flat).ok_or_else(|| "wrong number of weights".to_string())
    }

    /// The weights picked by hand before any tuning (docs/DESIGN.md §9.2): round piece
    /// values, linear piece-square formulas, fixed rings around the kings. Where tuning
    /// starts from.
    pub fn hand_picked() -> Box<Weights> {
        use PieceType::*;
        let mut w = Weights::zero();
        w.tempo = 20;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_weights_parse() {
        assert!(Weights::from_text(COMMITTED).is_ok());
    }

    #[test]
    fn text_and_flat_forms_round_trip() {
        let w = Weights::hand_picked();
        let flat = w.to_flat();
        assert_eq!(flat.len(), layout::PARAMS);
        assert_eq!(Weights::from_flat(&flat).unwrap().to_flat(), flat);
        let text = w.to_text("a comment\nof two lines");
        assert!(text.starts_with("# a comment\n# of two lines\ntempo 20\n"));
        assert_eq!(Weights::from_text(&text).unwrap().to_flat(), flat);
        assert_eq!(flat[layout::BOARD + PieceType::Rook.index()], 950);
    }

    #[test]
    fn the_committed_weights_are_mirror_symmetric() {
        let flat = weights().to_flat();
        for i in 0..layout::PARAMS {
            let j = layout::mirror(i);
            assert_eq!(layout::mirror(j), i);
            assert_eq!(flat[i], flat[j], "weight {i} against its mirror {j}");
        }
        // 7g (file 7, rank g) mirrors to 3g; a window offset one file left to one right.
        let sq = |f: usize, r: usize| (f - 1) * 9 + r;
        assert_eq!(
            layout::mirror(layout::PSQT + 81 + sq(7, 6)),
            layout::PSQT + 81 + sq(3, 6)
        );
        let off = |df: usize, dr: usize| layout::OWN_KING + df * 17 + dr;
        assert_eq!(layout::mirror(off(7, 8)), off(9, 8));
    }

    #[test]
    fn bad_text_is_an_error() {
        let text = Weights::hand_picked().to_text("");
        let drop_line = |k: &str| {
            text.lines()
                .filter(|l| !l.starts_with(k))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(Weights::from_text(&drop_line("psqt.3 ")).is_err());
        assert!(Weights::from_text(&format!("{text}tempo 5\n")).is_err());
        assert!(Weights::from_text(&text.replace("tempo 20", "tempo x")).is_err());
        assert!(Weights::from_text(&text.replace("tempo 20", "tempo 20 21")).is_err());
        assert!(Weights::from_text(&format!("{text}psqt.15 0\n")).is_err());
        assert!(Weights::from_text(&format!("{text}board_value.0 0\n")).is_err());
    }
}
