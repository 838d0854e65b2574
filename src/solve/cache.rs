//! Reuse of solved tables between the moves of a game.

use std::sync::Arc;

use super::{Limits, Solution, SolveError, solve};
use crate::position::Position;

/// The last solution, kept while it covers the positions asked about.
///
/// Every position reachable from a solved root is in its table, so a whole
/// game from a 3x3 layout is answered from one solve. Only one table is kept,
/// which bounds the memory to that of the largest solve.
#[derive(Clone, Debug, Default)]
pub struct SolutionCache {
    last: Option<Arc<Solution>>,
}

impl SolutionCache {
    /// An empty cache.
    pub fn new() -> SolutionCache {
        SolutionCache::default()
    }

    /// The cached solution if it covers `pos`.
    pub fn lookup(&self, pos: &Position) -> Option<Arc<Solution>> {
        self.last.as_ref().filter(|s| s.contains(pos)).cloned()
    }

    /// A solution covering `pos`: the cached one, or a new solve from `pos`
    /// (which then replaces it). The flag says whether it was cached.
    pub fn get_or_solve(
        &mut self,
        pos: &Position,
        limits: Limits,
        stop: &dyn Fn() -> bool,
    ) -> Result<(Arc<Solution>, bool), SolveError> {
        if let Some(s) = self.lookup(pos) {
            return Ok((s, true));
        }
        // Free the old table first so two are never held at once.
        self.last = None;
        let s = Arc::new(solve(pos, limits, stop)?);
        self.last = Some(Arc::clone(&s));
        Ok((s, false))
    }

    /// Makes `solution` the cached table.
    pub fn store(&mut self, solution: Arc<Solution>) {
        self.last = Some(solution);
    }

    /// Drops the cached table.
    pub fn clear(&mut self) {
        self.last = None;
    }
}
