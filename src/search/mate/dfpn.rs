//! Depth-first proof-number search (df-pn) with an optional ply bound.
//!
//! OR nodes are the attacker's: its legal checks are the children. AND nodes are the
//! defender's: every legal evasion, interpositions included. Pawn-drop mate is excluded by
//! the legal move generator, for both sides.
//!
//! The ply bound turns the same search into "is there a mate within `depth` plies": an OR
//! node with no plies left is disproven for that bound only. Proofs carry their length and
//! disproofs the bound they hold for (see `table.rs`), so successive passes with smaller
//! bounds reuse what earlier ones found. The driver in `mod.rs` uses that to shrink a first
//! proof to the shortest mate.
//!
//! Repetition: a child position that already occurs on the current path (or in the game
//! before the root) is a failure for the attacker: the attacker is the one checking, so a
//! cycle is a perpetual check or a draw, never a mate. So is a child whose board and side
//! to move occur on the path with the attacker holding at least as much in hand (an
//! inferior repetition): whatever mates it, the ancestor mates sooner by the same moves, so
//! a shortest mate never passes through it. No proof is ever built on a repetition.
//!
//! A disproof that depends on a repetition carries the depth of the shallowest repeated
//! position it rests on (its start depth) and holds for the current path only: storing it
//! is the graph-history interaction (the same position reached by another path may be a
//! mate). Once the search is back at that depth, the cycle lies inside the node's own
//! subtree: a shortest mate of the node would never return to the node, so the disproof
//! holds on any path and is stored (for the node's own attacker hand or less). Positions
//! of the game before the root keep the exact rule (a fourth occurrence ends the game) and
//! start at depth 0: results resting on them are stored only for the root.
//!
//! Results carry the attacker's hand they hold for (proof and disproof pieces,
//! `pieces.rs`): the table stores them under that hand, so one entry serves every position
//! that differs only in what the attacker holds beyond (for a proof) or within (for a
//! disproof) it.
//!
//! Thresholds follow df-pn with the 1+epsilon trick (Pawlewicz and Lew): a child may grow
//! to a quarter more than its best sibling before the search switches, which cuts the
//! thrashing between siblings of similar cost.

use super::counters::MateCounters;
use super::evasion_cache::EvasionCache;
use super::horizon;
use super::key_map::KeyMap;
use super::path_cache::{self, PathCache};
use super::pieces;
use super::table::{Lookup, NodeKey, ProofTable, INDEPENDENT, INFINITE, MAX_FINITE, UNBOUNDED};
use super::{MateLimits, MateVariant};
use crate::shogi::movegen::{has_legal_move, legal_king_moves};
use crate::shogi::{
    count_evasions, generate_legal, legal_moves, Color, GenType, Hand, Move, MoveList, Position,
};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Deepest path the search follows. A node beyond it is neither proven nor disproven but
/// made as costly as possible, so the search looks elsewhere and, if nothing else is left,
/// runs out of budget instead of answering wrongly. Ten times the longest known composed
/// mate (1,525 plies); the solver's thread has the stack for it.
pub const MAX_PATH: usize = 16_000;

type PathSet = KeyMap<u32>;

/// The boards of a path that holds one node, `board`: the root of a solve, or a node read
/// as the root of its own path (`Dfpn::rooted_here`).
fn path_of_one(board: u64) -> PathSet {
    let mut boards = PathSet::default();
    boards.insert(board, 1);
    boards
}

/// Restores the limits when a grace period ([`Dfpn::grace`]) ends.
pub struct Grace<'s, 'a> {
    solver: &'s mut Dfpn<'a>,
    was_aborted: bool,
}

impl<'a> std::ops::Deref for Grace<'_, 'a> {
    type Target = Dfpn<'a>;
    fn deref(&self) -> &Dfpn<'a> {
        self.solver
    }
}

impl<'a> std::ops::DerefMut for Grace<'_, 'a> {
    fn deref_mut(&mut self) -> &mut Dfpn<'a> {
        self.solver
    }
}

impl Drop for Grace<'_, '_> {
    fn drop(&mut self) {
        self.solver.grace_until = None;
        self.solver.aborted |= self.was_aborted;
    }
}

/// A node beyond the deepest path: as costly as can be, neither proven nor disproven.
const TOO_DEEP: Lookup = Lookup {
    pn: MAX_FINITE,
    dn: MAX_FINITE,
    ..Lookup::UNKNOWN
};

struct Child {
    m: Move,
    key: NodeKey,
    value: Lookup,
    /// Delayed expansion: the index of the sibling this move waits for ([`NOT_DELAYED`]:
    /// none). It enters the search once that sibling is resolved the way that does not
    /// already decide the node (see [`Dfpn::delay_similar_moves`]).
    behind: u16,
    /// A new check whose evasions are not counted yet (`MateVariant::lazy_lookahead`): its
    /// proof number 1 is a lower bound.
    uncounted: bool,
}

const NOT_DELAYED: u16 = u16::MAX;

/// What the evasion cache keeps for an attacker node found without a mate in one (its
/// board key, with the attacker to move, is never a check's): no check has this many
/// evasions.
const NO_MATE_IN_ONE: u32 = 0x7fff;

/// Does child `i` take part in the search yet? (At an attacker node a delayed move waits
/// for its sibling's disproof, at a defender node for its proof.)
fn is_active(children: &[Child], i: usize, or: bool) -> bool {
    match children[i].behind {
        NOT_DELAYED => true,
        j if or => children[j as usize].value.is_disproven(),
        j => children[j as usize].value.is_proven(),
    }
}

/// One solve: the position being searched, its table and budgets.
pub struct Dfpn<'a> {
    pub pos: Position,
    pub table: ProofTable,
    pub nodes: u64,
    pub aborted: bool,
    attacker: Color,
    limits: MateLimits<'a>,
    variant: MateVariant,
    /// Board keys (with the side to move) of the positions on the current path, counted.
    path_boards: PathSet,
    /// The current path from the root on, one entry per depth: board key (with the side to
    /// move) and the attacker's hand.
    path: Vec<(u64, Hand)>,
    /// The key of the path from the root to each node of it (`path_cache.rs`; kept only
    /// with `MateVariant::path_cache`).
    path_keys: Vec<u64>,
    /// Path-dependent disproofs of this solve, by path (`MateVariant::path_cache`).
    path_cache: PathCache,
    /// Occurrences of each position of the game before the root (since the last null move).
    history: PathSet,
    /// Deepest path followed (see [`MAX_PATH`]).
    max_path: usize,
    /// While reading out a proven line: the node count up to which the search may go on
    /// whatever the deadline, node limit or stop say.
    grace_until: Option<u64>,
    /// Reused move buffer (a fresh `MoveList` costs a 2 KiB clear).
    scratch: MoveList,
    /// Evasion counts of new checks seen before (`evasion_cache.rs`).
    evasions_seen: EvasionCache,
    /// Move generations and look-aheads (the table counts its own work).
    counters: MateCounters,
    /// Tests only: the current node's position and result at every store under a hand
    /// other than its own, for re-solving with that hand.
    #[cfg(test)]
    audit: Option<Vec<(Position, Lookup)>>,
    /// Tests only: the current node's position and result at every disproof settled at the
    /// start of its cycle ([`Dfpn::settle_cycle`]).
    #[cfg(test)]
    settled_audit: Option<Vec<(Position, Lookup)>>,
    /// Store path-dependent disproofs as if they held on any path (the graph-history-
    /// interaction error, for the test that shows the solver avoids it).
    #[cfg(test)]
    store_path_dependent: bool,
}

fn saturating_sum(a: u32, b: u32) -> u32 {
    if a == INFINITE || b == INFINITE {
        INFINITE
    } else {
        a.saturating_add(b).min(MAX_FINITE)
    }
}

/// Child threshold with the 1+epsilon trick: a quarter above the second-best sibling.
fn widened(second: u32) -> u32 {
    if second >= MAX_FINITE {
        INFINITE
    } else {
        second.saturating_add(second / 4 + 1).min(MAX_FINITE)
    }
}

fn child_depth(depth: u16) -> u16 {
    if depth == UNBOUNDED {
        UNBOUNDED
    } else {
        depth - 1
    }
}

fn plus_one(len: u16) -> u16 {
    if len == UNBOUNDED {
        UNBOUNDED
    } else {
        len.saturating_add(1).min(UNBOUNDED - 1)
    }
}

impl<'a> Dfpn<'a> {
    /// A solver for `pos` that follows paths of at most `max_path` plies (what the
    /// thread's stack allows; at most [`MAX_PATH`]).
    pub fn new(
        pos: &Position,
        limits: MateLimits<'a>,
        max_path: usize,
        variant: MateVariant,
    ) -> Dfpn<'a> {
        let mut history = PathSet::default();
        let states = pos.states();
        let last = states.len() - 1;
        let since_null = states[last].plies_from_null as usize;
        for st in &states[last - since_null.min(last)..last] {
            *history.entry(st.key).or_insert(0) += 1;
        }
        let root_board = pos.board_key();
        let path_boards = path_of_one(root_board);
        let attacker = pos.side_to_move();
        let path = vec![(root_board, pos.hand(attacker))];
        let mut table = ProofTable::new(limits.table_mib);
        table.set_generalise_hands(variant.proof_pieces);
        table.set_reuse_other_depths(variant.depth_reuse);
        table.set_resolved_weight(variant.gc_resolved_weight);
        Dfpn {
            attacker,
            pos: pos.clone(),
            table,
            nodes: 0,
            aborted: false,
            limits,
            variant,
            path_boards,
            path,
            path_keys: vec![0],
            path_cache: PathCache::default(),
            history,
            max_path: max_path.min(MAX_PATH),
            scratch: MoveList::new(),
            evasions_seen: EvasionCache::new(),
            grace_until: None,
            counters: MateCounters::default(),
            #[cfg(test)]
            audit: None,
            #[cfg(test)]
            settled_audit: None,
            #[cfg(test)]
            store_path_dependent: false,
        }
    }

    /// Store the current node's result.
    fn store(&mut self, key: &NodeKey, depth: u16, value: Lookup, amount: u64) {
        #[cfg(test)]
        let value = if self.store_path_dependent && value.is_disproven() {
            Lookup {
                rep_start: INDEPENDENT,
                ..value
            }
        } else {
            value
        };
        #[cfg(test)]
        if let Some(audit) = self.audit.as_mut() {
            let resolved = value.is_proven() || value.is_disproven();
            if resolved
                && !value.is_path_dependent()
                && value.hand != key.hands[self.attacker.index()]
            {
                audit.push((self.pos.clone(), value));
            }
        }
        self.table.store(key, depth, value, amount);
    }

    /// The work counters so far, the table's included.
    pub fn counters(&self) -> MateCounters {
        let mut c = self.counters;
        self.table.add_counters(&mut c);
        c
    }

    pub fn wants_shortest(&self) -> bool {
        self.limits.shortest
    }

    /// Let the search run past the deadline and node limit by a bounded number of extra
    /// nodes (a tenth of those searched, at least 100,000), so that a mate already proven
    /// can be read out even when the budget ran out (`stop` still applies). What is left of
    /// the budget stays usable too: the search stops only once both are spent. The limits
    /// alone apply again when the returned guard drops.
    pub fn grace(&mut self) -> Grace<'_, 'a> {
        let was_aborted = self.aborted;
        self.aborted = false;
        self.grace_until = Some(self.nodes + (self.nodes / 10).max(100_000));
        Grace {
            solver: self,
            was_aborted,
        }
    }

    /// Count a node and check the limits: `stop` and the node limit every 64 nodes (a
    /// side solver is joined when its search ends, so it must notice `stop` at once), the
    /// clock every 1,024.
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 63 != 0 {
            return;
        }
        let stopped = self.limits.stop.load(Ordering::Relaxed);
        if let Some(until) = self.grace_until {
            // `stop` ends it at once; the budget only once the grace is spent as well. A
            // precaution, not measured on its own: a small table may lose the proofs of a
            // long line, and reading it proves them again, which can take more than the
            // grace while budget is left.
            if stopped || (self.nodes >= until && self.budget_spent()) {
                self.aborted = true;
            }
            return;
        }
        if stopped || self.budget_spent() {
            self.aborted = true;
        }
    }

    /// The node limit reached, or the deadline passed (the clock is read every 1,024
    /// nodes).
    fn budget_spent(&self) -> bool {
        self.limits.max_nodes.is_some_and(|n| self.nodes >= n)
            || (self.nodes & 1023 == 0 && self.limits.deadline.is_some_and(|d| Instant::now() >= d))
    }

    /// The identity of the current node.
    pub fn node_key(&self) -> NodeKey {
        NodeKey {
            board_key: self.pos.board_key(),
            hands: [self.pos.hand(Color::Black), self.pos.hand(Color::White)],
            side: self.pos.side_to_move(),
            attacker: self.attacker,
        }
    }

    /// The moves of the current node: checks for the attacker, evasions for the defender.
    pub fn moves(&mut self) -> Vec<Move> {
        self.generate_moves();
        self.scratch.as_slice().to_vec()
    }

    /// [`Self::moves`] into `self.scratch` (no list of its own for `mid`, which turns them
    /// into its children at once).
    fn generate_moves(&mut self) {
        self.counters.move_generations += 1;
        let list = &mut self.scratch;
        list.clear();
        if self.pos.side_to_move() != self.attacker {
            legal_moves(&self.pos, list);
        } else if self.pos.in_check() {
            legal_moves(&self.pos, list);
            let pos = &self.pos;
            list.retain(|m| pos.gives_check(m));
        } else {
            generate_legal(&self.pos, GenType::Checks, list);
        }
    }

    /// Does `m`, leading to `board_key` with `hands`, repeat a position of the path (the
    /// same, or the same board with the attacker holding less: see the module note), or
    /// reach the fourth occurrence of a position of the game (sennichite)? The start depth
    /// of the repetition: the deepest such position of the path, 0 for the game's. An
    /// earlier game position may occur a second or third time: that is legal and ends
    /// nothing.
    fn repetition_start(&self, m: Move, board_key: u64, hands: [Hand; 2]) -> Option<u16> {
        if self.path_boards.contains_key(&board_key) {
            let held = hands[self.attacker.index()];
            let inferior = self.variant.inferior_repetition;
            let found = self.path.iter().rposition(|&(b, h)| {
                b == board_key && (h == held || (inferior && h.dominates(held)))
            });
            if let Some(depth) = found {
                return Some(depth as u16);
            }
        }
        if self.history.is_empty() {
            return None;
        }
        let key = self.pos.key_after(m);
        self.history
            .get(&key)
            .is_some_and(|&n| n + 1 >= 4)
            .then_some(0)
    }

    /// Run `f` with the current node as the root of the path: the positions above it are
    /// left out of the repetition tests, and restored after. For reading a proven line
    /// (`line_from_table`), where a proof found from another path may come back to a
    /// position of the line: a repetition for the solver, though by the rules a position
    /// met a second time ends nothing. `None` (and `f` not run) where the game before the
    /// root counts (its results rest on depth 0, which would then be this node's) or with
    /// the path cache (keyed by the whole path from the root).
    pub fn rooted_here<R>(&mut self, f: impl FnOnce(&mut Dfpn<'a>) -> R) -> Option<R> {
        if !self.history.is_empty() || self.variant.path_cache {
            return None;
        }
        let here = *self.path.last().expect("the root at least");
        let path = std::mem::replace(&mut self.path, vec![here]);
        let boards = std::mem::replace(&mut self.path_boards, path_of_one(here.0));
        let r = f(self);
        self.path = path;
        self.path_boards = boards;
        Some(r)
    }

    /// Plies from the root to the current node.
    fn depth(&self) -> usize {
        self.path.len() - 1
    }

    pub fn push(&mut self, m: Move) {
        let board_key = self.pos.board_key_after(self.path[self.depth()].0, m);
        self.pos.do_move(m);
        *self.path_boards.entry(board_key).or_insert(0) += 1;
        let hand = self.pos.hand(self.attacker);
        self.path.push((board_key, hand));
        if self.variant.path_cache {
            let parent = self.path_keys[self.path_keys.len() - 1];
            self.path_keys
                .push(path_cache::extend(parent, board_key, hand.raw()));
        }
    }

    pub fn pop(&mut self) {
        let (board_key, _) = self.path.pop().expect("a move to take back");
        if self.variant.path_cache {
            self.path_keys.pop();
        }
        if let Some(n) = self.path_boards.get_mut(&board_key) {
            *n -= 1;
            if *n == 0 {
                self.path_boards.remove(&board_key);
            }
        }
        self.pos.undo_move();
    }

    /// A disproof of the current node that rests on repetitions of this node only (a cycle
    /// inside its own subtree) holds on any path, for the node's attacker hand or less
    /// (see the module note); other results pass unchanged.
    fn settle_cycle(&mut self, key: &NodeKey, mut value: Lookup) -> Lookup {
        if self.variant.repetition_start
            && value.is_disproven()
            && value.is_path_dependent()
            && value.rep_start as usize >= self.depth()
        {
            value.rep_start = INDEPENDENT;
            value.hand = pieces::meet(value.hand, key.hands[self.attacker.index()]);
            self.counters.settled_cycles += 1;
            #[cfg(test)]
            if let Some(audit) = self.settled_audit.as_mut() {
                audit.push((self.pos.clone(), value));
            }
        }
        value
    }

    /// What the table (or the path) says of the child reached by `m`.
    fn child(&mut self, key: &NodeKey, m: Move, depth: u16, probe_path_cache: bool) -> Child {
        let board_key = self.pos.board_key_after(key.board_key, m);
        let hands = self.pos.hands_after(m);
        let ck = NodeKey {
            board_key,
            hands,
            side: key.side.flip(),
            attacker: self.attacker,
        };
        let value = if let Some(start) = self.repetition_start(m, board_key, hands) {
            Lookup::repetition(start, hands[self.attacker.index()])
        } else if self.depth() + 1 >= self.max_path {
            TOO_DEEP
        } else if depth == 0 && ck.side == self.attacker {
            // An attacker with no plies left cannot mate, whatever it holds.
            Lookup::disproven(0, pieces::total(hands))
        } else {
            let found = self.table.lookup(&ck, depth);
            if probe_path_cache && !found.is_proven() && !found.is_disproven() {
                self.path_cached(&ck, depth).unwrap_or(found)
            } else {
                found
            }
        };
        Child {
            m,
            key: ck,
            value,
            behind: NOT_DELAYED,
            uncounted: false,
        }
    }

    /// A disproof the path cache holds for the child `ck` of the current node, reached by
    /// the same path, good for `depth` plies.
    fn path_cached(&mut self, ck: &NodeKey, depth: u16) -> Option<Lookup> {
        let parent = self.path_keys[self.path_keys.len() - 1];
        let hand = ck.hands[self.attacker.index()];
        let found = self
            .path_cache
            .get(path_cache::extend(parent, ck.board_key, hand.raw()))
            .filter(|v| v.disproof_len >= depth);
        self.counters.path_cache_hits += found.is_some() as u64;
        found
    }

    /// Delayed expansion: moves that usually share their fate enter one at a time. At a
    /// defender node, drops on the same square (a block that fails with one piece mostly
    /// fails with another); at an attacker node, a move without promotion waits behind the
    /// same move with it. The search stays exact: a node is proven or disproven only when
    /// the rule of its kind holds over every child, delayed ones included (a delayed child
    /// becomes active when its sibling resolves without deciding the node).
    fn delay_similar_moves(&self, children: &mut [Child], or: bool) {
        if or {
            let promotions: Vec<(u16, u16, usize)> = children
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.m.is_drop() && c.m.is_promotion())
                .map(|(i, c)| (c.m.from().index() as u16, c.m.to().index() as u16, i))
                .collect();
            if promotions.is_empty() {
                return;
            }
            for c in children.iter_mut() {
                if c.m.is_drop() || c.m.is_promotion() {
                    continue;
                }
                let (from, to) = (c.m.from().index() as u16, c.m.to().index() as u16);
                if let Some(&(_, _, i)) = promotions.iter().find(|p| p.0 == from && p.1 == to) {
                    c.behind = i as u16;
                }
            }
        } else {
            let mut last = [NOT_DELAYED; 81];
            for (i, c) in children.iter_mut().enumerate() {
                if c.m.is_drop() {
                    let to = c.m.to().index();
                    c.behind = last[to];
                    last[to] = i as u16;
                }
            }
        }
    }

    /// `MateVariant::lazy_lookahead`: may the current attacker node (`key`) leave the new
    /// checks among `rest` uncounted, now that one of its checks has a single evasion? Only
    /// where enough are left for the saving to pay for the question, and only without a
    /// mate in one among them (a mated defender must be found by counting: left to the
    /// search, a mate in one costs a subtree). A node found without one is remembered in
    /// the evasion cache, so a re-entry does not ask again.
    fn may_leave_uncounted(&mut self, key: &NodeKey, rest: &[Child]) -> bool {
        let new = rest.iter().filter(|c| c.value == Lookup::UNKNOWN).count();
        if new < self.variant.lazy_lookahead as usize {
            return false;
        }
        if self.evasions_seen.get(key.board_key, key.hands) == Some(NO_MATE_IN_ONE) {
            return true;
        }
        self.counters.lazy_guards += 1;
        if self.pos.mate_in_one().is_some() {
            return false;
        }
        self.evasions_seen
            .put(key.board_key, key.hands, NO_MATE_IN_ONE);
        true
    }

    /// The one-ply look-ahead at the new check `c` of the current attacker node (`key`,
    /// `depth` plies): the check's first value from its evasion count (kept in the evasion
    /// cache); when the defender has no legal move, the node proven by it instead (stored,
    /// with the mated position, and returned).
    fn look_ahead(&mut self, key: &NodeKey, depth: u16, c: &mut Child) -> Option<Lookup> {
        self.counters.lookaheads += 1;
        let cd = child_depth(depth);
        let attacker = self.attacker;
        // The board after the check is all the count needs: no key, no state (most
        // look-aheads are never searched).
        let (evasions, mated_hand) = self.pos.with_move_on_board(c.m, |pos| {
            // With no ply left after it, only "mate or not" matters.
            let evasions = if cd == 0 {
                has_legal_move(pos) as u32
            } else {
                // Every move of an attacker node checks.
                debug_assert!(pos.in_check());
                count_evasions(pos)
            };
            let mated_hand =
                (evasions == 0).then(|| pieces::defender_proof_hand(pos, attacker, Hand::EMPTY));
            (evasions, mated_hand)
        });
        c.uncounted = false;
        if let Some(mated_hand) = mated_hand {
            // The mated position is stored too, so the main line can be read back from the
            // table.
            self.table
                .store(&c.key, cd, Lookup::proven(0, mated_hand), 1);
            let hand = pieces::hand_before(&self.pos, c.m, mated_hand);
            let value = Lookup::proven(1, hand);
            self.store(key, depth, value, 1);
            return Some(value);
        }
        if cd != 0 && self.variant.evasion_cache {
            self.evasions_seen
                .put(c.key.board_key, c.key.hands, evasions);
        }
        c.value = self.counted_value(&c.key, cd, evasions);
        None
    }

    /// A new check's first value from its evasion count (at least 1), `cd` plies left after
    /// it: the count as its proof number, or with no ply left a disproof (the defender has
    /// a move with this hand and the attacker no ply).
    fn counted_value(&self, ck: &NodeKey, cd: u16, evasions: u32) -> Lookup {
        if cd == 0 {
            Lookup::disproven(0, ck.hands[self.attacker.index()])
        } else {
            Lookup {
                pn: evasions,
                ..Lookup::UNKNOWN
            }
        }
    }

    /// `MateVariant::mate_in_three_at_checks`: the current attacker node's checks that are
    /// new (first numbers from their evasion count, kept in the evasion cache) with few
    /// evasions, each tested once (a failed test marks its cache entry) for a mate in three:
    /// every evasion allows a mate in one and reaches no board of the path or a position of
    /// the game played before the root. A proof within three plies for the node's own hand.
    fn mate_in_three_at_checks(&mut self, key: &NodeKey, children: &[Child]) -> Option<Lookup> {
        let most = self.variant.mate_in_three_at_checks;
        for c in children {
            let (pn, ck) = (c.value.pn, c.key);
            if pn == 0 || pn > most || c.value.dn != 1 {
                continue;
            }
            if self.evasions_seen.get(ck.board_key, ck.hands) != Some(pn)
                || self.evasions_seen.marked(ck.board_key, ck.hands)
            {
                continue;
            }
            self.counters.check_mate3_tests += 1;
            if self.every_evasion_allows_mate_in_one(c.m, ck.board_key) {
                return Some(Lookup::proven(3, key.hands[self.attacker.index()]));
            }
            self.evasions_seen.mark(ck.board_key, ck.hands);
        }
        None
    }

    /// After the check `m` (to the board `board_key`): the defender has a move, and each
    /// allows a mate in one. Played on the board alone (no keys, no states: most tests fail
    /// at the first reply) unless the game before the root counts, whose repetitions need
    /// the full keys.
    fn every_evasion_allows_mate_in_one(&mut self, m: Move, board_key: u64) -> bool {
        if !self.history.is_empty() {
            return self.every_evasion_allows_mate_in_one_keyed(m);
        }
        let path_boards = &self.path_boards;
        self.pos.with_move_on_board(m, |pos| {
            every_reply(pos, |pos, r| {
                !path_boards.contains_key(&pos.board_key_after(board_key, r))
                    && pos.with_move_on_board(r, |after| after.mate_in_one().is_some())
            })
        })
    }

    /// [`Self::every_evasion_allows_mate_in_one`] with the moves played (`do_move`), so that
    /// positions of the game before the root are recognised by their keys.
    fn every_evasion_allows_mate_in_one_keyed(&mut self, m: Move) -> bool {
        let (path_boards, history) = (&self.path_boards, &self.history);
        self.pos.do_move(m);
        let all = every_reply(&mut self.pos, |pos, r| {
            pos.do_move(r);
            let repeats =
                path_boards.contains_key(&pos.board_key()) || history.contains_key(&pos.key());
            let mated = !repeats && pos.mate_in_one().is_some();
            pos.undo_move();
            mated
        });
        self.pos.undo_move();
        all
    }

    /// Search the current node until its proof number reaches `thpn` or its disproof number
    /// `thdn`, or it is resolved, with `depth` plies allowed (`UNBOUNDED`: any).
    pub fn mid(&mut self, key: NodeKey, thpn: u32, thdn: u32, depth: u16) -> Lookup {
        self.tick();
        if self.depth() >= self.max_path {
            // Only reached when nothing else is left to search; the budget decides.
            return TOO_DEEP;
        }
        let start = self.nodes;
        let or = key.side == self.attacker;
        self.generate_moves();
        if self.scratch.is_empty() {
            let value = if or {
                // No check at all: no mate at any length.
                let all = pieces::total(key.hands);
                Lookup::disproven(
                    UNBOUNDED,
                    pieces::attacker_disproof_hand(&self.pos, self.attacker, all),
                )
            } else {
                Lookup::proven(
                    0,
                    pieces::defender_proof_hand(&self.pos, self.attacker, Hand::EMPTY),
                )
            };
            self.store(&key, depth, value, 1);
            return value;
        }
        if depth == 0 {
            // A defender with a move left is not mated within zero plies (with this hand:
            // with fewer pieces its only moves might be gone).
            return Lookup::disproven(0, key.hands[self.attacker.index()]);
        }
        let cd = child_depth(depth);
        let probe = self.variant.path_cache
            && self
                .path_cache
                .has_children_of(self.path_keys[self.path_keys.len() - 1]);
        let count = self.scratch.len();
        let mut children: Vec<Child> = Vec::with_capacity(count);
        for i in 0..count {
            // (`child` leaves the list alone: no copy of it needed.)
            let m = self.scratch.as_slice()[i];
            children.push(self.child(&key, m, cd, probe));
        }
        if self.variant.delayed_moves && children.len() > 1 {
            self.delay_similar_moves(&mut children, or);
        }
        let horizon = match depth {
            2 if self.variant.mate_in_one_horizon => Some(1),
            4 if self.variant.mate_in_three_horizon => Some(3),
            _ => None,
        };
        if let (false, Some(plies)) = (or, horizon) {
            // Two or four plies left: a reply settles the node when the attacker has no mate
            // within the rest after it, a question answered without a node per position.
            for c in children.iter_mut() {
                if c.value != Lookup::UNKNOWN {
                    continue;
                }
                self.pos.do_move(c.m);
                let mates = if plies == 1 {
                    self.counters.mate_in_one_tests += 1;
                    horizon::mates_in_one(&mut self.pos, !self.variant.static_mate_in_one)
                } else {
                    self.counters.mate_in_three_tests += 1;
                    horizon::mates_within_three(&mut self.pos, !self.variant.static_mate_in_one)
                };
                self.pos.undo_move();
                if !mates {
                    // With no more pieces in hand there is no such mate either.
                    c.value = Lookup::disproven(plies, c.key.hands[self.attacker.index()]);
                    break;
                }
            }
        }
        if or {
            // First look one ply ahead at the checks nothing is known about: a check with no
            // evasion proves the node at once, and otherwise the number of evasions is a
            // better first proof number than 1 (df-pn+).
            let lazy = self.variant.lazy_lookahead != 0 && cd != 0;
            // The least proof number among the active children so far: once it is 1, no
            // count can lower the node's (`MateVariant::lazy_lookahead`).
            let mut least = INFINITE;
            // Whether the checks not yet counted may stay so, asked once, when `least`
            // first reaches 1 and a check is still to be counted.
            let mut leave_uncounted = None;
            for i in 0..children.len() {
                if children[i].value == Lookup::UNKNOWN {
                    let c = &children[i];
                    let seen = if self.variant.evasion_cache {
                        self.evasions_seen.get(c.key.board_key, c.key.hands)
                    } else {
                        None
                    };
                    if let Some(count) = seen {
                        // Counted on an earlier visit; with no ply left only "any?" matters.
                        children[i].value = self.counted_value(&c.key, cd, count);
                    } else if lazy
                        && least <= 1
                        && *leave_uncounted
                            .get_or_insert_with(|| self.may_leave_uncounted(&key, &children[i..]))
                    {
                        children[i].uncounted = true;
                    } else if let Some(value) = self.look_ahead(&key, depth, &mut children[i]) {
                        return value;
                    }
                }
                if lazy && is_active(&children, i, true) {
                    least = least.min(children[i].value.pn);
                }
            }
        }
        if or && self.variant.mate_in_three_at_checks != 0 && (depth == UNBOUNDED || depth >= 3) {
            if let Some(value) = self.mate_in_three_at_checks(&key, &children) {
                self.store(&key, depth, value, 1);
                return value;
            }
        }
        loop {
            let value = if or {
                or_value(&self.pos, self.attacker, &children)
            } else {
                and_value(&self.pos, self.attacker, &children)
            };
            if value.pn == MAX_FINITE || value.dn == MAX_FINITE {
                self.counters.saturated += 1;
            }
            if value.pn == 0
                || value.dn == 0
                || value.pn >= thpn
                || value.dn >= thdn
                || self.aborted
            {
                let value = self.settle_cycle(&key, value);
                if self.variant.path_cache && value.is_disproven() && value.is_path_dependent() {
                    // (The root has no parent, and its result is final anyway.)
                    if let [.., parent, path_key] = self.path_keys[..] {
                        self.path_cache.put(parent, path_key, value);
                    }
                }
                self.store(&key, depth, value, self.nodes - start + 1);
                return value;
            }
            let (best, second) = if or {
                select(&children, or, |c| c.value.pn)
            } else {
                select(&children, or, |c| c.value.dn)
            };
            if or && children[best].uncounted {
                // Chosen before its evasions were counted (`MateVariant::lazy_lookahead`):
                // counted now, and the choice made again.
                if let Some(value) = self.look_ahead(&key, depth, &mut children[best]) {
                    return value;
                }
                continue;
            }
            let c = &children[best];
            let (cth_pn, cth_dn) = if or {
                (
                    thpn.min(widened(second)),
                    thdn.saturating_sub(value.dn - c.value.dn),
                )
            } else {
                (
                    thpn.saturating_sub(value.pn - c.value.pn),
                    thdn.min(widened(second)),
                )
            };
            let (m, ck) = (c.m, c.key);
            self.push(m);
            let result = self.mid(ck, cth_pn, cth_dn, cd);
            self.pop();
            children[best].value = result;
        }
    }
}

/// The defender to move in `pos` has a reply, and `allows(pos, r)` holds for each reply `r`
/// (the king's moves asked first: most escapes are one, and the rest are then never
/// generated). `allows` leaves the position as it found it.
fn every_reply(pos: &mut Position, mut allows: impl FnMut(&mut Position, Move) -> bool) -> bool {
    let mut replies = MoveList::new();
    legal_king_moves(pos, &mut replies);
    let mut any = !replies.is_empty();
    if !replies.iter().all(|&r| allows(pos, r)) {
        return false;
    }
    replies.clear();
    legal_moves(pos, &mut replies);
    let king = pos.king_square(pos.side_to_move());
    replies.retain(|r| r.is_drop() || Some(r.from()) != king);
    any |= !replies.is_empty();
    any && replies.iter().all(|&r| allows(pos, r))
}

/// Index of the active child with the smallest `f`, and the second smallest value.
fn select(children: &[Child], or: bool, f: impl Fn(&Child) -> u32) -> (usize, u32) {
    let mut best = 0;
    let mut best_value = INFINITE;
    let mut second = INFINITE;
    for (i, c) in children.iter().enumerate() {
        if !is_active(children, i, or) {
            continue;
        }
        let v = f(c);
        if v < best_value {
            second = best_value;
            best_value = v;
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}

/// OR node (`pos`, the attacker to move): proven by the shortest proven child; disproven
/// when every child is (and then path-dependent if any of those disproofs is, from the
/// shallowest start depth among them). The proof
/// hand is the chosen check's, taken back over its move; the disproof hand is the meet of
/// every check's (see `pieces.rs`).
fn or_value(pos: &Position, attacker: Color, children: &[Child]) -> Lookup {
    let mut pn = INFINITE;
    let mut dn = 0;
    let mut proof: Option<(u16, usize)> = None;
    let mut disproof = UNBOUNDED;
    let mut rep_start = INDEPENDENT;
    for (i, c) in children.iter().enumerate() {
        let v = &c.value;
        if is_active(children, i, true) {
            pn = pn.min(v.pn);
            dn = saturating_sum(dn, v.dn);
        }
        if v.is_proven() && proof.is_none_or(|(len, _)| v.proof_len < len) {
            proof = Some((v.proof_len, i));
        }
        if v.is_disproven() {
            disproof = disproof.min(v.disproof_len);
            rep_start = rep_start.min(v.rep_start);
        }
    }
    if let Some((len, i)) = proof {
        let c = &children[i];
        Lookup::proven(len + 1, pieces::hand_before(pos, c.m, c.value.hand))
    } else if dn == 0 {
        // (A node has a child here: one without checks was resolved before.)
        let checks = children
            .iter()
            .map(|c| pieces::hand_before(pos, c.m, c.value.hand))
            .reduce(pieces::meet)
            .unwrap_or_default();
        Lookup {
            rep_start,
            ..Lookup::disproven(
                plus_one(disproof),
                pieces::attacker_disproof_hand(pos, attacker, checks),
            )
        }
    } else {
        Lookup {
            pn,
            dn,
            ..Lookup::UNKNOWN
        }
    }
}

/// AND node (`pos`, the defender to move): disproven by any disproven child (preferring
/// disproofs that hold on any path, then the deepest start depth, then the longest bound),
/// with that reply's disproof hand (the attacker's hand is the same after a defender move);
/// proven when every child is, as long as the longest of them, with the join of their proof
/// hands and the kinds a drop could block with (see `pieces.rs`). The proof number sums
/// every reply, delayed ones included; the disproof number is the active replies' least.
fn and_value(pos: &Position, attacker: Color, children: &[Child]) -> Lookup {
    let mut pn = 0;
    let mut dn = INFINITE;
    let mut proof = 0u16;
    let mut proof_hand = Hand::EMPTY;
    let mut disproof: Option<((u16, u16), Hand)> = None;
    for (i, c) in children.iter().enumerate() {
        let v = &c.value;
        // A delayed reply still has to be refuted before the node is proven, so its proof
        // number counts from the start (counting only the active replies made nodes with
        // many interpositions look cheap: 1.19x the nodes on the 1,050 generated problems);
        // it only waits to be searched.
        pn = saturating_sum(pn, v.pn);
        if is_active(children, i, false) {
            dn = dn.min(v.dn);
        }
        if v.is_proven() {
            proof = proof.max(v.proof_len);
            proof_hand = pieces::join(proof_hand, v.hand);
        }
        if v.is_disproven() {
            // Ordered: path-independent first (INDEPENDENT is the largest start depth),
            // then the deepest start, then longer.
            let candidate = (v.rep_start, v.disproof_len);
            if disproof.is_none_or(|(d, _)| candidate > d) {
                disproof = Some((candidate, v.hand));
            }
        }
    }
    if let Some(((rep_start, len), hand)) = disproof {
        Lookup {
            rep_start,
            ..Lookup::disproven(plus_one(len), hand)
        }
    } else if pn == 0 {
        Lookup::proven(
            proof + 1,
            pieces::defender_proof_hand(pos, attacker, proof_hand),
        )
    } else {
        Lookup {
            pn,
            dn,
            ..Lookup::UNKNOWN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mate::{solve_variant, MateResult};
    use crate::shogi::{legal, PieceType, Validation};
    use std::sync::atomic::AtomicBool;

    /// `pos` with the attacker holding `hand` and the defender the rest of the pieces in hand.
    fn with_attacker_hand(pos: &Position, attacker: Color, hand: Hand) -> Position {
        let hands = [pos.hand(Color::Black), pos.hand(Color::White)];
        let mut new = [Hand::EMPTY; 2];
        new[attacker.index()] = hand;
        new[attacker.flip().index()] = pieces::minus(pieces::total(hands), hand);
        let sfen = pos.to_sfen();
        let f: Vec<&str> = sfen.split(' ').collect();
        let mut text = String::new();
        for (c, h) in [(Color::Black, new[0]), (Color::White, new[1])] {
            for pt in PieceType::HAND.iter().rev() {
                let n = h.count(*pt);
                if n > 1 {
                    text += &n.to_string();
                }
                if n > 0 {
                    let l = pt.sfen_letter();
                    text.push(if c == Color::Black {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
            }
        }
        if text.is_empty() {
            text.push('-');
        }
        let sfen = format!("{} {} {} 1", f[0], f[1], text);
        Position::from_sfen_with(&sfen, Validation::Composed).expect(&sfen)
    }

    /// Mate (`Some(true)`), no mate (`Some(false)`) or undecided for the side to move
    /// within `len` plies, by the solver without proof pieces.
    fn mates_within(pos: &Position, len: u16) -> Option<bool> {
        let stop = AtomicBool::new(false);
        let limits = MateLimits {
            deadline: None,
            max_nodes: Some(2_000_000),
            stop: &stop,
            table_mib: 4,
            shortest: false,
            max_len: (len != UNBOUNDED).then_some(len),
        };
        let plain = MateVariant::by_name("plain").unwrap();
        match solve_variant(pos, limits, plain).result {
            MateResult::Mate(_) => Some(true),
            MateResult::NoMate => Some(false),
            MateResult::Timeout => None,
        }
    }

    /// Does `v` hold at `pos` (the attacker or the defender to move)?
    fn holds(pos: &Position, attacker: Color, v: &Lookup) -> Option<bool> {
        let or = pos.side_to_move() == attacker;
        let (proof, len) = if v.is_proven() {
            (true, v.proof_len)
        } else {
            (false, v.disproof_len)
        };
        if or {
            return mates_within(pos, len).map(|m| m == proof);
        }
        let replies = legal(pos);
        if replies.is_empty() || len == 0 {
            // Mated (a proof of length 0) or not mated within 0 plies.
            return Some(replies.is_empty() == proof);
        }
        let child_len = child_depth(len);
        let mut undecided = false;
        for &r in replies.as_slice() {
            let mut p = pos.clone();
            p.do_move(r);
            // One reply that escapes decides both kinds of result.
            match mates_within(&p, child_len) {
                Some(false) => return Some(!proof),
                Some(true) => {}
                None => undecided = true,
            }
        }
        (!undecided).then_some(proof)
    }

    /// A solver for `sfen` after `moves` (USI) played from it along the path.
    fn solver_after<'a>(
        sfen: &str,
        moves: &[&str],
        variant: MateVariant,
        stop: &'a AtomicBool,
    ) -> Dfpn<'a> {
        let pos = Position::from_sfen_with(sfen, Validation::Composed).unwrap();
        let limits = MateLimits {
            deadline: None,
            max_nodes: Some(2_000_000),
            stop,
            table_mib: 4,
            shortest: false,
            max_len: None,
        };
        let mut s = Dfpn::new(&pos, limits, 2_000, variant);
        for m in moves {
            let m = s.pos.parse_usi_move(m).unwrap();
            s.push(m);
        }
        s
    }

    /// The value the current node of `s` sees for its move `m` (USI).
    fn child_value(s: &mut Dfpn<'_>, m: &str) -> Lookup {
        let key = s.node_key();
        let m = s.pos.parse_usi_move(m).unwrap();
        s.child(&key, m, UNBOUNDED, false).value
    }

    /// The mate-in-three test at checks played on the board alone answers as the one that
    /// plays every move with `do_move` (which the game history before the root needs), the
    /// path's repetitions included, and leaves the position as it found it: every check
    /// along random check-and-reply walks from the sample problems.
    #[test]
    fn the_mate_in_three_test_on_the_board_answers_as_with_moves_played() {
        let stop = AtomicBool::new(false);
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/tsume/tsume_sample100.tsv"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut rng = crate::util::rng::Rng::new(19);
        let (mut tested, mut mates, mut cycles) = (0, 0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let sfen = line.split('\t').next().unwrap();
            let mut s = solver_after(sfen, &[], MateVariant::DEFAULT, &stop);
            for _ in 0..10 {
                if s.pos.side_to_move() == s.attacker {
                    let key = s.node_key();
                    for m in s.moves() {
                        let board_key = s.pos.board_key_after(key.board_key, m);
                        let (before, sfen_before) = (s.pos.key(), s.pos.to_sfen());
                        let on_board = s.every_evasion_allows_mate_in_one(m, board_key);
                        assert_eq!((s.pos.key(), s.pos.to_sfen()), (before, sfen_before));
                        let played = s.every_evasion_allows_mate_in_one_keyed(m);
                        assert_eq!(on_board, played, "{} after {m}", s.pos.to_sfen());
                        tested += 1;
                        mates += on_board as u32;
                        let mut after = s.pos.clone();
                        after.do_move(m);
                        let replies = legal(&after);
                        cycles += replies.as_slice().iter().any(|&r| {
                            s.path_boards
                                .contains_key(&after.board_key_after(board_key, r))
                        }) as u32;
                    }
                }
                let moves = s.moves();
                if moves.is_empty() {
                    break;
                }
                // Half the time back to the board of four plies before if a move goes
                // there, so that the tests meet replies that repeat the path.
                let back = (s.path.len() >= 4 && rng.next_u64().is_multiple_of(2))
                    .then(|| {
                        let (target, key) = (s.path[s.path.len() - 4].0, s.node_key());
                        moves
                            .iter()
                            .copied()
                            .find(|&m| s.pos.board_key_after(key.board_key, m) == target)
                    })
                    .flatten();
                let m = back.unwrap_or(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                s.push(m);
            }
        }
        // Both answers, and checks with a reply that repeats the path, enough of each to
        // mean something.
        assert!(
            tested > 2_000 && mates > 100 && tested - mates > 1_000,
            "{tested} {mates}"
        );
        assert!(cycles > 50, "{cycles}");
    }

    /// Reading a line under a grace period may use the rest of the budget, not only the
    /// grace (a tenth of the nodes so far): a line read with budget to spare must not fail
    /// for want of nodes. Past both, it stops.
    #[test]
    fn a_grace_period_keeps_the_rest_of_the_budget() {
        let stop = AtomicBool::new(false);
        let limits = |max_nodes| MateLimits {
            deadline: None,
            max_nodes: Some(max_nodes),
            stop: &stop,
            table_mib: 1,
            shortest: false,
            max_len: None,
        };
        let pos =
            Position::from_sfen_with("7k1/9/9/9/9/9/9/9/K7R b - 1", Validation::Composed).unwrap();
        // Whether the solver stops on reaching node `n`.
        let stops_at = |s: &mut Dfpn<'_>, n: u64| {
            s.nodes = n - 1;
            s.tick();
            s.aborted
        };
        let mut s = Dfpn::new(&pos, limits(1_000_000), 2_000, MateVariant::DEFAULT);
        {
            // The grace runs to node 100,000; the budget to 1,000,000.
            let mut g = s.grace();
            assert!(!stops_at(&mut g, 500_000), "the budget is not spent yet");
            assert!(stops_at(&mut g, 1_000_000), "both are spent");
        }
        // Past the budget, the grace alone: a tenth of the nodes searched.
        s.aborted = false;
        s.nodes = 2_000_000;
        let mut g = s.grace();
        assert!(!stops_at(&mut g, 2_100_000), "within the grace");
        assert!(stops_at(&mut g, 2_200_000), "the grace is spent");
        drop(g);
        // Without a grace, the budget alone.
        let mut s = Dfpn::new(&pos, limits(64), 2_000, MateVariant::DEFAULT);
        assert!(stops_at(&mut s, 64));
    }

    /// A node searched as the root ([`Dfpn::rooted_here`]) leaves the path above it out of the
    /// repetition tests: the king stepping back to 2b, a repetition of depth 2 on the path,
    /// is there an unknown position, mated in three as a solver started at it finds, and
    /// the path is whole again after.
    #[test]
    fn a_node_read_as_the_root_forgets_the_path_above() {
        let stop = AtomicBool::new(false);
        let sfen = "l7l/3+B5/p4g1k1/4pppp1/P1+B4np/1PpPP1P1P/1S3P3/1pG1K4/L5SNg b R2SL2Prg2np 93";
        let line = ["R*1c", "2c2b", "1c1b", "2b2c", "1b1c"];
        let mut s = solver_after(sfen, &line, MateVariant::DEFAULT, &stop);
        let unknown = s.rooted_here(|s| child_value(s, "2c2b")).unwrap();
        assert!(
            !unknown.is_disproven() && !unknown.is_proven(),
            "{unknown:?}"
        );
        let here = s
            .rooted_here(|s| {
                let m = s.pos.parse_usi_move("2c2b").unwrap();
                s.push(m);
                let key = s.node_key();
                let v = s.mid(key, INFINITE, INFINITE, UNBOUNDED);
                s.pop();
                v
            })
            .unwrap();
        // The same position (rook on 1c, king on 2b, same hands) as the root of a solve:
        // mated in three, not in one.
        let child = solver_after(sfen, &line[..2], MateVariant::DEFAULT, &stop).pos;
        assert_eq!(mates_within(&child, 3), Some(true));
        assert_eq!(mates_within(&child, 1), Some(false));
        assert!(!s.aborted);
        assert!(here.is_proven() && here.proof_len == 3, "{here:?}");
        let v = child_value(&mut s, "2c2b");
        assert!(v.is_disproven() && v.rep_start == 2, "{v:?}");
    }

    /// A board the path already holds, with the attacker holding less than it did there, is
    /// a repetition from that depth (the defender took the dropped rook and the king went
    /// back: whatever mates from there mates sooner from the root); the same board with the
    /// attacker's hand unchanged is one too; with the variant off only the latter counts.
    #[test]
    fn a_board_repeated_with_less_in_the_attackers_hand_is_a_repetition() {
        let stop = AtomicBool::new(false);
        let sfen = "l7l/3+B5/p4g1k1/4pppp1/P1+B4np/1PpPP1P1P/1S3P3/1pG1K4/L5SNg b R2SL2Prg2np 93";
        let line = ["R*1c", "2c2b", "1c2c+"];
        let mut s = solver_after(sfen, &line, MateVariant::DEFAULT, &stop);
        let v = child_value(&mut s, "2b2c");
        assert!(v.is_disproven() && v.rep_start == 0, "{v:?}");
        let plain = MateVariant {
            inferior_repetition: false,
            ..MateVariant::DEFAULT
        };
        let mut s = solver_after(sfen, &line, plain, &stop);
        let v = child_value(&mut s, "2b2c");
        assert!(!v.is_path_dependent() && !v.is_disproven(), "{v:?}");
        // An exact repetition, from the deepest occurrence: the rook checks from 1c and 1d
        // while the king steps between 2b and 2c.
        let line = ["R*1c", "2c2b", "1c1b", "2b2c", "1b1c"];
        for variant in [MateVariant::DEFAULT, plain] {
            let mut s = solver_after(sfen, &line, variant, &stop);
            let v = child_value(&mut s, "2c2b");
            assert!(v.is_disproven() && v.rep_start == 2, "{v:?}");
        }
    }

    /// A lone rook checks forever without mating: the no-mate rests on cycles inside the
    /// subtrees, and each disproof stored once the search is back at its cycle's start holds
    /// when re-solved from scratch by the solver that never stores a path-dependent result;
    /// likewise the no-mate-within-a-bound results of the sample problems, searched with and
    /// without the horizon tests (which settle the last plies of a bound without nodes, and
    /// so leave fewer cycles to settle).
    #[test]
    fn disproofs_settled_at_their_cycle_start_hold_on_any_path() {
        let stop = AtomicBool::new(false);
        let mut cases: Vec<(String, u16)> = vec![("7k1/9/9/9/9/9/9/9/K7R b - 1".into(), UNBOUNDED)];
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/tsume/tsume_sample100.tsv"
        );
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut f = line.split('\t');
            let sfen = f.next().unwrap().to_string();
            let len: u16 = f.next().unwrap().trim().parse().unwrap();
            if len >= 5 {
                // No mate within two plies less than the shortest: every check fails.
                cases.push((sfen, len - 2));
            }
        }
        let (mut settled, mut checked, mut undecided) = (0, 0, 0);
        let no_horizon = MateVariant {
            mate_in_one_horizon: false,
            mate_in_three_horizon: false,
            ..MateVariant::DEFAULT
        };
        let runs = cases
            .iter()
            .flat_map(|case| [(case, MateVariant::DEFAULT), (case, no_horizon)]);
        for ((sfen, bound), variant) in runs {
            let bound = *bound;
            let mut s = solver_after(sfen, &[], variant, &stop);
            s.settled_audit = Some(Vec::new());
            let root = s.node_key();
            let v = s.mid(root, INFINITE, INFINITE, bound);
            assert!(v.is_disproven(), "{sfen} within {bound}: {v:?}");
            let audit = s.settled_audit.take().unwrap();
            settled += audit.len();
            for (p, v) in audit.iter() {
                let attacker = s.attacker;
                let re = with_attacker_hand(p, attacker, v.hand);
                match holds(&re, attacker, v) {
                    Some(ok) => {
                        assert!(ok, "{v:?} does not hold at {re} (settled at {p})");
                        checked += 1;
                    }
                    None => undecided += 1,
                }
            }
        }
        eprintln!("settled {settled}, checked {checked}, undecided {undecided}");
        assert!(
            checked >= 100,
            "checked {checked} of {settled}, undecided {undecided}"
        );
        assert!(
            undecided * 10 <= checked,
            "checked {checked}, undecided {undecided}"
        );
    }

    /// Each result stored under a proof or disproof hand other than its node's holds when
    /// re-solved from scratch with that hand (by the solver without proof pieces).
    #[test]
    fn results_stored_under_other_hands_hold_with_those_hands() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/tsume/tsume_sample100.tsv"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let stop = AtomicBool::new(false);
        let (mut checked, mut undecided, mut proofs) = (0, 0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let sfen = line.split('\t').next().unwrap();
            let pos = Position::from_sfen_with(sfen, Validation::Composed).unwrap();
            let limits = MateLimits {
                deadline: None,
                max_nodes: Some(200_000),
                stop: &stop,
                table_mib: 4,
                shortest: false,
                max_len: None,
            };
            let mut s = Dfpn::new(&pos, limits, 2_000, MateVariant::DEFAULT);
            s.audit = Some(Vec::new());
            let root = s.node_key();
            s.mid(root, INFINITE, INFINITE, UNBOUNDED);
            let audit = s.audit.take().unwrap();
            // Every 5th record: enough to meet each rule many times, cheap enough for CI.
            for (p, v) in audit.iter().step_by(5).take(40) {
                let attacker = pos.side_to_move();
                let re = with_attacker_hand(p, attacker, v.hand);
                match holds(&re, attacker, v) {
                    Some(ok) => {
                        assert!(ok, "{v:?} does not hold at {re} (stored from {p})");
                        checked += 1;
                        proofs += v.is_proven() as u32;
                    }
                    None => undecided += 1,
                }
            }
        }
        eprintln!("checked {checked} ({proofs} proofs), undecided {undecided}");
        assert!(checked >= 300, "checked {checked}, undecided {undecided}");
        assert!(
            proofs >= 50 && checked - proofs >= 50,
            "{proofs} proofs of {checked}"
        );
        assert!(
            undecided * 10 <= checked,
            "checked {checked}, undecided {undecided}"
        );
    }

    /// Graph history interaction: a no-mate that rests on a repetition of the current path
    /// is true for that path only. Here (a rook and a gold in hand against a bare king; the
    /// one position of 20,000 random sparse ones with a mate where the error shows) the
    /// solver proves the mate (shortest 17 plies; cshogi's `DfPn` finds one of 25), while
    /// the same solver storing its path-dependent no-mates as plain ones answers no mate.
    #[test]
    fn a_no_mate_that_rests_on_the_path_is_not_stored_for_other_paths() {
        let stop = AtomicBool::new(false);
        let sfen = "9/9/9/9/1K7/9/8k/3S5/5L3 b RG 1";
        for (store_path_dependent, mates) in [(false, true), (true, false)] {
            let mut s = solver_after(sfen, &[], MateVariant::DEFAULT, &stop);
            s.store_path_dependent = store_path_dependent;
            let root = s.node_key();
            let v = s.mid(root, INFINITE, INFINITE, UNBOUNDED);
            assert_eq!(
                (v.is_proven(), v.is_disproven()),
                (mates, !mates),
                "storing path-dependent results: {store_path_dependent}, {v:?}"
            );
        }
        // Kept by path, the same no-mates are reused where they hold and nowhere else: the
        // answer stays a mate, and the search does come back down cached paths.
        let path_cache = MateVariant {
            path_cache: true,
            ..MateVariant::DEFAULT
        };
        let mut s = solver_after(sfen, &[], path_cache, &stop);
        let root = s.node_key();
        let v = s.mid(root, INFINITE, INFINITE, UNBOUNDED);
        assert!(v.is_proven(), "{v:?}");
        assert!(s.counters().path_cache_hits > 0);
        let pos = Position::from_sfen_with(sfen, Validation::Composed).unwrap();
        assert_eq!(mates_within(&pos, 17), Some(true));
        assert_eq!(mates_within(&pos, 15), Some(false));
    }
}
