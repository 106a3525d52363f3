//! The bench: fixed-depth searches of built-in positions, each from an empty table, giving
//! a node-count signature (equal across runs and machines for one build) and a speed
//! figure. Shared by `hayanagi bench` and the USI `bench` extra.

use crate::engine::{Engine, EngineError};
use crate::search::{Info, Limits};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Instant;

/// The bench positions: openings, middle games, endgames with big hands, a tsume.
pub const BENCH_POSITIONS: [&str; 10] = [
    "startpos",
    "startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b 5i6h 5a6b 6h7h 3a3b",
    "startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f 7a7b",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2GK3R1/LN3GSNL b Bb 29",
    "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 13",
    "7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1",
    "3g1k3/9/2+P1p1n2/9/4N4/9/9/9/4K4 b RGr2b2g4s2n4l16p 1",
];

/// Totals of one bench run.
#[derive(Clone, Copy, Debug)]
pub struct BenchSummary {
    /// Nodes searched over all bench positions: the bench signature.
    pub nodes: u64,
    /// Wall time of the whole bench, in milliseconds.
    pub millis: u64,
}

impl BenchSummary {
    /// Nodes per second over the whole bench (0 when it took no measurable time).
    pub fn nodes_per_second(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

/// Search every bench position to `depth` on `engine` (its options as set; the table is
/// cleared before each position), writing three lines per position to `out`. The engine's
/// info sink is replaced for the run and cleared afterwards.
pub fn run_bench(
    engine: &Engine,
    depth: u32,
    out: &mut dyn FnMut(&str),
) -> Result<BenchSummary, EngineError> {
    let mut nodes = 0u64;
    // The side mate solver ends searches whenever it wins the race: the node signature
    // would depend on timing. The bench measures the search alone.
    let root_mate = engine.options().root_mate;
    engine.set_option("RootMateSearch", "false")?;
    let start = Instant::now();
    let last: Arc<Mutex<Option<Info>>> = Default::default();
    let sink = last.clone();
    engine.set_info_sink(Some(Box::new(move |info: &Info| {
        *sink.lock() = Some(info.clone());
    })));
    let result = (|| {
        for (i, p) in BENCH_POSITIONS.iter().enumerate() {
            engine.set_position(p)?;
            engine.clear_hash()?;
            *last.lock() = None;
            let r = engine.search_blocking(Limits::depth(depth))?;
            nodes += r.nodes;
            let line = last.lock().as_ref().map(Info::to_usi).unwrap_or_default();
            out(&format!("position {}: {}", i + 1, p));
            out(&format!("  {line}"));
            out(&format!("  {}", r.best.to_usi()));
        }
        Ok(())
    })();
    engine.set_info_sink(None);
    engine.set_option("RootMateSearch", if root_mate { "true" } else { "false" })?;
    result?;
    Ok(BenchSummary {
        nodes,
        millis: start.elapsed().as_millis() as u64,
    })
}
