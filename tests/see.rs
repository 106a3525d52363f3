//! Static exchange evaluation on hand-built positions.
//!
//! Values come from `hayanagi::see_value`:
//! P 100, L 300, N 400, S 500, B 800, R 950, G 550, K 20000,
//! +P/+L/+N/+S 550, horse 1050, dragon 1200.
//!
//! Every position is checked to parse, to hold the pieces the comment describes, and the
//! move is checked to be legal before `see` is asked about it.

mod common;

use hayanagi::see_value;
use hayanagi::{Move, PieceType, Position, Square};

/// Parse `sfen`, check that each `(square, piece)` pair is on the board (piece in SFEN
/// notation, `.` for empty), and return the SEE of the legal move `usi`.
fn see(sfen: &str, pieces: &[(&str, &str)], usi: &str) -> i32 {
    let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(pos.to_sfen(), sfen, "test SFEN is not normalised");
    for &(sq, piece) in pieces {
        let s = Square::from_usi(sq).expect("square name");
        assert_eq!(
            format!("{:?}", pos.piece_on(s)),
            piece,
            "{sfen}: wrong piece on {sq}"
        );
    }
    let m = Move::from_usi(usi).unwrap_or_else(|| panic!("bad move text {usi}"));
    assert!(pos.is_legal(m), "{usi} is not legal in {sfen}");
    pos.see(m)
}

fn v(pt: PieceType) -> i32 {
    see_value(pt)
}

#[test]
fn value_table_is_what_the_comments_assume() {
    use PieceType::*;
    let expected = [
        (Pawn, 100),
        (Lance, 300),
        (Knight, 400),
        (Silver, 500),
        (Bishop, 800),
        (Rook, 950),
        (Gold, 550),
        (King, 20000),
        (ProPawn, 550),
        (ProLance, 550),
        (ProKnight, 550),
        (ProSilver, 550),
        (Horse, 1050),
        (Dragon, 1200),
    ];
    for (pt, value) in expected {
        assert_eq!(v(pt), value, "{pt:?}");
    }
}

#[test]
fn undefended_capture_wins_the_piece() {
    // Black silver 5f takes the white gold on 5e; nothing recaptures.
    // gain = G = 550.
    let sfen = "8k/9/9/9/4g4/4S4/9/9/K8 b - 1";
    assert_eq!(see(sfen, &[("5e", "g"), ("5f", "S")], "5f5e"), 550);
}

#[test]
fn undefended_capture_by_white() {
    // White to move: the white silver on 5d takes the black gold on 5e. The value is
    // from the side to move's point of view, so it is positive as well.
    // gain = G = 550.
    let sfen = "8k/9/9/4s4/4G4/9/9/9/K8 w - 1";
    assert_eq!(see(sfen, &[("5d", "s"), ("5e", "G")], "5d5e"), 550);
}

#[test]
fn rook_takes_defended_pawn_and_loses_the_rook() {
    // Black rook 5h x pawn 5d (+100); white gold 5c recaptures (-950); black has nothing
    // left on 5d. Black would rather not capture, but SEE scores the capture itself:
    // 100 - 950 = -850.
    let sfen = "8k/9/4g4/4p4/9/9/9/4R4/K8 b - 1";
    assert_eq!(
        see(sfen, &[("5c", "g"), ("5d", "p"), ("5h", "R")], "5h5d"),
        -850
    );
    // Without the defender it is a clean pawn.
    let sfen = "8k/9/9/4p4/9/9/9/4R4/K8 b - 1";
    assert_eq!(see(sfen, &[("5d", "p"), ("5h", "R")], "5h5d"), 100);
}

#[test]
fn equal_trade_is_zero() {
    // Black silver 5e x silver 5d (+500); white pawn 5c x silver (-500); black has no
    // second attacker. 500 - 500 = 0 (white recaptures, since not doing so gives 500).
    let sfen = "8k/9/4p4/4s4/4S4/9/9/9/K8 b - 1";
    assert_eq!(
        see(sfen, &[("5c", "p"), ("5d", "s"), ("5e", "S")], "5e5d"),
        0
    );
}

#[test]
fn xray_rook_behind_rook() {
    // Black rooks on 5g and 5h, white pawn 5d defended by the gold on 5c.
    //   R(5g) x p   gain[0] = 100
    //   g x R       gain[1] = 950 - 100 = 850
    //   R(5h) x g   gain[2] = 550 - 850 = -300   (5h sees 5d once 5g has left)
    // Back up: gain[1] = -max(-850, -300) = 300, gain[0] = -max(-100, 300) = -300,
    // i.e. 100 - 950 + 550. Without the x-ray it would be -850.
    let sfen = "8k/9/4g4/4p4/9/9/4R4/4R4/K8 b - 1";
    assert_eq!(
        see(
            sfen,
            &[("5c", "g"), ("5d", "p"), ("5g", "R"), ("5h", "R")],
            "5g5d"
        ),
        -300
    );
}

#[test]
fn xray_lance_behind_lance() {
    // Black lances on 5f and 5g, white silver 5d defended by the pawn on 5c.
    //   L(5f) x s   gain[0] = 500
    //   p x L       gain[1] = 300 - 500 = -200
    //   L(5g) x p   gain[2] = 100 - (-200) = 300
    // Back up: gain[1] = -max(200, 300) = -300, gain[0] = -max(-500, -300) = 300,
    // i.e. 500 - 300 + 100.
    let sfen = "8k/9/4p4/4s4/9/4L4/4L4/9/K8 b - 1";
    assert_eq!(
        see(
            sfen,
            &[("5c", "p"), ("5d", "s"), ("5f", "L"), ("5g", "L")],
            "5f5d"
        ),
        300
    );
    // With a single lance: gain[0] = 500, gain[1] = 300 - 500 = -200,
    // gain[0] = -max(-500, -200) = 200, i.e. 500 - 300.
    let sfen = "8k/9/4p4/4s4/9/4L4/9/9/K8 b - 1";
    assert_eq!(
        see(sfen, &[("5c", "p"), ("5d", "s"), ("5f", "L")], "5f5d"),
        200
    );
}

#[test]
fn xray_bishop_behind_horse() {
    // Black horse 6f and bishop 7g on one diagonal (7g-6f-5e-4d), white silver 4d
    // defended by the gold on 4c (a white gold attacks the square in front of it).
    //   +B x s      gain[0] = 500
    //   g x +B      gain[1] = 1050 - 500 = 550
    //   B x g       gain[2] = 550 - 550 = 0
    // Back up: gain[1] = -max(-550, 0) = 0, gain[0] = -max(-500, 0) = 0,
    // i.e. 500 - 1050 + 550. Without the bishop it would be 500 - 1050 = -550.
    let sfen = "8k/9/5g3/5s3/9/3+B5/2B6/9/K8 b - 1";
    assert_eq!(
        see(
            sfen,
            &[("4c", "g"), ("4d", "s"), ("6f", "+B"), ("7g", "B")],
            "6f4d"
        ),
        0
    );
    let sfen = "8k/9/5g3/5s3/9/3+B5/9/9/K8 b - 1";
    assert_eq!(
        see(sfen, &[("4c", "g"), ("4d", "s"), ("6f", "+B")], "6f4d"),
        -550
    );
}

#[test]
fn capture_with_promotion_counts_the_promotion_gain() {
    // Black pawn 5d x silver 5c, promoting; nothing recaptures.
    // gain = S + (+P - P) = 500 + (550 - 100) = 950.
    let sfen = "8k/9/4s4/4P4/9/9/9/9/K8 b - 1";
    assert_eq!(see(sfen, &[("5c", "s"), ("5d", "P")], "5d5c+"), 950);
    // The same capture without promoting only wins the silver: 500.
    assert_eq!(see(sfen, &[("5c", "s"), ("5d", "P")], "5d5c"), 500);
}

#[test]
fn defended_capture_with_promotion_loses_the_promoted_piece() {
    // Black bishop 8h x gold 3c, promoting; the white silver on 2b recaptures.
    //   B x g +     gain[0] = 550 + (1050 - 800) = 800
    //   s x +B      gain[1] = 1050 - 800 = 250
    // gain[0] = -max(-800, 250) = -250, i.e. 550 - 800: the promotion bonus is lost with
    // the horse.
    let sfen = "8k/7s1/6g2/9/9/9/9/1B7/K8 b - 1";
    assert_eq!(
        see(sfen, &[("2b", "s"), ("3c", "g"), ("8h", "B")], "8h3c+"),
        -250
    );
}

#[test]
fn quiet_move_to_attacked_square_loses_the_piece() {
    // Black silver 5g -> 5f, attacked by the white pawn on 5e and undefended.
    // gain[0] = 0, gain[1] = 500 - 0 = 500, gain[0] = -max(0, 500) = -500.
    let sfen = "8k/9/9/9/4p4/9/4S4/9/K8 b - 1";
    assert_eq!(see(sfen, &[("5e", "p"), ("5g", "S")], "5g5f"), -500);
    // Defended by the gold on 4g: p x S, G x p.
    // gain[1] = 500, gain[2] = 100 - 500 = -400; gain[1] = -max(-500, -400) = 400;
    // gain[0] = -max(0, 400) = -400, i.e. -500 + 100.
    let sfen = "8k/9/9/9/4p4/9/4SG3/9/K8 b - 1";
    assert_eq!(
        see(sfen, &[("5e", "p"), ("5g", "S"), ("4g", "G")], "5g5f"),
        -400
    );
}

#[test]
fn quiet_move_to_safe_square_is_zero() {
    // Black silver 5g -> 4f: nothing white attacks 4f.
    let sfen = "8k/9/9/9/4p4/9/4S4/9/K8 b - 1";
    assert_eq!(see(sfen, &[("5e", "p"), ("5g", "S")], "5g4f"), 0);
}

#[test]
fn drop_onto_attacked_square() {
    // Gold dropped on 5f, attacked by the white pawn on 5e and undefended.
    // gain[1] = 550, gain[0] = -max(0, 550) = -550.
    let sfen = "8k/9/9/9/4p4/9/9/9/K8 b G 1";
    assert_eq!(see(sfen, &[("5e", "p")], "G*5f"), -550);
    // Defended by the black silver on 4g: p x G, S x p.
    // gain[1] = 550, gain[2] = 100 - 550 = -450; gain[1] = -max(-550, -450) = 450;
    // gain[0] = -max(0, 450) = -450, i.e. -550 + 100.
    let sfen = "8k/9/9/9/4p4/9/5S3/9/K8 b G 1";
    assert_eq!(see(sfen, &[("5e", "p"), ("4g", "S")], "G*5f"), -450);
    // Dropped on a square nothing attacks: 0.
    assert_eq!(see(sfen, &[("5e", "p"), ("4g", "S")], "G*1e"), 0);
}

#[test]
fn king_recaptures_only_when_safe() {
    // Black rook 5h x gold 5e next to the white king on 5d.
    // Nothing else of black's sees 5e, so the king takes the rook:
    //   gain[0] = 550, gain[1] = 950 - 550 = 400, gain[0] = -max(-550, 400) = -400.
    let sfen = "9/9/9/4k4/4g4/9/9/4R4/K8 b - 1";
    assert_eq!(
        see(sfen, &[("5d", "k"), ("5e", "g"), ("5h", "R")], "5h5e"),
        -400
    );
    // A black lance on 5i x-rays through the rook: the king may not take, so the gold
    // is won clean: 550.
    let sfen = "9/9/9/4k4/4g4/9/9/4R4/K3L4 b - 1";
    assert_eq!(
        see(
            sfen,
            &[("5d", "k"), ("5e", "g"), ("5h", "R"), ("5i", "L")],
            "5h5e"
        ),
        550
    );
    // A black silver on 4f defends 5e directly: again 550.
    let sfen = "9/9/9/4k4/4g4/5S3/9/4R4/K8 b - 1";
    assert_eq!(
        see(
            sfen,
            &[("5d", "k"), ("5e", "g"), ("5h", "R"), ("4f", "S")],
            "5h5e"
        ),
        550
    );
}

#[test]
fn long_exchange_defender_stops_when_recapturing_loses() {
    // Black pawn 5f x knight 5e. White: silver 4d and rook 5a see 5e. Black: gold 4f and
    // the rook on 5i behind the pawn (x-ray).
    //   P x n       gain[0] = 400
    //   s x P       gain[1] = 100 - 400 = -300
    //   G x s       gain[2] = 500 + 300 = 800
    //   r x G       gain[3] = 550 - 800 = -250
    //   R x r       gain[4] = 950 + 250 = 1200
    // Back up: gain[3] = -max(250, 1200) = -1200; gain[2] = -max(-800, -1200) = 800;
    // gain[1] = -max(300, 800) = -800; gain[0] = -max(-400, -800) = 400.
    // White's best is not to recapture at all: black keeps the knight, 400.
    let sfen = "4r3k/9/9/5s3/4n4/4PG3/9/9/K3R4 b - 1";
    assert_eq!(
        see(
            sfen,
            &[
                ("5a", "r"),
                ("4d", "s"),
                ("5e", "n"),
                ("5f", "P"),
                ("4f", "G"),
                ("5i", "R"),
            ],
            "5f5e"
        ),
        400
    );
}

/// `see_ge` answers some thresholds from the first capture alone; each answer must be
/// `see`'s, for every legal move of random positions (captures, promotions, drops and
/// quiet moves) at thresholds around the values of the pieces; so must `see_at_least`'s,
/// with `see`'s value where it is reached.
#[test]
fn see_ge_agrees_with_see() {
    let thresholds = [
        -1300, -550, -121, -120, -100, -1, 0, 1, 99, 100, 300, 550, 1200,
    ];
    let mut asked = 0usize;
    common::random_positions(7, 3_000, |pos| {
        for &m in hayanagi::legal(pos).as_slice() {
            let value = pos.see(m);
            for &t in &thresholds {
                asked += 1;
                assert_eq!(
                    pos.see_ge(m, t),
                    value >= t,
                    "{} {} threshold {t}: see {value}",
                    pos.to_sfen(),
                    m.usi()
                );
                assert_eq!(
                    pos.see_at_least(m, t),
                    (value >= t).then_some(value),
                    "{} {} threshold {t}: see {value}",
                    pos.to_sfen(),
                    m.usi()
                );
            }
        }
    });
    assert!(asked > 100_000, "{asked}");
}
