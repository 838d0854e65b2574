//! Retrograde analysis over a [`Graph`]: the exact value of every position.
//!
//! Positions without a legal move are lost in 0 plies (mate and stalemate
//! alike). Then, level by level in order of distance: a position with a
//! child lost in `d` is won in `d + 1` (the first such level is the fastest
//! win); a position all of whose children are won is lost in one more than
//! the largest of their distances (it is reached at the last child's level,
//! so the loser resists longest). Whatever is never reached is a draw:
//! neither side can force the game to end in its favour.

use super::graph::Graph;
use super::value::Value;

/// Reverse edges: the parents of every position, in CSR form.
struct Parents {
    offsets: Vec<u32>,
    ids: Vec<u32>,
}

impl Parents {
    fn of(graph: &Graph) -> Parents {
        let n = graph.len();
        let mut offsets = vec![0u32; n + 1];
        for &c in &graph.children {
            offsets[c as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut ids = vec![0u32; graph.children.len()];
        for parent in 0..n {
            for &c in graph.children_of(parent) {
                let at = &mut fill[c as usize];
                ids[*at as usize] = parent as u32;
                *at += 1;
            }
        }
        Parents { offsets, ids }
    }

    #[inline]
    fn of_id(&self, id: u32) -> &[u32] {
        &self.ids[self.offsets[id as usize] as usize..self.offsets[id as usize + 1] as usize]
    }

    fn bytes(&self) -> usize {
        self.offsets.capacity() * 4 + self.ids.capacity() * 4
    }
}

/// The values of every position of `graph` (encoded, see [`Value::encode`]),
/// and the peak bytes the analysis used on top of the graph.
pub fn analyse(graph: &Graph) -> (Vec<u16>, usize) {
    let n = graph.len();
    let parents = Parents::of(graph);
    let mut values = vec![0u16; n];
    let mut remaining: Vec<u16> = (0..n)
        .map(|i| (graph.offsets[i + 1] - graph.offsets[i]) as u16)
        .collect();
    let mut level: Vec<u32> = (0..n as u32)
        .filter(|&i| remaining[i as usize] == 0)
        .collect();
    for &id in &level {
        values[id as usize] = Value::Loss(0).encode();
    }
    let bytes = parents.bytes() + values.capacity() * 2 + remaining.capacity() * 2;
    let mut distance = 0u32;
    let mut next = Vec::new();
    while !level.is_empty() {
        // Even levels are losses for the side to move, odd levels wins.
        let lost_here = distance.is_multiple_of(2);
        for &id in &level {
            for &p in parents.of_id(id) {
                let p = p as usize;
                if values[p] != 0 {
                    continue;
                }
                if lost_here {
                    values[p] = Value::Win(distance + 1).encode();
                    next.push(p as u32);
                } else {
                    remaining[p] -= 1;
                    if remaining[p] == 0 {
                        values[p] = Value::Loss(distance + 1).encode();
                        next.push(p as u32);
                    }
                }
            }
        }
        std::mem::swap(&mut level, &mut next);
        next.clear();
        distance += 1;
    }
    (values, bytes)
}

/// The drawn positions whose side to move can avoid defeat only by giving
/// check on every move from now on, against a defence that never checks.
///
/// The greatest set `S` of drawn positions such that, in each, every move
/// that keeps the draw is a check, and after each such check the defender
/// has a reply that keeps the draw, gives no check and reaches `S` again.
/// From a position of `S` the defender's strategy (always such a reply)
/// keeps the side to move checking forever or losing by force: the game
/// ends in a fourfold repetition in which that side checked on every move
/// and the other never did, which 連続王手の千日手 makes a loss for the
/// checker. The set is sound, not complete: traps in which the defender
/// must check now and then are not found.
pub fn perpetual_check_traps(graph: &Graph, values: &[u16]) -> Vec<bool> {
    let n = graph.len();
    let draw = |i: u32| values[i as usize] == 0;
    let mut trapped: Vec<bool> = (0..n)
        .map(|p| {
            values[p] == 0
                && graph
                    .children_of(p)
                    .iter()
                    .filter(|&&c| draw(c))
                    .all(|&c| graph.in_check[c as usize])
        })
        .collect();
    loop {
        let mut changed = false;
        for p in 0..n {
            if !trapped[p] {
                continue;
            }
            let held = graph.children_of(p).iter().filter(|&&c| draw(c)).all(|&c| {
                graph
                    .children_of(c as usize)
                    .iter()
                    .any(|&r| draw(r) && !graph.in_check[r as usize] && trapped[r as usize])
            });
            if !held {
                trapped[p] = false;
                changed = true;
            }
        }
        if !changed {
            return trapped;
        }
    }
}
