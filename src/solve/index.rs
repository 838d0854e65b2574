//! The reachable set's index: packed positions to dense ids.
//!
//! Keys are stored scrambled, `h = key * HASH_MUL` (mod 2^64): an odd
//! multiplier is a bijection, so `h` gives the key back
//! ([`unhash`]), and the scrambled values are spread evenly over the 64-bit
//! range whatever the keys look like.
//!
//! * While the set is enumerated it is a [`KeySet`]: open-addressing tables
//!   sharded by the top bits of `h`, each growing on its own (no moment
//!   where the whole table exists twice), with one byte beside each key (the
//!   position's move count and check flag, see
//!   [`enumerate`](super::enumerate)).
//! * Once complete it becomes a [`KeyIndex`]: the `h` values sorted (8
//!   bytes per position), a position's id being its rank, and a directory
//!   of bucket starts by the top bits of `h` (about one bucket per
//!   [`BUCKET_LOAD`] positions, 4 bytes each: small enough to stay in the
//!   cache). A look-up reads two directory entries, guesses the place in
//!   the bucket by interpolation (the `h` are spread evenly) and scans from
//!   there: usually one cache line of keys.

/// Odd multiplier (Fibonacci hashing) of the key scrambling.
const HASH_MUL: u64 = 0x9e37_79b9_7f4a_7c15;
/// The inverse of [`HASH_MUL`] modulo 2^64.
const HASH_INV: u64 = inverse(HASH_MUL);

/// The multiplicative inverse of an odd `a` modulo 2^64 (Newton's iteration
/// doubles the correct low bits each step, from 3).
const fn inverse(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// The scrambled form of a key (never 0 for a non-zero key).
#[inline]
pub fn hash(key: u64) -> u64 {
    key.wrapping_mul(HASH_MUL)
}

/// The key of a scrambled form.
#[inline]
pub fn unhash(h: u64) -> u64 {
    h.wrapping_mul(HASH_INV)
}

/// Positions per directory bucket, on average (a power of two).
const BUCKET_LOAD: usize = 64;

/// Sorted scrambled keys with a bucket directory.
#[derive(Clone, Debug, Default)]
pub struct KeyIndex {
    hashes: Vec<u64>,
    directory: Vec<u32>,
    shift: u32,
}

impl KeyIndex {
    /// The index of these scrambled keys, which must be sorted and distinct.
    pub fn from_sorted(hashes: Vec<u64>) -> KeyIndex {
        debug_assert!(hashes.windows(2).all(|w| w[0] < w[1]));
        let buckets = (hashes.len() / BUCKET_LOAD).next_power_of_two().max(2);
        let shift = 64 - buckets.trailing_zeros();
        let mut directory = vec![0u32; buckets + 1];
        for &h in &hashes {
            directory[(h >> shift) as usize + 1] += 1;
        }
        for b in 0..buckets {
            directory[b + 1] += directory[b];
        }
        KeyIndex {
            hashes,
            directory,
            shift,
        }
    }

    /// Number of positions.
    #[inline]
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether the index is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The key of an id.
    #[inline]
    pub fn key(&self, id: u32) -> u64 {
        unhash(self.hashes[id as usize])
    }

    /// Bytes of heap memory held.
    pub fn bytes(&self) -> usize {
        self.hashes.capacity() * 8 + self.directory.capacity() * 4
    }

    /// Bytes an index of `n` positions holds.
    pub fn bytes_for(n: usize) -> usize {
        n * 8 + ((n / BUCKET_LOAD).next_power_of_two().max(2) + 1) * 4
    }

    /// The id of `key`, if present.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        let h = hash(key);
        let b = (h >> self.shift) as usize;
        let (start, end) = (self.directory[b] as usize, self.directory[b + 1] as usize);
        if start == end {
            return None;
        }
        // Where `h` would be if the bucket's keys were evenly spaced.
        let within = h << (64 - self.shift);
        let mut i = start + ((within as u128 * (end - start) as u128) >> 64) as usize;
        let keys = &self.hashes[..end];
        if keys[i] < h {
            while i + 1 < end && keys[i + 1] <= h {
                i += 1;
            }
        } else {
            while i > start && keys[i - 1] >= h {
                i -= 1;
            }
        }
        (keys[i] == h).then_some(i as u32)
    }
}

/// Shards of a [`KeySet`] (a power of two).
const SHARDS: usize = 1 << SHARD_BITS;
/// Bits of `h` choosing the shard.
const SHARD_BITS: u32 = 10;
/// Initial slots of a shard (a power of two).
const INITIAL_SLOTS: usize = 1 << 6;
/// Largest load of a shard (LOAD_NUM / LOAD_DEN of its slots) before it doubles.
const LOAD_NUM: usize = 3;
const LOAD_DEN: usize = 4;

/// One open-addressing table of scrambled keys (0 = empty), with a byte
/// beside each.
#[derive(Clone, Debug)]
struct Shard {
    slots: Vec<u64>,
    bytes: Vec<u8>,
    len: usize,
    shift: u32,
}

impl Shard {
    fn with_slots(slots: usize) -> Shard {
        Shard {
            slots: vec![0; slots],
            bytes: vec![0; slots],
            len: 0,
            shift: 64 - slots.trailing_zeros(),
        }
    }

    #[inline]
    fn home(&self, h: u64) -> usize {
        ((h << SHARD_BITS) >> self.shift) as usize
    }

    /// The slot of `h`: where it is, or the empty slot where it would go.
    #[inline]
    fn slot(&self, h: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(h);
        while self.slots[i] != 0 && self.slots[i] != h {
            i = (i + 1) & mask;
        }
        i
    }

    /// Inserts `h`; true if it was new.
    #[inline]
    fn insert(&mut self, h: u64) -> bool {
        if (self.len + 1) * LOAD_DEN > self.slots.len() * LOAD_NUM {
            self.grow();
        }
        let i = self.slot(h);
        if self.slots[i] == h {
            return false;
        }
        self.slots[i] = h;
        self.len += 1;
        true
    }

    fn grow(&mut self) {
        let mut bigger = Shard::with_slots(self.slots.len() * 2);
        for (&h, &b) in self.slots.iter().zip(&self.bytes) {
            if h != 0 {
                let i = bigger.slot(h);
                bigger.slots[i] = h;
                bigger.bytes[i] = b;
            }
        }
        bigger.len = self.len;
        *self = bigger;
    }

    fn bytes(&self) -> usize {
        self.slots.capacity() * 9
    }

    /// Writes this shard's keys, sorted, and their bytes into `hashes` and
    /// `bytes` (exactly `len` long), and frees the shard.
    fn drain_into(&mut self, hashes: &mut [u64], bytes: &mut [u8]) {
        let mut at = 0;
        for &h in &self.slots {
            if h != 0 {
                hashes[at] = h;
                at += 1;
            }
        }
        hashes.sort_unstable();
        for (h, b) in hashes.iter().zip(bytes.iter_mut()) {
            *b = self.bytes[self.slot(*h)];
        }
        *self = Shard {
            slots: Vec::new(),
            bytes: Vec::new(),
            len: 0,
            shift: 0,
        };
    }
}

/// A growing set of scrambled keys with a byte per key, sharded so that
/// threads can insert into disjoint shard ranges at once.
#[derive(Clone, Debug)]
pub struct KeySet {
    shards: Vec<Shard>,
}

impl Default for KeySet {
    fn default() -> Self {
        KeySet {
            shards: vec![Shard::with_slots(INITIAL_SLOTS); SHARDS],
        }
    }
}

/// The shard of a scrambled key.
#[inline]
pub fn shard_of(h: u64) -> usize {
    (h >> (64 - SHARD_BITS)) as usize
}

/// Number of shards of a [`KeySet`].
pub const fn shard_count() -> usize {
    SHARDS
}

impl KeySet {
    /// Number of keys.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.len).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of heap memory held.
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(Shard::bytes).sum()
    }

    /// The shards split at shard `at`, for two threads.
    pub fn split_at_mut(&mut self, at: usize) -> (ShardsMut<'_>, ShardsMut<'_>) {
        let (a, b) = self.shards.split_at_mut(at);
        (
            ShardsMut {
                first: 0,
                shards: a,
            },
            ShardsMut {
                first: at,
                shards: b,
            },
        )
    }

    /// All shards, for one thread.
    pub fn all_mut(&mut self) -> ShardsMut<'_> {
        ShardsMut {
            first: 0,
            shards: &mut self.shards,
        }
    }

    /// The sorted index of the keys and the bytes by id; frees the set as it
    /// goes. Runs on two threads when `threads` > 1.
    pub fn into_index(mut self, threads: usize) -> (KeyIndex, Vec<u8>) {
        let n = self.len();
        let mut hashes = vec![0u64; n];
        let mut bytes = vec![0u8; n];
        let lens: Vec<usize> = self.shards.iter().map(|s| s.len).collect();
        let drain = |shards: &mut [Shard], mut hashes: &mut [u64], mut bytes: &mut [u8]| {
            for shard in shards {
                let (h, rest_h) = std::mem::take(&mut hashes).split_at_mut(shard.len);
                let (b, rest_b) = std::mem::take(&mut bytes).split_at_mut(shard.len);
                shard.drain_into(h, b);
                hashes = rest_h;
                bytes = rest_b;
            }
        };
        if threads > 1 {
            let mut split = 0;
            let mut before = 0;
            while split < SHARDS && before * 2 < n {
                before += lens[split];
                split += 1;
            }
            let (sa, sb) = self.shards.split_at_mut(split);
            let (ha, hb) = hashes.split_at_mut(before);
            let (ba, bb) = bytes.split_at_mut(before);
            std::thread::scope(|s| {
                s.spawn(|| drain(sa, ha, ba));
                drain(sb, hb, bb);
            });
        } else {
            drain(&mut self.shards, &mut hashes, &mut bytes);
        }
        (KeyIndex::from_sorted(hashes), bytes)
    }
}

/// A range of a [`KeySet`]'s shards, owned by one thread.
pub struct ShardsMut<'a> {
    first: usize,
    shards: &'a mut [Shard],
}

impl ShardsMut<'_> {
    /// Whether the scrambled key `h` belongs to these shards.
    #[inline]
    pub fn owns(&self, h: u64) -> bool {
        shard_of(h).wrapping_sub(self.first) < self.shards.len()
    }

    /// Inserts `h` (which these shards own); true if it was new.
    #[inline]
    pub fn insert(&mut self, h: u64) -> bool {
        self.shards[shard_of(h) - self.first].insert(h)
    }

    /// Sets the byte of `h`, which must be present.
    #[inline]
    pub fn set_byte(&mut self, h: u64, byte: u8) {
        let shard = &mut self.shards[shard_of(h) - self.first];
        let i = shard.slot(h);
        debug_assert_eq!(shard.slots[i], h);
        shard.bytes[i] = byte;
    }
}

/// A set of ids: one bit each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// `n` bits, all clear.
    pub fn new(n: usize) -> Bits {
        Bits {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Bit `i`.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 != 0
    }

    /// Sets bit `i` to `v`.
    #[inline]
    pub fn set(&mut self, i: usize, v: bool) {
        let w = &mut self.words[i / 64];
        *w = (*w & !(1 << (i % 64))) | (v as u64) << (i % 64);
    }

    /// Number of set bits.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Bytes of heap memory held.
    pub fn bytes(&self) -> usize {
        self.words.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_round_trips() {
        assert_eq!(HASH_MUL.wrapping_mul(HASH_INV), 1);
        for k in [1u64, 7919, u64::MAX, 1 << 45 | 12345] {
            assert_eq!(unhash(hash(k)), k);
        }
    }

    #[test]
    fn set_to_index() {
        let mut set = KeySet::default();
        {
            let mut all = set.all_mut();
            for k in 1..200_000u64 {
                assert!(all.insert(hash(k * 7919)));
                all.set_byte(hash(k * 7919), (k % 251) as u8);
            }
            assert!(!all.insert(hash(7919)));
        }
        assert_eq!(set.len(), 199_999);
        for threads in [1, 2] {
            let (index, bytes) = set.clone().into_index(threads);
            assert_eq!(index.len(), 199_999);
            let id = index.get(7919 * 5).unwrap();
            assert_eq!(index.key(id), 7919 * 5);
            assert_eq!(bytes[id as usize], 5);
            assert_eq!(index.get(3), None);
            assert_eq!(index.get(7919 * 200_000), None);
        }
    }
}
