//! The df-pn mate solver: exact shortest lengths on the sample problems, mate-in-one sets,
//! rule traps (pawn-drop mate, repetition), limits and replayed main lines.

mod common;

use hayanagi::{is_mating_line, solve_mate as solve, MateLimits, MateReport, MateResult};
use hayanagi::{Position, Validation};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn position(sfen: &str) -> Position {
    Position::from_sfen_with(sfen, Validation::Composed).expect(sfen)
}

/// Limits with a node budget, a table size and the shortest-or-first choice (two minutes
/// at most, against a hang).
fn limits(
    stop: &AtomicBool,
    max_nodes: Option<u64>,
    table_mib: usize,
    shortest: bool,
) -> MateLimits<'_> {
    MateLimits {
        deadline: Some(Instant::now() + Duration::from_secs(120)),
        max_nodes,
        stop,
        table_mib,
        shortest,
        max_len: None,
    }
}

fn solve_with(pos: &Position, max_nodes: Option<u64>, stop: &AtomicBool) -> MateReport {
    solve(pos, limits(stop, max_nodes, 16, true))
}

fn solve_sfen(sfen: &str) -> MateReport {
    solve_with(&position(sfen), None, &AtomicBool::new(false))
}

fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(common::data_path(name))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn solves_every_sample_problem_with_its_exact_length() {
    let rows = common::tsv_rows("tsume/tsume_sample100.tsv");
    assert_eq!(rows.len(), 100);
    for row in rows {
        let (sfen, len) = (&row[0], row[1].trim().parse::<usize>().unwrap());
        let report = solve_sfen(sfen);
        match &report.result {
            MateResult::Mate(line) => {
                assert_eq!(line.len(), len, "{sfen}: {line:?}");
                assert!(report.shortest, "{sfen}");
                assert!(is_mating_line(&position(sfen), line), "{sfen}");
            }
            other => panic!("{sfen}: expected mate in {len}, got {other:?}"),
        }
    }
}

#[test]
fn first_proof_mode_answers_a_mate_for_every_sample_problem() {
    // Without settling the shortest length: a replayed mate (its length may differ from
    // the shortest either way: the defence in it is the longest the table knows of, not
    // necessarily the best). Some of these lines pass through nodes the table proves only
    // by hand dominance, whose children must be searched again to read the line out.
    let stop = AtomicBool::new(false);
    for row in common::tsv_rows("tsume/tsume_sample100.tsv") {
        let sfen = &row[0];
        let pos = position(sfen);
        let r = solve(&pos, limits(&stop, Some(50_000_000), 16, false));
        match &r.result {
            MateResult::Mate(line) => assert!(is_mating_line(&pos, line), "{sfen}"),
            other => panic!("{sfen}: {other:?}"),
        }
        assert_eq!(r.counters.contradictions, 0, "{sfen}");
    }
}

#[test]
fn every_mate_in_one_is_found_as_one() {
    let sfens = lines("tsume/mate1.sfen");
    assert_eq!(sfens.len(), 1568);
    for sfen in sfens {
        match solve_sfen(&sfen).result {
            MateResult::Mate(line) => assert_eq!(line.len(), 1, "{sfen}"),
            other => panic!("{sfen}: {other:?}"),
        }
    }
}

#[test]
fn first_proof_mode_finds_every_mate_in_one_as_one() {
    // An attacker node leaves checks uncounted once one of them has a single evasion
    // (`MateVariant::lazy_lookahead`), but not where a check among them mates at once: the
    // root's one-ply look-ahead then finds the mate, and the solve takes that one node
    // (without the question, the check with one evasion would be searched first).
    let stop = AtomicBool::new(false);
    let mut guarded = 0;
    for sfen in lines("tsume/mate1.sfen") {
        let pos = position(&sfen);
        let r = solve(&pos, limits(&stop, Some(1_000_000), 16, false));
        match &r.result {
            MateResult::Mate(line) => assert_eq!(line.len(), 1, "{sfen}"),
            other => panic!("{sfen}: {other:?}"),
        }
        assert_eq!(r.nodes, 1, "{sfen}");
        guarded += (r.counters.lazy_guards > 0) as u32;
    }
    // The positions where the question decided something.
    assert!(
        guarded >= 50,
        "the mate-in-one question asked in {guarded} positions"
    );
}

#[test]
fn no_mate_in_one_set_never_reports_mate_in_one() {
    let sfens = lines("tsume/nomate1.sfen");
    assert_eq!(sfens.len(), 1574);
    let stop = AtomicBool::new(false);
    let mut longer = 0;
    for sfen in sfens {
        let pos = position(&sfen);
        // Some of these have longer mates; a node cap keeps the run short.
        let report = solve_with(&pos, Some(20_000), &stop);
        if let MateResult::Mate(line) = &report.result {
            assert!(line.len() >= 3, "{sfen}: {line:?}");
            assert!(is_mating_line(&pos, line), "{sfen}");
            longer += 1;
        }
    }
    eprintln!("nomate1: {longer} positions have a longer mate");
}

#[test]
fn pawn_drop_mate_is_no_mate() {
    // rules.tsv R01: P*1b would mate but is illegal; nothing else mates.
    assert_eq!(
        solve_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P 1").result,
        MateResult::NoMate
    );
    // With a lance in hand instead the same drop square mates.
    let r = solve_sfen("7lk/9/8S/9/9/9/9/7L1/8K b L 1");
    assert!(
        matches!(r.result, MateResult::Mate(ref l) if l.len() == 1),
        "{r:?}"
    );
}

#[test]
fn defender_pawn_drop_cannot_be_mate_either() {
    // R02: the only mate is 7b6b (mate in one).
    let r = solve_sfen("4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1");
    match r.result {
        MateResult::Mate(line) => {
            assert_eq!(line.iter().map(|m| m.usi()).collect::<Vec<_>>(), ["7b6b"])
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn repetition_is_not_a_proof() {
    // A lone rook can check forever but never mate: without sound repetition handling the
    // search would chase the cycles of checks until its budget ran out (timeout) or, with
    // repetition counted as a win, "prove" a mate.
    let sfen = "7k1/9/9/9/9/9/9/9/K7R b - 1";
    let r = solve_sfen(sfen);
    assert_eq!(r.result, MateResult::NoMate, "{sfen}");
    // The same after a few moves of checks and escapes: the game history before the root
    // joins the path.
    let mut pos = position(sfen);
    for m in ["1i1a", "2a2b", "1a1b", "2b2a"] {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.do_move(mv);
    }
    let r = solve_with(&pos, None, &AtomicBool::new(false));
    assert_eq!(r.result, MateResult::NoMate);
}

/// A mating line that passes a position for the fourth time is no mate: the game ends in
/// sennichite first (the attacker checking all the way, it loses). Rook checks from 1c and
/// 1b while the king steps between 2b and 2c, then the mate in three from the position
/// after R*1c 2c2b.
#[test]
fn a_line_through_a_fourth_occurrence_is_no_mate() {
    let sfen = "l7l/3+B5/p4g1k1/4pppp1/P1+B4np/1PpPP1P1P/1S3P3/1pG1K4/L5SNg b R2SL2Prg2np 93";
    let mut start = position(sfen);
    for m in ["R*1c", "2c2b"] {
        let mv = start.parse_usi_move(m).unwrap();
        start.do_move(mv);
    }
    let MateResult::Mate(mate) = solve_with(&start, None, &AtomicBool::new(false)).result else {
        panic!("a mate in three");
    };
    assert_eq!(mate.len(), 3);
    let mate: Vec<String> = mate.iter().map(|m| m.usi()).collect();
    let cycle = ["1c1b", "2b2c", "1b1c", "2c2b"];
    let pos = position(sfen);
    for cycles in 0..4 {
        let mut usi = vec!["R*1c".to_string(), "2c2b".to_string()];
        for _ in 0..cycles {
            usi.extend(cycle.iter().map(|m| m.to_string()));
        }
        usi.extend(mate.iter().cloned());
        let mut p = pos.clone();
        let line: Vec<_> = usi
            .iter()
            .map(|m| {
                let mv = p.parse_usi_move(m).unwrap();
                p.do_move(mv);
                mv
            })
            .collect();
        // After R*1c 2c2b and three cycles, that position stands for the fourth time.
        assert_eq!(is_mating_line(&pos, &line), cycles < 3, "{cycles} cycles");
    }
}

#[test]
fn limits_and_stop_give_timeout() {
    let rows = common::tsv_rows("tsume/tsume_sample100.tsv");
    let eleven = rows.iter().find(|r| r[1].trim() == "11").unwrap();
    let pos = position(&eleven[0]);
    let r = solve_with(&pos, Some(100), &AtomicBool::new(false));
    assert_eq!(r.result, MateResult::Timeout);
    let r = solve_with(&pos, None, &AtomicBool::new(true));
    assert_eq!(r.result, MateResult::Timeout);
}

#[test]
fn engine_go_mate_answers_once_and_is_a_search() {
    use hayanagi::{Engine, MateRequest};
    use std::sync::{Arc, Mutex};
    let engine = Engine::new();
    let answers: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = answers.clone();
    engine.set_mate_sink(Some(Box::new(move |r: &MateReport| {
        sink.lock().unwrap().push(r.to_usi());
    })));
    let bestmoves = Arc::new(Mutex::new(0));
    let count = bestmoves.clone();
    engine.set_bestmove_sink(Some(Box::new(move |_| *count.lock().unwrap() += 1)));
    engine
        .set_position("sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1")
        .unwrap();
    let r = engine.mate_blocking(MateRequest::default()).unwrap();
    assert_eq!(r.to_usi(), "checkmate 7b6b");
    assert!(r.shortest);
    assert_eq!(*answers.lock().unwrap(), ["checkmate 7b6b"]);
    // Microcosmos with no limit: busy until stopped, then one timeout answer.
    let long = common::tsv_rows("tsume/famous_long_tsume.tsv");
    engine
        .set_position(&format!("sfen {}", long[0][2]))
        .unwrap();
    engine.go_mate(MateRequest::default()).unwrap();
    assert!(engine.is_searching());
    assert_eq!(
        engine.go_mate(MateRequest::default()),
        Err(hayanagi::EngineError::Busy)
    );
    assert_eq!(
        engine.set_position("startpos"),
        Err(hayanagi::EngineError::Busy)
    );
    assert!(!engine.wait(Some(Duration::from_millis(30))));
    engine.stop();
    assert!(engine.wait(Some(Duration::from_secs(60))));
    assert_eq!(answers.lock().unwrap().len(), 2);
    assert_eq!(answers.lock().unwrap()[1], "checkmate timeout");
    assert_eq!(*bestmoves.lock().unwrap(), 0);
}

#[test]
fn normal_search_plays_the_mate_its_side_solver_proves() {
    use hayanagi::Engine;
    use hayanagi::{BestMove, Info, Limits, Score};
    use std::sync::{Arc, Mutex};
    // A mate in 11 (tsume_sample100) that a shallow search does not see.
    let sfen = "+P2+Rb1gnl/7k1/n1p1+Bp1pp/p5p2/1p1pP2P1/2+s6/PsNGSPP1P/3KG4/L5RNL b SL3Pg 83";
    let engine = Engine::new();
    engine.set_position(&format!("sfen {sfen}")).unwrap();
    engine.set_option("RootMateSearch", "false").unwrap();
    let r = engine.search_blocking(Limits::depth(4)).unwrap();
    assert!(
        !matches!(r.score.map(Score::from_internal), Some(Score::Mate(_))),
        "{:?}",
        r.score
    );
    // With the solver beside it, a one-minute search ends as soon as the mate is proven,
    // plays its first move and reports the line.
    engine.set_option("RootMateSearch", "true").unwrap();
    let infos: Arc<Mutex<Vec<Info>>> = Arc::default();
    let sink = infos.clone();
    engine.set_info_sink(Some(Box::new(move |i: &Info| {
        sink.lock().unwrap().push(i.clone())
    })));
    let start = Instant::now();
    let r = engine.search_blocking(Limits::movetime(60_000)).unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    let Some(Score::Mate(n)) = r.score.map(Score::from_internal) else {
        panic!("{:?}", r.score)
    };
    assert!(n >= 11 && n % 2 == 1, "mate {n}");
    let last = infos.lock().unwrap().last().cloned().unwrap();
    assert_eq!(last.score, Score::Mate(n));
    assert_eq!(last.pv.len(), n as usize);
    assert!(is_mating_line(&position(sfen), &last.pv));
    let BestMove::Move { best, .. } = r.best else {
        panic!("{:?}", r.best)
    };
    assert_eq!(best, last.pv[0]);
}

#[test]
fn earlier_game_positions_may_occur_again() {
    // Only a fourth occurrence ends a game: a mate whose line passes through positions of
    // the game for the second or third time is still a mate.
    let sfen = "7n1/6k2/9/8+R/6S2/9/9/9/9 b G 1";
    let mut pos = position(sfen);
    for m in [
        "1d1b", "3b3a", "1b1d", "3a3b", "1d1b", "3b3a", "1b1d", "3a3b",
    ] {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.do_move(mv);
    }
    let r = solve_with(&pos, None, &AtomicBool::new(false));
    match r.result {
        MateResult::Mate(line) => {
            let moves: Vec<String> = line.iter().map(|m| m.usi()).collect();
            assert_eq!(moves, ["1d1b", "3b3a", "G*3b"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_proven_mate_is_reported_even_when_the_budget_ends_early() {
    let stop = AtomicBool::new(false);
    // The first proof of this mate in 9 comes just before 1,024 nodes; the shorter-mate
    // pass is then cut off, and the line is read out of the table (re-proving what was
    // replaced) instead of answering timeout.
    let pos =
        position("l6+Pl/1+P2k1g2/3ppsp1b/8p/p1bn5/1pp3P1P/PP1PPPN2/2GSK1S2/L4G2L w RGS2NPrp 60");
    let r = solve_with(&pos, Some(1024), &stop);
    match &r.result {
        MateResult::Mate(line) => assert!(is_mating_line(&pos, line)),
        other => panic!("{other:?}"),
    }
    // A first-proof search whose table has replaced entries of the proof.
    let pos = position("7nl/3pS4/4+R2p1/p2P2p1p/2SnbG3/4k2PP/PPNg1+sP2/LGr3SK1/5G1NL w 4Pbl3p 3");
    let r = solve(&pos, limits(&stop, None, 1, false));
    match &r.result {
        MateResult::Mate(line) => assert!(is_mating_line(&pos, line)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn side_solver_respects_the_move_limit() {
    use hayanagi::Engine;
    use hayanagi::{Limits, Score};
    // White mates in 5 at move 318; with MaxMovesToDraw 320 the game is drawn first.
    let sfen =
        "sfen l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 318";
    let engine = Engine::new();
    engine.set_position(sfen).unwrap();
    let r = engine.search_blocking(Limits::movetime(60_000)).unwrap();
    assert_eq!(r.score.map(Score::from_internal), Some(Score::Mate(5)));
    engine.set_option("MaxMovesToDraw", "320").unwrap();
    let r = engine.search_blocking(Limits::depth(6)).unwrap();
    assert!(
        !matches!(r.score.map(Score::from_internal), Some(Score::Mate(_))),
        "{:?}",
        r.score
    );
}

#[test]
fn a_small_table_still_gives_exact_answers_and_is_collected_when_full() {
    // A 1 MiB table (about 26,000 entries): entries are replaced and, when it is full,
    // collected; every sample answer is still the exact shortest mate.
    let stop = AtomicBool::new(false);
    for row in common::tsv_rows("tsume/tsume_sample100.tsv") {
        let pos = position(&row[0]);
        let r = solve(&pos, limits(&stop, Some(50_000_000), 1, true));
        match &r.result {
            MateResult::Mate(line) => {
                assert_eq!(line.len().to_string(), row[1].trim(), "{}", row[0]);
                assert!(r.shortest);
                assert!(is_mating_line(&pos, line));
            }
            other => panic!("{}: {other:?}", row[0]),
        }
    }
    // Microcosmos for 300,000 nodes fills the table many times over.
    let long = common::tsv_rows("tsume/famous_long_tsume.tsv");
    let r = solve(
        &position(&long[0][2]),
        limits(&stop, Some(300_000), 1, true),
    );
    assert_eq!(r.result, MateResult::Timeout);
    assert!(r.collections > 0, "no garbage collection ran");
}

/// The sample problems with their pieces in hand dealt out again: the attacker's given to
/// the defender one by one, the defender's to the attacker.
fn redealt(sfen: &str, rng: &mut common::Rng) -> String {
    let f: Vec<&str> = sfen.split(' ').collect();
    let attacker_black = f[1] == "b";
    let mut pieces: Vec<char> = Vec::new();
    let mut count = 0;
    for c in f[2].chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d;
            continue;
        }
        for _ in 0..count.max(1) {
            pieces.push(c);
        }
        count = 0;
    }
    // Each piece goes to either side at random (the kind stays); SFEN wants each kind once
    // with its count.
    let mut counts = std::collections::BTreeMap::<char, u32>::new();
    for c in pieces {
        let to_attacker = rng.below(2) == 0;
        let black = to_attacker == attacker_black;
        let letter = if black {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        };
        *counts.entry(letter).or_default() += 1;
    }
    let mut hand = String::new();
    for (c, n) in counts {
        if n > 1 {
            hand += &n.to_string();
        }
        hand.push(c);
    }
    if hand.is_empty() {
        hand.push('-');
    }
    format!("{} {} {} 1", f[0], f[1], hand)
}

#[test]
fn proof_pieces_and_delayed_moves_change_no_answer_when_hands_are_dealt_out_again() {
    // Whether a mate exists and its shortest length do not depend on where the table stores
    // results, in which order moves enter or how the last plies of a bound are settled: the
    // solver with proof and disproof pieces, delayed expansion and the mate-in-one horizon
    // must agree with the one without,
    // on positions whose hands put the pitfalls (kinds one side lacks, every copy held by
    // the other) everywhere.
    use hayanagi::{solve_mate_variant, MateVariant};
    let stop = AtomicBool::new(false);
    let mut rng = common::Rng(0x5eed_1234_abcd_0001);
    let (mut compared, mut mates) = (0, 0);
    for row in common::tsv_rows("tsume/tsume_sample100.tsv")
        .iter()
        .step_by(2)
    {
        for _ in 0..3 {
            let sfen = redealt(&row[0], &mut rng);
            let Ok(pos) = Position::from_sfen_with(&sfen, Validation::Composed) else {
                continue;
            };
            let answer = |variant: &str| {
                let r = solve_mate_variant(
                    &pos,
                    limits(&stop, Some(300_000), 16, true),
                    MateVariant::by_name(variant).unwrap(),
                );
                match r.result {
                    MateResult::Mate(line) => {
                        assert!(is_mating_line(&pos, &line), "{sfen}");
                        // A length is an answer only once settled as the shortest.
                        r.shortest.then_some(Some(line.len()))
                    }
                    MateResult::NoMate => Some(None),
                    MateResult::Timeout => None,
                }
            };
            let (with, without) = (answer("default"), answer("plain"));
            if let (Some(a), Some(b)) = (with, without) {
                assert_eq!(a, b, "{sfen}");
                compared += 1;
                mates += a.is_some() as u32;
            }
        }
    }
    assert!(compared >= 100, "only {compared} answers compared");
    assert!(
        mates >= 20 && mates < compared,
        "{mates} mates of {compared}"
    );
}

#[test]
fn first_proof_mode_answers_a_mate_for_every_generated_problem() {
    // tests/data/tsume/generated.tsv (scripts/gen-tsume.py --seed 1): 1,050 mates of 3-15
    // plies found by cshogi. One of them (the 15-ply problem on line 974 of the file) was answered as a
    // timeout: its proof was found, but while reading the line out, the children's proofs
    // of one defender node kept replacing each other in their table cluster.
    let stop = AtomicBool::new(false);
    let rows = common::tsv_rows("tsume/generated.tsv");
    assert_eq!(rows.len(), 1050);
    // Every problem in an optimised build, every tenth in a debug one.
    let step = if cfg!(debug_assertions) { 10 } else { 1 };
    for row in rows.iter().step_by(step) {
        let sfen = &row[0];
        let pos = position(sfen);
        let r = solve(&pos, limits(&stop, Some(5_000_000), 16, false));
        match &r.result {
            MateResult::Mate(line) => assert!(is_mating_line(&pos, line), "{sfen}"),
            other => panic!("{sfen}: {other:?}"),
        }
        assert_eq!(r.counters.contradictions, 0, "{sfen}");
    }
}

#[test]
fn a_bound_two_plies_short_finds_no_mate_with_or_without_the_horizon_tests() {
    // With the ply bound two below each sample problem's length there is no mate. The
    // defender nodes with two or four plies left are then settled by static tests of their
    // replies (mate in one, mate within three: `mate_in_one_horizon`,
    // `mate_in_three_horizon`): the answer must be the one the search of every reply gives,
    // and the mate of the full length must still be found. So with the attacker nodes'
    // mate-in-three test of their checks (`mate_in_three_at_checks`), whose proofs claim
    // three plies.
    use hayanagi::{solve_mate_variant, MateVariant};
    let stop = AtomicBool::new(false);
    let (mut ones, mut threes) = (0, 0);
    for row in common::tsv_rows("tsume/tsume_sample100.tsv")
        .iter()
        .step_by(3)
    {
        let (sfen, len) = (&row[0], row[1].trim().parse::<u16>().unwrap());
        let pos = position(sfen);
        for name in [
            "default",
            "no-mate-in-three-horizon",
            "no-mate-in-one-horizon",
            "mate-in-three-at-checks",
            "mate-in-three-at-checks-2",
        ] {
            let variant = MateVariant::by_name(name).unwrap();
            let bounded = |max_len: u16| {
                let limits = MateLimits {
                    max_len: Some(max_len),
                    ..limits(&stop, Some(2_000_000), 16, true)
                };
                solve_mate_variant(&pos, limits, variant)
            };
            let short = bounded(len - 2);
            assert_eq!(
                short.result,
                MateResult::NoMate,
                "{sfen} within {}",
                len - 2
            );
            if name == "default" {
                ones += short.counters.mate_in_one_tests;
                threes += short.counters.mate_in_three_tests;
            }
            match bounded(len).result {
                MateResult::Mate(line) => assert_eq!(line.len(), len as usize, "{sfen}"),
                other => panic!("{sfen}: expected mate in {len}, got {other:?}"),
            }
        }
    }
    assert!(
        ones > 20 && threes > 100,
        "{ones} mate-in-one and {threes} mate-within-three tests"
    );
}

/// `lazy-lookahead-N` names how many new checks must be left for any to stay uncounted, 1
/// to 20; `eager-lookahead` counts every one.
#[test]
fn the_lazy_lookahead_variant_names_its_least_count() {
    let least = |name: &str| hayanagi::MateVariant::by_name(name).map(|v| v.lazy_lookahead);
    assert_eq!(least("default"), Some(4));
    assert_eq!(least("eager-lookahead"), Some(0));
    assert_eq!(least("plain"), Some(0));
    assert_eq!(least("lazy-lookahead-1"), Some(1));
    assert_eq!(least("lazy-lookahead-20"), Some(20));
    for bad in [
        "lazy-lookahead-0",
        "lazy-lookahead-21",
        "lazy-lookahead-",
        "lazy-lookahead",
    ] {
        assert_eq!(least(bad), None, "{bad}");
    }
}

/// `mate-in-three-at-checks-N` names the test's evasion limit N, 1 to 9, and nothing else.
#[test]
fn the_mate_in_three_variant_names_its_evasion_limit() {
    let most = |name: &str| hayanagi::MateVariant::by_name(name).map(|v| v.mate_in_three_at_checks);
    assert_eq!(most("mate-in-three-at-checks"), Some(5));
    assert_eq!(most("mate-in-three-at-checks-1"), Some(1));
    assert_eq!(most("mate-in-three-at-checks-9"), Some(9));
    for bad in [
        "mate-in-three-at-checks-0",
        "mate-in-three-at-checks-10",
        "mate-in-three-at-checks-x",
        "mate-in-three-at-checks-",
    ] {
        assert_eq!(most(bad), None, "{bad}");
    }
}
