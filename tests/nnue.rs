//! NNUE evaluation with a generated random net (seed 12, `tests/data/nnue/make_random_nn.py`
//! rebuilt in Rust by `common::nnue_ref`): every evaluation equals the independent
//! from-scratch implementation in `common::nnue_ref`, incremental accumulators equal a
//! refresh, every SIMD path equals the portable one, and the loader and options behave.

mod common;

use common::nnue_ref::{write_random_net, RefNet};
use common::usi::UsiProcess;
use common::Rng;
use hayanagi::ffi::*;
use hayanagi::{legal, Color, PieceType, Position, Validation};
use hayanagi::{load_network, LoadErrorKind, Network, NnueEvaluator, SimdLevel, DEFAULT_FV_SCALE};
use hayanagi::{BestMove, Limits};
use hayanagi::{ClassicEvaluator, EvalConfig, EvalKind, Evaluator};
use hayanagi::{Engine, EngineError};
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Size of a HalfKP 256x2-32-32 file with the classic 178-byte architecture string.
const NET_BYTES: u64 = 64_217_066;

/// The random net, written once into Cargo's scratch folder for integration tests.
fn net_path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join("nnue-random-seed12.bin");
        if std::fs::metadata(&path).map(|m| m.len()).ok() != Some(NET_BYTES) {
            // Written aside and renamed: test binaries run at the same time.
            let tmp = dir.join(format!("nnue-random-seed12.{}.tmp", std::process::id()));
            write_random_net(&tmp, 12);
            std::fs::rename(&tmp, &path).expect("rename the generated net");
        }
        path
    })
}

fn net() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        let loaded = load_network(net_path()).expect("the random net loads");
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        Arc::new(loaded.network)
    })
    .clone()
}

fn reference() -> &'static RefNet {
    static REF: OnceLock<RefNet> = OnceLock::new();
    REF.get_or_init(|| RefNet::load(net_path()))
}

/// A network loaded again, with its kernels set to `level`.
fn net_with(level: SimdLevel) -> Arc<Network> {
    let mut n = load_network(net_path()).unwrap().network;
    assert!(n.set_simd(level));
    Arc::new(n)
}

fn config(fv_scale: i32) -> EvalConfig {
    EvalConfig {
        net: Some(net()),
        fv_scale,
    }
}

/// Handicap starts: absent pieces count as BonaPiece-0 features.
const HANDICAPS: [&str; 4] = [
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
];

/// Positions from random playouts from the handicap starts.
fn handicap_positions(seed: u64, count: usize, mut visit: impl FnMut(&mut Position)) {
    let mut rng = Rng(seed);
    let mut seen = 0;
    while seen < count {
        let mut pos = Position::from_sfen(HANDICAPS[rng.below(HANDICAPS.len())]).unwrap();
        for _ in 0..120 {
            visit(&mut pos);
            seen += 1;
            let moves = legal(&pos);
            if moves.is_empty() || seen >= count {
                break;
            }
            pos.do_move(moves.as_slice()[rng.below(moves.len())]);
        }
    }
}

#[test]
fn every_evaluation_equals_the_independent_implementation() {
    let cfg = config(DEFAULT_FV_SCALE);
    let reference = reference();
    let (mut n, mut white, mut big_hands) = (0, 0, 0);
    let mut check = |pos: &mut Position| {
        let want = reference
            .evaluate(pos, 16)
            .expect("game positions are evaluable");
        let mut ev = Evaluator::new(pos, &cfg);
        assert_eq!(ev.kind(), EvalKind::Nnue);
        assert_eq!(ev.evaluate(pos), want, "{}", pos.to_sfen());
        n += 1;
        white += (pos.side_to_move() == Color::White) as usize;
        let held = pos.hand(Color::Black).total() + pos.hand(Color::White).total();
        big_hands += (held >= 8) as usize;
    };
    common::random_positions(71, 3000, &mut check);
    handicap_positions(72, 1000, &mut check);
    assert_eq!(n, 4000);
    assert!(white > 1500, "{white} positions with white to move");
    assert!(
        big_hands > 300,
        "{big_hands} positions with 8+ pieces in hand"
    );
}

#[test]
fn fv_scale_divides_the_output_truncating() {
    for fv in [1, 7, 24, 128] {
        let cfg = config(fv);
        common::random_positions(73, 300, |pos| {
            let want = reference().evaluate(pos, fv).unwrap();
            assert_eq!(
                Evaluator::evaluate_from_scratch(pos, &cfg),
                want,
                "FV_SCALE {fv}: {}",
                pos.to_sfen()
            );
        });
    }
}

/// Play random lines; at every ply the incremental accumulators (updated lazily over
/// several plies, through king moves, captures, drops, null moves and take-backs, and
/// beyond the evaluator's initial 64-ply stack) must equal a refresh, and so must the
/// evaluation.
#[test]
fn incremental_accumulators_equal_a_refresh() {
    let net = net();
    let mut rng = Rng(74);
    let (mut plies, mut king_moves, mut after_null, mut deepest) = (0, 0, 0, 0);
    for start in common::PLAYOUT_STARTS.iter().chain(HANDICAPS.iter()) {
        let Ok(pos) = Position::from_sfen(start) else {
            continue;
        };
        for _line in 0..8 {
            let mut pos = pos.clone();
            let mut inc = NnueEvaluator::new(net.clone(), 16, &pos).unwrap();
            // true for a null move.
            let mut line: Vec<bool> = Vec::new();
            for _ in 0..150 {
                let moves = legal(&pos);
                if moves.is_empty() || (!line.is_empty() && rng.below(8) == 0) {
                    match line.pop() {
                        Some(true) => pos.undo_null_move(),
                        Some(false) => pos.undo_move(),
                        None => break,
                    }
                    inc.undo_move();
                    continue;
                }
                let null = !pos.in_check() && rng.below(8) == 0;
                if null {
                    inc.do_null_move();
                    pos.do_null_move();
                } else {
                    let m = moves.as_slice()[rng.below(moves.len())];
                    if !m.is_drop() && pos.piece_on(m.from()).piece_type() == PieceType::King {
                        king_moves += 1;
                    }
                    inc.do_move(&pos, m);
                    pos.do_move(m);
                }
                line.push(null);
                plies += 1;
                deepest = deepest.max(line.len());
                // Evaluate only now and then, so updates span several plies.
                if rng.below(3) == 0 {
                    after_null += null as usize;
                    let mut fresh = NnueEvaluator::new(net.clone(), 16, &pos).unwrap();
                    for c in Color::ALL {
                        assert_eq!(
                            inc.accumulator(c, &pos),
                            fresh.accumulator(c, &pos),
                            "{c:?} accumulator at ply {} in {}",
                            line.len(),
                            pos.to_sfen()
                        );
                    }
                    assert_eq!(inc.evaluate(&pos), fresh.evaluate(&pos));
                }
            }
        }
    }
    assert!(plies > 5000, "{plies} plies");
    assert!(king_moves > 100, "{king_moves} king moves");
    assert!(
        after_null > 50,
        "{after_null} evaluations right after a null move"
    );
    assert!(deepest > 64, "deepest line {deepest} plies");
}

/// A copy of the random net pushed to the limits: feature weights scaled so that int16
/// accumulators wrap, a third of the layer weights at -128/127, a quarter of the hidden
/// biases so close to the int32 limits that the sums wrap.
fn extreme_net_path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join("nnue-extreme-seed12.bin");
        if std::fs::metadata(&path).map(|m| m.len()).ok() == Some(NET_BYTES) {
            return path;
        }
        let mut b = std::fs::read(net_path()).unwrap();
        let ft = 12 + 178 + 4 + 512;
        let ft_end = ft + 125_388 * 512;
        for w in b[ft..ft_end].chunks_exact_mut(2) {
            let v = i16::from_le_bytes([w[0], w[1]]).wrapping_mul(600);
            w.copy_from_slice(&v.to_le_bytes());
        }
        let mut rng = Rng(76);
        let mut at = ft_end + 4;
        for (outs, ins) in [(32usize, 512usize), (32, 32), (1, 32)] {
            for _ in 0..outs {
                let near = (rng.next() % 8_000_000) as i32;
                let bias = match (outs, rng.below(8)) {
                    (1, _) => rng.below(4000) as i32 - 2000,
                    (_, 0) => i32::MAX - near,
                    (_, 1) => i32::MIN + near,
                    _ => rng.below(40_000) as i32 - 20_000,
                };
                b[at..at + 4].copy_from_slice(&bias.to_le_bytes());
                at += 4;
            }
            for x in &mut b[at..at + outs * ins] {
                *x = [0x80, 0x7F, *x][rng.below(3)];
            }
            at += outs * ins;
        }
        assert_eq!(at as u64, NET_BYTES);
        let tmp = dir.join(format!("nnue-extreme-seed12.{}.tmp", std::process::id()));
        std::fs::write(&tmp, &b).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        path
    })
}

#[test]
fn extreme_weights_give_the_same_numbers_on_every_path() {
    let reference = RefNet::load(extreme_net_path());
    let mut nets = Vec::new();
    for level in SimdLevel::supported() {
        let mut n = load_network(extreme_net_path()).unwrap().network;
        assert!(n.set_simd(level));
        nets.push((level, Arc::new(n)));
    }
    let mut distinct = std::collections::HashSet::new();
    common::random_positions(77, 400, |pos| {
        for fv in [16, 128] {
            let want = reference.evaluate(pos, fv).unwrap();
            distinct.insert(want);
            for (level, net) in &nets {
                let got = NnueEvaluator::evaluate_from_scratch(net, fv, pos).unwrap();
                assert_eq!(got, want, "{} on {}", level.name(), pos.to_sfen());
            }
        }
    });
    // Not everything clamped to one value: the test sees real numbers.
    assert!(distinct.len() > 20, "{distinct:?}");
}

/// Compare `level` with the portable kernels on positions and along lines.
fn simd_equals_scalar(level: SimdLevel) {
    if !level.is_supported() {
        eprintln!("{} not run: this CPU lacks it", level.name());
        return;
    }
    eprintln!("{} path compared with scalar", level.name());
    let (fast, scalar) = (net_with(level), net_with(SimdLevel::Scalar));
    assert_eq!(fast.simd(), level);
    let mut n = 0;
    common::random_positions(75, 1500, |pos| {
        let a = NnueEvaluator::evaluate_from_scratch(&fast, 16, pos);
        let b = NnueEvaluator::evaluate_from_scratch(&scalar, 16, pos);
        assert_eq!(a, b, "{}", pos.to_sfen());
        // One step further, incrementally, on both paths.
        let (mut ea, mut eb) = (
            NnueEvaluator::new(fast.clone(), 16, pos).unwrap(),
            NnueEvaluator::new(scalar.clone(), 16, pos).unwrap(),
        );
        for &m in legal(pos).iter().take(8) {
            ea.do_move(pos, m);
            eb.do_move(pos, m);
            pos.do_move(m);
            for c in Color::ALL {
                assert_eq!(ea.accumulator(c, pos), eb.accumulator(c, pos));
            }
            assert_eq!(ea.evaluate(pos), eb.evaluate(pos));
            pos.undo_move();
            ea.undo_move();
            eb.undo_move();
            n += 1;
        }
    });
    assert!(n > 5000);
}

#[test]
fn simd_avx2_equals_scalar() {
    simd_equals_scalar(SimdLevel::Avx2);
}

#[test]
fn simd_avx512_equals_scalar() {
    simd_equals_scalar(SimdLevel::Avx512);
}

#[test]
fn simd_avx512vnni_equals_scalar() {
    simd_equals_scalar(SimdLevel::Avx512Vnni);
}

#[test]
fn the_best_supported_kernels_are_chosen() {
    let supported = SimdLevel::supported();
    eprintln!(
        "supported kernels: {:?}",
        supported.iter().map(|l| l.name()).collect::<Vec<_>>()
    );
    if std::env::var_os("HAYANAGI_NNUE_SIMD").is_none() {
        assert_eq!(net().simd(), *supported.last().unwrap());
    }
}

#[test]
fn positions_the_net_cannot_evaluate_fall_back_to_the_hand_crafted_evaluation() {
    let cfg = config(16);
    for (sfen, validation) in [
        // A tsume problem: no attacking king.
        (
            "7lk/9/8S/9/9/9/9/7L1/9 b G2r2b3g3s4n2l18p 1",
            Validation::Composed,
        ),
        // More pawns than a set (19).
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
            Validation::Composed,
        ),
    ] {
        let pos = Position::from_sfen_with(sfen, validation).unwrap();
        assert_eq!(reference().evaluate(&pos, 16), None, "{sfen}");
        let mut ev = Evaluator::new(&pos, &cfg);
        assert_eq!(ev.kind(), EvalKind::Classic);
        assert_eq!(
            ev.evaluate(&pos),
            ClassicEvaluator::evaluate_from_scratch(&pos)
        );
    }
}

// ----- loading ------------------------------------------------------------------------------

/// A copy of the net with `edit` applied, in the scratch folder.
fn variant(name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = std::fs::read(net_path()).unwrap();
    edit(&mut bytes);
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("nnue-{name}.{}.bin", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Load `path` through an engine whose net is the good one: the error's kind and message,
/// and proof that the previous evaluation is kept.
fn load_fails(path: &Path) -> (LoadErrorKind, String) {
    let engine = Engine::new();
    engine
        .set_option("EvalFile", net_path().to_str().unwrap())
        .unwrap();
    engine.ready().unwrap();
    let before = engine.evaluate();
    assert_eq!(
        before,
        reference().evaluate(&Position::startpos(), 16).unwrap()
    );
    engine
        .set_option("EvalFile", path.to_str().unwrap())
        .unwrap();
    let err = match engine.ready() {
        Err(EngineError::EvalLoad(e)) => e,
        other => panic!("{} loaded: {other:?}", path.display()),
    };
    assert!(engine.network().is_some(), "the previous net is kept");
    assert_eq!(engine.evaluate(), before);
    (err.kind, err.message)
}

#[test]
fn the_loader_rejects_a_wrong_version() {
    let path = variant("version", |b| b[0] ^= 1);
    let (kind, msg) = load_fails(&path);
    assert_eq!(kind, LoadErrorKind::Format);
    assert!(msg.contains("wrong version 0x7AF32F17"), "{msg}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn the_loader_rejects_truncated_files() {
    let one_short = variant("short", |b| {
        b.pop();
    });
    let (kind, msg) = load_fails(&one_short);
    assert_eq!(kind, LoadErrorKind::Format);
    assert!(msg.contains("truncated: 64217065 bytes"), "{msg}");
    std::fs::remove_file(one_short).unwrap();
    let header_only = variant("header", |b| b.truncate(100));
    let (kind, msg) = load_fails(&header_only);
    assert_eq!(kind, LoadErrorKind::Format);
    assert!(msg.contains("does not fit a 100-byte file"), "{msg}");
    std::fs::remove_file(header_only).unwrap();
    let empty = variant("empty", |b| b.clear());
    let (kind, msg) = load_fails(&empty);
    assert_eq!(kind, LoadErrorKind::Format);
    assert!(msg.contains("truncated: 0 bytes"), "{msg}");
    std::fs::remove_file(empty).unwrap();
}

#[test]
fn the_loader_rejects_a_trailing_byte() {
    let path = variant("trailing", |b| b.push(0));
    let (kind, msg) = load_fails(&path);
    assert_eq!(kind, LoadErrorKind::Format);
    assert!(msg.contains("trailing bytes"), "{msg}");
    assert!(msg.contains("64217067 bytes"), "{msg}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_missing_file_is_an_io_error() {
    let (kind, msg) = load_fails(Path::new("/nonexistent/hayanagi/nn.bin"));
    assert_eq!(kind, LoadErrorKind::Io);
    assert!(msg.contains("/nonexistent/hayanagi/nn.bin"), "{msg}");
    // Not a regular file: a directory, a device (never opened, a FIFO would block).
    for path in ["/tmp", "/dev/zero"] {
        let (kind, msg) = load_fails(Path::new(path));
        assert_eq!(kind, LoadErrorKind::Io);
        assert!(msg.contains("not a regular file"), "{msg}");
    }
}

/// Collect what `engine` says on its log sink.
fn capture_log(engine: &Engine) -> Arc<Mutex<Vec<String>>> {
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = log.clone();
    engine.set_log_sink(Some(Box::new(move |m: &str| {
        sink.lock().unwrap().push(m.to_string())
    })));
    log
}

#[test]
fn a_hash_mismatch_is_only_a_warning_on_the_log_sink() {
    // The whole-net hash is bytes 4..8.
    let path = variant("hash", |b| b[4] ^= 0xFF);
    let engine = Engine::new();
    let log = capture_log(&engine);
    engine
        .set_option("EvalFile", path.to_str().unwrap())
        .unwrap();
    engine.ready().unwrap();
    assert!(engine.network().is_some());
    let log = log.lock().unwrap().clone();
    assert!(
        log.iter()
            .any(|l| l.contains("network hash is 0x3E5AA611, expected 0x3E5AA6EE")),
        "{log:?}"
    );
    assert_eq!(
        engine.evaluate(),
        reference().evaluate(&Position::startpos(), 16).unwrap()
    );
    std::fs::remove_file(path).unwrap();
}

#[test]
fn the_architecture_string_is_not_parsed() {
    let other = variant("arch", |b| {
        // Replace the 178-byte string with a 2-byte one.
        let mut v = b[..8].to_vec();
        v.extend_from_slice(&2u32.to_le_bytes());
        v.extend_from_slice(b"yo");
        v.extend_from_slice(&b[12 + 178..]);
        *b = v;
    });
    let loaded = load_network(&other).unwrap();
    assert_eq!(loaded.network.architecture(), "yo");
    let pos = Position::startpos();
    let other_net = Arc::new(loaded.network);
    assert_eq!(
        NnueEvaluator::evaluate_from_scratch(&other_net, 16, &pos),
        reference().evaluate(&pos, 16)
    );
    std::fs::remove_file(other).unwrap();
}

// ----- options, C ABI, USI and CLI ------------------------------------------------------------

#[test]
fn options_switch_between_net_and_hand_crafted_evaluation() {
    let engine = Engine::new();
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    engine.set_position(&format!("sfen {sfen}")).unwrap();
    let pos = Position::from_sfen(sfen).unwrap();
    let classic = ClassicEvaluator::evaluate_from_scratch(&pos);
    assert_eq!(engine.evaluate(), classic);
    // Set, but not loaded before `ready`.
    engine
        .set_option("EvalFile", net_path().to_str().unwrap())
        .unwrap();
    assert!(engine.network().is_none());
    engine.ready().unwrap();
    assert_eq!(engine.evaluate(), reference().evaluate(&pos, 16).unwrap());
    engine.set_option("FV_SCALE", "24").unwrap();
    assert_eq!(engine.evaluate(), reference().evaluate(&pos, 24).unwrap());
    assert!(matches!(
        engine.set_option("FV_SCALE", "0"),
        Err(EngineError::InvalidOptionValue { .. })
    ));
    // EvalDir names the folder of an nn.bin; EvalFile wins when both are set.
    engine.set_option("EvalFile", "<empty>").unwrap();
    engine.ready().unwrap();
    assert_eq!(engine.evaluate(), classic);
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("evaldir.{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::hard_link(net_path(), dir.join("nn.bin"))
        .or_else(|_| std::fs::copy(net_path(), dir.join("nn.bin")).map(|_| ()))
        .unwrap();
    engine.set_option("EvalDir", dir.to_str().unwrap()).unwrap();
    engine.ready().unwrap();
    assert_eq!(engine.evaluate(), reference().evaluate(&pos, 24).unwrap());
    engine.set_option("EvalDir", "").unwrap();
    engine.ready().unwrap();
    assert!(engine.network().is_none());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn relative_paths_are_resolved_against_the_working_directory() {
    let engine = Engine::new();
    let cwd = std::env::current_dir().unwrap();
    let rel = pathdiff(net_path(), &cwd);
    engine
        .set_option("EvalFile", rel.to_str().unwrap())
        .unwrap();
    assert_eq!(
        PathBuf::from(engine.options().eval_file),
        cwd.join(&rel),
        "the path is made absolute when the option is set"
    );
    engine.ready().unwrap();
    assert!(engine.network().is_some());
}

/// `path` relative to `base` (both absolute), with `..` steps as needed.
fn pathdiff(path: &Path, base: &Path) -> PathBuf {
    let (p, b): (Vec<_>, Vec<_>) = (path.components().collect(), base.components().collect());
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    out
}

#[test]
fn searches_use_the_net_and_play_legal_moves() {
    let engine = Engine::new();
    engine
        .set_option("EvalFile", net_path().to_str().unwrap())
        .unwrap();
    engine.set_option("Threads", "2").unwrap();
    engine.ready().unwrap();
    engine.set_position("startpos moves 7g7f 3c3d").unwrap();
    let r = engine.search_blocking(Limits::depth(6)).unwrap();
    let pos = engine.position();
    let BestMove::Move { best, .. } = r.best else {
        panic!("no move: {:?}", r.best)
    };
    assert!(legal(&pos).contains(best));
    assert!(r.nodes > 1000);
}

fn ffi_error(e: *mut hayanagi_engine) -> String {
    let mut buf = vec![0u8; 1024];
    let mut len = 0usize;
    assert_eq!(
        hayanagi_engine_last_error(e, buf.as_mut_ptr() as *mut _, buf.len(), &mut len),
        HAYANAGI_OK
    );
    String::from_utf8_lossy(&buf[..len]).into_owned()
}

#[test]
fn the_c_api_loads_nets_at_ready_and_reports_status_codes() {
    let mut e: *mut hayanagi_engine = std::ptr::null_mut();
    assert_eq!(hayanagi_engine_new(std::ptr::null(), &mut e), HAYANAGI_OK);
    let set = |name: &str, value: &str| {
        let (n, v) = (CString::new(name).unwrap(), CString::new(value).unwrap());
        hayanagi_engine_set_option(e, n.as_ptr(), v.as_ptr())
    };
    let eval = || {
        let mut v = 0i32;
        assert_eq!(hayanagi_engine_evaluate(e, &mut v), HAYANAGI_OK);
        v
    };
    let start = Position::startpos();
    assert_eq!(eval(), ClassicEvaluator::evaluate_from_scratch(&start));
    assert_eq!(set("EvalFile", net_path().to_str().unwrap()), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_ready(e), HAYANAGI_OK);
    let good = reference().evaluate(&start, 16).unwrap();
    assert_eq!(eval(), good);

    let trailing = variant("ffi-trailing", |b| b.push(7));
    assert_eq!(set("EvalFile", trailing.to_str().unwrap()), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_ready(e), HAYANAGI_FORMAT);
    assert!(ffi_error(e).contains("trailing bytes"), "{}", ffi_error(e));
    assert_eq!(eval(), good, "the previous net is kept");
    std::fs::remove_file(trailing).unwrap();

    assert_eq!(set("EvalFile", "/nonexistent/nn.bin"), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_ready(e), HAYANAGI_IO);
    assert!(ffi_error(e).contains("/nonexistent/nn.bin"));
    assert_eq!(set("FV_SCALE", "abc"), HAYANAGI_INVALID_ARG);
    assert_eq!(set("FV_SCALE", "129"), HAYANAGI_INVALID_ARG);
    assert_eq!(eval(), good);
    hayanagi_engine_free(e);
}

#[test]
fn usi_eval_prints_the_net_evaluation() {
    let pos =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")
            .unwrap();
    let mut usi = UsiProcess::start();
    usi.send(&format!(
        "setoption name EvalFile value {}",
        net_path().display()
    ));
    usi.sync("setoption name FV_SCALE value 24");
    usi.send("position startpos moves 7g7f");
    usi.send("eval");
    let (line, _) = usi.expect_prefix("eval = ");
    assert_eq!(
        line,
        format!("eval = {}", reference().evaluate(&pos, 24).unwrap())
    );
    // A file that cannot be loaded: an error line, then readyok; the net stays.
    let lines = usi.sync("setoption name EvalFile value /nonexistent/nn.bin");
    assert!(
        lines.iter().any(|l| l.contains("/nonexistent/nn.bin")),
        "{lines:?}"
    );
    usi.send("eval");
    let (again, _) = usi.expect_prefix("eval = ");
    assert_eq!(again, line);
    usi.close();
}

#[test]
fn cli_eval_prints_the_net_evaluation() {
    let pos = Position::from_sfen(
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hayanagi"))
        .args(["eval", "--sfen", &pos.to_sfen(), "--option"])
        .arg(format!("EvalFile={}", net_path().display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("eval = {}", reference().evaluate(&pos, 16).unwrap())
    );
    // --moves applies before evaluating; without a net the hand-crafted value is printed.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hayanagi"))
        .args(["eval", "--sfen", "startpos", "--moves", "7g7f 3c3d"])
        .output()
        .unwrap();
    let mut after = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        let mv = after.parse_usi_move(m).unwrap();
        after.do_move(mv);
    }
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("eval = {}", ClassicEvaluator::evaluate_from_scratch(&after))
    );
    // A bad net: exit status 2 and the reason.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hayanagi"))
        .args([
            "eval",
            "--sfen",
            "startpos",
            "--option",
            "EvalFile=/nonexistent/nn.bin",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/nn.bin"));
}

#[test]
fn a_failed_load_does_not_stop_a_new_game_from_clearing_the_table() {
    let engine = Engine::new();
    engine
        .set_option("EvalFile", "/nonexistent/nn.bin")
        .unwrap();
    engine.set_position("startpos").unwrap();
    engine.search_blocking(Limits::depth(6)).unwrap();
    assert!(engine.probe_tt().is_some());
    assert!(matches!(engine.new_game(), Err(EngineError::EvalLoad(_))));
    assert!(engine.probe_tt().is_none(), "the table was cleared");
}

#[test]
fn go_never_loads_a_net_and_says_so_when_ready_was_skipped() {
    let engine = Engine::new();
    let log = capture_log(&engine);
    engine
        .set_option("EvalFile", net_path().to_str().unwrap())
        .unwrap();
    engine.search_blocking(Limits::depth(2)).unwrap();
    assert!(engine.network().is_none());
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("is not loaded")),
        "{:?}",
        log.lock().unwrap()
    );
}

#[test]
fn text_from_a_net_file_cannot_pass_for_usi_output() {
    // A wrong-size file whose architecture string holds USI answers on their own lines.
    let arch = b"x\nbestmove resign\r\nreadyok";
    let path = variant("inject", |b| {
        let mut v = b[..8].to_vec();
        v.extend_from_slice(&(arch.len() as u32).to_le_bytes());
        v.extend_from_slice(arch);
        v.extend_from_slice(&b[12 + 178..b.len() - 1]);
        *b = v;
    });
    let mut usi = UsiProcess::start();
    let lines = usi.sync(&format!("setoption name EvalFile value {}", path.display()));
    assert!(lines.iter().any(|l| l.contains("truncated")), "{lines:?}");
    // Everything before the real `readyok` is an info string.
    assert!(
        lines.iter().all(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    usi.close();
    std::fs::remove_file(path).unwrap();
}
