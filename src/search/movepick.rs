//! Move ordering: the generated moves get a score (at a full-width node
//! with a legal TT move, only once the TT move has not cut), then the moves
//! are taken best first — picked one by one for the first few (a cutoff
//! usually comes early), the rest sorted once.
//!
//! Order (the stages of a staged picker, as scores): the TT move; good
//! captures (static exchange not losing) by victim value, attacker value and
//! capture history; promotions; the two killers; the countermove; quiet
//! moves by butterfly history; bad captures (and promotions that lose by
//! static exchange); non-promotions that promoting dominates.

use super::history::{ContKeys, History, piece_slot};
use super::tactics::see_ge;
use crate::bitboard;
use crate::bitboard::Bitboard;
use crate::eval::{capture_gain, piece_value};
use crate::movegen::pawn_origin;
use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType};

/// The TT move's score (above every other).
pub const TT_MOVE_SCORE: i32 = 100_000_000;
const GOOD_CAPTURE_SCORE: i32 = 50_000_000;
const PROMOTION_SCORE: i32 = 40_000_000;
/// Killers score `KILLER_SCORE + 1` (first) and `KILLER_SCORE` (second).
pub const KILLER_SCORE: i32 = 30_000_000;
/// The countermove's score (below the killers').
const COUNTER_SCORE: i32 = 29_000_000;
// Quiet moves score their butterfly plus continuation history, within
// +-3 `HISTORY_MAX` (between the countermove and the bad captures) with the
// default weights; `BUTTERFLY_WEIGHT` above 1 would widen the range, and
// the margins that read these scores would need retuning.
/// Captures that lose material (static exchange below zero).
const BAD_CAPTURE_SCORE: i32 = -30_000_000;
/// Non-promotions of pawn, bishop or rook where promoting is possible.
pub const DOMINATED_SCORE: i32 = -40_000_000;
/// Captures of a [`ScoredMoves::score_captures`] list above this score are
/// the good ones (the two capture bands lie far on either side).
const GOOD_CAPTURE_THRESHOLD: i32 = (GOOD_CAPTURE_SCORE + BAD_CAPTURE_SCORE) / 2;
/// Scale of the victim's value in a capture's score.
const MVV_SCALE: i32 = 64;
/// Moves picked one by one before the rest of the list is sorted.
const PICK_FIRST: usize = 6;
/// Whether a promotion without capture that loses material by static
/// exchange is ordered with the bad captures (Stockfish's promotions sit
/// with the captures, good or bad by SEE) instead of above the killers.
const BAD_PROMOTIONS_LAST: bool = true;

/// The piece a move captures, if any.
#[inline]
pub fn captured(pos: &Position, m: Move) -> Option<PieceType> {
    if m.is_drop() {
        return None;
    }
    let p = pos.piece_on(m.to());
    (!p.is_none()).then(|| p.piece_type())
}

/// Whether `m` neither captures nor promotes.
#[inline]
pub fn is_quiet(pos: &Position, m: Move) -> bool {
    captured(pos, m).is_none() && !m.is_promotion()
}

/// Whether a non-promotion is dominated by the same move promoting (pawn,
/// bishop and rook lose nothing by promoting).
#[inline]
fn is_dominated(pos: &Position, m: Move) -> bool {
    if m.is_drop() || m.is_promotion() {
        return false;
    }
    let pt = pos.piece_on(m.from()).piece_type();
    if pt != PieceType::PAWN && pt != PieceType::BISHOP && pt != PieceType::ROOK {
        return false;
    }
    let zone = pos.kind().zone(pos.side_to_move());
    zone.has(m.from()) || zone.has(m.to())
}

/// What the ordering of one node knows besides the position.
#[derive(Clone, Copy, Debug)]
pub struct OrderHints {
    pub tt_move: Move,
    pub killers: [Move; 2],
    pub counter: Move,
    /// The earlier moves of the path, for the continuation history.
    pub cont: ContKeys,
}

/// A move list with ordering scores, handed out best first.
pub struct ScoredMoves {
    pub list: MoveList,
    scores: [i32; MAX_MOVES],
    keys: [u64; MAX_MOVES],
    len: usize,
    /// Whether some quiets still hold [`PENDING_QUIET`] instead of their
    /// history score (see [`next_lazy`](Self::next_lazy)).
    quiets_pending: bool,
}

/// The placeholder score of a quiet move whose history is not read yet:
/// below the killers and the countermove, above every history score and
/// the bad captures, so the quiets come out in their place once scored.
const PENDING_QUIET: i32 = 1_000_000;

impl Default for ScoredMoves {
    fn default() -> Self {
        ScoredMoves {
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            keys: [0; MAX_MOVES],
            len: 0,
            quiets_pending: false,
        }
    }
}

impl ScoredMoves {
    /// Number of moves to hand out.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move to hand out.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The ordering score of the `i`-th move handed out.
    #[inline]
    pub fn score(&self, i: usize) -> i32 {
        self.scores[i]
    }

    /// Scores every move of `list` for a full-width node.
    pub fn score_all(&mut self, pos: &Position, hints: &OrderHints, history: &History) {
        self.len = self.list.len();
        self.score_from(0, pos, hints, history, false);
    }

    /// [`score_all`](Self::score_all), except that the plain quiets (no
    /// killer, no countermove) are scored only when the move loop reaches
    /// them: a node cut by a capture or a killer never reads their history.
    /// Hand the moves out with [`next_lazy`](Self::next_lazy).
    pub fn score_all_lazy(&mut self, pos: &Position, hints: &OrderHints, history: &History) {
        self.len = self.list.len();
        self.score_from(0, pos, hints, history, true);
    }

    /// Puts `tt_move` first if it is in `list`, without scoring the other
    /// moves (a cutoff by the TT move makes their scores useless); then
    /// [`score_rest`](Self::score_rest) must score them before move 1 is
    /// taken. Returns whether the TT move was found. The TT move goes out
    /// first as after [`score_all`](Self::score_all) (its score is the
    /// largest, so `pick(0)` keeps it in place whatever stale scores the
    /// others hold); the others are ordered by the history as it stands
    /// when they are scored.
    pub fn tt_move_first(&mut self, tt_move: Move) -> bool {
        self.len = self.list.len();
        if tt_move.is_none() {
            return false;
        }
        let Some(k) = self.list.iter().position(|&m| m == tt_move) else {
            return false;
        };
        self.list.as_mut_slice().swap(0, k);
        self.scores[0] = TT_MOVE_SCORE;
        true
    }

    /// Scores the moves after the first (see [`tt_move_first`](Self::tt_move_first)).
    pub fn score_rest(&mut self, pos: &Position, hints: &OrderHints, history: &History) {
        self.score_from(1, pos, hints, history, false);
    }

    /// [`score_rest`](Self::score_rest) with the plain quiets left for
    /// [`next_lazy`](Self::next_lazy) (see [`score_all_lazy`](Self::score_all_lazy)).
    pub fn score_rest_lazy(&mut self, pos: &Position, hints: &OrderHints, history: &History) {
        self.score_from(1, pos, hints, history, true);
    }

    fn score_from(
        &mut self,
        from: usize,
        pos: &Position,
        hints: &OrderHints,
        history: &History,
        lazy: bool,
    ) {
        let us = pos.side_to_move().index();
        self.quiets_pending = false;
        for i in from..self.len {
            let m = self.list.as_slice()[i];
            let s = if lazy {
                score_move_or_defer(pos, m, hints, history, us)
            } else {
                score_move(pos, m, hints, history, us)
            };
            self.quiets_pending |= s == PENDING_QUIET;
            self.scores[i] = s;
        }
    }

    /// The `i`-th move, best first, of a list scored lazily: the history
    /// of the deferred quiets is read when the first of them would come out
    /// (or before the rest of the list is sorted), with `hints` and
    /// `history` as they stand then.
    #[inline]
    pub fn next_lazy(
        &mut self,
        i: usize,
        pos: &Position,
        hints: &OrderHints,
        history: &History,
    ) -> Move {
        if self.quiets_pending {
            if i < PICK_FIRST {
                let m = self.pick(i);
                if self.scores[i] != PENDING_QUIET {
                    return m;
                }
            }
            self.score_deferred(i, pos, hints, history);
        }
        self.next(i)
    }

    /// Reads the history of the deferred quiets from `i` on.
    fn score_deferred(&mut self, i: usize, pos: &Position, hints: &OrderHints, history: &History) {
        let us = pos.side_to_move().index();
        for k in i..self.len {
            if self.scores[k] == PENDING_QUIET {
                let m = self.list.as_slice()[k];
                self.scores[k] = history_score(pos, m, hints, history, us);
            }
        }
        self.quiets_pending = false;
    }

    /// Keeps only the captures (not dominated), the TT move and, with
    /// `pawn_promotions`, the pawn promotions without capture, scored, for
    /// the quiescence search.
    pub fn score_captures(
        &mut self,
        pos: &Position,
        tt_move: Move,
        history: &History,
        pawn_promotions: bool,
    ) {
        let mut kept = 0;
        for i in 0..self.list.len() {
            let m = self.list.as_slice()[i];
            let s = if m == tt_move {
                TT_MOVE_SCORE
            } else if let Some(victim) = captured(pos, m) {
                if is_dominated(pos, m) {
                    continue;
                }
                capture_score(pos, m, victim, history)
            } else if pawn_promotions
                && m.is_promotion()
                && pos.piece_on(m.from()).piece_type() == PieceType::PAWN
            {
                promotion_score(pos, m)
            } else {
                continue;
            };
            self.list.as_mut_slice()[kept] = m;
            self.scores[kept] = s;
            kept += 1;
        }
        self.len = kept;
    }

    /// For a list from [`score_captures`](Self::score_captures): whether the
    /// `i`-th move handed out, the capture or promotion `m`, loses nothing
    /// by static exchange (`see_ge(pos, m, 0)`), read from its score (its scoring
    /// computed that) except for the TT move.
    #[inline]
    pub fn exchange_holds(&self, i: usize, pos: &Position, m: Move) -> bool {
        let s = self.scores[i];
        let holds = if s == TT_MOVE_SCORE {
            see_ge(pos, m, 0)
        } else {
            s > GOOD_CAPTURE_THRESHOLD
        };
        debug_assert_eq!(holds, see_ge(pos, m, 0), "{m}");
        holds
    }

    /// Replaces the moves with `ranked` (best first), to be handed out in
    /// that order.
    pub fn set_ranked(&mut self, ranked: &[Move]) {
        self.list.clear();
        for (k, &m) in ranked.iter().enumerate() {
            self.list.push(m);
            self.scores[k] = (ranked.len() - k) as i32;
        }
        self.len = ranked.len();
    }

    /// The `i`-th move, best first (call with i = 0, 1, 2, ... in order).
    #[inline]
    pub fn next(&mut self, i: usize) -> Move {
        if i < PICK_FIRST {
            self.pick(i)
        } else {
            if i == PICK_FIRST {
                self.sort_rest(i);
            }
            self.list.as_slice()[i]
        }
    }

    /// Brings the first of the highest-scored remaining moves to `i`. Two
    /// passes (the maximum, then where it first is) vectorise, unlike one
    /// pass that tracks the index.
    #[inline]
    fn pick(&mut self, i: usize) -> Move {
        let rest = &self.scores[i..self.len];
        let max = rest.iter().copied().fold(i32::MIN, i32::max);
        let best = i + rest.iter().position(|&s| s == max).unwrap_or(0);
        self.scores.swap(i, best);
        let moves = self.list.as_mut_slice();
        moves.swap(i, best);
        moves[i]
    }

    fn sort_rest(&mut self, from: usize) {
        let n = self.len;
        let moves = &mut self.list.as_mut_slice()[from..n];
        let scores = &mut self.scores[from..n];
        let keys = &mut self.keys[from..n];
        for ((k, &s), m) in keys.iter_mut().zip(scores.iter()).zip(moves.iter()) {
            *k = ((s as i64 - i32::MIN as i64) as u64) << 16 | m.raw() as u64;
        }
        keys.sort_unstable_by(|a, b| b.cmp(a));
        for ((&k, s), m) in keys.iter().zip(scores.iter_mut()).zip(moves.iter_mut()) {
            *m = Move::from_raw(k as u16);
            *s = ((k >> 16) as i64 + i32::MIN as i64) as i32;
        }
    }
}

#[inline]
fn capture_score(pos: &Position, m: Move, victim: PieceType, history: &History) -> i32 {
    let attacker = pos.piece_on(m.from()).piece_type();
    // A victim worth at least the attacker makes the exchange hold (the
    // static exchange stops at once), so `good` is `see_ge(pos, m, 0)`.
    let mvv = capture_gain(victim) * MVV_SCALE - piece_value(attacker) / 16
        + history.capture(pos.side_to_move().index(), piece_slot(pos, m), m, victim) / 8;
    let good = capture_gain(victim) >= capture_gain(attacker) || see_ge(pos, m, 0);
    if good {
        GOOD_CAPTURE_SCORE + mvv
    } else {
        BAD_CAPTURE_SCORE + mvv
    }
}

/// What the board move `m`, a promotion, gains by promoting (material).
#[inline]
pub fn promotion_gain(pos: &Position, m: Move) -> i32 {
    let pt = pos.piece_on(m.from()).piece_type();
    piece_value(pt.promoted()) - piece_value(pt)
}

/// The score of a promotion without capture in a capture list: ranked as
/// the capture of a piece worth the promotion's gain, good if the static
/// exchange on its square loses nothing (`see_ge`, which counts the piece
/// at its unpromoted value).
#[inline]
fn promotion_score(pos: &Position, m: Move) -> i32 {
    let pt = pos.piece_on(m.from()).piece_type();
    let mvv = promotion_gain(pos, m) * MVV_SCALE - piece_value(pt) / 16;
    if see_ge(pos, m, 0) {
        GOOD_CAPTURE_SCORE + mvv
    } else {
        BAD_CAPTURE_SCORE + mvv
    }
}

#[inline]
fn score_move(pos: &Position, m: Move, hints: &OrderHints, history: &History, us: usize) -> i32 {
    if m == hints.tt_move {
        return TT_MOVE_SCORE;
    }
    if m.is_drop() {
        // Most moves of a full hand: quiet, never dominated.
        return quiet_score(pos, m, hints, history, us);
    }
    if let Some(victim) = captured(pos, m) {
        let s = capture_score(pos, m, victim, history);
        return if is_dominated(pos, m) {
            s - MVV_SCALE * 64
        } else {
            s
        };
    }
    if is_dominated(pos, m) {
        return DOMINATED_SCORE;
    }
    if m.is_promotion() {
        let pt = pos.piece_on(m.from()).piece_type();
        let gain = piece_value(pt.promoted()) - piece_value(pt);
        if BAD_PROMOTIONS_LAST && !see_ge(pos, m, 0) {
            return BAD_CAPTURE_SCORE + gain;
        }
        return PROMOTION_SCORE + gain;
    }
    quiet_score(pos, m, hints, history, us)
}

/// [`score_move`], except that a plain quiet (no killer, no countermove)
/// gets [`PENDING_QUIET`] instead of its history.
#[inline]
fn score_move_or_defer(
    pos: &Position,
    m: Move,
    hints: &OrderHints,
    history: &History,
    us: usize,
) -> i32 {
    let plain_quiet =
        m != hints.tt_move && (m.is_drop() || (is_quiet(pos, m) && !is_dominated(pos, m)));
    if plain_quiet {
        refutation_score(m, hints).unwrap_or(PENDING_QUIET)
    } else {
        score_move(pos, m, hints, history, us)
    }
}

/// The score of a killer or the countermove.
#[inline]
fn refutation_score(m: Move, hints: &OrderHints) -> Option<i32> {
    if m == hints.killers[0] {
        Some(KILLER_SCORE + 1)
    } else if m == hints.killers[1] {
        Some(KILLER_SCORE)
    } else if m == hints.counter {
        Some(COUNTER_SCORE)
    } else {
        None
    }
}

/// The score of a quiet move that does not promote: killer, countermove,
/// or its history.
#[inline]
fn quiet_score(pos: &Position, m: Move, hints: &OrderHints, history: &History, us: usize) -> i32 {
    refutation_score(m, hints).unwrap_or_else(|| history_score(pos, m, hints, history, us))
}

/// Weight of the butterfly score against each continuation score in the
/// ordering of quiets (Stockfish: 2).
const BUTTERFLY_WEIGHT: i32 = 1;
/// The history score of a quiet move: butterfly (weighted) and
/// continuation.
#[inline]
fn history_score(pos: &Position, m: Move, hints: &OrderHints, history: &History, us: usize) -> i32 {
    let slot = piece_slot(pos, m);
    BUTTERFLY_WEIGHT * history.quiet(us, slot, m) + history.continuation(&hints.cont, slot, m)
}

/// Adds to `list` the legal promotions without capture of the side to
/// move's pawns (not in check).
pub fn generate_pawn_promotions(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let targets = pos.kind().mask().and_not(pos.occupied()) & pos.kind().zone(us);
    let pawns = PawnSteps::new(pos);
    for to in pawns.arrivals & targets {
        list.push(Move::normal(pawn_origin(us, to), to, true));
    }
    let king = pos.king_square(us);
    for from in pawns.rest {
        let mut to_bb = bitboard::step_attacks(us, PieceType::PAWN, from) & targets;
        if let Some(k) = king
            && pawns.pinned.has(from)
        {
            to_bb &= bitboard::line(k, from);
        }
        for to in to_bb {
            list.push(Move::normal(from, to, true));
        }
    }
}

/// The one-square steps of the side to move's pawns, in bulk: the pawns not
/// pinned move as one bitboard (pawns never stand on their last rank, so a
/// one-rank shift stays in the file, as in the move generator); the pinned
/// ones are left to the caller, in `rest`.
struct PawnSteps {
    /// Where the bulk pawns arrive.
    arrivals: Bitboard,
    /// The pinned pawns, to be generated one by one.
    rest: Bitboard,
    /// The side to move's pinned pieces.
    pinned: Bitboard,
}

impl PawnSteps {
    fn new(pos: &Position) -> PawnSteps {
        let us = pos.side_to_move();
        let pawns = pos.pieces_of(us, PieceType::PAWN);
        let pinned = pos.pinned(us);
        let bulk = pawns.and_not(pinned);
        PawnSteps {
            arrivals: match us {
                Color::Sente => bulk.shift_up(),
                Color::Gote => bulk.shift_down(),
            },
            rest: pawns & pinned,
            pinned,
        }
    }
}

/// Fills `list` with the legal captures of the side to move, which must
/// not be in check (non-promotions that promoting dominates are left out).
/// Cheaper than full generation when hands are full of droppable pieces.
pub fn generate_captures(pos: &Position, list: &mut MoveList) {
    list.clear();
    let us = pos.side_to_move();
    let them = us.flip();
    let kind = pos.kind();
    let zone = kind.zone(us);
    let targets = pos.pieces(them);
    let occupied = pos.occupied();
    let king = pos.king_square(us);
    let pawns = PawnSteps::new(pos);
    let pinned = pawns.pinned;
    for to in pawns.arrivals & targets {
        // A pawn that may promote always should (the plain step is
        // dominated); a pawn step outside the zone never lands on a dead
        // square.
        list.push(Move::normal(pawn_origin(us, to), to, zone.has(to)));
    }
    let others = pos.pieces(us).and_not(pos.pieces_of(us, PieceType::PAWN)) | pawns.rest;
    for from in others {
        let pt = pos.piece_on(from).piece_type();
        if (bitboard::pseudo_attacks(us, pt, from) & targets).is_empty() {
            continue;
        }
        let mut to_bb = bitboard::attacks(us, pt, from, occupied) & targets;
        if pt == PieceType::KING {
            let occ = occupied.without(from);
            for to in to_bb {
                if !pos.is_attacked(to, them, occ) {
                    list.push(Move::normal(from, to, false));
                }
            }
            continue;
        }
        if let Some(k) = king
            && pinned.has(from)
        {
            to_bb &= bitboard::line(k, from);
        }
        for to in to_bb {
            let can_promote = pt.can_promote() && (zone.has(from) || zone.has(to));
            if can_promote {
                list.push(Move::normal(from, to, true));
            }
            let dominated = can_promote
                && (pt == PieceType::PAWN || pt == PieceType::BISHOP || pt == PieceType::ROOK);
            if !dominated && !kind.dead_squares(us, pt).has(to) {
                list.push(Move::normal(from, to, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::search::history::CONT_PLIES;
    use crate::sfen::parse_sfen;

    /// The bench positions, positions with pinned pawns and promotions on
    /// both sides, and every position one move after each of them.
    fn generation_positions() -> Vec<Position> {
        crate::search::positions_and_children(crate::search::BENCH_POSITIONS.iter().copied().chain(
            [
                // A pinned rook and promotions in the zone.
                "4k4/4r4/9/9/4R4/9/9/4B4/4K4 w - 1",
                "4k4/1P7/p8/9/9/9/9/9/4K4 b - 1",
                // Pawns pinned on a file and on a diagonal, next to free
                // ones, for both sides.
                "4r4/2b6/3P1PP2/4P4/4K4/9/9/9/k8 b - 1",
                "K8/9/9/9/4k4/4p4/2pp1p3/6B2/4R4 w - 1",
                "rbsgk/4p/P4/5/KGSBR b - 1",
            ],
        ))
    }

    /// Asserts that `got` holds the legal moves of `pos` that `keep`
    /// selects, in any order.
    fn assert_generates(pos: &Position, got: &MoveList, keep: impl Fn(Move) -> bool) {
        let mut all = MoveList::new();
        legal_moves(pos, &mut all);
        let mut want: Vec<Move> = all.iter().copied().filter(|&m| keep(m)).collect();
        let mut got: Vec<Move> = got.iter().copied().collect();
        want.sort_by_key(|m| m.raw());
        got.sort_by_key(|m| m.raw());
        assert_eq!(got, want, "{}", crate::sfen::to_sfen(pos));
    }

    #[test]
    fn capture_and_promotion_generation_match_the_legal_moves() {
        for pos in generation_positions() {
            if pos.in_check() {
                continue;
            }
            let mut got = MoveList::new();
            generate_captures(&pos, &mut got);
            assert_generates(&pos, &got, |m| {
                captured(&pos, m).is_some() && !is_dominated(&pos, m)
            });
            got.clear();
            generate_pawn_promotions(&pos, &mut got);
            assert_generates(&pos, &got, |m| {
                !m.is_drop()
                    && m.is_promotion()
                    && captured(&pos, m).is_none()
                    && pos.piece_on(m.from()).piece_type() == PieceType::PAWN
            });
        }
    }

    #[test]
    fn moves_come_out_best_first_and_all_of_them() {
        let pos = parse_sfen(crate::search::BENCH_POSITIONS[2]).unwrap();
        let mut sm = ScoredMoves::default();
        legal_moves(&pos, &mut sm.list);
        let all: Vec<Move> = sm.list.iter().copied().collect();
        let hints = OrderHints {
            tt_move: all[5],
            killers: [Move::NONE; 2],
            counter: Move::NONE,
            cont: [None; CONT_PLIES.len()],
        };
        sm.score_all(&pos, &hints, &History::default());
        let mut out = Vec::new();
        for i in 0..sm.len() {
            out.push(sm.next(i));
            if i > 0 {
                assert!(sm.score(i) <= sm.score(i - 1));
            }
        }
        assert_eq!(out[0], all[5]);
        let mut a = all.clone();
        a.sort_by_key(|m| m.raw());
        out.sort_by_key(|m| m.raw());
        assert_eq!(a, out);
    }

    #[test]
    fn lazy_scoring_hands_out_the_same_order_as_full_scoring() {
        for sfen in crate::search::BENCH_POSITIONS {
            let pos = parse_sfen(sfen).unwrap();
            let mut all = MoveList::new();
            legal_moves(&pos, &mut all);
            let quiets: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| captured(&pos, m).is_none() && !m.is_promotion())
                .collect();
            let mut history = History::default();
            // A history that tells the quiets apart, a killer and a
            // countermove among them.
            let us = pos.side_to_move().index();
            for (k, &m) in quiets.iter().enumerate() {
                let bonus = ((k * 7919) % 4000) as i32 - 2000;
                history.update_quiet(us, piece_slot(&pos, m), m, bonus);
            }
            let hints = OrderHints {
                tt_move: Move::NONE,
                killers: [quiets[quiets.len() / 2], Move::NONE],
                counter: quiets[quiets.len() / 3],
                cont: [None; CONT_PLIES.len()],
            };
            let mut full = ScoredMoves::default();
            legal_moves(&pos, &mut full.list);
            full.score_all(&pos, &hints, &history);
            let mut lazy = ScoredMoves::default();
            legal_moves(&pos, &mut lazy.list);
            lazy.score_all_lazy(&pos, &hints, &history);
            for i in 0..full.len() {
                let m = full.next(i);
                assert_eq!(
                    lazy.next_lazy(i, &pos, &hints, &history),
                    m,
                    "{sfen} move {i}"
                );
                assert_eq!(lazy.score(i), full.score(i), "{sfen} move {i}");
            }
        }
    }
}
