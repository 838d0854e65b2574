//! The game-tree search of one thread: iterative deepening over a root move
//! list, principal-variation alpha-beta (negamax) with a shared
//! transposition table, check extension, late-move reductions for quiet
//! moves, and a capture quiescence search.
//!
//! Game ends inside the tree: no legal move loses for the side to move (mate
//! and stalemate alike); the first repetition of a position (in the tree or
//! against the game history) scores as the board's fourfold-repetition
//! result, except that the side that checked on every move of the cycle
//! loses; a game reaching `MaxMovesToDraw` plies is a draw.

use super::time::Budget;
use super::tt::{Bound, Tt};
use super::{
    Control, INFINITE, MATE_BOUND, format_score, mate_in, mated_in, score_from_tt, score_to_tt,
};
use crate::bitboard;
use crate::eval::{capture_gain, evaluate, piece_value};
use crate::movegen::legal_moves;
use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::position::Position;
use crate::rules::{BoardKind, RepetitionRule};
use crate::types::{Color, PieceType, SQUARE_COUNT};
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Deepest ply the search reaches (quiescence included).
pub const MAX_PLY: usize = 128;
/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: u32 = 100;
/// How far back before the root a repetition is looked for, in plies.
const HISTORY_LOOKBACK: usize = 32;
/// Nodes between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 512;
/// Least milliseconds between progress lines inside one iteration.
const PROGRESS_INTERVAL: u64 = 1000;

const TT_MOVE_SCORE: i32 = 10_000_000;
const CAPTURE_SCORE: i32 = 1_000_000;
const PROMOTION_SCORE: i32 = 900_000;
const KILLER_SCORE: i32 = 800_000;
const HISTORY_MAX: i32 = 700_000;
const DOMINATED_SCORE: i32 = -1_000_000;
const SKIP: i32 = i32::MIN;
/// Moves picked one by one before the rest of the list is sorted.
const PICK_FIRST: usize = 6;
/// Static-evaluation margin per ply under which quiet moves are pruned.
const FUTILITY_MARGIN: i32 = 250;
/// Quiescence: captures that cannot lift the score to within this of alpha
/// are skipped.
const DELTA_MARGIN: i32 = 200;

/// Late-move reduction of the `i`-th move (from 0) at `depth`.
#[inline]
fn reduction(depth: i32, i: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * ((i + 1) as f32).ln() / 2.0;
    r as i32
}

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a Tt,
    pub control: &'a Control,
    /// Set by the main thread when the search must end (all threads stop).
    pub abort: &'a AtomicBool,
    /// Node counts published by each thread (index = thread id).
    pub thread_nodes: &'a [AtomicU64],
    /// Time budget; `None` when time does not limit the search.
    pub budget: Option<Budget>,
    /// Node limit of the whole search, 0 = none (then only one thread runs).
    pub node_limit: u64,
    /// The side to move at the root.
    pub root_color: Color,
    /// Score of a draw for the root side (its opponent sees the negation).
    pub draw_value: i32,
    /// Plies after which the game is a draw, 0 = never.
    pub max_moves_to_draw: u32,
    /// `go infinite` or `go ponder`: never stop on our own while this holds
    /// (pondering ends at `ponderhit`, checked through [`Control`]).
    pub infinite: bool,
    /// When this search began (for `time` and `nps` in info lines).
    pub start: Instant,
}

impl Shared<'_> {
    /// Total nodes of all threads as last published.
    pub fn total_nodes(&self) -> u64 {
        self.thread_nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Milliseconds since the clock started for this move.
    pub fn clock_ms(&self) -> u64 {
        self.control.clock_start().elapsed().as_millis() as u64
    }

    /// Whether time may stop the search now (not pondering, not infinite).
    pub fn clock_running(&self) -> bool {
        !self.infinite && !self.control.pondering()
    }
}

/// A root move with the result of its last search.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Score of the current iteration (`-INFINITE` until searched exactly).
    pub score: i32,
    /// Score of the previous iteration.
    pub prev_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Selective depth reached when this move got its score.
    pub seldepth: usize,
}

/// Output settings of the main thread.
pub struct Reporter<'a> {
    pub out: &'a Sender<String>,
    pub multi_pv: usize,
    pub pv_interval: u64,
}

/// The state of one search thread.
pub struct Worker<'a> {
    sh: &'a Shared<'a>,
    id: usize,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    lists: Vec<MoveList>,
    scores: Vec<[i32; MAX_MOVES]>,
    /// Keys of the game history then of the current search path, each with
    /// whether the move that reached it gave check.
    keys: Vec<(u64, bool)>,
    root_index: usize,
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Vec<[[i32; SQUARE_COUNT]; 32]>,
    pv: Vec<[Move; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    scratch: Vec<u64>,
    /// Where the main thread reports (`None` for helpers).
    report: Option<&'a Reporter<'a>>,
    /// The iteration being searched and when the last info line went out.
    current_depth: u32,
    last_info: Instant,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    kind: BoardKind,
}

#[inline]
fn captured(pos: &Position, m: Move) -> Option<PieceType> {
    if m.is_drop() {
        return None;
    }
    let p = pos.piece_on(m.to());
    (!p.is_none()).then(|| p.piece_type())
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
    let pinned = pos.pinned(us);
    for from in pos.pieces(us) {
        let pt = pos.piece_on(from).piece_type();
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

#[inline]
fn history_index(pos: &Position, m: Move) -> usize {
    if m.is_drop() {
        16 + m.dropped().index()
    } else {
        pos.piece_on(m.from()).piece_type().index()
    }
}

impl<'a> Worker<'a> {
    /// A worker for thread `id` searching the last position of `history`
    /// (the game's keys, oldest first) whose legal moves are `root`.
    pub fn new(sh: &'a Shared<'a>, id: usize, history: &[(u64, bool)], root: Vec<Move>) -> Self {
        let mut keys = history.to_vec();
        let root_index = keys.len() - 1;
        keys.resize(root_index + MAX_PLY + 3, (0, false));
        Worker {
            sh,
            id,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            lists: (0..MAX_PLY + 2).map(|_| MoveList::new()).collect(),
            scores: vec![[0; MAX_MOVES]; MAX_PLY + 2],
            keys,
            root_index,
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            history: vec![[[0; SQUARE_COUNT]; 32]; 2],
            pv: vec![[Move::NONE; MAX_PLY + 2]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            scratch: Vec::with_capacity(MAX_MOVES),
            report: None,
            current_depth: 0,
            last_info: Instant::now(),
            root_moves: root
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                })
                .collect(),
            completed_depth: 0,
            kind: BoardKind::Standard,
        }
    }

    // ---- stopping ---------------------------------------------------------

    /// Counts a node; returns whether the search must stop.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        if self.sh.node_limit != 0 && self.nodes >= self.sh.node_limit {
            self.stopped = true;
        }
        self.stopped
    }

    /// Looks at the stop flags and (main thread) the clock.
    fn poll(&mut self) {
        self.sh.thread_nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.sh.abort.load(Ordering::Relaxed) || self.sh.control.stopped() {
            self.stopped = true;
            return;
        }
        if let Some(rep) = self.report
            && self.last_info.elapsed().as_millis() as u64 >= rep.pv_interval.max(PROGRESS_INTERVAL)
        {
            // A long iteration: show progress (no score: the iteration is open).
            self.last_info = Instant::now();
            let nodes = self.sh.total_nodes();
            let ms = self.sh.start.elapsed().as_millis() as u64;
            let _ = rep.out.send(format!(
                "info depth {} seldepth {} nodes {nodes} nps {} time {ms} hashfull {}",
                self.current_depth,
                self.seldepth,
                nodes * 1000 / ms.max(1),
                self.sh.tt.hashfull()
            ));
        }
        if self.id == 0
            && let Some(b) = self.sh.budget
            && self.sh.clock_running()
            && self.sh.clock_ms() >= b.maximum
        {
            self.stopped = true;
            self.sh.abort.store(true, Ordering::Relaxed);
        }
    }

    // ---- game-end scores ---------------------------------------------------

    #[inline]
    fn draw_score(&self, pos: &Position) -> i32 {
        if pos.side_to_move() == self.sh.root_color {
            self.sh.draw_value
        } else {
            -self.sh.draw_value
        }
    }

    /// The score of the node at `idx` (ply `ply`) if it repeats an earlier
    /// position of the path or of the recent game history.
    fn repetition(&self, pos: &Position, idx: usize, ply: usize) -> Option<i32> {
        let key = self.keys[idx].0;
        let limit = self.root_index.saturating_sub(HISTORY_LOOKBACK);
        let mut j = idx.checked_sub(4)?;
        loop {
            if j < limit {
                return None;
            }
            if self.keys[j].0 == key {
                return Some(self.cycle_score(pos, j, idx, ply));
            }
            j = j.checked_sub(2)?;
        }
    }

    /// The result of the cycle from `first` to `idx` for the side to move.
    fn cycle_score(&self, pos: &Position, first: usize, idx: usize, ply: usize) -> i32 {
        // Our moves reached first+1, first+3, ..., idx-1; theirs the others.
        let we_checked = (first + 1..idx).step_by(2).all(|k| self.keys[k].1);
        let they_checked = (first + 2..=idx).step_by(2).all(|k| self.keys[k].1);
        if we_checked {
            return mated_in(ply);
        }
        if they_checked {
            return mate_in(ply);
        }
        match self.kind.repetition_rule() {
            RepetitionRule::Draw => self.draw_score(pos),
            RepetitionRule::SenteLoses => {
                if pos.side_to_move() == Color::Sente {
                    mated_in(ply)
                } else {
                    mate_in(ply)
                }
            }
        }
    }

    #[inline]
    fn move_limit_reached(&self, pos: &Position) -> bool {
        self.sh.max_moves_to_draw != 0 && pos.move_number() > self.sh.max_moves_to_draw
    }

    // ---- move ordering -------------------------------------------------------

    /// Scores the moves of `lists[ply]`; with `captures_only`, non-captures
    /// (and dominated non-promotions) are dropped. Returns how many moves
    /// remain at the front of the list.
    fn score_moves(
        &mut self,
        pos: &Position,
        ply: usize,
        tt_move: Move,
        captures_only: bool,
    ) -> usize {
        let us = pos.side_to_move().index();
        let n = self.lists[ply].len();
        let mut kept = 0;
        for i in 0..n {
            let m = self.lists[ply].as_slice()[i];
            let s = if m == tt_move {
                TT_MOVE_SCORE
            } else if captures_only && (captured(pos, m).is_none() || is_dominated(pos, m)) {
                SKIP
            } else if let Some(victim) = captured(pos, m) {
                let attacker = piece_value(pos.piece_on(m.from()).piece_type());
                let promo = if m.is_promotion() { 100 } else { 0 };
                CAPTURE_SCORE + capture_gain(victim) * 16 - attacker / 16 + promo
                    - if is_dominated(pos, m) { 1000 } else { 0 }
            } else if is_dominated(pos, m) {
                DOMINATED_SCORE
            } else if m.is_promotion() {
                let pt = pos.piece_on(m.from()).piece_type();
                PROMOTION_SCORE + piece_value(pt.promoted()) - piece_value(pt)
            } else if m == self.killers[ply][0] {
                KILLER_SCORE + 1
            } else if m == self.killers[ply][1] {
                KILLER_SCORE
            } else {
                self.history[us][history_index(pos, m)][m.to().index()]
            };
            if s != SKIP {
                self.lists[ply].as_mut_slice()[kept] = m;
                self.scores[ply][kept] = s;
                kept += 1;
            }
        }
        kept
    }

    /// Moves the best-scored move of `i..n` to `i` and returns it.
    #[inline]
    fn pick(&mut self, ply: usize, i: usize, n: usize) -> Move {
        let scores = &mut self.scores[ply];
        let mut best = i;
        for j in i + 1..n {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        scores.swap(i, best);
        let moves = self.lists[ply].as_mut_slice();
        moves.swap(i, best);
        moves[i]
    }

    /// Sorts the moves `from..n` by score, best first (then they are taken
    /// in order instead of picked).
    fn sort_rest(&mut self, ply: usize, from: usize, n: usize) {
        let scratch = &mut self.scratch;
        scratch.clear();
        let moves = self.lists[ply].as_mut_slice();
        let scores = &mut self.scores[ply];
        for j in from..n {
            let key = ((scores[j] as i64 - i32::MIN as i64) as u64) << 16 | moves[j].raw() as u64;
            scratch.push(key);
        }
        scratch.sort_unstable_by(|a, b| b.cmp(a));
        for (k, &key) in scratch.iter().enumerate() {
            moves[from + k] = Move::from_raw(key as u16);
            scores[from + k] = ((key >> 16) as i64 + i32::MIN as i64) as i32;
        }
    }

    /// The `i`-th move of the ordered list at `ply`: picked for the first
    /// few, then sorted once.
    #[inline]
    fn next_move(&mut self, ply: usize, i: usize, n: usize) -> Move {
        if i < PICK_FIRST {
            self.pick(ply, i, n)
        } else {
            if i == PICK_FIRST {
                self.sort_rest(ply, i, n);
            }
            self.lists[ply].as_slice()[i]
        }
    }

    /// Quiescence pruning: a capture that cannot raise the score to alpha,
    /// or that gives a more valuable piece for a defended lesser one.
    fn futile_capture(
        &self,
        pos: &Position,
        m: Move,
        victim: PieceType,
        stand: i32,
        alpha: i32,
    ) -> bool {
        if stand + capture_gain(victim) + DELTA_MARGIN <= alpha {
            return true;
        }
        let attacker = pos.piece_on(m.from()).piece_type();
        if attacker == PieceType::KING {
            return false;
        }
        let a = piece_value(attacker) + crate::eval::hand_value(attacker.unpromoted());
        if capture_gain(victim) >= a {
            return false;
        }
        let them = pos.side_to_move().flip();
        let occupied = pos.occupied().without(m.from());
        pos.is_attacked(m.to(), them, occupied)
    }

    fn update_quiet_stats(&mut self, pos: &Position, ply: usize, m: Move, depth: i32) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let h =
            &mut self.history[pos.side_to_move().index()][history_index(pos, m)][m.to().index()];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }

    // ---- the searches ----------------------------------------------------

    /// Alpha-beta search of `pos` at distance `ply` from the root; the
    /// caller has recorded `pos` in `keys[root_index + ply]`.
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let idx = self.root_index + ply;
        if let Some(v) = self.repetition(pos, idx, ply) {
            return v;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = pos.key();
        let mut tt_move = Move::NONE;
        if let Some(e) = self.sh.tt.probe(key) {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth {
                let s = score_from_tt(e.score, ply);
                if e.bound.cuts(s, alpha, beta) {
                    return s;
                }
            }
        }

        legal_moves(pos, &mut self.lists[ply]);
        let n = self.lists[ply].len();
        if n == 0 {
            return mated_in(ply);
        }
        if self.move_limit_reached(pos) {
            return self.draw_score(pos);
        }
        let in_check = pos.in_check();
        // Check extension, bounded so that chains of checks cannot run away.
        if in_check && ply < (2 * self.current_depth as usize).min(MAX_PLY / 2) {
            depth += 1;
        }

        let n = self.score_moves(pos, ply, tt_move, false);
        let orig_alpha = alpha;
        // Pruning of quiet moves near the leaves (non-PV, not in check).
        let prune_quiets = !pv_node && !in_check && depth <= 3;
        let static_eval = if prune_quiets { evaluate(pos) } else { 0 };
        let move_count_limit = 3 + 2 * (depth * depth) as usize;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        for i in 0..n {
            let m = self.next_move(ply, i, n);
            let capture = captured(pos, m).is_some();
            let quiet = !capture && !m.is_promotion();
            let move_score = self.scores[ply][i];
            let late_quiet = (quiet || move_score == DOMINATED_SCORE) && move_score < KILLER_SCORE;
            let child = pos.play(m);
            let gives_check = child.in_check();
            if prune_quiets
                && late_quiet
                && !gives_check
                && best > -MATE_BOUND
                && (i >= move_count_limit || static_eval + FUTILITY_MARGIN * depth <= alpha)
            {
                continue;
            }
            self.keys[idx + 1] = (child.key(), gives_check);
            let mut score;
            if i == 0 {
                score = -self.search(&child, -beta, -alpha, depth - 1, ply + 1, pv_node);
            } else {
                let mut r = 0;
                if depth >= 3 && i >= 2 && late_quiet && !in_check && !gives_check {
                    r = reduction(depth, i) + i32::from(move_score < 0 && !pv_node);
                    if pv_node {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 1);
                }
                score = -self.search(&child, -alpha - 1, -alpha, depth - 1 - r, ply + 1, false);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.search(&child, -alpha - 1, -alpha, depth - 1, ply + 1, false);
                }
                if pv_node && score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, -beta, -alpha, depth - 1, ply + 1, true);
                }
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(pos, ply, m, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, orig_alpha, beta);
        self.sh
            .tt
            .store(key, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    /// Quiescence search: captures only (all evasions when in check), with
    /// the static evaluation as a stand-pat floor.
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let key = pos.key();
        let mut tt_move = Move::NONE;
        if let Some(e) = self.sh.tt.probe(key) {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if e.bound.cuts(s, alpha, beta) {
                return s;
            }
        }
        let in_check = pos.in_check();
        // On 9x9 a side not in check always has a move (stalemate needs a
        // bare, boxed-in army): generate captures only. The small boards
        // generate everything to see stalemate, which loses.
        if !in_check && pos.kind() == BoardKind::Standard {
            generate_captures(pos, &mut self.lists[ply]);
        } else {
            legal_moves(pos, &mut self.lists[ply]);
            if self.lists[ply].is_empty() {
                return mated_in(ply);
            }
        }
        let mut best = -INFINITE;
        if !in_check {
            let stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            if tt_move != Move::NONE && captured(pos, tt_move).is_none() {
                tt_move = Move::NONE;
            }
        }
        let orig_alpha = alpha;
        let n = self.score_moves(pos, ply, tt_move, !in_check);
        let mut best_move = Move::NONE;
        let stand = best;
        for i in 0..n {
            let m = self.next_move(ply, i, n);
            if !in_check
                && let Some(victim) = captured(pos, m)
                && !m.is_promotion()
                && self.futile_capture(pos, m, victim, stand, alpha)
            {
                continue;
            }
            let child = pos.play(m);
            self.keys[self.root_index + ply + 1] = (child.key(), child.in_check());
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
        let bound = Bound::of(best, orig_alpha, beta);
        self.sh
            .tt
            .store(key, best_move, score_to_tt(best, ply), 0, bound);
        best
    }

    /// Searches the root moves from `pv_idx` on to `depth`; the best lands at
    /// `pv_idx`. Returns whether the pass completed.
    fn root_search(&mut self, pos: &Position, depth: i32, pv_idx: usize) -> bool {
        let mut alpha = -INFINITE;
        let beta = INFINITE;
        for rm in &mut self.root_moves[pv_idx..] {
            rm.score = -INFINITE;
        }
        self.pv_len[0] = 0;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let child = pos.play(m);
            self.keys[self.root_index + 1] = (child.key(), child.in_check());
            let mut score;
            if i == pv_idx {
                score = -self.search(&child, -beta, -alpha, depth - 1, 1, true);
            } else {
                score = -self.search(&child, -alpha - 1, -alpha, depth - 1, 1, false);
                if score > alpha && !self.stopped {
                    score = -self.search(&child, -beta, -alpha, depth - 1, 1, true);
                }
            }
            if self.stopped {
                break;
            }
            if i == pv_idx || score > alpha {
                alpha = score;
                let len = self.pv_len[1].max(1);
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][1..len]);
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv = pv;
                rm.seldepth = self.seldepth;
            }
        }
        // Stable: moves that did not beat alpha keep their order.
        self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        !self.stopped
    }

    /// Orders the root moves before the first iteration (TT move, captures).
    fn order_root(&mut self, pos: &Position) {
        let tt_move = self.sh.tt.probe(pos.key()).map_or(Move::NONE, |e| e.mv);
        let list = &mut self.lists[0];
        list.clear();
        for rm in &self.root_moves {
            list.push(rm.mv);
        }
        self.score_moves(pos, 0, tt_move, false);
        let mut keyed: Vec<(i32, RootMove)> = self
            .root_moves
            .drain(..)
            .enumerate()
            .map(|(i, rm)| (self.scores[0][i], rm))
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        self.root_moves = keyed.into_iter().map(|(_, rm)| rm).collect();
    }

    /// Iterative deepening up to `max_depth`. The main thread (`report` is
    /// `Some`) prints info lines and decides when to stop; helpers search
    /// until the abort flag is set.
    pub fn iterate(&mut self, pos: &Position, max_depth: u32, report: Option<&'a Reporter<'a>>) {
        self.kind = pos.kind();
        self.report = report;
        self.order_root(pos);
        let multi_pv = report
            .map_or(1, |r| r.multi_pv)
            .clamp(1, self.root_moves.len());
        let mut last_output: Option<Instant> = None;
        let mut depth = 1;
        while depth <= max_depth {
            // Helpers on odd ids search one ply deeper to diversify.
            let search_depth = if self.id % 2 == 1 { depth + 1 } else { depth };
            self.current_depth = search_depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            let mut complete = true;
            for pv_idx in 0..multi_pv {
                self.seldepth = 0;
                if !self.root_search(pos, search_depth as i32, pv_idx) {
                    complete = false;
                    break;
                }
            }
            if !complete {
                break;
            }
            self.completed_depth = search_depth.min(max_depth);
            self.sh.thread_nodes[self.id].store(self.nodes, Ordering::Relaxed);
            let Some(rep) = report else {
                depth += 1;
                if self.sh.abort.load(Ordering::Relaxed) || self.sh.control.stopped() {
                    break;
                }
                continue;
            };
            if self.should_stop_after(depth, max_depth) {
                break;
            }
            let due = last_output.is_none_or(|t| t.elapsed().as_millis() as u64 >= rep.pv_interval);
            if due {
                last_output = Some(Instant::now());
                self.last_info = Instant::now();
                for line in self.info_lines(multi_pv) {
                    let _ = rep.out.send(line);
                }
            }
            depth += 1;
        }
        self.sh.thread_nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// After a completed iteration: whether the main thread stops here.
    fn should_stop_after(&mut self, depth: u32, max_depth: u32) -> bool {
        if depth >= max_depth || self.sh.control.stopped() || self.sh.abort.load(Ordering::Relaxed)
        {
            return true;
        }
        if !self.sh.clock_running() {
            return false;
        }
        let best = &self.root_moves[0];
        if best.score.abs() >= MATE_BOUND {
            let plies = (super::VALUE_MATE - best.score.abs()) as u32;
            if depth >= plies + 2 {
                return true;
            }
        }
        let Some(b) = self.sh.budget else {
            return false;
        };
        let elapsed = self.sh.clock_ms();
        if self.root_moves.len() == 1 && depth >= 4 {
            return true;
        }
        if elapsed >= b.optimum {
            return true;
        }
        // An iteration takes several times the last; do not start one that
        // cannot finish (unless unused time is lost anyway).
        !b.use_all && elapsed * 10 >= b.optimum * 6
    }

    /// The info lines describing the current root moves.
    pub fn info_lines(&self, multi_pv: usize) -> Vec<String> {
        format_info(
            &self.root_moves,
            self.completed_depth,
            multi_pv,
            self.sh.total_nodes(),
            self.sh.start.elapsed().as_millis() as u64,
            self.sh.tt.hashfull(),
        )
    }
}

/// Full `info` lines for the first `multi_pv` root moves (`multipv k` is
/// printed only when `multi_pv` > 1).
pub fn format_info(
    root_moves: &[RootMove],
    completed_depth: u32,
    multi_pv: usize,
    nodes: u64,
    ms: u64,
    hashfull: u32,
) -> Vec<String> {
    let nps = nodes * 1000 / ms.max(1);
    let mut lines = Vec::new();
    for (k, rm) in root_moves.iter().take(multi_pv).enumerate() {
        // A move not searched to the end of an interrupted iteration shows
        // its score of the last completed one.
        let score = if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        };
        let score = if score == -INFINITE { 0 } else { score };
        let depth = completed_depth.max(1);
        let mpv = if multi_pv > 1 {
            format!(" multipv {}", k + 1)
        } else {
            String::new()
        };
        let pv: Vec<String> = rm.pv.iter().map(|m| m.to_string()).collect();
        lines.push(format!(
            "info depth {depth} seldepth {}{mpv} score {} nodes {nodes} nps {nps} time {ms} hashfull {hashfull} pv {}",
            rm.seldepth.max(depth as usize),
            format_score(score),
            pv.join(" ")
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    #[test]
    fn capture_generation_matches_legal_captures() {
        for sfen in crate::search::BENCH_POSITIONS.iter().chain(&[
            // A pinned rook and promotions in the zone.
            "4k4/4r4/9/9/4R4/9/9/4B4/4K4 w - 1",
            "4k4/1P7/p8/9/9/9/9/9/4K4 b - 1",
        ]) {
            let pos = parse_sfen(sfen).unwrap();
            if pos.in_check() {
                continue;
            }
            let mut all = MoveList::new();
            legal_moves(&pos, &mut all);
            let mut want: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| captured(&pos, m).is_some() && !is_dominated(&pos, m))
                .collect();
            let mut caps = MoveList::new();
            generate_captures(&pos, &mut caps);
            let mut got: Vec<Move> = caps.iter().copied().collect();
            want.sort_by_key(|m| m.raw());
            got.sort_by_key(|m| m.raw());
            assert_eq!(got, want, "{sfen}");
        }
    }
}
