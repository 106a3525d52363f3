//! Precomputed attack tables.
//!
//! * Step pieces (pawn, knight, silver, gold, king): one bitboard per colour and square.
//! * Along a file (lance, rook vertical): a file is 9 contiguous bits, so the 7 inner bits of
//!   the file's occupancy index a table of 9-bit results that is shifted back into place.
//! * Along a rank (rook horizontal) and diagonals (bishop): magic bitboards over the 81-bit
//!   occupancy folded into 64 bits (`Bitboard::merge`). Magics are found once at start-up by
//!   a seeded search, so every run builds identical tables.
//!
//! Everything lives in one `Tables` value built on first use; hot loops should bind
//! `let t = tables();` once.

use super::bitboard::Bitboard;
use super::types::{Color, PieceType, Square};
use std::sync::LazyLock;

/// Magic-hash parameters of one square.
#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u128,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occ: Bitboard) -> usize {
        let folded = Bitboard(occ.0 & self.mask).merge();
        self.offset as usize + (folded.wrapping_mul(self.magic) >> self.shift) as usize
    }
}

const STEP_PAWN: usize = 0;
const STEP_KNIGHT: usize = 1;
const STEP_SILVER: usize = 2;
const STEP_GOLD: usize = 3;
const STEP_KING: usize = 4;

/// All precomputed tables.
pub struct Tables {
    step: [[[Bitboard; 81]; 2]; 5],
    lance_file: [[[u16; 128]; 81]; 2],
    rook_file: [[u16; 128]; 81],
    rank_magic: [Magic; 81],
    rank_attacks: Vec<Bitboard>,
    bishop_magic: [Magic; 81],
    bishop_attacks: Vec<Bitboard>,
    bishop_empty: [Bitboard; 81],
    rook_empty: [Bitboard; 81],
    lance_empty: [[Bitboard; 81]; 2],
    between: Vec<Bitboard>,
    line: Vec<Bitboard>,
}

static TABLES: LazyLock<Box<Tables>> = LazyLock::new(Tables::build);

/// The global attack tables (built on first call).
#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

/// Walk from `sq` in direction (df, dr) until the edge or the first occupied square
/// (inclusive). Only used to build tables.
fn ray(sq: Square, df: i32, dr: i32, occ: u128) -> u128 {
    let mut out = 0u128;
    let (mut f, mut r) = (sq.file() as i32, sq.rank() as i32);
    loop {
        f += df;
        r += dr;
        if !(0..9).contains(&f) || !(0..9).contains(&r) {
            break;
        }
        let bit = 1u128 << (f * 9 + r);
        out |= bit;
        if occ & bit != 0 {
            break;
        }
    }
    out
}

/// `ray` without its last square when that square is the board edge: the squares whose
/// occupancy matters for a slider's attacks.
fn inner_ray(sq: Square, df: i32, dr: i32) -> u128 {
    let full = ray(sq, df, dr, 0);
    let mut out = 0u128;
    let mut b = Bitboard(full);
    while b.any() {
        let s = b.pop();
        let (nf, nr) = (s.file() as i32 + df, s.rank() as i32 + dr);
        if (0..9).contains(&nf) && (0..9).contains(&nr) {
            out |= 1u128 << s.index();
        }
    }
    out
}

/// Deterministic xorshift generator for the magic search.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Every subset of `mask` (Carry-Rippler enumeration).
fn subsets(mask: u128) -> Vec<u128> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut s = 0u128;
    loop {
        out.push(s);
        s = s.wrapping_sub(mask) & mask;
        if s == 0 {
            break;
        }
    }
    out
}

/// Find magics for every square and fill the shared attack table.
fn build_magics(
    dirs: &[(i32, i32)],
    rng: &mut Rng,
    magics: &mut [Magic; 81],
    table: &mut Vec<Bitboard>,
) {
    for sq in Square::all() {
        let mask: u128 = dirs
            .iter()
            .map(|&(df, dr)| inner_ray(sq, df, dr))
            .fold(0, |a, b| a | b);
        let bits = mask.count_ones();
        let occs = subsets(mask);
        let atts: Vec<u128> = occs
            .iter()
            .map(|&o| {
                dirs.iter()
                    .map(|&(df, dr)| ray(sq, df, dr, o))
                    .fold(0, |a, b| a | b)
            })
            .collect();
        let size = 1usize << bits;
        let offset = table.len();
        table.resize(offset + size, Bitboard::EMPTY);
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        let shift = 64 - bits;
        'search: loop {
            let magic = rng.sparse();
            let m = Magic {
                mask,
                magic,
                shift,
                offset: offset as u32,
            };
            epoch += 1;
            for (o, a) in occs.iter().zip(&atts) {
                let i = m.index(Bitboard(*o)) - offset;
                if used[i] != epoch {
                    used[i] = epoch;
                    table[offset + i] = Bitboard(*a);
                } else if table[offset + i].0 != *a {
                    continue 'search;
                }
            }
            magics[sq.index()] = m;
            break;
        }
    }
}

fn step_set(sq: Square, c: Color, deltas: &[(i32, i32)]) -> Bitboard {
    let mut b = 0u128;
    let sign = if c == Color::Black { 1 } else { -1 };
    for &(df, dr) in deltas {
        let (f, r) = (sq.file() as i32 + df, sq.rank() as i32 + dr * sign);
        if (0..9).contains(&f) && (0..9).contains(&r) {
            b |= 1u128 << (f * 9 + r);
        }
    }
    Bitboard(b)
}

const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const RANK_DIRS: [(i32, i32); 2] = [(1, 0), (-1, 0)];
const ALL_DIRS: [(i32, i32); 8] = [
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
];

impl Tables {
    fn build() -> Box<Tables> {
        let mut t = Box::new(Tables {
            step: [[[Bitboard::EMPTY; 81]; 2]; 5],
            lance_file: [[[0; 128]; 81]; 2],
            rook_file: [[0; 128]; 81],
            rank_magic: [Magic::default(); 81],
            rank_attacks: Vec::new(),
            bishop_magic: [Magic::default(); 81],
            bishop_attacks: Vec::new(),
            bishop_empty: [Bitboard::EMPTY; 81],
            rook_empty: [Bitboard::EMPTY; 81],
            lance_empty: [[Bitboard::EMPTY; 81]; 2],
            between: vec![Bitboard::EMPTY; 81 * 81],
            line: vec![Bitboard::EMPTY; 81 * 81],
        });
        let pawn = [(0, -1)];
        let knight = [(-1, -2), (1, -2)];
        let silver = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
        let gold = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
        for c in Color::ALL {
            for sq in Square::all() {
                let s = sq.index();
                t.step[STEP_PAWN][c.index()][s] = step_set(sq, c, &pawn);
                t.step[STEP_KNIGHT][c.index()][s] = step_set(sq, c, &knight);
                t.step[STEP_SILVER][c.index()][s] = step_set(sq, c, &silver);
                t.step[STEP_GOLD][c.index()][s] = step_set(sq, c, &gold);
                t.step[STEP_KING][c.index()][s] = step_set(sq, c, &ALL_DIRS);
            }
        }
        for sq in Square::all() {
            let s = sq.index();
            let base = sq.file() as u32 * 9;
            for idx in 0..128u128 {
                let occ = idx << (base + 1);
                let fwd = ray(sq, 0, -1, occ);
                let back = ray(sq, 0, 1, occ);
                t.lance_file[0][s][idx as usize] = (fwd >> base) as u16;
                t.lance_file[1][s][idx as usize] = (back >> base) as u16;
                t.rook_file[s][idx as usize] = ((fwd | back) >> base) as u16;
            }
            t.bishop_empty[s] = Bitboard(
                DIAGONALS
                    .iter()
                    .map(|&(df, dr)| ray(sq, df, dr, 0))
                    .fold(0, |a, b| a | b),
            );
            t.rook_empty[s] = Bitboard(
                [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .map(|&(df, dr)| ray(sq, df, dr, 0))
                    .fold(0, |a, b| a | b),
            );
            t.lance_empty[0][s] = Bitboard(ray(sq, 0, -1, 0));
            t.lance_empty[1][s] = Bitboard(ray(sq, 0, 1, 0));
        }
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut rm, mut rt) = ([Magic::default(); 81], Vec::new());
        build_magics(&RANK_DIRS, &mut rng, &mut rm, &mut rt);
        let (mut bm, mut bt) = ([Magic::default(); 81], Vec::new());
        build_magics(&DIAGONALS, &mut rng, &mut bm, &mut bt);
        t.rank_magic = rm;
        t.rank_attacks = rt;
        t.bishop_magic = bm;
        t.bishop_attacks = bt;
        for a in Square::all() {
            for &(df, dr) in &ALL_DIRS {
                let full = ray(a, df, dr, 0);
                let (mut f, mut r) = (a.file() as i32, a.rank() as i32);
                let mut between = 0u128;
                loop {
                    f += df;
                    r += dr;
                    if !(0..9).contains(&f) || !(0..9).contains(&r) {
                        break;
                    }
                    let b = Square::from_file_rank(f as u8, r as u8);
                    t.between[a.index() * 81 + b.index()] = Bitboard(between);
                    let opposite = ray(a, -df, -dr, 0);
                    t.line[a.index() * 81 + b.index()] =
                        Bitboard(full | opposite | (1u128 << a.index()));
                    between |= 1u128 << b.index();
                }
            }
        }
        t
    }

    #[inline(always)]
    pub fn pawn(&self, c: Color, sq: Square) -> Bitboard {
        self.step[STEP_PAWN][c.index()][sq.index()]
    }
    #[inline(always)]
    pub fn knight(&self, c: Color, sq: Square) -> Bitboard {
        self.step[STEP_KNIGHT][c.index()][sq.index()]
    }
    #[inline(always)]
    pub fn silver(&self, c: Color, sq: Square) -> Bitboard {
        self.step[STEP_SILVER][c.index()][sq.index()]
    }
    #[inline(always)]
    pub fn gold(&self, c: Color, sq: Square) -> Bitboard {
        self.step[STEP_GOLD][c.index()][sq.index()]
    }
    #[inline(always)]
    pub fn king(&self, sq: Square) -> Bitboard {
        self.step[STEP_KING][0][sq.index()]
    }

    #[inline(always)]
    fn file_index(sq: Square, occ: Bitboard) -> (u32, usize) {
        let base = sq.file() as u32 * 9;
        (base, ((occ.0 >> (base + 1)) & 0x7f) as usize)
    }

    #[inline(always)]
    pub fn lance(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let (base, idx) = Self::file_index(sq, occ);
        Bitboard((self.lance_file[c.index()][sq.index()][idx] as u128) << base)
    }

    #[inline(always)]
    pub fn rook_file(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let (base, idx) = Self::file_index(sq, occ);
        Bitboard((self.rook_file[sq.index()][idx] as u128) << base)
    }

    #[inline(always)]
    pub fn rook_rank(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rank_attacks[self.rank_magic[sq.index()].index(occ)]
    }

    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook_file(sq, occ) | self.rook_rank(sq, occ)
    }

    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.bishop_attacks[self.bishop_magic[sq.index()].index(occ)]
    }

    #[inline(always)]
    pub fn horse(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.bishop(sq, occ) | self.king(sq)
    }

    #[inline(always)]
    pub fn dragon(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.king(sq)
    }

    #[inline(always)]
    pub fn bishop_empty(&self, sq: Square) -> Bitboard {
        self.bishop_empty[sq.index()]
    }
    #[inline(always)]
    pub fn rook_empty(&self, sq: Square) -> Bitboard {
        self.rook_empty[sq.index()]
    }
    #[inline(always)]
    pub fn lance_empty(&self, c: Color, sq: Square) -> Bitboard {
        self.lance_empty[c.index()][sq.index()]
    }

    /// Squares strictly between `a` and `b` when they share a line, else empty.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        self.between[a.index() * 81 + b.index()]
    }

    /// The whole line through `a` and `b` (both included) when they share one, else empty.
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> Bitboard {
        self.line[a.index() * 81 + b.index()]
    }

    /// True when `a`, `b` and `c` lie on one line.
    #[inline(always)]
    pub fn aligned(&self, a: Square, b: Square, c: Square) -> bool {
        self.line(a, b).has(c)
    }

    /// Attacks of a piece of type `pt` and colour `c` standing on `sq`.
    #[inline(always)]
    pub fn attacks(&self, pt: PieceType, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        match pt {
            PieceType::Pawn => self.pawn(c, sq),
            PieceType::Lance => self.lance(c, sq, occ),
            PieceType::Knight => self.knight(c, sq),
            PieceType::Silver => self.silver(c, sq),
            PieceType::Bishop => self.bishop(sq, occ),
            PieceType::Rook => self.rook(sq, occ),
            PieceType::King => self.king(sq),
            PieceType::Horse => self.horse(sq, occ),
            PieceType::Dragon => self.dragon(sq, occ),
            _ => self.gold(c, sq),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slow reference: walk rays square by square.
    fn slow(pt: PieceType, sq: Square, occ: u128) -> u128 {
        let dirs: &[(i32, i32)] = match pt {
            PieceType::Bishop => &DIAGONALS,
            PieceType::Rook => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            _ => &[(0, -1)],
        };
        dirs.iter()
            .map(|&(df, dr)| ray(sq, df, dr, occ))
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn sliders_match_ray_walking() {
        let t = tables();
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let occ = ((rng.next() as u128) << 64 | rng.next() as u128) & ((1u128 << 81) - 1);
            let occ = occ & ((rng.next() as u128) << 64 | rng.next() as u128);
            for sq in Square::all() {
                let o = Bitboard(occ);
                assert_eq!(t.bishop(sq, o).0, slow(PieceType::Bishop, sq, occ));
                assert_eq!(t.rook(sq, o).0, slow(PieceType::Rook, sq, occ));
                assert_eq!(
                    t.lance(Color::Black, sq, o).0,
                    slow(PieceType::Lance, sq, occ)
                );
                assert_eq!(t.lance(Color::White, sq, o).0, ray(sq, 0, 1, occ));
            }
        }
    }

    #[test]
    fn between_and_line() {
        let t = tables();
        let a = Square::from_usi("1a").unwrap();
        let b = Square::from_usi("5e").unwrap();
        let c = Square::from_usi("3c").unwrap();
        assert!(t.between(a, b).has(c));
        assert_eq!(t.between(a, b).count(), 3);
        assert!(t.aligned(a, b, Square::from_usi("9i").unwrap()));
        assert!(!t.aligned(a, b, Square::from_usi("2a").unwrap()));
        assert!(t.between(a, Square::from_usi("2c").unwrap()).is_empty());
        assert!(t.line(a, Square::from_usi("2c").unwrap()).is_empty());
    }
}
