//! The search thread: one persistent thread that runs jobs (searches, hash
//! preparation, perft, bench) one after another. Each job carries its own
//! output channel; dropping it when the job ends tells the engine loop the
//! job is done. A panic in a job is caught and reported, never fatal.

use super::display;
use crate::game::Game;
use crate::position::Position;
use crate::search::{self, Control, Limits, SearchOptions, Searcher};
use crate::solve::engine::{SolverPlayer, solve_command_lines};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread;

/// What the search thread is asked to do.
pub enum Task {
    /// `go`: search `game` and send `info` lines and one final line.
    Search {
        /// The game to search (a copy: `position` may change the engine's meanwhile).
        game: Box<Game>,
        /// The `go` parameters.
        limits: Limits,
        /// The option values at the time of `go`.
        options: SearchOptions,
        /// Stop/ponderhit flags of this search.
        control: Arc<Control>,
    },
    /// `isready`: allocate the hash (and whatever else is heavy).
    Prepare {
        /// The option values to prepare for.
        options: SearchOptions,
    },
    /// `usinewgame`: forget what was learnt in the previous game.
    NewGame {
        /// The option values for the new game.
        options: SearchOptions,
    },
    /// `go perft <depth>`.
    Perft {
        /// The position to count from.
        position: Box<Position>,
        /// Depth in plies.
        depth: u32,
    },
    /// `bench [depth]`.
    Bench {
        /// Depth (0 = the search's default).
        depth: u32,
        /// The `EvalFile` option (empty: the built-in evaluation).
        eval_file: String,
    },
    /// `solve`: the exact value of a 3x3 position.
    Solve {
        /// The position to solve.
        position: Box<Position>,
    },
}

/// A task and the channel its output lines go to.
pub struct Job {
    /// What to do.
    pub task: Task,
    /// Where the lines go; dropped when the job ends.
    pub out: Sender<String>,
}

/// Starts the search thread; it runs until the returned sender is dropped.
pub fn spawn() -> Sender<Job> {
    let (tx, rx) = unbounded::<Job>();
    thread::Builder::new()
        .name("search".into())
        .spawn(move || worker_loop(rx))
        .expect("cannot start the search thread");
    tx
}

fn worker_loop(jobs: Receiver<Job>) {
    let mut worker = Worker::new();
    for Job { task, out } in jobs.iter() {
        let result = catch_unwind(AssertUnwindSafe(|| worker.run(task, &out)));
        if let Err(panic) = result {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            log::error!("search thread panicked: {message}");
            let _ = out.send(format!(
                "info string error: internal error in the search: {}",
                crate::sfen::printable(&message)
            ));
            // Whatever state the panic interrupted is not trusted again.
            worker = Worker::new();
        }
        drop(out);
    }
}

/// The search thread's persistent state: the searcher (its hash table
/// lives from one move to the next).
struct Worker {
    searcher: Searcher,
    /// A hash size the machine refused (reported once, not at every move).
    refused_mb: Option<usize>,
    /// Whether a search has written to the table since it was last cleared.
    table_used: bool,
    /// Exact play on 3x3 from solved tables (kept between moves).
    solver: SolverPlayer,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            searcher: Searcher::new(SearchOptions::default().hash_mb),
            refused_mb: None,
            table_used: false,
            solver: SolverPlayer::new(),
        }
    }

    /// Gives the table the size `USI_Hash` asks for. A size the machine
    /// cannot give is refused with an error line (the old table stays), so
    /// that a failed allocation never aborts the engine.
    fn resize(&mut self, options: &SearchOptions, out: &Sender<String>) {
        let mb = options.hash_mb.max(1);
        if mb == self.searcher.hash_mb() || self.refused_mb == Some(mb) {
            return;
        }
        let bytes = mb.saturating_mul(1024 * 1024);
        let mut probe: Vec<u8> = Vec::new();
        if probe.try_reserve_exact(bytes).is_err() {
            self.refused_mb = Some(mb);
            let _ = out.send(format!(
                "info string error: cannot allocate a {mb} MiB hash table; keeping {} MiB",
                self.searcher.hash_mb()
            ));
            return;
        }
        drop(probe);
        let start = std::time::Instant::now();
        self.searcher.resize(mb);
        log::debug!(
            "hash resized to {mb} MiB in {} ms",
            start.elapsed().as_millis()
        );
    }

    /// Loads the weights `EvalFile` names, if it changed; a bad file gets an
    /// error line and the built-in evaluation is used.
    fn load_eval(&mut self, options: &SearchOptions, out: &Sender<String>) {
        if let Err(e) = self.searcher.load_eval(&options.eval_file) {
            let _ = out.send(format!("info string error: {e}"));
        }
    }

    fn run(&mut self, task: Task, out: &Sender<String>) {
        match task {
            Task::Search {
                game,
                limits,
                options,
                control,
            } => {
                // A resize deferred by `isready` during a search happens here.
                self.resize(&options, out);
                self.load_eval(&options, out);
                if self.solver.think(&game, &limits, &options, &control, out) {
                    return;
                }
                self.table_used = true;
                self.searcher.think(&game, &limits, &options, &control, out);
            }
            // As in YaneuraOu, `isready` (which a GUI sends before every game
            // and waits for) is where the table is cleared, so `usinewgame`
            // stays instant and no game's first move pays for the clear.
            Task::Prepare { options } => {
                self.resize(&options, out);
                self.load_eval(&options, out);
                if self.table_used {
                    self.searcher.clear();
                    self.table_used = false;
                }
            }
            Task::NewGame { options } => self.resize(&options, out),
            Task::Perft { position, depth } => {
                for line in display::perft_lines(&position, depth) {
                    let _ = out.send(line);
                }
            }
            Task::Bench { depth, eval_file } => {
                search::bench(depth, &eval_file, out);
            }
            Task::Solve { position } => {
                for line in solve_command_lines(&mut self.solver, &position) {
                    let _ = out.send(line);
                }
            }
        }
    }
}
