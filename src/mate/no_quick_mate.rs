//! The attacker's nodes the reply look found without a quick result, by
//! node id (board key and attacker's hand).
//!
//! The reply look ([`super::dfpn`]'s `obvious`) plays the checks of each
//! defender's reply new to the table, to learn whether one mates at once.
//! When none does, nothing is stored, so every later expansion of the same
//! defender's node looked again at the replies still unsearched. This
//! direct-mapped cache remembers the ids of such nodes, and the look skips
//! them. "Checks exist, none mates at once" is a fact of the position
//! alone (not of the path, the ply or the length limit), and the id stands
//! for one position: the board key includes the side to move, and the
//! defender's hand is what the board and the attacker's hand leave of the
//! pieces. A slot keeps the last id put there; a miss only means looking
//! again, so the search is the same with or without the cache (a false hit,
//! a 64-bit collision, would only skip a shortcut: the child is searched).

/// Slots of a cache for a `go mate` (2 MiB of ids).
pub const LARGE_SLOTS: usize = 1 << 18;
/// Slots of a cache for a short search (32 KiB of ids: the normal
/// search's mate probes create one per probe).
pub const SMALL_SLOTS: usize = 1 << 12;

/// The direct-mapped cache: one node id per slot (0: empty).
pub struct NoQuickMate {
    keys: Vec<u64>,
    mask: usize,
}

impl NoQuickMate {
    /// A cache of `slots` ids (a power of two).
    pub fn new(slots: usize) -> NoQuickMate {
        debug_assert!(slots.is_power_of_two());
        NoQuickMate {
            keys: vec![0; slots],
            mask: slots - 1,
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key >> 20) as usize & self.mask
    }

    /// Whether the node with id `key` is known to have checks, none
    /// of which mates at once.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        key != 0 && self.keys[self.slot(key)] == key
    }

    /// Records that the node with id `key` has checks, none of which
    /// mates at once.
    #[inline]
    pub fn put(&mut self, key: u64) {
        let slot = self.slot(key);
        self.keys[slot] = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_last_key_of_a_slot() {
        let mut cache = NoQuickMate::new(SMALL_SLOTS);
        let a = 0x1234_5678_9abc_def1;
        let b = a ^ (1 << 40);
        assert!(!cache.contains(a));
        cache.put(a);
        assert!(cache.contains(a));
        assert!(!cache.contains(b));
        let c = a ^ 1;
        assert_eq!(cache.slot(a), cache.slot(c));
        cache.put(c);
        assert!(cache.contains(c));
        assert!(!cache.contains(a), "a slot holds one key");
        assert!(!cache.contains(0), "the empty key is never known");
    }
}
