//! Hash maps keyed by Zobrist-style keys, which are already uniformly random: the key is
//! its own hash (no hashing cost per lookup).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Hasher that passes a `u64` key through unchanged.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A map from random 64-bit keys.
pub type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;
