//! The search: what `go` asks for ([`Limits`]), the engine settings it reads
//! ([`SearchOptions`]), the flags shared with the USI thread ([`Control`]),
//! the persistent [`Searcher`] (owner of the transposition table), and
//! [`bench()`].
//!
//! # How the USI shell drives it
//! ```text
//! let mut searcher = Searcher::new(options.hash_mb);   // at start-up
//! searcher.resize(options.hash_mb);   // at `isready` (no-op if unchanged)
//! searcher.clear();                   // at `usinewgame`
//! control.reset(limits.ponder);       // at `go`, on the USI thread
//! searcher.think(&game, &limits, &options, &control, &sender); // search thread
//! control.stop() / control.ponderhit()  // from the USI thread meanwhile
//! let r = bench(depth, "", &sender);  // `bench [depth]`, BENCH_DEPTH by default
//! ```
//! [`Searcher::think`] takes `&self`, so the shell may keep the searcher in
//! an `Arc` (or `Arc<Mutex<_>>`/`RwLock` to call `resize`/`clear` between
//! searches) and call it from the search thread.
//!
//! # Contract with the USI shell
//! - [`Searcher::think`] runs on the search thread and returns only after it
//!   has sent exactly one final line: `bestmove <move> [ponder <move>]` (or
//!   `bestmove resign` / `bestmove win`), or for `go mate` exactly one
//!   `checkmate <moves>` / `checkmate nomate` / `checkmate timeout` line.
//! - In `go infinite` and `go ponder` it sends no `bestmove` before
//!   [`Control::stop`] is set (infinite), or before `stop` or
//!   [`Control::ponderhit`] (ponder); a search that ends early waits,
//!   polling every millisecond. After `ponderhit` the normal time budget
//!   applies from [`Control::clock_start`]. `go mate` replies as soon as the
//!   result is known (also for `go mate infinite`); `timeout` comes when the
//!   time is up or on `stop`.
//! - Every other line it sends is a complete `info ...` line (no newline),
//!   ASCII only. The line just before `bestmove` is always a full
//!   `info depth .. seldepth .. score cp|mate .. nodes .. nps .. time ..
//!   hashfull .. pv ..` line (with MultiPV, the final block is sent from the
//!   last `multipv` down to `multipv 1`, so the best line comes last).
//!
//! # What the search does
//! Iterative deepening, PVS alpha-beta with a shared transposition table,
//! capture quiescence, MVV-LVA / TT move / killer / history ordering, check
//! extension and late-move reductions; see [`alphabeta`] for the rules of
//! game ends inside the tree and [`time`] for the time budget. `Threads` > 1
//! adds lazy-SMP helper threads sharing the table (not with a node limit:
//! then one thread searches). `MultiPV` k searches the best k root moves
//! one after another and reports each with `multipv i`.
//! - The main thread's [`mate_probe`] (df-pn, a small node budget; not
//!   with `MultiPV` > 1, `searchmoves` or `MaxMovesToDraw`) looks for our
//!   mate after iteration 2 unless the search already sees one; a proven
//!   mate (not always the shortest) ends the search, `go infinite` too,
//!   with `score mate N` and the checked line.
//! - A bare `go` with no limit of any kind thinks [`time::DEFAULT_MOVE_MS`].
//! - `DrawValueBlack`/`DrawValueWhite` are the value of a draw for the
//!   engine when it plays sente/gote (YaneuraOu's meaning); the opponent's
//!   draw is the negation.
//! - `ResignValue` (0 = off): `bestmove resign` if the final score is below
//!   minus it. No legal move at the root: `bestmove resign`. 入玉宣言 possible
//!   at the root (`EnteringKingRule`): `bestmove win` at once.
//! - `MaxMovesToDraw` N (0 = off): a node reached after N plies of the game
//!   (by the SFEN move number) scores as a draw, unless it is mate.
//! - Mate scores print as `score mate N`, N in plies, negative when mated
//!   (`score mate -0` before `bestmove resign` when no legal move is left,
//!   `score mate 1` before `bestmove win`).
//! - Info lines: one full line per completed iteration, but at most one per
//!   `PvInterval` ms (the final full line is always sent); inside an
//!   iteration longer than a second, a progress line `info depth .. seldepth
//!   .. nodes .. nps .. time .. hashfull ..` (no score) at most once per
//!   second (or per `PvInterval`, if longer).
//! - [`bench()`]`(depth, eval_file, &sender) -> BenchResult`: [`BENCH_POSITIONS`] (9x9,
//!   5x5, 3x3) to `depth` (0 = [`BENCH_DEPTH`]), one thread, a fresh 16 MiB
//!   table; sends one `info string bench k/N ...` line per position and a
//!   final `info string bench depth D positions N nodes N time T nps X`.

use crate::entering_king::{EnteringKingRule, can_declare, try_rule_move};
use crate::eval::{EvalKind, Evaluator, Network, Weights};
use crate::game::Game;
use crate::movegen::legal_moves;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::Color;
use crossbeam_channel::Sender;
use history::History;
use mate_probe::MateProbe;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub mod candidates;
pub mod correction;
pub mod history;
pub mod mate_probe;
pub mod movepick;
pub mod qsearch;
pub mod quick_mate;
// Named after Stockfish's search.cpp: the node search inside `search/`.
#[allow(clippy::module_inception)]
pub mod search;
pub mod tactics;
pub mod time;
pub mod tt;

pub use crate::mate::{MateResult, mate_search};
pub use candidates::CandidateParams;
pub use search::{MAX_DEPTH, MAX_PLY};
pub use time::{Budget, budget};
pub use tt::Tt;

/// The limits of one `go` command, in milliseconds where a time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Sente's remaining time.
    pub btime: Option<u64>,
    /// Gote's remaining time.
    pub wtime: Option<u64>,
    /// Sente's Fischer increment.
    pub binc: Option<u64>,
    /// Gote's Fischer increment.
    pub winc: Option<u64>,
    /// Byoyomi per move.
    pub byoyomi: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<u64>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search until `ponderhit` (then play on the clock) or `stop`.
    pub ponder: bool,
    /// `go mate`: `Some(None)` for `go mate infinite`, `Some(Some(ms))` for a time limit.
    pub mate: Option<Option<u64>>,
    /// `go ... searchmoves m1 m2 ...`: the root considers only these moves
    /// (legal moves of the searched position; empty = every legal move).
    pub search_moves: Vec<Move>,
}

/// Engine settings the search reads (set by `setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Transposition table size in MiB (`USI_Hash`).
    pub hash_mb: usize,
    /// Search threads (`Threads`).
    pub threads: usize,
    /// Size of `go mate`'s table in MiB (`MateHash`).
    pub mate_hash_mb: usize,
    /// Number of principal variations to report (`MultiPV`).
    pub multi_pv: usize,
    /// Milliseconds kept back from every byoyomi/movetime move (`NetworkDelay`).
    pub network_delay: u64,
    /// Milliseconds kept back when the move must end by the byoyomi (`NetworkDelay2`).
    pub network_delay2: u64,
    /// Least time to spend on a move (`MinimumThinkingTime`).
    pub minimum_thinking_time: u64,
    /// Percent scaling of the time budget (`SlowMover`).
    pub slow_mover: u64,
    /// Depth cap, 0 = none (`DepthLimit`).
    pub depth_limit: u32,
    /// Node cap, 0 = none (`NodesLimit`).
    pub nodes_limit: u64,
    /// 入玉宣言 rule (`EnteringKingRule`).
    pub entering_king_rule: EnteringKingRule,
    /// Score of a draw for the engine when it plays sente, in centipawns
    /// (`DrawValueBlack`, YaneuraOu's meaning; the opponent's is the negation).
    pub draw_value_black: i32,
    /// Score of a draw for the engine when it plays gote, in centipawns
    /// (`DrawValueWhite`).
    pub draw_value_white: i32,
    /// Game length in plies after which the game is a draw, 0 = none (`MaxMovesToDraw`).
    pub max_moves_to_draw: u32,
    /// Least milliseconds between two `info` lines within an iteration (`PvInterval`).
    pub pv_interval: u64,
    /// Resign when the score is below minus this, 0 = never (`ResignValue`).
    pub resign_value: i32,
    /// Half-width in centipawns of the root's first aspiration window, 0 =
    /// full window (`AspirationDelta`).
    pub aspiration_delta: i32,
    /// Forward candidate pruning on/off (`CandidatePruning`).
    pub candidate_pruning: bool,
    /// Moves kept at full depth by candidate pruning (`CandidateMoves`).
    pub candidate_moves: u32,
    /// Depth of candidate pruning's ranking search (`CandidateDepth`).
    pub candidate_depth: u32,
    /// Least remaining depth where candidate pruning applies (`CandidateMinDepth`).
    pub candidate_min_depth: u32,
    /// The static evaluation (`Evaluation`).
    pub evaluation: EvalKind,
    /// A weights file for the learned evaluation, empty = built in (`EvalFile`).
    pub eval_file: String,
}

/// Default of `AspirationDelta` (centipawns; set by measurement, see
/// docs/search-results.md).
pub const DEFAULT_ASPIRATION_DELTA: i32 = 60;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 16,
            threads: 1,
            mate_hash_mb: crate::mate::DEFAULT_MATE_HASH_MB,
            multi_pv: 1,
            network_delay: 120,
            network_delay2: 1120,
            minimum_thinking_time: 2000,
            slow_mover: 100,
            depth_limit: 0,
            nodes_limit: 0,
            entering_king_rule: EnteringKingRule::CsaRule27,
            draw_value_black: -2,
            draw_value_white: -2,
            max_moves_to_draw: 0,
            pv_interval: 300,
            resign_value: 0,
            aspiration_delta: DEFAULT_ASPIRATION_DELTA,
            candidate_pruning: false,
            candidate_moves: 5,
            candidate_depth: 3,
            candidate_min_depth: 7,
            evaluation: EvalKind::Learned,
            eval_file: String::new(),
        }
    }
}

/// Flags shared between the USI thread and a running search.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the clock started for this move (reset by `ponderhit`).
    clock_start: Mutex<Instant>,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
        }
    }
}

impl Control {
    /// Prepares for a new `go`: clears `stop`, starts the clock.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Asks the search to end now (`stop`, `gameover`, `quit`).
    pub fn stop(&self) {
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether the search must end now.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the ponder move: the clock starts now.
    pub fn ponderhit(&self) {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is pondering (no clock running yet).
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// When the clock for this move started.
    pub fn clock_start(&self) -> Instant {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner())
    }
}

// ---- scores ------------------------------------------------------------------

/// The score of mating now (mate in 0 plies); mate in n plies is `VALUE_MATE - n`.
pub const VALUE_MATE: i32 = 32_000;
/// Larger than any score.
pub const INFINITE: i32 = 32_001;
/// Scores at or beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = VALUE_MATE - 1_000;

/// The score of giving mate `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    VALUE_MATE - ply as i32
}

/// The score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -VALUE_MATE + ply as i32
}

/// A score as stored in the table: mate scores relative to the node.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from a node `ply` plies from the root.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The USI form of a score: `cp X` or `mate N` (plies, negative when mated).
pub fn format_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", VALUE_MATE - score)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", VALUE_MATE + score)
    } else {
        format!("cp {score}")
    }
}

// ---- the searcher ------------------------------------------------------------

/// Stack size of every search thread (the search recurses up to [`MAX_PLY`]).
const SEARCH_STACK: usize = 64 << 20;

/// What one search found (also sent as USI lines).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move played, `None` for `resign`/`win` or `go mate`.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Final score from the side to move's view.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// The final line sent (`bestmove ...` or `checkmate ...`).
    pub final_line: String,
}

/// The engine's persistent search state: the transposition table, kept
/// between searches (see the module documentation for its use).
#[derive(Debug)]
pub struct Searcher {
    tt: Tt,
    /// The learned evaluation's weights (built in or from `EvalFile`).
    weights: Weights,
    /// The network that evaluates 9x9 (built in, or from an `EvalFile`
    /// network file; `None` after a linear weights file).
    network: Option<Box<Network>>,
    /// The `EvalFile` the weights came from (empty: built in).
    eval_file: String,
    /// The last `EvalFile` refused (its error was reported).
    failed_eval_file: Option<String>,
    /// Each thread's history tables, kept from one move of a game to the
    /// next (cleared with the table).
    histories: Mutex<Vec<History>>,
    /// The root mate probe's table.
    mate_probe: MateProbe,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` MiB (`USI_Hash`).
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mb),
            weights: Weights::built_in(),
            network: Some(Box::new(Network::built_in())),
            eval_file: String::new(),
            failed_eval_file: None,
            histories: Mutex::new(Vec::new()),
            mate_probe: MateProbe::default(),
        }
    }

    /// Loads the weights `EvalFile` names (empty: the built-in linear
    /// weights and network) unless they are loaded already. A network file
    /// (`examples/train_nn.rs`) replaces the built-in network of 9x9 (the
    /// other boards keep the built-in linear weights); a linear weights file
    /// (`examples/train_eval.rs`) evaluates every board linearly, without a
    /// network. A file that cannot be read or is not a complete weights or
    /// network file is refused with the reason (once per path: a later call
    /// tries it again silently, so a repaired file loads), and the built-in
    /// evaluation is used.
    pub fn load_eval(&mut self, eval_file: &str) -> Result<(), String> {
        if eval_file == self.eval_file {
            return Ok(());
        }
        let loaded = if eval_file.is_empty() {
            Ok((Weights::built_in(), Some(Box::new(Network::built_in()))))
        } else {
            std::fs::read(eval_file)
                .map_err(|e| e.to_string())
                .and_then(|bytes| {
                    if bytes.starts_with(crate::eval::network::MAGIC) {
                        let net = Network::parse(&bytes).map_err(|e| e.to_string())?;
                        Ok((Weights::built_in(), Some(Box::new(net))))
                    } else if bytes.starts_with(crate::eval::network::FLOAT_MAGIC) {
                        Err(
                            "a float network (the trainer's --float-out); load its --out file"
                                .to_string(),
                        )
                    } else {
                        let w = Weights::parse(&bytes).map_err(|e| e.to_string())?;
                        Ok((w, None))
                    }
                })
        };
        match loaded {
            Ok((w, net)) => {
                self.weights = w;
                self.network = net;
                self.eval_file = eval_file.to_string();
                self.failed_eval_file = None;
                Ok(())
            }
            Err(e) => {
                if !self.eval_file.is_empty() {
                    self.weights = Weights::built_in();
                    self.network = Some(Box::new(Network::built_in()));
                    self.eval_file = String::new();
                }
                if self.failed_eval_file.as_deref() == Some(eval_file) {
                    return Ok(());
                }
                self.failed_eval_file = Some(eval_file.to_string());
                Err(format!(
                    "EvalFile '{eval_file}': {e}; using the built-in evaluation"
                ))
            }
        }
    }

    /// Resizes the table to `hash_mb` MiB (call at `isready`); does nothing
    /// if the size is unchanged, else the contents are lost.
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt.resize(hash_mb);
    }

    /// Empties the table (the shell calls it at `isready` before a game).
    /// A fresh zeroed allocation is much faster than writing zeros over a
    /// large table: the system hands out zero pages lazily.
    pub fn clear(&mut self) {
        let mb = self.tt.size_mb();
        self.tt = Tt::new(1);
        self.tt = Tt::new(mb);
        self.clear_history();
    }

    /// Forgets the move-ordering statistics of earlier searches.
    pub fn clear_history(&self) {
        self.lock_histories().clear();
    }

    fn lock_histories(&self) -> std::sync::MutexGuard<'_, Vec<History>> {
        self.histories
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The table size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Runs one search of `game` and sends its output lines to `out` (see the
    /// module documentation for the contract). Returns what was found.
    pub fn think(
        &self,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions,
        control: &Control,
        out: &Sender<String>,
    ) -> SearchResult {
        let start = Instant::now();
        let pos = game.position();
        // 1. `go mate`: the tsume solver answers.
        if let Some(time) = limits.mate {
            return go_mate(pos, time, options, control, out);
        }
        self.tt.new_search();
        // 2. Answers without a search: a declaration, a try, no legal move.
        if let Some(answer) = rule_answer(pos, options) {
            return finish(limits, control, out, vec![answer.info], &answer.final_line);
        }
        let root = root_moves(pos, limits);
        if root.is_empty() {
            let info = "info depth 0 seldepth 0 score mate -0 nodes 0 nps 0 time 0 hashfull 0";
            return finish(limits, control, out, vec![info.into()], "bestmove resign");
        }
        // 3. The settings every thread shares.
        let plan = Plan::new(limits, options, root.len());
        let abort = AtomicBool::new(false);
        let thread_nodes: Vec<AtomicU64> = (0..plan.threads).map(|_| AtomicU64::new(0)).collect();
        let shared = self.shared(
            pos,
            limits,
            options,
            &plan,
            control,
            &abort,
            &thread_nodes,
            start,
        );
        // 4. Lazy SMP: the main thread reports, the helpers fill the table.
        let reporter = search::Reporter {
            out,
            multi_pv: plan.multi_pv,
            pv_interval: options.pv_interval,
        };
        let history: Vec<(u64, bool)> = game.key_history().collect();
        let found = self.run_threads(&shared, pos, &history, &root, &plan, &reporter);
        let (root_moves, depth) = found.unwrap_or_else(|| {
            // The search thread failed: still play a legal move.
            (vec![search::RootMove::new(root[0])], 0)
        });
        // 5. The last info lines and `bestmove`.
        self.conclude(
            pos,
            limits,
            options,
            control,
            out,
            &shared,
            &plan,
            &root_moves,
            depth,
        )
    }

    /// The shared state of one search of `pos`.
    #[allow(clippy::too_many_arguments)]
    fn shared<'a>(
        &'a self,
        pos: &Position,
        limits: &Limits,
        options: &SearchOptions,
        plan: &Plan,
        control: &'a Control,
        abort: &'a AtomicBool,
        thread_nodes: &'a [AtomicU64],
        start: Instant,
    ) -> search::Shared<'a> {
        let us = pos.side_to_move();
        let budget = budget(limits, options, us, pos.kind());
        let probe_nodes = mate_probe::node_budget(budget.map(|b| b.optimum), plan.node_limit);
        search::Shared {
            tt: &self.tt,
            control,
            abort,
            thread_nodes,
            budget,
            node_limit: plan.node_limit,
            root_color: us,
            draw_value: match us {
                Color::Sente => options.draw_value_black,
                Color::Gote => options.draw_value_white,
            },
            max_moves_to_draw: options.max_moves_to_draw,
            infinite: limits.infinite,
            start,
            aspiration_delta: options.aspiration_delta,
            eval: Evaluator::with_network(
                options.evaluation,
                &self.weights,
                self.network.as_deref(),
                pos.kind(),
            ),
            candidates: options.candidate_pruning.then_some(CandidateParams {
                moves: options.candidate_moves.max(1) as usize,
                depth: options.candidate_depth.max(1) as i32,
                min_depth: options.candidate_min_depth.max(2) as i32,
            }),
            // Off where its mate may not be the game's result or the move
            // may not be allowed: a move limit, `searchmoves`, MultiPV.
            mate_probe: (plan.multi_pv == 1
                && options.max_moves_to_draw == 0
                && limits.search_moves.is_empty())
            .then_some(search::ProbeSettings {
                probe: &self.mate_probe,
                nodes: probe_nodes,
            }),
        }
    }

    /// Runs the main thread and the helpers (each with its history tables
    /// from the last search) until the main thread ends; returns the main
    /// thread's root moves and depth (`None` if it failed).
    fn run_threads(
        &self,
        shared: &search::Shared<'_>,
        pos: &Position,
        history: &[(u64, bool)],
        root: &[Move],
        plan: &Plan,
        reporter: &search::Reporter<'_>,
    ) -> Option<(Vec<search::RootMove>, u32)> {
        let mut histories = std::mem::take(&mut *self.lock_histories());
        histories.resize_with(plan.threads, History::default);
        let run = |id: usize, h: History| {
            let mut w = search::Worker::new(shared, id, history, root.to_vec(), h);
            w.iterate(pos, plan.max_depth, (id == 0).then_some(reporter));
            w.into_result()
        };
        let mut kept = Vec::with_capacity(plan.threads);
        let main_result = std::thread::scope(|s| {
            let mut hs = histories.into_iter();
            let main_history = hs.next().unwrap_or_default();
            let helpers: Vec<_> = hs
                .enumerate()
                .filter_map(|(i, h)| {
                    std::thread::Builder::new()
                        .stack_size(SEARCH_STACK)
                        .spawn_scoped(s, move || run(i + 1, h).2)
                        .ok()
                })
                .collect();
            let main = std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(s, || run(0, main_history));
            let r = match main {
                Ok(h) => h.join().ok(),
                Err(_) => Some(run(0, History::default())),
            };
            shared.abort.store(true, Ordering::Relaxed);
            let r = r.map(|(root_moves, depth, h)| {
                kept.push(h);
                (root_moves, depth)
            });
            kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            r
        });
        *self.lock_histories() = kept;
        main_result
    }

    /// Sends the final info lines and `bestmove` (or `resign`) of a search
    /// that ended with `root_moves` (best first) at `depth`.
    #[allow(clippy::too_many_arguments)]
    fn conclude(
        &self,
        pos: &Position,
        limits: &Limits,
        options: &SearchOptions,
        control: &Control,
        out: &Sender<String>,
        shared: &search::Shared<'_>,
        plan: &Plan,
        root_moves: &[search::RootMove],
        depth: u32,
    ) -> SearchResult {
        let nodes = shared.total_nodes();
        let ms = shared.start.elapsed().as_millis() as u64;
        let hashfull = self.tt.hashfull();
        let best = &root_moves[0];
        let mut lines = if depth == 0 && best.score == -INFINITE {
            vec![format!(
                "info depth 0 seldepth 0 score {} nodes {nodes} nps {} time {ms} hashfull {hashfull} pv {}",
                format_score(shared.eval.evaluate(pos)),
                nodes * 1000 / ms.max(1),
                best.mv
            )]
        } else {
            search::format_info(root_moves, depth, plan.multi_pv, nodes, ms, hashfull)
        };
        lines.reverse();
        let score = [best.score, best.prev_score]
            .into_iter()
            .find(|&s| s != -INFINITE)
            .unwrap_or_else(|| shared.eval.evaluate(pos));
        let ponder = best.pv.get(1).copied().or_else(|| {
            let mut line = vec![best.mv];
            search::extend_pv_from_tt(&self.tt, pos, &mut line, 2);
            line.get(1).copied()
        });
        let resign = options.resign_value > 0 && depth > 0 && score < -options.resign_value;
        let final_line = match (resign, ponder) {
            (true, _) => "bestmove resign".to_string(),
            (false, Some(p)) => format!("bestmove {} ponder {p}", best.mv),
            (false, None) => format!("bestmove {}", best.mv),
        };
        let mut r = finish(limits, control, out, lines, &final_line);
        r.best = (!resign).then_some(best.mv);
        r.ponder = if resign { None } else { ponder };
        r.score = score;
        r.depth = depth;
        r.nodes = nodes;
        r
    }
}

/// What one search runs with: derived from `go` and the options.
struct Plan {
    /// Deepest iteration.
    max_depth: u32,
    /// Node limit of the whole search, 0 = none.
    node_limit: u64,
    /// Search threads (1 under a node limit, so that it is exact).
    threads: usize,
    /// Lines reported (`MultiPV`, at most the root moves).
    multi_pv: usize,
}

impl Plan {
    fn new(limits: &Limits, options: &SearchOptions, root_moves: usize) -> Plan {
        let max_depth = [limits.depth.unwrap_or(0), options.depth_limit]
            .into_iter()
            .filter(|&d| d > 0)
            .min()
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let node_limit = [limits.nodes.unwrap_or(0), options.nodes_limit]
            .into_iter()
            .filter(|&n| n > 0)
            .min()
            .unwrap_or(0);
        let threads = if node_limit > 0 {
            1
        } else {
            options.threads.clamp(1, max_useful_threads())
        };
        Plan {
            max_depth,
            node_limit,
            threads,
            multi_pv: options.multi_pv.clamp(1, root_moves),
        }
    }
}

/// `go mate`: runs the tsume solver and sends its `checkmate` line.
fn go_mate(
    pos: &Position,
    time: Option<u64>,
    options: &SearchOptions,
    control: &Control,
    out: &Sender<String>,
) -> SearchResult {
    let mate_options = crate::mate::MateOptions {
        time_ms: time,
        network_delay: options.network_delay,
        hash_mb: options.mate_hash_mb,
        threads: options.threads.clamp(1, max_useful_threads()),
        ..crate::mate::MateOptions::default()
    };
    let (r, nodes) = crate::mate::solve(pos, &mate_options, control, Some(out));
    let line = r.usi();
    let _ = out.send(line.clone());
    SearchResult {
        nodes,
        final_line: line,
        ..SearchResult::default()
    }
}

/// An answer the rules give without a search.
struct RuleAnswer {
    info: String,
    final_line: String,
}

/// The entering-king declaration (`bestmove win`) or the try rule's move to
/// the enemy king's start square, when the rules allow one now.
fn rule_answer(pos: &Position, options: &SearchOptions) -> Option<RuleAnswer> {
    const INFO: &str = "info depth 1 seldepth 1 score mate 1 nodes 0 nps 0 time 0 hashfull 0";
    if can_declare(pos, options.entering_king_rule) {
        return Some(RuleAnswer {
            info: INFO.to_string(),
            final_line: "bestmove win".to_string(),
        });
    }
    if options.entering_king_rule != EnteringKingRule::TryRule {
        return None;
    }
    try_rule_move(pos).map(|m| RuleAnswer {
        info: format!("{INFO} pv {m}"),
        final_line: format!("bestmove {m}"),
    })
}

/// The legal moves of `pos`, only those of `searchmoves` when it names any.
fn root_moves(pos: &Position, limits: &Limits) -> Vec<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    restrict_to(&mut list, &limits.search_moves);
    list.iter().copied().collect()
}

/// Keeps only the moves of `list` that are in `search_moves` (when it names
/// any of them; otherwise `list` stays whole).
fn restrict_to(list: &mut MoveList, search_moves: &[Move]) {
    if list.iter().any(|m| search_moves.contains(m)) {
        list.retain(|m| search_moves.contains(&m));
    }
}

/// Most search threads worth running: beyond a few per core the main
/// thread no longer gets the processor often enough to watch the clock
/// (measured: 256 threads on 2 cores overran a 300 ms byoyomi by 5-9 s,
/// 16 kept it).
fn max_useful_threads() -> usize {
    const PER_CORE: usize = 1;
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_mul(PER_CORE)
        .clamp(1, 256)
}

/// Waits until the final line may be sent (infinite: `stop`; ponder: `stop`
/// or `ponderhit`), then sends `lines` and `final_line`.
fn finish(
    limits: &Limits,
    control: &Control,
    out: &Sender<String>,
    lines: Vec<String>,
    final_line: &str,
) -> SearchResult {
    if limits.infinite || limits.ponder {
        while !control.stopped() && (limits.infinite || control.pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    for l in lines {
        let _ = out.send(l);
    }
    let _ = out.send(final_line.to_string());
    SearchResult {
        final_line: final_line.to_string(),
        ..SearchResult::default()
    }
}

// ---- bench -------------------------------------------------------------------

/// Default depth of [`bench()`].
pub const BENCH_DEPTH: u32 = 12;

/// The positions [`bench()`] searches: 9x9, 5x5 and 3x3.
pub const BENCH_POSITIONS: [&str; 10] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
    "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "rbsg1/4k/4p/P4/KGSBR b - 1",
    "r1s1k/2g1p/1b3/PS3/KG1BR w - 1",
    "bk1/3/1KB b Pp 1",
    "1pk/R1r/KP1 b Bb 1",
    "B1k/P1p/K1b b - 1",
];

/// Test positions: each SFEN's position and every position one legal move
/// after it.
#[cfg(test)]
pub(crate) fn positions_and_children<'a>(
    sfens: impl IntoIterator<Item = &'a str>,
) -> Vec<Position> {
    let mut all = Vec::new();
    for sfen in sfens {
        let root = crate::sfen::parse_sfen(sfen).unwrap();
        let mut list = crate::moves::MoveList::new();
        crate::movegen::legal_moves(&root, &mut list);
        all.extend(list.iter().map(|&m| root.play(m)));
        all.push(root);
    }
    all
}

/// Totals of a [`bench()`] run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Searches each of [`BENCH_POSITIONS`] to `depth` (0 = [`BENCH_DEPTH`])
/// with one thread and a fresh 16 MiB table, sending an `info string` line
/// per position and a final `info string bench ... nodes N time T nps X`
/// line to `out`. The search's own info/bestmove lines are not forwarded.
pub fn bench(depth: u32, eval_file: &str, out: &Sender<String>) -> BenchResult {
    let depth = if depth == 0 { BENCH_DEPTH } else { depth };
    let mut searcher = Searcher::new(16);
    if let Err(e) = searcher.load_eval(eval_file) {
        let _ = out.send(format!("info string error: {e}"));
    }
    let options = SearchOptions::default();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let (sink, drain) = crossbeam_channel::unbounded();
    let start = Instant::now();
    let mut nodes = 0;
    for (i, sfen) in BENCH_POSITIONS.iter().enumerate() {
        let Ok(pos) = crate::sfen::parse_sfen(sfen) else {
            continue;
        };
        let game = Game::new(pos);
        let control = Control::default();
        control.reset(false);
        searcher.tt.clear();
        searcher.clear_history();
        let r = searcher.think(&game, &limits, &options, &control, &sink);
        nodes += r.nodes;
        let _ = out.send(format!(
            "info string bench {}/{} depth {} score {} nodes {} {} sfen {sfen}",
            i + 1,
            BENCH_POSITIONS.len(),
            r.depth,
            format_score(r.score),
            r.nodes,
            r.final_line
        ));
        while drain.try_recv().is_ok() {}
    }
    let time_ms = start.elapsed().as_millis() as u64;
    let nps = nodes * 1000 / time_ms.max(1);
    let _ = out.send(format!(
        "info string bench depth {depth} positions {} nodes {nodes} time {time_ms} nps {nps}",
        BENCH_POSITIONS.len()
    ));
    BenchResult {
        nodes,
        time_ms,
        nps,
    }
}
