//! Shared transposition table (DESIGN.md §3).
//!
//! Each entry is 16 bytes: two atomic `u64`s. The payload packs (DESIGN.md §3.2):
//!
//! ```text
//!  bit 0-15   move (Move::raw)          bit 16-31  score (i16)
//!  bit 32-47  static eval (i16; i16::MIN: none)
//!  bit 48-55  depth + 1                 bit 56-57  bound (0 exact, 1 lower, 2 upper)
//!  bit 58     was a PV node             bit 59-63  generation (mod 32)
//! ```
//!
//! Four entries form a 64-byte cluster (DESIGN.md §3.3), one cache line; a key selects a
//! cluster by a multiply-high of the key and the cluster count, so any size in MiB works.
//!
//! Torn entries (DESIGN.md §3.6): the base design reads key, payload, key again, which still
//! lets one writer's key pair with another writer's payload when two writers race on the
//! same slot. Here the key word stores `key ^ payload`: a reader accepts an entry only when
//! `stored_key ^ payload == key`, so a payload that was not written together with that key
//! word is rejected (up to a 2^-64 coincidence). Moves read from the table are still
//! validated with `is_pseudo_legal` + `is_legal` by the search before use.

use crate::shogi::Move;
use crate::util::memory::{AllocError, Zeroable, ZeroedBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// Kind of score stored (DESIGN.md §3.1): the search's one bound enum, whose
/// discriminants are the entry's two bound bits.
pub use crate::search::ScoreBound as Bound;

/// One entry, unpacked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TtEntry {
    pub key: u64,
    pub mv: Move,
    pub score: i32,
    /// The node's static evaluation (`None` in check or when not known).
    pub eval: Option<i32>,
    pub depth: i32,
    pub bound: Bound,
    /// The node was searched as a PV node, now or when it was stored before.
    pub pv: bool,
    /// The search generation, mod 32 (`GENERATIONS`).
    pub generation: u8,
}

/// Generations are counted mod this (5 bits): an entry 32 searches old looks current
/// again, which only keeps it a little longer.
pub const GENERATIONS: u8 = 32;

/// The stored eval of an entry without one.
const NO_EVAL: i16 = i16::MIN;

/// A score or eval as the 16 bits it is stored in (clamped to the `i16` range, above
/// `NO_EVAL`).
fn to_16(v: i32) -> u64 {
    (v.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16) as u16 as u64
}

impl TtEntry {
    fn pack(&self) -> u64 {
        let eval = self.eval.map_or(NO_EVAL as u16 as u64, to_16);
        let depth = (self.depth.clamp(-1, 254) + 1) as u64;
        self.mv.raw() as u64
            | (to_16(self.score) << 16)
            | (eval << 32)
            | (depth << 48)
            | ((self.bound as u64) << 56)
            | ((self.pv as u64) << 58)
            | (((self.generation % GENERATIONS) as u64) << 59)
    }

    fn unpack(key: u64, p: u64) -> TtEntry {
        let bound = match (p >> 56) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let eval = (p >> 32) as u16 as i16;
        TtEntry {
            key,
            mv: Move::from_raw(p as u16),
            score: (p >> 16) as u16 as i16 as i32,
            eval: (eval != NO_EVAL).then_some(eval as i32),
            depth: ((p >> 48) & 0xff) as i32 - 1,
            bound,
            pv: (p >> 58) & 1 == 1,
            generation: Self::generation_of(p),
        }
    }

    /// The generation field of a packed entry.
    fn generation_of(payload: u64) -> u8 {
        (payload >> 59) as u8
    }
}

/// Entries per cluster (DESIGN.md §3.3).
pub const CLUSTER_SIZE: usize = 4;

#[derive(Default)]
struct Slot {
    /// `key ^ payload`.
    check: AtomicU64,
    payload: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Cluster {
    slots: [Slot; CLUSTER_SIZE],
}

// SAFETY: a cluster is atomic integers only; all zero is four empty slots.
unsafe impl Zeroable for Cluster {}

/// Mate scores at or beyond this magnitude get ply correction (DESIGN.md §3.8).
pub const MATE_THRESHOLD: i32 = crate::search::MATE - crate::search::MAX_PLY as i32;

/// Score as stored: mate distances measured from this node, not from the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_THRESHOLD {
        score + ply as i32
    } else if score <= -MATE_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

/// Score as used at `ply`: mate distances measured from the root again.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_THRESHOLD {
        score - ply as i32
    } else if score <= -MATE_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// A lock-free table shared by every search thread (and, on purpose, by several engines).
pub struct TranspositionTable {
    clusters: ZeroedBuf<Cluster>,
    generation: AtomicU8,
    /// `EvalConfig::tag` of the evaluation whose static evals the entries hold.
    eval_tag: AtomicU64,
    mib: usize,
    /// Whether a search has started on the table since it was last cleared: clearing an
    /// unused table is skipped, so a `usinewgame` right after `isready` costs nothing.
    used: AtomicBool,
}

/// A clear is split over threads only in pieces of at least this much memory: spawning a
/// thread costs tens of microseconds, zeroing 32 MiB a few milliseconds.
const CLEAR_BYTES_PER_THREAD: usize = 32 << 20;

fn clear_clusters(clusters: &[Cluster]) {
    for c in clusters {
        for s in &c.slots {
            s.check.store(0, Ordering::Relaxed);
            s.payload.store(0, Ordering::Relaxed);
        }
    }
}

fn replacement_score(e: &TtEntry, generation: u8) -> usize {
    // DESIGN.md §3.5: older generations first, then shallower entries.
    let age_penalty = if e.generation == generation { 0 } else { 1024 };
    age_penalty + (255 - (e.depth.max(-1) + 1).min(255)) as usize
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least 1), allocated under the memory policy
    /// (DESIGN.md §11): a size the machine cannot provide is an error, never an
    /// abort.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, AllocError> {
        let mib = mib.max(1);
        let count = mib
            .checked_mul(1 << 20)
            .map_or(usize::MAX, |bytes| bytes / std::mem::size_of::<Cluster>());
        Ok(TranspositionTable {
            clusters: ZeroedBuf::new(count, "the hash table")?,
            generation: AtomicU8::new(0),
            eval_tag: AtomicU64::new(0),
            mib,
            used: AtomicBool::new(false),
        })
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        self.mib
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.clusters.len() * CLUSTER_SIZE
    }

    /// Forget everything, zeroing the table on as many threads as the machine has cores
    /// (a 4 GiB table takes seconds on one).
    pub fn clear(&self) {
        let clusters: &[Cluster] = &self.clusters;
        let bytes = std::mem::size_of_val(clusters);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = cores.min(bytes / CLEAR_BYTES_PER_THREAD).max(1);
        if threads == 1 {
            clear_clusters(clusters);
        } else {
            let chunk = clusters.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for part in clusters.chunks(chunk) {
                    scope.spawn(move || clear_clusters(part));
                }
            });
        }
        self.generation.store(0, Ordering::Relaxed);
        self.used.store(false, Ordering::Release);
    }

    /// Clear the table if a search has used it since the last clear; true when it did.
    pub fn clear_if_used(&self) -> bool {
        let used = self.used.load(Ordering::Acquire);
        if used {
            self.clear();
        }
        used
    }

    /// Whether a search has started on the table since it was last cleared.
    pub fn is_used(&self) -> bool {
        self.used.load(Ordering::Acquire)
    }

    /// A search with the evaluation of `tag` (`EvalConfig::tag`) starts: when the entries
    /// hold another evaluation's static evals (a net was loaded, or another engine that
    /// shares this table evaluates differently), the table is cleared, so that no search
    /// takes a static eval from another evaluation.
    pub fn use_evaluation(&self, tag: u64) {
        if self.eval_tag.swap(tag, Ordering::AcqRel) != tag {
            self.clear();
        }
        // The search that called this writes into the table now.
        self.used.store(true, Ordering::Release);
    }

    /// Start a new search (DESIGN.md §3.5).
    pub fn next_generation(&self) {
        self.used.store(true, Ordering::Release);
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The current search generation (stored in each entry written), mod
    /// 32 (`GENERATIONS`).
    pub fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) % GENERATIONS
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// Asks the processor to bring `key`'s cluster into its cache. The probe of a node just
    /// entered mostly misses the cache; asked before the move is made, the load overlaps
    /// making it (DESIGN.md §3.3).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let cluster: *const Cluster = self.cluster(key);
            // SAFETY: a prefetch only hints the cache and never faults; SSE, the feature
            // it needs, is part of every x86_64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(cluster.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Read the entry stored for `key`, if any and not torn.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.cluster(key).slots {
            let payload = s.payload.load(Ordering::Acquire);
            let check = s.check.load(Ordering::Acquire);
            if payload != 0 && check ^ payload == key {
                return Some(TtEntry::unpack(key, payload));
            }
        }
        None
    }

    /// Store an entry (DESIGN.md §3.4): same position overwritten unless the stored one
    /// is of this generation and deeper; else an empty slot; else the slot with the highest
    /// replacement score.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: i32,
        eval: Option<i32>,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let generation = self.generation();
        let entry = TtEntry {
            key,
            mv,
            score,
            eval,
            depth,
            bound,
            pv,
            generation,
        };
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_score = 0;
        for (i, s) in cluster.slots.iter().enumerate() {
            let payload = s.payload.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if payload == 0 {
                victim = i;
                break;
            }
            let old = TtEntry::unpack(check ^ payload, payload);
            if check ^ payload == key {
                if old.generation == generation && depth < old.depth {
                    return;
                }
                // Keep the old move when the new search found none.
                let mut e = entry;
                if e.mv.is_none() {
                    e.mv = old.mv;
                }
                if e.eval.is_none() {
                    e.eval = old.eval;
                }
                write(s, key, e.pack());
                return;
            }
            let r = replacement_score(&old, generation);
            if r > victim_score {
                victim_score = r;
                victim = i;
            }
        }
        write(&cluster.slots[victim], key, entry.pack());
    }

    /// Permille of sampled entries written in the current generation (DESIGN.md §3.7).
    pub fn hashfull_permille(&self) -> u32 {
        let generation = self.generation();
        let total = self.capacity();
        let samples = 1000.min(total);
        let mut used = 0;
        for sample in 0..samples {
            let idx = sample * total / samples;
            let s = &self.clusters[idx / CLUSTER_SIZE].slots[idx % CLUSTER_SIZE];
            let payload = s.payload.load(Ordering::Relaxed);
            if payload != 0 && TtEntry::generation_of(payload) == generation {
                used += 1;
            }
        }
        (used * 1000 / samples) as u32
    }
}

#[inline(always)]
fn write(s: &Slot, key: u64, payload: u64) {
    // Payload first, then the check word (DESIGN.md §3.6); a reader that sees a
    // mismatched pair rejects it through the XOR check.
    s.payload.store(payload, Ordering::Release);
    s.check.store(key ^ payload, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    #[test]
    fn packing_round_trips() {
        for (score, depth, bound) in [
            (0, 0, Bound::Exact),
            (-32000, -1, Bound::Upper),
            (31999, 254, Bound::Lower),
            (-5, 7, Bound::Exact),
        ] {
            for m in ["7g7f", "P*5e", "8h2b+"] {
                for eval in [
                    None,
                    Some(0),
                    Some(-32767),
                    Some(32767),
                    Some(-1),
                    Some(1234),
                ] {
                    for (pv, generation) in [(false, 0), (true, 31), (true, 7), (false, 30)] {
                        let e = TtEntry {
                            key: 0x1234_5678_9abc_def0,
                            mv: mv(m),
                            score,
                            eval,
                            depth,
                            bound,
                            pv,
                            generation,
                        };
                        assert_eq!(TtEntry::unpack(e.key, e.pack()), e);
                    }
                }
            }
        }
        // Out of range: clamped, and an eval never reads back as "none".
        let e = TtEntry {
            key: 1,
            mv: Move::NONE,
            score: -40_000,
            eval: Some(-40_000),
            depth: 300,
            bound: Bound::Lower,
            pv: true,
            generation: GENERATIONS + 3,
        };
        let back = TtEntry::unpack(1, e.pack());
        assert_eq!(
            (back.score, back.eval, back.depth, back.generation),
            (-32767, Some(-32767), 254, 3)
        );
        // 16-byte entries, 64-byte clusters.
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(std::mem::size_of::<Cluster>(), 64);
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::try_new(1).unwrap();
        assert_eq!(tt.probe(42), None);
        tt.store(42, mv("7g7f"), 31, Some(-12), 5, Bound::Exact, true);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (mv("7g7f"), 31, Some(-12), 5, Bound::Exact, true)
        );
        // Same generation, shallower non-exact result: refused.
        tt.store(42, mv("2g2f"), 10, Some(-12), 3, Bound::Lower, false);
        assert_eq!(tt.probe(42).unwrap().depth, 5);
        // Deeper: replaces.
        tt.store(42, mv("2g2f"), 10, Some(-12), 8, Bound::Lower, false);
        assert_eq!(tt.probe(42).unwrap().mv, mv("2g2f"));
        // A new generation may overwrite with a shallower result.
        tt.next_generation();
        tt.store(42, Move::NONE, 7, None, 1, Bound::Upper, false);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.depth, e.mv, e.eval),
            (1, mv("2g2f"), Some(-12)),
            "move and eval kept when none is given"
        );
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    /// Keys that land in one cluster of a one-cluster table.
    #[test]
    fn replacement_prefers_old_then_shallow() {
        let tt = TranspositionTable::try_new(1).unwrap();
        // Find 6 keys in the same cluster.
        let target = tt.cluster(1) as *const Cluster;
        let keys: Vec<u64> = (1u64..)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .filter(|&k| std::ptr::eq(tt.cluster(k), target))
            .take(6)
            .collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, mv("7g7f"), 0, None, 10 + i as i32, Bound::Exact, false);
        }
        // Full cluster, same generation: the shallowest (depth 10) goes.
        tt.store(keys[4], mv("7g7f"), 0, None, 20, Bound::Exact, false);
        assert!(tt.probe(keys[0]).is_none());
        assert!(tt.probe(keys[1]).is_some() && tt.probe(keys[4]).is_some());
        // After a new generation, an old entry goes before any current one, even a deep one.
        tt.next_generation();
        tt.store(keys[1], mv("7g7f"), 0, None, 1, Bound::Exact, false); // refresh keys[1], shallow
        tt.store(keys[5], mv("7g7f"), 0, None, 1, Bound::Exact, false);
        assert!(tt.probe(keys[1]).is_some(), "current generation kept");
        let survivors = [keys[2], keys[3], keys[4]]
            .iter()
            .filter(|&&k| tt.probe(k).is_some())
            .count();
        assert_eq!(survivors, 2, "one old entry replaced");
        assert!(
            tt.probe(keys[4]).is_some(),
            "the deepest old entry survives"
        );
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = TranspositionTable::try_new(1).unwrap();
        assert_eq!(tt.hashfull_permille(), 0);
        for k in 0..(tt.capacity() as u64 * 2) {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                mv("7g7f"),
                0,
                None,
                1,
                Bound::Exact,
                false,
            );
        }
        assert!(tt.hashfull_permille() > 900);
        tt.next_generation();
        assert_eq!(tt.hashfull_permille(), 0);
    }

    #[test]
    fn another_evaluation_clears_the_table() {
        let tt = TranspositionTable::try_new(1).unwrap();
        tt.use_evaluation(0);
        tt.store(42, mv("7g7f"), 31, Some(-12), 5, Bound::Exact, false);
        tt.use_evaluation(0);
        assert_eq!(
            tt.probe(42).unwrap().eval,
            Some(-12),
            "same evaluation: kept"
        );
        tt.use_evaluation(7 << 32 | 16);
        assert_eq!(
            tt.probe(42),
            None,
            "a net's search never sees the classic evals"
        );
        tt.store(42, mv("7g7f"), 31, Some(99), 5, Bound::Exact, false);
        tt.use_evaluation(7 << 32 | 24);
        assert_eq!(tt.probe(42), None, "nor another scale's");
    }

    #[test]
    fn mate_scores_are_ply_corrected() {
        // Found at ply 5: mate 3 plies later = MATE - 8 from the root.
        let s = MATE - 8;
        assert_eq!(score_to_tt(s, 5), MATE - 3);
        assert_eq!(score_from_tt(MATE - 3, 2), MATE - 5);
        assert_eq!(score_to_tt(-(MATE - 8), 5), -(MATE - 3));
        assert_eq!(score_from_tt(-(MATE - 3), 2), -(MATE - 5));
        assert_eq!(score_to_tt(123, 9), 123);
        assert_eq!(score_from_tt(-123, 9), -123);
    }

    #[test]
    fn concurrent_writers_never_produce_torn_entries() {
        let tt = std::sync::Arc::new(TranspositionTable::try_new(1).unwrap());
        // Keys confined to the first 4 clusters, so that writers of different keys race
        // on the same slots all the time.
        let span = u64::MAX / (tt.clusters.len() as u64 / 4);
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                let tt = tt.clone();
                std::thread::spawn(move || {
                    let mut seen = 0u32;
                    let mut bad = 0;
                    let mut x = 0x2545_F491_4F6C_DD1Du64 ^ t;
                    for _ in 0..400_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = (x % span) | 1;
                        // Every payload is a function of its key.
                        let score = (key >> 50) as i32;
                        let depth = (key >> 40) as i32 & 0x7f;
                        tt.store(
                            key,
                            Move::from_raw((key >> 3) as u16),
                            score,
                            Some(score),
                            depth,
                            Bound::Exact,
                            false,
                        );
                        // Probe a key another thread may be writing.
                        let other = ((x >> 7) % span) | 1;
                        for k in [key, other] {
                            if let Some(e) = tt.probe(k) {
                                seen += 1;
                                let (s, d) = ((k >> 50) as i32, (k >> 40) as i32 & 0x7f);
                                if e.score != s || e.depth != d || e.mv.raw() != (k >> 3) as u16 {
                                    bad += 1;
                                }
                            }
                        }
                    }
                    assert!(seen > 1000, "the test must actually read entries");
                    bad
                })
            })
            .collect();
        let bad: u32 = threads.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(bad, 0);
    }
}
