//! The USI engine driven through pipes, as a GUI drives it.

mod common;

use common::usi::UsiProcess;
use common::{data_path, tsv_rows};
use hayanagi::{legal, Move, Position, Validation};
use hayanagi::{option_specs, OptionKind};
use std::time::Duration;

fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove")
}

/// The move of a `bestmove` line, checked legal in `pos`.
fn legal_best(line: &str, pos: &Position) -> Move {
    let word = line.split_whitespace().nth(1).expect("a move");
    let m = pos.parse_usi_move(word).expect("bestmove is legal");
    assert!(legal(pos).contains(m));
    m
}

fn sfen_of(engine: &mut UsiProcess) -> String {
    engine.send("d");
    let (line, _) = engine.expect_prefix("sfen ");
    engine.expect_prefix("key ");
    line["sfen ".len()..].to_string()
}

#[test]
fn full_session_from_usi_to_quit() {
    let mut e = UsiProcess::start();
    e.send("usi");
    let (_, head) = e.expect("usiok", |l| l == "usiok");
    assert!(head[0].starts_with("id name hayanagi "), "{head:?}");
    assert!(head[1].starts_with("id author "));
    // Every option with its type, default and range.
    for spec in option_specs() {
        let prefix = format!("option name {} type ", spec.name);
        let line = head
            .iter()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("option {} missing", spec.name));
        match spec.kind {
            OptionKind::Spin { default, min, max } => {
                assert!(line.ends_with(&format!("spin default {default} min {min} max {max}")))
            }
            OptionKind::Check { default } => {
                assert!(line.ends_with(&format!("check default {default}")))
            }
            OptionKind::Combo { default, .. } => {
                assert!(line.contains(&format!("combo default {default} var")))
            }
            OptionKind::String { .. } => assert!(line.contains("type string default")),
            OptionKind::Filename { .. } => assert!(line.contains("type filename default")),
        }
    }
    for name in [
        "USI_Hash",
        "Threads",
        "MultiPV",
        "USI_Ponder",
        "NetworkDelay",
        "NetworkDelay2",
        "MinimumThinkingTime",
        "SlowMover",
        "EnteringKingRule",
        "MaxMovesToDraw",
        "ResignValue",
        "DrawValueBlack",
        "DrawValueWhite",
        "USI_OwnBook",
        "BookFile",
        "SkillLevel",
        "RandomSeed",
    ] {
        assert!(
            head.iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}"
        );
    }
    let quiet = e.sync("setoption name USI_Hash value 32");
    assert!(quiet.is_empty(), "{quiet:?}");
    let quiet = e.sync("setoption name Hash value 16");
    assert!(quiet.is_empty(), "{quiet:?}");
    e.send("usinewgame");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go depth 5");
    let (best, infos) = e.expect("bestmove", is_bestmove);
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 5 ")),
        "{infos:?}"
    );
    assert!(infos.iter().all(|l| l.starts_with("info ")), "{infos:?}");
    let pos = Position::from_usi_position("startpos moves 7g7f 3c3d").unwrap();
    let m = legal_best(&best, &pos);
    // The ponder move is legal after the best move.
    if let Some(p) = best.split_whitespace().nth(3) {
        let mut after = pos.clone();
        after.do_move(m);
        assert!(after.parse_usi_move(p).is_ok(), "{best}");
    }
    // A clock-governed search ends by itself.
    e.send("position startpos moves 7g7f");
    e.send("go btime 1000 wtime 1000 byoyomi 200");
    let (best, _) = e.expect("bestmove", is_bestmove);
    legal_best(
        &best,
        &Position::from_usi_position("startpos moves 7g7f").unwrap(),
    );
    e.send("gameover win");
    e.send("quit");
    let (rest, status) = e.close();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn ponder_hit_and_miss() {
    let mut e = UsiProcess::start();
    e.sync("usi");
    // Hit: no best move while pondering, one after ponderhit.
    e.send("position startpos moves 2g2f 8c8d");
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    let early = e.drain_for(Duration::from_millis(700));
    assert!(!early.iter().any(|l| is_bestmove(l)), "{early:?}");
    e.send("ponderhit");
    let (best, _) = e.expect("bestmove", is_bestmove);
    legal_best(
        &best,
        &Position::from_usi_position("startpos moves 2g2f 8c8d").unwrap(),
    );
    // Miss: the GUI stops the ponder search, gets (and ignores) its move, searches anew.
    e.send("position startpos moves 2g2f 8c8d 2f2e");
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    e.drain_for(Duration::from_millis(200));
    e.send("stop");
    e.expect("bestmove after stop", is_bestmove);
    e.send("position startpos moves 2g2f 8c8d 7g7f");
    e.send("go btime 0 wtime 0 byoyomi 300");
    let (best, _) = e.expect("bestmove", is_bestmove);
    legal_best(
        &best,
        &Position::from_usi_position("startpos moves 2g2f 8c8d 7g7f").unwrap(),
    );
    // Harmless when nothing runs.
    let quiet = e.sync("ponderhit");
    assert!(quiet.is_empty(), "{quiet:?}");
    let quiet = e.sync("stop");
    assert!(quiet.is_empty(), "{quiet:?}");
}

#[test]
fn stop_during_go_infinite() {
    let mut e = UsiProcess::start();
    e.send("position startpos");
    e.send("go infinite");
    let late = e.drain_for(Duration::from_millis(500));
    assert!(!late.iter().any(|l| is_bestmove(l)), "{late:?}");
    e.send("stop");
    let (best, _) = e.expect("bestmove", is_bestmove);
    legal_best(&best, &Position::startpos());
    // Exactly one best move.
    let after = e.drain_for(Duration::from_millis(300));
    assert!(!after.iter().any(|l| is_bestmove(l)), "{after:?}");
}

#[test]
fn end_of_input_stops_the_search_and_exits_cleanly() {
    let mut e = UsiProcess::start();
    e.send("position startpos moves 7g7f");
    e.send("go infinite");
    e.drain_for(Duration::from_millis(300));
    let (rest, status) = e.close();
    assert!(status.success(), "{status:?}");
    let best = rest
        .iter()
        .find(|l| is_bestmove(l))
        .expect("a best move at EOF");
    legal_best(
        best,
        &Position::from_usi_position("startpos moves 7g7f").unwrap(),
    );
    // And with nothing running, EOF just exits.
    let mut e = UsiProcess::start();
    e.sync("usi");
    let (rest, status) = e.close();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn go_mate_answers_checkmate_nomate_or_timeout() {
    let mut e = UsiProcess::start();
    // rules.tsv R02: the pawn drop would mate but is illegal; 7b6b mates.
    e.send("position sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1");
    e.send("go mate 10000");
    let (line, _) = e.expect_prefix("checkmate");
    assert_eq!(line, "checkmate 7b6b");
    // R01: the only mating move is a pawn drop: no mate.
    e.send("position sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    e.send("go mate infinite");
    let (line, _) = e.expect_prefix("checkmate");
    assert_eq!(line, "checkmate nomate");
    // No bestmove after go mate.
    let after = e.drain_for(Duration::from_millis(200));
    assert!(!after.iter().any(|l| is_bestmove(l)), "{after:?}");
    // A mate in 3 from the tsume set: three moves, replayed to mate.
    let rows = tsv_rows("tsume/tsume_sample100.tsv");
    let row = rows.iter().find(|r| r[1] == "3").unwrap();
    e.send(&format!("position sfen {}", row[0]));
    e.send("go mate 30000");
    let (line, _) = e.expect_prefix("checkmate");
    let moves: Vec<&str> = line.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 3, "{line}");
    let mut pos = Position::from_sfen(&row[0]).unwrap();
    for m in &moves {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.do_move(mv);
    }
    assert!(
        pos.in_check() && legal(&pos).is_empty(),
        "{line} does not mate"
    );
    // A 1,525-ply problem (Microcosmos) with 1 ms: timeout.
    let long = tsv_rows("tsume/famous_long_tsume.tsv");
    e.send(&format!("position sfen {}", long[0][2]));
    e.send("go mate 1");
    let (line, _) = e.expect_prefix("checkmate");
    assert_eq!(line, "checkmate timeout");
    // stop ends an infinite mate search.
    e.send("go mate infinite");
    e.drain_for(Duration::from_millis(100));
    e.send("stop");
    let (line, _) = e.expect_prefix("checkmate");
    assert!(line.starts_with("checkmate "), "{line}");
}

#[test]
fn option_validation() {
    let mut e = UsiProcess::start();
    let cases = [
        ("setoption name Threads value 0", "Threads"),
        ("setoption name Threads value many", "not a number"),
        ("setoption name SkillLevel value 21", "between 0 and 20"),
        (
            "setoption name EnteringKingRule value Sometimes",
            "CSARule27",
        ),
        ("setoption name USI_OwnBook value yes", "true or false"),
        ("setoption name NoSuchOption value 1", "unknown option"),
        ("setoption Threads 2", "expected 'setoption name"),
        ("setoption name", "missing option name"),
    ];
    for (cmd, needle) in cases {
        let out = e.sync(cmd);
        assert_eq!(out.len(), 1, "{cmd}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{cmd}: {out:?}");
        assert!(out[0].contains(needle), "{cmd}: {out:?}");
    }
    for ok in [
        "setoption name Threads value 2",
        "setoption name MultiPV value 3",
        "setoption name USI_Ponder value false",
        "setoption name NetworkDelay2 value 500",
        "setoption name EnteringKingRule value TryRule",
        "setoption name MaxMovesToDraw value 256",
        "setoption name ResignValue value 3000",
        "setoption name DrawValueBlack value -20",
        "setoption name DrawValueWhite value 20",
        "setoption name SkillLevel value 10",
        "setoption name RandomSeed value 12345",
        "setoption name BookFile value <empty>",
        "setoption name usi_hash value 8",
    ] {
        let out = e.sync(ok);
        assert!(out.is_empty(), "{ok}: {out:?}");
    }
    // While searching, options are refused but the search goes on.
    e.send("go infinite");
    let out = e.sync("setoption name Threads value 1");
    assert!(
        out.iter().any(|l| l.contains("a search is running")),
        "{out:?}"
    );
    e.send("stop");
    e.expect("bestmove", is_bestmove);
}

#[test]
fn malformed_input_is_reported_and_changes_nothing() {
    let mut e = UsiProcess::start();
    e.sync("position startpos moves 7g7f");
    let before = sfen_of(&mut e);
    for (cmd, needle) in [
        (
            "position startpos moves 7g7f 3c3d 8h2b+ 2a2b 2b2a",
            "move 4",
        ),
        ("position sfen lnsgkgsnl/9/9 b - 1", "SFEN"),
        ("position sfen 4k4/9/9/9/9/9/9/9/4K4 b 40P 1", "SFEN"),
        ("position sfen", "no position"),
        ("position", "position"),
        ("position startpos moves 7g7f 7g7f", "move 2"),
        ("go depth", "needs a number"),
        ("go nodes lots", "not a number"),
        ("go searchmoves 5e5d", "searchmoves"),
        ("go sideways", "unknown parameter"),
        ("perft", "depth"),
        ("perft 99", "depth"),
        ("bench many", "depth"),
        ("gameover maybe", "gameover"),
        ("fly me to the moon", "unknown command 'fly'"),
    ] {
        let out = e.sync(cmd);
        assert!(
            out.len() == 1 && out[0].starts_with("info string error: ") && out[0].contains(needle),
            "{cmd}: {out:?}"
        );
        assert_eq!(sfen_of(&mut e), before, "{cmd} changed the position");
    }
    // Blank lines, stray whitespace, very long lines and bytes that are not UTF-8.
    assert!(e.sync("").is_empty());
    assert!(e.sync("   ").is_empty());
    let out = e.sync(&"x".repeat(100_000));
    assert_eq!(out.len(), 1, "{out:?}");
    e.send_bytes(b"\xff\xfe position\n");
    e.send("isready");
    let (_, out) = e.expect("readyok", |l| l == "readyok");
    assert!(
        out.len() == 1 && out[0].starts_with("info string error"),
        "{out:?}"
    );
    e.send("position startpos moves 7g7f\r");
    assert_eq!(sfen_of(&mut e), before);
    // Still a working engine.
    e.send("go depth 3");
    let (best, _) = e.expect("bestmove", is_bestmove);
    legal_best(
        &best,
        &Position::from_usi_position("startpos moves 7g7f").unwrap(),
    );
}

#[test]
fn resign_and_win_cases_from_rules_tsv() {
    let rows = tsv_rows("rules.tsv");
    let sfen = |id: &str| rows.iter().find(|r| r[0] == id).unwrap()[1].clone();
    let mut e = UsiProcess::start();
    // R21: checkmated, no legal move.
    e.send(&format!("position sfen {}", sfen("R21")));
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_eq!(e.expect("bestmove", is_bestmove).0, "bestmove resign");
    // N01: 28 points, a win under the default 27-point rule...
    e.send(&format!("position sfen {}", sfen("N01")));
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_eq!(e.expect("bestmove", is_bestmove).0, "bestmove win");
    // ... but not under the 24-point rule (31 points needed).
    e.send("setoption name EnteringKingRule value CSARule24");
    e.send("go depth 2");
    let (best, _) = e.expect("bestmove", is_bestmove);
    legal_best(
        &best,
        &Position::from_sfen_with(&sfen("N01"), Validation::Composed).unwrap(),
    );
    // N03: 31 points wins under both.
    e.send(&format!("position sfen {}", sfen("N03")));
    e.send("go depth 2");
    assert_eq!(e.expect("bestmove", is_bestmove).0, "bestmove win");
    // ResignValue: a hopeless position (a bare king against everything) is resigned...
    let hopeless = "4k4/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L18P 1";
    e.send(&format!("position sfen {hopeless}"));
    e.send("setoption name ResignValue value 1500");
    e.send("go depth 4");
    assert_eq!(e.expect("bestmove", is_bestmove).0, "bestmove resign");
    // ... and played on with the default (never resign while a move exists).
    e.send("setoption name ResignValue value 99999");
    e.send("go depth 4");
    let (best, _) = e.expect("bestmove", is_bestmove);
    legal_best(&best, &Position::from_sfen(hopeless).unwrap());
}

#[test]
fn draw_values_and_move_limit() {
    let mut e = UsiProcess::start();
    // Eight plies played: black to move at move 9. With a limit of 9 every move draws.
    e.send("setoption name MaxMovesToDraw value 9");
    e.send("setoption name DrawValueBlack value 37");
    e.send("position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b");
    e.send("go depth 3");
    let (_, infos) = e.expect("bestmove", is_bestmove);
    let last = infos.last().unwrap();
    assert!(last.contains(" score cp 37 "), "{last}");
    // White's draw value applies when the engine plays white.
    e.send("setoption name DrawValueWhite value -11");
    e.send("position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d");
    e.send("setoption name MaxMovesToDraw value 10");
    e.send("go depth 3");
    let (_, infos) = e.expect("bestmove", is_bestmove);
    let last = infos.last().unwrap();
    assert!(last.contains(" score cp -11 "), "{last}");
}

#[test]
fn book_moves_by_weight_and_seed() {
    let dir = std::env::temp_dir().join(format!("hayanagi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.db");
    std::fs::write(
        &book,
        "#YANEURAOU-DB2016 1.00\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
         7g7f 3c3d 0 32 50\n\
         2g2f 8c8d 0 32 50\n\
         5e5d none 0 1 1\n\
         sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
         8c8d none 0 32 1\n",
    )
    .unwrap();
    let play = |seed: u32| -> Vec<String> {
        let mut e = UsiProcess::start();
        e.send("setoption name USI_OwnBook value true");
        e.send(&format!("setoption name BookFile value {}", book.display()));
        e.send(&format!("setoption name RandomSeed value {seed}"));
        let out = e.sync("usinewgame");
        assert!(
            out.iter()
                .any(|l| l.contains("book line 5") && l.contains("5e5d")),
            "{out:?}"
        );
        assert!(
            out.iter().any(|l| l.contains("book: 2 positions loaded")),
            "{out:?}"
        );
        let mut picks = Vec::new();
        for _ in 0..12 {
            e.send("position startpos");
            e.send("go btime 0 wtime 0 byoyomi 10000");
            picks.push(e.expect("bestmove", is_bestmove).0);
        }
        e.send("position startpos moves 7g7f");
        e.send("go btime 0 wtime 0 byoyomi 10000");
        assert_eq!(e.expect("bestmove", is_bestmove).0, "bestmove 8c8d");
        picks
    };
    let a = play(7);
    assert_eq!(a, play(7), "a fixed seed repeats the book choices");
    assert!(a.iter().any(|m| m == "bestmove 7g7f ponder 3c3d"), "{a:?}");
    assert!(a.iter().any(|m| m == "bestmove 2g2f ponder 8c8d"), "{a:?}");
    // A missing book file is a warning, not a failure.
    let mut e = UsiProcess::start();
    e.send("setoption name USI_OwnBook value true");
    e.send("setoption name BookFile value /nonexistent/book.db");
    let out = e.sync("usi");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string cannot read book file")),
        "{out:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn skill_level_is_repeatable_with_a_seed() {
    let play = |seed: u32| -> Vec<String> {
        let mut e = UsiProcess::start();
        e.send("setoption name SkillLevel value 3");
        e.send(&format!("setoption name RandomSeed value {seed}"));
        e.sync("usinewgame");
        let mut moves = Vec::new();
        for p in [
            "startpos",
            "startpos moves 7g7f",
            "startpos moves 7g7f 3c3d",
            "startpos moves 2g2f",
        ] {
            e.send(&format!("position {p}"));
            e.send("go btime 0 wtime 0 byoyomi 2000");
            let (best, infos) = e.expect("bestmove", is_bestmove);
            // The weakened search looks at several moves and no deeper than level + 1.
            assert!(infos.iter().any(|l| l.contains(" multipv 4 ")), "{infos:?}");
            assert!(
                !infos.iter().any(|l| l.starts_with("info depth 5 ")),
                "{infos:?}"
            );
            moves.push(best);
        }
        moves
    };
    assert_eq!(play(99), play(99));
}

#[test]
fn extras_for_humans() {
    let mut e = UsiProcess::start();
    e.send("position startpos");
    e.send("d");
    let (sfen, board) = e.expect_prefix("sfen ");
    e.expect_prefix("key ");
    assert_eq!(
        sfen,
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert!(
        board
            .iter()
            .any(|l| l.contains("l  n  s  g  k  g  s  n  l | a")),
        "{board:?}"
    );
    e.send("perft 3");
    assert!(e.expect_prefix("perft 3 ").0.contains("nodes 25470 "));
    e.send("moves");
    let (moves, _) = e.expect("moves", |l| l.contains("7g7f"));
    assert_eq!(moves.split_whitespace().count(), 30);
    e.send("eval");
    let (ev, _) = e.expect_prefix("eval = ");
    assert!(ev["eval = ".len()..].parse::<i32>().is_ok(), "{ev}");
    e.send("bench 3");
    let (nodes, _) = e.expect_prefix("info string Nodes searched: ");
    assert!(nodes.rsplit(' ').next().unwrap().parse::<u64>().unwrap() > 0);
    e.expect_prefix("info string Nodes/second: ");
    // The session's own position survived the bench.
    assert!(sfen_of(&mut e).starts_with("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/"));
    let _ = data_path("rules.tsv");
}

/// A hash table bigger than the machine: `isready` answers an error line and `readyok`, the
/// engine keeps its table and goes on (it used to abort with "memory allocation failed").
#[test]
fn a_hash_beyond_the_machine_is_an_error_not_an_abort() {
    let mut e = UsiProcess::start();
    e.send("setoption name USI_Hash value 1048576");
    e.send("isready");
    let (_, before) = e.expect("readyok", |l| l == "readyok");
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(
        before[0].starts_with("info string error: cannot allocate 1048576 MiB for the hash table"),
        "{before:?}"
    );
    // USI_Hash reads back the size in use: the next isready has nothing to redo.
    e.send("isready");
    let (_, again) = e.expect("readyok", |l| l == "readyok");
    assert!(again.is_empty(), "{again:?}");
    // The same request at `go` (no isready): a warning, and the search runs.
    e.send("setoption name USI_Hash value 1048576");
    e.send("position startpos");
    e.send("go nodes 2000");
    let (best, during) = e.expect("bestmove", is_bestmove);
    legal_best(&best, &Position::startpos());
    assert!(
        during
            .iter()
            .any(|l| l.starts_with("info string cannot allocate") && l.contains("table in use")),
        "{during:?}"
    );
    let (_, status) = e.close();
    assert!(status.success());
}

/// The engine's request rules (src/request.rs), as the C test_request_rules checks them
/// through the C ABI: `movetime 0` and a clock of 0 move at once, a huge depth is capped,
/// a bare `go` runs until `stop`, a multipv beyond 32 is refused.
#[test]
fn request_rules_are_the_engines() {
    let mut e = UsiProcess::start();
    e.sync("setoption name RootMateSearch value false");
    e.send("position startpos");
    let refused = e.sync("go depth 1 multipv 33");
    assert!(
        refused
            .iter()
            .any(|l| l.starts_with("info string error: go: ")
                && l.contains("multipv 33 is not in 1..=32")),
        "{refused:?}"
    );
    assert!(!refused.iter().any(|l| is_bestmove(l)), "{refused:?}");
    for go in [
        "go movetime 0",
        "go btime 0 wtime 0",
        "go depth 100000 nodes 2000",
    ] {
        e.send(go);
        let (best, _) = e.expect("bestmove", is_bestmove);
        legal_best(&best, &Position::startpos());
    }
    e.send("go");
    let quiet = e.drain_for(Duration::from_millis(300));
    assert!(
        !quiet.iter().any(|l| is_bestmove(l)),
        "a bare go moved by itself: {quiet:?}"
    );
    e.send("stop");
    e.expect("bestmove", is_bestmove);
}

fn depth_of(line: &str) -> Option<u32> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w.iter().position(|&x| x == "depth")?;
    w.get(i + 1)?.parse().ok()
}

fn pv_lines(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .collect()
}

#[test]
fn pv_interval_zero_shows_every_iteration_and_the_final_line_always_comes() {
    let mut e = UsiProcess::start();
    e.send("setoption name RootMateSearch value false");
    e.send("setoption name PvInterval value 0");
    e.send("position startpos");
    e.send("go depth 7");
    let (_, lines) = e.expect("bestmove", is_bestmove);
    let depths: Vec<u32> = pv_lines(&lines)
        .iter()
        .filter(|l| !l.contains("bound"))
        .filter_map(|l| depth_of(l))
        .collect();
    // Depths 1-7, then the final line of depth 7 again (the same PV, the final figures).
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6, 7, 7], "{lines:?}");

    // The default interval (200 ms) hides the early iterations of a quick search, but its
    // final line still comes.
    e.send("setoption name PvInterval value 200");
    e.send("go depth 7");
    let (_, lines) = e.expect("bestmove", is_bestmove);
    let pv = pv_lines(&lines);
    assert!(pv.len() < 8, "{lines:?}");
    assert_eq!(depth_of(pv.last().unwrap()), Some(7), "{lines:?}");
}

#[test]
fn depth_limit_and_nodes_limit_cap_every_go() {
    let mut e = UsiProcess::start();
    e.send("setoption name RootMateSearch value false");
    e.send("setoption name DepthLimit value 3");
    e.send("position startpos");
    e.send("go btime 0 wtime 0 byoyomi 60000");
    let (_, lines) = e.expect("bestmove", is_bestmove);
    let last = pv_lines(&lines).last().unwrap().to_string();
    assert_eq!(depth_of(&last), Some(3), "{lines:?}");
    // A request for less keeps its own limit.
    e.send("go depth 2");
    let (_, lines) = e.expect("bestmove", is_bestmove);
    assert_eq!(depth_of(pv_lines(&lines).last().unwrap()), Some(2));

    e.send("setoption name DepthLimit value 0");
    e.send("setoption name NodesLimit value 5000");
    e.send("go depth 30");
    let (_, lines) = e.expect("bestmove", is_bestmove);
    let last = pv_lines(&lines).last().unwrap().to_string();
    let w: Vec<&str> = last.split_whitespace().collect();
    let nodes: u64 = w[w.iter().position(|&x| x == "nodes").unwrap() + 1]
        .parse()
        .unwrap();
    assert!((5000..5100).contains(&nodes), "{last}");
}

#[test]
fn long_iterations_send_progress_lines() {
    let mut e = UsiProcess::start();
    e.send("setoption name RootMateSearch value false");
    // No iteration line after the first for a minute: only progress lines fill the gap.
    e.send("setoption name PvInterval value 60000");
    e.send("position startpos");
    e.send("go nodes 4000000");
    let (_, lines) = e.expect("bestmove", is_bestmove);
    let progress: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info nodes "))
        .collect();
    assert!(!progress.is_empty(), "{lines:?}");
    for l in &progress {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            (w[1], w[3], w[5], w[7]),
            ("nodes", "nps", "time", "hashfull"),
            "{l}"
        );
    }
}

fn score_of(line: &str) -> String {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w.iter().position(|&x| x == "score").unwrap();
    format!("{} {}", w[i + 1], w[i + 2])
}

#[test]
fn the_line_at_stop_pairs_each_score_with_its_own_depth() {
    let mut e = UsiProcess::start();
    e.send("setoption name RootMateSearch value false");
    e.send("setoption name ConsiderationMode value true");
    for (k, position) in [
        "position startpos moves 7g7f 3c3d 2g2f",
        "position startpos moves 2g2f 8c8d 2f2e 8d8e",
    ]
    .iter()
    .enumerate()
    {
        e.send(position);
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(1200 + 300 * k as u64));
        e.send("stop");
        let (_, lines) = e.expect("bestmove", is_bestmove);
        assert!(lines.iter().all(|l| !l.contains("bound")), "{lines:?}");
        assert_final_line_pairs_score_and_depth(&lines);
    }
}

fn assert_final_line_pairs_score_and_depth(lines: &[String]) {
    let pv = pv_lines(lines);
    let (last, iterations) = pv.split_last().unwrap();
    let completed = iterations.last().unwrap();
    let (d_last, d_completed) = (depth_of(last).unwrap(), depth_of(completed).unwrap());
    if d_last == d_completed {
        // Nothing of the unfinished iteration counts: the last iteration's score.
        assert_eq!(score_of(last), score_of(completed), "{lines:?}");
    } else {
        // The unfinished iteration's best move was searched: its depth with its score.
        assert_eq!(d_last, d_completed + 1, "{lines:?}");
    }
}

#[test]
fn a_move_the_unfinished_iteration_never_reached_does_not_outrank_one_it_searched() {
    // With the tune10 weights, at 50,000 nodes the tenth iteration here failed low on its
    // first move (6i6h) and stopped inside the second (3e3d), whose ninth-iteration score
    // ranked above the fail-low score: the answer was 3e3d, reported at depth 9 with a
    // score that depth never gave (CI, stop 35; found by scanning node limits over the
    // match openings). Other weights search otherwise; the ranking itself is unit-tested
    // (`rank_after_interruption` in src/search/worker.rs).
    let mut e = UsiProcess::start();
    e.send("setoption name RootMateSearch value false");
    e.send("setoption name PvInterval value 0");
    e.send(
        "position startpos moves 7g7f 8c8d 2g2f 4a3b 7i7h 3c3d 7h7g 3a4b 3i4h 7c7d 6i7h \
         7a6b 3g3f 8d8e 2f2e 2b3c 4h3g 8a7c 4i5h 5c5d 5i6i 6a5b 5g5f 5a4a 3g4f 4c4d 3f3e \
         4b4c 7g6f 8e8f 8g8f 8b8f P*8g 8f8e 9g9f 9c9d",
    );
    for nodes in [49_000, 50_000, 54_000] {
        e.send("usinewgame");
        e.send(&format!("go nodes {nodes}"));
        let (_, lines) = e.expect("bestmove", is_bestmove);
        assert_final_line_pairs_score_and_depth(&lines);
    }
}
