//! Reference implementation of YaneuraOu's classic NNUE file `nn.bin` (HalfKP 256x2-32-32),
//! used as the oracle the engine's optimized evaluator is tested against.
//!
//! Written only from `tests/data/nnue/FORMAT.md` and `tests/data/nnue/make_random_nn.py`,
//! independently of the engine's own NNUE code. Section numbers below ("§4") refer to
//! FORMAT.md. Everything here favours being obviously right over being fast: features are
//! collected from scratch for every evaluation, accumulators are summed row by row, layers are
//! plain loops.
//!
//! * [`write_random_net`] writes the same bytes as `make_random_nn.py OUT --seed S` (portable
//!   SplitMix64 generator, classic 178-byte architecture string).
//! * [`RefNet::load`] reads a file laid out as in §2.
//! * [`features`] lists the 38 active HalfKP feature indices of one perspective (§4).
//! * [`RefNet::evaluate`] runs the integer inference of §5 and returns the static evaluation
//!   from the side to move's view.

use hayanagi::{Color, PieceType, Position, Square};
use std::io::{BufWriter, Write};
use std::path::Path;

// ------------------------------------------------------------------------------------------
// Dimensions and constants (§2, §3, §4, §5)
// ------------------------------------------------------------------------------------------

/// File version; a file with another value is rejected (§2 row 1).
pub const VERSION: u32 = 0x7AF3_2F16;
/// Whole-net hash (§2 row 2, §3).
pub const HASH_WHOLE: u32 = 0x3E5A_A6EE;
/// Feature-transformer hash (§2 row 5, §3).
pub const HASH_FT: u32 = 0x5D69_D7B8;
/// Network (layers) hash (§2 row 8, §3).
pub const HASH_NETWORK: u32 = 0x6333_7156;

/// Number of BonaPiece values: 90 hand slots + 18 board piece kinds x 81 squares (§4).
pub const FE_END: usize = 1548;
/// Number of HalfKP features: 81 king squares x `FE_END` (§4).
pub const N_FEATURES: usize = 81 * FE_END;
/// Outputs of the feature transformer per perspective.
pub const HALF: usize = 256;
/// Inputs of layer 1: both perspectives' transformed accumulators.
pub const L1_IN: usize = 2 * HALF;
/// Outputs of layer 1 (inputs of layer 2).
pub const L1_OUT: usize = 32;
/// Outputs of layer 2 (inputs of the output layer).
pub const L2_OUT: usize = 32;
/// `kWeightScaleBits`: the arithmetic right shift applied before each ClippedReLU (§5).
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// `VALUE_MAX_EVAL` = 32000 - 246 - 1: the final value is clamped to +-this (§5.6).
pub const VALUE_MAX_EVAL: i32 = 31753;

/// BonaPiece of an absent piece; still added as a feature, once per absent piece (§4).
pub const BONA_PIECE_ZERO: usize = 0;
/// Length of YaneuraOu's piece list: every non-king piece of a shogi set (§4).
pub const PIECE_LIST_LEN: usize = 38;

/// The classic architecture string (§3), 178 bytes. Never parsed, only skipped.
pub const ARCH_CLASSIC: &str = "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";

/// Size of a file with the classic architecture string (§2): 64,217,066 bytes.
pub const FILE_SIZE_CLASSIC: u64 = file_size(ARCH_CLASSIC.len());

/// Size of a 256x2-32-32 file whose architecture string has `arch_len` bytes (§2).
pub const fn file_size(arch_len: usize) -> u64 {
    let bytes = 4 + 4 + 4 + arch_len // version, whole hash, N, string
        + 4 + HALF * 2 + N_FEATURES * HALF * 2 // FT hash, FT biases (i16), FT weights (i16)
        + 4 // network hash
        + L1_OUT * 4 + L1_OUT * L1_IN // layer 1: i32 biases, i8 weights
        + L2_OUT * 4 + L2_OUT * L1_OUT // layer 2
        + 4 + L2_OUT; // output layer: one i32 bias, 32 i8 weights
    bytes as u64
}

/// The hashes (feature transformer, network, whole file) as FORMAT.md §3 and
/// `make_random_nn.py`'s `hashes()` compute them.
pub fn computed_hashes() -> (u32, u32, u32) {
    let ft = (0x5D69_D5B9u32 ^ 1) ^ (HALF as u32 * 2);
    let affine =
        |prev: u32, out: u32| 0xCC03_DAE4u32.wrapping_add(out) ^ (prev >> 1) ^ (prev << 31);
    let relu = |prev: u32| 0x538D_24C7u32.wrapping_add(prev);
    // InputSlice<512, 0>: 0xEC42E90D ^ 512 ^ (offset 0 << 10).
    let input_slice = 0xEC42_E90Du32 ^ (HALF as u32 * 2);
    let net = affine(
        relu(affine(
            relu(affine(input_slice, L1_OUT as u32)),
            L2_OUT as u32,
        )),
        1,
    );
    (ft, net, ft ^ net)
}

// ------------------------------------------------------------------------------------------
// Random net generator: a port of make_random_nn.py's portable SplitMix64 generator
// ------------------------------------------------------------------------------------------

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
const MIX1: u64 = 0xBF58_476D_1CE4_E5B9;
const MIX2: u64 = 0x94D0_49BB_1331_11EB;

/// One parameter block of the generator, in file order (`BLOCKS` in the script).
struct Block {
    count: usize,
    lo: i64,
    hi: i64,
    extreme_permille: u64,
    /// Bytes per element in the file: 2 (i16), 4 (i32) or 1 (i8).
    width: usize,
}

const fn block(count: usize, lo: i64, hi: i64, extreme_permille: u64, width: usize) -> Block {
    Block {
        count,
        lo,
        hi,
        extreme_permille,
        width,
    }
}

/// Block k = index: (count, lo, hi, extreme permille, bytes per element).
const BLOCKS: [Block; 8] = [
    block(HALF, -10, 89, 0, 2),              // 0: ft_b[256], i16
    block(N_FEATURES * HALF, -24, 24, 0, 2), // 1: ft_w[125388 * 256], i16, feature-major
    block(L1_OUT, -3000, 4999, 0, 4),        // 2: b1[32], i32
    block(L1_OUT * L1_IN, -6, 6, 2, 1),      // 3: w1[32 * 512], i8
    block(L2_OUT, -1500, 2999, 0, 4),        // 4: b2[32], i32
    block(L2_OUT * L1_OUT, -16, 16, 10, 1),  // 5: w2[32 * 32], i8
    block(1, -2000, 1999, 0, 4),             // 6: b3[1], i32
    block(L2_OUT, -40, 40, 0, 1),            // 7: w3[32], i8
];

/// The counter-based SplitMix64 output for block `k`, element `i` (all arithmetic mod 2^64).
fn splitmix(seed: u64, k: u64, i: u64) -> u64 {
    let x = seed
        .wrapping_add(k << 40)
        .wrapping_add(i)
        .wrapping_add(1)
        .wrapping_mul(GOLDEN);
    let mut z = x ^ (x >> 30);
    z = z.wrapping_mul(MIX1);
    z ^= z >> 27;
    z = z.wrapping_mul(MIX2);
    z ^ (z >> 31)
}

/// Value of element `i` of block `k`.
fn random_value(seed: u64, k: usize, i: u64) -> i64 {
    let b = &BLOCKS[k];
    let z = splitmix(seed, k as u64, i);
    let range = (b.hi - b.lo + 1) as u64;
    let mut v = b.lo + (z % range) as i64;
    if b.extreme_permille > 0 && (z >> 40) % 1000 < b.extreme_permille {
        v = if (z >> 39) & 1 == 1 { 127 } else { -128 };
    }
    v
}

/// Append element `v` of a block with `width` bytes per element, little-endian.
fn push_le(buf: &mut Vec<u8>, v: i64, width: usize) {
    match width {
        1 => buf.push(i8::try_from(v).expect("i8 parameter in range") as u8),
        2 => buf.extend_from_slice(&i16::try_from(v).expect("i16 parameter").to_le_bytes()),
        4 => buf.extend_from_slice(&i32::try_from(v).expect("i32 parameter").to_le_bytes()),
        _ => unreachable!("element width {width}"),
    }
}

fn write_block(out: &mut impl Write, seed: u64, k: usize) -> std::io::Result<()> {
    const CHUNK: usize = 1 << 16;
    let b = &BLOCKS[k];
    let mut buf = Vec::with_capacity(CHUNK * b.width);
    let mut i = 0;
    while i < b.count {
        let end = (i + CHUNK).min(b.count);
        buf.clear();
        for e in i..end {
            push_le(&mut buf, random_value(seed, k, e as u64), b.width);
        }
        out.write_all(&buf)?;
        i = end;
    }
    Ok(())
}

/// Write the random net of `make_random_nn.py OUT --seed SEED` (default `--rng splitmix`,
/// `--arch-string classic`) to `path`, byte for byte. Panics on I/O errors.
pub fn write_random_net(path: &Path, seed: u64) {
    write_random_net_with_arch(path, seed, ARCH_CLASSIC);
}

/// Like [`write_random_net`] with another architecture string (`""` is the script's
/// `--arch-string none`). The string only changes the header, never the parameters.
pub fn write_random_net_with_arch(path: &Path, seed: u64, arch: &str) {
    let write = || -> std::io::Result<()> {
        let (ft_hash, net_hash, whole_hash) = computed_hashes();
        let file = std::fs::File::create(path)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&whole_hash.to_le_bytes())?;
        let len = u32::try_from(arch.len()).expect("architecture string length fits in u32");
        out.write_all(&len.to_le_bytes())?;
        out.write_all(arch.as_bytes())?;
        out.write_all(&ft_hash.to_le_bytes())?;
        write_block(&mut out, seed, 0)?; // ft_b
        write_block(&mut out, seed, 1)?; // ft_w
        out.write_all(&net_hash.to_le_bytes())?;
        for k in 2..8 {
            write_block(&mut out, seed, k)?; // b1 w1 b2 w2 b3 w3
        }
        out.flush()?;
        Ok(())
    };
    if let Err(e) = write() {
        panic!("writing random NNUE net to {}: {e}", path.display());
    }
}

// ------------------------------------------------------------------------------------------
// Loading (§2)
// ------------------------------------------------------------------------------------------

/// A loaded HalfKP 256x2-32-32 net, parameters exactly as stored in the file.
pub struct RefNet {
    /// Architecture string (never interpreted).
    pub arch: Vec<u8>,
    /// Hashes as read from the file. A mismatch is only a warning in YaneuraOu (§2).
    pub hash_whole: u32,
    pub hash_ft: u32,
    pub hash_network: u32,
    /// Feature-transformer biases, `[HALF]`.
    pub ft_bias: Vec<i16>,
    /// Feature-transformer weights, feature-major: w(f, j) at `f * HALF + j`.
    pub ft_weight: Vec<i16>,
    /// Layer 1: biases `[L1_OUT]`, weights row-major `[out][in]` = `[L1_OUT][L1_IN]`.
    pub b1: Vec<i32>,
    pub w1: Vec<i8>,
    /// Layer 2: biases `[L2_OUT]`, weights `[L2_OUT][L1_OUT]`.
    pub b2: Vec<i32>,
    pub w2: Vec<i8>,
    /// Output layer: one bias, weights `[1][L2_OUT]`.
    pub b3: i32,
    pub w3: Vec<i8>,
}

/// A summary: the header, not the 32 million weights.
impl std::fmt::Debug for RefNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RefNet {{ arch: {:?}, hash_whole: 0x{:08X}, hash_ft: 0x{:08X}, \
             hash_network: 0x{:08X}, b3: {} }}",
            String::from_utf8_lossy(&self.arch),
            self.hash_whole,
            self.hash_ft,
            self.hash_network,
            self.b3
        )
    }
}

/// Sequential little-endian reader over the whole file; panics with the file name, the
/// field and the offset when the file ends early.
struct Reader<'a> {
    path: &'a Path,
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> &'a [u8] {
        let remaining = self.data.len() - self.pos;
        if n > remaining {
            panic!(
                "malformed NNUE file {}: truncated in {what}: needs {n} bytes at offset {}, \
                 only {remaining} left (file is {} bytes, expected {} for the classic \
                 architecture string)",
                self.path.display(),
                self.pos,
                self.data.len(),
                FILE_SIZE_CLASSIC
            );
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        s
    }

    fn u32(&mut self, what: &str) -> u32 {
        u32::from_le_bytes(self.take(4, what).try_into().unwrap())
    }

    fn i32s(&mut self, n: usize, what: &str) -> Vec<i32> {
        self.take(4 * n, what)
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    fn i16s(&mut self, n: usize, what: &str) -> Vec<i16> {
        self.take(2 * n, what)
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    fn i8s(&mut self, n: usize, what: &str) -> Vec<i8> {
        self.take(n, what).iter().map(|&b| b as i8).collect()
    }
}

impl RefNet {
    /// Read `path` (§2). Panics with a clear message when the file cannot be read, has the
    /// wrong version, ends early or has trailing bytes. Hash mismatches are warnings on
    /// stderr, as in YaneuraOu; the hashes read are kept in the `hash_*` fields.
    pub fn load(path: &Path) -> RefNet {
        let data = std::fs::read(path)
            .unwrap_or_else(|e| panic!("cannot read NNUE file {}: {e}", path.display()));
        let mut r = Reader {
            path,
            data: &data,
            pos: 0,
        };
        let version = r.u32("version");
        assert_eq!(
            version,
            VERSION,
            "malformed NNUE file {}: version 0x{version:08X}, expected 0x{VERSION:08X}",
            path.display()
        );
        let hash_whole = r.u32("whole-net hash");
        let arch_len = r.u32("architecture string length") as usize;
        let arch = r.take(arch_len, "architecture string").to_vec();
        let hash_ft = r.u32("feature-transformer hash");
        let ft_bias = r.i16s(HALF, "feature-transformer biases");
        let ft_weight = r.i16s(N_FEATURES * HALF, "feature-transformer weights");
        let hash_network = r.u32("network hash");
        let b1 = r.i32s(L1_OUT, "layer-1 biases");
        let w1 = r.i8s(L1_OUT * L1_IN, "layer-1 weights");
        let b2 = r.i32s(L2_OUT, "layer-2 biases");
        let w2 = r.i8s(L2_OUT * L1_OUT, "layer-2 weights");
        let b3 = r.i32s(1, "output bias")[0];
        let w3 = r.i8s(L2_OUT, "output weights");
        assert_eq!(
            r.pos,
            data.len(),
            "malformed NNUE file {}: {} trailing bytes after the output weights (file is {} \
             bytes, the parameters end at {})",
            path.display(),
            data.len() - r.pos,
            data.len(),
            r.pos
        );
        for (name, got, want) in [
            ("whole-net", hash_whole, HASH_WHOLE),
            ("feature-transformer", hash_ft, HASH_FT),
            ("network", hash_network, HASH_NETWORK),
        ] {
            if got != want {
                eprintln!(
                    "warning: NNUE file {}: {name} hash 0x{got:08X}, expected 0x{want:08X}",
                    path.display()
                );
            }
        }
        RefNet {
            arch,
            hash_whole,
            hash_ft,
            hash_network,
            ft_bias,
            ft_weight,
            b1,
            w1,
            b2,
            w2,
            b3,
            w3,
        }
    }

    /// A net with every parameter zero and the expected hashes, for hand-made test nets.
    pub fn zeroed() -> RefNet {
        RefNet {
            arch: ARCH_CLASSIC.as_bytes().to_vec(),
            hash_whole: HASH_WHOLE,
            hash_ft: HASH_FT,
            hash_network: HASH_NETWORK,
            ft_bias: vec![0; HALF],
            ft_weight: vec![0; N_FEATURES * HALF],
            b1: vec![0; L1_OUT],
            w1: vec![0; L1_OUT * L1_IN],
            b2: vec![0; L2_OUT],
            w2: vec![0; L2_OUT * L1_OUT],
            b3: 0,
            w3: vec![0; L2_OUT],
        }
    }

    // --------------------------------------------------------------------------------------
    // Inference (§5)
    // --------------------------------------------------------------------------------------

    /// §5.1: `acc[j] = b[j] + sum over the 38 features f of W[f][j]`, in wrapping int16
    /// arithmetic. `None` when the position cannot be evaluated (see [`features`]).
    pub fn accumulator(&self, pos: &Position, perspective: Color) -> Option<Vec<i16>> {
        let feats = features(pos, perspective)?;
        let mut acc = self.ft_bias.clone();
        for f in feats {
            let row = &self.ft_weight[f * HALF..(f + 1) * HALF];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        Some(acc)
    }

    /// §5.2: the 512 inputs of layer 1: the side to move's accumulator first, then the
    /// opponent's, each clamped to 0..=127.
    pub fn transformed(&self, pos: &Position) -> Option<Vec<u8>> {
        let us = pos.side_to_move();
        let acc_us = self.accumulator(pos, us)?;
        let acc_them = self.accumulator(pos, !us)?;
        Some(
            acc_us
                .iter()
                .chain(acc_them.iter())
                .map(|&a| a.clamp(0, 127) as u8)
                .collect(),
        )
    }

    /// §5.3 to §5.5 on the given layer-1 input: the raw output (before `FV_SCALE`).
    pub fn propagate(&self, x: &[u8]) -> i32 {
        assert_eq!(x.len(), L1_IN);
        let y1 = affine_clipped_relu(&self.b1, &self.w1, x);
        let y2 = affine_clipped_relu(&self.b2, &self.w2, &y1);
        affine(&[self.b3], &self.w3, &y2)[0]
    }

    /// The raw network output (before division by `FV_SCALE`) from the side to move's view.
    pub fn raw_output(&self, pos: &Position) -> Option<i32> {
        Some(self.propagate(&self.transformed(pos)?))
    }

    /// Static evaluation from the side to move's view (§5.6): the raw output divided by
    /// `fv_scale` truncating toward zero, clamped to +-[`VALUE_MAX_EVAL`]. `None` when the
    /// position has no king of some colour or more pieces of a kind than a shogi set.
    pub fn evaluate(&self, pos: &Position, fv_scale: i32) -> Option<i32> {
        assert!(fv_scale >= 1, "FV_SCALE must be positive, got {fv_scale}");
        let out = self.raw_output(pos)?;
        // Rust's `/` on integers truncates toward zero, like C++.
        Some((out / fv_scale).clamp(-VALUE_MAX_EVAL, VALUE_MAX_EVAL))
    }
}

/// `out[o] = b[o] + sum_i w[o][i] * x[i]` with row-major `w` (`[out][in]`), in i32. The
/// sums are wrapping (as the SIMD code's 32-bit adds); they cannot overflow for any file
/// whose biases are not near the i32 limits, since |sum of products| <= 512 * 128 * 127.
fn affine(b: &[i32], w: &[i8], x: &[u8]) -> Vec<i32> {
    assert_eq!(w.len(), b.len() * x.len());
    b.iter()
        .zip(w.chunks_exact(x.len()))
        .map(|(&bias, row)| {
            row.iter().zip(x).fold(bias, |acc, (&wi, &xi)| {
                acc.wrapping_add(i32::from(wi) * i32::from(xi))
            })
        })
        .collect()
}

/// An affine layer followed by ClippedReLU: `clamp(h >> 6, 0, 127)` with an arithmetic shift.
fn affine_clipped_relu(b: &[i32], w: &[i8], x: &[u8]) -> Vec<u8> {
    affine(b, w, x)
        .into_iter()
        .map(|h| (h >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8)
        .collect()
}

// ------------------------------------------------------------------------------------------
// Features (§4)
// ------------------------------------------------------------------------------------------

/// How many pieces of each hand kind a shogi set has, indexed by unpromoted kind.
pub fn set_count(pt: PieceType) -> u32 {
    match pt {
        PieceType::Pawn => 18,
        PieceType::Lance | PieceType::Knight | PieceType::Silver | PieceType::Gold => 4,
        PieceType::Bishop | PieceType::Rook => 2,
        _ => panic!("{pt:?} is not a hand kind"),
    }
}

/// BonaPiece bases of a piece on the board, `(friend, enemy)` (§4, `f_*` / `e_*`). The
/// promoted minor pieces use the gold bases. Kings have none (they are not features).
pub fn board_bases(pt: PieceType) -> (usize, usize) {
    match pt {
        PieceType::Pawn => (90, 171),
        PieceType::Lance => (252, 333),
        PieceType::Knight => (414, 495),
        PieceType::Silver => (576, 657),
        PieceType::Gold
        | PieceType::ProPawn
        | PieceType::ProLance
        | PieceType::ProKnight
        | PieceType::ProSilver => (738, 819),
        PieceType::Bishop => (900, 981),
        PieceType::Horse => (1062, 1143),
        PieceType::Rook => (1224, 1305),
        PieceType::Dragon => (1386, 1467),
        PieceType::King => panic!("kings are not HalfKP features"),
    }
}

/// BonaPiece bases of a hand kind, `(friend, enemy)` (§4, `f_hand_*` / `e_hand_*`): the
/// value of the first piece held; the i-th (0-based) piece is base + i.
pub fn hand_bases(pt: PieceType) -> (usize, usize) {
    match pt {
        PieceType::Pawn => (1, 20),
        PieceType::Lance => (39, 44),
        PieceType::Knight => (49, 54),
        PieceType::Silver => (59, 64),
        PieceType::Gold => (69, 74),
        PieceType::Bishop => (79, 82),
        PieceType::Rook => (85, 88),
        _ => panic!("{pt:?} is not a hand kind"),
    }
}

/// Why a position cannot be evaluated, or `None` when it can: a missing king, or more
/// non-king pieces of some kind (promoted ones counted with their unpromoted kind, board and
/// both hands) than YaneuraOu's 38-entry piece list has room for.
pub fn unevaluable_reason(pos: &Position) -> Option<String> {
    for c in Color::ALL {
        if pos.king_square(c).is_none() {
            return Some(format!("no {c:?} king"));
        }
    }
    for pt in PieceType::HAND {
        let on_board = Square::all()
            .filter(|&sq| {
                let p = pos.piece_on(sq);
                !p.is_empty() && p.piece_type().unpromoted() == pt
            })
            .count() as u32;
        let in_hands = pos.hand(Color::Black).count(pt) + pos.hand(Color::White).count(pt);
        if on_board + in_hands > set_count(pt) {
            return Some(format!(
                "{} pieces of kind {pt:?} ({on_board} on the board, {in_hands} in hand), a set \
                 has {}",
                on_board + in_hands,
                set_count(pt)
            ));
        }
    }
    None
}

/// The BonaPieces of the piece list seen from `perspective` (§4): one per non-king piece on
/// the board, one per piece in either hand, and `BONA_PIECE_ZERO` for each of the 38 pieces
/// of a set that is absent. Order: board pieces by ascending square index, then black's and
/// white's hands (kinds in `PieceType::HAND` order, i = 0, 1, ...), then the zeros.
/// `None` when [`unevaluable_reason`] gives a reason.
pub fn bona_pieces(pos: &Position, perspective: Color) -> Option<Vec<usize>> {
    if unevaluable_reason(pos).is_some() {
        return None;
    }
    // From black's view squares are as they are; from white's view rotated: Inv(sq) = 80 - sq.
    let view = |sq: Square| match perspective {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    };
    let mut list = Vec::with_capacity(PIECE_LIST_LEN);
    for sq in Square::all() {
        let p = pos.piece_on(sq);
        if p.is_empty() || p.piece_type() == PieceType::King {
            continue;
        }
        let (friend, enemy) = board_bases(p.piece_type());
        let base = if p.color() == perspective {
            friend
        } else {
            enemy
        };
        list.push(base + view(sq));
    }
    for c in Color::ALL {
        for pt in PieceType::HAND {
            let (friend, enemy) = hand_bases(pt);
            let base = if c == perspective { friend } else { enemy };
            for i in 0..pos.hand(c).count(pt) as usize {
                list.push(base + i);
            }
        }
    }
    assert!(list.len() <= PIECE_LIST_LEN, "piece counts were checked");
    list.resize(PIECE_LIST_LEN, BONA_PIECE_ZERO);
    Some(list)
}

/// The king square index used by `perspective` (§4): black's king square from black's view,
/// `Inv(white king square)` from white's. `None` without that king.
pub fn king_index(pos: &Position, perspective: Color) -> Option<usize> {
    let sq = pos.king_square(perspective)?;
    Some(match perspective {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    })
}

/// The 38 active HalfKP feature indices of `perspective`, `FE_END * k + bonapiece` (§4), in
/// the order of [`bona_pieces`] (a multiset: absent pieces repeat feature `FE_END * k`).
/// `None` when the position cannot be evaluated (no king of either colour, or more pieces
/// of a kind than a shogi set has).
pub fn features(pos: &Position, perspective: Color) -> Option<Vec<usize>> {
    let pieces = bona_pieces(pos, perspective)?;
    let k = king_index(pos, perspective)?;
    Some(pieces.into_iter().map(|bp| FE_END * k + bp).collect())
}
