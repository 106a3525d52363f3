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

/// Entries: 2^16 words of 8 bytes (512 KiB, touched lazily).
const INDEX_BITS: u32 = 16;
const COUNT_MASK: u64 = 0xffff;
/// A flag kept beside the count (a count stays far below it).
const MARK: u64 = 0x8000;

pub struct EvasionCache {
    slots: Vec<u64>,
}

impl EvasionCache {
    pub fn new() -> EvasionCache {
        EvasionCache {
            slots: vec![0; 1 << INDEX_BITS],
        }
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

    fn slot(tag: u64) -> usize {
        (tag >> (64 - INDEX_BITS)) as usize
    }

    /// The evasion count kept for the position, if any.
    pub fn get(&self, board_key: u64, hands: [Hand; 2]) -> Option<u32> {
        let tag = Self::tag(board_key, hands);
        let word = self.slots[Self::slot(tag)];
        (word != 0 && word & !COUNT_MASK == tag & !COUNT_MASK)
            .then_some((word & COUNT_MASK & !MARK) as u32)
    }

    /// Has the kept position been marked ([`EvasionCache::mark`])? False when not kept.
    pub fn marked(&self, board_key: u64, hands: [Hand; 2]) -> bool {
        let tag = Self::tag(board_key, hands);
        let word = self.slots[Self::slot(tag)];
        word != 0 && word & !COUNT_MASK == tag & !COUNT_MASK && word & MARK != 0
    }

    /// Mark a kept position (nothing when it is not kept).
    pub fn mark(&mut self, board_key: u64, hands: [Hand; 2]) {
        let tag = Self::tag(board_key, hands);
        let slot = &mut self.slots[Self::slot(tag)];
        if *slot != 0 && *slot & !COUNT_MASK == tag & !COUNT_MASK {
            *slot |= MARK;
        }
    }

    /// Keep `count` (at least 1; a legal position has at most a few hundred moves).
    pub fn put(&mut self, board_key: u64, hands: [Hand; 2], count: u32) {
        debug_assert!(count >= 1 && (count as u64) <= COUNT_MASK);
        let tag = Self::tag(board_key, hands);
        self.slots[Self::slot(tag)] = (tag & !COUNT_MASK) | count as u64;
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
}
