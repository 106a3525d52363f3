//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod nnue_ref;
pub mod usi;

use hayanagi::{legal, Position};
use std::path::PathBuf;

/// Path of a file under `tests/data/`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// Rows of a tab-separated data file, comment lines (`#`) skipped.
pub fn tsv_rows(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(data_path(name)).expect("test data file");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Small deterministic generator for playouts.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Starting points for random playouts: quiet, tactical, drop-heavy and near-mate.
pub const PLAYOUT_STARTS: [&str; 6] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
];

/// Visit `count` positions reached by random playouts (captures, checks and drops are
/// preferred so that hands fill up and tactics appear). The visitor gets each position.
pub fn random_positions(seed: u64, count: usize, mut visit: impl FnMut(&mut Position)) {
    let mut rng = Rng(seed);
    let mut seen = 0;
    'outer: loop {
        let start = PLAYOUT_STARTS[rng.below(PLAYOUT_STARTS.len())];
        let mut pos = Position::from_sfen(start).expect("start sfen");
        for _ply in 0..160 {
            visit(&mut pos);
            seen += 1;
            if seen >= count {
                break 'outer;
            }
            let moves = legal(&pos);
            if moves.is_empty() {
                break;
            }
            let ms = moves.as_slice();
            // Two tries at an interesting move, else anything.
            let mut m = ms[rng.below(ms.len())];
            for _ in 0..2 {
                if pos.is_capture(m) || pos.gives_check(m) || m.is_promotion() {
                    break;
                }
                m = ms[rng.below(ms.len())];
            }
            pos.do_move(m);
        }
    }
}
