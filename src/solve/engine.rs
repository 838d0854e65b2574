//! Playing from solved tables: `go` on a 3x3 position.
//!
//! When the position is on the 3x3 board, [`SolverPlayer::think`] answers
//! the `go` itself if the cached table covers the position or a solve
//! finishes within the first quarter of its time share, 60% of the move's
//! hard time limit (no limit under `go infinite` or while pondering). A
//! solve runs on its own thread and goes on when the time share is over;
//! while it runs, a forward proof ([`prove`]) tries the rest of the share
//! (ended early if the solve finishes, whose table then answers), and if
//! neither answers, the search plays that move. The game's later moves come
//! from the table once it is done (every position of the game is reachable
//! from the position it started from). A
//! material set whose reachable set exceeds the memory bound is remembered
//! and not tried again: its positions are answered by a forward proof
//! ([`prove`]) when one is found within the time share (a decisive value,
//! its first move and principal line, and under `MultiPV` the other moves
//! whose exact values the rest of the time share decides; not under a
//! `go` without a clock, such as `go depth`, which only `stop` could end),
//! and by the search otherwise.
//!
//! The answer: one `info` line per legal move up to `MultiPV` (the exact
//! score `mate N`, `mate -N` or `cp 0`, and the principal line), best last
//! as `multipv 1`, then `bestmove` with a value-keeping move: the fastest
//! win, the longest loss, or a drawing move. A move that would complete a
//! fourfold repetition in the game's actual history is valued by that
//! result (a draw, or a loss for a perpetual checker) instead of the table's.

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::hybrid::{SettleLimits, Settled, settle_with};
use super::pack::Packer;
use super::prove::{MoveLine, MoveValue, ProveLimits, prove};
use super::report::{self, DRAW_LINE_PLIES};
use super::{Limits as SolveLimits, Solution, SolutionCache, SolveError, Value, solve};
use crate::game::{Game, Outcome};
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::BoardKind;
use crate::search::{Control, Limits, SearchOptions, budget};

/// Share of the move's hard time limit spent waiting for a solve (percent).
const SOLVE_TIME_PERCENT: u64 = 60;
/// Part of that share (percent) after which a solve still running is no
/// longer waited for: a forward proof tries the rest.
const PROOF_AFTER_PERCENT: u64 = 25;
/// Memory bound of a solve made during a game.
const GAME_MAX_BYTES: usize = super::DEFAULT_MAX_BYTES;
/// Most threads of a solve made during a game (fewer if `Threads` says so).
const SOLVE_THREADS: usize = 2;
/// How often a wait for a solve checks `stop` and the clock.
const POLL: Duration = Duration::from_millis(2);

/// A solve running on its own thread.
#[derive(Debug)]
struct Background {
    /// The material it solves (every position of a game shares it).
    packer: Packer,
    /// Set to abandon it.
    cancel: Arc<AtomicBool>,
    /// Its result, once there.
    result: Receiver<Result<Solution, SolveError>>,
}

/// The solver's state in the engine: the last table, a solve in progress,
/// and the material known to be too large.
#[derive(Debug, Default)]
pub struct SolverPlayer {
    cache: SolutionCache,
    background: Option<Background>,
    too_large: Option<Packer>,
}

impl Drop for SolverPlayer {
    fn drop(&mut self) {
        self.cancel_background();
    }
}

impl SolverPlayer {
    /// A player with an empty cache.
    pub fn new() -> SolverPlayer {
        SolverPlayer::default()
    }

    fn cancel_background(&mut self) {
        if let Some(b) = self.background.take() {
            b.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Takes in a finished background solve's result.
    fn absorb(&mut self, result: Result<Solution, SolveError>, packer: Packer) {
        match result {
            Ok(s) => self.cache.store(Arc::new(s)),
            Err(SolveError::TooLarge { .. }) => self.too_large = Some(packer),
            Err(_) => {}
        }
    }

    /// Checks the background solve: absorbs its result if it has one, waiting
    /// while `wait` says so; returns whether it has ended.
    fn poll_background(&mut self, wait: &dyn Fn() -> bool) -> bool {
        let Some(b) = &self.background else {
            return true;
        };
        loop {
            match b.result.recv_timeout(POLL) {
                Ok(result) => {
                    let b = self.background.take().expect("checked above");
                    self.absorb(result, b.packer);
                    return true;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.background = None;
                    return true;
                }
                Err(RecvTimeoutError::Timeout) if !wait() => return false,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Starts solving from `pos` on its own thread (after abandoning any
    /// other solve).
    fn start_background(&mut self, pos: &Position, packer: Packer, threads: usize) {
        self.cancel_background();
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = bounded(1);
        let root = pos.clone();
        let flag = Arc::clone(&cancel);
        let limits = SolveLimits {
            threads,
            max_bytes: GAME_MAX_BYTES,
            ..SolveLimits::default()
        };
        let spawned = std::thread::Builder::new()
            .name("solve".into())
            .spawn(move || {
                let stop = || flag.load(Ordering::Relaxed);
                let _ = tx.send(solve(&root, limits, &stop));
            });
        if spawned.is_ok() {
            self.background = Some(Background {
                packer,
                cancel,
                result: rx,
            });
        }
    }

    /// A solution covering `pos`, waiting for it while `wait` says so; a
    /// solve is started in the background if none covers `pos`, and goes on
    /// after this returns `None`.
    fn solution_for(
        &mut self,
        pos: &Position,
        threads: usize,
        wait: &dyn Fn() -> bool,
    ) -> Option<Arc<Solution>> {
        let packer = Packer::new(pos).ok()?;
        self.poll_background(&|| false);
        if let Some(s) = self.cache.lookup(pos) {
            return Some(s);
        }
        if self.too_large.as_ref() == Some(&packer) {
            return None;
        }
        // A running solve of the same material most likely started earlier in
        // this game, so it covers `pos`; otherwise start one from here.
        if self.background.as_ref().is_none_or(|b| b.packer != packer) {
            self.start_background(pos, packer, threads);
        }
        self.poll_background(wait);
        if let Some(s) = self.cache.lookup(pos) {
            return Some(s);
        }
        if self.background.is_none() && self.too_large.as_ref() != Some(&packer) {
            // It ended without covering `pos` (another game of the same
            // material): solve from here.
            self.start_background(pos, packer, threads);
        }
        None
    }

    /// Answers a `go` on a 3x3 position from an exact solution, sending its
    /// `info` lines and exactly one `bestmove` to `out`. Returns false, having
    /// sent nothing, when the search should play instead (not 3x3, `go
    /// mate`, no legal move, or no solution within the time share).
    pub fn think(
        &mut self,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions,
        control: &Control,
        out: &Sender<String>,
    ) -> bool {
        let pos = game.position();
        if pos.kind() != BoardKind::Ninemasu
            || limits.mate.is_some()
            || !movegen::has_legal_move(pos)
        {
            return false;
        }
        let start = Instant::now();
        let deadline = budget(limits, options, pos.side_to_move(), pos.kind())
            .filter(|_| !limits.infinite)
            .map(|b| Duration::from_millis(b.maximum * SOLVE_TIME_PERCENT / 100));
        let wait = || {
            !control.stopped()
                && (control.pondering()
                    || deadline.is_none_or(|d| control.clock_start().elapsed() < d))
        };
        let threads = options.threads.clamp(1, SOLVE_THREADS);
        // A solve is waited for during the first part of the share only
        // (the rest goes to a proof) unless the material is known too large
        // for it (then the proof has the whole share).
        let solve_share = deadline.map(|d| d * PROOF_AFTER_PERCENT as u32 / 100);
        let first_wait =
            || wait() && solve_share.is_none_or(|d| control.clock_start().elapsed() < d);
        if let Some(solution) = self.solution_for(pos, threads, &first_wait) {
            return answer_from_solution(&solution, game, limits, options, control, out, start);
        }
        // A proof runs until proved or out of time: without a clock (`go
        // depth`, `go nodes`) only `stop` would end it, so only a clock, `go
        // infinite` or `go ponder` may wait for one.
        let stoppable = deadline.is_some() || limits.infinite || limits.ponder;
        if !stoppable {
            return false;
        }
        // A decisive value may be proved sooner than the solve ends (which
        // ends the proof: its table answers then).
        let solving = || {
            self.background
                .as_ref()
                .is_some_and(|b| b.result.is_empty())
        };
        let proving = || {
            wait()
                && (solving()
                    || self
                        .too_large
                        .is_some_and(|p| Packer::new(pos).is_ok_and(|q| q == p)))
        };
        if answer_by_proof(
            game,
            limits,
            (threads, options.multi_pv),
            control,
            out,
            &proving,
            start,
        ) {
            return true;
        }
        match self.solution_for(pos, threads, &wait) {
            Some(solution) => {
                answer_from_solution(&solution, game, limits, options, control, out, start)
            }
            None => false,
        }
    }
}

/// Answers a `go` from `solution`, which covers the game's position: one
/// `info` line per move up to `MultiPV`, best last, then `bestmove`.
/// Returns false, having sent nothing, if the position has no move values.
fn answer_from_solution(
    solution: &Solution,
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    control: &Control,
    out: &Sender<String>,
    start: Instant,
) -> bool {
    let pos = game.position();
    let Some(mut moves) = solution.move_values(pos) else {
        return false;
    };
    // The actual game may end at once by repetition.
    for (m, v) in moves.iter_mut() {
        let mut next = game.clone();
        next.play(*m);
        if let Some((outcome, _)) = next.repetition() {
            *v = match outcome {
                Outcome::Draw => Value::Draw,
                Outcome::Win(c) if c == pos.side_to_move() => Value::Win(1),
                Outcome::Win(_) => Value::Loss(1),
            };
        }
    }
    // Best value first; among draws, those that leave the opponent only
    // perpetual check (a loss under 連続王手の千日手) first.
    moves.sort_by_key(|&(m, v)| {
        let traps = v == Value::Draw && solution.perpetual_check_trap(&pos.play(m)) == Some(true);
        (std::cmp::Reverse(v), !traps)
    });
    let ms = start.elapsed().as_millis() as u64;
    // Nodes: the positions of the table; nps: the solve's speed.
    let nodes = solution.stats().positions as u64;
    let nps = nodes * 1000 / (solution.stats().total().as_millis() as u64).max(1);
    let shown = options.multi_pv.clamp(1, moves.len());
    let mut lines = Vec::with_capacity(shown);
    let mut best_line = Vec::new();
    for (k, &(m, v)) in moves.iter().enumerate().take(shown).rev() {
        let child = pos.play(m);
        let plies = match v {
            Value::Win(d) | Value::Loss(d) => d as usize,
            Value::Draw => DRAW_LINE_PLIES,
        };
        let mut line = vec![m];
        line.extend(solution.principal_line(&child, plies.saturating_sub(1)));
        let multipv = (shown > 1).then_some(k + 1);
        lines.push(info_line(&line, multipv, v, (nodes, nps, ms)));
        if k == 0 {
            best_line = line;
        }
    }
    send_answer(lines, &best_line, limits, control, out);
    true
}

/// The `info` line of principal line `line` of exact value `value`
/// (`multipv` i when given), with the (nodes, nps, milliseconds) shown.
fn info_line(
    line: &[Move],
    multipv: Option<usize>,
    value: Value,
    counts: (u64, u64, u64),
) -> String {
    let (nodes, nps, ms) = counts;
    let depth = line.len().max(1);
    let multipv = multipv.map_or_else(String::new, |i| format!(" multipv {i}"));
    let pv: Vec<String> = line.iter().map(Move::to_string).collect();
    format!(
        "info depth {depth} seldepth {depth}{multipv} score {} nodes {nodes} nps {nps} time {ms} pv {}",
        value.usi_score(),
        pv.join(" ")
    )
}

/// Sends the `info` lines and the `bestmove` of `best_line` (with its
/// ponder move), as the search does: no `bestmove` of `go infinite` before
/// `stop`, nor of `go ponder` before `stop` or `ponderhit`.
fn send_answer(
    lines: Vec<String>,
    best_line: &[Move],
    limits: &Limits,
    control: &Control,
    out: &Sender<String>,
) {
    let final_line = match best_line {
        [best, reply, ..] => format!("bestmove {best} ponder {reply}"),
        [best] => format!("bestmove {best}"),
        [] => "bestmove resign".to_string(),
    };
    if limits.infinite || limits.ponder {
        while !control.stopped() && (limits.infinite || control.pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    for l in lines {
        let _ = out.send(l);
    }
    let _ = out.send(final_line);
}

/// Answers a `go` on a 3x3 position whose reachable set is too large for
/// the retrograde analysis from a forward proof of its value, found while
/// `wait` says so (the move's time share): one `info` line with the exact
/// `score mate N` / `mate -N` and the proof's principal line (under
/// `MultiPV`, first one line for each other move whose exact value the
/// rest of the time share decided, up to `MultiPV` lines), then its first
/// move. Returns false, having sent nothing, when nothing was proved
/// in time (a draw never is) or when that move would end the game by
/// repetition (the proof's values are those of positions without a
/// history): the search plays.
fn answer_by_proof(
    game: &Game,
    limits: &Limits,
    (threads, multi_pv): (usize, usize),
    control: &Control,
    out: &Sender<String>,
    wait: &dyn Fn() -> bool,
    start: Instant,
) -> bool {
    let pos = game.position();
    let proof_limits = ProveLimits {
        threads,
        principal_line: true,
        // Under MultiPV the other moves are deepened while the time lasts.
        move_value_nodes: if multi_pv > 1 { u64::MAX } else { 0 },
        ..ProveLimits::default()
    };
    let Ok(proof) = prove(pos, proof_limits, &|| !wait()) else {
        return false;
    };
    let Some(&best) = proof.line.first() else {
        return false;
    };
    let mut next = game.clone();
    next.play(best);
    if next.repetition().is_some() {
        return false;
    }
    let ms = start.elapsed().as_millis() as u64;
    let nps = proof.nodes * 1000 / ms.max(1);
    let counts = (proof.nodes, nps, ms);
    // Other moves: those decided in time, with their exact values, while
    // they surely rank above every undecided move (a draw, or decisive
    // beyond its refuted bound: only a win no longer than that bound does),
    // leaving out a move that ends the game at once by repetition (its
    // value is the rule's, not the proof's).
    let undecided_bound = proof
        .move_values
        .iter()
        .filter_map(|m| match m.value {
            MoveValue::Undecided { plies } => Some(plies),
            MoveValue::Exact(_) => None,
        })
        .min();
    let others: Vec<(&MoveLine, Value)> = proof
        .move_values
        .iter()
        .filter(|m| m.mv != best)
        .filter(|m| {
            let mut next = game.clone();
            next.play(m.mv);
            next.repetition().is_none()
        })
        .map_while(|m| match m.value {
            MoveValue::Exact(v)
                if undecided_bound.is_none_or(|b| matches!(v, Value::Win(d) if d <= b)) =>
            {
                Some((m, v))
            }
            _ => None,
        })
        .collect();
    let shown = multi_pv.clamp(1, others.len() + 1);
    let multipv = |k: usize| (shown > 1).then_some(k + 1);
    let mut lines = Vec::with_capacity(shown);
    for (k, (m, v)) in others.iter().enumerate().take(shown - 1).rev() {
        lines.push(info_line(&m.line, multipv(k + 1), *v, counts));
    }
    lines.push(info_line(&proof.line, multipv(0), proof.value, counts));
    send_answer(lines, &proof.line, limits, control, out);
    true
}

/// Node budget of the `solve` command's forward proof (the command blocks
/// the USI loop like `go perft`, so it must end), per thread: No.32, the
/// largest layout, takes about 8 M nodes on each of the two threads. A
/// draw, which the forward proof never proves, ends at this budget as
/// undecided.
pub const SOLVE_COMMAND_PROVE_NODES: u64 = 60_000_000;

/// Node budget of the `solve` command's deepening of each first move that
/// does not keep a forward-proved value, per move and thread (a move to a
/// draw ends there as undecided).
pub const SOLVE_COMMAND_MOVE_NODES: u64 = 2_000_000;

/// The lines of the `solve` command for `pos` (the table is cached for the
/// game's next moves and `solve`s).
pub fn solve_command_lines(player: &mut SolverPlayer, pos: &Position) -> Vec<String> {
    // A game's solve in progress may be the one asked for: let it finish.
    if player
        .background
        .as_ref()
        .is_some_and(|b| Packer::new(pos).is_ok_and(|p| p == b.packer))
    {
        player.poll_background(&|| true);
    }
    let limits = SettleLimits {
        prove: ProveLimits {
            max_nodes: SOLVE_COMMAND_PROVE_NODES,
            principal_line: true,
            move_value_nodes: SOLVE_COMMAND_MOVE_NODES,
            ..ProveLimits::default()
        },
        ..SettleLimits::default()
    };
    let no_stop = || false;
    let cache = &mut player.cache;
    match settle_with(pos, limits, &no_stop, |l| {
        cache.get_or_solve(pos, l, &no_stop)
    }) {
        Ok(Settled::Solved((solution, cached))) => report::solve_lines(&solution, pos, cached),
        Ok(Settled::Proved(proof)) => report::proof_lines(&proof, pos),
        Err(e) => vec![format!("info string error: solve: {e}")],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;
    use crossbeam_channel::unbounded;

    /// A `go byoyomi` of `ms` on `sfen` by a player that knows the
    /// material too large for the retrograde analysis: its output lines.
    fn go_too_large(sfen: &str, ms: u64) -> Vec<String> {
        let limits = Limits {
            byoyomi: Some(ms),
            ..Limits::default()
        };
        go_too_large_with(sfen, &limits)
    }

    /// The same with any `go` limits.
    fn go_too_large_with(sfen: &str, limits: &Limits) -> Vec<String> {
        go_too_large_options(sfen, limits, &SearchOptions::default())
    }

    /// The same with any options.
    fn go_too_large_options(sfen: &str, limits: &Limits, options: &SearchOptions) -> Vec<String> {
        go_fresh(sfen, limits, options, true)
    }

    /// A `go` by a new player, told the material is too large for the
    /// retrograde analysis or not: its output lines.
    fn go_fresh(
        sfen: &str,
        limits: &Limits,
        options: &SearchOptions,
        too_large: bool,
    ) -> Vec<String> {
        let pos = parse_sfen(sfen).unwrap();
        let mut player = SolverPlayer::new();
        if too_large {
            player.too_large = Some(Packer::new(&pos).unwrap());
        }
        let (tx, rx) = unbounded();
        let control = Control::default();
        control.reset(false);
        let answered = player.think(&Game::new(pos), limits, options, &control, &tx);
        let lines: Vec<String> = rx.try_iter().collect();
        assert_eq!(answered, !lines.is_empty(), "{lines:?}");
        lines
    }

    #[test]
    fn a_proof_answers_when_the_table_is_too_large() {
        // No.24: sente wins in 17, only by 2a1a (a forward proof of 0.2 s).
        let lines = go_too_large("KGl/GPs/Psk b - 1", 30_000);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains(" score mate 17 "), "{lines:?}");
        assert!(lines[0].contains(" pv 2a1a "), "{lines:?}");
        assert!(lines[1].starts_with("bestmove 2a1a ponder "), "{lines:?}");
    }

    #[test]
    fn multipv_shows_the_proved_values_of_other_moves() {
        // No.4: sente wins in 21 by R*2b only; P*1b and R*3b lose in 26,
        // the longest resistance of the other moves.
        let limits = Limits {
            byoyomi: Some(30_000),
            ..Limits::default()
        };
        let options = SearchOptions {
            multi_pv: 3,
            ..SearchOptions::default()
        };
        let lines = go_too_large_options("1bk/3/KB1 b RPrp 1", &limits, &options);
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(lines[0].contains(" multipv 3 score mate -26 "), "{lines:?}");
        assert!(lines[1].contains(" multipv 2 score mate -26 "), "{lines:?}");
        assert!(lines[2].contains(" multipv 1 score mate 21 "), "{lines:?}");
        assert!(lines[2].contains(" pv R*2b "), "{lines:?}");
        assert!(lines[3].starts_with("bestmove R*2b "), "{lines:?}");
    }

    #[test]
    fn multipv_never_ranks_a_loss_above_an_undecided_draw() {
        // Sente wins in 19 by L*2c only; three moves draw (never proved),
        // the others lose: no loss may be shown as the second best. (The
        // draws keep the move values going to the end of the time share.)
        let limits = Limits {
            byoyomi: Some(3_000),
            ..Limits::default()
        };
        let options = SearchOptions {
            multi_pv: 9,
            ..SearchOptions::default()
        };
        let lines = go_too_large_options("2k/3/K2 b NLs 1", &limits, &options);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains(" score mate 19 "), "{lines:?}");
        assert!(lines[1].starts_with("bestmove L*2c"), "{lines:?}");
    }

    #[test]
    fn a_proof_answers_while_the_solve_runs() {
        // No.4 (sente wins in 21 by R*2b): its reachable set (31 M
        // positions) takes the retrograde analysis tens of seconds; the
        // proof answers this move.
        let limits = Limits {
            byoyomi: Some(10_000),
            ..Limits::default()
        };
        let options = SearchOptions::default();
        let lines = go_fresh("1bk/3/KB1 b RPrp 1", &limits, &options, false);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains(" score mate 21 "), "{lines:?}");
        assert!(lines[1].starts_with("bestmove R*2b "), "{lines:?}");
    }

    #[test]
    fn no_proof_in_time_leaves_the_move_to_the_search() {
        // No.32 (sente wins in 35) needs seconds; 1 ms proves nothing.
        assert!(go_too_large("Rnk/bPl/KsP b - 1", 1).is_empty());
    }

    #[test]
    fn no_proof_without_a_clock() {
        // `go depth 3` has no deadline: a proof (seconds here, unbounded
        // on a draw) would keep the bestmove waiting for a `stop`.
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert!(go_too_large_with("Rnk/bPl/KsP b - 1", &limits).is_empty());
    }
}
