//! The `hayanagi` binary: output formats and exit codes.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hayanagi"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn perft_prints_counts_and_speed() {
    let (code, out, _) = run(&["perft", "--sfen", "startpos", "--depth", "3"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "nodes 25470");
    assert!(lines[1].starts_with("time_ms "));
    assert!(lines[2].starts_with("nps "));
}

#[test]
fn perft_divide_lists_root_moves_first() {
    let (code, out, _) = run(&[
        "perft",
        "--sfen",
        "startpos moves 7g7f",
        "--depth",
        "2",
        "--divide",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 30 + 3);
    let total: u64 = lines[..30]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(lines[30], format!("nodes {total}"));
    assert!(lines[..30].iter().all(|l| l.contains(": ")));
}

#[test]
fn moves_are_sorted_usi() {
    let (code, out, _) = run(&["moves", "--sfen", "startpos"]);
    assert_eq!(code, 0);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 30);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"7g7f"));
    // --moves is applied after --sfen.
    let (_, out, _) = run(&["moves", "--sfen", "startpos", "--moves", "7g7f 3c3d"]);
    assert!(out.lines().any(|l| l == "8h2b+"));
    assert!(out.lines().any(|l| l == "8h2b"));
}

#[test]
fn sfen_normalises() {
    let (code, out, _) = run(&[
        "sfen",
        "--sfen",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    let (_, out, _) = run(&["sfen", "--sfen", "4k4/9/9/9/9/9/9/9/4K4 b 2Pp3LGr 7"]);
    assert_eq!(out.trim(), "4k4/9/9/9/9/9/9/9/4K4 b G3L2Prp 7");
    let (_, out, _) = run(&["sfen", "--sfen", "startpos moves 7g7f 3c3d 8h2b+"]);
    assert_eq!(
        out.trim(),
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
}

#[test]
fn bad_input_is_one_line_on_stderr_with_status_2() {
    let cases: &[&[&str]] = &[
        &["perft", "--sfen", "startpos"],
        &["perft", "--sfen", "startpos", "--depth", "x"],
        &[
            "moves",
            "--sfen",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
        ],
        &["moves", "--sfen", "startpos", "--moves", "7g7e"],
        &["moves", "--sfen", "startpos moves 7g7f 7g7f"],
        &["moves"],
        &["sfen", "--sfen", "startpos", "--bogus", "1"],
        &["frobnicate"],
    ];
    for args in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("hayanagi: "), "{args:?}: {err}");
    }
    let (_, _, err) = run(&[
        "moves",
        "--sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
    ]);
    assert!(err.contains("'X'") && err.contains("column 57"), "{err}");
    let (_, _, err) = run(&["moves", "--sfen", "startpos", "--moves", "7g7e"]);
    assert!(err.contains("7g7e") && err.contains("not legal"), "{err}");
}

#[test]
fn help_prints_usage() {
    let (code, out, _) = run(&["help"]);
    assert_eq!(code, 0);
    assert!(out.contains("usage: hayanagi"));
}

#[test]
fn version_prints_the_crate_and_abi_versions() {
    for flag in ["--version", "-V", "version"] {
        let (code, out, err) = run(&[flag]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(
            out.trim(),
            format!(
                "hayanagi {} (C ABI {})",
                env!("CARGO_PKG_VERSION"),
                hayanagi::ffi::HAYANAGI_ABI_VERSION
            )
        );
    }
}

#[test]
fn no_arguments_speaks_usi() {
    // stdin is empty here: the engine answers nothing and exits cleanly at end of input.
    let (code, out, err) = run(&[]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

fn signature(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .expect("signature line")
        .parse()
        .unwrap()
}

#[test]
fn bench_signature_is_deterministic() {
    let (code, a, _) = run(&["bench", "--depth", "5"]);
    assert_eq!(code, 0);
    let (_, b, _) = run(&["bench", "--depth", "5"]);
    assert_eq!(signature(&a), signature(&b));
    let lines: Vec<&str> = a.lines().collect();
    assert!(lines[lines.len() - 2].starts_with("Nodes searched: "));
    assert!(lines[lines.len() - 1].starts_with("Nodes/second: "));
    assert!(a.lines().filter(|l| l.starts_with("position ")).count() >= 8);
}

#[test]
fn analyze_prints_info_lines_and_a_bestmove() {
    let (code, out, err) = run(&[
        "analyze",
        "--sfen",
        "startpos",
        "--moves",
        "7g7f",
        "--depth",
        "6",
        "--option",
        "Hash=8",
        "--option",
        "MultiPV=2",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 3);
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l.starts_with("info depth ")));
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")));
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{last}");
    let (code, out, _) = run(&["analyze", "--sfen", "startpos", "--movetime", "300"]);
    assert_eq!(code, 0);
    assert!(out.lines().last().unwrap().starts_with("bestmove "));
    let (code, out, _) = run(&["analyze", "--sfen", "startpos", "--nodes", "2000"]);
    assert_eq!(code, 0);
    assert!(out.contains("bestmove "));
    // Bad options are errors with status 2.
    for args in [
        &["analyze", "--sfen", "startpos", "--option", "Hash"][..],
        &["analyze", "--sfen", "startpos", "--option", "Bogus=1"][..],
        &["analyze", "--sfen", "startpos", "--option", "MultiPV=0"][..],
        &[
            "analyze", "--sfen", "startpos", "--depth", "3", "--nodes", "10",
        ][..],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1);
    }
}

#[test]
fn analyze_resigns_when_mated() {
    let (code, out, _) = run(&[
        "analyze",
        "--sfen",
        "1p2kg1n1/s+N1+P1s2l/5l2b/pB3pPP1/lP3N3/2NpSg1RL/+pS1P2+p2/3G5/4KG3 w R4P3p 116",
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "bestmove resign");
}

#[test]
fn usi_subcommand_speaks_usi() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hayanagi"))
        .arg("usi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"usi\nisready\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\nusiok\n") && text.ends_with("readyok\n"),
        "{text}"
    );
}

/// `hayanagi mate`: exactly two lines, exit 0, for each of the three answers.
fn mate_cli(args: &[&str]) -> (String, u64) {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let info: Vec<&str> = lines[1].split(' ').collect();
    assert_eq!(info.len(), 6, "{}", lines[1]);
    assert_eq!(&info[..3], ["info", "string", "nodes"]);
    assert_eq!(info[4], "time_ms");
    let nodes: u64 = info[3].parse().unwrap();
    info[5].parse::<u64>().unwrap();
    (lines[0].to_string(), nodes)
}

#[test]
fn mate_prints_one_answer_and_its_figures() {
    // rules.tsv R02, R01.
    let (answer, nodes) = mate_cli(&["mate", "--sfen", "4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1"]);
    assert_eq!(answer, "checkmate 7b6b");
    assert!(nodes > 0);
    let (answer, _) = mate_cli(&["mate", "--sfen", "7lk/9/8S/9/9/9/9/7L1/8K b P 1"]);
    assert_eq!(answer, "checkmate nomate");
    // A tsume problem (no attacking king) with --moves: after the first two moves of a
    // mate in 3, the mate in 1 that remains.
    let (answer, _) = mate_cli(&[
        "mate",
        "--sfen",
        "l1+R5l/2pS5/p2pp+P1pp/2k3p2/2N4P1/PP2R1P1P/2+pPP1N2/2GSG1bs1/LN1K4L b 2GSNPbp 73",
        "--movetime",
        "30000",
    ]);
    let moves: Vec<&str> = answer.split(' ').skip(1).collect();
    assert_eq!(moves.len(), 3, "{answer}");
    let played = format!("{} {}", moves[0], moves[1]);
    let (answer, _) = mate_cli(&[
        "mate",
        "--sfen",
        "l1+R5l/2pS5/p2pp+P1pp/2k3p2/2N4P1/PP2R1P1P/2+pPP1N2/2GSG1bs1/LN1K4L b 2GSNPbp 73",
        "--moves",
        &played,
    ]);
    assert_eq!(answer, format!("checkmate {}", moves[2]));
    // Microcosmos (1,525 plies) with a node budget: timeout.
    let (answer, _) = mate_cli(&[
        "mate",
        "--sfen",
        "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
        "--nodes",
        "20000",
    ]);
    assert_eq!(answer, "checkmate timeout");
    // Bad input is still an error with status 2.
    let (code, _, err) = run(&["mate", "--sfen", "nonsense"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("hayanagi: "), "{err}");
}

fn gensfen(file: &std::path::Path, positions: u32, seed: u32) -> (i32, String, String) {
    let (positions, seed) = (positions.to_string(), seed.to_string());
    run(&[
        "gensfen",
        "--output",
        file.to_str().unwrap(),
        "--positions",
        &positions,
        "--nodes",
        "300",
        "--seed",
        &seed,
        "--handicap",
        "20",
    ])
}

#[test]
fn gensfen_appends_resumes_and_repeats_with_a_seed() {
    let dir = std::env::temp_dir().join(format!("hayanagi-gensfen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.psv"), dir.join("b.psv"));
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
    let (code, out, err) = gensfen(&a, 120, 3);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("positions 120 written 120 games "), "{out}");
    assert!(
        err.contains("positions/s"),
        "progress goes to stderr: {err}"
    );
    let first = std::fs::read(&a).unwrap();
    assert_eq!(first.len(), 120 * 40);
    // One thread at fixed nodes: the same seed and file give the same records.
    gensfen(&b, 120, 3);
    assert_eq!(std::fs::read(&b).unwrap(), first);
    // A torn record (a run killed inside a write) is dropped, then the run appends.
    let mut torn = first.clone();
    torn.extend_from_slice(&[0xAB; 13]);
    std::fs::write(&a, &torn).unwrap();
    let (code, out, _) = gensfen(&a, 200, 3);
    assert_eq!(code, 0);
    assert!(out.starts_with("positions 200 written 80 "), "{out}");
    let grown = std::fs::read(&a).unwrap();
    assert_eq!(grown.len(), 200 * 40);
    assert_eq!(&grown[..first.len()], &first[..]);
    // The resumed run played new games, not the first ones again.
    assert_ne!(&grown[first.len()..first.len() + 40], &first[..40]);
    // A full file is left alone.
    let (code, out, _) = gensfen(&a, 150, 3);
    assert_eq!(code, 0);
    assert!(out.starts_with("positions 200 written 0 "), "{out}");
    // Every record decodes, with a legal move.
    let (code, out, err) = run(&["dump-psv", "--input", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 200);
    assert!(out
        .lines()
        .all(|l| l.starts_with("sfen ") && !l.contains(" move none ")));
    let (code, out, _) = run(&["dump-psv", "--input", a.to_str().unwrap(), "--skip", "199"]);
    assert_eq!((code, out.lines().count()), (0, 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gensfen_refuses_bad_settings() {
    for args in [
        &["gensfen"][..],
        &[
            "gensfen",
            "--output",
            "/nonexistent-dir/x.psv",
            "--positions",
            "1",
        ],
        &["gensfen", "--output", "x.psv", "--threads", "0"],
        &["gensfen", "--output", "x.psv", "--random-plies", "10-5"],
        &[
            "gensfen", "--output", "x.psv", "--nodes", "10", "--depth", "3",
        ],
        &["gensfen", "--output", "x.psv", "--handicap", "101"],
        &["dump-psv", "--input", "/nonexistent-file.psv"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    assert!(!std::path::Path::new("x.psv").exists());
}
