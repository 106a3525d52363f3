//! A cache of the attack-map terms ([`super::attack_terms`]), the costliest part of the
//! hand-crafted evaluation (about 2,400 instructions a position, a quarter of the bench's
//! instructions). They depend on the position alone (board, hands, side to move), so a
//! value found once serves whenever the position comes back. It often does: the table
//! keeps the static evaluation only of the nodes it stores, and a quiescence stand pat at
//! or above beta stores nothing; in the bench about 30% of the evaluations are of a
//! position evaluated before in the same search (DESIGN.md §9.2).

use crate::util::memory::ZeroedBuf;

/// Entries: 32,768 (256 KiB). Instructions of the USI `bench` (callgrind) against none:
/// 8,192 entries 0.957x, 32,768 0.936x, 131,072 0.925x. In time the gain is smaller (the
/// probes miss the processor's caches): nodes/s 1.023x, with the slot prefetched when the
/// move is made (DESIGN.md §9.2).
const ENTRIES: usize = 1 << 15;
/// Low bits of an entry: the value, two's complement.
const VALUE_BITS: u32 = 20;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;

/// Direct-mapped: an entry is the position key's high 44 bits with the value in the low
/// 20 (the slot comes from the key's low 15 bits, so 59 bits of the key must agree); 0 is
/// an empty slot.
#[derive(Default)]
pub struct AttackCache {
    /// `None`: no cache (one-off evaluations, or the memory could not be had).
    entries: Option<ZeroedBuf<u64>>,
}

impl Clone for AttackCache {
    /// A copy starts without a cache: the evaluations are the same, and copying 256 KiB
    /// (with an allocation that could fail) is not worth it for a copied line.
    fn clone(&self) -> AttackCache {
        AttackCache::none()
    }
}

impl AttackCache {
    /// A cache of 256 KiB, allocated under the memory policy (DESIGN.md §11.3), or none
    /// (every probe misses) when the memory cannot be had: the evaluation is the same
    /// either way, only slower.
    pub fn new() -> AttackCache {
        AttackCache {
            entries: ZeroedBuf::new(ENTRIES, "evaluation attack cache").ok(),
        }
    }

    /// No cache: every probe misses and nothing is stored (one-off evaluations).
    pub fn none() -> AttackCache {
        AttackCache::default()
    }

    /// Whether this holds a cache (`false`: [`AttackCache::none`] or a failed allocation).
    pub fn is_some(&self) -> bool {
        self.entries.is_some()
    }

    /// The value stored for the position of `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let e = *self.entries.as_ref()?.get(slot(key))?;
        (e != 0 && (e ^ key) >> VALUE_BITS == 0)
            .then_some(((e as i32) << (32 - VALUE_BITS)) >> (32 - VALUE_BITS))
    }

    /// Start loading the slot of `key` into the cache: asked when a move is made, before
    /// the evaluation that probes it, so that a slot out of the processor's caches does
    /// not stall the probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(entry) = self.entries.as_ref().and_then(|e| e.get(slot(key))) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let entry: *const u64 = entry;
            // SAFETY: a prefetch only hints the cache and never faults; SSE, the feature
            // it needs, is part of every x86_64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Keep `value` for the position of `key` (only values within +-524,287, which the
    /// 20 bits hold; the attack terms stay far inside).
    #[inline]
    pub fn store(&mut self, key: u64, value: i32) {
        if value.unsigned_abs() >= 1 << (VALUE_BITS - 1) {
            return;
        }
        if let Some(e) = self.entries.as_mut().and_then(|e| e.get_mut(slot(key))) {
            *e = (key & !VALUE_MASK) | (value as u32 as u64 & VALUE_MASK);
        }
    }
}

/// The slot of the position of `key`.
#[inline(always)]
fn slot(key: u64) -> usize {
    key as usize & (ENTRIES - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_values_of_either_sign_and_tells_keys_apart() {
        let mut c = AttackCache::new();
        let key = 0x1234_5678_9abc_def0u64;
        assert_eq!(c.probe(key), None);
        assert!(c.is_some());
        for v in [0, 1, -1, 524_287, -524_287, 1234, -777] {
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
        c.store(key, -(1 << 19));
        assert_eq!(c.probe(key), None);
        // No cache: nothing is kept.
        let mut none = AttackCache::none();
        none.store(key, 3);
        assert_eq!(none.probe(key), None);
    }
}
