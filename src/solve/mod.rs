//! Exact solutions of 3x3 positions (9マス将棋) by retrograde analysis.
//!
//! [`solve`] enumerates every position reachable from a root with the rules
//! core's legal move generator ([`graph`]), then computes the value of each
//! one backwards from the positions without a legal move ([`retro`]). The
//! values are exact: no pruning, no evaluation, no depth limit.
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
//! and so are the values), which halves the set. No move edge is stored:
//!
//! 1. [`enumerate`] finds the reachable set breadth first, the expansion
//!    (rules-core move generation) and the insertion into a sharded hash
//!    set ([`index::KeySet`], 9 bytes a slot, each shard growing on its own)
//!    split over [`Limits::threads`] threads; it keeps one byte per position,
//!    its number of legal moves and whether it is in check. The set then
//!    becomes a sorted array of scrambled keys with a small directory
//!    ([`index::KeyIndex`], about 8.1 bytes per position); a position's id
//!    is its rank there.
//! 2. [`retro`] runs the retrograde analysis with one 16-bit atomic state
//!    per position (the count of unrefuted moves while undecided, then the
//!    value), generating each decided position's predecessors by un-moves
//!    ([`unmove`]) and looking them up in the index, each level of distance
//!    split over the threads.
//! 3. [`retro::perpetual_check_traps`] generates moves again, over the draws.
//!
//! The peak is about 8 + 2 + 4 bytes per position in the analysis (index,
//! states, one level's list at most) and the hash set's 12 to 24 bytes per
//! position plus the sorted array while the enumeration ends.
//! [`Limits::max_bytes`] bounds it (default 4 GiB): after every batch of the
//! enumeration the solve's peak is projected from the tables' sizes, and a
//! set that would exceed the bound is refused with [`SolveError::TooLarge`]
//! rather than swapped. A [`Solution`] keeps the index, the values and the
//! trap flags: about 10.2 bytes per position.

pub mod cache;
pub mod engine;
pub mod enumerate;
pub mod index;
pub mod pack;
pub mod report;
pub mod retro;
pub mod unmove;
pub mod value;

use std::time::{Duration, Instant};

pub use cache::SolutionCache;
pub use pack::{PackError, Packer};
pub use value::Value;

use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use index::{Bits, KeyIndex};

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
    /// Worker threads of the enumeration and the analysis (1 or 2; more
    /// count as 2).
    pub threads: usize,
    /// Bound on the memory used (bytes).
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
            max_bytes: DEFAULT_MAX_BYTES,
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
    trapped: Bits,
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
    let threads = limits.threads.clamp(1, 2);
    let started = Instant::now();
    let mut reachable =
        enumerate::build(&packer, packer.pack(root), threads, limits.max_bytes, stop)?;
    let enumerate = started.elapsed();
    if stop() {
        return Err(SolveError::Stopped);
    }
    let started = Instant::now();
    let (values, in_check) = retro::analyse(&packer, &mut reachable, threads);
    let index = reachable.index;
    let trapped = retro::perpetual_check_traps(&packer, &index, &values, &in_check, threads);
    let analyse = started.elapsed();
    let n = index.len();
    let stats = Stats {
        positions: n,
        edges: reachable.edges,
        peak_bytes: reachable
            .peak_bytes
            .max(index.bytes() + n * enumerate::ANALYSIS_BYTES + in_check.bytes()),
        enumerate,
        analyse,
    };
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
        self.index.bytes() + self.values.capacity() * 2 + self.trapped.bytes()
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
        Some(self.trapped.get(id as usize))
    }

    /// Positions held only by perpetual check in the whole solved set.
    pub fn perpetual_check_traps(&self) -> usize {
        self.trapped.count()
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
