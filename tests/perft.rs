//! Perft counts from tests/data/perft.tsv and perft_gentest.tsv (verified with cshogi; see
//! the files' source columns). Deeper counts (start d7, peeper d4-d5) are checked by
//! scripts/bench-perft.sh, not here.

mod common;

use common::tsv_rows;
use hayanagi::{perft, perft_divide, perft_stats, PerftStats};
use hayanagi::{Position, Validation};

/// (name, sfen, depth, nodes) for every depth listed in perft.tsv.
fn perft_table() -> Vec<(String, String, u32, u64)> {
    let mut out = Vec::new();
    let mut last_sfen = String::new();
    for row in tsv_rows("perft.tsv") {
        let name = row[0].split_whitespace().next().unwrap().to_string();
        if row[1].starts_with("see ") {
            continue;
        }
        let sfen = if row[1] == "(same)" {
            last_sfen.clone()
        } else {
            row[1].clone()
        };
        last_sfen = sfen.clone();
        let depths: Vec<u32> = match row[2].split_once("..") {
            Some((a, b)) => (a.parse().unwrap()..=b.parse().unwrap()).collect(),
            None => vec![row[2].parse().unwrap()],
        };
        let counts: Vec<u64> = row[3]
            .split(',')
            .map(|c| c.trim().parse().unwrap())
            .collect();
        assert_eq!(depths.len(), counts.len(), "{name}");
        for (d, n) in depths.into_iter().zip(counts) {
            out.push((name.clone(), sfen.clone(), d, n));
        }
    }
    out
}

fn position(sfen: &str) -> Position {
    // peeper-1 holds three bishops and three rooks: a composed position.
    Position::from_sfen_with(sfen, Validation::Composed).expect("perft sfen parses")
}

fn check_table(name_prefix: &str, max_depth: u32) {
    let rows: Vec<_> = perft_table()
        .into_iter()
        .filter(|r| r.0.starts_with(name_prefix) && r.2 <= max_depth)
        .collect();
    assert!(!rows.is_empty(), "no rows for {name_prefix}");
    for (name, sfen, depth, nodes) in rows {
        let mut pos = position(&sfen);
        let before = pos.to_sfen();
        assert_eq!(perft(&mut pos, depth), nodes, "{name} depth {depth}");
        assert_eq!(
            pos.to_sfen(),
            before,
            "perft must leave the position unchanged"
        );
    }
}

#[test]
fn startpos_d1_to_d6() {
    check_table("startpos", 6);
}

#[test]
fn startpos_breakdown_d3_to_d6() {
    let expect = [
        (
            3,
            PerftStats {
                nodes: 25470,
                captures: 59,
                promotions: 30,
                checks: 48,
                mates: 0,
            },
        ),
        (
            4,
            PerftStats {
                nodes: 719731,
                captures: 1803,
                promotions: 842,
                checks: 1121,
                mates: 0,
            },
        ),
        (
            5,
            PerftStats {
                nodes: 19861490,
                captures: 113680,
                promotions: 57214,
                checks: 71434,
                mates: 0,
            },
        ),
        (
            6,
            PerftStats {
                nodes: 547581517,
                captures: 3387051,
                promotions: 1588324,
                checks: 1730177,
                mates: 0,
            },
        ),
    ];
    let mut pos = Position::startpos();
    for (depth, stats) in expect {
        assert_eq!(
            perft_stats(&mut pos, depth),
            stats,
            "startpos depth {depth}"
        );
    }
}

#[test]
fn matsuri_d1_to_d4() {
    check_table("matsuri", 4);
}

#[test]
fn max_legal_moves_d1_to_d3() {
    check_table("max-legal-moves", 3);
}

#[test]
fn peeper_positions_d1_to_d3() {
    for p in ["peeper-1", "peeper-2", "peeper-3", "peeper-4"] {
        check_table(p, 3);
    }
}

#[test]
fn knight_promotion_and_pawn_drop_mate_d1_to_d4() {
    check_table("knight-promotion", 4);
    check_table("pawn-drop-mate", 4);
}

#[test]
fn gentest_positions_d1_d2() {
    let rows = tsv_rows("perft_gentest.tsv");
    assert_eq!(rows.len(), 21);
    for row in rows {
        let mut pos = position(&row[1]);
        assert_eq!(
            perft(&mut pos, 1),
            row[2].parse::<u64>().unwrap(),
            "{} d1",
            row[0]
        );
        assert_eq!(
            perft(&mut pos, 2),
            row[3].parse::<u64>().unwrap(),
            "{} d2",
            row[0]
        );
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = Position::startpos();
    let div = perft_divide(&mut pos, 3);
    assert_eq!(div.len(), 30);
    assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 25470);
    let m = div.iter().find(|d| d.0.usi() == "7g7f").unwrap();
    assert_eq!(
        m.1,
        perft(
            &mut Position::from_usi_position("startpos moves 7g7f").unwrap(),
            2
        )
    );
}
