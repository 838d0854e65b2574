//! The helpers of a proof (`go mate` with `Threads` above 1).
//!
//! Once the proof has run alone for [`MateOptions::helpers_after_ms`], the
//! table is shared ([`Table::share`]) and each helper runs df-pn from the
//! root on it, as the main searcher does, with its own ε in the 1+ε trick
//! ([`HELPER_EPSILON_DIVS`]): the searchers go different ways through the
//! tree and find each other's results in the table. When the table should
//! grow, the main searcher pauses the helpers at their next poll and grows
//! it alone. The first searcher to solve the root stops the others; a root
//! a helper solved is read from the table by the main searcher, which alone
//! then finds the answer line.
//! Every value a searcher stores holds whatever path leads to it (a
//! disproof through repetition is stored only where its cycle lies below
//! it), so what one stores serves the others.

use super::dfpn::{Dfpn, NodeValue, Poll};
use super::table::{INF, Table};
use super::{Clock, MateOptions, SOLVER_STACK};
use crate::position::Position;
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// The ε divisors of the helpers, by helper (the main searcher's is
/// [`super::dfpn`]'s `EPSILON_DIV`, 4): a larger ε lets a searcher stay
/// longer below a child before it returns to its siblings. Session 39,
/// Threads 2 (one helper), time to the proof in ten runs (飛燕乱舞 after 54
/// plies three times, after 80 three times, bokusui-38-h and muso-1 twice
/// each): 106.7 s in all with 8 first, 119.2 s with 2 first.
const HELPER_EPSILON_DIVS: [u64; 4] = [8, 2, 3, 6];

/// What the searchers of one proof share besides the table.
struct Crew {
    /// The helpers' start signal (one message each); dropped when the
    /// proof ends before they start.
    go: Mutex<Option<Sender<()>>>,
    helpers: usize,
    /// Set when the proof ends: the helpers return.
    stop: AtomicBool,
    /// A helper solved the root (its value is in the table).
    solved: AtomicBool,
    /// The helpers' nodes so far (each adds its own at every poll).
    nodes: AtomicU64,
    /// Helpers started and not yet returned.
    running: AtomicUsize,
    /// Set while the main searcher wants the table to itself.
    pause: AtomicBool,
    /// Helpers waiting for the pause's end.
    parked: Mutex<usize>,
    /// Signals a helper parked or returned (to the main searcher) and the
    /// pause's end (to the helpers).
    turn: Condvar,
}

impl Crew {
    /// Starts the helpers: shares the table first (the helpers wait on their
    /// signal, so only the main searcher, the caller, uses it now).
    fn start(&self, table: &Table) {
        table.share();
        let go = self.go.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(go) = go.as_ref() {
            for _ in 0..self.helpers {
                self.running.fetch_add(1, Ordering::SeqCst);
                let _ = go.send(());
            }
        }
    }

    fn parked(&self) -> MutexGuard<'_, usize> {
        self.parked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Grows the shared table when due, the helpers parked meanwhile.
    fn grow_table(&self, table: &Table) {
        if !table.shared_growth_due() {
            return;
        }
        // The system zeroes the new pages while the helpers search on.
        crate::prefetch::populate(table.next_growth_memory());
        let t0 = Instant::now();
        self.pause.store(true, Ordering::SeqCst);
        let mut parked = self.parked();
        while *parked < self.running.load(Ordering::SeqCst) {
            parked = self
                .turn
                .wait(parked)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let t1 = t0.elapsed();
        table.grow_if_due();
        log::debug!(
            "shared table grown: {t1:?} to park the helpers, {:?} in all",
            t0.elapsed()
        );
        self.pause.store(false, Ordering::SeqCst);
        drop(parked);
        self.turn.notify_all();
    }

    /// A helper's part of [`grow_table`](Self::grow_table): waits while the
    /// main searcher has the table to itself.
    fn wait_while_paused(&self) {
        if !self.pause.load(Ordering::SeqCst) {
            return;
        }
        let mut parked = self.parked();
        *parked += 1;
        self.turn.notify_all();
        while self.pause.load(Ordering::SeqCst) {
            parked = self
                .turn
                .wait(parked)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *parked -= 1;
    }

    /// A helper returned: the main searcher no longer waits for it.
    fn retire(&self) {
        let _parked = self.parked();
        self.running.fetch_sub(1, Ordering::SeqCst);
        self.turn.notify_all();
    }

    /// Ends the proof for the helpers: the running ones stop at their next
    /// poll, the waiting ones never start.
    fn finish(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.go
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }
}

/// The main searcher's poll: starts the helpers when due, counts their
/// nodes in the `info` lines, and stops when one of them solved the root.
struct MainPoll<'c, 'k, 'a> {
    clock: &'k mut Clock<'a>,
    crew: &'c Crew,
    /// Milliseconds from the start of the proof to the helpers' start
    /// (`None` once they started).
    start_at_ms: Option<u128>,
}

impl Poll for MainPoll<'_, '_, '_> {
    fn poll(&mut self, nodes: u64, table: &Table) -> bool {
        let now = self.clock.start.elapsed().as_millis();
        if self.start_at_ms.is_some_and(|at| now >= at) {
            self.start_at_ms = None;
            self.crew.start(table);
        }
        self.crew.grow_table(table);
        let nodes = nodes + self.crew.nodes.load(Ordering::Relaxed);
        self.clock.poll(nodes, table) || self.crew.solved.load(Ordering::Acquire)
    }
}

/// A helper's poll: adds its nodes to the crew's, stops with the proof.
struct HelperPoll<'c> {
    crew: &'c Crew,
    /// The helper's nodes already added.
    added: u64,
}

impl HelperPoll<'_> {
    fn add_nodes(&mut self, nodes: u64) {
        self.crew
            .nodes
            .fetch_add(nodes - self.added, Ordering::Relaxed);
        self.added = nodes;
    }
}

impl Poll for HelperPoll<'_> {
    fn poll(&mut self, nodes: u64, _table: &Table) -> bool {
        self.add_nodes(nodes);
        self.crew.wait_while_paused();
        self.crew.stop.load(Ordering::Relaxed)
    }
}

/// Calls [`Crew::finish`] when dropped: the helpers end even if the main
/// searcher's part panics (they would wait for their start forever).
struct FinishOnDrop<'c>(&'c Crew);

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// Calls [`Crew::retire`] when dropped: a helper that started counts as
/// running until it returns or panics (the main searcher would wait for it
/// to park forever).
struct RetireOnDrop<'c>(&'c Crew);

impl Drop for RetireOnDrop<'_> {
    fn drop(&mut self) {
        self.0.retire();
    }
}

/// Proves or disproves `pos` (the root, ply 0) with `dfpn`, helped by
/// `options.threads - 1` helpers once it has run long enough; returns the
/// root's value and the helpers' nodes (`dfpn.nodes` counts the main
/// searcher's only: the line shortening's budget is a multiple of them).
/// A helper's disproof cut by the ply cap does not end the proof: it is
/// not stored (see `Dfpn::capped`), and the main searcher goes on.
pub(super) fn prove_root(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    options: &MateOptions,
    clock: &mut Clock<'_>,
) -> (NodeValue, u64) {
    let helpers = options.threads.saturating_sub(1);
    if helpers == 0 {
        return (dfpn.mid(pos, 0, INF, INF, clock), 0);
    }
    let (go, wait) = crossbeam_channel::bounded(helpers);
    let crew = Crew {
        go: Mutex::new(Some(go)),
        helpers,
        stop: AtomicBool::new(false),
        solved: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        running: AtomicUsize::new(0),
        pause: AtomicBool::new(false),
        parked: Mutex::new(0),
        turn: Condvar::new(),
    };
    let table = dfpn.table;
    let mut root = std::thread::scope(|s| {
        let _finish = FinishOnDrop(&crew);
        for id in 0..helpers {
            let (crew, wait) = (&crew, wait.clone());
            std::thread::Builder::new()
                .name(format!("mate-helper-{id}"))
                .stack_size(SOLVER_STACK)
                .spawn_scoped(s, move || help(table, pos, crew, &wait, id))
                .expect("cannot start a mate helper");
        }
        let mut poll = MainPoll {
            clock: &mut *clock,
            crew: &crew,
            start_at_ms: Some(u128::from(options.helpers_after_ms)),
        };
        dfpn.mid(pos, 0, INF, INF, &mut poll)
    });
    table.stop_sharing();
    if crew.solved.load(Ordering::Acquire) && !root.is_terminal() {
        // The helper's value of the root is in the table: the search
        // returns it at once.
        dfpn.stopped = false;
        root = dfpn.mid(pos, 0, INF, INF, clock);
    }
    (root, crew.nodes.load(Ordering::Relaxed))
}

/// A helper: waits for its start, then searches the root with its own ε
/// until the root is solved or the proof ends.
fn help(table: &Table, pos: &Position, crew: &Crew, wait: &Receiver<()>, id: usize) {
    if wait.recv().is_err() {
        return;
    }
    let _retire = RetireOnDrop(crew);
    let mut dfpn = Dfpn::new(table, pos.side_to_move());
    dfpn.use_large_cache();
    dfpn.set_epsilon_div(HELPER_EPSILON_DIVS[id % HELPER_EPSILON_DIVS.len()]);
    let mut poll = HelperPoll { crew, added: 0 };
    let root = dfpn.mid(pos, 0, INF, INF, &mut poll);
    poll.add_nodes(dfpn.nodes);
    let solved = root.pn == 0 || (root.dn == 0 && !dfpn.capped);
    if !dfpn.stopped && solved {
        crew.solved.store(true, Ordering::Release);
    }
}
