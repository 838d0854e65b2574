//! The game-tree search of one thread: iterative deepening over a root move
//! list with aspiration windows, principal-variation alpha-beta (negamax)
//! with a shared transposition table, and the node search's pruning,
//! reductions and extensions (see [`Worker::search`] for the steps).
//!
//! Game ends inside the tree: no legal move loses for the side to move (mate
//! and stalemate alike); the first repetition of a position (in the tree or
//! against the game history) scores as the board's fourfold-repetition
//! result, except that the side that checked on every move of the cycle
//! loses; a game reaching `MaxMovesToDraw` plies is a draw. Such
//! path-dependent mate scores are never stored in the table.

use super::candidates::CandidateParams;
use super::correction::PartialKeys;
use super::history::{CONT_PLIES, ContKey, ContKeys, History, bonus, piece_slot};
use super::mate_probe::{MateProbe, PROBE_MIN_NODES, PROBE_POLL_INTERVAL};
use super::movepick::{KILLER_SCORE, OrderHints, ScoredMoves, TT_MOVE_SCORE, captured, is_quiet};
use super::tactics::{CheckInfo, gives_check, mate_in_one, see_ge};
use super::time::{Budget, Stability};
use super::tt::{Bound, Tt};
use super::{
    Control, INFINITE, MATE_BOUND, format_score, mate_in, mated_in, score_from_tt, score_to_tt,
};
use crate::eval::{Accumulator, Evaluator, capture_gain};
use crate::movegen::{is_legal, is_legal_fast, legal_moves, legal_moves_and_checks};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{BoardKind, RepetitionRule};
use crate::types::Color;
use crossbeam_channel::Sender;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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

// ---- margins and reductions (every number the node search uses) ----------

/// First iteration searched with an aspiration window.
const ASPIRATION_MIN_DEPTH: u32 = 5;
/// The iteration after which the root mate probe looks for our mate.
const MATE_PROBE_DEPTH: u32 = 2;
/// Most of the move's optimum time (percent) the root mate probe may take.
const PROBE_TIME_PERCENT: u64 = 30;
/// Whether the main thread, from iteration [`DEFENCE_MIN_DEPTH`] on, looks
/// for the opponent's mate with the mate probe after each root move about
/// to become the best (once a search): a move proven to lose that way is
/// set aside with its proven score and the search goes on without it.
const DEFENCE_PROBE: bool = false;
/// First iteration whose new best moves the defence probe looks at.
const DEFENCE_MIN_DEPTH: i32 = 3;
/// The defence probe's nodes: the root mate probe's divided by this.
const DEFENCE_NODES_DIV: u64 = 3;
/// Most of the move's optimum time (percent) one defence probe may take.
const DEFENCE_TIME_PERCENT: u64 = 10;
/// Longest opponent's mate (plies) for which the defence probe sets a move
/// aside (`None`: any length).
const DEFENCE_MAX_MATE: Option<usize> = None;
/// Razoring: at depth <= this, a static eval this much per ply below
/// alpha drops into quiescence.
const RAZOR_DEPTH: i32 = 3;
const RAZOR_MARGIN: i32 = 400;
/// Reverse futility: at depth <= this, a static eval above beta by the
/// margin per ply returns the eval.
const RFP_DEPTH: i32 = 7;
const RFP_MARGIN: i32 = 120;
/// Whether reverse futility keeps off nodes once on a principal variation
/// and nodes whose TT move is quiet (Stockfish's conditions; session 37's
/// `s37-rfp`, not yet measured).
const RFP_AS_STOCKFISH: bool = false;
/// Null move: least depth, base reduction, one more per this many plies,
/// one more per this much eval above beta (at most `NMP_EVAL_MAX`).
const NMP_MIN_DEPTH: i32 = 3;
const NMP_BASE: i32 = 3;
const NMP_DEPTH_DIV: i32 = 4;
const NMP_EVAL_DIV: i32 = 250;
const NMP_EVAL_MAX: i32 = 3;
/// Internal iterative reduction: least depth of a node without a TT move
/// to be searched one ply shallower.
const IIR_MIN_DEPTH: i32 = 4;
/// Late-move (move-count) pruning: quiets after `(LMP_BASE + d*d) /
/// (2 - improving)` moves at depth <= `LMP_DEPTH`.
const LMP_DEPTH: i32 = 8;
const LMP_BASE: i32 = 3;
/// Futility pruning of quiets at (reduced) depth <= `FUTILITY_DEPTH`
/// (YaneuraOu's 12, with the two history switches below, since session
/// 24; 7 before).
const FUTILITY_DEPTH: i32 = 12;
const FUTILITY_BASE: i32 = 150;
const FUTILITY_PER_DEPTH: i32 = 120;
/// SEE pruning: at depth <= `SEE_DEPTH`, quiets losing more than
/// `SEE_QUIET_MARGIN * d * d` and captures/checks losing more than
/// `SEE_CAPTURE_MARGIN * d` are skipped.
const SEE_DEPTH: i32 = 8;
const SEE_QUIET_MARGIN: i32 = 40;
const SEE_CAPTURE_MARGIN: i32 = 180;
/// History pruning of quiet moves at every depth: a quiet move whose
/// history score is below minus this times the depth is skipped
/// (`None`: off). On with the next switch and `FUTILITY_DEPTH` 12, as in
/// YaneuraOu (session 24, 300 ms against its material build: 79-118-3 in
/// 200 games, 40.3%, where HEAD scored 32.0% on the same openings).
const HISTORY_PRUNING_PER_DEPTH: Option<i32> = Some(4000);
/// Whether the futility and SEE pruning of a quiet move count its history
/// score in its reduced depth: plus one ply per this much (`None`: off).
const HISTORY_LMR_DEPTH_DIV: Option<i32> = Some(3200);
/// Late-move reductions: `LMR_BASE + ln(depth) * ln(move) / LMR_DIVISOR`,
/// less one per `LMR_HISTORY_DIV` of history.
const LMR_BASE: f32 = 0.4;
const LMR_DIVISOR: f32 = 2.1;
const LMR_HISTORY_DIV: i32 = 12_000;
/// Extra late-move reduction of quiet moves when the TT move captures.
const TT_CAPTURE_REDUCTION: i32 = 1;
/// Whether a node whose null move was mated is searched one ply deeper.
const MATE_THREAT_EXTENSION: bool = true;
/// Whether a non-PV node that was on a principal variation when its TT
/// entry was stored (the entry's PV flag) is reduced as a PV node (without
/// the non-PV extra ply; Stockfish's ttPv).
const TT_PV_LMR: bool = true;
/// Whether captures that do not check are futility-pruned at shallow
/// reduced depth (below [`CAPTURE_FUTILITY_DEPTH`]) when the static
/// evaluation plus the capture's gain and the quiet futility margin cannot
/// reach alpha (Stockfish's futility pruning of captures).
const CAPTURE_FUTILITY: bool = false;
/// See [`CAPTURE_FUTILITY`].
const CAPTURE_FUTILITY_DEPTH: i32 = 7;
/// Whether, once a move raises alpha without a cutoff, the node's later
/// moves are searched two plies shallower (Stockfish, at depths 3 to
/// [`ALPHA_RAISE_MAX_DEPTH`]).
const ALPHA_RAISE_REDUCTION: bool = false;
/// See [`ALPHA_RAISE_REDUCTION`].
const ALPHA_RAISE_MAX_DEPTH: i32 = 11;
/// Whether a late move's re-search after its reduced search failed high
/// goes a ply deeper when it beat the best score by far, a ply shallower
/// when barely (Stockfish's doDeeperSearch / doShallowerSearch).
const LMR_DEPTH_ADJUST: bool = true;
/// The margin over the best score (plus [`DEEPER_PER_DEPTH`] a ply) for
/// the deeper re-search.
const DEEPER_MARGIN: i32 = 20;
/// See [`DEEPER_MARGIN`].
const DEEPER_PER_DEPTH: i32 = 2;
/// Below the best score plus this, the re-search is a ply shallower.
const SHALLOWER_MARGIN: i32 = 5;
/// Whether a node in check is searched one ply deeper. YaneuraOu has none
/// (checks come in long runs in shogi); without it, against YaneuraOu's
/// material build (`Evaluation Material`, 100 ms, session 10): 7-27-1 in
/// 35 games, where the build with it scored 14-45-1 in 60 on the same
/// openings: no better, kept on.
const CHECK_EXTENSION: bool = true;
/// Whether the check extension is kept to checks that lose nothing by
/// SEE (sacrificial checks are not extended).
const SAFE_CHECK_EXTENSION: bool = false;
/// Extra late-move reduction at cut nodes (a move that fails low there is
/// rarely the refutation).
const CUT_NODE_REDUCTION: i32 = 2;
/// Whether a late move at a non-PV node is reduced one ply more.
const NON_PV_REDUCTION: bool = true;
/// Whether a checking move, or any move at a node in check, is reduced one
/// ply less.
const CHECK_LMR_RELIEF: bool = true;
/// Whether quiet checks are spared the quiet moves' pruning (move count,
/// futility, quiet SEE) and only SEE-pruned like captures.
const PRUNING_SPARES_CHECKS: bool = true;

/// The late-move reduction table, by depth and move number.
fn reduction(depth: i32, move_count: usize) -> i32 {
    static TABLE: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = Box::new([[0u8; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = LMR_BASE + (d as f32).ln() * (m as f32).ln() / LMR_DIVISOR;
                *r = v.max(0.0) as u8;
            }
        }
        t
    });
    i32::from(t[(depth as usize).min(63)][move_count.min(63)])
}

/// The depth left to the child of move number `move_count` once the late
/// move reduction's table is taken off: what the move-loop prunings judge
/// a move by (may be negative).
fn reduced_depth(depth: i32, move_count: usize) -> i32 {
    depth - 1 - reduction(depth, move_count)
}

/// The late-move reduction of move number `move_count` (not the first),
/// or `None` when the move is not a late move (searched unreduced).
fn late_move_reduction(node: &NodeState, mv: &MoveState, move_count: usize) -> Option<i32> {
    let (depth, kind) = (node.depth, node.kind);
    let pv_node = kind == NodeKind::Pv;
    if depth < 2
        || move_count <= 1 + usize::from(pv_node)
        || !(mv.quiet || mv.order < 0 || !pv_node)
    {
        return None;
    }
    let mut r = reduction(depth, move_count);
    if kind == NodeKind::Cut {
        r += CUT_NODE_REDUCTION;
    }
    if mv.quiet && node.tt_capture {
        r += TT_CAPTURE_REDUCTION;
    }
    let pv_like = pv_node || (TT_PV_LMR && node.tt_pv);
    r += i32::from(!pv_like && NON_PV_REDUCTION) + i32::from(!node.improving);
    if mv.order >= KILLER_SCORE {
        r -= 1;
    }
    if CHECK_LMR_RELIEF && (mv.check || node.in_check) {
        r -= 1;
    }
    if mv.quiet {
        r -= mv.order / LMR_HISTORY_DIV;
    }
    Some(r.clamp(0, depth - 2))
}

/// Largest static evaluation used (well inside the TT's 16-bit scores and
/// below [`MATE_BOUND`]).
const MAX_STATIC_EVAL: i32 = 20_000;
/// Whether a legal TT move is searched before the node's moves are
/// generated (and its mate in one looked for).
const TT_MOVE_BEFORE_GENERATION: bool = true;
/// Whether the move loop reads the history of plain quiet moves only once
/// the captures, killers and countermove before them are searched.
const LAZY_QUIET_SCORING: bool = true;
/// Whether the root's static evaluation is set before the iterations, so
/// that the "improving" flag of the nodes at ply 2 compares with it (the
/// root is not searched by [`Worker::search`], whose step 3 sets it
/// everywhere else). Off, the root's entry keeps 0: at ply 2 "improving"
/// then means a static evaluation above 0. On in session 36's `s36-ext`
/// with [`super::tactics`]' `SEE_PINS` and the quiescence search's
/// `QS_PROMOTING_CAPTURE_PRUNING` (docs/search-results.md).
const ROOT_STATIC_EVAL: bool = true;
/// Whether the static evaluation is corrected by the correction history
/// (`search/correction.rs`).
const CORRECTION_HISTORY: bool = true;
/// Whether a non-PV node's fail-high score is pulled toward `beta` by
/// `depth / (depth + 1)` before it is stored and returned (Stockfish's
/// fail-high blending; in the quiescence search, halfway).
pub(super) const FAIL_HIGH_BLEND: bool = true;
/// Whether a node that fails low rewards the parent's quiet move in the
/// parent side's butterfly and continuation history (Stockfish's prior
/// countermove bonus).
const PRIOR_QUIET_BONUS: bool = true;
/// Whether a TT cutoff at or above `beta` by a quiet TT move rewards that
/// move's butterfly and continuation history.
const TT_CUT_HISTORY: bool = true;
/// Whether the repetition scan stops at the last null move of the path
/// (Stockfish's plies from null): a position before it is no repetition.
const REPETITION_AFTER_NULL_ONLY: bool = false;
/// Whether a node in check hands the static evaluation of two plies
/// before on to its stack entry, so that the "improving" flag two plies
/// below compares with four plies back instead of being off.
const IMPROVING_THROUGH_CHECKS: bool = false;
/// Whether a PV node re-searches with its window a move whose reduced
/// null-window search failed high without a re-search, and at the
/// re-search's adjusted depth (Stockfish). This and the two switches
/// above are session 37's `s37-fix` (docs/search-results.md), off until
/// measured.
const PV_RESEARCH_EVERY_FAIL_HIGH: bool = false;
/// Whether a cutoff lowers the capture history of the captures searched
/// before the move that cut (Stockfish's capture malus).
const CAPTURE_HISTORY_MALUS: bool = true;
/// Whether a fail high at the root updates the move-ordering statistics
/// as a cutoff inside the tree does.
const ROOT_CUTOFF_STATS: bool = true;

/// The kind of a node, as the parent's window and move order expect it
/// (Stockfish's PV / cut / all nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// On the principal variation: searched with an open window.
    Pv,
    /// Expected to fail high (one move refutes it).
    Cut,
    /// Expected to fail low (every move is searched).
    All,
}

impl NodeKind {
    /// The kind expected of a null-window child searched without
    /// reduction: a cut node's children are all nodes and the reverse.
    #[inline]
    fn flip(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::All,
            NodeKind::Pv | NodeKind::All => NodeKind::Cut,
        }
    }
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
    /// Half-width of the first aspiration window (0 = full window).
    pub aspiration_delta: i32,
    /// Forward candidate pruning settings (`None` = off).
    pub candidates: Option<CandidateParams>,
    /// The root mate probe's settings (`None` = off).
    pub mate_probe: Option<ProbeSettings<'a>>,
    /// The static evaluation.
    pub eval: Evaluator<'a>,
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
    /// Proven to lose to the opponent's mate (the defence probe): its score
    /// and line are that proof's, and it is no longer searched.
    pub refuted: bool,
}

impl RootMove {
    /// A root move not searched yet.
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            pv: vec![mv],
            seldepth: 0,
            refuted: false,
        }
    }
}

/// Output settings of the main thread.
pub struct Reporter<'a> {
    pub out: &'a Sender<String>,
    pub multi_pv: usize,
    pub pv_interval: u64,
}

/// What the search keeps per ply of the current path.
#[derive(Clone, Copy, Debug)]
pub struct Stack {
    /// Evaluation for the side to move at this ply (kept incrementally by
    /// the [`Evaluator`]).
    pub eval: i32,
    /// Static evaluation (`-INFINITE` when in check).
    pub static_eval: i32,
    /// The move being searched from this ply, [`Move::NONE`] for a null move.
    pub current: Move,
    /// Piece slot of `current` (see [`piece_slot`]).
    pub current_slot: usize,
    /// Whether `current` is a quiet move (no capture, no promotion; set
    /// only with [`PRIOR_QUIET_BONUS`]).
    pub current_quiet: bool,
    /// Whether `current` checks without losing material by SEE (set only
    /// with [`SAFE_CHECK_EXTENSION`]).
    pub safe_check: bool,
    /// The node's keys for the correction history's partial tables.
    pub partial: PartialKeys,
    /// Two quiet moves that caused cutoffs at this ply.
    pub killers: [Move; 2],
    /// Whether a null move led here (no second null move in a row).
    pub after_null: bool,
}

impl Default for Stack {
    fn default() -> Self {
        Stack {
            eval: 0,
            static_eval: 0,
            current: Move::NONE,
            current_slot: 0,
            current_quiet: false,
            safe_check: false,
            partial: PartialKeys::default(),
            killers: [Move::NONE; 2],
            after_null: false,
        }
    }
}

/// The lazy ordering of one node's moves (see
/// `order_moves`).
struct LazyOrder {
    hints: OrderHints,
    /// Whether the moves after the TT move still wait for their scores.
    unscored: bool,
}

/// Most quiet moves of a node whose history a cutoff lowers.
const MAX_MOVES_TRIED: usize = 64;

/// The quiet moves searched at a node before a cutoff (the first
/// [`MAX_MOVES_TRIED`]).
struct MovesTried {
    moves: [Move; MAX_MOVES_TRIED],
    len: usize,
}

impl Default for MovesTried {
    fn default() -> Self {
        MovesTried {
            moves: [Move::NONE; MAX_MOVES_TRIED],
            len: 0,
        }
    }
}

impl MovesTried {
    fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES_TRIED {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// What step 2 read from the transposition table for a node it did not cut.
#[derive(Clone, Copy, Debug)]
struct TtHint {
    /// The stored move ([`Move::NONE`] if none).
    mv: Move,
    /// The stored score (adjusted to the node's ply) and its bound.
    bound: Option<(i32, Bound)>,
    /// Whether the entry marks the node as on a principal variation.
    pv: bool,
}

/// The root mate probe of the main thread ([`super::mate_probe`]).
#[derive(Clone, Copy, Debug)]
pub struct ProbeSettings<'a> {
    /// The probe's table.
    pub probe: &'a MateProbe,
    /// Nodes of the probe.
    pub nodes: u64,
}

/// What steps 4-6 (razoring, reverse futility, null move) decide for a
/// node before its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodePruning {
    /// The node is cut with this score.
    Cut(i32),
    /// Search the moves: the null move was mated (the opponent threatens
    /// mate).
    MateThreat,
    /// Search the moves.
    Search,
}

/// What the node search knows about its node before the move loop.
#[derive(Clone, Copy, Debug)]
struct NodeState {
    key: u64,
    kind: NodeKind,
    ply: usize,
    /// Depth left: after the check extension; the pruning of steps 4-6
    /// sees it before the mate-threat extension and the internal iterative
    /// reduction, the moves after them.
    depth: i32,
    in_check: bool,
    tt_move: Move,
    /// Whether the node is a PV node or was one when its TT entry was
    /// stored (Stockfish's ttPv).
    tt_pv: bool,
    /// Whether the TT move is legal here and captures (set by the move
    /// loop once the moves are generated).
    tt_capture: bool,
    /// Static evaluation with the correction history (`-INFINITE` in check).
    corrected_eval: i32,
    /// `corrected_eval`, or a TT bound on the right side of it.
    static_eval: i32,
    /// Whether `static_eval` is above the one two plies before.
    improving: bool,
}

/// Step 5, reverse futility pruning: whether a node with `depth` left and
/// static evaluation `static_eval` fails high against `beta` without a
/// search. Never against a mated beta: a static evaluation proves no
/// escape from a mate (Stockfish's `!is_loss(beta)`).
fn reverse_futile(depth: i32, static_eval: i32, beta: i32, improving: bool) -> bool {
    depth <= RFP_DEPTH
        && static_eval.abs() < MATE_BOUND
        && beta > -MATE_BOUND
        && static_eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
}

/// One move of the move loop with what its pruning and reduction use.
#[derive(Clone, Copy, Debug)]
struct MoveState {
    m: Move,
    /// Its move-ordering score.
    order: i32,
    /// Neither a capture nor a promotion.
    quiet: bool,
    /// Whether it checks.
    check: bool,
}

/// The state of one search thread.
pub struct Worker<'a> {
    pub(super) sh: &'a Shared<'a>,
    id: usize,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub(super) moves: Vec<ScoredMoves>,
    /// Scratch list of the checking moves of a node (the mate-in-1 probe).
    checks: MoveList,
    pub(super) stack: Vec<Stack>,
    /// The network's accumulators per ply (used only when the network
    /// evaluates).
    pub(super) accs: Vec<Accumulator>,
    pub(super) history: History,
    /// Keys of the game history then of the current search path, each with
    /// whether the move that reached it gave check.
    pub(super) keys: Vec<(u64, bool)>,
    pub(super) root_index: usize,
    pv: Vec<[Move; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    /// Counts path-dependent mate scores (repetition results that are not
    /// draws); a node whose subtree produced one does not store a mate score.
    pub(super) path_mates: u64,
    /// Where the main thread reports (`None` for helpers).
    report: Option<&'a Reporter<'a>>,
    /// The iteration being searched and when the last info line went out.
    pub(super) current_depth: u32,
    last_info: Instant,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    kind: BoardKind,
    /// How steady the best move has been (main thread, time management).
    stability: Stability,
    /// Root moves the defence probe has looked at in this search.
    defended: Vec<Move>,
}

impl<'a> Worker<'a> {
    /// A worker for thread `id` searching the last position of `history`
    /// (the game's keys, oldest first) whose legal moves are `root`.
    /// `stats` are the thread's move-ordering statistics from earlier
    /// searches (see [`Worker::into_result`]).
    pub fn new(
        sh: &'a Shared<'a>,
        id: usize,
        history: &[(u64, bool)],
        root: Vec<Move>,
        stats: History,
    ) -> Self {
        let mut keys = history.to_vec();
        let root_index = keys.len() - 1;
        keys.resize(root_index + MAX_PLY + 3, (0, false));
        Worker {
            sh,
            id,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            moves: (0..MAX_PLY + 2).map(|_| ScoredMoves::default()).collect(),
            checks: MoveList::new(),
            stack: vec![Stack::default(); MAX_PLY + 3],
            accs: vec![Accumulator::default(); MAX_PLY + 3],
            history: stats,
            keys,
            root_index,
            pv: vec![[Move::NONE; MAX_PLY + 2]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            path_mates: 0,
            report: None,
            current_depth: 0,
            last_info: Instant::now(),
            root_moves: root.into_iter().map(RootMove::new).collect(),
            completed_depth: 0,
            kind: BoardKind::Standard,
            stability: Stability::default(),
            defended: Vec::new(),
        }
    }

    /// The root moves (best first), the last completed depth and the
    /// history tables, for the next search of this thread.
    pub fn into_result(self) -> (Vec<RootMove>, u32, History) {
        (self.root_moves, self.completed_depth, self.history)
    }

    /// The static evaluation at `ply`, kept clear of mate scores (an
    /// `EvalFile` with extreme weights cannot fake a mate).
    #[inline]
    pub(super) fn static_value(&self, ply: usize) -> i32 {
        self.stack[ply]
            .eval
            .clamp(-MAX_STATIC_EVAL, MAX_STATIC_EVAL)
    }

    /// The static evaluation at `ply` plus the correction history's offset
    /// for `pos` (when [`CORRECTION_HISTORY`] is on).
    #[inline]
    pub(super) fn corrected_value(&self, pos: &Position, ply: usize) -> i32 {
        if !CORRECTION_HISTORY {
            return self.static_value(ply);
        }
        (self.static_value(ply) + self.history.correction.value(pos, &self.stack[ply].partial))
            .clamp(-MAX_STATIC_EVAL, MAX_STATIC_EVAL)
    }

    // ---- stopping ---------------------------------------------------------

    /// Counts a node; returns whether the search must stop.
    #[inline]
    pub(super) fn visit(&mut self) -> bool {
        if self.stopped {
            // Nothing is searched (or counted) after the search stopped: a
            // node limit is never overrun.
            return true;
        }
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
    pub(super) fn draw_score(&self, pos: &Position) -> i32 {
        if pos.side_to_move() == self.sh.root_color {
            self.sh.draw_value
        } else {
            -self.sh.draw_value
        }
    }

    /// The score of the node at `idx` (ply `ply`) if it repeats an earlier
    /// position of the path or of the recent game history.
    pub(super) fn repetition(&mut self, pos: &Position, idx: usize, ply: usize) -> Option<i32> {
        let key = self.keys[idx].0;
        let mut limit = self.root_index.saturating_sub(HISTORY_LOOKBACK);
        if REPETITION_AFTER_NULL_ONLY
            && let Some(q) = (1..=ply).rev().find(|&q| self.stack[q].after_null)
        {
            // A cycle through a null move is no repetition of the game.
            limit = self.root_index + q;
        }
        let mut j = idx.checked_sub(4)?;
        loop {
            if j < limit {
                return None;
            }
            if self.keys[j].0 == key {
                let v = self.cycle_score(pos, j, idx, ply);
                if v.abs() >= MATE_BOUND {
                    self.path_mates += 1;
                }
                return Some(v);
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
    pub(super) fn move_limit_reached(&self, pos: &Position) -> bool {
        self.sh.max_moves_to_draw != 0 && pos.move_number() > self.sh.max_moves_to_draw
    }

    // ---- bookkeeping -----------------------------------------------------------

    /// Plays `m` from the node at `ply`: records the child's key, whether
    /// `m` checks, the move (its piece slot, whether it is quiet) at `ply`,
    /// and the child's evaluation and partial keys. Returns the child.
    #[inline]
    pub(super) fn make(&mut self, pos: &Position, m: Move, ply: usize, check: bool) -> Position {
        let child = pos.play(m);
        self.sh.tt.prefetch(child.key());
        self.keys[self.root_index + ply + 1] = (child.key(), check);
        // Without a network `after_acc` is `after` and leaves the
        // accumulators alone.
        let (parents, children) = self.accs.split_at_mut(ply + 1);
        let eval = self.sh.eval.after_acc(
            pos,
            self.stack[ply].eval,
            m,
            &child,
            &parents[ply],
            &mut children[0],
        );
        let safe_check = SAFE_CHECK_EXTENSION && check && see_ge(pos, m, 0);
        let s = &mut self.stack[ply];
        s.safe_check = safe_check;
        s.current = m;
        s.current_slot = piece_slot(pos, m);
        s.current_quiet = PRIOR_QUIET_BONUS && !m.is_promotion() && captured(pos, m).is_none();
        let partial = s.partial.after(pos, m);
        let next = &mut self.stack[ply + 1];
        next.partial = partial;
        next.eval = eval;
        next.after_null = false;
        child
    }

    /// The continuation-history keys of the moves [`CONT_PLIES`] plies
    /// before the node at `ply` (none before the root).
    pub(super) fn cont_keys(&self, pos: &Position, ply: usize) -> ContKeys {
        self.cont_keys_of(pos.side_to_move().index(), ply)
    }

    /// [`cont_keys`](Self::cont_keys) for the moves of side `us` (index)
    /// at `ply`.
    fn cont_keys_of(&self, us: usize, ply: usize) -> ContKeys {
        CONT_PLIES.map(|back| {
            let s = self.stack[ply.checked_sub(back)?];
            ContKey::new(us, s.current_slot, s.current)
        })
    }

    /// Moves quiet move `m` (piece `slot`) of side `us` (index) by `b` in
    /// the butterfly history and in the continuation history after `cont`.
    fn update_quiet_history(&mut self, us: usize, cont: &ContKeys, slot: usize, m: Move, b: i32) {
        self.history.update_quiet(us, slot, m, b);
        self.history.update_continuation(cont, slot, m, b);
    }

    /// A TT cutoff at or above beta at `ply` by TT move `m`: rewards `m`'s
    /// history when it is a legal quiet move ([`TT_CUT_HISTORY`]).
    fn reward_tt_cut(&mut self, pos: &Position, ply: usize, m: Move, depth: i32) {
        if m.is_none() || m.is_promotion() || !is_legal_fast(pos, m) || captured(pos, m).is_some() {
            return;
        }
        let us = pos.side_to_move().index();
        let cont = self.cont_keys(pos, ply);
        self.update_quiet_history(us, &cont, piece_slot(pos, m), m, bonus(depth));
    }

    /// The node at `ply` failed low: the parent's move refuted everything,
    /// so a quiet one gains history for the parent's side
    /// ([`PRIOR_QUIET_BONUS`]).
    fn reward_prior_quiet(&mut self, pos: &Position, ply: usize, depth: i32) {
        let prev = self.stack[ply - 1];
        if prev.current.is_none() || !prev.current_quiet {
            return;
        }
        let them = pos.side_to_move().flip().index();
        let cont = self.cont_keys_of(them, ply - 1);
        self.update_quiet_history(them, &cont, prev.current_slot, prev.current, bonus(depth));
    }

    /// A cutoff by quiet move `m` at `ply`: killers, countermove, and
    /// history (the quiets searched before it lose what it gains).
    fn update_quiet_stats(
        &mut self,
        pos: &Position,
        ply: usize,
        m: Move,
        depth: i32,
        tried: &[Move],
    ) {
        let s = &mut self.stack[ply];
        if s.killers[0] != m {
            s.killers[1] = s.killers[0];
            s.killers[0] = m;
        }
        if ply > 0 {
            let prev = self.stack[ply - 1];
            self.history
                .set_counter_move(prev.current_slot, prev.current, m);
        }
        let us = pos.side_to_move().index();
        let cont = self.cont_keys(pos, ply);
        let b = bonus(depth);
        self.update_quiet_history(us, &cont, piece_slot(pos, m), m, b);
        for &q in tried {
            if q != m {
                self.update_quiet_history(us, &cont, piece_slot(pos, q), q, -b);
            }
        }
    }

    #[inline]
    pub(super) fn clear_pv(&mut self, ply: usize) {
        self.pv_len[ply] = ply;
    }

    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }

    // ---- the node search ---------------------------------------------------

    /// Alpha-beta search of `pos` at distance `ply` from the root; the
    /// caller has recorded `pos` in `keys[root_index + ply]` and its
    /// evaluation in `stack[ply]`.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        kind: NodeKind,
    ) -> i32 {
        // Step 1. Path: repetition, depth, node count, mate distance.
        self.clear_pv(ply);
        if let Some(v) = self.repetition(pos, self.root_index + ply, ply) {
            return v;
        }
        let in_check = pos.in_check();
        if CHECK_EXTENSION
            && in_check
            && (!SAFE_CHECK_EXTENSION || ply == 0 || self.stack[ply - 1].safe_check)
            && self.may_extend(ply)
        {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if let Some(v) = self.enter(pos, &mut alpha, &mut beta, ply) {
            return v;
        }
        let path_mates = self.path_mates;

        // Step 2. Transposition table.
        let key = pos.key();
        let mut tt = TtHint {
            mv: Move::NONE,
            bound: None,
            pv: false,
        };
        if let Some(e) = self.sh.tt.probe(key) {
            let s = score_from_tt(e.score, ply);
            if kind != NodeKind::Pv && e.depth >= depth && e.bound.cuts(s, alpha, beta) {
                if TT_CUT_HISTORY && s >= beta {
                    self.reward_tt_cut(pos, ply, e.mv, depth);
                }
                return s;
            }
            tt = TtHint {
                mv: e.mv,
                bound: Some((s, e.bound)),
                pv: e.pv,
            };
        }

        // Step 3. Static evaluation and the improving flag.
        let mut node = self.node_state(pos, key, kind, ply, depth, tt);

        // Steps 4-6. Pruning before the moves.
        if kind != NodeKind::Pv && !in_check {
            match self.prune_node(pos, &node, alpha, beta) {
                NodePruning::Cut(v) => return v,
                // A mate threat seen by the null move extends the node.
                NodePruning::MateThreat if MATE_THREAT_EXTENSION && self.may_extend(ply) => {
                    node.depth += 1;
                }
                NodePruning::MateThreat | NodePruning::Search => {}
            }
            if self.stopped {
                return 0;
            }
        }

        // Step 7. Internal iterative reduction.
        if tt.mv.is_none() && node.depth >= IIR_MIN_DEPTH {
            node.depth -= 1;
        }

        // Step 8. Moves; mate and game ends. A legal TT move is searched
        // before the others are generated (most cut nodes need no more).
        let check_info = CheckInfo::new(pos);
        let tt_first = TT_MOVE_BEFORE_GENERATION
            && self.sh.candidates.is_none()
            && is_legal_fast(pos, node.tt_move);
        debug_assert_eq!(
            is_legal_fast(pos, node.tt_move),
            !node.tt_move.is_none() && is_legal(pos, node.tt_move)
        );
        if !tt_first && let Some((v, _)) = self.generate(pos, &node, &check_info) {
            return v;
        }

        // Steps 9-13. The moves.
        let Some((best, best_move)) =
            self.move_loop(pos, &node, &check_info, alpha, beta, tt_first)
        else {
            return 0;
        };
        debug_assert!(best != -INFINITE, "the first move is never pruned");
        if best == -INFINITE {
            // No move searched (the first move is never pruned and the
            // candidate selection keeps one): a fail low, unstored.
            return alpha;
        }

        // Step 14. Store; the correction history learns from the result.
        let mut best = best;
        if FAIL_HIGH_BLEND
            && kind != NodeKind::Pv
            && best >= beta
            && best.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
        {
            best = (best * node.depth + beta) / (node.depth + 1);
        }
        if PRIOR_QUIET_BONUS && best_move.is_none() && ply > 0 {
            self.reward_prior_quiet(pos, ply, node.depth);
        }
        let bound = Bound::of(best, alpha, beta);
        if CORRECTION_HISTORY && !in_check {
            let eval = node.corrected_eval;
            self.update_correction(pos, ply, best, best_move, (eval, bound), node.depth);
        }
        if self.path_mates == path_mates || best.abs() < MATE_BOUND {
            let score = score_to_tt(best, ply);
            self.sh
                .tt
                .store(key, best_move, score, node.depth, bound, node.tt_pv);
        }
        best
    }

    /// Whether a node at `ply` may be extended (check and mate-threat
    /// extensions), bounded so that chains of them cannot run away.
    #[inline]
    fn may_extend(&self, ply: usize) -> bool {
        ply < (2 * self.current_depth as usize).min(MAX_PLY / 2)
    }

    /// Step 1's bookkeeping once the node is searched at full width: the
    /// node count, the selective depth, the ply limit, mate-distance
    /// pruning and the game's move limit. Returns the score to return, if
    /// any.
    fn enter(
        &mut self,
        pos: &Position,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
    ) -> Option<i32> {
        if self.visit() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return Some(self.corrected_value(pos, ply));
        }
        *alpha = (*alpha).max(mated_in(ply));
        *beta = (*beta).min(mate_in(ply + 1));
        if *alpha >= *beta {
            return Some(*alpha);
        }
        self.move_limit_reached(pos).then(|| self.draw_score(pos))
    }

    /// Step 3: the node's static evaluation (corrected, then bettered by a
    /// TT bound on the right side of it) and whether it improves on two
    /// plies before.
    fn node_state(
        &mut self,
        pos: &Position,
        key: u64,
        kind: NodeKind,
        ply: usize,
        depth: i32,
        tt: TtHint,
    ) -> NodeState {
        let in_check = pos.in_check();
        let corrected_eval = if in_check {
            -INFINITE
        } else {
            self.corrected_value(pos, ply)
        };
        let static_eval = match tt.bound {
            Some((s, b)) if !in_check => b.refine(corrected_eval, s),
            _ => corrected_eval,
        };
        // A node in check passes on the evaluation two plies before, so
        // that the nodes below it compare with four plies back.
        self.stack[ply].static_eval = if in_check && IMPROVING_THROUGH_CHECKS && ply >= 2 {
            self.stack[ply - 2].static_eval
        } else {
            static_eval
        };
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != -INFINITE
            && static_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 2].killers = [Move::NONE; 2];
        NodeState {
            key,
            kind,
            ply,
            depth,
            in_check,
            tt_move: tt.mv,
            tt_pv: kind == NodeKind::Pv || tt.pv,
            tt_capture: false,
            corrected_eval,
            static_eval,
            improving,
        }
    }

    /// Steps 4-6 at a non-PV node not in check: razoring, reverse futility
    /// pruning, null move: a cut, a mate threat, or nothing.
    fn prune_node(
        &mut self,
        pos: &Position,
        node: &NodeState,
        alpha: i32,
        beta: i32,
    ) -> NodePruning {
        let (depth, ply, static_eval) = (node.depth, node.ply, node.static_eval);
        // Step 4. Razoring.
        if depth <= RAZOR_DEPTH && static_eval + RAZOR_MARGIN * depth < alpha {
            let v = self.qsearch(pos, alpha - 1, alpha, ply);
            if v < alpha {
                return NodePruning::Cut(v);
            }
        }
        // Step 5. Reverse futility pruning.
        let rfp_allowed = !RFP_AS_STOCKFISH
            || (!node.tt_pv && (node.tt_move.is_none() || captured(pos, node.tt_move).is_some()));
        if rfp_allowed && reverse_futile(depth, static_eval, beta, node.improving) {
            return NodePruning::Cut(static_eval);
        }
        // Step 6. Null move.
        self.null_move(pos, beta, depth, ply, static_eval)
    }

    /// Step 8: generates the legal moves (with the checks when not in
    /// check) into `moves[ply]`. Returns the score and best move when the
    /// node ends here: no legal move ([`Move::NONE`]), or a mate in one
    /// (stored, and the PV at a PV node).
    fn generate(
        &mut self,
        pos: &Position,
        node: &NodeState,
        check_info: &CheckInfo,
    ) -> Option<(i32, Move)> {
        let ply = node.ply;
        if node.in_check {
            legal_moves(pos, &mut self.moves[ply].list);
        } else {
            legal_moves_and_checks(pos, check_info, &mut self.moves[ply].list, &mut self.checks);
        }
        if self.moves[ply].list.is_empty() {
            return Some((mated_in(ply), Move::NONE));
        }
        if node.in_check {
            return None;
        }
        let m = mate_in_one(pos, &self.checks)?;
        let v = mate_in(ply + 1);
        self.sh.tt.store(
            node.key,
            m,
            score_to_tt(v, ply),
            node.depth,
            Bound::Exact,
            node.tt_pv,
        );
        if node.kind == NodeKind::Pv {
            self.clear_pv(ply + 1);
            self.update_pv(ply, m);
        }
        Some((v, m))
    }

    /// The move-ordering hints of the node at `ply`.
    fn order_hints(&self, pos: &Position, node: &NodeState) -> OrderHints {
        let (ply, tt_move) = (node.ply, node.tt_move);
        OrderHints {
            tt_move,
            killers: self.stack[ply].killers,
            counter: if ply > 0 {
                let prev = self.stack[ply - 1];
                self.history.counter_move(prev.current_slot, prev.current)
            } else {
                Move::NONE
            },
            cont: self.cont_keys(pos, ply),
        }
    }

    /// Steps 9-13: orders the moves, keeps the candidates (forward
    /// candidate pruning), and searches them best first. Returns the best
    /// score and move (`Move::NONE` if none beat `alpha`), or `None` if the
    /// search was stopped.
    fn move_loop(
        &mut self,
        pos: &Position,
        node: &NodeState,
        check_info: &CheckInfo,
        mut alpha: i32,
        beta: i32,
        tt_first: bool,
    ) -> Option<(i32, Move)> {
        let ply = node.ply;
        let mut node = *node;
        let mut order = if tt_first {
            self.tt_move_alone(pos, &mut node)
        } else {
            self.order_moves(pos, &mut node)
        };
        // Step 9. Forward candidate pruning.
        // With the TT move alone, the list's length is known once the moves
        // are generated at `i == 1`.
        let mut n = if tt_first {
            2
        } else {
            self.candidate_count(pos, &node, &mut order)?
        };

        // Step 10. The move loop.
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut quiets = MovesTried::default();
        let mut captures = MovesTried::default();
        let mut i = 0;
        while i < n {
            if i == 1 {
                if tt_first {
                    // The TT move did not cut: the other moves now.
                    // A mate in one: its move is the node's best (the
                    // node stores it and rewards no prior quiet move).
                    if let Some(mate) = self.generate(pos, &node, check_info) {
                        return Some(mate);
                    }
                    let found = self.moves[ply].tt_move_first(node.tt_move);
                    debug_assert!(found, "a legal TT move is among the moves");
                    n = self.moves[ply].len();
                    if n == 1 {
                        break;
                    }
                }
                self.score_pending(pos, ply, &mut order);
            }
            let (m, order_score) = if i == 0 && tt_first {
                (node.tt_move, TT_MOVE_SCORE)
            } else {
                let m = self.moves[ply].next_lazy(i, pos, &order.hints, &self.history);
                (m, self.moves[ply].score(i))
            };
            i += 1;
            // Every move taken counts, pruned or not.
            let move_count = i;
            let mv = MoveState {
                m,
                order: order_score,
                quiet: is_quiet(pos, m),
                check: check_info.gives_check(pos, m),
            };

            // Step 11. Pruning at shallow depth.
            if best > -MATE_BOUND && self.prune_move(pos, &node, &mv, move_count, alpha) {
                continue;
            }

            // Step 12. Make the move; late-move reductions; PVS.
            let child = self.make(pos, m, ply, mv.check);
            let score = self.search_move(&child, &node, &mv, (move_count, best), (alpha, beta));
            if self.stopped {
                return None;
            }

            // Step 13. New best move.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if node.kind == NodeKind::Pv {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let tried = (quiets.as_slice(), captures.as_slice());
                        self.update_cutoff_stats(pos, ply, m, node.depth, tried);
                        break;
                    }
                    if ALPHA_RAISE_REDUCTION
                        && (3..=ALPHA_RAISE_MAX_DEPTH).contains(&node.depth)
                        && score.abs() < MATE_BOUND
                    {
                        node.depth -= 2;
                    }
                }
            }
            if mv.quiet {
                quiets.push(m);
            } else if captured(pos, m).is_some() {
                captures.push(m);
            }
        }
        Some((best, best_move))
    }

    /// Puts the TT move first; the other moves are scored only when the TT
    /// move does not cut ([`score_pending`](Self::score_pending)). Sets
    /// `node.tt_capture` (only a TT move found among the legal moves counts).
    fn order_moves(&mut self, pos: &Position, node: &mut NodeState) -> LazyOrder {
        let ply = node.ply;
        let hints = self.order_hints(pos, node);
        let unscored = self.moves[ply].tt_move_first(node.tt_move);
        node.tt_capture = unscored && captured(pos, node.tt_move).is_some();
        if !unscored {
            if self.defers_quiets() {
                self.moves[ply].score_all_lazy(pos, &hints, &self.history);
            } else {
                self.moves[ply].score_all(pos, &hints, &self.history);
            }
        }
        LazyOrder { hints, unscored }
    }

    /// The ordering of a node whose legal TT move is searched before the
    /// moves are generated: nothing scored yet. Sets `node.tt_capture`.
    fn tt_move_alone(&mut self, pos: &Position, node: &mut NodeState) -> LazyOrder {
        let hints = self.order_hints(pos, node);
        node.tt_capture = captured(pos, node.tt_move).is_some();
        LazyOrder {
            hints,
            unscored: true,
        }
    }

    /// Scores the moves after the TT move if that is still to be done.
    fn score_pending(&mut self, pos: &Position, ply: usize, order: &mut LazyOrder) {
        if order.unscored {
            if self.defers_quiets() {
                self.moves[ply].score_rest_lazy(pos, &order.hints, &self.history);
            } else {
                self.moves[ply].score_rest(pos, &order.hints, &self.history);
            }
            order.unscored = false;
        }
    }

    /// Whether the move loop reads the quiets' history only when it reaches
    /// them ([`ScoredMoves::next_lazy`]); not with forward candidate
    /// pruning, which ranks the whole list first.
    fn defers_quiets(&self) -> bool {
        LAZY_QUIET_SCORING && self.sh.candidates.is_none()
    }

    /// Step 9. Forward candidate pruning: at enough depth only the best few
    /// moves of a shallow search go on at full depth. Returns how many moves
    /// the loop takes (`None`: the search stopped).
    fn candidate_count(
        &mut self,
        pos: &Position,
        node: &NodeState,
        order: &mut LazyOrder,
    ) -> Option<usize> {
        let ply = node.ply;
        match self.sh.candidates {
            Some(params) if !node.in_check && node.depth >= params.min_depth => {
                self.score_pending(pos, ply, order);
                let n = self.select_candidates(pos, node.depth, ply, params);
                (!self.stopped).then_some(n)
            }
            _ => Some(self.moves[ply].len()),
        }
    }

    /// Step 11: whether move number `move_count` is skipped at shallow
    /// depth (late-move pruning, futility and SEE pruning of quiets, SEE
    /// pruning of captures and checks).
    fn prune_move(
        &self,
        pos: &Position,
        node: &NodeState,
        mv: &MoveState,
        move_count: usize,
        alpha: i32,
    ) -> bool {
        let depth = node.depth;
        let m = mv.m;
        let lmp_limit = (LMP_BASE + depth * depth) / (2 - i32::from(node.improving));
        let late = depth <= LMP_DEPTH && move_count as i32 > lmp_limit && mv.order < KILLER_SCORE;
        if !mv.quiet || (mv.check && PRUNING_SPARES_CHECKS) {
            if CAPTURE_FUTILITY && self.futile_capture(pos, node, mv, move_count, alpha) {
                return true;
            }
            return depth <= SEE_DEPTH && !see_ge(pos, m, -SEE_CAPTURE_MARGIN * depth);
        }
        if let Some(per_depth) = HISTORY_PRUNING_PER_DEPTH
            && mv.order < KILLER_SCORE
            && mv.order < -per_depth * depth
        {
            return true;
        }
        let mut lmr_depth = reduced_depth(depth, move_count);
        if let Some(div) = HISTORY_LMR_DEPTH_DIV
            && mv.order < KILLER_SCORE
        {
            lmr_depth += mv.order / div;
        }
        let lmr_depth = lmr_depth.max(0);
        if late {
            return true;
        }
        let futility = node.static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth;
        if !node.in_check
            && lmr_depth <= FUTILITY_DEPTH
            && futility <= alpha
            && mv.order < KILLER_SCORE
        {
            return true;
        }
        lmr_depth <= SEE_DEPTH && !see_ge(pos, m, -SEE_QUIET_MARGIN * lmr_depth * lmr_depth)
    }

    /// Step 11 for a capture that does not check, not in check: whether
    /// the static evaluation plus what it wins and the futility margin of
    /// its reduced depth stays at or below `alpha` ([`CAPTURE_FUTILITY`]).
    fn futile_capture(
        &self,
        pos: &Position,
        node: &NodeState,
        mv: &MoveState,
        move_count: usize,
        alpha: i32,
    ) -> bool {
        if mv.check || node.in_check {
            return false;
        }
        let Some(victim) = captured(pos, mv.m) else {
            return false;
        };
        let lmr_depth = reduced_depth(node.depth, move_count).max(0);
        lmr_depth < CAPTURE_FUTILITY_DEPTH
            && node.static_eval
                + FUTILITY_BASE
                + FUTILITY_PER_DEPTH * lmr_depth
                + capture_gain(victim)
                <= alpha
    }

    /// Step 12: searches `child`, reached by move number `move_count`:
    /// the first move with the node's window (`alpha`, `beta`), the others
    /// with a null window (reduced when late), re-searched on a fail high
    /// (deeper or shallower by how far it beat `best`, the best score so
    /// far, with [`LMR_DEPTH_ADJUST`]).
    fn search_move(
        &mut self,
        child: &Position,
        node: &NodeState,
        mv: &MoveState,
        (move_count, best): (usize, i32),
        (alpha, beta): (i32, i32),
    ) -> i32 {
        let (ply, kind) = (node.ply, node.kind);
        let new_depth = node.depth - 1;
        if move_count == 1 {
            let child_kind = if kind == NodeKind::Pv {
                NodeKind::Pv
            } else {
                kind.flip()
            };
            return -self.search(child, -beta, -alpha, new_depth, ply + 1, child_kind);
        }
        let reduction = late_move_reduction(node, mv, move_count);
        let r = reduction.unwrap_or(0);
        let child_kind = if reduction.is_some() {
            NodeKind::Cut
        } else {
            kind.flip()
        };
        let mut score = -self.search(
            child,
            -alpha - 1,
            -alpha,
            new_depth - r,
            ply + 1,
            child_kind,
        );
        let mut full_depth = new_depth;
        if score > alpha && r > 0 && !self.stopped {
            if LMR_DEPTH_ADJUST {
                full_depth +=
                    i32::from(score > best + DEEPER_MARGIN + DEEPER_PER_DEPTH * new_depth);
                full_depth -= i32::from(score < best + SHALLOWER_MARGIN);
            }
            if full_depth > new_depth - r {
                score = -self.search(child, -alpha - 1, -alpha, full_depth, ply + 1, kind.flip());
            }
        }
        // A PV node re-searches with its window every move that beat alpha
        // (at the re-search's depth; a fail high of a reduced search that
        // was not re-searched is no proof).
        let unproven = PV_RESEARCH_EVERY_FAIL_HIGH && full_depth == new_depth - r && r > 0;
        if kind == NodeKind::Pv && score > alpha && (score < beta || unproven) && !self.stopped {
            let depth = if PV_RESEARCH_EVERY_FAIL_HIGH {
                full_depth
            } else {
                new_depth
            };
            score = -self.search(child, -beta, -alpha, depth, ply + 1, NodeKind::Pv);
        }
        score
    }

    /// Moves the correction of `pos` towards the search result `best` (a
    /// `bound`) when the result says on which side of the corrected
    /// evaluation `eval` the truth lies; not after a capture (the quiescence
    /// search's business) nor for mate scores.
    fn update_correction(
        &mut self,
        pos: &Position,
        ply: usize,
        best: i32,
        best_move: Move,
        (eval, bound): (i32, Bound),
        depth: i32,
    ) {
        if best.abs() >= MATE_BOUND || (!best_move.is_none() && captured(pos, best_move).is_some())
        {
            return;
        }
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best > eval,
            Bound::Upper => best < eval,
        };
        if informative {
            let keys = self.stack[ply].partial;
            self.history
                .correction
                .update(pos, &keys, best - eval, depth);
        }
    }

    /// Updates the move-ordering statistics after `m` refuted the node;
    /// `tried` holds the quiet moves and the captures searched before it.
    fn update_cutoff_stats(
        &mut self,
        pos: &Position,
        ply: usize,
        m: Move,
        depth: i32,
        (quiets, captures): (&[Move], &[Move]),
    ) {
        let us = pos.side_to_move().index();
        let b = bonus(depth);
        if let Some(victim) = captured(pos, m) {
            self.history
                .update_capture(us, piece_slot(pos, m), m, victim, b);
        } else if !m.is_promotion() {
            self.update_quiet_stats(pos, ply, m, depth, quiets);
        }
        if CAPTURE_HISTORY_MALUS {
            for &c in captures.iter().filter(|&&c| c != m) {
                if let Some(victim) = captured(pos, c) {
                    self.history
                        .update_capture(us, piece_slot(pos, c), c, victim, -b);
                }
            }
        }
    }

    /// Null-move pruning: if passing still fails high at reduced depth, the
    /// node fails high (a cut); if passing is mated, the opponent threatens
    /// mate.
    fn null_move(
        &mut self,
        pos: &Position,
        beta: i32,
        depth: i32,
        ply: usize,
        static_eval: i32,
    ) -> NodePruning {
        if depth < NMP_MIN_DEPTH
            || static_eval < beta
            || self.stack[ply].after_null
            || beta.abs() >= MATE_BOUND
            || pos.king_square(pos.side_to_move()).is_none()
        {
            return NodePruning::Search;
        }
        let r = NMP_BASE
            + depth / NMP_DEPTH_DIV
            + ((static_eval - beta) / NMP_EVAL_DIV).min(NMP_EVAL_MAX);
        let mut child = pos.clone();
        child.set_side_to_move(pos.side_to_move().flip());
        child.finish();
        self.sh.tt.prefetch(child.key());
        self.keys[self.root_index + ply + 1] = (child.key(), false);
        self.stack[ply].current = Move::NONE;
        self.stack[ply].current_slot = 0;
        if self.sh.eval.uses_network() {
            self.accs[ply + 1] = self.accs[ply];
        }
        self.stack[ply + 1].eval = self
            .sh
            .eval
            .null(self.stack[ply].eval, &self.accs[ply], &child);
        self.stack[ply + 1].after_null = true;
        self.stack[ply + 1].partial = self.stack[ply].partial;
        let v = -self.search(
            &child,
            -beta,
            -beta + 1,
            depth - 1 - r,
            ply + 1,
            NodeKind::All,
        );
        self.stack[ply + 1].after_null = false;
        if self.stopped {
            NodePruning::Search
        } else if v >= beta {
            NodePruning::Cut(if v >= MATE_BOUND { beta } else { v })
        } else if v <= -MATE_BOUND {
            NodePruning::MateThreat
        } else {
            NodePruning::Search
        }
    }

    // ---- the root ------------------------------------------------------------

    /// Searches the root moves from `pv_idx` on to `depth` with the window
    /// (`alpha`, `beta`); the best lands at `pv_idx`. Returns the best
    /// score, or `None` if the search was stopped.
    fn root_search(
        &mut self,
        pos: &Position,
        depth: i32,
        pv_idx: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        for rm in &mut self.root_moves[pv_idx..] {
            if !rm.refuted {
                rm.score = -INFINITE;
            }
        }
        self.clear_pv(0);
        let mut best = -INFINITE;
        let (mut quiets, mut captures) = (MovesTried::default(), MovesTried::default());
        // The first move searched gets the full window (a refuted move is
        // skipped, and one refuted now hands the role to the next).
        let mut first = true;
        for i in pv_idx..self.root_moves.len() {
            if self.root_moves[i].refuted {
                continue;
            }
            let m = self.root_moves[i].mv;
            let check = gives_check(pos, m);
            let child = self.make(pos, m, 0, check);
            let mut score;
            if first {
                score = -self.search(&child, -beta, -alpha, depth - 1, 1, NodeKind::Pv);
            } else {
                score = -self.search(&child, -alpha - 1, -alpha, depth - 1, 1, NodeKind::Cut);
                if score > alpha && !self.stopped {
                    score = -self.search(&child, -beta, -alpha, depth - 1, 1, NodeKind::Pv);
                }
            }
            if self.stopped {
                break;
            }
            if first || score > alpha {
                self.record_root_move(pos, i, score, (alpha, beta));
                if DEFENCE_PROBE && depth >= DEFENCE_MIN_DEPTH && self.refute(pos, i) {
                    continue;
                }
            }
            best = best.max(score);
            if ROOT_CUTOFF_STATS && score >= beta {
                let tried = (quiets.as_slice(), captures.as_slice());
                self.update_cutoff_stats(pos, 0, m, depth, tried);
            }
            if score >= beta || (first && score <= alpha && alpha > -INFINITE) {
                // Fail high, or the first move fails low: the caller widens
                // the window and searches again.
                break;
            }
            first = false;
            alpha = alpha.max(score);
            if is_quiet(pos, m) {
                quiets.push(m);
            } else if captured(pos, m).is_some() {
                captures.push(m);
            }
        }
        // Stable: moves that did not beat alpha keep their order; refuted
        // moves go last.
        self.root_moves[pv_idx..].sort_by_key(|rm| (rm.refuted, std::cmp::Reverse(rm.score)));
        (!self.stopped).then_some(best)
    }

    /// One iteration at `depth` for the `pv_idx`-th line, with an aspiration
    /// window around the last score from [`ASPIRATION_MIN_DEPTH`] on.
    /// Returns whether it completed.
    fn aspiration(&mut self, pos: &Position, depth: u32, pv_idx: usize, multi_pv: usize) -> bool {
        let prev = self.root_moves[pv_idx].score;
        let mut delta = self.sh.aspiration_delta;
        let use_window = delta > 0
            && multi_pv == 1
            && depth >= ASPIRATION_MIN_DEPTH
            && prev > -INFINITE
            && prev.abs() < MATE_BOUND;
        let (mut alpha, mut beta) = if use_window {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            self.seldepth = 0;
            let Some(score) = self.root_search(pos, depth as i32, pv_idx, alpha, beta) else {
                return false;
            };
            if score <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = if score.abs() >= MATE_BOUND {
                    -INFINITE
                } else {
                    (score - delta).max(-INFINITE)
                };
            } else if score >= beta && beta < INFINITE {
                beta = if score.abs() >= MATE_BOUND {
                    INFINITE
                } else {
                    (score + delta).min(INFINITE)
                };
            } else {
                return true;
            }
            delta += delta / 2 + 1;
        }
    }

    /// Orders the root moves before the first iteration (TT move, captures).
    fn order_root(&mut self, pos: &Position) {
        let tt_move = self.sh.tt.probe(pos.key()).map_or(Move::NONE, |e| e.mv);
        let sm = &mut self.moves[0];
        sm.list.clear();
        for rm in &self.root_moves {
            sm.list.push(rm.mv);
        }
        let hints = OrderHints {
            tt_move,
            killers: [Move::NONE; 2],
            counter: Move::NONE,
            cont: [None; CONT_PLIES.len()],
        };
        sm.score_all(pos, &hints, &self.history);
        let mut order = Vec::with_capacity(sm.len());
        for i in 0..sm.len() {
            order.push(sm.next(i));
        }
        self.root_moves
            .sort_by_key(|rm| order.iter().position(|&m| m == rm.mv));
    }

    /// The root mate probe: unless the search already sees a mate, looks for
    /// our mate by checks with df-pn. A proven mate becomes the best root
    /// move's exact score and line; returns whether one was proven (the
    /// search then ends: a proof is final).
    fn prove_mate(&mut self, pos: &Position) -> bool {
        let Some(probes) = self.sh.mate_probe else {
            return false;
        };
        if self.root_moves[0].score >= MATE_BOUND {
            return false;
        }
        let limits = (probes.nodes, PROBE_MIN_NODES, PROBE_TIME_PERCENT);
        let Some(line) = self.run_probe(probes.probe, pos, self.root_index, limits) else {
            return false;
        };
        let Some(i) = self.root_moves.iter().position(|rm| rm.mv == line[0]) else {
            return false; // not among the `searchmoves`
        };
        let rm = &mut self.root_moves[i];
        rm.score = mate_in(line.len());
        rm.seldepth = rm.seldepth.max(line.len());
        rm.pv = line;
        self.root_moves[..=i].rotate_right(1);
        true
    }

    /// Root move `i` got `score` from a search with the window (`alpha`,
    /// `beta`): keeps it with its line.
    fn record_root_move(
        &mut self,
        pos: &Position,
        i: usize,
        score: i32,
        (alpha, beta): (i32, i32),
    ) {
        let m = self.root_moves[i].mv;
        let len = self.pv_len[1].max(1);
        let mut pv = vec![m];
        pv.extend_from_slice(&self.pv[1][1..len]);
        let exact = score > alpha && score < beta;
        let rm = &mut self.root_moves[i];
        rm.score = score;
        rm.seldepth = self.seldepth;
        // A bound's line may stop where the child failed: a line of one
        // move is read on from the table (Stockfish's rule).
        rm.pv = if exact || pv.len() >= 2 { pv } else { vec![m] };
        if !exact {
            extend_pv_from_tt(self.sh.tt, pos, &mut rm.pv, TT_PV_MAX);
        }
    }

    /// The defence probe ([`DEFENCE_PROBE`]) of root move `i`, about to
    /// become the best: once a search, in the main thread of a single-line
    /// search, looks for the opponent's mate after it. A proven mate gives
    /// the move its exact losing score and line and sets it aside (never
    /// the last move not set aside, nor when the search sees a mate either
    /// way). Returns whether the move was set aside.
    fn refute(&mut self, pos: &Position, i: usize) -> bool {
        let Some(probes) = self.sh.mate_probe else {
            return false;
        };
        let rm = &self.root_moves[i];
        let single = self.report.is_some_and(|r| r.multi_pv == 1);
        let live = self.root_moves.iter().filter(|r| !r.refuted).count();
        if !single || live <= 1 || rm.score.abs() >= MATE_BOUND || self.defended.contains(&rm.mv) {
            return false;
        }
        let mv = rm.mv;
        self.defended.push(mv);
        let Some(line) = self.opponent_mate(pos, mv, probes) else {
            return false;
        };
        if DEFENCE_MAX_MATE.is_some_and(|most| line.len() > most) {
            return false;
        }
        let rm = &mut self.root_moves[i];
        rm.score = mated_in(line.len() + 1);
        rm.prev_score = rm.score;
        rm.pv = std::iter::once(mv).chain(line).collect();
        rm.refuted = true;
        true
    }

    /// The opponent's mate after root move `mv`, if the mate probe proves
    /// one within the defence probe's budget.
    fn opponent_mate(
        &mut self,
        pos: &Position,
        mv: Move,
        probes: ProbeSettings<'_>,
    ) -> Option<Vec<Move>> {
        let limits = (
            probes.nodes / DEFENCE_NODES_DIV,
            PROBE_MIN_NODES / DEFENCE_NODES_DIV,
            DEFENCE_TIME_PERCENT,
        );
        self.run_probe(probes.probe, &pos.play(mv), self.root_index + 1, limits)
    }

    /// Runs the mate probe on `pos` for its side to move, keeping off the
    /// first `history_len` keys of the game: `limits` are its nodes, the
    /// fewest worth a probe (else none runs) and its share of the optimum
    /// time in percent. Counts its nodes; returns the proven mate's line.
    fn run_probe(
        &mut self,
        probe: &MateProbe,
        pos: &Position,
        history_len: usize,
        (nodes, min_nodes, time_percent): (u64, u64, u64),
    ) -> Option<Vec<Move>> {
        let mut nodes = nodes;
        if self.sh.node_limit > 0 {
            // The proof and the reading of its line may each take the
            // budget and overrun it by up to one poll interval.
            let left = self.sh.node_limit.saturating_sub(self.nodes);
            nodes = nodes.min(left.saturating_sub(2 * PROBE_POLL_INTERVAL) / 2);
        }
        if nodes < min_nodes {
            return None;
        }
        let keys: Vec<u64> = self.keys[..history_len].iter().map(|k| k.0).collect();
        let deadline = self.sh.budget.map(|b| {
            let share = b.optimum * time_percent / 100;
            let left = b.maximum.saturating_sub(self.sh.clock_ms());
            Instant::now() + Duration::from_millis(share.min(left))
        });
        let found = probe.probe(pos, &keys, nodes, deadline, self.sh.control);
        self.nodes += found.nodes;
        found.mate
    }

    /// Iterative deepening up to `max_depth`. The main thread (`report` is
    /// `Some`) prints info lines and decides when to stop; helpers search
    /// until the abort flag is set.
    pub fn iterate(&mut self, pos: &Position, max_depth: u32, report: Option<&'a Reporter<'a>>) {
        self.kind = pos.kind();
        self.report = report;
        self.stack[0].eval = self.sh.eval.root(pos, &mut self.accs[0]);
        self.stack[0].partial = PartialKeys::of(pos);
        if ROOT_STATIC_EVAL {
            self.stack[0].static_eval = if pos.in_check() {
                -INFINITE
            } else {
                self.corrected_value(pos, 0)
            };
        }
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
                if !self.aspiration(pos, search_depth, pv_idx, multi_pv) {
                    complete = false;
                    break;
                }
            }
            if !complete {
                break;
            }
            self.completed_depth = search_depth.min(max_depth);
            if report.is_some() && search_depth == MATE_PROBE_DEPTH && self.prove_mate(pos) {
                break;
            }
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
        self.stability.update(self.root_moves[0].mv.raw());
        if depth >= max_depth || self.sh.control.stopped() || self.sh.abort.load(Ordering::Relaxed)
        {
            return true;
        }
        if !self.sh.clock_running() {
            return false;
        }
        let best = &self.root_moves[0];
        if best.score != -INFINITE && best.score.abs() >= MATE_BOUND {
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
        let optimum = self.stability.optimum(&b);
        if elapsed >= optimum {
            return true;
        }
        // An iteration takes several times the last; do not start one that
        // cannot finish (unless unused time is lost anyway).
        !b.use_all && elapsed * 10 >= optimum * 6
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

/// Longest root line [`extend_pv_from_tt`] makes for a bound.
const TT_PV_MAX: usize = 32;

/// Extends `pv` (legal from `pos`) with the table's moves while they are
/// legal and no position repeats, up to `max_len` moves.
pub fn extend_pv_from_tt(tt: &Tt, pos: &Position, pv: &mut Vec<Move>, max_len: usize) {
    let mut p = pos.clone();
    let mut seen = vec![p.key()];
    for &m in pv.iter() {
        p = p.play(m);
        seen.push(p.key());
    }
    while pv.len() < max_len {
        let Some(e) = tt.probe(p.key()) else {
            return;
        };
        if e.mv.is_none() || !is_legal(&p, e.mv) {
            return;
        }
        let child = p.play(e.mv);
        if seen.contains(&child.key()) {
            return;
        }
        seen.push(child.key());
        pv.push(e.mv);
        p = child;
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
    use crate::sfen::{parse_move, parse_sfen};

    fn line(pos: &Position, moves: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        moves
            .iter()
            .map(|t| {
                let m = parse_move(&p, t).unwrap();
                p = p.play(m);
                m
            })
            .collect()
    }

    #[test]
    fn reverse_futility_never_claims_an_escape_from_a_mate() {
        // Far above an ordinary beta: cut.
        assert!(reverse_futile(1, 500, 0, false));
        // Not at too great a depth, nor with too small a margin.
        assert!(!reverse_futile(RFP_DEPTH + 1, 5000, 0, false));
        assert!(!reverse_futile(2, RFP_MARGIN, 0, false));
        // A mated beta (the search asks whether the side escapes a mate):
        // never, however high the static evaluation.
        assert!(!reverse_futile(1, 5000, mated_in(7) + 1, false));
        assert!(!reverse_futile(1, 5000, -MATE_BOUND, true));
        assert!(reverse_futile(1, 5000, -MATE_BOUND + 1, true));
    }

    #[test]
    fn a_bound_pv_is_read_on_from_the_table_while_legal_and_new() {
        let start = parse_sfen(super::super::BENCH_POSITIONS[0]).unwrap();
        let tt = Tt::new(1);
        // The table holds the line 7g7f 3c3d 8h2b+ 3a2b 2g2f.
        let moves = line(&start, &["7g7f", "3c3d", "8h2b+", "3a2b"]);
        let mut p = start.clone();
        for &m in &moves {
            tt.store(p.key(), m, 0, 5, Bound::Exact, true);
            p = p.play(m);
        }
        let last = parse_move(&p, "2g2f").unwrap();
        tt.store(p.key(), last, 0, 5, Bound::Exact, true);
        let mut pv = vec![moves[0]];
        extend_pv_from_tt(&tt, &start, &mut pv, TT_PV_MAX);
        // After 2g2f nothing is stored: the line ends there.
        let mut want = moves.clone();
        want.push(last);
        assert_eq!(pv, want);

        // A cycle stops the line before the position repeats.
        let shuffle = line(&start, &["5i4h", "5a4b", "4h5i", "4b5a"]);
        let tt = Tt::new(1);
        let mut p = start.clone();
        for &m in &shuffle {
            tt.store(p.key(), m, 0, 5, Bound::Exact, true);
            p = p.play(m);
        }
        let mut pv = vec![shuffle[0]];
        extend_pv_from_tt(&tt, &start, &mut pv, TT_PV_MAX);
        assert_eq!(pv, shuffle[..3].to_vec());

        // An illegal table move ends the line.
        let tt = Tt::new(1);
        let after = start.play(moves[0]);
        tt.store(after.key(), moves[0], 0, 5, Bound::Exact, true);
        let mut pv = vec![moves[0]];
        extend_pv_from_tt(&tt, &start, &mut pv, TT_PV_MAX);
        assert_eq!(pv, vec![moves[0]]);
    }
}
