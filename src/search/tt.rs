//! The transposition table: a fixed-size hash of search results shared by
//! every search thread.
//!
//! Each slot is two `AtomicU64`s, `key ^ data` and `data`, so threads read
//! and write without locks: a torn write fails the key check and reads as a
//! miss. Slots are grouped in buckets of [`BUCKET`]; a store replaces the
//! same key, else the least valuable slot (old generation, shallow depth).

use super::MATE_BOUND;
use crate::moves::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Slots per bucket (4 x 16 bytes = one cache line).
pub const BUCKET: usize = 4;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a search with
    /// window (`alpha`, `beta`) without searching.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// The static evaluation `eval` refined by a stored `score` with this
    /// bound: the score when the bound says the truth lies beyond `eval`
    /// (a lower bound above it, an upper bound below it), else `eval`;
    /// never a mate score.
    pub fn refine(self, eval: i32, score: i32) -> i32 {
        let beyond = match self {
            Bound::Exact => false,
            Bound::Lower => score > eval,
            Bound::Upper => score < eval,
        };
        if beyond && score.abs() < MATE_BOUND {
            score
        } else {
            eval
        }
    }

    /// What the best score of a search with window (`alpha`, `beta`) says.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One entry read from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refuting move ([`Move::NONE`] if none).
    pub mv: Move,
    /// Score, with mate scores relative to the stored node (see
    /// [`super::score_to_tt`]).
    pub score: i32,
    /// Remaining depth the score was searched to (0 = quiescence).
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
    /// Whether the node was on a principal variation when stored (or
    /// already marked so).
    pub pv: bool,
}

#[derive(Default)]
struct Slot {
    key_xor: AtomicU64,
    data: AtomicU64,
}

/// One bucket: [`BUCKET`] slots filling exactly one 64-byte cache line.
#[derive(Default)]
#[repr(align(64))]
struct Cluster([Slot; BUCKET]);

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);

/// A same-key store keeps a deeper entry of the current search unless the
/// new result is exact or at most this much shallower.
const KEEP_DEEPER_BY: i32 = 3;
/// Whether a shallower result kept out by [`KEEP_DEEPER_BY`] still writes
/// its move over the deeper entry's (Stockfish writes any new move; the
/// latest best move would order the next visit). Off: only an entry
/// without a move takes it. Part of session 37's `s37-fix`, off until
/// measured.
const NEW_MOVE_OVER_DEEPER: bool = false;

/// The shared transposition table.
pub struct Tt {
    clusters: Vec<Cluster>,
    buckets: usize,
    generation: AtomicU8,
    mb: usize,
}

const SLOT_BYTES: usize = 16;

/// The bit of the PV flag in a packed slot.
const PV_BIT: u64 = 1 << 42;

fn pack(mv: Move, score: i32, depth: i32, bound: Bound, pv: bool, generation: u8) -> u64 {
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 32)
        | ((bound as u64) << 40)
        | if pv { PV_BIT } else { 0 }
        | ((generation as u64) << 48)
}

fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some((
        TtEntry {
            mv: Move::from_raw(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            depth: (data >> 32) as u8 as i8 as i32,
            bound,
            pv: data & PV_BIT != 0,
        },
        (data >> 48) as u8,
    ))
}

impl Tt {
    /// A table of about `mb` MiB (at least one bucket), zeroed.
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (SLOT_BYTES * BUCKET)).max(1);
        // Huge pages are asked for before the first write touches the
        // pages; then a trusted-length iterator fills the table in one
        // tight loop.
        let mut clusters: Vec<Cluster> = Vec::with_capacity(buckets);
        crate::prefetch::ask_for_huge_pages(clusters.spare_capacity_mut());
        clusters.extend(std::iter::repeat_with(Cluster::default).take(buckets));
        Tt {
            clusters,
            buckets,
            generation: AtomicU8::new(0),
            mb: mb.max(1),
        }
    }

    /// The size in MiB this table was made with.
    pub fn size_mb(&self) -> usize {
        self.mb
    }

    /// Reallocates to `mb` MiB (contents are lost) unless already that size.
    pub fn resize(&mut self, mb: usize) {
        if mb.max(1) != self.mb {
            *self = Tt::new(mb);
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for s in self.clusters.iter().flat_map(|c| &c.0) {
            s.key_xor.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        &self.clusters[(((key as u128) * (self.buckets as u128)) >> 64) as usize].0
    }

    /// Starts bringing the bucket of `key` into the cache, for a probe
    /// soon after (a child's key, as soon as its move is made).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in self.bucket(key) {
            let data = s.data.load(Ordering::Relaxed);
            if s.key_xor.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores a result for `key` (`pv`: the node is on a principal
    /// variation). A missing move keeps the stored one.
    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound, pv: bool) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let stored_key = s.key_xor.load(Ordering::Relaxed) ^ data;
            let Some((old, old_gen)) = unpack(data) else {
                victim = i;
                victim_worth = i32::MIN;
                continue;
            };
            if stored_key == key {
                // Same position: keep a result of this search deeper by
                // more than KEEP_DEEPER_BY, and its move unless
                // NEW_MOVE_OVER_DEEPER.
                if bound != Bound::Exact
                    && old_gen == generation
                    && old.depth > depth + KEEP_DEEPER_BY
                {
                    let take = if NEW_MOVE_OVER_DEEPER {
                        !mv.is_none() && mv != old.mv
                    } else {
                        old.mv.is_none() && !mv.is_none()
                    };
                    if take {
                        let kept = pack(mv, old.score, old.depth, old.bound, old.pv, old_gen);
                        s.data.store(kept, Ordering::Relaxed);
                        s.key_xor.store(key ^ kept, Ordering::Relaxed);
                    }
                    return;
                }
                let mv = if mv.is_none() { old.mv } else { mv };
                let new = pack(mv, score, depth, bound, pv, generation);
                s.data.store(new, Ordering::Relaxed);
                s.key_xor.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age = generation.wrapping_sub(old_gen) as i32;
            let worth = old.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let new = pack(mv, score, depth, bound, pv, generation);
        let s = &bucket[victim];
        s.data.store(new, Ordering::Relaxed);
        s.key_xor.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled slots written in the current search (USI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let n = (self.clusters.len() * BUCKET).min(1000);
        let used = self
            .clusters
            .iter()
            .flat_map(|c| &c.0)
            .take(n)
            .filter(|s| {
                unpack(s.data.load(Ordering::Relaxed)).is_some_and(|(_, g)| g == generation)
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tt({} MiB, {} slots)",
            self.mb,
            self.clusters.len() * BUCKET
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Tt::new(1);
        let m = Move::normal(Square::new(6, 6), Square::new(6, 5), false);
        assert_eq!(tt.probe(12345), None);
        tt.store(12345, m, -31990, 7, Bound::Lower, true);
        let e = tt.probe(12345).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound, e.pv),
            (m, -31990, 7, Bound::Lower, true)
        );
        // A move-less store keeps the move.
        tt.store(12345, Move::NONE, 5, 9, Bound::Exact, false);
        assert_eq!(tt.probe(12345).unwrap().mv, m);
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(12345), None);
    }

    #[test]
    fn a_full_bucket_keeps_working() {
        let tt = Tt::new(1);
        for k in 1..20_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                Move::NONE,
                1,
                (k % 20) as i32,
                Bound::Exact,
                false,
            );
        }
        let k = 19_999u64.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        assert_eq!(tt.probe(k).map(|e| e.score), Some(1));
    }

    #[test]
    fn a_shallow_bound_does_not_replace_a_deep_entry() {
        let tt = Tt::new(1);
        let m = Move::normal(Square::new(6, 6), Square::new(6, 5), false);
        tt.store(777, m, 50, 12, Bound::Lower, false);
        tt.store(777, Move::NONE, -20, 0, Bound::Upper, false);
        let e = tt.probe(777).unwrap();
        assert_eq!((e.depth, e.score, e.bound, e.mv), (12, 50, Bound::Lower, m));
        // An exact result does replace it.
        tt.store(777, Move::NONE, 7, 1, Bound::Exact, false);
        assert_eq!(tt.probe(777).unwrap().score, 7);
        assert_eq!(std::mem::align_of::<Cluster>(), 64);
    }
}
