//! The attacker's nodes the reply look found without a quick result, by
//! position key.
//!
//! The reply look ([`super::dfpn`]'s `obvious`) plays the checks of each
//! defender's reply new to the table, to learn whether one mates at once.
//! When none does, nothing is stored, so every later expansion of the same
//! defender's node looked again at the replies still unsearched. This
//! direct-mapped cache remembers the keys of such positions (checks exist,
//! none mates at once: a fact of the position alone), and the look skips
//! them. A slot keeps the last key put there; a miss only means looking
//! again, so the search is the same with or without the cache.

/// Slots (a power of two): 2 MiB of keys.
const SLOTS: usize = 1 << 18;

/// The cache.
pub struct NoQuickMate {
    keys: Vec<u64>,
}

impl Default for NoQuickMate {
    fn default() -> Self {
        NoQuickMate {
            keys: vec![0; SLOTS],
        }
    }
}

impl NoQuickMate {
    #[inline]
    fn slot(key: u64) -> usize {
        (key >> 20) as usize & (SLOTS - 1)
    }

    /// Whether the position with key `key` is known to have checks, none
    /// of which mates at once.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        key != 0 && self.keys[Self::slot(key)] == key
    }

    /// Records that the position with key `key` has checks, none of which
    /// mates at once.
    #[inline]
    pub fn put(&mut self, key: u64) {
        self.keys[Self::slot(key)] = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_last_key_of_a_slot() {
        let mut cache = NoQuickMate::default();
        let a = 0x1234_5678_9abc_def1;
        let b = a ^ (1 << 40);
        assert!(!cache.contains(a));
        cache.put(a);
        assert!(cache.contains(a));
        assert!(!cache.contains(b));
        let c = a ^ 1;
        assert_eq!(NoQuickMate::slot(a), NoQuickMate::slot(c));
        cache.put(c);
        assert!(cache.contains(c));
        assert!(!cache.contains(a), "a slot holds one key");
        assert!(!cache.contains(0), "the empty key is never known");
    }
}
