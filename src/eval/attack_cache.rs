//! A cache of the attack-map terms ([`super::attack_terms`]), the costliest part of the
//! hand-crafted evaluation (about 2,400 instructions a position, a quarter of the bench's
//! instructions). They depend on the position alone (board, hands, side to move), so a
//! value found once serves whenever the position comes back. It often does: the table
//! keeps the static evaluation only of the nodes it stores, and a quiescence stand pat at
//! or above beta stores nothing; in the bench about 30% of the evaluations are of a
//! position evaluated before in the same search (DESIGN.md §9.2).

/// Entries: 32,768 (256 KiB, within a core's second-level cache on the machines here).
/// Instructions of the USI `bench` (callgrind) against none: 8,192 entries 0.957x, 32,768
/// 0.936x, 131,072 0.925x.
const ENTRIES: usize = 1 << 15;
/// Low bits of an entry: the value, two's complement.
const VALUE_BITS: u32 = 20;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;

/// Direct-mapped: an entry is the position key's high 44 bits with the value in the low
/// 20 (the slot comes from the key's low 15 bits, so 59 bits of the key must agree); 0 is
/// an empty slot.
#[derive(Clone, Debug, Default)]
pub struct AttackCache {
    entries: Box<[u64]>,
}

impl AttackCache {
    /// A cache of 256 KiB, or none (every probe misses) when the memory cannot be had:
    /// the evaluation is the same either way, only slower.
    pub fn new() -> AttackCache {
        let mut entries = Vec::new();
        if entries.try_reserve_exact(ENTRIES).is_err() {
            return AttackCache::none();
        }
        entries.resize(ENTRIES, 0);
        AttackCache {
            entries: entries.into_boxed_slice(),
        }
    }

    /// No cache: every probe misses and nothing is stored (one-off evaluations).
    pub fn none() -> AttackCache {
        AttackCache::default()
    }

    /// The value stored for the position of `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let slot = self.slot(key)?;
        let e = self.entries[slot];
        (e != 0 && (e ^ key) >> VALUE_BITS == 0)
            .then_some(((e as i32) << (32 - VALUE_BITS)) >> (32 - VALUE_BITS))
    }

    /// Start loading the slot of `key` into the cache: asked when a move is made, before
    /// the evaluation that probes it, so that a slot out of the processor's caches does
    /// not stall the probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self.slot(key) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let entry: *const u64 = &self.entries[slot];
            // SAFETY: a prefetch only hints the cache and never faults; SSE, the feature
            // it needs, is part of every x86_64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Keep `value` for the position of `key` (values that do not fit in 20 bits are not
    /// kept).
    #[inline]
    pub fn store(&mut self, key: u64, value: i32) {
        if let Some(slot) = self.slot(key) {
            if value.unsigned_abs() < 1 << (VALUE_BITS - 1) {
                self.entries[slot] = (key & !VALUE_MASK) | (value as u32 as u64 & VALUE_MASK);
            }
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> Option<usize> {
        (!self.entries.is_empty()).then(|| key as usize & (self.entries.len() - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_values_of_either_sign_and_tells_keys_apart() {
        let mut c = AttackCache::new();
        let key = 0x1234_5678_9abc_def0u64;
        assert_eq!(c.probe(key), None);
        for v in [0, 1, -1, 523_287, -524_287, 1234, -777] {
            c.store(key, v);
            assert_eq!(c.probe(key), Some(v));
        }
        // Same slot, other high bits: a miss, and storing it replaces the first.
        let other = key ^ (1 << 40);
        assert_eq!(c.probe(other), None);
        c.store(other, 5);
        assert_eq!(c.probe(other), Some(5));
        assert_eq!(c.probe(key), None);
        // A value too wide for the entry is not kept.
        c.store(key, 1 << 19);
        assert_eq!(c.probe(key), None);
        // No cache: nothing is kept.
        let mut none = AttackCache::none();
        none.store(key, 3);
        assert_eq!(none.probe(key), None);
    }
}
