//! Precomputed attack tables.
//!
//! * Step pieces (pawn, knight, silver, gold, king): one bitboard per colour and square.
//! * Along a file (lance, rook vertical): a file is 9 contiguous bits, so the 7 inner bits of
//!   the file's occupancy index a table of 9-bit results that is shifted back into place.
//! * Along a rank (rook horizontal) and diagonals (bishop): magic bitboards over the 81-bit
//!   occupancy folded into 64 bits (`Bitboard::merge`). The magics below were found by a
//!   seeded sparse-random search (`search_magics`, re-run by a unit test); building the
//!   tables checks every one of them for collisions.
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

const RANK_MAGICS: [u64; 81] = [
    0xc110040048004010,
    0x0910040104003110,
    0x2002842200404208,
    0x0040808100098010,
    0x0121004012400620,
    0x01042300040800a8,
    0x0922204010009088,
    0x80400c4004046282,
    0x0086400802208421,
    0x8002840822004010,
    0x4000008202002120,
    0x084050c602002008,
    0x0200402880848004,
    0x0404004040801602,
    0x020080c010c00121,
    0x0102000802203a02,
    0x0221000220050401,
    0x0104001001020282,
    0x80600082820884a0,
    0x0881010484008280,
    0x0108020841c04480,
    0x0808046040100410,
    0x8629801080084009,
    0x5485280080420808,
    0x4040402020810908,
    0x10430428600204a2,
    0x0e18100008204282,
    0x0808104204411200,
    0x1050510004820028,
    0x100a88900040c480,
    0x480888201c208190,
    0x00440241a0200450,
    0x04001124c0101011,
    0x222009c081081009,
    0x0008481820442404,
    0x0208210c50020022,
    0x80141000c40102c0,
    0x1004089082420180,
    0x081000420000a028,
    0x6206004200200520,
    0x5202820280003202,
    0x0640102020081050,
    0x2200121050a02884,
    0xc41080200410a041,
    0x0016600802001042,
    0x4240280200448124,
    0x1010100c40814010,
    0x0414044401010048,
    0x8088004300401008,
    0x018400400a428018,
    0x020040098010a101,
    0x12011a1004480004,
    0x40882020020204c4,
    0x1110402104008001,
    0x11401600c4010200,
    0x0401100202144000,
    0x15241800c1002000,
    0x08090402a4400c01,
    0x0822822018202090,
    0x0402808010048920,
    0x0040802411200115,
    0x0902242022220200,
    0x0028301086044404,
    0x2020280088004844,
    0x8401102080808880,
    0x1442080c45004004,
    0x40840040102081d0,
    0x000400e043122001,
    0x0182410060040308,
    0x3000105010200084,
    0x000a820c04028a02,
    0x0004100101010401,
    0x1004118808010450,
    0x014508008400c140,
    0x2008440280803004,
    0x0800250014200840,
    0x0800101020a1200a,
    0x0081800880811a08,
    0x0110408108060044,
    0x2008400508010904,
    0x0040310801204082,
];

const BISHOP_MAGICS: [u64; 81] = [
    0x0014040010080808,
    0x0131048b001000a2,
    0x0204019108200e20,
    0x00010080a9500202,
    0x10020408440082a0,
    0x2000428604010402,
    0x09004200e0809150,
    0x00041080a0090240,
    0x40102010880c1240,
    0x0010264209001001,
    0x8012190012400808,
    0x2042008084404111,
    0x0000030880112200,
    0x0809014082100008,
    0x0020004086065005,
    0x0300001100208018,
    0x9112004090488004,
    0x0142002008901c40,
    0x2c082c188044c105,
    0x0010008440800824,
    0x0008018020010424,
    0x0010208100840042,
    0x0000200080410010,
    0x00001040400280e0,
    0x0090802004081240,
    0x080e840040080402,
    0x1000916290010802,
    0x0104010080a28240,
    0x0258004000804004,
    0x00084060a1004808,
    0x6042001804401052,
    0xc009002480080402,
    0x2002020102d40180,
    0x2000202008032410,
    0x1001001330250208,
    0x0400100621220410,
    0x210400c100008080,
    0x0200440824108008,
    0x0102000420001010,
    0x0260188014004002,
    0x1900044002800801,
    0x0310000801100402,
    0x2205203008082010,
    0xd40028406883901f,
    0x2080808102014154,
    0xb020c22099002300,
    0x01d5008200400108,
    0x880080a004080090,
    0x0101800080400041,
    0x1680080240008002,
    0x0010002005440008,
    0x4042211031280004,
    0x818142000a080804,
    0x0205a11008040012,
    0x2000260080124692,
    0x021048e083014004,
    0x1801025104088000,
    0x4800200220080402,
    0x0421608802081001,
    0x4440080211003400,
    0x0010021430102800,
    0x0082204100026803,
    0x1820420120100084,
    0xa400130880210040,
    0x1900084010200480,
    0x005020a106044840,
    0x0084000012010420,
    0x0008440101010088,
    0x0090c0c408281048,
    0x0008140400088462,
    0x400108004008104a,
    0x00d218a111602444,
    0xc04038403a201014,
    0x010000882040100c,
    0x100000000302100c,
    0x8820000005080209,
    0x0c0c011000404084,
    0x85051000510c0864,
    0xa020040804204008,
    0xa100040080084001,
    0x8150002110808803,
];

/// Deterministic xorshift generator (magic search and tests).
#[cfg(test)]
struct Rng(u64);
#[cfg(test)]
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

/// Mask of the squares whose occupancy matters for a slider on `sq` moving along `dirs`.
fn slider_mask(sq: Square, dirs: &[(i32, i32)]) -> u128 {
    dirs.iter()
        .map(|&(df, dr)| inner_ray(sq, df, dr))
        .fold(0, |a, b| a | b)
}

fn slider_attacks(sq: Square, dirs: &[(i32, i32)], occ: u128) -> u128 {
    dirs.iter()
        .map(|&(df, dr)| ray(sq, df, dr, occ))
        .fold(0, |a, b| a | b)
}

/// Fill `table` for one square with magic `magic`; false on a harmful collision.
fn try_magic(
    sq: Square,
    dirs: &[(i32, i32)],
    magic: u64,
    table: &mut Vec<Bitboard>,
) -> Option<Magic> {
    let mask = slider_mask(sq, dirs);
    let bits = mask.count_ones();
    let offset = table.len();
    let m = Magic {
        mask,
        magic,
        shift: 64 - bits,
        offset: offset as u32,
    };
    table.resize(offset + (1 << bits), Bitboard::EMPTY);
    let mut used = vec![false; 1 << bits];
    for occ in subsets(mask) {
        let att = Bitboard(slider_attacks(sq, dirs, occ));
        let i = m.index(Bitboard(occ));
        if used[i - offset] && table[i] != att {
            table.truncate(offset);
            return None;
        }
        used[i - offset] = true;
        table[i] = att;
    }
    Some(m)
}

/// Build the magic table for all squares from stored magics.
fn fill_magics(
    dirs: &[(i32, i32)],
    stored: &[u64; 81],
    magics: &mut [Magic; 81],
    table: &mut Vec<Bitboard>,
) {
    for sq in Square::all() {
        magics[sq.index()] = try_magic(sq, dirs, stored[sq.index()], table)
            .unwrap_or_else(|| panic!("stored magic for {sq} collides"));
    }
}

/// The seeded search that produced the stored magics: sparse random candidates until one
/// maps every occupancy subset to a slot without a harmful collision.
#[cfg(test)]
fn search_magics(dirs: &[(i32, i32)], rng: &mut Rng) -> [u64; 81] {
    let mut out = [0u64; 81];
    for sq in Square::all() {
        let mask = slider_mask(sq, dirs);
        let bits = mask.count_ones();
        let occs = subsets(mask);
        let atts: Vec<u128> = occs.iter().map(|&o| slider_attacks(sq, dirs, o)).collect();
        let folded: Vec<u64> = occs.iter().map(|&o| Bitboard(o).merge()).collect();
        let mut slot = vec![(0u32, 0u128); 1 << bits];
        let mut epoch = 0u32;
        out[sq.index()] = 'search: loop {
            let magic = rng.sparse();
            epoch += 1;
            for (f, a) in folded.iter().zip(&atts) {
                let i = (f.wrapping_mul(magic) >> (64 - bits)) as usize;
                if slot[i].0 != epoch {
                    slot[i] = (epoch, *a);
                } else if slot[i].1 != *a {
                    continue 'search;
                }
            }
            break magic;
        };
    }
    out
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
        let (mut rm, mut rt) = ([Magic::default(); 81], Vec::new());
        fill_magics(&RANK_DIRS, &RANK_MAGICS, &mut rm, &mut rt);
        let (mut bm, mut bt) = ([Magic::default(); 81], Vec::new());
        fill_magics(&DIAGONALS, &BISHOP_MAGICS, &mut bm, &mut bt);
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
    fn stored_magics_come_from_the_seeded_search() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        assert_eq!(search_magics(&RANK_DIRS, &mut rng), RANK_MAGICS);
        assert_eq!(search_magics(&DIAGONALS, &mut rng), BISHOP_MAGICS);
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
