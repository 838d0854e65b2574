//! The depth-bounded AND/OR search behind the forward proof.
//!
//! [`Searcher::wins`] answers "can the side to move force the end of the
//! game (the opponent without a legal move) within `n` plies?" and
//! [`Searcher::loses`] "must the side to move lose within `n` plies whatever
//! it does?", exactly, over the game tree cut at `n` plies: a win needs one
//! move after which the opponent loses within `n - 1`, a loss needs every
//! move to leave the opponent a win within `n - 1` (or no legal move now).
//! Nothing is pruned: every answer "no" has examined every move it had to.
//!
//! Both questions are about the tree below a position alone (the search
//! never looks at the path to it: no repetition detection), so the answers
//! are facts about the position and are kept in a [`BoundTable`] keyed by
//! the exact packed position, whatever path reaches it again.
//!
//! Move ordering decides only the speed: the move proved (or refuted) last
//! time first, then the children whose opponent has the fewest legal moves
//! (the initial proof and disproof numbers of proof-number search).

use super::table::{BoundTable, Bounds, UNKNOWN};
use crate::movegen;
use crate::moves::MoveList;
use crate::position::Position;
use crate::solve::Packer;

/// Nodes between two polls of the stop function.
const POLL_NODES: u64 = 1 << 14;
/// Plies from which a loss node counts its children's replies for the move
/// ordering (below it the ordering costs more than it saves).
const ORDER_FROM_PLIES: u32 = 3;

/// Why a search gave up: its node budget ran out or it was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abort;

/// One child of a node being searched.
struct Child {
    /// Index of the move in the rules core's legal move order.
    index: u8,
    pos: Position,
    key: u64,
    /// Legal moves of the child's side to move (0 when not counted).
    replies: u32,
    /// How deep the child's table entry says the question asked of it has
    /// been refuted (smaller: more promising); set while probing.
    refuted: u8,
}

/// The search state: the table, the counters and the limits.
pub struct Searcher<'a> {
    packer: Packer,
    /// What has been proved so far.
    pub table: BoundTable,
    /// Nodes searched (positions expanded, each time one is).
    pub nodes: u64,
    max_nodes: u64,
    stop: &'a dyn Fn() -> bool,
}

impl<'a> Searcher<'a> {
    /// A searcher over positions of `packer`'s material.
    pub fn new(
        packer: Packer,
        table: BoundTable,
        max_nodes: u64,
        stop: &'a dyn Fn() -> bool,
    ) -> Searcher<'a> {
        Searcher {
            packer,
            table,
            nodes: 0,
            max_nodes,
            stop,
        }
    }

    /// The packed key of `pos`.
    #[inline]
    pub fn key(&self, pos: &Position) -> u64 {
        self.packer.pack(pos)
    }

    fn count_node(&mut self) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes > self.max_nodes || (self.nodes.is_multiple_of(POLL_NODES) && (self.stop)()) {
            return Err(Abort);
        }
        Ok(())
    }

    /// The children of `pos`, in legal move order (replies not counted).
    fn children(&self, pos: &Position) -> Vec<Child> {
        let mut list = MoveList::new();
        movegen::legal_moves(pos, &mut list);
        list.iter()
            .enumerate()
            .map(|(i, &m)| {
                let child = pos.play(m);
                Child {
                    index: i as u8,
                    key: self.packer.pack(&child),
                    replies: 0,
                    refuted: 0,
                    pos: child,
                }
            })
            .collect()
    }

    /// The indices of the children still to search, the hinted one first,
    /// then the others by fewest replies (sorting indices, not positions).
    fn order(children: &[Child], keep: &[bool], hint: u8) -> Vec<usize> {
        // Then by how deep the child's question was refuted before.
        let mut order: Vec<usize> = (0..children.len()).filter(|&i| keep[i]).collect();
        order.sort_by_key(|&i| {
            let c = &children[i];
            (c.index != hint, c.replies, c.refuted)
        });
        order
    }

    /// Whether the side to move of `pos` can force the end of the game in
    /// its favour within `n` plies.
    pub fn wins(&mut self, pos: &Position, n: u32) -> Result<bool, Abort> {
        if n == 0 {
            return Ok(false);
        }
        let key = self.key(pos);
        let known = self.table.get(key);
        if u32::from(known.win) <= n {
            return Ok(true);
        }
        if n < u32::from(known.no_win_below) || known.loss != UNKNOWN {
            return Ok(false);
        }
        self.count_node()?;
        let mut children = self.children(pos);
        if n < 3 {
            // Below 3 plies only a win in 1 exists (win distances are odd).
            let stuck = children
                .iter()
                .find(|c| movegen::count_legal_moves(&c.pos) == 0);
            if let Some(c) = stuck {
                let index = c.index;
                self.table.update(key, |b| proved_win(b, 1, index));
                return Ok(true);
            }
        } else {
            // A child already known lost within n - 1 proves the win; one
            // known to survive n - 1 plies cannot, and is left out.
            let mut keep = vec![true; children.len()];
            for (c, keep) in children.iter_mut().zip(&mut keep) {
                let b = self.table.get(c.key);
                if u32::from(b.loss) < n {
                    let index = c.index;
                    self.table.update(key, |b| proved_win(b, n, index));
                    return Ok(true);
                }
                *keep = n > u32::from(b.no_loss_below) && b.win == UNKNOWN;
                c.refuted = b.no_loss_below;
                if *keep {
                    // The ordering's count; a child without a reply is a
                    // win in 1.
                    c.replies = movegen::count_legal_moves(&c.pos) as u32;
                    if c.replies == 0 {
                        let index = c.index;
                        self.table.update(key, |b| proved_win(b, 1, index));
                        return Ok(true);
                    }
                }
            }
            for i in Self::order(&children, &keep, known.hint) {
                let c = &children[i];
                if self.loses(&c.pos, n - 1)? {
                    self.table.update(key, |b| proved_win(b, n, c.index));
                    return Ok(true);
                }
            }
        }
        self.table
            .update(key, |b| b.no_win_below = b.no_win_below.max(n as u8 + 1));
        Ok(false)
    }

    /// Whether the side to move of `pos` loses within `n` plies whatever it
    /// plays (0: it has no legal move now).
    pub fn loses(&mut self, pos: &Position, n: u32) -> Result<bool, Abort> {
        let key = self.key(pos);
        let known = self.table.get(key);
        if u32::from(known.loss) <= n {
            return Ok(true);
        }
        if n < u32::from(known.no_loss_below) || known.win != UNKNOWN {
            return Ok(false);
        }
        self.count_node()?;
        if n == 0 {
            let stuck = movegen::count_legal_moves(pos) == 0;
            self.table.update(key, |b| {
                if stuck {
                    proved_loss(b, 0)
                } else {
                    refuted_loss(b, 0, UNKNOWN)
                }
            });
            return Ok(stuck);
        }
        let mut children = self.children(pos);
        if children.is_empty() {
            self.table.update(key, |b| proved_loss(b, 0));
            return Ok(true);
        }
        // A child already known not won within n - 1 refutes the loss; one
        // known won within n - 1 needs no search.
        let mut keep = vec![true; children.len()];
        for (c, keep) in children.iter_mut().zip(&mut keep) {
            let b = self.table.get(c.key);
            if n - 1 < u32::from(b.no_win_below) || b.loss != UNKNOWN {
                let index = c.index;
                self.table.update(key, |b| refuted_loss(b, n, index));
                return Ok(false);
            }
            *keep = u32::from(b.win) >= n;
            c.refuted = u8::MAX - b.no_win_below;
            if *keep && n >= ORDER_FROM_PLIES {
                c.replies = movegen::count_legal_moves(&c.pos) as u32;
            }
        }
        for i in Self::order(&children, &keep, known.hint) {
            let c = &children[i];
            if !self.wins(&c.pos, n - 1)? {
                self.table.update(key, |b| refuted_loss(b, n, c.index));
                return Ok(false);
            }
        }
        self.table.update(key, |b| proved_loss(b, n));
        Ok(true)
    }
}

/// Records a win within `n` plies proved by the move of index `hint`.
fn proved_win(b: &mut Bounds, n: u32, hint: u8) {
    b.win = b.win.min(n as u8);
    b.hint = hint;
}

/// Records a loss within `n` plies.
fn proved_loss(b: &mut Bounds, n: u32) {
    b.loss = b.loss.min(n as u8);
}

/// Records that no loss within `n` plies exists, refuted by the move of
/// index `hint`.
fn refuted_loss(b: &mut Bounds, n: u32, hint: u8) {
    b.no_loss_below = b.no_loss_below.max(n as u8 + 1);
    if hint != UNKNOWN {
        b.hint = hint;
    }
}
