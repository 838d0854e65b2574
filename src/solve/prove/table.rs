//! The proof table: what the forward proof has established about each
//! position, as bounds on its exact value, in a fixed amount of memory.
//!
//! An entry holds, for the side to move of one position (keyed by its exact
//! packing, [`Packer::pack`](super::super::Packer::pack), so two positions
//! never share an entry), four facts about the depth-bounded game tree
//! below it: the fewest plies within which a win was proved, the most plies
//! within which a win was refuted, and the same two for a loss. Entries
//! live in buckets of [`BUCKET`] slots; a full bucket gives up the entry
//! whose facts were cheapest to establish (smallest ply count). Losing an
//! entry only costs a re-search, never soundness: nothing is ever stored
//! that was not proved.

/// Slots per bucket.
pub const BUCKET: usize = 4;
/// Bytes of one slot.
pub const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
/// "Not proved": the sentinel of a win or loss bound.
pub const UNKNOWN: u8 = u8::MAX;

/// The facts known about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// A win within this many plies is proved ([`UNKNOWN`] if none).
    pub win: u8,
    /// No win within fewer than this many plies (0: nothing known).
    pub no_win_below: u8,
    /// A loss within this many plies is proved ([`UNKNOWN`] if none).
    pub loss: u8,
    /// No loss within fewer than this many plies (0: nothing known).
    pub no_loss_below: u8,
    /// Index in the legal move order of the move that proved the last fact
    /// (a hint for move ordering only: a key is shared by a position and
    /// its mirror image, whose move order differs, so it may point at
    /// another move).
    pub hint: u8,
    /// Legal moves of the position plus one, as counted when it was
    /// expanded (0: not noted; saturates at `u8::MAX`). It orders moves,
    /// and a noted 0 legal moves (stored as 1) is exact, as counting them
    /// again would be.
    pub moves: u8,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            win: UNKNOWN,
            no_win_below: 0,
            loss: UNKNOWN,
            no_loss_below: 0,
            hint: UNKNOWN,
            moves: 0,
        }
    }
}

impl Bounds {
    /// How much search the entry stands for (replacement priority).
    fn weight(&self) -> u8 {
        let proved = |b: u8| if b == UNKNOWN { 0 } else { b };
        proved(self.win)
            .max(proved(self.loss))
            .max(self.no_win_below)
            .max(self.no_loss_below)
    }
}

/// One slot: the key (0 = empty) and the [`Bounds`] packed into a word,
/// so that a fresh table is all zeros (allocated lazily by the system).
type Slot = [u64; 2];

impl Bounds {
    fn pack(&self) -> u64 {
        u64::from_le_bytes([
            self.win,
            self.no_win_below,
            self.loss,
            self.no_loss_below,
            self.hint,
            self.moves,
            0,
            0,
        ])
    }

    fn unpack(word: u64) -> Bounds {
        let b = word.to_le_bytes();
        Bounds {
            win: b[0],
            no_win_below: b[1],
            loss: b[2],
            no_loss_below: b[3],
            hint: b[4],
            moves: b[5],
        }
    }
}

/// A table of [`Bounds`] keyed by packed positions (never 0). It starts
/// at [`INITIAL_BYTES`] and doubles whenever half its slots are used, up to
/// its bound; from then on full buckets evict. A small table keeps a small
/// proof's probes within few pages.
#[derive(Debug)]
pub struct BoundTable {
    slots: Vec<Slot>,
    bucket_mask: usize,
    used: usize,
    max_buckets: usize,
}

/// Initial size of a table (or its bound, if smaller).
pub const INITIAL_BYTES: usize = 16 << 20;

/// Multiplier of the key's mixing (MurmurHash3's 64-bit finalizer).
const HASH_MUL: u64 = 0xff51_afd7_ed55_8ccd;

impl BoundTable {
    /// A table of at most `max_bytes` (at least one bucket; the bucket count
    /// is a power of two).
    pub fn new(max_bytes: usize) -> BoundTable {
        let max_buckets = Self::buckets_within(max_bytes);
        let buckets = Self::buckets_within(INITIAL_BYTES).min(max_buckets);
        BoundTable {
            slots: vec![[0u64; 2]; buckets * BUCKET],
            bucket_mask: buckets - 1,
            used: 0,
            max_buckets,
        }
    }

    /// The largest power-of-two bucket count within `bytes` (at least 1).
    fn buckets_within(bytes: usize) -> usize {
        let buckets = (bytes / (SLOT_BYTES * BUCKET)).max(1);
        if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        }
    }

    /// Doubles the table, re-inserting every entry (none is lost: a bucket
    /// of the bigger table receives entries from one old bucket only).
    fn grow(&mut self) {
        let buckets = (self.bucket_mask + 1) * 2;
        let old = std::mem::replace(&mut self.slots, vec![[0u64; 2]; buckets * BUCKET]);
        self.bucket_mask = buckets - 1;
        for slot in old.into_iter().filter(|s| s[0] != 0) {
            let at = self.bucket(slot[0]);
            if let Some(free) = self.slots[at..at + BUCKET].iter_mut().find(|s| s[0] == 0) {
                *free = slot;
            }
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.slots.capacity() * SLOT_BYTES
    }

    /// Slots in use (distinct positions stored, replaced ones not counted).
    pub fn used(&self) -> usize {
        self.used
    }

    /// The first slot of `key`'s bucket. Every bit of the key reaches the
    /// low bits used (the hands and the side to move sit in the key's top
    /// bits), and a bucket's index in the doubled table extends its index in
    /// the old one by a bit, which [`Self::grow`] relies on.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let mut h = key ^ (key >> 33);
        h = h.wrapping_mul(HASH_MUL);
        h ^= h >> 33;
        (h as usize & self.bucket_mask) * BUCKET
    }

    /// The facts known about `key` (defaults if none).
    #[inline]
    pub fn get(&self, key: u64) -> Bounds {
        let at = self.bucket(key);
        self.slots[at..at + BUCKET]
            .iter()
            .find(|s| s[0] == key)
            .map_or_else(Bounds::default, |s| Bounds::unpack(s[1]))
    }

    /// Merges `update` into the entry of `key`, creating it (and evicting
    /// the lightest entry of a full bucket) if needed.
    pub fn update(&mut self, key: u64, update: impl FnOnce(&mut Bounds)) {
        let at = self.bucket(key);
        let total = self.slots.len();
        let bucket = &mut self.slots[at..at + BUCKET];
        let slot = match bucket.iter().position(|s| s[0] == key) {
            Some(i) => i,
            None => {
                let free = bucket.iter().position(|s| s[0] == 0);
                let can_grow = self.bucket_mask < self.max_buckets - 1;
                // Grow at half load, or when a bucket overflows past a sixteenth.
                let load = (self.used + usize::from(free.is_some())) * 4;
                if can_grow && (load > total * 2 || (free.is_none() && load * 4 > total)) {
                    self.grow();
                    return self.update(key, update);
                }
                let i = match free {
                    Some(i) => {
                        self.used += 1;
                        i
                    }
                    None => (0..BUCKET)
                        .min_by_key(|&i| Bounds::unpack(bucket[i][1]).weight())
                        .unwrap_or(0),
                };
                bucket[i] = [key, Bounds::default().pack()];
                i
            }
        };
        let mut bounds = Bounds::unpack(bucket[slot][1]);
        update(&mut bounds);
        bucket[slot][1] = bounds.pack();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_merges_and_evicts() {
        let mut t = BoundTable::new(SLOT_BYTES * BUCKET);
        assert_eq!(t.get(5), Bounds::default());
        t.update(5, |b| b.win = 3);
        t.update(5, |b| b.no_loss_below = 7);
        let b = t.get(5);
        assert_eq!((b.win, b.no_loss_below), (3, 7));
        for k in 6..6 + BUCKET as u64 {
            t.update(k, |b| b.no_win_below = 9);
        }
        // One bucket only: the lightest entry (key 5, weight 7) went.
        assert_eq!(t.get(5), Bounds::default());
        assert_eq!(t.get(6).no_win_below, 9);
        assert_eq!(t.used(), BUCKET);
    }

    #[test]
    fn growth_keeps_entries_and_never_mixes_them() {
        let mut t = BoundTable::new(64 << 20);
        let keys: Vec<u64> = (1..700_000u64).map(|k| k * 0x2545_f491_4f6c_dd1d).collect();
        for &k in &keys {
            t.update(k, |b| b.win = (k % 200) as u8);
        }
        assert!(t.bytes() > INITIAL_BYTES, "the table grew");
        let kept = keys
            .iter()
            .filter(|&&k| {
                let win = t.get(k).win;
                assert!(win == UNKNOWN || win == (k % 200) as u8, "key {k}");
                win != UNKNOWN
            })
            .count();
        assert!(kept * 10 > keys.len() * 9, "{kept} of {} kept", keys.len());
    }
}
