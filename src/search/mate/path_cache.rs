//! Path-dependent disproofs kept for the solve, under a key of the whole path.
//!
//! A disproof that rests on a repetition of the current path holds for that path only, so
//! the proof table never stores it (`table.rs`, the graph-history interaction). But df-pn
//! comes down the same paths again and again: every time an ancestor is entered anew, it
//! reads its children from the table, finds such a node unknown and searches the cycle
//! once more. This cache keeps those disproofs keyed by the path from the root to the node
//! (every position on it, hands included), so a result is reused only where it was found:
//! on the same path the same repetitions exist, so the disproof still holds (the idea of
//! KomoringHeights' repetition table; DESIGN.md §10.5).
//!
//! Keys are 64-bit hashes of the path; a collision could answer a wrong disproof, with
//! the same odds as a collision of the table's own 64-bit position keys, which the solver
//! already accepts.

use super::key_map::KeyMap;
use super::table::Lookup;

/// Entries kept at most: about 60 bytes each with their parents', so about 30 MiB. Past
/// it the cache starts afresh (what it loses is only found again).
const MAX_ENTRIES: usize = 1 << 19;

/// The key of the path one position longer: `parent` extended by the position with board
/// key `board_key` (side to move included) and the attacker holding `attacker_hand` (the
/// defender's hand follows from the pieces on the board).
pub fn extend(parent: u64, board_key: u64, attacker_hand: u32) -> u64 {
    // A multiply-xorshift mix of the parent's key with the new position, so that the key
    // depends on the order of the positions, not only on which occur.
    let mut x = parent.rotate_left(23) ^ board_key ^ ((attacker_hand as u64) << 32);
    x = (x ^ (x >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 29)
}

/// The cache of one solve.
#[derive(Default)]
pub struct PathCache {
    entries: KeyMap<Lookup>,
    /// The path keys of the nodes with a child in `entries`: a node not among them need not
    /// ask for each of its children.
    parents: KeyMap<()>,
}

impl PathCache {
    /// May the node with path key `path_key` have a child in the cache?
    pub fn has_children_of(&self, path_key: u64) -> bool {
        !self.parents.is_empty() && self.parents.contains_key(&path_key)
    }

    /// The disproof found for the node at the end of the path with key `path_key`, if any.
    pub fn get(&self, path_key: u64) -> Option<Lookup> {
        self.entries.get(&path_key).copied()
    }

    /// Keep `value` (a path-dependent disproof) for the path with key `path_key`, whose
    /// node's parent has path key `parent_key`. When memory cannot be had, nothing is kept.
    pub fn put(&mut self, parent_key: u64, path_key: u64, value: Lookup) {
        debug_assert!(value.is_disproven() && value.is_path_dependent());
        if self.entries.len() >= MAX_ENTRIES {
            self.entries = KeyMap::default();
            self.parents = KeyMap::default();
        }
        if self.entries.try_reserve(1).is_ok() && self.parents.try_reserve(1).is_ok() {
            self.entries.insert(path_key, value);
            self.parents.insert(parent_key, ());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mate::table::UNBOUNDED;
    use crate::shogi::Hand;

    #[test]
    fn keys_follow_the_order_of_the_positions() {
        let (a, b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        assert_ne!(extend(extend(0, a, 0), b, 0), extend(extend(0, b, 0), a, 0));
        assert_ne!(extend(0, a, 1), extend(0, a, 2));
        assert_eq!(extend(extend(7, a, 3), b, 0), extend(extend(7, a, 3), b, 0));
    }

    #[test]
    fn keeps_what_it_is_given_and_nothing_else() {
        let mut cache = PathCache::default();
        assert!(!cache.has_children_of(41));
        let value = Lookup::repetition(3, Hand::EMPTY);
        cache.put(41, 42, value);
        assert!(cache.has_children_of(41));
        assert!(!cache.has_children_of(42));
        assert_eq!(cache.get(42), Some(value));
        assert_eq!(cache.get(43), None);
        assert_eq!(cache.get(42).unwrap().disproof_len, UNBOUNDED);
    }
}
