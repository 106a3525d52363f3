//! Search: iterative deepening alpha-beta (PVS) with the techniques of DESIGN.md §3-§5:
//! transposition table, null move, LMR, move ordering, SEE, killers and history.
//! Nothing here knows about the C ABI or the USI text protocol: results go out through
//! the [`Report`] callbacks given by the engine facade.

pub mod choice;
pub mod correction;
pub mod limits;
pub mod mate;
pub mod ordering;
pub mod params;
pub mod picker;
pub mod skill;
pub mod threads;
pub mod time;
pub mod tt;
pub mod worker;

pub use limits::Limits;
pub use tt::TranspositionTable;

use crate::shogi::Move;

/// Score of a mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 246;
/// Score for a draw.
pub const DRAW: i32 = 0;
/// Larger than any score.
pub const INFINITE: i32 = 32001;

/// Scores beyond this magnitude are mates.
pub const MATE_IN_MAX_PLY: i32 = MATE - MAX_PLY as i32;

/// Score of being mated at `ply`.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score of mating at `ply`.
#[inline]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A score as USI reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many plies (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Convert an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_IN_MAX_PLY {
            Score::Mate(MATE - v)
        } else if v <= -MATE_IN_MAX_PLY {
            Score::Mate(-(MATE + v))
        } else {
            Score::Cp(v)
        }
    }
}

/// Whether a score is exact or one side of a bound: what an info line reports after an
/// aspiration fail, and what a transposition-table entry stores (the discriminants are its
/// two bound bits, DESIGN.md §3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ScoreBound {
    /// The score is exact (a PV node).
    Exact = 0,
    /// The true score is at least this (the search failed high: a beta cut-off).
    Lower = 1,
    /// The true score is at most this (the search failed low: every move failed low).
    Upper = 2,
}

/// One `info` report.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Info {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply any line of the iteration reached.
    pub seldepth: u32,
    /// 1-based index of this line among MultiPV lines.
    pub multipv: u32,
    /// The score, from the side to move's point of view.
    pub score: Score,
    /// Whether `score` is exact or a bound.
    pub bound: ScoreBound,
    /// Nodes searched so far, by all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Permille of the transposition table written in this search.
    pub hashfull: u32,
    /// The principal variation, beginning with the move it scores.
    pub pv: Vec<Move>,
}

impl Info {
    /// The report as a USI `info` line.
    pub fn to_usi(&self) -> String {
        let score = match self.score {
            Score::Cp(v) => format!("cp {v}"),
            Score::Mate(n) if n < 0 => format!("mate -{}", -n),
            Score::Mate(n) => format!("mate {n}"),
        };
        let bound = match self.bound {
            ScoreBound::Exact => "",
            ScoreBound::Lower => " lowerbound",
            ScoreBound::Upper => " upperbound",
        };
        let mut s = format!(
            "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} time {} hashfull {}",
            self.depth, self.seldepth, self.multipv, self.nodes, self.nps, self.time_ms, self.hashfull
        );
        if !self.pv.is_empty() {
            s.push_str(" pv");
            for m in &self.pv {
                s.push(' ');
                s.push_str(&m.usi());
            }
        }
        s
    }
}

/// What a search ends with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BestMove {
    /// A move, with an optional move to ponder on.
    /// A move to play, and the expected reply to ponder on if there is one.
    Move {
        /// The move to play.
        best: Move,
        /// The expected reply, to ponder on.
        ponder: Option<Move>,
    },
    /// No legal move: the side to move resigns.
    Resign,
    /// The side to move declares an entering-king win.
    Win,
}

impl BestMove {
    /// The USI `bestmove` line.
    pub fn to_usi(&self) -> String {
        match self {
            BestMove::Move {
                best,
                ponder: Some(p),
            } => format!("bestmove {best} ponder {p}"),
            BestMove::Move { best, ponder: None } => format!("bestmove {best}"),
            BestMove::Resign => "bestmove resign".into(),
            BestMove::Win => "bestmove win".into(),
        }
    }
}

/// What a long iteration has done so far: sent about once a second while no info line
/// came, so that a GUI's node count, speed and table use do not freeze between iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes searched so far, by all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Permille of the transposition table written in this search.
    pub hashfull: u32,
}

impl Progress {
    /// The report as a USI `info` line.
    pub fn to_usi(&self) -> String {
        format!(
            "info nodes {} nps {} time {} hashfull {}",
            self.nodes, self.nps, self.time_ms, self.hashfull
        )
    }
}

/// Where a search sends its output.
pub trait Report: Send + Sync {
    fn info(&self, info: &Info);
    /// Figures of a long iteration between info lines (dropped unless a sink wants them).
    fn progress(&self, _progress: &Progress) {}
}

/// A report sink that drops everything.
pub struct Silent;

impl Report for Silent {
    fn info(&self, _: &Info) {}
}
