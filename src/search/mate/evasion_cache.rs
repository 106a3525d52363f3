//! The evasion counts of new checks, remembered for one solve.
//!
//! An attacker node looks one ply ahead at every check it has no table entry for (§10.1 of
//! the design document) and keeps the count only as the check's first proof number in its
//! own child list. Each time the search comes back to the node, the list is rebuilt and the
//! same checks are counted again. This direct-mapped cache keeps those counts, keyed by the
//! position after the check, so a re-entry costs a lookup instead of a move, an evasion
//! count and a take-back.
//!
//! Only counts of at least one are kept: a mated defender proves the node and is stored in
//! the proof table. A cache collision can therefore only give a check a wrong first proof
//! number (an estimate), never a wrong proof. A word keeps the top 48 bits of the mixed
//! key, 16 of which choose the slot, so two positions in one slot are told apart by 32
//! more bits: a collision is rare as well.

use crate::shogi::Hand;

/// Entries: at most 2^16 words of 8 bytes (512 KiB); a solve starts with 2^12 (32 KiB)
/// and grows fourfold after a quarter as many stores as there are slots. (A fresh 512 KiB per solve
/// is not touched lazily: the allocator serves it from its heap after the first, zeroed
/// with a memset, a tenth of a three-ply solve's time.)
const INDEX_BITS: u32 = 16;
const FIRST_INDEX_BITS: u32 = 12;
const COUNT_MASK: u64 = 0xffff;
/// A flag kept beside the count (a count stays far below it).
const MARK: u64 = 0x8000;

pub struct EvasionCache {
    slots: Vec<u64>,
    /// The slot is the tag's top `bits` bits (the word keeps them: at most 16 of its 48).
    bits: u32,
    /// Stores left before the cache grows.
    stores_left: usize,
}

impl EvasionCache {
    pub fn new() -> EvasionCache {
        EvasionCache {
            slots: vec![0; 1 << FIRST_INDEX_BITS],
            bits: FIRST_INDEX_BITS,
            stores_left: 1 << (FIRST_INDEX_BITS - 2),
        }
    }

    /// Four times the slots (up to 2^16), every kept word moved to its slot there: a slot
    /// is a prefix of the word's bits, so no two land on one.
    fn grow(&mut self) {
        let bits = (self.bits + 2).min(INDEX_BITS);
        let mut slots = vec![0u64; 1 << bits];
        for &word in self.slots.iter().filter(|&&w| w != 0) {
            slots[(word >> (64 - bits)) as usize] = word;
        }
        self.slots = slots;
        self.bits = bits;
        self.stores_left = 1 << (bits - 2);
    }

    /// One word for the position: the board key (side to move included) mixed with both
    /// hands (the defender's decides its drops; the attacker's is in the key for
    /// simplicity, as the rest of the solver keys positions).
    fn tag(board_key: u64, hands: [Hand; 2]) -> u64 {
        let mixed = board_key
            ^ (hands[0].raw() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (hands[1].raw() as u64)
                .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                .rotate_left(29);
        mixed.wrapping_mul(0xff51_afd7_ed55_8ccd)
    }

    fn slot(&self, tag: u64) -> usize {
        (tag >> (64 - self.bits)) as usize
    }

    /// The evasion count kept for the position, if any.
    pub fn get(&self, board_key: u64, hands: [Hand; 2]) -> Option<u32> {
        let tag = Self::tag(board_key, hands);
        let word = self.slots[self.slot(tag)];
        (word != 0 && word & !COUNT_MASK == tag & !COUNT_MASK)
            .then_some((word & COUNT_MASK & !MARK) as u32)
    }

    /// Has the kept position been marked ([`EvasionCache::mark`])? False when not kept.
    pub fn marked(&self, board_key: u64, hands: [Hand; 2]) -> bool {
        let tag = Self::tag(board_key, hands);
        let word = self.slots[self.slot(tag)];
        word != 0 && word & !COUNT_MASK == tag & !COUNT_MASK && word & MARK != 0
    }

    /// Mark a kept position (nothing when it is not kept).
    pub fn mark(&mut self, board_key: u64, hands: [Hand; 2]) {
        let tag = Self::tag(board_key, hands);
        let i = self.slot(tag);
        let slot = &mut self.slots[i];
        if *slot != 0 && *slot & !COUNT_MASK == tag & !COUNT_MASK {
            *slot |= MARK;
        }
    }

    /// Keep `count` (at least 1; a legal position has at most a few hundred moves).
    pub fn put(&mut self, board_key: u64, hands: [Hand; 2], count: u32) {
        debug_assert!(count >= 1 && (count as u64) <= COUNT_MASK);
        if self.stores_left == 0 && self.bits < INDEX_BITS {
            self.grow();
        }
        self.stores_left = self.stores_left.saturating_sub(1);
        let tag = Self::tag(board_key, hands);
        let i = self.slot(tag);
        self.slots[i] = (tag & !COUNT_MASK) | count as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_count_comes_back_for_the_same_position_only() {
        let mut cache = EvasionCache::new();
        let hands = [Hand::EMPTY, Hand::EMPTY];
        assert_eq!(cache.get(0x1234_5678_9abc_def0, hands), None);
        cache.put(0x1234_5678_9abc_def0, hands, 7);
        assert_eq!(cache.get(0x1234_5678_9abc_def0, hands), Some(7));
        assert_eq!(cache.get(0x1234_5678_9abc_def1, hands), None);
        let other_hands = [Hand::EMPTY, Hand::from_raw(1)];
        assert_eq!(cache.get(0x1234_5678_9abc_def0, other_hands), None);
    }

    /// Growing keeps what the smaller cache held (the marks too) where the larger one finds
    /// it, up to 2^16 slots.
    #[test]
    fn growth_keeps_the_kept_counts() {
        let mut cache = EvasionCache::new();
        let hands = [Hand::EMPTY, Hand::EMPTY];
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5555;
        cache.put(key(0), hands, 3);
        cache.mark(key(0), hands);
        for i in 1..200_000u64 {
            let before = cache.bits;
            cache.put(key(i), hands, (i % 50 + 1) as u32);
            if cache.bits != before {
                // The first key survives every growth unless a later one took its slot.
                let kept = cache.get(key(0), hands);
                assert!(kept.is_none() || (kept == Some(3) && cache.marked(key(0), hands)));
                assert_eq!(
                    cache.get(key(i - 1), hands),
                    Some(((i - 1) % 50 + 1) as u32)
                );
            }
        }
        assert_eq!(cache.bits, INDEX_BITS);
        assert_eq!(cache.slots.len(), 1 << INDEX_BITS);
        assert_eq!(cache.get(key(199_999), hands), Some(199_999 % 50 + 1));
    }
}
