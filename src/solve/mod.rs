//! Exact solutions of 3x3 positions (9マス将棋): retrograde analysis, and an
//! exact forward proof for positions whose reachable set is too large.
//!
//! [`solve`] enumerates every position reachable from a root with the rules
//! core's legal move generator ([`graph`]), then computes the value of each
//! one backwards from the positions without a legal move ([`retro`]). The
//! values are exact: no pruning, no evaluation, no depth limit.
//!
//! [`prove::prove`] proves a decisive value from the root forwards instead:
//! "wins within n plies?" / "loses within n plies?" for n = 0, 1, 2, ...
//! by an exhaustive depth-bounded AND/OR search whose answers are kept per
//! position in a table. The first yes is the exact value (the
//! same `Win(d)` / `Loss(d)` as the retrograde's), together with every
//! first move that keeps it. Its cost is that of the proof, not of the
//! reachable set: the decisive 9マス将棋 layouts above 1.5 million reachable
//! positions (up to more than 200 million) are proved with 750 to 56
//! million nodes. It never proves a draw.
//! [`hybrid::settle`] picks the method by one rule (retrograde for sets of
//! at most 1.5 million positions, the forward proof above, the retrograde
//! within its memory bound if the proof fails); the `solve` command falls
//! back to the forward proof when the retrograde analysis is refused.
//!
//! # What the values mean
//!
//! * [`Value::Loss(0)`](Value::Loss): the side to move has no legal move
//!   (checkmate or stalemate, both a loss on every board of the rules core;
//!   打ち歩詰め, dead drops and forced promotion are the rules core's).
//! * `Win(d)` / `Loss(d)`: the winner can force the end within `d` plies
//!   whatever the loser does, and the loser can make it last `d` plies. Along
//!   a winning line the distance falls by one every ply, so no position ever
//!   repeats: a decisive value holds under any repetition rule, 千日手 and
//!   連続王手の千日手 included, and whatever the history before the root.
//!   `mate N` in USI output means exactly this: the end of the game (a side
//!   without a legal move) within N plies; it is never decided by a
//!   repetition.
//! * `Draw`: neither side can force the end of the game in its favour in a
//!   finite number of plies; with best play the game goes on until a
//!   repetition. Under the 3x3 rules of the rules core a fourfold repetition
//!   is a draw, unless one side gave check on every move of the cycle
//!   (連続王手の千日手), which that side loses. So "draw" is proved in the
//!   sense "neither side can force the end of the game"; it is the result of
//!   best play only where the drawing side can hold without checking on
//!   every move. The solver also finds (soundly, not completely) the drawn
//!   positions whose side to move can hold only by perpetual check against
//!   a defence that never checks ([`Solution::perpetual_check_trap`],
//!   [`retro::perpetual_check_traps`]): under 連続王手の千日手 those are
//!   losses (with no distance in plies: the end comes by repetition). They
//!   keep the value `Draw` and are reported beside it; in play the engine
//!   prefers a drawing move that traps the opponent so.
//! * All values are those of the position without a history. In a game, a
//!   position that already occurred before can end the game by repetition
//!   sooner; the engine values a move that completes a fourfold repetition
//!   at once by that result.
//!
//! # Memory and speed
//!
//! A position is packed into a `u64` ([`pack`]), one key for a position and
//! its mirror image (the rules are symmetric under exchanging files 1 and 3,
//! and so are the values), which halves the set; the reachable set is a
//! hash index of those keys ([`index`]) plus, while solving, the move edges
//! both ways (4 bytes per edge each way) and a few bytes of value, counter
//! and flags per position. [`Limits::max_bytes`] bounds the whole (default
//! 4 GiB): after every batch of the enumeration the solve's peak is
//! projected from the tables' sizes (the analysis's tables and the hash
//! index's next doubling included), and a set that would exceed the bound
//! is refused with [`SolveError::TooLarge`] rather than swapped. Expansion
//! runs on [`Limits::threads`] threads. After the analysis the edges are
//! freed; a [`Solution`] keeps the index, the values and the trap flags
//! (about 28 to 46 bytes per position).
//!
//! The forward proof allocates one table (16 bytes per position stored)
//! of 64 MiB for its first million nodes, then one of
//! [`prove::ProveLimits::table_bytes`] (512 MiB by default; full buckets
//! evict, which costs re-search, never soundness), allocated at once with
//! its pages taken as they are first written, and nothing else of size; it
//! runs on two threads sharing the table. Its values hold
//! under any repetition rule for the same reason as the retrograde's (see
//! [`prove`]).

pub mod cache;
pub mod engine;
pub mod graph;
pub mod hybrid;
pub mod index;
pub mod pack;
pub mod prove;
pub mod report;
pub mod retro;
pub mod value;

use std::time::{Duration, Instant};

pub use cache::SolutionCache;
pub use pack::{PackError, Packer};
pub use value::Value;

use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use index::KeyIndex;

/// Default memory bound of a solve.
pub const DEFAULT_MAX_BYTES: usize = 4 << 30;

/// Why a solve gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The position cannot be solved (wrong board, kings, material).
    Unsupported(PackError),
    /// The reachable set needs more memory than allowed (positions found
    /// when the limit was reached).
    TooLarge {
        /// Positions enumerated before giving up.
        positions: usize,
    },
    /// Stopped from outside before it finished.
    Stopped,
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Unsupported(e) => write!(f, "{e}"),
            SolveError::TooLarge { positions } => write!(
                f,
                "the reachable set exceeds the memory limit (more than {positions} positions)"
            ),
            SolveError::Stopped => write!(f, "stopped"),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<PackError> for SolveError {
    fn from(e: PackError) -> Self {
        SolveError::Unsupported(e)
    }
}

/// Resources a solve may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Worker threads for the expansion.
    pub threads: usize,
    /// Bound on the memory used (bytes).
    pub max_bytes: usize,
    /// Bound on the positions of the reachable set (a larger set is refused
    /// with [`SolveError::TooLarge`] as soon as the enumeration passes it).
    pub max_positions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
            max_bytes: DEFAULT_MAX_BYTES,
            max_positions: usize::MAX,
        }
    }
}

/// Figures of one solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Positions in the reachable set.
    pub positions: usize,
    /// Legal moves summed over the reachable set.
    pub edges: usize,
    /// Peak heap bytes (estimate from the tables' capacities).
    pub peak_bytes: usize,
    /// Time to enumerate the reachable set.
    pub enumerate: Duration,
    /// Time of the retrograde analysis.
    pub analyse: Duration,
}

impl Stats {
    /// Total time.
    pub fn total(&self) -> Duration {
        self.enumerate + self.analyse
    }
}

/// The values of every position reachable from a root.
#[derive(Clone, Debug)]
pub struct Solution {
    packer: Packer,
    index: KeyIndex,
    values: Vec<u16>,
    /// Drawn positions held only by perpetual check ([`retro::perpetual_check_traps`]).
    trapped: Vec<bool>,
    root: Position,
    stats: Stats,
}

/// Solves every position reachable from `root`. `stop` is polled every few
/// milliseconds; when it returns true the solve ends with
/// [`SolveError::Stopped`].
pub fn solve(
    root: &Position,
    limits: Limits,
    stop: &dyn Fn() -> bool,
) -> Result<Solution, SolveError> {
    let packer = Packer::new(root)?;
    let started = Instant::now();
    let graph = graph::build(
        &packer,
        packer.pack(root),
        limits.threads,
        (limits.max_bytes, limits.max_positions),
        stop,
    )?;
    let enumerate = started.elapsed();
    let started = Instant::now();
    let (values, extra) = retro::analyse(&graph);
    let trapped = retro::perpetual_check_traps(&graph, &values);
    let analyse = started.elapsed();
    let stats = Stats {
        positions: graph.len(),
        edges: graph.children.len(),
        peak_bytes: graph.bytes() + extra + trapped.capacity(),
        enumerate,
        analyse,
    };
    let graph::Graph { index, .. } = graph;
    Ok(Solution {
        packer,
        index,
        values,
        trapped,
        root: root.clone(),
        stats,
    })
}

impl Solution {
    /// The position the solve started from.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Figures of the solve.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Bytes of heap memory the solution holds.
    pub fn bytes(&self) -> usize {
        self.index.bytes() + self.values.capacity() * 2 + self.trapped.capacity()
    }

    /// Whether `pos` is a draw that its side to move can hold only by giving
    /// check on every move, against a defence that never checks: a loss under
    /// 連続王手の千日手 (see [`retro::perpetual_check_traps`]). `None` if
    /// `pos` is not in the solved set.
    pub fn perpetual_check_trap(&self, pos: &Position) -> Option<bool> {
        if !self.packer.covers(pos) {
            return None;
        }
        let id = self.index.get(self.packer.pack(pos))?;
        Some(self.trapped[id as usize])
    }

    /// Positions held only by perpetual check in the whole solved set.
    pub fn perpetual_check_traps(&self) -> usize {
        self.trapped.iter().filter(|&&t| t).count()
    }

    /// The value of `pos` for its side to move, if `pos` is in the solved set.
    pub fn value(&self, pos: &Position) -> Option<Value> {
        if !self.packer.covers(pos) {
            return None;
        }
        let id = self.index.get(self.packer.pack(pos))?;
        Some(Value::decode(self.values[id as usize]))
    }

    /// Whether `pos` is in the solved set.
    pub fn contains(&self, pos: &Position) -> bool {
        self.value(pos).is_some()
    }

    /// Every legal move of `pos` with its value for the side to move of
    /// `pos`, best first (ties keep the rules core's move order); `None` if
    /// `pos` is not in the solved set.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, Value)>> {
        self.value(pos)?;
        let mut list = MoveList::new();
        movegen::legal_moves(pos, &mut list);
        let mut out = Vec::with_capacity(list.len());
        for &m in list.iter() {
            let child = pos.play(m);
            let id = self.index.get(self.packer.pack(&child))?;
            out.push((m, Value::decode(self.values[id as usize]).before_move()));
        }
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        Some(out)
    }

    /// A principal line from `pos`: value-keeping moves for both sides (the
    /// winner's fastest, the loser's longest), at most `max_plies` long; a
    /// drawn line stops at the first position that repeats.
    pub fn principal_line(&self, pos: &Position, max_plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut pos = pos.clone();
        while line.len() < max_plies && seen.insert(pos.key()) {
            let Some(moves) = self.move_values(&pos) else {
                break;
            };
            let Some(&(m, _)) = moves.first() else {
                break;
            };
            line.push(m);
            pos = pos.play(m);
        }
        line
    }
}

#[cfg(test)]
mod tests;
