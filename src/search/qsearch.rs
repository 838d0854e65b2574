//! The quiescence search: captures and pawn promotions (every evasion when
//! in check), with the corrected static evaluation as a stand-pat floor, a
//! contact mate-in-one probe at quiet nodes, delta pruning and SEE pruning.

use super::movepick::{
    captured, generate_captures, generate_pawn_promotions, is_quiet, promotion_gain,
};
use super::quick_mate::quick_mate_in_one;
use super::search::{FAIL_HIGH_BLEND, MAX_PLY, Worker};
use super::tactics::see_ge;
use super::tt::Bound;
use super::{INFINITE, MATE_BOUND, mate_in, mated_in, score_from_tt, score_to_tt};
use crate::eval::capture_gain;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::BoardKind;

/// Captures that cannot lift the score to within this of alpha are skipped.
const DELTA_MARGIN: i32 = 200;
/// Depth stored for quiescence results (below every full-width depth).
pub const QS_DEPTH: i32 = 0;

/// Whether the quiescence search also tries pawn promotions without
/// capture (as captures of the promotion's gain).
const QS_PAWN_PROMOTIONS: bool = true;

/// Whether captures that promote are delta- and SEE-pruned like the others
/// (their promotion's gain counted in both).
const QS_PROMOTING_CAPTURE_PRUNING: bool = true;

/// Whether evasions after the first one not mated are pruned in the
/// quiescence search (quiet ones with a negative history, any that lose
/// more than [`QS_EVASION_SEE_MARGIN`] by SEE), as Stockfish prunes them.
const QS_EVASION_PRUNING: bool = false;
/// See [`QS_EVASION_PRUNING`].
const QS_EVASION_SEE_MARGIN: i32 = 35;

/// Whether a quiet quiescence node without a TT entry looks for a contact
/// mate in one with the fast probe ([`quick_mate_in_one`]), so a mate
/// threat at the horizon is not stood pat on.
const QS_QUICK_MATE: bool = true;

impl Worker<'_> {
    /// Quiescence search of `pos` at `ply` (evaluation in `stack[ply]`).
    pub(super) fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.clear_pv(ply);
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stand = self.corrected_value(pos, ply);
        if ply >= MAX_PLY {
            return stand;
        }
        let key = pos.key();
        let mut tt_move = Move::NONE;
        let tt_entry = self.sh.tt.probe(key);
        let tt_pv = tt_entry.is_some_and(|e| e.pv);
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if e.bound.cuts(s, alpha, beta) {
                return s;
            }
        }
        let in_check = pos.in_check();
        // On 9x9 a side not in check always has a move (stalemate needs a
        // bare, boxed-in army): captures are generated only when the stand
        // pat does not cut. The small boards generate everything first to
        // see stalemate, which loses.
        let captures_only = !in_check && pos.kind() == BoardKind::Standard;
        if !captures_only {
            legal_moves(pos, &mut self.moves[ply].list);
            if self.moves[ply].list.is_empty() {
                return mated_in(ply);
            }
        }
        let mut best = -INFINITE;
        if !in_check {
            if let Some(v) = self.stand_pat_cut(pos, stand, beta, tt_entry.is_none(), ply) {
                return v;
            }
            alpha = alpha.max(stand);
            best = stand;
            if !tt_move.is_none() && captured(pos, tt_move).is_none() {
                tt_move = Move::NONE;
            }
        }
        if captures_only {
            let list = &mut self.moves[ply].list;
            generate_captures(pos, list);
            if QS_PAWN_PROMOTIONS {
                generate_pawn_promotions(pos, list);
            }
        }
        let orig_alpha = alpha;
        if in_check {
            let hints = super::movepick::OrderHints {
                tt_move,
                killers: self.stack[ply].killers,
                counter: Move::NONE,
                cont: self.cont_keys(pos, ply),
            };
            self.moves[ply].score_all(pos, &hints, &self.history);
        } else {
            self.moves[ply].score_captures(pos, tt_move, &self.history, QS_PAWN_PROMOTIONS);
        }
        let n = self.moves[ply].len();
        let mut best_move = Move::NONE;
        for i in 0..n {
            let m = self.moves[ply].next(i);
            if !in_check && self.futile(pos, ply, i, m, stand, alpha) {
                continue;
            }
            if QS_EVASION_PRUNING
                && in_check
                && best > -MATE_BOUND
                && self.futile_evasion(pos, ply, i, m)
            {
                continue;
            }
            // No repetition is looked for below a quiescence node, so
            // whether the move checks is not recorded.
            let child = self.make(pos, m, ply, false);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if FAIL_HIGH_BLEND && best >= beta && best.abs() < MATE_BOUND && beta.abs() < MATE_BOUND {
            best = (best + beta) / 2;
        }
        let bound = Bound::of(best, orig_alpha, beta);
        self.sh.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            QS_DEPTH,
            bound,
            tt_pv,
        );
        best
    }

    /// Not in check, before the moves: a stand pat at or above `beta`, or
    /// (without a table entry) a quick mate found here end the node with
    /// this value.
    #[inline(always)]
    fn stand_pat_cut(
        &mut self,
        pos: &Position,
        stand: i32,
        beta: i32,
        no_entry: bool,
        ply: usize,
    ) -> Option<i32> {
        if stand >= beta {
            return Some(stand);
        }
        // Below beta a mate would change the result (above it, both fail
        // high).
        if QS_QUICK_MATE
            && no_entry
            && let Some(m) = quick_mate_in_one(pos)
        {
            let v = mate_in(ply + 1);
            let tt_score = score_to_tt(v, ply);
            self.sh
                .tt
                .store(pos.key(), m, tt_score, QS_DEPTH, Bound::Exact, false);
            return Some(v);
        }
        None
    }

    /// In check, once an evasion that is not mated is found: whether the
    /// evasion `m` (the `i`-th of this ply's list) is skipped, a quiet one
    /// with a negative history or any that loses material by SEE.
    #[inline(always)]
    fn futile_evasion(&self, pos: &Position, ply: usize, i: usize, m: Move) -> bool {
        let quiet = is_quiet(pos, m);
        (quiet && self.moves[ply].score(i) < 0) || !see_ge(pos, m, -QS_EVASION_SEE_MARGIN)
    }

    /// Not in check: whether the capture or promotion `m` (the `i`-th of
    /// this ply's list) cannot lift the stand pat `stand` above `alpha`
    /// (delta pruning), or loses material in the exchange.
    #[inline(always)]
    fn futile(
        &mut self,
        pos: &Position,
        ply: usize,
        i: usize,
        m: Move,
        stand: i32,
        alpha: i32,
    ) -> bool {
        // The gain when the move stands, and the exchange threshold it must
        // meet (`None`: the list's own exchange test, at 0).
        let (gain, threshold) = match captured(pos, m) {
            None if m.is_promotion() => (promotion_gain(pos, m), None),
            Some(victim) if !m.is_promotion() => (capture_gain(victim), None),
            // A capture that promotes gains the victim and the promotion
            // when it stands, and what the exchange says when it is taken
            // back (the exchange counts the capturer unpromoted).
            Some(victim) if QS_PROMOTING_CAPTURE_PRUNING => {
                let promotion = promotion_gain(pos, m);
                (capture_gain(victim) + promotion, Some(-promotion))
            }
            _ => return false,
        };
        stand + gain + DELTA_MARGIN <= alpha
            || !match threshold {
                None => self.moves[ply].exchange_holds(i, pos, m),
                Some(t) => see_ge(pos, m, t),
            }
    }
}
