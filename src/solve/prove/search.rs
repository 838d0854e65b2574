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
//! (the initial proof and disproof numbers of proof-number search; the
//! count is noted in the table once counted: in the entry of a position
//! expanded, or in a free slot for a position only counted so far, which
//! any entry with facts may take over).
//! Where one child suffices (a winning move, a refuting move) and the
//! children's questions reach [`WIN_BUDGET_FROM_PLIES`] plies (looking for
//! a win) or [`REFUTE_BUDGET_FROM_PLIES`] (a refutation), the children are
//! tried in rounds with a node budget growing by [`BUDGET_GROWTH`], the
//! last open child without one: a move whose question is costly to answer
//! the wrong way no longer delays the right one by a whole refutation. An
//! interrupted try keeps what it established; nothing unfinished is stored.

use super::table::{BoundTable, Bounds, UNKNOWN};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::solve::Packer;

/// Nodes between two polls of the stop function.
const POLL_NODES: u64 = 1 << 14;
/// Plies from which a loss node counts its children's replies for the move
/// ordering (below it the ordering costs more than it saves).
const ORDER_FROM_PLIES: u32 = 3;
/// Plies of the children's question from which a node looking for a
/// refuting move tries its children in rounds with a node budget.
pub const REFUTE_BUDGET_FROM_PLIES: u32 = 6;
/// The same for a node looking for a winning move (measured: later than
/// for refutations, No.37 8.3 M nodes with 6, 7.0 M with 10).
pub const WIN_BUDGET_FROM_PLIES: u32 = 10;
/// Largest move count an entry notes exactly (more counts as this many:
/// the count only orders moves).
const MAX_MOVES_NOTED: usize = u8::MAX as usize - 1;
/// Node budget of a child's first try.
const FIRST_BUDGET: u64 = 64;
/// Factor by which the budget grows from one round to the next.
pub const BUDGET_GROWTH: u64 = 8;

/// Why a search gave up: its node budget ran out or it was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abort;

/// One child of a node being searched.
struct Child {
    /// Index of the move in the rules core's legal move order.
    index: u8,
    /// The move (the child's position is played again when needed: a
    /// node's children kept as positions cost more in copies and cache
    /// than playing a move twice).
    m: Move,
    key: u64,
    /// Legal moves of the child's side to move (0 when not counted).
    replies: u32,
    /// How deep the child's table entry says the question asked of it has
    /// been refuted (smaller: more promising); set while probing.
    refuted: u8,
    /// Whether the child is still to be searched (set while probing).
    keep: bool,
    /// Nodes spent on the child's question so far.
    spent: u64,
}

/// The search state: the table, the counters and the limits.
pub struct Searcher<'a> {
    packer: Packer,
    /// What has been proved so far (shared with the proof's other thread).
    pub table: &'a BoundTable,
    /// Nodes searched (positions expanded, each time one is).
    pub nodes: u64,
    /// The node count at which the innermost budgeted try gives up (the
    /// whole search's budget outside any try).
    limit: u64,
    /// Whether the stop function asked to stop.
    stopped: bool,
    stop: &'a dyn Fn() -> bool,
    /// Whether this is the twin of a proof on two threads: it takes a loss
    /// node's children, after the hinted one, in the reverse order, so that
    /// the two threads prove different children of the same node first.
    pub twin: bool,
    /// Vectors of children of nodes no longer searched, for reuse (one
    /// allocation per ply of the search, not one per node).
    pool: Vec<Vec<Child>>,
    /// The same for the orders of the children.
    order_pool: Vec<Vec<usize>>,
}

/// Outcome of [`Searcher::find_child`].
enum Found {
    /// The index (in the children) of a child with the wanted answer.
    Child(usize),
    /// None has it; the move index of the child that took the most nodes
    /// to answer (the likeliest to have it at a greater depth; of equals,
    /// the last).
    None(u8),
}

/// Outcome of a try of one child within a node budget.
enum Tried {
    /// The child's question was answered: yes or no.
    Answered(bool),
    /// The budget ran out first (the facts found on the way are kept).
    OutOfBudget,
}

impl<'a> Searcher<'a> {
    /// A searcher over positions of `packer`'s material.
    pub fn new(
        packer: Packer,
        table: &'a BoundTable,
        max_nodes: u64,
        stop: &'a dyn Fn() -> bool,
    ) -> Searcher<'a> {
        Searcher {
            packer,
            table,
            nodes: 0,
            limit: max_nodes,
            stopped: false,
            stop,
            twin: false,
            pool: Vec::new(),
            order_pool: Vec::new(),
        }
    }

    /// Whether the stop function asked to stop (rather than the node
    /// budget running out).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The packed key of `pos`.
    #[inline]
    pub fn key(&self, pos: &Position) -> u64 {
        self.packer.pack(pos)
    }

    fn count_node(&mut self) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(Abort);
        }
        if self.nodes.is_multiple_of(POLL_NODES) && (self.stop)() {
            self.stopped = true;
            return Err(Abort);
        }
        Ok(())
    }

    /// Asks `question` of child `c` within `budget` more nodes (or
    /// without a budget of its own if `budget` is 0).
    fn try_child(
        &mut self,
        pos: &Position,
        c: &Child,
        n: u32,
        budget: u64,
        question: fn(&mut Self, &Position, u32) -> Result<bool, Abort>,
    ) -> Result<Tried, Abort> {
        let child = pos.play(c.m);
        if budget == 0 {
            return question(self, &child, n).map(Tried::Answered);
        }
        let outer = self.limit;
        self.limit = outer.min(self.nodes.saturating_add(budget));
        let result = question(self, &child, n);
        self.limit = outer;
        match result {
            Ok(answer) => Ok(Tried::Answered(answer)),
            Err(Abort) if self.stopped || self.nodes > outer => Err(Abort),
            Err(Abort) => Ok(Tried::OutOfBudget),
        }
    }

    /// Looks for a child of `order` whose answer to `question` (with `n`
    /// plies) is `wanted`, trying them in rounds with a growing node budget
    /// (the last open child without one), so that a child whose question
    /// is expensive to answer the wrong way delays the others less.
    fn find_child(
        &mut self,
        pos: &Position,
        children: &mut [Child],
        mut order: Vec<usize>,
        n: u32,
        wanted: bool,
        question: fn(&mut Self, &Position, u32) -> Result<bool, Abort>,
    ) -> Result<Found, Abort> {
        let found = self.find_child_in(pos, children, &mut order, n, wanted, question);
        self.order_pool.push(order);
        found
    }

    /// [`find_child`](Self::find_child) on `order`, which it consumes.
    fn find_child_in(
        &mut self,
        pos: &Position,
        children: &mut [Child],
        order: &mut Vec<usize>,
        n: u32,
        wanted: bool,
        question: fn(&mut Self, &Position, u32) -> Result<bool, Abort>,
    ) -> Result<Found, Abort> {
        let from = if wanted {
            WIN_BUDGET_FROM_PLIES
        } else {
            REFUTE_BUDGET_FROM_PLIES
        };
        let mut budget = if n >= from { FIRST_BUDGET } else { 0 };
        while !order.is_empty() {
            let last = order.len() == 1;
            let mut open = 0;
            for j in 0..order.len() {
                let i = order[j];
                let b = if last { 0 } else { budget };
                let before = self.nodes;
                let tried = self.try_child(pos, &children[i], n, b, question)?;
                children[i].spent += self.nodes - before;
                match tried {
                    Tried::Answered(a) if a == wanted => return Ok(Found::Child(i)),
                    Tried::Answered(_) => {}
                    Tried::OutOfBudget => {
                        order[open] = i;
                        open += 1;
                    }
                }
            }
            order.truncate(open);
            budget = budget.saturating_mul(BUDGET_GROWTH);
        }
        let hardest = (0..children.len()).max_by_key(|&i| children[i].spent);
        Ok(Found::None(hardest.map_or(UNKNOWN, |i| children[i].index)))
    }

    /// Merges `update` into the entry of `key`, noting its `moves` legal
    /// moves.
    fn record(&mut self, key: u64, moves: usize, update: impl FnOnce(&mut Bounds)) {
        self.table.update(key, |b| {
            update(b);
            b.moves = moves.min(MAX_MOVES_NOTED) as u8 + 1;
        });
    }

    /// The legal moves of the child `c` of `pos`, whose entry is `b`:
    /// noted there, or counted.
    fn replies(&self, b: &Bounds, pos: &Position, c: &Child) -> u32 {
        if b.moves != 0 {
            u32::from(b.moves) - 1
        } else {
            let moves = movegen::count_legal_moves(&pos.play(c.m));
            self.table
                .note_moves(c.key, moves.min(MAX_MOVES_NOTED) as u8 + 1);
            moves as u32
        }
    }

    /// The children of `pos`, in legal move order (replies not counted).
    fn children(&mut self, pos: &Position) -> Vec<Child> {
        let mut list = MoveList::new();
        movegen::legal_moves(pos, &mut list);
        let mut children = self.pool.pop().unwrap_or_default();
        children.clear();
        let parts = self.packer.parts(pos);
        children.extend(list.iter().enumerate().map(|(i, &m)| {
            let key = self.packer.child_key(&parts, pos, m);
            self.table.prefetch(key);
            Child {
                index: i as u8,
                key,
                replies: 0,
                refuted: 0,
                keep: true,
                spent: 0,
                m,
            }
        }));
        children
    }

    /// The indices of the children still to search, the hinted one first,
    /// then the others by fewest replies (sorting indices, not positions).
    fn order(&mut self, children: &[Child], hint: u8) -> Vec<usize> {
        // Then by how deep the child's question was refuted before.
        let mut order = self.order_pool.pop().unwrap_or_default();
        order.clear();
        order.extend((0..children.len()).filter(|&i| children[i].keep));
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
        self.with_children(pos, |s, children| {
            s.expand_win(pos, key, known.hint, n, children)
        })
    }

    /// Runs `expand` on the children of `pos` (a vector from the pool,
    /// given back after).
    fn with_children<R>(
        &mut self,
        pos: &Position,
        expand: impl FnOnce(&mut Self, &mut [Child]) -> R,
    ) -> R {
        let mut children = self.children(pos);
        let result = expand(self, &mut children);
        self.pool.push(children);
        result
    }

    /// [`wins`](Self::wins) at a node to be searched, of key `key`, whose
    /// entry's move hint is `hint`, with its `children`.
    fn expand_win(
        &mut self,
        pos: &Position,
        key: u64,
        hint: u8,
        n: u32,
        children: &mut [Child],
    ) -> Result<bool, Abort> {
        let mut hardest = UNKNOWN;
        if n < 3 {
            // Below 3 plies only a win in 1 exists (win distances are odd).
            let stuck = children
                .iter()
                .find(|c| !movegen::has_legal_move(&pos.play(c.m)));
            if let Some(c) = stuck {
                let index = c.index;
                self.record(key, children.len(), |b| proved_win(b, 1, index));
                return Ok(true);
            }
        } else {
            // A child already known lost within n - 1 proves the win; one
            // known to survive n - 1 plies cannot, and is left out.
            for c in children.iter_mut() {
                let b = self.table.get(c.key);
                if u32::from(b.loss) < n {
                    let index = c.index;
                    self.record(key, children.len(), |b| proved_win(b, n, index));
                    return Ok(true);
                }
                c.keep = n > u32::from(b.no_loss_below) && b.win == UNKNOWN;
                c.refuted = b.no_loss_below;
                if c.keep {
                    // The ordering's count; a child without a reply is a
                    // win in 1.
                    c.replies = self.replies(&b, pos, c);
                    if c.replies == 0 {
                        let index = c.index;
                        self.record(key, children.len(), |b| proved_win(b, 1, index));
                        return Ok(true);
                    }
                }
            }
            let order = self.order(children, hint);
            match self.find_child(pos, children, order, n - 1, true, Self::loses)? {
                Found::Child(i) => {
                    let index = children[i].index;
                    self.record(key, children.len(), |b| proved_win(b, n, index));
                    return Ok(true);
                }
                Found::None(hint) => hardest = hint,
            }
        }
        self.record(key, children.len(), |b| {
            b.no_win_below = b.no_win_below.max(n as u8 + 1);
            if hardest != UNKNOWN {
                b.hint = hardest;
            }
        });
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
            let moves = movegen::count_legal_moves(pos);
            let stuck = moves == 0;
            self.record(key, moves, |b| {
                if stuck {
                    proved_loss(b, 0)
                } else {
                    refuted_loss(b, 0, UNKNOWN)
                }
            });
            return Ok(stuck);
        }
        self.with_children(pos, |s, children| {
            s.expand_loss(pos, key, known.hint, n, children)
        })
    }

    /// [`loses`](Self::loses) at a node to be searched (`n` >= 1), of key
    /// `key`, whose entry's move hint is `hint`, with its `children`.
    fn expand_loss(
        &mut self,
        pos: &Position,
        key: u64,
        hint: u8,
        n: u32,
        children: &mut [Child],
    ) -> Result<bool, Abort> {
        if children.is_empty() {
            self.record(key, children.len(), |b| proved_loss(b, 0));
            return Ok(true);
        }
        // A child already known not won within n - 1 refutes the loss; one
        // known won within n - 1 needs no search.
        for c in children.iter_mut() {
            let b = self.table.get(c.key);
            if n - 1 < u32::from(b.no_win_below) || b.loss != UNKNOWN {
                let index = c.index;
                self.record(key, children.len(), |b| refuted_loss(b, n, index));
                return Ok(false);
            }
            c.keep = u32::from(b.win) >= n;
            c.refuted = u8::MAX - b.no_win_below;
            if c.keep && n >= ORDER_FROM_PLIES {
                c.replies = self.replies(&b, pos, c);
            }
        }
        let mut order = self.order(children, hint);
        if self.twin && order.len() > 2 {
            order[1..].reverse();
        }
        match self.find_child(pos, children, order, n - 1, false, Self::wins)? {
            Found::Child(i) => {
                let index = children[i].index;
                self.record(key, children.len(), |b| refuted_loss(b, n, index));
                Ok(false)
            }
            Found::None(hardest) => {
                self.record(key, children.len(), |b| {
                    proved_loss(b, n);
                    if hardest != UNKNOWN {
                        b.hint = hardest;
                    }
                });
                Ok(true)
            }
        }
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
