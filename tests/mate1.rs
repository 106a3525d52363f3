//! The mate-in-one detector (`Position::mate_in_one`) against the nshogi test sets and
//! against brute force (every legal move tried) on random positions.

mod common;

use hayanagi::{legal, Position, Validation};

fn positions(name: &str) -> Vec<Position> {
    std::fs::read_to_string(common::data_path(name))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|sfen| Position::from_sfen_with(sfen, Validation::Composed).unwrap())
        .collect()
}

/// Is there a mating move, trying every legal move?
fn brute_force(pos: &mut Position) -> bool {
    legal(pos).iter().any(|&m| mates(pos, m))
}

/// `m` is legal in `pos` and mates.
fn mates(pos: &mut Position, m: hayanagi::Move) -> bool {
    if !pos.is_legal(m) {
        return false;
    }
    pos.do_move(m);
    let mated = pos.in_check() && legal(pos).is_empty();
    pos.undo_move();
    mated
}

#[test]
fn finds_a_mate_in_every_mate1_position() {
    let all = positions("tsume/mate1.sfen");
    assert_eq!(all.len(), 1568);
    for mut pos in all {
        let sfen = pos.to_sfen();
        let m = pos
            .mate_in_one()
            .unwrap_or_else(|| panic!("no mate found in {sfen}"));
        assert!(mates(&mut pos, m), "{m} does not mate in {sfen}");
        assert_eq!(pos.to_sfen(), sfen, "the position is restored");
    }
}

#[test]
fn finds_none_in_the_nomate1_positions() {
    let all = positions("tsume/nomate1.sfen");
    assert_eq!(all.len(), 1574);
    for mut pos in all {
        let sfen = pos.to_sfen();
        assert_eq!(pos.mate_in_one(), None, "{sfen}");
        assert!(!brute_force(&mut pos), "the data says no mate in {sfen}");
    }
}

#[test]
fn agrees_with_brute_force_on_random_positions() {
    let (mut with, mut without, mut in_check) = (0, 0, 0);
    common::random_positions(0x3A7E_0001, 20_000, |pos| {
        in_check += pos.in_check() as u32;
        if agrees_with_brute_force(pos) {
            with += 1;
        } else {
            without += 1;
        }
    });
    eprintln!(
        "random positions: {with} with a mate in one, {without} without, {in_check} in check"
    );
    // The playouts must reach both kinds of position for the comparison to mean anything.
    assert!(
        with >= 50 && without >= 1000 && in_check >= 100,
        "{with} with a mate, {without} without, {in_check} in check"
    );
}

/// In check the detector moves only onto the checker or between it and the king (its own
/// static path, not the generating detector): against brute force on every position in
/// check of 200,000 random ones, and on the positions after every check of the defender
/// in the 1,568 `mate1.sfen` positions with the turn passed to it (the attacker, in check,
/// often still has an evasion that mates there).
#[test]
fn agrees_with_brute_force_in_check() {
    let (mut with, mut without) = (0u32, 0u32);
    let mut compare = |pos: &mut Position| {
        if both_detectors_agree_with_brute_force(pos) {
            with += 1;
        } else {
            without += 1;
        }
    };
    common::random_positions(0x3A7E_0002, 200_000, |pos| {
        if pos.in_check() {
            compare(pos);
        }
    });
    let text = std::fs::read_to_string(common::data_path("tsume/mate1.sfen")).unwrap();
    for sfen in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields: Vec<&str> = sfen.split(' ').collect();
        fields[1] = if fields[1] == "b" { "w" } else { "b" };
        let Ok(mut pos) = Position::from_sfen_with(&fields.join(" "), Validation::Composed) else {
            continue;
        };
        if pos.in_check() {
            continue;
        }
        let checks: Vec<_> = legal(&pos)
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        for m in checks {
            pos.do_move(m);
            compare(&mut pos);
            pos.undo_move();
        }
    }
    eprintln!("positions in check: {with} with a mate in one, {without} without");
    assert!(
        with >= 100 && without >= 5_000,
        "{with} with, {without} without"
    );
}

/// The detector's static test must not trust the board before the move: a checker next to
/// the king counts as defended when the move itself opens the defender's line.
#[test]
fn a_checker_defended_through_the_line_its_move_opens_still_mates() {
    // The gold 3c->2b checks the king on 1a and vacates 3c, so the bishop on 5e now
    // defends 2b: mate. Without the bishop the king takes the gold.
    let mut pos =
        Position::from_sfen_with("8k/9/6G2/9/4B4/9/9/9/K8 b - 1", Validation::Composed).unwrap();
    assert_eq!(pos.mate_in_one().map(|m| m.usi()), Some("3c2b".to_string()));
    let mut pos =
        Position::from_sfen_with("8k/9/6G2/9/9/9/9/9/K8 b - 1", Validation::Composed).unwrap();
    assert_eq!(pos.mate_in_one(), None);
    assert!(!brute_force(&mut pos));
    // A discovered lance check covers the last empty square, 1b, only once the knight has
    // left 1c; the knight's promotion on 2a checks too and the rook on 9a defends it.
    let mut pos =
        Position::from_sfen_with("R6sk/7p1/8N/9/9/9/9/9/K7L b - 1", Validation::Composed).unwrap();
    let m = pos.mate_in_one().expect("a mate");
    assert!(mates(&mut pos, m));
    assert!(mates(&mut pos, hayanagi::Move::from_usi("1c2a+").unwrap()));
}

/// The positions the mate solver asks about: tsume problems (the sample and the generated
/// set) and the positions a few random checks and replies away from them, where the
/// attacker holds pieces and the king has few squares. Every answer is compared with brute
/// force, and with the detector that generates every check.
#[test]
fn agrees_with_brute_force_near_tsume_problems() {
    let mut starts: Vec<String> = Vec::new();
    for file in ["tsume/tsume_sample100.tsv", "tsume/generated.tsv"] {
        starts.extend(common::tsv_rows(file).into_iter().map(|r| r[0].clone()));
    }
    let mut rng = common::Rng(0x6D31_7473_756D_6501);
    let (mut with, mut without) = (0u32, 0u32);
    // Positions in check (a defender's turn after a check): the detector's in-check path,
    // which moves only onto the checker or the squares between (with and without a mate).
    let (mut in_check_with, mut in_check_without) = (0u32, 0u32);
    for sfen in &starts {
        for _walk in 0..4 {
            let mut pos = Position::from_sfen_with(sfen, Validation::Composed).unwrap();
            for ply in 0..8 {
                let expected = both_detectors_agree_with_brute_force(&mut pos);
                if expected {
                    with += 1;
                } else {
                    without += 1;
                }
                if pos.in_check() {
                    *if expected {
                        &mut in_check_with
                    } else {
                        &mut in_check_without
                    } += 1;
                }
                // The attacker checks (or, if it cannot, moves anyhow); the defender replies.
                let mut moves: Vec<_> = legal(&pos).iter().copied().collect();
                if ply % 2 == 0 {
                    let checks: Vec<_> = moves
                        .iter()
                        .copied()
                        .filter(|&m| pos.gives_check(m))
                        .collect();
                    if !checks.is_empty() {
                        moves = checks;
                    }
                }
                if moves.is_empty() {
                    break;
                }
                pos.do_move(moves[rng.below(moves.len())]);
            }
        }
    }
    eprintln!(
        "near tsume problems: {with} with a mate in one, {without} without; in check \
         {in_check_with} with, {in_check_without} without"
    );
    assert!(
        with >= 2_000 && without >= 10_000,
        "{with} with, {without} without"
    );
    assert!(
        in_check_without >= 5_000,
        "in check: {in_check_with} with, {in_check_without} without"
    );
}

/// Asserts that the detector answers a mate exactly when brute force finds one (and that
/// its move mates), leaving the position as it was; true when there is a mate.
fn agrees_with_brute_force(pos: &mut Position) -> bool {
    let expected = brute_force(pos);
    let sfen = pos.to_sfen();
    match pos.mate_in_one() {
        Some(m) => assert!(expected && mates(pos, m), "{m} in {sfen}"),
        None => assert!(!expected, "missed a mate in {sfen}"),
    }
    assert_eq!(pos.to_sfen(), sfen);
    expected
}

/// [`agrees_with_brute_force`], and the detector that generates every check answers a mate
/// exactly then too, leaving the position as it was; true when there is a mate.
fn both_detectors_agree_with_brute_force(pos: &mut Position) -> bool {
    let expected = agrees_with_brute_force(pos);
    let sfen = pos.to_sfen();
    assert_eq!(
        pos.mate_in_one_by_generation().is_some(),
        expected,
        "{sfen}"
    );
    assert_eq!(pos.to_sfen(), sfen, "the position is restored");
    expected
}
