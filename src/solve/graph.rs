//! The reachable set: every position reachable from a root by legal moves,
//! numbered densely, with its move edges in compressed-sparse-row form.
//!
//! Built breadth first. Each batch of unexpanded positions is expanded on
//! all worker threads (unpack, generate the legal moves with the rules core,
//! play each, pack the child); the children are then numbered on one thread
//! in a fixed order, so the numbering does not depend on the thread count.

use super::SolveError;
use super::index::KeyIndex;
use super::pack::Packer;
use crate::movegen;
use crate::moves::MoveList;

/// Positions expanded per parallel batch.
const BATCH: usize = 1 << 16;

/// The reachable positions and their moves.
#[derive(Debug)]
pub struct Graph {
    /// Packed positions by id (id 0 is the root).
    pub index: KeyIndex,
    /// `children[offsets[i]..offsets[i + 1]]` are the ids reached by the
    /// legal moves of position `i`, in the rules core's move order.
    pub offsets: Vec<u32>,
    /// Child ids of every position, concatenated.
    pub children: Vec<u32>,
    /// Whether the side to move is in check, per position.
    pub in_check: Vec<bool>,
}

impl Graph {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether the graph has no positions (never, once built).
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The children of position `id`.
    #[inline]
    pub fn children_of(&self, id: usize) -> &[u32] {
        &self.children[self.offsets[id] as usize..self.offsets[id + 1] as usize]
    }

    /// Bytes of heap memory held.
    pub fn bytes(&self) -> usize {
        self.index.bytes()
            + self.offsets.capacity() * 4
            + self.children.capacity() * 4
            + self.in_check.capacity()
    }
}

/// Bit of an expansion count marking a parent in check.
const IN_CHECK: u16 = 0x8000;

/// Children keys of `keys`, per parent: `(counts, child keys)`; a count has
/// [`IN_CHECK`] set when the parent's side to move is in check.
fn expand(packer: &Packer, keys: &[u64]) -> (Vec<u16>, Vec<u64>) {
    let mut counts = Vec::with_capacity(keys.len());
    let mut out = Vec::with_capacity(keys.len() * 16);
    let mut list = MoveList::new();
    for &key in keys {
        let pos = packer.unpack(key);
        movegen::legal_moves(&pos, &mut list);
        let check = if pos.in_check() { IN_CHECK } else { 0 };
        counts.push(list.len() as u16 | check);
        for &m in list.iter() {
            out.push(packer.pack(&pos.play(m)));
        }
    }
    (counts, out)
}

/// Makes room for `more` elements, growing by an eighth at least (not by
/// doubling, which could waste half of the largest tables).
fn grow_by_eighths<T>(v: &mut Vec<T>, more: usize) {
    if v.capacity() - v.len() < more {
        v.reserve_exact(more.max(v.len() / 8));
    }
}

/// The peak bytes of a solve whose graph has grown to this, counting what
/// the analysis adds (reverse edges, values, counters, trap flags) and the
/// index's next doubling if one more batch could cause it.
fn projected_bytes(
    index: &KeyIndex,
    offsets: &[u32],
    children: &Vec<u32>,
    in_check: &Vec<bool>,
) -> usize {
    let n = index.len();
    let graph = index.bytes() + offsets.len() * 4 + children.capacity() * 4 + in_check.capacity();
    let analysis = children.len() * 4 + n * 4 + n * (2 + 2 + 1);
    let growth = index.growth_bytes(BATCH * GROWTH_CHILDREN);
    graph + analysis.max(growth)
}

/// New positions one batch may add per position expanded, at most (a bound
/// used only to foresee the index's growth).
const GROWTH_CHILDREN: usize = 8;

/// Enumerates the positions reachable from `root_key`, refusing a set
/// whose solve would need more than `max_bytes` or that has more than
/// `max_positions` positions.
pub fn build(
    packer: &Packer,
    root_key: u64,
    threads: usize,
    (max_bytes, max_positions): (usize, usize),
    stop: &dyn Fn() -> bool,
) -> Result<Graph, SolveError> {
    let mut index = KeyIndex::default();
    index.insert(root_key);
    let mut offsets = vec![0u32];
    let mut children: Vec<u32> = Vec::new();
    let mut in_check: Vec<bool> = Vec::new();
    let threads = threads.max(1);
    let mut next = 0usize;
    while next < index.len() {
        if stop() {
            return Err(SolveError::Stopped);
        }
        let end = index.len().min(next + BATCH);
        let keys: Vec<u64> = (next..end).map(|id| index.key(id as u32)).collect();
        let chunk = keys.len().div_ceil(threads);
        let parts: Vec<(Vec<u16>, Vec<u64>)> = if threads == 1 || keys.len() < 1024 {
            vec![expand(packer, &keys)]
        } else {
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
        };
        let batch_edges: usize = parts.iter().map(|(_, k)| k.len()).sum();
        grow_by_eighths(&mut children, batch_edges);
        grow_by_eighths(&mut offsets, keys.len());
        grow_by_eighths(&mut in_check, keys.len());
        for (counts, child_keys) in parts {
            let mut at = 0;
            for count in counts {
                in_check.push(count & IN_CHECK != 0);
                let count = count & !IN_CHECK;
                for &k in &child_keys[at..at + count as usize] {
                    children.push(index.insert(k).0);
                }
                at += count as usize;
                let edges = u32::try_from(children.len()).map_err(|_| SolveError::TooLarge {
                    positions: index.len(),
                })?;
                offsets.push(edges);
            }
        }
        next = end;
        if projected_bytes(&index, &offsets, &children, &in_check) > max_bytes
            || index.len() >= u32::MAX as usize / 2
            || index.len() > max_positions
        {
            return Err(SolveError::TooLarge {
                positions: index.len(),
            });
        }
    }
    Ok(Graph {
        index,
        offsets,
        children,
        in_check,
    })
}
