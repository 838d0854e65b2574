//! One rule for settling a 3x3 position by whichever exact method suits it.
//!
//! The retrograde analysis ([`solve`]) gives every position's value, draws
//! included, but its cost grows with the whole reachable set (about a
//! microsecond and 70 bytes per position); the forward proof
//! ([`prove`]) proves only decisive values, at a cost that grows with the
//! size of the proof, which on the large layouts of the 9マス将棋 table is
//! a small fraction of the reachable set. [`settle`] therefore:
//!
//! 1. runs the retrograde analysis with the reachable set capped at
//!    [`RETROGRADE_MAX_POSITIONS`] (every drawn layout of the table is below
//!    it; a refusal costs at most the enumeration of that many positions);
//! 2. if the set is larger, runs the forward proof with
//!    [`SettleLimits::prove`]'s budget;
//! 3. if that proves nothing (a draw, or a longer decisive value), runs the
//!    retrograde analysis again without the cap, within its memory bound.
//!
//! Whatever answers is exact; nothing is claimed that one of the two
//! methods did not establish.

use super::prove::{Proof, ProveError, ProveLimits, prove};
use super::{Limits, Solution, SolveError, Value, solve};
use crate::moves::Move;
use crate::position::Position;

/// Largest reachable set the first retrograde attempt accepts.
pub const RETROGRADE_MAX_POSITIONS: usize = 1_500_000;

/// Resources of [`settle`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SettleLimits {
    /// Limits of the retrograde analysis (its `max_positions` applies to the
    /// last attempt; the first is capped at [`RETROGRADE_MAX_POSITIONS`]).
    pub retrograde: Limits,
    /// Limits of the forward proof.
    pub prove: ProveLimits,
}

/// How a position was settled (`S`: what the retrograde analysis gave).
#[derive(Debug)]
pub enum Settled<S = Box<Solution>> {
    /// By retrograde analysis: every reachable position's value.
    Solved(S),
    /// By forward proof: the root's value and best first moves.
    Proved(Proof),
}

/// Why [`settle`] gave no result: the last method's error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettleError {
    /// The retrograde analysis failed (too large, unsupported, stopped).
    Solve(SolveError),
    /// The forward proof failed, and so did the retrograde analysis.
    Both(ProveError, SolveError),
}

impl std::fmt::Display for SettleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettleError::Solve(e) => write!(f, "{e}"),
            SettleError::Both(p, s) => write!(f, "forward proof {p}; retrograde: {s}"),
        }
    }
}

impl std::error::Error for SettleError {}

impl Settled {
    /// The exact value of the root for its side to move.
    pub fn value(&self) -> Value {
        match self {
            Settled::Solved(s) => s.value(s.root()).expect("the root is solved"),
            Settled::Proved(p) => p.value,
        }
    }

    /// Every first move that keeps the root's value.
    pub fn best_moves(&self) -> Vec<Move> {
        match self {
            Settled::Solved(s) => {
                let moves = s.move_values(s.root()).unwrap_or_default();
                let best = moves.first().map(|&(_, v)| v);
                moves
                    .into_iter()
                    .filter(|&(_, v)| Some(v) == best)
                    .map(|(m, _)| m)
                    .collect()
            }
            Settled::Proved(p) => p.best_moves.clone(),
        }
    }
}

/// Settles `root` by the rule of the module docs. `stop` is polled by both
/// methods.
pub fn settle(
    root: &Position,
    limits: SettleLimits,
    stop: &dyn Fn() -> bool,
) -> Result<Settled, SettleError> {
    settle_with(root, limits, stop, |l| solve(root, l, stop).map(Box::new))
}

/// [`settle`] with the retrograde analysis done by `retrograde` (given the
/// limits of each attempt), e.g. through a cache of solutions.
pub fn settle_with<S>(
    root: &Position,
    limits: SettleLimits,
    stop: &dyn Fn() -> bool,
    mut retrograde: impl FnMut(Limits) -> Result<S, SolveError>,
) -> Result<Settled<S>, SettleError> {
    let capped = Limits {
        max_positions: limits
            .retrograde
            .max_positions
            .min(RETROGRADE_MAX_POSITIONS),
        ..limits.retrograde
    };
    match retrograde(capped) {
        Ok(s) => return Ok(Settled::Solved(s)),
        Err(SolveError::TooLarge { .. }) => {}
        Err(e) => return Err(SettleError::Solve(e)),
    }
    let undecided = match prove(root, limits.prove, stop) {
        Ok(p) => return Ok(Settled::Proved(p)),
        Err(e) => e,
    };
    retrograde(limits.retrograde)
        .map(Settled::Solved)
        .map_err(|e| SettleError::Both(undecided, e))
}
