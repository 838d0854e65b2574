//! The reachable set: every position reachable from a root by legal moves,
//! with each position's number of legal moves and whether it is in check.
//!
//! Built breadth first. Each batch of unexpanded positions is expanded on
//! all worker threads (unpack, generate the legal moves with the rules core,
//! play each, pack the child); then each thread inserts the children that
//! fall in its half of the [`KeySet`]'s shards and records the move counts
//! of the parents there. No edge is stored: the retrograde analysis
//! generates predecessors itself ([`unmove`](super::unmove)). At the end
//! the set becomes a sorted [`KeyIndex`]; ids are ranks in it, so they do
//! not depend on the thread count or the order of the search.

use super::SolveError;
use super::index::{KeyIndex, KeySet, ShardsMut, hash, shard_count, unhash};
use super::pack::Packer;
use crate::movegen;
use crate::moves::MoveList;

/// Positions expanded per parallel batch.
const BATCH: usize = 1 << 16;
/// Bit of a position's byte marking that its side to move is in check; the
/// other bits are its number of legal moves.
pub const IN_CHECK: u8 = 0x80;
/// Largest number of legal moves the byte holds.
pub const MAX_MOVES: usize = (IN_CHECK - 1) as usize;
/// Bytes per position the retrograde analysis adds to the index (its
/// 16-bit states, then values, and its lists of positions at one distance,
/// at most).
pub const ANALYSIS_BYTES: usize = 2 + 4;

/// The reachable positions.
#[derive(Debug)]
pub struct Reachable {
    /// Packed positions by id.
    pub index: KeyIndex,
    /// Per id: the number of legal moves, with [`IN_CHECK`].
    pub info: Vec<u8>,
    /// Legal moves summed over the set.
    pub edges: usize,
    /// Peak bytes of the enumeration.
    pub peak_bytes: usize,
}

/// One expanded batch: per parent its scrambled key and byte, and all the
/// children's scrambled keys.
struct Expanded {
    parents: Vec<(u64, u8)>,
    children: Vec<u64>,
}

/// Expands the positions of scrambled keys `part`.
fn expand(packer: &Packer, part: &[u64]) -> Result<Expanded, SolveError> {
    let mut parents = Vec::with_capacity(part.len());
    let mut children = Vec::with_capacity(part.len() * 8);
    let mut list = MoveList::new();
    for &h in part {
        let key = unhash(h);
        let pos = packer.unpack(key);
        movegen::legal_moves(&pos, &mut list);
        if list.len() > MAX_MOVES {
            return Err(SolveError::Unsupported(super::PackError::TooMuchMaterial));
        }
        let check = if pos.in_check() { IN_CHECK } else { 0 };
        parents.push((h, list.len() as u8 | check));
        for &m in list.iter() {
            children.push(hash(packer.child_key(key, m)));
        }
    }
    Ok(Expanded { parents, children })
}

/// Records the parents' bytes and inserts the children owned by `shards`;
/// returns the new keys. The children are sorted first, so the inserts
/// sweep each shard's table in order instead of jumping about.
fn insert(shards: &mut ShardsMut<'_>, parts: &[Expanded]) -> Vec<u64> {
    let mut owned = Vec::new();
    let mut parents = Vec::new();
    for part in parts {
        parents.extend(part.parents.iter().filter(|&&(h, _)| shards.owns(h)));
        owned.extend(part.children.iter().filter(|&&h| shards.owns(h)));
    }
    parents.sort_unstable();
    for (h, byte) in parents {
        shards.set_byte(h, byte);
    }
    owned.sort_unstable();
    owned.dedup();
    owned.retain(|&h| shards.insert(h));
    owned
}

/// Expands `keys` on `threads` threads.
fn expand_all(packer: &Packer, keys: &[u64], threads: usize) -> Result<Vec<Expanded>, SolveError> {
    if threads == 1 || keys.len() < 1024 {
        return Ok(vec![expand(packer, keys)?]);
    }
    let chunk = keys.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = keys
            .chunks(chunk)
            .map(|part| s.spawn(move || expand(packer, part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("solver expansion thread panicked"))
            .collect()
    })
}

/// Inserts an expanded batch into `set` on up to two threads; returns the
/// new keys.
fn insert_all(set: &mut KeySet, parts: &[Expanded], threads: usize) -> Vec<u64> {
    if threads == 1 {
        return insert(&mut set.all_mut(), parts);
    }
    let (mut low, mut high) = set.split_at_mut(shard_count() / 2);
    std::thread::scope(|s| {
        let other = s.spawn(move || insert(&mut high, parts));
        let mut fresh = insert(&mut low, parts);
        fresh.extend(other.join().expect("solver insertion thread panicked"));
        fresh
    })
}

/// The peak bytes of a solve whose enumeration holds this much, counting
/// the analysis after it. While the set turns into the sorted index each
/// shard is freed once its keys are written (the index's pages are only
/// committed as they are written), so that step needs little more than the
/// set itself: a few shards' worth.
fn projected_bytes(set: &KeySet, queued: usize) -> usize {
    let n = set.len();
    let enumeration = set.bytes() + queued * 8;
    let drain = set.bytes() + set.bytes() / shard_count() * DRAIN_SHARDS;
    // The analysis: the index, the move counts (one byte) while they turn
    // into states, the in-check bits, states and lists of one level.
    let analysis = KeyIndex::bytes_for(n) + n * (ANALYSIS_BYTES + 1) + n / 8;
    enumeration.max(drain).max(analysis)
}

/// Shards' worth of memory the conversion to the index needs beyond the set.
const DRAIN_SHARDS: usize = 4;

/// Enumerates the positions reachable from `root_key`.
pub fn build(
    packer: &Packer,
    root_key: u64,
    threads: usize,
    max_bytes: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Reachable, SolveError> {
    let threads = threads.clamp(1, 2);
    let mut set = KeySet::default();
    set.all_mut().insert(hash(root_key));
    let mut level = vec![hash(root_key)];
    let mut next: Vec<u64> = Vec::new();
    let mut edges = 0usize;
    let mut peak = 0usize;
    while !level.is_empty() {
        for batch in level.chunks(BATCH) {
            if stop() {
                return Err(SolveError::Stopped);
            }
            let parts = expand_all(packer, batch, threads)?;
            edges += parts.iter().map(|p| p.children.len()).sum::<usize>();
            next.extend(insert_all(&mut set, &parts, threads));
            let projected = projected_bytes(&set, level.capacity() + next.capacity());
            peak = peak.max(projected);
            if projected > max_bytes || set.len() >= u32::MAX as usize / 2 {
                return Err(SolveError::TooLarge {
                    positions: set.len(),
                });
            }
        }
        level.clear();
        std::mem::swap(&mut level, &mut next);
        if next.capacity() > level.len() * 2 {
            next = Vec::new();
        }
    }
    let (index, info) = set.into_index(threads);
    Ok(Reachable {
        index,
        info,
        edges,
        peak_bytes: peak,
    })
}
