//! The df-pn table: a fixed-size array of clusters, keyed by the board (the
//! pieces on the board and the side to move, hands excluded) and holding the
//! attacker's hand beside each entry, so that one lookup applies the
//! superiority of hands (優越関係):
//!
//! - a position proven with attacker hand `H` is proven with any hand `H' ⊇ H`
//!   (the attacker has every move it had; the defender, holding the rest of
//!   a fixed set of pieces, has fewer);
//! - a position disproven with hand `H` is disproven with any hand `H' ⊆ H`.
//!
//! The table is one array of words allocated zeroed (the pages are only touched
//! when used). A cluster holds its eight board keys first (one cache line
//! to scan), then per entry four words: packed hand (its free low byte the
//! parent link, see [`Table::parent`]), `pn | dn << 32`,
//! `len | amount << 12 | depth << 40 | generation << 52` (12, 28, 12 and 12
//! bits; `depth` is the least ply the entry was stored from) and the
//! parent's board key. A slot is in use when its
//! amount is not 0 and its generation is the table's: a new search only
//! bumps the generation, so the table is allocated once and never cleared
//! (its pages stay mapped across `go mate` commands). A search starts on
//! the first 16 MiB of the allocation and doubles the part in use whenever
//! a quarter of it is filled (entries moved to their new clusters), so a
//! short search touches only the pages it needs: the system zeroes every
//! page on its first touch, about 1.2 s per 512 MiB on the project's VM,
//! which a key spread over a 2 GiB table paid within its first seconds. A
//! full cluster replaces its entry with the least work (`amount`, the nodes
//! searched below the entry when it was stored): that is the garbage
//! collection.
//!
//! Several searchers may share the table (`go mate` with `Threads` above
//! 1): after [`Table::share`], every access to a cluster holds the
//! cluster's lock, the low bit of its first key word (board keys are
//! stored without their low bit), so no searcher reads an entry half
//! written. A table used by one searcher takes no lock.

use crate::position::{Hand, Position};
use crate::types::{Color, PieceType};
use crate::zobrist;
use std::sync::atomic::Ordering::{self, Relaxed};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

/// Proof or disproof number meaning "infinite" (the other number is 0).
pub const INF: u32 = u32::MAX;
/// Words per entry.
const WORDS: usize = 5;
/// Entries per cluster.
const CLUSTER: usize = 8;
/// Bytes per cluster.
const CLUSTER_BYTES: usize = WORDS * CLUSTER * 8;
/// Bytes per cache line (what one prefetch brings).
const CACHE_LINE: usize = 64;
/// Words per cache line.
const LINE_WORDS: usize = CACHE_LINE / 8;
/// The high bit of every byte of a packed hand (the borrow guard of the
/// subset test: counts are below 128).
const HAND_GUARD: u64 = 0x8080_8080_8080_8080;

/// A packed hand: one byte per piece type, indexed by the type's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedHand(pub u64);

impl PackedHand {
    /// Packs `hand`.
    pub fn new(hand: Hand) -> PackedHand {
        let mut bits = 0u64;
        for pt in PieceType::HAND {
            bits |= (hand.count(pt) as u64) << (8 * pt.index());
        }
        PackedHand(bits)
    }

    /// Whether every count of `self` is at most the count in `other`.
    #[inline]
    pub fn is_subset_of(self, other: PackedHand) -> bool {
        ((other.0 | HAND_GUARD) - self.0) & HAND_GUARD == HAND_GUARD
    }
}

/// The key of the board and side to move, hands excluded.
pub fn board_key(pos: &Position) -> u64 {
    let mut key = pos.key();
    for c in Color::ALL {
        let hand = pos.hand(c);
        for pt in PieceType::HAND {
            key ^= zobrist::hand_key(c, pt, hand.count(pt));
        }
    }
    key
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Proof number (0 = proven).
    pub pn: u32,
    /// Disproof number (0 = disproven).
    pub dn: u32,
    /// For a proof, the length in plies of the mate found.
    pub len: u16,
    /// The attacker's hand of the entry (for a proof or disproof, its proof
    /// or disproof pieces).
    pub hand: PackedHand,
}

/// A lookup's answer: the entry that decides the position (a proof or
/// disproof by superiority, or the entry of this very hand), and the floors
/// that unsolved entries of the same board with other hands give (0: none).
/// An attacker holding less than an entry's hand has fewer checks and the
/// defender more replies, so its pn is at least that entry's; one holding
/// more has a dn at least that entry's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// The deciding entry, if any.
    pub found: Option<Found>,
    /// The largest pn of an unsolved entry whose hand holds at least this
    /// one.
    pub pn_floor: u32,
    /// The largest dn of an unsolved entry whose hand this one holds.
    pub dn_floor: u32,
    /// Whether the deciding entry is this hand's unsolved entry, stored
    /// from a ply nearer the root than the lookup's.
    pub old: bool,
    /// The largest length bound of the entries whose hand holds at least
    /// this one (0: none): no mate within `bound - 1` plies. An attacker
    /// holding less has no mate the entry's hand lacks; a proof keeps the
    /// bound of its own hand beside its length (see [`Table::store`]).
    pub bound: u16,
}

/// An unsolved entry's parent and numbers (see [`Table::parent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParentLink {
    /// The parent's board key.
    pub board: u64,
    /// The parent's attacker hand.
    pub hand: PackedHand,
    /// The entry's proof number.
    pub pn: u32,
    /// The entry's disproof number.
    pub dn: u32,
}

/// The fixed-size df-pn table.
pub struct Table {
    /// The allocation: the clusters start at `first`.
    words: Box<[AtomicU64]>,
    /// The index in `words` of the first cluster's first word, chosen so
    /// that every cluster starts on a cache line (the allocator aligns
    /// `words` to 16 bytes only: a cluster's 8 keys would straddle two
    /// lines).
    first: usize,
    /// Clusters allocated.
    clusters: usize,
    /// The size in MiB asked for (the clusters' bytes round it down).
    mib: usize,
    /// Clusters in use: the table starts with a small prefix of its
    /// allocation and doubles it as it fills (see [`grow`](Self::grow)), so
    /// a short search touches (and has the system zero) only the pages it
    /// needs.
    active: AtomicUsize,
    /// Live entries.
    used: AtomicUsize,
    generation: u64,
    /// Whether several searchers use the table (see [`share`](Self::share)).
    shared: AtomicBool,
}

/// The lock bit of a cluster, in its first key word; stored board keys
/// leave it clear (so boards whose keys differ in that bit alone share
/// their entries: one chance in 2^63 a pair).
const LOCK_BIT: u64 = 1;
/// Spins on a held cluster lock between two yields of the core.
const SPINS_BEFORE_YIELD: u32 = 256;

/// A cluster's lock, held until dropped (a no-op for a table used by one
/// searcher).
struct ClusterLock<'a> {
    first_key: &'a AtomicU64,
    /// [`LOCK_BIT`] when held, else 0: what the first key word keeps of it
    /// when the holder writes a key there.
    held: u64,
}

impl Drop for ClusterLock<'_> {
    fn drop(&mut self) {
        if self.held != 0 {
            self.first_key.fetch_and(!LOCK_BIT, Ordering::Release);
        }
    }
}

// The conversion in `zeroed_words` needs `u64`'s alignment to be
// `AtomicU64`'s (true on x86-64; not on every 32-bit target).
const _: () = assert!(std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>());

/// `count` zeroed words, from the system's zeroed pages (not written here).
fn zeroed_words(count: usize) -> Box<[AtomicU64]> {
    let raw = Box::into_raw(vec![0u64; count].into_boxed_slice()) as *mut [AtomicU64];
    // SAFETY: `AtomicU64` has the size, alignment and bit validity of
    // `u64`, and the pointer comes from a boxed slice of `count` words whose
    // ownership moves to the new box. Allocating zeroed words (calloc) and
    // not writing them leaves the pages of an untouched table unallocated
    // (the system zeroes a page on its first touch, about 1.2 s per 512 MiB
    // on the project's VM: see the module's docs).
    unsafe { Box::from_raw(raw) }
}

/// The stored form of board key `key` (its low bit is the lock's).
#[inline]
fn stored_key(key: u64) -> u64 {
    key & !LOCK_BIT
}

/// The clusters in use double once more than 1 / GROW_LOAD_DIV of their
/// entries are: a fuller table would replace entries (proofs among them)
/// long before the allocation is used.
const GROW_LOAD_DIV: usize = 4;
/// Clusters in use when a search starts (16 MiB).
const INITIAL_CLUSTERS: usize = 1 << 16;

/// Bits of the length in the third data word (longer lengths are stored as
/// this).
const LEN_MASK: u64 = 0xfff;
/// Shift of the amount in the third data word.
const AMOUNT_SHIFT: u32 = 12;
/// Bits of the amount (after its shift).
const AMOUNT_MASK: u64 = 0xfff_ffff;
/// Shift of the depth (the least ply an entry was stored from).
const DEPTH_SHIFT: u32 = 40;
/// Bits of the depth (after its shift); deeper plies are stored as this.
const DEPTH_MASK: u64 = 0xfff;
/// Shift of the generation in the third data word.
const GENERATION_SHIFT: u32 = 52;
/// Generations before they wrap (12 bits; 0 is never used).
const GENERATION_MASK: u64 = 0xfff;

impl Table {
    /// A table of about `mib` MiB (at least one cluster).
    pub fn new(mib: usize) -> Table {
        let clusters = (mib << 20) / CLUSTER_BYTES;
        let clusters = clusters.max(1);
        let words = zeroed_words(clusters * CLUSTER * WORDS + LINE_WORDS - 1);
        crate::prefetch::ask_for_huge_pages(&words);
        let first = words.as_ptr().align_offset(CACHE_LINE).min(LINE_WORDS - 1);
        Table {
            words,
            first,
            clusters,
            mib,
            active: AtomicUsize::new(clusters.min(INITIAL_CLUSTERS)),
            used: AtomicUsize::new(0),
            generation: 1,
            shared: AtomicBool::new(false),
        }
    }

    /// The memory of the whole allocation (to have its pages faulted in
    /// ahead of the search: see [`crate::prefetch::populate_while`]).
    pub fn memory(&self) -> crate::prefetch::PageRange {
        crate::prefetch::PageRange::of(&self.words)
    }

    /// The size in MiB the table was made for (as asked: a cluster's 320
    /// bytes do not divide a MiB, so the allocation is a little less).
    pub fn size_mb(&self) -> usize {
        self.mib
    }

    /// Forgets every entry (in O(1): a new generation; the whole table is
    /// cleared only when the 12-bit generation wraps).
    pub fn clear(&mut self) {
        *self.active.get_mut() = self.clusters.min(INITIAL_CLUSTERS);
        *self.used.get_mut() = 0;
        *self.shared.get_mut() = false;
        self.generation = (self.generation + 1) & GENERATION_MASK;
        if self.generation == 0 {
            for w in self.words.iter_mut() {
                *w.get_mut() = 0;
            }
            self.generation = 1;
        }
    }

    /// Readies the table for several searchers: a cluster's lock is taken
    /// at every access from now on, and the table no longer grows by itself
    /// (see [`grow_if_due`](Self::grow_if_due)). Requirement: no other
    /// searcher uses the table during the call (one that did might read
    /// an entry half written).
    pub fn share(&self) {
        self.shared.store(true, Relaxed);
    }

    /// Undoes [`share`](Self::share). Requirement: the table has one
    /// searcher again.
    pub fn stop_sharing(&self) {
        self.shared.store(false, Relaxed);
    }

    /// Whether the clusters in use should double (see [`grow`](Self::grow)).
    fn growth_due(&self) -> bool {
        self.active() < self.clusters
            && self.used.load(Relaxed) * GROW_LOAD_DIV > self.active() * CLUSTER
    }

    /// Whether a shared table should grow: then the caller stops the other
    /// searchers and calls [`grow_if_due`](Self::grow_if_due).
    pub fn shared_growth_due(&self) -> bool {
        self.shared.load(Relaxed) && self.growth_due()
    }

    /// The memory the next growth moves entries into (empty at full size):
    /// a shared table's pages are faulted in there before the helpers stop
    /// for the growth, so they do not wait for the system to zero them.
    pub fn next_growth_memory(&self) -> crate::prefetch::PageRange {
        let old = self.active();
        let new = (old * 2).min(self.clusters);
        crate::prefetch::PageRange::of(&self.words[self.cluster_at(old)..self.cluster_at(new)])
    }

    /// Doubles the clusters in use if due. Requirement: no other searcher
    /// uses the table during the call (the entries move: a lookup meanwhile
    /// could miss a proof, or a store be lost).
    pub fn grow_if_due(&self) {
        if self.growth_due() {
            self.grow();
        }
    }

    /// Takes the lock of the cluster starting at `start` when the table is
    /// shared.
    #[inline]
    fn lock(&self, start: usize) -> ClusterLock<'_> {
        let first_key = &self.words[start];
        if !self.shared.load(Relaxed) {
            return ClusterLock { first_key, held: 0 };
        }
        let mut spins = 0u32;
        while first_key.fetch_or(LOCK_BIT, Ordering::Acquire) & LOCK_BIT != 0 {
            while first_key.load(Relaxed) & LOCK_BIT != 0 {
                spins += 1;
                if spins.is_multiple_of(SPINS_BEFORE_YIELD) {
                    // The holder may have lost its core.
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
        }
        ClusterLock {
            first_key,
            held: LOCK_BIT,
        }
    }

    /// Clusters in use.
    #[inline]
    fn active(&self) -> usize {
        self.active.load(Relaxed)
    }

    /// The board key in `slot` of the cluster at `start`.
    #[inline]
    fn key_at(&self, start: usize, slot: usize) -> u64 {
        stored_key(self.words[start + slot].load(Relaxed))
    }

    /// The slots of the cluster at `start` whose board key is `key` (a
    /// stored key), in order: the keys are compared without a branch into
    /// a mask, so that only the matching entries' data is read.
    #[inline]
    fn slots_of(&self, start: usize, key: u64) -> impl Iterator<Item = usize> {
        let mut slots = 0u32;
        for slot in 0..CLUSTER {
            slots |= u32::from(self.key_at(start, slot) == key) << slot;
        }
        std::iter::from_fn(move || {
            let slot = slots.trailing_zeros() as usize;
            slots &= slots.wrapping_sub(1);
            (slot < CLUSTER).then_some(slot)
        })
    }

    /// The four data words of `slot` of the cluster at `start` (see
    /// [`data_index`]).
    #[inline]
    fn data(&self, start: usize, slot: usize) -> [u64; WORDS - 1] {
        let i = start + data_index(slot);
        std::array::from_fn(|k| self.words[i + k].load(Relaxed))
    }

    /// Writes the data words of `slot` of the cluster at `start`.
    #[inline]
    fn set_data(&self, start: usize, slot: usize, e: &[u64; WORDS - 1]) {
        let i = start + data_index(slot);
        for (k, &w) in e.iter().enumerate() {
            self.words[i + k].store(w, Relaxed);
        }
    }

    /// Whether the data word `w` (the third) is a live entry.
    #[inline]
    fn live(&self, w: u64) -> bool {
        is_live(w, self.generation)
    }

    #[inline]
    fn cluster_start(&self, key: u64) -> usize {
        self.cluster_at(cluster_index(key, self.active()))
    }

    /// The index in `words` of cluster `i`.
    #[inline]
    fn cluster_at(&self, i: usize) -> usize {
        self.first + i * CLUSTER * WORDS
    }

    /// Doubles the clusters in use (at most to the allocation), moving every
    /// live entry to its new cluster. The new cluster of an entry is at or
    /// after its old one, so the clusters are moved from the last down, each
    /// through a copy. A cluster that receives more than it holds keeps its
    /// entries of the most work (only when the allocation is not a doubling).
    fn grow(&self) {
        let old = self.active();
        let new = (old * 2).min(self.clusters);
        if new == old {
            return;
        }
        self.active.store(new, Relaxed);
        let generation = self.generation;
        let mut moved = 0;
        for i in (0..old).rev() {
            let start = self.cluster_at(i);
            let keys: [u64; CLUSTER] = std::array::from_fn(|slot| self.key_at(start, slot));
            let entries: [[u64; WORDS - 1]; CLUSTER] =
                std::array::from_fn(|slot| self.data(start, slot));
            for w in &self.words[start..start + CLUSTER * WORDS] {
                w.store(0, Relaxed);
            }
            for (&key, e) in keys.iter().zip(&entries) {
                if !is_live(e[2], generation) {
                    continue;
                }
                let to = self.cluster_at(cluster_index(key, new));
                let target = self.weakest(to);
                let amount = entry_amount(e[2]);
                if target.0 >= amount {
                    continue;
                }
                if target.0 == 0 {
                    moved += 1;
                }
                self.words[to + target.1].store(key, Relaxed);
                self.set_data(to, target.1, e);
            }
        }
        self.used.store(moved, Relaxed);
    }

    /// Asks the CPU to bring the cluster of board key `key` into the cache
    /// (a hint: a later [`lookup`](Self::lookup) then waits less).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let start = self.cluster_start(key);
        for line in 0..CLUSTER_BYTES / CACHE_LINE {
            crate::prefetch::prefetch(&self.words[start + line * LINE_WORDS]);
        }
    }

    /// Looks up the position with board key `key` and attacker hand `hand`:
    /// a proof with a hand the attacker holds at least (the shortest of
    /// them), a disproof with a hand holding at least as much, or the entry
    /// of this very hand.
    pub fn lookup(&self, key: u64, hand: PackedHand) -> Option<Found> {
        self.lookup_with_floors(key, hand, usize::MAX).found
    }

    /// [`lookup`](Self::lookup) of a position at `ply`, and the floors the
    /// unsolved entries of other hands stored from plies up to `ply` give
    /// (see [`Lookup`]).
    pub fn lookup_with_floors(&self, key: u64, hand: PackedHand, ply: usize) -> Lookup {
        let key = stored_key(key);
        let start = self.cluster_start(key);
        let _lock = self.lock(start);
        let mut exact = None;
        let mut proof = None;
        let (mut pn_floor, mut dn_floor) = (0, 0);
        let mut old = false;
        let mut bound = 0;
        let ply = (ply as u64).min(DEPTH_MASK);
        for slot in self.slots_of(start, key) {
            let e = self.data(start, slot);
            if !self.live(e[2]) {
                continue;
            }
            let h = entry_hand(&e);
            if hand.is_subset_of(h) {
                bound = bound.max(entry_bound(&e));
            }
            let found = unpack(&e);
            if found.pn == 0 && h.is_subset_of(hand) {
                if proof.is_none_or(|p: Found| found.len < p.len) {
                    proof = Some(found);
                }
                continue;
            }
            if found.dn == 0 && hand.is_subset_of(h) {
                return Lookup {
                    found: Some(found),
                    pn_floor: 0,
                    dn_floor: 0,
                    old: false,
                    bound: 0,
                };
            }
            let shallower = entry_depth(e[2]) <= ply;
            if h == hand {
                exact = Some(found);
                old = entry_depth(e[2]) < ply;
            } else if found.pn != 0 && found.dn != 0 && found.len == 0 && shallower {
                if hand.is_subset_of(h) {
                    pn_floor = pn_floor.max(found.pn);
                } else if h.is_subset_of(hand) {
                    dn_floor = dn_floor.max(found.dn);
                }
            }
        }
        Lookup {
            found: proof.or(exact),
            pn_floor,
            dn_floor,
            old: proof.is_none() && old,
            bound,
        }
    }

    /// The parent an unsolved entry of this very hand was stored from
    /// (board key and hand) with the entry's numbers: the way up the table
    /// that double-count elimination follows.
    pub fn parent(&self, key: u64, hand: PackedHand) -> Option<ParentLink> {
        let key = stored_key(key);
        let start = self.cluster_start(key);
        let _lock = self.lock(start);
        for slot in self.slots_of(start, key) {
            let e = self.data(start, slot);
            let link = (e[0] & PARENT_LINK_MASK) as u8;
            if !self.live(e[2]) || entry_hand(&e) != hand || link & PARENT_VALID == 0 {
                continue;
            }
            let found = unpack(&e);
            return Some(ParentLink {
                board: e[3],
                hand: parent_hand(hand, link),
                pn: found.pn,
                dn: found.dn,
            });
        }
        None
    }

    /// Stores what is known of a position reached at ply `depth` from
    /// `parent` (its board key and attacker hand); `amount` is the work it
    /// took. A proof or disproof removes the entries of the
    /// same board it makes redundant; it is never overwritten by a
    /// non-terminal value, and a proof keeps the shorter of its lengths, an
    /// entry the least of its depths. A length bound (a non-terminal
    /// `found` with `len` > 0: no mate within `len - 1` plies) is kept by
    /// the entry of the same hand whatever comes later but a disproof: an
    /// unsolved entry keeps the largest in its length, a proof beside its
    /// own (in the place of its dn); the unsolved entries a proof makes
    /// redundant stay while they hold one.
    pub fn store(
        &self,
        key: u64,
        hand: PackedHand,
        found: Found,
        amount: u64,
        depth: usize,
        parent: Option<(u64, PackedHand)>,
    ) {
        // A proof's dn word is the place of its bound (see `entry_bound`).
        debug_assert!(
            found.pn != 0 || found.dn == INF,
            "a proof with dn {}",
            found.dn
        );
        let shared = self.shared.load(Relaxed);
        if !shared {
            self.grow_if_due();
        }
        let key = stored_key(key);
        let start = self.cluster_start(key);
        let lock = self.lock(start);
        let amount = amount.clamp(1, AMOUNT_MASK);
        let generation = self.generation;
        let live = |w: u64| is_live(w, generation);
        // Entries freed (-1 each) and taken (+1).
        let mut added = 0isize;
        let mut target = None;
        // The entries of this board first (their data read only there).
        for slot in self.slots_of(start, key) {
            let mut e = self.data(start, slot);
            if !live(e[2]) {
                continue;
            }
            let h = entry_hand(&e);
            if h == hand {
                let old = unpack(&e);
                if old.pn == 0 && found.pn != 0 && found.dn != 0 && found.len > 0 {
                    // A proof keeps the bound beside its length.
                    let bound = entry_bound(&e).max(found.len);
                    e[1] = u64::from(bound) << 32;
                    self.set_data(start, slot, &e);
                    return;
                }
                if (old.pn == 0 || old.dn == 0) && found.pn != 0 && found.dn != 0 {
                    // A proof or disproof is never replaced by less.
                    return;
                }
                target = Some(slot);
                continue;
            }
            let old = unpack(&e);
            let redundant =
                (found.pn == 0 && hand.is_subset_of(h) && old.pn != 0 && entry_bound(&e) == 0)
                    || (found.dn == 0 && h.is_subset_of(hand) && old.dn != 0);
            if redundant {
                self.set_data(start, slot, &[0; WORDS - 1]);
                added -= 1;
            }
        }
        let slot = target.unwrap_or_else(|| self.weakest(start).1);
        // The first key word keeps the lock's bit while it is held.
        let lock_bit = if slot == 0 { lock.held } else { 0 };
        self.words[start + slot].store(key | lock_bit, Relaxed);
        let mut e = self.data(start, slot);
        if !live(e[2]) {
            added += 1;
        }
        self.count_entries(added, shared);
        e[0] = hand.0 | u64::from(parent_link(hand, parent, found));
        e[3] = parent.map_or(0, |(board, _)| board);
        let old = unpack(&e);
        let same = target.is_some() && live(e[2]);
        let old_bound = if same { entry_bound(&e) } else { 0 };
        let len = if same && old.pn == 0 && found.pn == 0 {
            found.len.min(old.len)
        } else if found.pn != 0 && found.dn != 0 {
            found.len.max(old_bound)
        } else {
            found.len
        };
        let len = (len as u64).min(LEN_MASK);
        // A proof's dn (infinite) is the place of its bound.
        let dn = if found.pn == 0 && old_bound > 0 {
            u32::from(old_bound)
        } else {
            found.dn
        };
        let depth = (depth as u64).min(DEPTH_MASK);
        let depth = if same {
            depth.min(entry_depth(e[2]))
        } else {
            depth
        };
        e[1] = found.pn as u64 | (dn as u64) << 32;
        e[2] = len | amount << AMOUNT_SHIFT | depth << DEPTH_SHIFT | generation << GENERATION_SHIFT;
        self.set_data(start, slot, &e);
    }

    /// The slot of the cluster at `start` whose entry took the least work,
    /// with that work (a free slot first, at 0; the first of equals).
    #[inline]
    fn weakest(&self, start: usize) -> (u64, usize) {
        let generation = self.generation;
        let mut weakest = (u64::MAX, 0);
        for slot in 0..CLUSTER {
            let w = self.words[start + data_index(slot) + 2].load(Relaxed);
            let a = if is_live(w, generation) {
                entry_amount(w)
            } else {
                0
            };
            if a < weakest.0 {
                weakest = (a, slot);
            }
        }
        weakest
    }

    /// Adds `added` (entries taken less entries freed) to the count of live
    /// entries: by one atomic addition when the table is shared.
    #[inline]
    fn count_entries(&self, added: isize, shared: bool) {
        if added == 0 {
            return;
        }
        if shared {
            if added > 0 {
                self.used.fetch_add(added.unsigned_abs(), Relaxed);
            } else {
                self.used.fetch_sub(added.unsigned_abs(), Relaxed);
            }
        } else {
            let used = self.used.load(Relaxed).wrapping_add_signed(added);
            self.used.store(used, Relaxed);
        }
    }

    /// Permille of the entries in use.
    pub fn hashfull(&self) -> usize {
        self.used.load(Relaxed) * 1000 / (self.clusters * CLUSTER)
    }
}

/// Whether the data word `w` (the third) is a live entry of `generation`.
#[inline]
fn is_live(w: u64, generation: u64) -> bool {
    w & (AMOUNT_MASK << AMOUNT_SHIFT) != 0 && w >> GENERATION_SHIFT == generation
}

/// The attacker's hand of the data words `e`.
#[inline]
fn entry_hand(e: &[u64]) -> PackedHand {
    PackedHand(e[0] & !PARENT_LINK_MASK)
}

/// The byte kept in the free low byte of the hand word: how the parent's
/// hand differs from `hand` (see [`PARENT_VALID`]), for an unsolved entry
/// whose parent's hand differs by at most one piece; else 0.
fn parent_link(hand: PackedHand, parent: Option<(u64, PackedHand)>, found: Found) -> u8 {
    let Some((_, parent_hand)) = parent else {
        return 0;
    };
    if found.pn == 0 || found.dn == 0 {
        return 0;
    }
    if parent_hand == hand {
        return PARENT_VALID;
    }
    for pt in PieceType::HAND {
        let one = 1u64 << (8 * pt.index());
        if parent_hand.0 == hand.0.wrapping_add(one) {
            return PARENT_VALID | pt.index() as u8;
        }
        if hand.0 >= one && parent_hand.0 == hand.0 - one {
            return PARENT_VALID | PARENT_LESS | pt.index() as u8;
        }
    }
    0
}

/// The parent's hand from an entry's hand and its link byte.
fn parent_hand(hand: PackedHand, link: u8) -> PackedHand {
    let pt = link & PARENT_TYPE_MASK;
    if pt == 0 {
        return hand;
    }
    let one = 1u64 << (8 * pt as u32);
    if link & PARENT_LESS != 0 {
        PackedHand(hand.0 - one)
    } else {
        PackedHand(hand.0 + one)
    }
}

/// The low byte of the hand word (no piece type has index 0) holds the
/// parent link: this bit when the entry has a parent,
const PARENT_VALID: u8 = 0x80;
/// this bit when the parent's hand holds one piece less (else one more),
const PARENT_LESS: u8 = 0x10;
/// and in these bits the index of that piece's type (0: the same hand).
const PARENT_TYPE_MASK: u8 = 0x0f;
/// The link byte in the hand word.
const PARENT_LINK_MASK: u64 = 0xff;

/// The amount (work below the entry; 0 in a free slot) of the data word
/// `w` (the third).
#[inline]
fn entry_amount(w: u64) -> u64 {
    (w >> AMOUNT_SHIFT) & AMOUNT_MASK
}

/// The depth (least ply stored from) of the data word `w` (the third).
#[inline]
fn entry_depth(w: u64) -> u64 {
    (w >> DEPTH_SHIFT) & DEPTH_MASK
}

/// The cluster of `key` among `clusters`.
#[inline]
fn cluster_index(key: u64, clusters: usize) -> usize {
    ((key as u128 * clusters as u128) >> 64) as usize
}

/// The index in a cluster of the four data words (hand and parent link,
/// numbers, length and amount, parent's board key) of `slot`: the cluster
/// holds its keys first (one cache line to scan), then the data.
#[inline]
fn data_index(slot: usize) -> usize {
    CLUSTER + slot * (WORDS - 1)
}

#[inline]
fn unpack(e: &[u64]) -> Found {
    let pn = e[1] as u32;
    Found {
        pn,
        // A proof's dn word holds its bound (see `entry_bound`).
        dn: if pn == 0 { INF } else { (e[1] >> 32) as u32 },
        len: (e[2] & LEN_MASK) as u16,
        hand: entry_hand(e),
    }
}

/// The length bound of the data words `e` (0: none): no mate within
/// `bound - 1` plies with the entry's hand. An unsolved entry holds it in
/// its length; a proof in its dn word (infinite when it has none).
#[inline]
fn entry_bound(e: &[u64]) -> u16 {
    let (pn, dn) = (e[1] as u32, (e[1] >> 32) as u32);
    if pn == 0 {
        if dn == INF { 0 } else { dn as u16 }
    } else if dn != 0 {
        (e[2] & LEN_MASK) as u16
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(counts: &[(PieceType, u8)]) -> PackedHand {
        let mut bits = 0;
        for &(pt, n) in counts {
            bits |= (n as u64) << (8 * pt.index());
        }
        PackedHand(bits)
    }

    #[test]
    fn clusters_start_on_a_cache_line() {
        for mib in [1, 3, 16] {
            let t = Table::new(mib);
            let start = t.words.as_ptr() as usize + t.first * 8;
            assert_eq!(start % CACHE_LINE, 0, "{mib} MiB");
            assert!(t.first + t.clusters * CLUSTER * WORDS <= t.words.len());
        }
    }

    #[test]
    fn size_is_the_size_asked_for() {
        // 320-byte clusters do not divide a MiB: the size kept is the one
        // asked for, so `go mate` reuses the table instead of remaking it.
        for mib in [1, 5, 256, 2048] {
            let t = Table::new(mib);
            assert_eq!(t.size_mb(), mib);
            assert!(t.clusters * CLUSTER_BYTES <= mib << 20);
        }
    }

    #[test]
    fn subset_is_per_piece_type() {
        let g = hand(&[(PieceType::GOLD, 1)]);
        let gs = hand(&[(PieceType::GOLD, 1), (PieceType::SILVER, 1)]);
        let p18 = hand(&[(PieceType::PAWN, 18)]);
        assert!(g.is_subset_of(gs));
        assert!(!gs.is_subset_of(g));
        assert!(g.is_subset_of(g));
        assert!(!p18.is_subset_of(gs));
        assert!(PackedHand(0).is_subset_of(p18));
    }

    #[test]
    fn proofs_and_disproofs_carry_over_by_superiority() {
        let t = Table::new(1);
        let g = hand(&[(PieceType::GOLD, 1)]);
        let gs = hand(&[(PieceType::GOLD, 1), (PieceType::SILVER, 1)]);
        let proven = Found {
            pn: 0,
            dn: INF,
            len: 3,
            hand: g,
        };
        t.store(42, g, proven, 10, 0, None);
        assert_eq!(t.lookup(42, gs), Some(proven));
        assert_eq!(t.lookup(42, PackedHand(0)), None);
        let disproven = Found {
            pn: INF,
            dn: 0,
            len: 0,
            hand: gs,
        };
        t.store(7, gs, disproven, 10, 0, None);
        assert_eq!(t.lookup(7, g), Some(disproven));
        assert_eq!(t.lookup(7, hand(&[(PieceType::ROOK, 1)])), None);
    }

    #[test]
    fn length_bounds_stay_beside_proofs_and_numbers() {
        let t = Table::new(1);
        let g = hand(&[(PieceType::GOLD, 1)]);
        let gs = hand(&[(PieceType::GOLD, 1), (PieceType::SILVER, 1)]);
        let bound = |len| Found {
            pn: INF - 1,
            dn: 1,
            len,
            hand: gs,
        };
        let open = Found {
            pn: 2,
            dn: 2,
            len: 0,
            hand: gs,
        };
        // No mate within 8 plies with a gold and a silver, so none with
        // less either; more may mate.
        t.store(11, gs, bound(9), 5, 0, None);
        assert_eq!(t.lookup_with_floors(11, gs, 0).bound, 9);
        assert_eq!(t.lookup_with_floors(11, g, 0).bound, 9);
        assert_eq!(t.lookup_with_floors(11, PackedHand(0), 0).bound, 9);
        let gss = hand(&[(PieceType::GOLD, 1), (PieceType::SILVER, 2)]);
        assert_eq!(t.lookup_with_floors(11, gss, 0).bound, 0);
        // New numbers keep the bound; a smaller bound does not lower it.
        t.store(11, gs, open, 5, 0, None);
        t.store(11, gs, bound(5), 5, 0, None);
        assert_eq!(t.lookup_with_floors(11, gs, 0).bound, 9);
        // A proof of 13 plies of the same hand keeps it beside its length.
        let proven = Found {
            pn: 0,
            dn: INF,
            len: 13,
            hand: gs,
        };
        t.store(11, gs, proven, 5, 0, None);
        let l = t.lookup_with_floors(11, gs, 0);
        assert_eq!((l.found, l.bound), (Some(proven), 9));
        t.store(11, gs, bound(11), 5, 0, None);
        let l = t.lookup_with_floors(11, gs, 0);
        assert_eq!((l.found, l.bound), (Some(proven), 11));
        // A proof with a smaller hand leaves the bound entry of the larger.
        t.store(12, gs, bound(7), 5, 0, None);
        t.store(12, g, Found { hand: g, ..proven }, 5, 0, None);
        let l = t.lookup_with_floors(12, gs, 0);
        assert_eq!((l.found, l.bound), (Some(Found { hand: g, ..proven }), 7));
    }

    #[test]
    fn parent_links_give_the_parent_hand() {
        let t = Table::new(1);
        let g = hand(&[(PieceType::GOLD, 1)]);
        let gs = hand(&[(PieceType::GOLD, 1), (PieceType::SILVER, 1)]);
        let open = Found {
            pn: 3,
            dn: 4,
            len: 0,
            hand: g,
        };
        // Dropped a silver: the parent holds one more.
        t.store(5, g, open, 1, 2, Some((9, gs)));
        let link = t.parent(5, g).expect("a link");
        assert_eq!((link.board, link.hand, link.pn, link.dn), (9, gs, 3, 4));
        assert_eq!(t.lookup(5, g), Some(open));
        // Captured a silver: the parent holds one less.
        t.store(6, gs, Found { hand: gs, ..open }, 1, 2, Some((8, g)));
        assert_eq!(t.parent(6, gs).map(|l| l.hand), Some(g));
        // A proof has no link.
        let proven = Found {
            pn: 0,
            dn: INF,
            len: 1,
            hand: g,
        };
        t.store(7, g, proven, 1, 2, Some((9, g)));
        assert_eq!(t.parent(7, g), None);
    }

    #[test]
    fn a_shared_table_never_gives_half_an_entry() {
        // Two threads store and look up entries of a few keys whose hand
        // and numbers agree (`x` pawns, pn `x + 1`), so clusters fill and
        // slots change hands; a lookup that read one entry's hand with
        // another's numbers would break the agreement.
        let t = Table::new(1);
        t.share();
        let pawns = |x: u64| PackedHand(x << (8 * PieceType::PAWN.index()));
        let work = |seed: u64| {
            let mut r = seed;
            let mut seen = 0;
            for _ in 0..200_000 {
                r = r
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let key = 0x5555_0000_0000_0000 | ((r >> 60) << 1);
                let x = (r >> 40) % 24;
                let found = Found {
                    pn: x as u32 + 1,
                    dn: 5,
                    len: 0,
                    hand: pawns(x),
                };
                if r >> 39 & 1 == 0 {
                    t.store(key, pawns(x), found, 1 + (r >> 20) % 50, 0, None);
                } else if let Some(f) = t.lookup(key, pawns(x)) {
                    assert_eq!((f.pn, f.dn, f.hand), (x as u32 + 1, 5, pawns(x)));
                    seen += 1;
                }
            }
            seen
        };
        let seen: usize = std::thread::scope(|s| {
            let a = s.spawn(|| work(1));
            let b = s.spawn(|| work(2));
            a.join().unwrap() + b.join().unwrap()
        });
        assert!(seen > 1000, "{seen}");
    }

    #[test]
    fn entries_survive_the_growth_of_the_table() {
        // 32 MiB: half of it in use at first, doubled once it is a quarter
        // full.
        let mut t = Table::new(32);
        assert!(t.active() < t.clusters);
        let n = t.active() * CLUSTER * 3 / 4;
        let key = |i: usize| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // Pawns only (the low byte holds the parent link).
        let hand_of = |i: usize| PackedHand((i as u64 % 3) << (8 * PieceType::PAWN.index()));
        let found = |i: usize| Found {
            pn: i as u32 % 1000 + 1,
            dn: 7,
            len: 0,
            hand: hand_of(i),
        };
        for i in 0..n {
            t.store(key(i), hand_of(i), found(i), 1 + i as u64 % 5, 0, None);
        }
        assert_eq!(t.active(), t.clusters);
        let kept = (0..n)
            .filter(|&i| t.lookup(key(i), hand_of(i)) == Some(found(i)))
            .count();
        // Only full clusters before the growth lost entries.
        assert!(kept * 100 > n * 95, "{kept} of {n}");
        assert_eq!(t.used.load(Relaxed), kept);
        t.clear();
        assert_eq!(
            (t.active(), t.used.load(Relaxed), t.hashfull()),
            (INITIAL_CLUSTERS, 0, 0)
        );
        assert_eq!(t.lookup(key(0), PackedHand(0)), None);
    }
}
