//! Forward candidate pruning (the 3三将棋 app's 「2段階深化」, seed 000):
//! at a node with enough depth left, a shallow search ranks every move and
//! only the best few are searched at full depth. Unlike alpha-beta cutoffs
//! this may miss the best move; it buys depth. Off by default unless
//! measurement says otherwise (options `CandidatePruning`, `CandidateMoves`,
//! `CandidateDepth`, `CandidateMinDepth`).

use super::INFINITE;
use super::search::NodeKind;
use super::search::Worker;
use super::tactics::gives_check;
use crate::moves::Move;
use crate::position::Position;

/// The settings of forward candidate pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CandidateParams {
    /// How many moves go on at full depth (`CandidateMoves`).
    pub moves: usize,
    /// Depth of the ranking search (`CandidateDepth`).
    pub depth: i32,
    /// Least remaining depth of a node to be narrowed (`CandidateMinDepth`).
    pub min_depth: i32,
}

impl Worker<'_> {
    /// Ranks the moves of `moves[ply]` by a shallow search and keeps the best
    /// `params.moves` (in rank order). Returns how many moves remain.
    pub(super) fn select_candidates(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        params: CandidateParams,
    ) -> usize {
        let n = self.moves[ply].len();
        if n <= params.moves {
            return n;
        }
        let shallow = params.depth.clamp(1, depth - 1);
        let ordered: Vec<Move> = (0..n).map(|i| self.moves[ply].next(i)).collect();
        let mut ranked: Vec<(i32, usize, Move)> = Vec::with_capacity(n);
        for (k, &m) in ordered.iter().enumerate() {
            let check = gives_check(pos, m);
            let child = self.make(pos, m, ply, check);
            let s = -self.search(
                &child,
                -INFINITE,
                INFINITE,
                shallow - 1,
                ply + 1,
                NodeKind::All,
            );
            if self.stopped {
                return 0;
            }
            ranked.push((s, k, m));
        }
        // Best score first; ties keep the move-ordering rank.
        ranked.sort_by_key(|&(s, k, _)| (std::cmp::Reverse(s), k));
        let keep: Vec<Move> = ranked
            .iter()
            .take(params.moves.max(1))
            .map(|&(_, _, m)| m)
            .collect();
        self.moves[ply].set_ranked(&keep);
        keep.len()
    }
}
