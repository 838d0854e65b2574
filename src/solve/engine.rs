//! Playing from solved tables: `go` on a 3x3 position.
//!
//! When the position is on the 3x3 board, [`SolverPlayer::think`] answers
//! the `go` itself if the cached table covers the position or a new solve
//! finishes within 60% of the move's hard time limit (no limit under
//! `go infinite` or while pondering); otherwise it leaves the move to the
//! search, and remembers the material that could not be solved so that the
//! next moves of the game do not try again in vain.
//!
//! The answer: one `info` line per legal move up to `MultiPV` (the exact
//! score `mate N`, `mate -N` or `cp 0`, and the principal line), best last
//! as `multipv 1`, then `bestmove` with a value-keeping move: the fastest
//! win, the longest loss, or a drawing move. A move that would complete a
//! fourfold repetition in the game's actual history is valued by that
//! result (a draw, or a loss for a perpetual checker) instead of the table's.

use crossbeam_channel::Sender;
use std::time::{Duration, Instant};

use super::pack::Packer;
use super::report::{self, DRAW_LINE_PLIES};
use super::{Limits as SolveLimits, SolutionCache, SolveError, Value};
use crate::game::{Game, Outcome};
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::BoardKind;
use crate::search::{Control, Limits, SearchOptions, budget};

/// Share of the move's hard time limit a solve may use (percent).
const SOLVE_TIME_PERCENT: u64 = 60;
/// Memory bound of a solve made during a game.
const GAME_MAX_BYTES: usize = super::DEFAULT_MAX_BYTES;

/// Why a material set was not solved.
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// The reachable set did not fit in memory.
    TooLarge,
    /// The solve did not finish within this many milliseconds.
    TimedOut(u64),
}

/// The solver's state in the engine: the last table and the last failure.
#[derive(Debug, Default)]
pub struct SolverPlayer {
    cache: SolutionCache,
    failed: Option<(Packer, Failure)>,
}

impl SolverPlayer {
    /// A player with an empty cache.
    pub fn new() -> SolverPlayer {
        SolverPlayer::default()
    }

    /// The table cache (shared with the `solve` command).
    pub fn cache(&mut self) -> &mut SolutionCache {
        &mut self.cache
    }

    /// Answers a `go` on a 3x3 position from an exact solution, sending its
    /// `info` lines and exactly one `bestmove` to `out`. Returns false, having
    /// sent nothing but perhaps an `info string`, when the search should play
    /// instead (not 3x3, `go mate`, no legal move, or no solution in time).
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
        let Ok(packer) = Packer::new(pos) else {
            return false;
        };
        let start = Instant::now();
        let solution = match self.cache.lookup(pos) {
            Some(s) => s,
            None => {
                let deadline = budget(limits, options, pos.side_to_move(), pos.kind())
                    .filter(|_| !limits.infinite)
                    .map(|b| b.maximum * SOLVE_TIME_PERCENT / 100);
                match self.failed {
                    Some((ref p, Failure::TooLarge)) if *p == packer => return false,
                    Some((ref p, Failure::TimedOut(ms)))
                        if *p == packer && deadline.is_some_and(|d| d <= ms) =>
                    {
                        return false;
                    }
                    _ => {}
                }
                let stop = || {
                    control.stopped()
                        || (!control.pondering()
                            && deadline.is_some_and(|d| {
                                control.clock_start().elapsed() > Duration::from_millis(d)
                            }))
                };
                let limits = SolveLimits {
                    threads: options.threads.clamp(1, 2),
                    max_bytes: GAME_MAX_BYTES,
                };
                match self.cache.get_or_solve(pos, limits, &stop) {
                    Ok((s, _)) => {
                        self.failed = None;
                        s
                    }
                    Err(e) => {
                        let failure = match e {
                            SolveError::TooLarge { .. } => Some(Failure::TooLarge),
                            SolveError::Stopped if !control.stopped() => {
                                deadline.map(Failure::TimedOut)
                            }
                            _ => None,
                        };
                        if let Some(f) = failure {
                            self.failed = Some((packer, f));
                        }
                        let _ = out.send(format!(
                            "info string solver: no exact solution ({e}); searching"
                        ));
                        return false;
                    }
                }
            }
        };
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
        moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let ms = start.elapsed().as_millis() as u64;
        let nodes = solution.stats().positions as u64;
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
            let multipv = if shown > 1 {
                format!(" multipv {}", k + 1)
            } else {
                String::new()
            };
            let depth = line.len().max(1);
            lines.push(format!(
                "info depth {depth} seldepth {depth}{multipv} score {} nodes {nodes} nps {} time {ms} pv {}",
                v.usi_score(),
                nodes * 1000 / ms.max(1),
                line.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
            ));
            if k == 0 {
                best_line = line;
            }
        }
        let final_line = match best_line.as_slice() {
            [best, reply, ..] => format!("bestmove {best} ponder {reply}"),
            [best] => format!("bestmove {best}"),
            [] => "bestmove resign".to_string(),
        };
        // As the search does: no bestmove of `go infinite` before `stop`,
        // nor of `go ponder` before `stop` or `ponderhit`.
        if limits.infinite || limits.ponder {
            while !control.stopped() && (limits.infinite || control.pondering()) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        for l in lines {
            let _ = out.send(l);
        }
        let _ = out.send(final_line);
        true
    }
}

/// The lines of the `solve` command for `pos` (the table is cached for the
/// game's next moves and `solve`s).
pub fn solve_command_lines(player: &mut SolverPlayer, pos: &Position) -> Vec<String> {
    let no_stop = || false;
    match player
        .cache
        .get_or_solve(pos, SolveLimits::default(), &no_stop)
    {
        Ok((solution, cached)) => report::solve_lines(&solution, pos, cached),
        Err(e) => vec![format!("info string error: solve: {e}")],
    }
}
