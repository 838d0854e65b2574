//! An open-addressing hash index from packed positions to dense ids.
//!
//! Keys are the non-zero `u64`s of [`pack`](super::pack); 0 marks an empty
//! slot. Ids are assigned in insertion order, so the keys by id live in a
//! plain vector beside the table. Linear probing, power-of-two capacity, kept
//! at most 70% full: 12 bytes per slot, so 25 to 40 bytes per position
//! including the key vector (which grows by an eighth at a time).

/// Fibonacci hashing multiplier.
const HASH_MUL: u64 = 0x9e37_79b9_7f4a_7c15;
/// Initial number of slots.
const INITIAL_SLOTS: usize = 1 << 16;
/// Largest load (LOAD_NUM / LOAD_DEN of the slots used) before the table doubles.
const LOAD_NUM: usize = 7;
const LOAD_DEN: usize = 10;

/// Packed positions and their ids.
#[derive(Clone, Debug)]
pub struct KeyIndex {
    slots: Vec<u64>,
    ids: Vec<u32>,
    keys: Vec<u64>,
    shift: u32,
}

impl Default for KeyIndex {
    fn default() -> Self {
        KeyIndex::with_slots(INITIAL_SLOTS)
    }
}

impl KeyIndex {
    fn with_slots(slots: usize) -> KeyIndex {
        debug_assert!(slots.is_power_of_two());
        KeyIndex {
            slots: vec![0; slots],
            ids: vec![0; slots],
            keys: Vec::new(),
            shift: 64 - slots.trailing_zeros(),
        }
    }

    /// Number of positions.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the index is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key of an id.
    #[inline]
    pub fn key(&self, id: u32) -> u64 {
        self.keys[id as usize]
    }

    /// Bytes of heap memory held.
    pub fn bytes(&self) -> usize {
        self.slots.capacity() * 8 + self.ids.capacity() * 4 + self.keys.capacity() * 8
    }

    /// Bytes the table will hold while it next doubles (old and new slots
    /// at once), if that happens within `more` insertions.
    pub fn growth_bytes(&self, more: usize) -> usize {
        if (self.keys.len() + more) * LOAD_DEN > self.slots.len() * LOAD_NUM {
            self.slots.len() * 2 * 12
        } else {
            0
        }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(HASH_MUL) >> self.shift) as usize
    }

    /// The id of `key`, if present.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let k = self.slots[i];
            if k == key {
                return Some(self.ids[i]);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `key`, inserting it with the next id if absent; the flag
    /// says whether it was new.
    #[inline]
    pub fn insert(&mut self, key: u64) -> (u32, bool) {
        debug_assert_ne!(key, 0);
        if (self.keys.len() + 1) * LOAD_DEN > self.slots.len() * LOAD_NUM {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let k = self.slots[i];
            if k == key {
                return (self.ids[i], false);
            }
            if k == 0 {
                let id = self.keys.len() as u32;
                self.slots[i] = key;
                self.ids[i] = id;
                if self.keys.len() == self.keys.capacity() {
                    self.keys.reserve_exact((self.keys.len() / 8).max(1024));
                }
                self.keys.push(key);
                return (id, true);
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let mut bigger = KeyIndex::with_slots(self.slots.len() * 2);
        let mask = bigger.slots.len() - 1;
        for (id, &key) in self.keys.iter().enumerate() {
            let mut i = bigger.home(key);
            while bigger.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            bigger.slots[i] = key;
            bigger.ids[i] = id as u32;
        }
        bigger.keys = std::mem::take(&mut self.keys);
        *self = bigger;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_and_grow() {
        let mut index = KeyIndex::default();
        for k in 1..200_000u64 {
            assert_eq!(index.insert(k * 7919), ((k - 1) as u32, true));
        }
        assert_eq!(index.insert(7919), (0, false));
        assert_eq!(index.get(7919 * 5), Some(4));
        assert_eq!(index.get(3), None);
        assert_eq!(index.len(), 199_999);
    }
}
