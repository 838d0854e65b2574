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
//! that was not proved. The threads of a proof share one table.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

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

/// One slot: the key mixed with the packed [`Bounds`] (see
/// [`BoundTable`]), then the packed bounds; all zeros is an empty slot.
type Slot = [AtomicU64; 2];

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

/// A table of [`Bounds`] keyed by packed positions (never 0), shared by
/// the threads of a proof without locks.
///
/// A slot is two words written one after the other: `key ^ mix(bounds)`
/// and `bounds`. A reader accepts a slot for `key` only if the first word
/// is `key ^ mix` of the second, so a slot caught half-written by another
/// thread (one word old, one new) is taken for another key (a miss), short
/// of a coincidence of the 64-bit mix (Hyatt's lockless hashing). Two
/// threads merging facts into one entry at once may lose one's facts, which
/// costs a re-search, never soundness: whatever a slot holds was proved
/// about its key.
///
/// The table is allocated once at its bound, zeroed by the system, whose
/// pages are only taken when first written: a small proof takes little
/// memory ([`BoundTable::resident_bytes`]).
#[derive(Debug)]
pub struct BoundTable {
    slots: Box<[Slot]>,
    /// Index of the first slot of bucket 0: the buckets start on a cache
    /// line, so that one bucket is one line (the allocation carries up to
    /// one bucket of padding for this).
    base: usize,
    bucket_mask: usize,
    used: AtomicUsize,
    /// Whether every page was provided at once ([`BoundTable::prefault`]).
    prefaulted: bool,
}

/// Multiplier of the key's mixing (MurmurHash3's 64-bit finalizer).
const HASH_MUL: u64 = 0xff51_afd7_ed55_8ccd;
/// Multiplier of the bounds' mixing into the key word.
const CHECK_MUL: u64 = 0xc4ce_b9fe_1a85_ec53;
/// Bytes of a cache line: one bucket, when aligned.
const CACHE_LINE: usize = 64;
const _: () = assert!(BUCKET * SLOT_BYTES == CACHE_LINE);
/// Bytes of a memory page (for the resident estimate).
const PAGE_BYTES: usize = 4096;

/// The check word of `bounds`: a 64-bit mix, never 0 for any bounds.
#[inline]
fn check(bounds: u64) -> u64 {
    let h = (bounds ^ (bounds >> 29)).wrapping_mul(CHECK_MUL);
    (h ^ (h >> 32)) | 1
}

/// `count` zeroed slots, from the system's zeroed pages (not written here).
fn zeroed_slots(count: usize) -> Box<[Slot]> {
    let words = vec![0u64; count * 2].into_boxed_slice();
    let raw = Box::into_raw(words) as *mut [u64; 2];
    // SAFETY: `AtomicU64` has the size, alignment and bit validity of
    // `u64`, so `count` pairs of zero `u64`s are `count` valid slots; the
    // pointer comes from a boxed slice of exactly that many words, whose
    // ownership moves to the new box. Allocating zeroed words (calloc) and
    // not writing them keeps an untouched table's pages unallocated: a
    // 1 GiB table initialised slot by slot took 1 GiB of resident memory
    // for every proof, the 715-node ones too.
    let slots =
        unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(raw as *mut Slot, count)) };
    crate::prefetch::ask_for_huge_pages(&slots);
    slots
}

/// The index of the first slot of `slots` that starts a cache line (0 if
/// none of the first [`BUCKET`] does: the table then works unaligned).
fn first_aligned_slot(slots: &[Slot]) -> usize {
    let at = slots.as_ptr() as usize;
    let skip = (CACHE_LINE - at % CACHE_LINE) % CACHE_LINE;
    if skip.is_multiple_of(SLOT_BYTES) && skip / SLOT_BYTES < BUCKET {
        skip / SLOT_BYTES
    } else {
        0
    }
}

impl BoundTable {
    /// A table of at most `max_bytes` (at least one bucket; the bucket count
    /// is a power of two).
    pub fn new(max_bytes: usize) -> BoundTable {
        let buckets = Self::buckets_within(max_bytes);
        let slots = zeroed_slots(buckets * BUCKET + BUCKET - 1);
        BoundTable {
            base: first_aligned_slot(&slots),
            slots,
            bucket_mask: buckets - 1,
            used: AtomicUsize::new(0),
            prefaulted: false,
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

    /// Bytes of the buckets (most of them possibly never touched).
    pub fn bytes(&self) -> usize {
        (self.bucket_mask + 1) * BUCKET * SLOT_BYTES
    }

    /// Expected bytes of the pages written so far (all of them once
    /// [`prefault`](Self::prefault)ed): the entries are spread
    /// evenly over the table's pages (huge ones where the table spans one),
    /// so `used` entries touch a fraction `1 - exp(-used / pages)` of them.
    pub fn resident_bytes(&self) -> usize {
        if self.prefaulted {
            return self.bytes();
        }
        let page = if self.bytes() >= crate::prefetch::HUGE_PAGE_BYTES {
            crate::prefetch::HUGE_PAGE_BYTES
        } else {
            PAGE_BYTES
        };
        let pages = (self.bytes() / page).max(1) as f64;
        let touched = pages * (1.0 - (-(self.used() as f64) / pages).exp());
        (touched.ceil() as usize * page).min(self.bytes())
    }

    /// Has the system provide every page of the table now, on `threads`
    /// threads at once (each zeroing its share), rather than one by one as
    /// the search first writes them. For a table that will be filled: the
    /// pages cost the same either way, but here they are taken in parallel
    /// and in order.
    pub fn prefault(&mut self, threads: usize) {
        let per_thread = self.slots.len().div_ceil(threads.max(1));
        std::thread::scope(|scope| {
            for part in self.slots.chunks(per_thread.max(1)) {
                scope.spawn(move || {
                    for slot in part.iter().step_by(PAGE_BYTES / SLOT_BYTES) {
                        // An empty slot stays empty: writing its zero makes
                        // the system provide its page.
                        slot[1].store(0, Ordering::Relaxed);
                    }
                });
            }
        });
        self.prefaulted = true;
    }

    /// Stores every entry of this table into `other` (merged into what it
    /// has for the same key).
    pub fn copy_into(&self, other: &BoundTable) {
        for (key, word) in self.slots.iter().filter_map(Self::read) {
            let bounds = Bounds::unpack(word);
            other.update(key, |b| {
                b.win = b.win.min(bounds.win);
                b.no_win_below = b.no_win_below.max(bounds.no_win_below);
                b.loss = b.loss.min(bounds.loss);
                b.no_loss_below = b.no_loss_below.max(bounds.no_loss_below);
                b.hint = bounds.hint;
                b.moves = bounds.moves;
            });
        }
    }

    /// Slots in use (distinct positions stored, replaced ones not counted).
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// The first slot of `key`'s bucket. Every bit of the key reaches the
    /// low bits used (the hands and the side to move sit in the key's top
    /// bits).
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let mut h = key ^ (key >> 33);
        h = h.wrapping_mul(HASH_MUL);
        h ^= h >> 33;
        self.base + (h as usize & self.bucket_mask) * BUCKET
    }

    /// Asks the CPU to bring `key`'s bucket into the cache (a later
    /// [`get`](Self::get) or [`update`](Self::update) waits less).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.slots[self.bucket(key)]);
    }

    /// The slot's key and packed bounds if it is consistent (both words
    /// from one write) and not empty.
    #[inline]
    fn read(slot: &Slot) -> Option<(u64, u64)> {
        let word = slot[1].load(Ordering::Relaxed);
        let key = slot[0].load(Ordering::Relaxed) ^ check(word);
        (word != 0 && key != 0).then_some((key, word))
    }

    /// The facts known about `key` (defaults if none).
    #[inline]
    pub fn get(&self, key: u64) -> Bounds {
        let at = self.bucket(key);
        self.slots[at..at + BUCKET]
            .iter()
            .filter_map(Self::read)
            .find(|&(k, _)| k == key)
            .map_or_else(Bounds::default, |(_, w)| Bounds::unpack(w))
    }

    /// Notes the legal move count `moves` (plus one) of `key` in a free slot
    /// of its bucket, as an entry without facts (never evicting another for
    /// it), unless `key` has an entry already (every entry with facts noted
    /// its count when its position was expanded).
    pub fn note_moves(&self, key: u64, moves: u8) {
        let at = self.bucket(key);
        let bucket = &self.slots[at..at + BUCKET];
        let mut free = None;
        for (i, s) in bucket.iter().enumerate() {
            match Self::read(s) {
                Some((k, _)) if k == key => return,
                Some(_) => {}
                None => free = free.or(Some(i)),
            }
        }
        if let Some(i) = free {
            self.used.fetch_add(1, Ordering::Relaxed);
            let word = Bounds {
                moves,
                ..Bounds::default()
            }
            .pack();
            bucket[i][1].store(word, Ordering::Relaxed);
            bucket[i][0].store(key ^ check(word), Ordering::Relaxed);
        }
    }

    /// Merges `update` into the entry of `key`, creating it (and evicting
    /// the lightest entry of a full bucket) if needed.
    pub fn update(&self, key: u64, update: impl FnOnce(&mut Bounds)) {
        let at = self.bucket(key);
        let bucket = &self.slots[at..at + BUCKET];
        let found = bucket
            .iter()
            .position(|s| Self::read(s).is_some_and(|(k, _)| k == key));
        let (slot, mut bounds) = match found {
            Some(i) => (
                i,
                Self::read(&bucket[i]).map_or_else(Bounds::default, |(_, w)| Bounds::unpack(w)),
            ),
            None => {
                let free = bucket.iter().position(|s| Self::read(s).is_none());
                let i = match free {
                    Some(i) => {
                        self.used.fetch_add(1, Ordering::Relaxed);
                        i
                    }
                    None => (0..BUCKET)
                        .min_by_key(|&i| {
                            Self::read(&bucket[i]).map_or(0, |(_, w)| Bounds::unpack(w).weight())
                        })
                        .unwrap_or(0),
                };
                (i, Bounds::default())
            }
        };
        update(&mut bounds);
        let word = bounds.pack();
        bucket[slot][1].store(word, Ordering::Relaxed);
        bucket[slot][0].store(key ^ check(word), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_merges_and_evicts() {
        let t = BoundTable::new(SLOT_BYTES * BUCKET);
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
    fn many_entries_are_kept_and_never_mixed() {
        let t = BoundTable::new(64 << 20);
        let keys: Vec<u64> = (1..700_000u64)
            .map(|k| k.wrapping_mul(0x2545_f491_4f6c_dd1d))
            .collect();
        for &k in &keys {
            t.update(k, |b| b.win = (k % 200) as u8);
        }
        let kept = keys
            .iter()
            .filter(|&&k| {
                let win = t.get(k).win;
                assert!(win == UNKNOWN || win == (k % 200) as u8, "key {k}");
                win != UNKNOWN
            })
            .count();
        assert!(
            kept * 100 > keys.len() * 99,
            "{kept} of {} kept",
            keys.len()
        );
        assert!(t.resident_bytes() <= t.bytes());
    }
}
