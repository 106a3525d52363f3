//! Mate search for `go mate`: depth-first iterative deepening over checks (the seed
//! engine's method). The attacker (side to move) may only check; the defender tries every
//! legal reply, interpositions included. Iterations grow by two plies, so the first proof
//! is the shortest forced mate against the longest resistance.
//!
//! * A line that repeats a position is not a mate (perpetual check loses for the checker,
//!   and a shortest mate never repeats), so cycles end without a proof.
//! * When an iteration finishes without a proof and no line was cut by the depth limit,
//!   every line ended (no check left, or an escape): no mate exists at any length.
//! * No table: results never depend on the path by which a position was reached.

use crate::shogi::{generate_legal, legal, GenType, Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a mate search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A forced mate: the moves of the main line, attacker first, ending in mate.
    Mate(Vec<Move>),
    /// Proven: the side to move has no forced mate.
    NoMate,
    /// The time or node budget ran out (or `stop`) first.
    Timeout,
}

/// Longest mate searched for, in plies.
pub const MAX_MATE_PLY: u32 = 127;

/// Limits of one mate search.
pub struct MateLimits<'a> {
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    pub stop: &'a AtomicBool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Proven,
    /// No mate whatever the depth.
    Disproven,
    /// Not proven within the depth; deeper iterations may prove it.
    Cut,
}

struct Search<'a> {
    pos: Position,
    limits: MateLimits<'a>,
    nodes: u64,
    aborted: bool,
}

impl Search<'_> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let late = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            let spent = self.limits.max_nodes.is_some_and(|n| self.nodes >= n);
            if late || spent || self.limits.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn checks(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.pos.in_check() {
            // Escaping moves that also check.
            for &m in legal(&self.pos).iter() {
                if self.pos.gives_check(m) {
                    list.push(m);
                }
            }
        } else {
            generate_legal(&self.pos, GenType::Checks, &mut list);
        }
        list
    }

    fn repeated(&self) -> bool {
        !matches!(self.pos.repetition(2), crate::shogi::Repetition::None)
    }

    /// Attacker to move with `depth` plies left.
    fn or_node(&mut self, depth: u32) -> Outcome {
        if self.tick() {
            return Outcome::Cut;
        }
        if self.repeated() {
            return Outcome::Disproven;
        }
        if depth == 0 {
            return Outcome::Cut;
        }
        let mut cut = false;
        for &m in self.checks().iter() {
            self.pos.do_move(m);
            let r = self.and_node(depth - 1);
            self.pos.undo_move();
            match r {
                Outcome::Proven => return Outcome::Proven,
                Outcome::Cut => cut = true,
                Outcome::Disproven => {}
            }
            if self.aborted {
                return Outcome::Cut;
            }
        }
        if cut {
            Outcome::Cut
        } else {
            Outcome::Disproven
        }
    }

    /// Defender to move (in check) with `depth` plies left.
    fn and_node(&mut self, depth: u32) -> Outcome {
        if self.tick() {
            return Outcome::Cut;
        }
        let replies = legal(&self.pos);
        if replies.is_empty() {
            return Outcome::Proven;
        }
        if self.repeated() {
            return Outcome::Disproven;
        }
        if depth == 0 {
            return Outcome::Cut;
        }
        let mut cut = false;
        for &m in replies.iter() {
            self.pos.do_move(m);
            let r = self.or_node(depth - 1);
            self.pos.undo_move();
            match r {
                Outcome::Disproven => return Outcome::Disproven,
                Outcome::Cut => cut = true,
                Outcome::Proven => {}
            }
            if self.aborted {
                return Outcome::Cut;
            }
        }
        if cut {
            Outcome::Cut
        } else {
            Outcome::Proven
        }
    }

    /// Shortest odd length (<= `max`) at which the attacker to move mates, if any.
    fn mate_length(&mut self, max: u32) -> Option<u32> {
        (1..=max)
            .step_by(2)
            .find(|&d| self.or_node(d) == Outcome::Proven && !self.aborted)
    }

    /// The main line of a mate of exactly `depth` plies: the attacker takes the shortest
    /// mate, the defender the reply that holds out longest.
    fn main_line(&mut self, depth: u32, line: &mut Vec<Move>) {
        let checks = self.checks();
        let Some(&mating) = checks.iter().find(|&&m| {
            self.pos.do_move(m);
            let r = self.and_node(depth - 1);
            self.pos.undo_move();
            r == Outcome::Proven
        }) else {
            return;
        };
        line.push(mating);
        self.pos.do_move(mating);
        let mut longest: Option<(u32, Move)> = None;
        for &reply in legal(&self.pos).iter() {
            self.pos.do_move(reply);
            let len = self.mate_length(depth - 2);
            self.pos.undo_move();
            if let Some(len) = len {
                if longest.map_or(true, |(l, _)| len > l) {
                    longest = Some((len, reply));
                }
            }
        }
        if let Some((len, reply)) = longest {
            line.push(reply);
            self.pos.do_move(reply);
            self.main_line(len, line);
            self.pos.undo_move();
        }
        self.pos.undo_move();
    }
}

/// Look for a forced mate by the side to move in `pos`. Returns the result and the nodes
/// visited.
pub fn search_mate(pos: &Position, limits: MateLimits<'_>) -> (MateResult, u64) {
    let mut s = Search {
        pos: pos.clone(),
        limits,
        nodes: 0,
        aborted: false,
    };
    let mut depth = 1;
    while depth <= MAX_MATE_PLY {
        match s.or_node(depth) {
            _ if s.aborted => return (MateResult::Timeout, s.nodes),
            Outcome::Proven => {
                let mut line = Vec::new();
                s.main_line(depth, &mut line);
                if s.aborted {
                    return (MateResult::Timeout, s.nodes);
                }
                return (MateResult::Mate(line), s.nodes);
            }
            Outcome::Disproven => return (MateResult::NoMate, s.nodes),
            Outcome::Cut => depth += 2,
        }
    }
    (MateResult::Timeout, s.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(sfen: &str) -> MateResult {
        let stop = AtomicBool::new(false);
        let pos = Position::from_sfen_with(sfen, crate::shogi::Validation::Composed).unwrap();
        search_mate(
            &pos,
            MateLimits {
                deadline: None,
                max_nodes: Some(50_000_000),
                stop: &stop,
            },
        )
        .0
    }

    #[test]
    fn finds_mate_in_one_and_proves_no_mate() {
        // Gold drop mate at the head of a cornered king.
        match solve("8k/9/8P/9/9/9/9/9/K8 b G 1") {
            MateResult::Mate(line) => assert_eq!(line.len(), 1),
            other => panic!("{other:?}"),
        }
        // No pieces to check with.
        assert_eq!(solve("8k/9/9/9/9/9/9/9/K8 b - 1"), MateResult::NoMate);
    }

    #[test]
    fn pawn_drop_mate_is_not_a_mate() {
        // rules.tsv R01: only P*1b would mate, and that is illegal (uchifuzume).
        assert_eq!(solve("7lk/9/8S/9/9/9/9/7L1/8K b P 1"), MateResult::NoMate);
    }
}
