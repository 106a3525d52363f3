//! Proof-number table of the mate solver.
//!
//! Entries are keyed by the board (with the side to move) and carry both hands, so one
//! lookup can use hand dominance: a mate proven with fewer attacking pieces in hand (or more
//! defending ones) is a mate here too, and a disproof with more attacking pieces in hand (or
//! fewer defending ones) is a disproof here too. All entries of one board share a cluster.
//!
//! Proofs and disproofs carry lengths, which makes the table valid across the solver's
//! depth-bounded passes: a proof stores an upper bound of the mate length, a disproof the
//! number of plies within which there is certainly no mate (`UNBOUNDED`: none at all).
//!
//! With proof and disproof pieces (`pieces.rs`), a proof is stored under the smallest
//! attacker hand that still mates and a disproof under the largest that still fails, the
//! defender's hand being the rest of the pieces in hand.
//!
//! When the table fills up, garbage collection drops the entries that cost the fewest
//! nodes (see [`ProofTable::collect_garbage`]).

use super::counters::MateCounters;
use super::pieces;
use crate::shogi::{Color, Hand};
use crate::util::memory::ZeroedBuf;
use std::cell::Cell;

/// Proof or disproof number meaning "infinite".
pub const INFINITE: u32 = u32::MAX;
/// Largest finite proof or disproof number; sums saturate here.
pub const MAX_FINITE: u32 = u32::MAX - 1;
/// A remaining depth or disproof length meaning "no limit".
pub const UNBOUNDED: u16 = u16::MAX;
/// [`Lookup::rep_start`] of a result that holds on any path.
pub const INDEPENDENT: u16 = u16::MAX;
/// `proof_len` of an entry that is not a proof.
const NOT_PROVEN: u16 = u16::MAX;

const CLUSTER: usize = 8;
const INITIAL_BYTES: usize = 256 << 10;

/// What the table knows about a node, seen from a given remaining depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookup {
    pub pn: u32,
    pub dn: u32,
    /// Mate length (upper bound) when `pn == 0`.
    pub proof_len: u16,
    /// Plies within which there is no mate when `dn == 0`.
    pub disproof_len: u16,
    /// For a disproof that rests on a repetition of the current path, the depth (plies
    /// from the root) of the shallowest repeated position it rests on; [`INDEPENDENT`]
    /// for a result that holds on any path. A dependent result is true for this path only,
    /// so it is never stored (storing it is the graph-history-interaction error: the same
    /// position reached another way may well be a mate) until the search is back at that
    /// depth, where the cycle lies inside the node's own subtree (see `dfpn.rs`).
    pub rep_start: u16,
    /// The attacker's hand the result holds for: for a proof, every hand with at least
    /// these pieces mates (the proof hand); for a disproof, every hand with at most these
    /// fails (the disproof hand). Unused otherwise.
    pub hand: Hand,
}

impl Lookup {
    pub const UNKNOWN: Lookup = Lookup {
        pn: 1,
        dn: 1,
        proof_len: NOT_PROVEN,
        disproof_len: 0,
        rep_start: INDEPENDENT,
        hand: Hand::EMPTY,
    };

    /// A mate in `len` plies for any attacker hand with at least `hand`.
    pub fn proven(len: u16, hand: Hand) -> Lookup {
        Lookup {
            pn: 0,
            dn: INFINITE,
            proof_len: len,
            disproof_len: 0,
            rep_start: INDEPENDENT,
            hand,
        }
    }

    /// No mate within `len` plies for any attacker hand with at most `hand`.
    pub fn disproven(len: u16, hand: Hand) -> Lookup {
        Lookup {
            pn: INFINITE,
            dn: 0,
            proof_len: NOT_PROVEN,
            disproof_len: len,
            rep_start: INDEPENDENT,
            hand,
        }
    }

    /// A disproof by repetition of the position at depth `start` of the current path (for
    /// the attacker's hand at the repeating node only).
    pub fn repetition(start: u16, hand: Hand) -> Lookup {
        Lookup {
            rep_start: start,
            ..Lookup::disproven(UNBOUNDED, hand)
        }
    }

    /// Does the result rest on a repetition of the current path?
    pub fn is_path_dependent(&self) -> bool {
        self.rep_start != INDEPENDENT
    }

    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }

    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    board_key: u64,
    /// Hands indexed by colour.
    hands: [u32; 2],
    pn: u32,
    dn: u32,
    /// Nodes spent below this entry; 0 marks an empty slot.
    amount: u32,
    /// Remaining depth `pn`/`dn` were computed for.
    depth: u16,
    proof_len: u16,
    disproof_len: u16,
}

/// An entry as stored: five words, all zero for an empty slot, so that a new table is
/// one zeroed allocation (pages the search never touches are never written).
type Packed = [u64; 5];

impl Entry {
    fn hand(&self, c: Color) -> Hand {
        Hand::from_raw(self.hands[c.index()])
    }

    fn pack(&self) -> Packed {
        [
            self.board_key,
            self.hands[0] as u64 | (self.hands[1] as u64) << 32,
            self.pn as u64 | (self.dn as u64) << 32,
            self.amount as u64 | (self.depth as u64) << 32 | (self.proof_len as u64) << 48,
            self.disproof_len as u64,
        ]
    }

    /// Holds a proof or a disproof (of some length).
    fn is_resolved(&self) -> bool {
        self.proof_len != NOT_PROVEN || self.disproof_len != 0
    }

    fn unpack(w: &Packed) -> Entry {
        Entry {
            board_key: w[0],
            hands: [w[1] as u32, (w[1] >> 32) as u32],
            pn: w[2] as u32,
            dn: (w[2] >> 32) as u32,
            amount: w[3] as u32,
            depth: (w[3] >> 32) as u16,
            proof_len: (w[3] >> 48) as u16,
            disproof_len: w[4] as u16,
        }
    }
}

/// The solver's table. Not shared between threads: each solve owns one.
pub struct ProofTable {
    entries: ZeroedBuf<Packed>,
    clusters: usize,
    /// Most clusters allowed (`MateHash`); the table starts small and grows up to it.
    max_clusters: usize,
    used: usize,
    collections: u32,
    /// Store proofs and disproofs under their proof and disproof hands (else under the
    /// node's own hands).
    generalise_hands: bool,
    /// Proof and disproof numbers of an unresolved entry serve a lookup with another ply
    /// bound as its first estimate (else only the same bound's).
    reuse_other_depths: bool,
    /// Garbage collection counts a resolved entry's nodes this many times (1: as they are),
    /// so that proofs and disproofs outlive unresolved entries of as many nodes.
    resolved_weight: u32,
    lookups: Cell<u64>,
    stores: u64,
    path_dependent_discards: u64,
    generalisations: u64,
    /// Results that contradicted a stored one (see [`contradicts`]).
    contradictions: u64,
}

/// A node's identity as the table sees it.
#[derive(Clone, Copy, Debug)]
pub struct NodeKey {
    pub board_key: u64,
    pub hands: [Hand; 2],
    /// The side to move at the node.
    pub side: Color,
    /// The attacking side (to move at OR nodes).
    pub attacker: Color,
}

impl NodeKey {
    fn matches(&self, e: &Entry) -> bool {
        e.amount != 0
            && e.board_key == self.board_key
            && e.hands[0] == self.hands[0].raw()
            && e.hands[1] == self.hands[1].raw()
    }

    /// A proof stored for `e` holds here: we attack with at least its pieces and defend with
    /// at most its pieces.
    fn inherits_proof(&self, e: &Entry) -> bool {
        let a = self.attacker;
        let d = a.flip();
        self.hands[a.index()].dominates(e.hand(a)) && e.hand(d).dominates(self.hands[d.index()])
    }

    /// A disproof stored for `e` holds here: the mirror image of [`Self::inherits_proof`].
    fn inherits_disproof(&self, e: &Entry) -> bool {
        let a = self.attacker;
        let d = a.flip();
        e.hand(a).dominates(self.hands[a.index()]) && self.hands[d.index()].dominates(e.hand(d))
    }
}

/// Does the resolved `value` for `key` contradict entry `e` of the same board? A proof
/// within `L` plies where `e` says there is no mate within `L` or more for these hands, or
/// the other way round. Neither can happen in a sound search (a stored result that did
/// would be the graph-history-interaction error or a wrong proof or disproof hand), so
/// debug builds stop at one and the bench counts them.
fn contradicts(key: &NodeKey, value: &Lookup, e: &Entry) -> bool {
    if e.amount == 0 {
        return false;
    }
    if value.is_proven() {
        e.disproof_len != 0 && e.disproof_len >= value.proof_len && key.inherits_disproof(e)
    } else {
        e.proof_len != NOT_PROVEN && e.proof_len <= value.disproof_len && key.inherits_proof(e)
    }
}

/// Bytes of one cluster.
const CLUSTER_BYTES: usize = CLUSTER * std::mem::size_of::<Packed>();

/// Most clusters of a table of `mib` MiB (at least one).
fn max_clusters(mib: usize) -> usize {
    (mib.max(1).saturating_mul(1 << 20) / CLUSTER_BYTES).max(1)
}

/// `clusters`, or `max` where that is less than twice as many. Every size a table takes
/// below its maximum is at most half of it, so each growth at least doubles the table and
/// the last lands on the maximum: growing holds the old table beside the new one, and a
/// last step of a few clusters would hold two tables of nearly the full size (`MateHash`
/// 4096: 8.4 GB for a 4 GiB table, seen on 新桃花源).
fn at_most_half_or_max(clusters: usize, max: usize) -> usize {
    if clusters.saturating_mul(2) > max {
        max
    } else {
        clusters
    }
}

/// Clusters of a new table that may grow to `max`: 256 KiB of them, or `max`.
fn initial_clusters(max: usize) -> usize {
    at_most_half_or_max(INITIAL_BYTES / CLUSTER_BYTES, max)
}

/// Clusters after a growth from `clusters`: four times as many, or `max`.
fn grown_clusters(clusters: usize, max: usize) -> usize {
    at_most_half_or_max(clusters.saturating_mul(4), max)
}

impl ProofTable {
    /// A table of about `mib` MiB (at least one cluster).
    ///
    /// It starts at 256 KiB and grows fourfold whenever half full, so a short problem
    /// touches little memory (page faults on a large fresh table cost more than a short
    /// solve); once at full size, garbage collection makes room instead. Every allocation
    /// follows the memory policy of [`crate::util::memory`]: a growth the machine cannot
    /// provide leaves the table at the size it has.
    pub fn new(mib: usize) -> ProofTable {
        let max_clusters = max_clusters(mib);
        let mut clusters = initial_clusters(max_clusters);
        let entries = match ZeroedBuf::new(clusters * CLUSTER, "the mate table") {
            Ok(entries) => entries,
            Err(_) => {
                // Not even 256 KiB: one cluster (320 bytes) it is; if that fails too, the
                // process is out of memory whatever we do.
                clusters = 1;
                ZeroedBuf::new(CLUSTER, "the mate table").expect("320 bytes of memory")
            }
        };
        ProofTable {
            entries,
            clusters,
            max_clusters,
            used: 0,
            collections: 0,
            generalise_hands: true,
            reuse_other_depths: true,
            resolved_weight: 1,
            lookups: Cell::new(0),
            stores: 0,
            path_dependent_discards: 0,
            generalisations: 0,
            contradictions: 0,
        }
    }

    /// Whether results are stored under their proof and disproof hands (the default) or
    /// under the node's own hands (for A/B comparisons).
    pub fn set_generalise_hands(&mut self, on: bool) {
        self.generalise_hands = on;
    }

    /// Whether a lookup takes an unresolved entry's numbers from a pass with another ply
    /// bound (the default) or only from its own (for A/B comparisons).
    pub fn set_reuse_other_depths(&mut self, on: bool) {
        self.reuse_other_depths = on;
    }

    /// How many times garbage collection counts a resolved entry's nodes (1: as they are).
    pub fn set_resolved_weight(&mut self, weight: u32) {
        self.resolved_weight = weight.max(1);
    }

    /// Adds the table's counts (lookups, stores, discards, generalisations) to `c`.
    pub fn add_counters(&self, c: &mut MateCounters) {
        c.table_lookups += self.lookups.get();
        c.table_stores += self.stores;
        c.path_dependent_discards += self.path_dependent_discards;
        c.hand_generalisations += self.generalisations;
        c.contradictions += self.contradictions;
    }

    /// How many garbage collections ran.
    pub fn collections(&self) -> u32 {
        self.collections
    }

    /// Permille of slots in use.
    #[cfg(test)]
    fn usage_permille(&self) -> u32 {
        (self.used as u64 * 1000 / self.entries.len() as u64) as u32
    }

    fn cluster(&self, board_key: u64) -> std::ops::Range<usize> {
        // The low bit of the key is the side to move; use the high bits for the index.
        let i = ((board_key >> 1) % self.clusters as u64) as usize * CLUSTER;
        i..i + CLUSTER
    }

    /// What is known about `key` for a search with `depth` plies remaining.
    pub fn lookup(&self, key: &NodeKey, depth: u16) -> Lookup {
        self.lookups.set(self.lookups.get() + 1);
        let mut exact = None;
        for w in &self.entries[self.cluster(key.board_key)] {
            if w[0] != key.board_key || w[3] as u32 == 0 {
                continue;
            }
            let e = &Entry::unpack(w);
            if e.proof_len != NOT_PROVEN && e.proof_len <= depth && key.inherits_proof(e) {
                return Lookup::proven(e.proof_len, e.hand(key.attacker));
            }
            // (0: no disproof known; "no mate within 0 plies" is never stored.)
            if e.disproof_len != 0 && e.disproof_len >= depth && key.inherits_disproof(e) {
                return Lookup::disproven(e.disproof_len, e.hand(key.attacker));
            }
            // Numbers from a pass with another ply bound (shortest mode's passes differ by
            // two plies) are a better first guess than none.
            if key.matches(e)
                && (e.depth == depth || self.reuse_other_depths)
                && e.pn != 0
                && e.dn != 0
            {
                exact = Some(Lookup {
                    pn: e.pn,
                    dn: e.dn,
                    ..Lookup::UNKNOWN
                });
            }
        }
        exact.unwrap_or(Lookup::UNKNOWN)
    }

    /// Record `value` for `key` searched with `depth` plies remaining, after `amount` nodes.
    pub fn store(&mut self, key: &NodeKey, depth: u16, value: Lookup, amount: u64) {
        if value.is_path_dependent() {
            self.path_dependent_discards += 1;
            return;
        }
        self.stores += 1;
        let key = &if self.generalise_hands && (value.is_proven() || value.is_disproven()) {
            self.under_result_hand(key, value.hand)
        } else {
            *key
        };
        let amount = amount.clamp(1, u32::MAX as u64) as u32;
        let range = self.cluster(key.board_key);
        let mut slot = None;
        let mut weakest = range.start;
        let amount_of = |w: &Packed| w[3] as u32;
        let resolved = value.is_proven() || value.is_disproven();
        let mut contradictions = 0;
        for i in range {
            let e = Entry::unpack(&self.entries[i]);
            if resolved && e.board_key == key.board_key && contradicts(key, &value, &e) {
                contradictions += 1;
                debug_assert!(false, "{value:?} at {key:?} contradicts {e:?}");
            }
            if slot.is_some() {
                continue;
            }
            if key.matches(&e) {
                slot = Some(i);
                continue;
            }
            let w = amount_of(&self.entries[weakest]);
            if w != 0 && (e.amount == 0 || e.amount < w) {
                weakest = i;
            }
        }
        self.contradictions += contradictions;
        let i = slot.unwrap_or(weakest);
        let old = if slot.is_some() {
            Entry::unpack(&self.entries[i])
        } else {
            if amount_of(&self.entries[i]) == 0 {
                self.used += 1;
            }
            Entry {
                proof_len: NOT_PROVEN,
                ..Entry::default()
            }
        };
        let mut e = Entry {
            board_key: key.board_key,
            hands: [key.hands[0].raw(), key.hands[1].raw()],
            pn: value.pn,
            dn: value.dn,
            amount: amount.max(old.amount),
            depth,
            // What earlier passes proved stays: a proof for fewer plies, a disproof for
            // more.
            proof_len: old.proof_len,
            disproof_len: old.disproof_len,
        };
        if value.is_proven() {
            e.proof_len = e.proof_len.min(value.proof_len);
        }
        if value.is_disproven() {
            e.disproof_len = e.disproof_len.max(value.disproof_len);
        }
        self.entries[i] = e.pack();
        if self.clusters < self.max_clusters {
            if self.used * 2 > self.entries.len() {
                self.grow();
            }
        } else if self.used * 10 > self.entries.len() * 9 {
            self.collect_garbage();
        }
    }

    /// `key` with the attacker's hand replaced by `hand` (a proof or disproof hand) and the
    /// defender holding the rest of the pieces in hand.
    fn under_result_hand(&mut self, key: &NodeKey, hand: Hand) -> NodeKey {
        let a = key.attacker.index();
        if key.hands[a] == hand {
            return *key;
        }
        self.generalisations += 1;
        let mut hands = key.hands;
        hands[1 - a] = pieces::minus(pieces::total(key.hands), hand);
        hands[a] = hand;
        NodeKey { hands, ..*key }
    }

    /// Four times the clusters (or the maximum: see [`grown_clusters`]), every entry
    /// re-placed.
    fn grow(&mut self) {
        let clusters = grown_clusters(self.clusters, self.max_clusters);
        let Ok(entries) = ZeroedBuf::new(clusters * CLUSTER, "the mate table") else {
            // No memory for a bigger table: keep this one (garbage collection from now on)
            // rather than abort the host process.
            self.max_clusters = self.clusters;
            return;
        };
        let old = std::mem::replace(&mut self.entries, entries);
        self.clusters = clusters;
        self.used = 0;
        for w in old.iter().filter(|w| w[3] as u32 != 0) {
            let range = self.cluster(w[0]);
            if let Some(i) = range.clone().find(|&i| self.entries[i][3] as u32 == 0) {
                self.entries[i] = *w;
                self.used += 1;
            }
        }
    }

    /// Drop about half of the entries: those with the fewest nodes below them, which are
    /// the cheapest to find again.
    pub fn collect_garbage(&mut self) {
        let weight = self.resolved_weight;
        let worth = |w: &Packed| {
            let e = Entry::unpack(w);
            if e.is_resolved() {
                e.amount.saturating_mul(weight)
            } else {
                e.amount
            }
        };
        let mut sample: Vec<u32> = self
            .entries
            .iter()
            .step_by((self.entries.len() / 4096).max(1))
            .map(worth)
            .filter(|&a| a != 0)
            .collect();
        sample.sort_unstable();
        let threshold = sample.get(sample.len() / 2).copied().unwrap_or(1);
        let mut used = 0;
        for w in self.entries.iter_mut() {
            let amount = worth(w);
            if amount != 0 && amount <= threshold {
                *w = [0; 5];
            } else if amount != 0 {
                used += 1;
            }
        }
        self.used = used;
        self.collections += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> NodeKey {
        NodeKey {
            board_key: i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & !1,
            hands: [Hand::EMPTY, Hand::EMPTY],
            side: Color::Black,
            attacker: Color::Black,
        }
    }

    #[test]
    fn growth_reaches_the_maximum_at_least_doubling_each_time() {
        // Every MateHash from 1 MiB to 64 GiB, powers of two and odd sizes alike: each
        // growth at least doubles the table (so the old table held beside the new one is at
        // most half its size), and the last one lands on the maximum, after which the table
        // never grows again.
        let sizes = (0..=16)
            .map(|k| 1usize << k)
            .chain([3, 5, 100, 1000, 3000, 4095, 65_535]);
        for mib in sizes {
            let max = max_clusters(mib);
            let mut clusters = initial_clusters(max);
            let mut steps = 0;
            while clusters < max {
                let next = grown_clusters(clusters, max);
                assert!(next >= clusters * 2, "MateHash {mib}: {clusters} -> {next}");
                clusters = next;
                steps += 1;
                assert!(steps < 20);
            }
            assert_eq!(clusters, max, "MateHash {mib}");
        }
    }

    #[test]
    fn a_full_table_collects_its_cheapest_entries() {
        let mut t = ProofTable::new(1);
        let capacity = t.max_clusters * CLUSTER;
        // Entry i cost i nodes: the expensive ones must survive collection.
        let n = capacity as u64 * 3;
        for i in 1..=n {
            t.store(&key(i), 5, Lookup::proven(3, Hand::EMPTY), i);
        }
        assert!(t.collections() > 0);
        assert!(t.usage_permille() <= 900);
        assert_eq!(t.lookup(&key(n), 5), Lookup::proven(3, Hand::EMPTY));
        assert_eq!(t.lookup(&key(n), 2), Lookup::UNKNOWN);
        // The cheapest entry is long gone.
        assert_eq!(t.lookup(&key(1), 5), Lookup::UNKNOWN);
    }

    /// With a weight, a collection counts a result's nodes that many times: proofs of 10-16
    /// nodes outlive unresolved entries of 20-32, which they do not by nodes alone.
    #[test]
    fn collection_favours_results_by_their_weight() {
        let unknown = Lookup {
            pn: 5,
            dn: 5,
            ..Lookup::UNKNOWN
        };
        for weight in [1, 4] {
            let mut t = ProofTable::new(1);
            t.set_resolved_weight(weight);
            let capacity = (t.max_clusters * CLUSTER) as u64;
            // 40% of the slots in all: nothing collected while the table fills, and few
            // clusters full (a full one replaces its entry with the fewest nodes).
            let n = capacity / 5;
            for i in 1..=n {
                t.store(&key(2 * i), 5, Lookup::proven(3, Hand::EMPTY), 10 + i % 7);
                t.store(&key(2 * i + 1), 5, unknown, 20 + i % 13);
            }
            assert_eq!(t.collections(), 0);
            t.collect_garbage();
            let proofs = (1..=n)
                .filter(|&i| t.lookup(&key(2 * i), 5).is_proven())
                .count() as u64;
            let open = (1..=n)
                .filter(|&i| t.lookup(&key(2 * i + 1), 5) == unknown)
                .count() as u64;
            if weight == 1 {
                assert!(proofs < n / 10 && open > n / 2, "{proofs} {open} of {n}");
            } else {
                assert!(proofs > n / 2 && open < n / 10, "{proofs} {open} of {n}");
            }
        }
    }

    #[test]
    fn proofs_and_disproofs_carry_over_by_hand_dominance_and_length() {
        let mut t = ProofTable::new(1);
        let mut k = key(7);
        k.hands[0].set(crate::shogi::PieceType::Gold, 1);
        let gold = k.hands[0];
        t.store(&k, 9, Lookup::proven(7, gold), 10);
        let mut richer = k;
        richer.hands[0].set(crate::shogi::PieceType::Silver, 1);
        assert_eq!(t.lookup(&richer, 9), Lookup::proven(7, gold));
        assert_eq!(t.lookup(&richer, 7), Lookup::proven(7, gold));
        assert_eq!(t.lookup(&richer, 5), Lookup::UNKNOWN);
        let poorer = NodeKey {
            hands: [Hand::EMPTY, Hand::EMPTY],
            ..k
        };
        assert_eq!(t.lookup(&poorer, 9), Lookup::UNKNOWN);
        // A disproof with a silver holds without it, not with a gold more.
        let mut d = key(8);
        d.hands[0].set(crate::shogi::PieceType::Silver, 1);
        let silver = d.hands[0];
        t.store(&d, 11, Lookup::disproven(11, silver), 10);
        let without = NodeKey {
            hands: [Hand::EMPTY, Hand::EMPTY],
            ..d
        };
        assert_eq!(t.lookup(&without, 11), Lookup::disproven(11, silver));
        assert_eq!(t.lookup(&without, 13), Lookup::UNKNOWN);
        let mut more = d;
        more.hands[0].set(crate::shogi::PieceType::Gold, 1);
        assert_eq!(t.lookup(&more, 9), Lookup::UNKNOWN);
    }

    /// A disproof for more plies than a stored proof of the same board, with a hand the
    /// proof covers (or the other way round), is a contradiction: counted in an optimised
    /// build, a panic in a debug one. Results that do not overlap are not.
    #[test]
    fn contradicting_results_are_counted_or_stop_a_debug_build() {
        let mut t = ProofTable::new(1);
        let mut k = key(9);
        k.hands[0].set(crate::shogi::PieceType::Gold, 1);
        let gold = k.hands[0];
        t.store(&k, 9, Lookup::proven(7, gold), 10);
        // No mate within 5 plies: no overlap with a mate in 7.
        t.store(&k, 5, Lookup::disproven(5, gold), 10);
        // No mate within 9 plies without the gold: the proof needs the gold.
        let poorer = NodeKey {
            hands: [Hand::EMPTY, Hand::EMPTY],
            ..k
        };
        t.store(&poorer, 9, Lookup::disproven(9, Hand::EMPTY), 10);
        let mut c = MateCounters::default();
        t.add_counters(&mut c);
        assert_eq!(c.contradictions, 0);
        let richer_disproof = || {
            let mut t2 = ProofTable::new(1);
            t2.store(&k, 9, Lookup::proven(7, gold), 10);
            t2.store(&k, 9, Lookup::disproven(9, gold), 10);
            let mut c = MateCounters::default();
            t2.add_counters(&mut c);
            c.contradictions
        };
        if cfg!(debug_assertions) {
            assert!(std::panic::catch_unwind(richer_disproof).is_err());
        } else {
            assert_eq!(richer_disproof(), 1);
        }
    }
}
