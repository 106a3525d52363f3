//! Self-checks of the NNUE reference implementation in `tests/common/nnue_ref.rs`: the random
//! net generator against `make_random_nn.py`, the loader against independently parsed
//! values, and the feature extraction and inference against what FORMAT.md implies.
//!
//! `generator_matches_python_script` needs `python3` with numpy and the script at
//! `tests/data/nnue/make_random_nn.py` (or at `$HAYANAGI_NNUE_SCRIPT`).

mod common;

use common::nnue_ref::{self, RefNet, FE_END, HALF, L1_OUT, N_FEATURES, PIECE_LIST_LEN};
use hayanagi::{Color, PieceType, Position, Square, Validation};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

const FV_SCALE: i32 = 16;

/// A file under the temporary directory with a name unique to this process and call,
/// removed when dropped (also when the test panics).
struct TempFile(PathBuf);

impl TempFile {
    fn new(tag: &str) -> TempFile {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        TempFile(std::env::temp_dir().join(format!(
            "hayanagi-nnueref-{}-{nanos}-{n}-{tag}.bin",
            std::process::id()
        )))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The seed-12 random net, generated and loaded once per test binary.
fn net() -> &'static RefNet {
    static NET: OnceLock<RefNet> = OnceLock::new();
    NET.get_or_init(|| {
        let file = TempFile::new("seed12");
        let t = Instant::now();
        nnue_ref::write_random_net(file.path(), 12);
        let generated = t.elapsed();
        let t = Instant::now();
        let net = RefNet::load(file.path());
        eprintln!(
            "random net (seed 12): generated in {generated:.2?}, loaded in {:.2?}",
            t.elapsed()
        );
        net
    })
}

fn pos(sfen: &str) -> Position {
    Position::from_sfen_with(sfen, Validation::Composed)
        .unwrap_or_else(|e| panic!("bad test SFEN {sfen}: {e}"))
}

/// The position rotated by 180 degrees with colours swapped (board, hands and side to move).
fn mirrored(p: &Position) -> Position {
    let mut s = String::new();
    for rank in 0..9u8 {
        if rank > 0 {
            s.push('/');
        }
        let mut empties = 0;
        for file in (0..9u8).rev() {
            let from = Square::new(80 - Square::from_file_rank(file, rank).raw());
            let pc = p.piece_on(from);
            if pc.is_empty() {
                empties += 1;
                continue;
            }
            if empties > 0 {
                s.push_str(&empties.to_string());
                empties = 0;
            }
            let swapped = hayanagi::Piece::new(!pc.color(), pc.piece_type());
            s.push_str(&format!("{swapped:?}"));
        }
        if empties > 0 {
            s.push_str(&empties.to_string());
        }
    }
    s.push_str(if p.side_to_move() == Color::Black {
        " w "
    } else {
        " b "
    });
    let mut hand = String::new();
    for c in Color::ALL {
        for pt in PieceType::HAND {
            let n = p.hand(c).count(pt);
            if n > 0 {
                let letter = pt.sfen_letter();
                // The mirror's black hand is the original white hand and vice versa.
                let letter = if c == Color::White {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                hand.push_str(&format!("{n}{letter}"));
            }
        }
    }
    s.push_str(if hand.is_empty() { "-" } else { &hand });
    s.push_str(" 1");
    pos(&s)
}

fn sorted(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v
}

fn non_king_pieces(p: &Position) -> usize {
    let board = Square::all()
        .filter(|&sq| {
            let pc = p.piece_on(sq);
            !pc.is_empty() && pc.piece_type() != PieceType::King
        })
        .count();
    let hands: u32 = Color::ALL.iter().map(|&c| p.hand(c).total()).sum();
    board + hands as usize
}

// ------------------------------------------------------------------------------------------
// Generator and loader
// ------------------------------------------------------------------------------------------

/// Index of the first differing byte, if any.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    const CHUNK: usize = 1 << 20;
    let mut offset = 0;
    for (x, y) in a.chunks(CHUNK).zip(b.chunks(CHUNK)) {
        if x != y {
            return Some(offset + x.iter().zip(y).position(|(p, q)| p != q).unwrap());
        }
        offset += x.len();
    }
    (a.len() != b.len()).then(|| a.len().min(b.len()))
}

#[test]
fn generator_matches_python_script() {
    let script = std::env::var("HAYANAGI_NNUE_SCRIPT").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/nnue/make_random_nn.py"
        )
        .to_string()
    });
    // (seed, script's --arch-string, the same string): the default case, and a seed that
    // makes the counter wrap around 2^64 with the empty architecture string.
    let cases: [(u64, &str, &str); 2] = [
        (12, "classic", nnue_ref::ARCH_CLASSIC),
        (u64::MAX, "none", ""),
    ];
    for (seed, arch_flag, arch) in cases {
        let ours = TempFile::new("rust");
        let theirs = TempFile::new("python");
        let t = Instant::now();
        nnue_ref::write_random_net_with_arch(ours.path(), seed, arch);
        let rust_time = t.elapsed();
        let t = Instant::now();
        let status = Command::new("python3")
            .arg(&script)
            .arg(theirs.path())
            .args(["--seed", &seed.to_string(), "--arch-string", arch_flag])
            .status()
            .expect("python3 must be installed (with numpy) to run this test");
        assert!(
            status.success(),
            "{script} failed ({status}); it needs numpy: python3 -m pip install numpy"
        );
        eprintln!(
            "seed {seed}: rust generator {rust_time:.2?}, python script {:.2?}",
            t.elapsed()
        );
        let a = std::fs::read(ours.path()).unwrap();
        let b = std::fs::read(theirs.path()).unwrap();
        assert_eq!(
            a.len() as u64,
            nnue_ref::file_size(arch.len()),
            "rust file size, seed {seed}"
        );
        assert_eq!(a.len(), b.len(), "file sizes differ, seed {seed}");
        if let Some(i) = first_difference(&a, &b) {
            panic!(
                "seed {seed}: files differ first at byte {i}: rust {:#04x}, python {:#04x}",
                a[i], b[i]
            );
        }
    }
}

#[test]
fn hashes_and_sizes_are_as_documented() {
    assert_eq!(
        nnue_ref::computed_hashes(),
        (
            nnue_ref::HASH_FT,
            nnue_ref::HASH_NETWORK,
            nnue_ref::HASH_WHOLE
        )
    );
    assert_eq!(nnue_ref::ARCH_CLASSIC.len(), 178);
    assert_eq!(nnue_ref::FILE_SIZE_CLASSIC, 64_217_066);
    assert_eq!(N_FEATURES, 125_388);
}

#[test]
fn loader_reads_the_values_numpy_reads() {
    // Values read with numpy from the script's seed-12 output, independently of this loader.
    let net = net();
    assert_eq!(net.arch, nnue_ref::ARCH_CLASSIC.as_bytes());
    assert_eq!(net.hash_whole, nnue_ref::HASH_WHOLE);
    assert_eq!(net.hash_ft, nnue_ref::HASH_FT);
    assert_eq!(net.hash_network, nnue_ref::HASH_NETWORK);
    assert_eq!(net.ft_bias[..8], [73, 21, 7, -3, 15, -8, 82, 74]);
    assert_eq!(net.ft_weight[..4], [-20, 9, 23, -18]);
    let last = (N_FEATURES - 1) * HALF + 252;
    assert_eq!(net.ft_weight[last..last + 4], [2, 23, 8, -6]);
    assert_eq!(net.b1[..2], [266, 3956]);
    assert_eq!(net.w1[..8], [0, 0, 6, -3, -3, -2, 2, -2]);
    assert_eq!(net.w1.iter().filter(|&&w| w == 127).count(), 15);
    assert_eq!(net.w1.iter().filter(|&&w| w == -128).count(), 14);
    assert_eq!(net.b3, -1284);
    assert_eq!(
        net.w3,
        [
            -28, -27, -24, 16, -16, 37, 5, 8, 5, -20, 2, 22, -19, -35, 30, -3, -11, -3, -9, 11,
            -23, -6, -26, 5, -6, 26, -17, 23, 20, -16, -6, 6
        ]
    );
}

#[test]
fn loader_rejects_malformed_files() {
    let file = TempFile::new("malformed");
    // Truncated: a valid header, then nothing.
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&nnue_ref::VERSION.to_le_bytes());
    bytes.extend_from_slice(&nnue_ref::HASH_WHOLE.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    std::fs::write(file.path(), &bytes).unwrap();
    let err = std::panic::catch_unwind(|| RefNet::load(file.path())).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(
        msg.contains("truncated in feature-transformer hash"),
        "{msg}"
    );
    // Wrong version.
    bytes[0] ^= 1;
    std::fs::write(file.path(), &bytes).unwrap();
    let err = std::panic::catch_unwind(|| RefNet::load(file.path())).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("version"), "{msg}");
    // Trailing byte after a complete file.
    nnue_ref::write_random_net_with_arch(file.path(), 3, "");
    let mut full = std::fs::read(file.path()).unwrap();
    full.push(0);
    std::fs::write(file.path(), &full).unwrap();
    let err = std::panic::catch_unwind(|| RefNet::load(file.path())).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("1 trailing bytes"), "{msg}");
}

// ------------------------------------------------------------------------------------------
// Features
// ------------------------------------------------------------------------------------------

#[test]
fn bona_piece_tables_partition_the_feature_space() {
    // Each value 1..FE_END belongs to at most one (kind, colour, count or square); board
    // values cover 90..1548 exactly; hand slots stay below 90.
    let mut owner = vec![0u32; FE_END];
    for pt in PieceType::HAND {
        let (f, e) = nnue_ref::hand_bases(pt);
        for base in [f, e] {
            for i in 0..nnue_ref::set_count(pt) as usize {
                owner[base + i] += 1;
            }
        }
        assert!(f.max(e) + (nnue_ref::set_count(pt) as usize) <= 90);
    }
    let board_kinds = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Gold,
        PieceType::Bishop,
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Dragon,
    ];
    for pt in board_kinds {
        let (f, e) = nnue_ref::board_bases(pt);
        assert_eq!(e, f + 81, "{pt:?}");
        for base in [f, e] {
            for sq in 0..81 {
                owner[base + sq] += 1;
            }
        }
    }
    for pt in [
        PieceType::ProPawn,
        PieceType::ProLance,
        PieceType::ProKnight,
        PieceType::ProSilver,
    ] {
        assert_eq!(
            nnue_ref::board_bases(pt),
            nnue_ref::board_bases(PieceType::Gold)
        );
    }
    assert_eq!(owner[0], 0, "BONA_PIECE_ZERO belongs to no piece");
    assert!(owner.iter().all(|&n| n <= 1));
    assert!(owner[90..].iter().all(|&n| n == 1));
}

#[test]
fn features_of_a_hand_made_position() {
    // Black: king 5i (sq 44), pawn 7g (sq 60), tokin 1c (sq 2), 3 pawns in hand.
    // White: king 4a (sq 27, rotated 53), dragon 2b (sq 10), a rook in hand.
    let p = pos("5k3/7+r1/8+P/9/9/9/2P6/9/4K4 b 3Pr 1");
    let kb = 44;
    let kw = 80 - 27;
    let zeros = PIECE_LIST_LEN - 7;
    let expect = |k: usize, pieces: &[usize]| {
        let mut v: Vec<usize> = pieces.iter().map(|bp| k * FE_END + bp).collect();
        v.extend(std::iter::repeat_n(k * FE_END, zeros));
        sorted(v)
    };
    // Black's view: tokin f_gold 738+2, dragon e_dragon 1467+10, pawn f_pawn 90+60,
    // hand pawns f_hand 1, 2, 3, white's rook e_hand 88.
    assert_eq!(
        sorted(nnue_ref::features(&p, Color::Black).unwrap()),
        expect(kb, &[740, 1477, 150, 1, 2, 3, 88])
    );
    // White's view (squares rotated): tokin e_gold 819+78, dragon f_dragon 1386+70,
    // pawn e_pawn 171+20, black's hand pawns e_hand 20, 21, 22, own rook f_hand 85.
    assert_eq!(
        sorted(nnue_ref::features(&p, Color::White).unwrap()),
        expect(kw, &[897, 1456, 191, 20, 21, 22, 85])
    );
}

#[test]
fn hand_pieces_are_numbered_from_the_base() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b 3P 1");
    let k = 44; // 5i for black; 5a = 36 rotated = 44 for white
    let black = sorted(nnue_ref::features(&p, Color::Black).unwrap());
    let white = sorted(nnue_ref::features(&p, Color::White).unwrap());
    assert_eq!(
        black[35..],
        [k * FE_END + 1, k * FE_END + 2, k * FE_END + 3]
    );
    assert_eq!(
        white[35..],
        [k * FE_END + 20, k * FE_END + 21, k * FE_END + 22]
    );
    assert!(black[..35]
        .iter()
        .chain(&white[..35])
        .all(|&f| f == k * FE_END));
    // Every piece in hand: 18 pawns, 4 each of L N S G, 2 each of B R, all black's.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1");
    let black = sorted(nnue_ref::features(&p, Color::Black).unwrap());
    let white = sorted(nnue_ref::features(&p, Color::White).unwrap());
    let f_hand: Vec<usize> = (1..=18)
        .chain(39..43)
        .chain(49..53)
        .chain(59..63)
        .chain(69..73)
        .chain(79..81)
        .chain(85..87)
        .map(|bp| k * FE_END + bp)
        .collect();
    let e_hand: Vec<usize> = (20..38)
        .chain(44..48)
        .chain(54..58)
        .chain(64..68)
        .chain(74..78)
        .chain(82..84)
        .chain(88..90)
        .map(|bp| k * FE_END + bp)
        .collect();
    assert_eq!(black, f_hand);
    assert_eq!(white, e_hand);
}

#[test]
fn handicaps_fill_the_list_with_zero_features() {
    let cases = [
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            0,
        ),
        (
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            1,
        ),
        (
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            1,
        ),
        (
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            2,
        ),
        (
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            6,
        ),
        ("4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", 10),
        ("4k4/9/9/9/9/9/9/9/4K4 b - 1", 38),
        ("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1", 0),
    ];
    for (sfen, missing) in cases {
        let p = pos(sfen);
        assert_eq!(missing, PIECE_LIST_LEN - non_king_pieces(&p), "{sfen}");
        for c in Color::ALL {
            let k = nnue_ref::king_index(&p, c).unwrap();
            let f = nnue_ref::features(&p, c).unwrap();
            assert_eq!(f.len(), PIECE_LIST_LEN, "{sfen} {c:?}");
            assert_eq!(
                f.iter().filter(|&&x| x == k * FE_END).count(),
                missing,
                "{sfen} {c:?}"
            );
            assert!(f.iter().all(|&x| x / FE_END == k), "{sfen} {c:?}");
        }
        let v = net().evaluate(&p, FV_SCALE);
        assert!(v.is_some(), "{sfen}");
    }
}

#[test]
fn missing_kings_cannot_be_evaluated() {
    for sfen in [
        "7lk/9/8S/9/9/9/9/7L1/9 b P 1",            // no black king
        "9/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1", // no white king
        "9/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",   // no king at all
        "lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1",
    ] {
        let p = pos(sfen);
        assert!(nnue_ref::unevaluable_reason(&p).is_some(), "{sfen}");
        assert_eq!(net().evaluate(&p, FV_SCALE), None, "{sfen}");
        assert_eq!(net().raw_output(&p), None, "{sfen}");
        for c in Color::ALL {
            assert_eq!(nnue_ref::features(&p, c), None, "{sfen} {c:?}");
        }
    }
}

#[test]
fn more_pieces_than_a_set_cannot_be_evaluated() {
    let too_many = [
        "4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
        "4k4/9/9/9/9/9/PPPPPPPPP/9/4K4 b 5P5p 1", // 9 on the board + 10 in hand
        "4k4/9/9/9/9/9/PPPPPPPPP/4+P4/4K4 b 5P4p 1", // a tokin counts as a pawn
        "4k4/9/9/9/9/9/9/9/4K4 b 3B 1",
        "4k4/9/9/9/4+b4/9/9/9/4K4 b Bb 1", // a horse counts as a bishop
        "4k4/9/9/9/4+r4/9/9/9/4K4 b 2R 1", // a dragon counts as a rook
        "4k4/9/9/9/9/9/9/9/4K4 b 3L2l 1",
        "4k4/9/9/9/4+N4/9/9/9/4K4 b 2N2n 1",
        "4k4/9/9/9/4+S4/9/9/9/4K4 b 4S 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 3G2g 1",
    ];
    for sfen in too_many {
        let p = pos(sfen);
        assert!(nnue_ref::unevaluable_reason(&p).is_some(), "{sfen}");
        assert_eq!(net().evaluate(&p, FV_SCALE), None, "{sfen}");
        for c in Color::ALL {
            assert_eq!(nnue_ref::features(&p, c), None, "{sfen} {c:?}");
        }
    }
    // Exactly a set, and promoted pieces not counted with golds.
    for sfen in [
        "4k4/9/9/9/9/9/PPPPPPPPP/9/4K4 b 5P4p 1",
        "4k4/9/9/4+P4/4+r4/9/9/9/4K4 b R2B4G4S4N4L17P 1",
    ] {
        let p = pos(sfen);
        assert_eq!(nnue_ref::unevaluable_reason(&p), None, "{sfen}");
        assert!(net().evaluate(&p, FV_SCALE).is_some(), "{sfen}");
    }
}

#[test]
fn random_positions_have_38_features_per_perspective() {
    common::random_positions(21, 2000, |p| {
        let pieces = non_king_pieces(p);
        for c in Color::ALL {
            let k = nnue_ref::king_index(p, c).unwrap();
            let f = nnue_ref::features(p, c).unwrap();
            assert_eq!(f.len(), PIECE_LIST_LEN);
            assert!(f.iter().all(|&x| x < N_FEATURES && x / FE_END == k));
            let zeros = f.iter().filter(|&&x| x == k * FE_END).count();
            assert_eq!(zeros, PIECE_LIST_LEN - pieces, "{}", p.to_sfen());
            let mut distinct = sorted(f.clone());
            distinct.dedup();
            assert_eq!(distinct.len(), pieces + usize::from(zeros > 0));
        }
    });
}

// ------------------------------------------------------------------------------------------
// Evaluation
// ------------------------------------------------------------------------------------------

#[test]
fn startpos_and_its_mirror_evaluate_the_same() {
    // Both perspectives share the feature transformer and each sees the board from its own
    // side, so rotating the board, swapping colours and passing the move gives the same
    // layer-1 input, hence the same value, for any net. Startpos mirrored is startpos with
    // white to move.
    let black = Position::startpos();
    let white = mirrored(&black);
    assert_eq!(
        white.to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let net = net();
    let v = net.evaluate(&black, FV_SCALE).unwrap();
    assert_eq!(net.evaluate(&white, FV_SCALE), Some(v));
    assert_eq!(net.transformed(&black), net.transformed(&white));
    eprintln!("startpos eval (seed 12, FV_SCALE {FV_SCALE}): {v}");
}

#[test]
fn mirrored_positions_evaluate_the_same() {
    let net = net();
    common::random_positions(33, 400, |p| {
        let m = mirrored(p);
        for c in Color::ALL {
            assert_eq!(
                sorted(nnue_ref::features(p, c).unwrap()),
                sorted(nnue_ref::features(&m, !c).unwrap()),
                "{} vs {}",
                p.to_sfen(),
                m.to_sfen()
            );
        }
        assert_eq!(
            net.raw_output(p),
            net.raw_output(&m),
            "{} vs {}",
            p.to_sfen(),
            m.to_sfen()
        );
    });
}

#[test]
fn evaluates_thousands_of_positions_quickly() {
    let net = net();
    let t = Instant::now();
    let mut values = Vec::new();
    common::random_positions(7, 3000, |p| {
        let v = net
            .evaluate(p, FV_SCALE)
            .expect("playout positions are evaluable");
        assert!(v.abs() <= nnue_ref::VALUE_MAX_EVAL);
        // Division truncating toward zero, then the clamp.
        let raw = net.raw_output(p).unwrap();
        assert_eq!(v, (raw / FV_SCALE).clamp(-31753, 31753));
        values.push(v);
    });
    eprintln!("3000 evaluations in {:.2?}", t.elapsed());
    values.sort_unstable();
    values.dedup();
    assert!(
        values.len() > 100,
        "evaluations look degenerate: {values:?}"
    );
}

/// Set the feature-transformer weight w(f, j).
fn set_ft(net: &mut RefNet, f: usize, j: usize, w: i16) {
    net.ft_weight[f * HALF + j] = w;
}

#[test]
fn hand_made_net_follows_the_inference_arithmetic() {
    // Kings 5i and 5a: k = 44 for both perspectives. Black holds a pawn: black's view has
    // feature 44*1548 + 1 (f_hand pawn), white's view 44*1548 + 20 (e_hand pawn).
    let k = 44;
    let black_to_move = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let white_to_move = pos("4k4/9/9/9/9/9/9/9/4K4 w P 1");

    let mut net = RefNet::zeroed();
    set_ft(&mut net, k * FE_END + 1, 0, 100); // black's view, output 0
    set_ft(&mut net, k * FE_END + 20, 1, 50); // white's view, output 1
    net.w1[0] = 64; // y1[0] = x[0]: first half (side to move), output 0
    net.w1[512 + 256 + 1] = 64; // y1[1] = x[257]: second half (opponent), output 1
    net.w2[0] = 64; // y2[0] = y1[0]
    net.w2[L1_OUT + 1] = 64; // y2[1] = y1[1]
    net.w3[0] = 3;
    net.w3[1] = -5;
    net.b3 = -67;
    assert_eq!(
        net.accumulator(&black_to_move, Color::Black).unwrap()[0],
        100
    );
    assert_eq!(
        net.accumulator(&black_to_move, Color::White).unwrap()[1],
        50
    );
    // Black to move: x[0] = 100, x[257] = 50; out = 300 - 250 - 67 = -17.
    assert_eq!(net.raw_output(&black_to_move), Some(-17));
    assert_eq!(net.evaluate(&black_to_move, 16), Some(-1)); // truncation, not floor (-2)
    assert_eq!(net.evaluate(&black_to_move, 1), Some(-17));
    // White to move: x[0] = white's acc[0] = 0, x[257] = black's acc[1] = 0; out = -67.
    assert_eq!(net.raw_output(&white_to_move), Some(-67));
    assert_eq!(net.evaluate(&white_to_move, 16), Some(-4));

    // Final clamp to +-31753.
    net.b3 = 1_000_000;
    assert_eq!(net.evaluate(&white_to_move, 16), Some(31753));
    assert_eq!(net.evaluate(&white_to_move, 32), Some(31250));
    net.b3 = -1_000_000;
    assert_eq!(net.evaluate(&white_to_move, 16), Some(-31753));

    // ClippedReLU: (h >> 6) clamped to 0..=127.
    let mut net = RefNet::zeroed();
    net.w2[0] = 64;
    net.w3[0] = 1;
    for (b1, y) in [
        (383, 5),
        (-1, 0),
        (-6400, 0),
        (127 * 64 + 63, 127),
        (1 << 20, 127),
    ] {
        net.b1[0] = b1;
        assert_eq!(net.raw_output(&black_to_move), Some(y), "b1 = {b1}");
    }

    // int16 accumulators wrap: bare kings give 38 zero features (both perspectives share
    // feature 44*1548). 38 * 800 = 30400 stays positive (x = 127); 38 * 900 = 34200 wraps
    // to -31336 (x = 0).
    let bare = pos("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    let mut net = RefNet::zeroed();
    net.w1[0] = 64;
    net.w2[0] = 64;
    net.w3[0] = 1;
    set_ft(&mut net, k * FE_END, 0, 800);
    assert_eq!(net.accumulator(&bare, Color::Black).unwrap()[0], 30400);
    assert_eq!(net.raw_output(&bare), Some(127));
    set_ft(&mut net, k * FE_END, 0, 900);
    assert_eq!(net.accumulator(&bare, Color::Black).unwrap()[0], -31336);
    assert_eq!(net.raw_output(&bare), Some(0));
}
