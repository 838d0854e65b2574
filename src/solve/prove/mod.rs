//! Exact forward proofs of decisive values, for positions whose reachable
//! set is too large for the retrograde analysis.
//!
//! [`prove`] deepens a depth-bounded AND/OR search ([`search`]) from the
//! root: "loses within 0 plies?", "wins within 1?", "loses within 2?", "wins
//! within 3?", and so on. Win distances are odd and loss distances even, so
//! the first question answered yes gives the exact value: `Win(d)` when
//! "wins within d" holds and "wins within d - 2" was refuted just before,
//! `Loss(d)` likewise. It is the value the retrograde analysis computes
//! (whose levels are exactly these bounded questions), reached from the
//! root instead of from the ends of the game. Every yes is backed by a
//! proof tree and every no by an exhaustive refutation; the move ordering
//! only decides how soon they are found. A draw is never proved (no depth
//! bound ends it): a position not decided within the node budget or
//! [`ProveLimits::max_plies`] is reported undecided, never a draw.
//!
//! # Repetitions
//!
//! The search ignores the path (no repetition detection), so it decides
//! questions about the tree of legal moves cut at `n` plies; those depend
//! on the position alone, which is what makes the table entries reusable
//! wherever the position recurs. Their answers also hold in the real game,
//! whatever the repetition rule: if the exact value is `Win(d)`, the winner
//! plays to a child of exact value `Loss(d - 1)`, every reply reaches
//! `Win(d')` with `d' <= d - 2`, and so on: the exact distance falls
//! strictly along every line of the winner's strategy, so no position
//! repeats on it and 千日手 or 連続王手の千日手 never comes into play; a loser's
//! longest resistance is limited the same way by the winner's strategy.
//! As for the retrograde values, this is the value of the position without
//! a history (one that occurred before the root can end the game sooner).
//!
//! # Best first moves
//!
//! For the table of layouts [`prove`] also finds every first move that keeps
//! the exact value: for `Win(d)` the moves after which the opponent loses
//! within `d - 1` (none does faster: "wins within d - 2" was refuted); for
//! `Loss(d)` the moves after which the opponent does not win within
//! `d - 3` (every move's child is won within `d - 1`, so those are won in
//! exactly `d - 1`). With [`ProveLimits::move_value_nodes`] every other
//! move's child is then deepened in turn on the same table
//! ([`move_values`]): its exact value, or, within the budget, the distance
//! below which neither side wins (a draw is never proved).
//!
//! # Memory
//!
//! One table ([`table`]) of at most [`FIRST_TABLE_BYTES`] for the first
//! [`FIRST_PHASE_NODES`] nodes, then (for a larger proof, its facts copied
//! over) one of [`ProveLimits::table_bytes`], shared by the threads: the
//! first table's pages are provided by the system as they are first
//! written; the second's, which a proof that long fills, all at once by
//! the proof's threads in parallel ([`BoundTable::prefault`]). The
//! search's own stack is a few kilobytes per ply.
//!
//! # Threads
//!
//! With two threads ([`ProveLimits::threads`]) a *twin* deepens beside the
//! calling thread, in both phases, on the same table: both ask every
//! question in turn, but at a loss node the twin takes the children after
//! the hinted one in the reverse order ([`Searcher::twin`]), so where every
//! child must be proved won the two prove different ones first and each
//! finds the other's facts in the table. A thread's first yes is exact on
//! its own (it refuted every shorter distance before, by search or by the
//! other's proved facts) and stops the other. On No.32 this halves each
//! thread's nodes (the earlier split, the wins questions on one thread and
//! the loses questions on the other, left the deciding thread about two
//! thirds of them). One thread asks every question in turn, as above, and
//! its node counts are reproducible.

pub mod search;
pub mod table;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{Packer, SolveError, Value};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use search::{Abort, Searcher};
use table::BoundTable;

/// Deepest question the table can record.
pub const MAX_PLIES: u32 = 250;
/// Default threads of a proof.
pub const DEFAULT_THREADS: usize = 2;
/// Bound on the table of a proof's first phase (a small proof's table
/// stays small: the whole table, allocated at once, would take its pages
/// as the entries spread over it).
pub const FIRST_TABLE_BYTES: usize = 64 << 20;
/// Nodes of a proof's first phase on the small table (per thread).
pub const FIRST_PHASE_NODES: u64 = 1 << 20;
/// Default size of the proof table (No.32, the largest proof of the
/// layouts, with 512 MiB: 14.0 M nodes on one thread; with 256 MiB: 13.1 M,
/// and half the pages to provide).
pub const DEFAULT_TABLE_BYTES: usize = 256 << 20;

/// Resources a forward proof may use.
#[derive(Clone, Copy, Debug)]
pub struct ProveLimits {
    /// Nodes each thread searches before giving up
    /// ([`ProveError::Undecided`]).
    pub max_nodes: u64,
    /// Bound on the bytes of the proof table (the search's only large
    /// allocation, made at once; its pages are taken as first written).
    pub table_bytes: usize,
    /// Longest distance tried (at most [`MAX_PLIES`]).
    pub max_plies: u32,
    /// Threads: 1 asks every question on the calling thread (node counts
    /// reproducible); 2 or more run a twin beside it (see the module docs).
    pub threads: usize,
    /// Whether the proof also finds a principal line ([`Proof::line`]; on
    /// the large layouts about 7% more nodes).
    pub principal_line: bool,
    /// Node budget of each other first move's own deepening in
    /// [`Proof::move_values`] (per move; 0: no move values).
    pub move_value_nodes: u64,
}

impl Default for ProveLimits {
    fn default() -> Self {
        ProveLimits {
            max_nodes: u64::MAX,
            table_bytes: DEFAULT_TABLE_BYTES,
            max_plies: MAX_PLIES,
            threads: DEFAULT_THREADS,
            principal_line: false,
            move_value_nodes: 0,
        }
    }
}

/// Why a forward proof gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProveError {
    /// The position cannot be solved ([`SolveError::Unsupported`]).
    Unsupported(SolveError),
    /// Neither side's win was proved within the budget: the value may be a
    /// draw or a longer decisive one (nothing is claimed).
    Undecided {
        /// Every distance below this was refuted for both sides.
        refuted_below: u32,
        /// Nodes searched.
        nodes: u64,
    },
}

impl std::fmt::Display for ProveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProveError::Unsupported(e) => write!(f, "{e}"),
            ProveError::Undecided {
                refuted_below,
                nodes,
            } => write!(
                f,
                "not decided: no end of the game within {} plies for either side \
                 ({nodes} nodes searched)",
                refuted_below.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for ProveError {}

/// The result of a forward proof.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The exact value of the root for its side to move.
    pub value: Value,
    /// Every first move that keeps that value (see the module docs).
    pub best_moves: Vec<Move>,
    /// A principal line: value-keeping moves of both sides (the winner's
    /// fastest, the loser's longest) to the end of the game, or as far as
    /// the node budget reached (see [`principal_line`]); empty unless
    /// [`ProveLimits::principal_line`] asked for it.
    pub line: Vec<Move>,
    /// Every legal first move's value (see [`move_values`]), in the rules
    /// core's move order; empty unless [`ProveLimits::move_value_nodes`]
    /// asked for them.
    pub move_values: Vec<MoveLine>,
    /// Nodes searched (positions expanded, counted each time).
    pub nodes: u64,
    /// Distinct positions in the proof table at the end (those with facts
    /// and those whose legal moves were only counted).
    pub stored: usize,
    /// Bytes of the proof table at the end (its largest size).
    pub bytes: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// What one deepening established.
#[derive(Clone, Copy, Debug)]
struct Deepened {
    /// The root's exact value, if a question was answered yes.
    value: Option<Value>,
    /// The first ply count asked about and not refuted.
    refuted_below: u32,
    /// Its nodes.
    nodes: u64,
}

/// Asks of `root`, for every ply count n from `from` (every shorter one
/// refuted before) up to `max_plies`, whether it wins within n (n odd) or
/// loses within n (n even). The first yes is the exact value, as every
/// shorter distance was refuted before it (a position that can win cannot
/// lose, nor the other way round).
fn deepen(searcher: &mut Searcher, root: &Position, from: u32, max_plies: u32) -> Deepened {
    let started = Instant::now();
    let mut n = from;
    let mut value = None;
    while n <= max_plies.min(MAX_PLIES) {
        let decided = if n.is_multiple_of(2) {
            searcher.loses(root, n).map(|l| l.then_some(Value::Loss(n)))
        } else {
            searcher.wins(root, n).map(|w| w.then_some(Value::Win(n)))
        };
        log::debug!(
            "prove: twin {} {n} plies: {decided:?}, {} nodes, {:.2} s",
            searcher.twin,
            searcher.nodes,
            started.elapsed().as_secs_f64()
        );
        match decided {
            Ok(Some(v)) => {
                value = Some(v);
                break;
            }
            Ok(None) => n += 1,
            Err(Abort) => break,
        }
    }
    Deepened {
        value,
        refuted_below: n,
        nodes: searcher.nodes,
    }
}

/// How often the calling thread checks `stop` while only the twin runs.
const POLL: Duration = Duration::from_millis(2);

/// Waits for the `twin` thread, raising `flag` (which the twin polls) as
/// soon as `stop` says so; returns its result.
fn join_polling<T>(
    twin: std::thread::ScopedJoinHandle<'_, T>,
    stop: &dyn Fn() -> bool,
    flag: &AtomicBool,
) -> T {
    while !twin.is_finished() {
        if stop() {
            flag.store(true, Ordering::Relaxed);
        }
        std::thread::sleep(POLL);
    }
    twin.join().expect("a proof thread panicked")
}

/// Deepens from `from` plies on `table` within `limits` (its `max_nodes`
/// per thread): on the calling thread alone, or (`threads` >= 2) on it and a twin
/// ([`Searcher::twin`]) at once, each asking every question in turn and
/// using the facts the other proves; the first yes (exact on its own
/// thread) stops the other.
fn deepen_on(
    packer: Packer,
    table: &BoundTable,
    root: &Position,
    from: u32,
    limits: ProveLimits,
    stop: &dyn Fn() -> bool,
) -> Deepened {
    let (max_nodes, max_plies) = (limits.max_nodes, limits.max_plies);
    if limits.threads < 2 {
        let mut s = Searcher::new(packer, table, max_nodes, stop);
        return deepen(&mut s, root, from, max_plies);
    }
    let done = AtomicBool::new(false);
    let done = &done;
    let (own, twin) = std::thread::scope(|scope| {
        let twin = scope.spawn(move || {
            let twin_stop = || done.load(Ordering::Relaxed);
            let mut s = Searcher::new(packer, table, max_nodes, &twin_stop);
            s.twin = true;
            let d = deepen(&mut s, root, from, max_plies);
            if d.value.is_some() {
                done.store(true, Ordering::Relaxed);
            }
            d
        });
        let own_stop = || done.load(Ordering::Relaxed) || stop();
        let mut s = Searcher::new(packer, table, max_nodes, &own_stop);
        let own = deepen(&mut s, root, from, max_plies);
        if own.value.is_some() || stop() {
            done.store(true, Ordering::Relaxed);
        }
        (own, join_polling(twin, stop, done))
    });
    Deepened {
        value: own.value.or(twin.value),
        // Each thread refuted every count below its own.
        refuted_below: own.refuted_below.max(twin.refuted_below),
        nodes: own.nodes + twin.nodes,
    }
}

/// Proves the exact value of `root` if it is decisive within the limits.
/// `stop` is polled every few thousand nodes; a stop ends the proof as
/// [`ProveError::Undecided`].
///
/// The proof starts with a table of at most [`FIRST_TABLE_BYTES`]; a proof
/// that needs more than [`FIRST_PHASE_NODES`] nodes (per thread) goes on
/// with the whole table (the facts found so far copied into it). With
/// [`ProveLimits::threads`] >= 2 a twin deepens beside the calling thread
/// (see the module docs); the node count is then the sum of both threads',
/// and varies a little from run to run.
pub fn prove(
    root: &Position,
    limits: ProveLimits,
    stop: &dyn Fn() -> bool,
) -> Result<Proof, ProveError> {
    let packer = Packer::new(root).map_err(|e| ProveError::Unsupported(e.into()))?;
    let started = Instant::now();
    let small = BoundTable::new(limits.table_bytes.min(FIRST_TABLE_BYTES));
    let first_limits = ProveLimits {
        max_nodes: limits.max_nodes.min(FIRST_PHASE_NODES),
        ..limits
    };
    let first = deepen_on(packer, &small, root, 0, first_limits, stop);
    let settled = first.value.is_some()
        || stop()
        || first.refuted_below > limits.max_plies.min(MAX_PLIES)
        || limits.max_nodes <= FIRST_PHASE_NODES
        || limits.table_bytes <= FIRST_TABLE_BYTES;
    if settled {
        return finish(packer, &small, root, first, limits, stop, started);
    }
    let mut table = BoundTable::new(limits.table_bytes);
    table.prefault(limits.threads);
    small.copy_into(&table);
    drop(small);
    log::debug!(
        "prove: second phase from {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let rest = deepen_on(packer, &table, root, first.refuted_below, limits, stop);
    let total = Deepened {
        nodes: first.nodes + rest.nodes,
        ..rest
    };
    finish(packer, &table, root, total, limits, stop, started)
}

/// The proof of `root` from what the deepening `d` established in
/// `table`: its best first moves if it found the value, else the refusal.
fn finish(
    packer: Packer,
    table: &BoundTable,
    root: &Position,
    d: Deepened,
    limits: ProveLimits,
    stop: &dyn Fn() -> bool,
    started: Instant,
) -> Result<Proof, ProveError> {
    let undecided = |refuted_below, nodes| ProveError::Undecided {
        refuted_below,
        nodes,
    };
    let Some(value) = d.value else {
        return Err(undecided(d.refuted_below, d.nodes));
    };
    let (best_moves, best_nodes) = best_moves(packer, table, root, value, limits, stop)
        .map_err(|nodes| undecided(value.plies(), d.nodes + nodes))?;
    let mut searcher = Searcher::new(packer, table, limits.max_nodes, stop);
    let line = if limits.principal_line {
        principal_line(&mut searcher, root, value, &best_moves)
    } else {
        Vec::new()
    };
    let (move_values, value_nodes) = if limits.move_value_nodes > 0 {
        let per_move = ProveLimits {
            max_nodes: limits.move_value_nodes,
            ..limits
        };
        move_values(packer, table, root, value, &best_moves, per_move, stop)
    } else {
        (Vec::new(), 0)
    };
    Ok(Proof {
        value,
        best_moves,
        line,
        nodes: d.nodes + best_nodes + searcher.nodes + value_nodes,
        move_values,
        stored: table.used(),
        bytes: table.resident_bytes(),
        elapsed: started.elapsed(),
    })
}

/// Every first move of `root` that keeps its exact value `value`, and the
/// nodes it took (or those nodes if the budget ran out or `stop` said so).
/// With [`ProveLimits::threads`] >= 2 two threads share the moves, each
/// taking the next one not yet taken.
fn best_moves(
    packer: Packer,
    table: &BoundTable,
    root: &Position,
    value: Value,
    limits: ProveLimits,
    stop: &dyn Fn() -> bool,
) -> Result<(Vec<Move>, u64), u64> {
    let mut list = MoveList::new();
    movegen::legal_moves(root, &mut list);
    let moves = list.as_slice();
    let next = AtomicUsize::new(0);
    let aborted = AtomicBool::new(false);
    // One worker: keeps the moves it examined and found value-keeping.
    let work = |stop: &dyn Fn() -> bool| {
        let mut s = Searcher::new(packer, table, limits.max_nodes, stop);
        let mut kept = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&m) = moves.get(i) else { break };
            match keeps_value(&mut s, &root.play(m), value) {
                Ok(true) => kept.push(i),
                Ok(false) => {}
                Err(Abort) => {
                    aborted.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        (kept, s.nodes)
    };
    let ((mut kept, mut nodes), other) = if limits.threads < 2 {
        (work(stop), None)
    } else {
        std::thread::scope(|scope| {
            let twin = scope.spawn(|| work(&|| aborted.load(Ordering::Relaxed)));
            let own = work(&|| aborted.load(Ordering::Relaxed) || stop());
            // The twin may still be checking a move: keep polling `stop`.
            (own, Some(join_polling(twin, stop, &aborted)))
        })
    };
    if let Some((k, n)) = other {
        kept.extend(k);
        nodes += n;
    }
    if aborted.load(Ordering::Relaxed) {
        return Err(nodes);
    }
    kept.sort_unstable();
    Ok((kept.into_iter().map(|i| moves[i]).collect(), nodes))
}

/// What a forward proof established about one first move of a position
/// ([`move_values`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveValue {
    /// The exact value of the move for the side that plays it (the value
    /// of the position when that move is played).
    Exact(Value),
    /// Not decided within the budget: after the move neither side can
    /// force the end of the game within `plies` plies (counted after the
    /// move). A draw, or a decisive value longer than that.
    Undecided {
        /// Every distance below this was refuted for both sides.
        plies: u32,
    },
}

impl std::fmt::Display for MoveValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveValue::Exact(v) => write!(f, "{v}"),
            MoveValue::Undecided { plies } => write!(
                f,
                "not decided: no end of the game within {} plies after it for either side \
                 (a draw or longer)",
                plies.saturating_sub(1)
            ),
        }
    }
}

/// One first move's value and line ([`move_values`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// The move.
    pub mv: Move,
    /// Its value for the side that plays it.
    pub value: MoveValue,
    /// The move and, for a decided move when a principal line was asked
    /// for, the value-keeping moves of both sides after it (as far as the
    /// node budget reached).
    pub line: Vec<Move>,
}

/// The value of every legal first move of `root`, whose exact value
/// `value` and value-keeping first moves `best` a proof found (in
/// `table`, whose facts the deepenings below reuse): the best moves have
/// the root's value; every other move's child is deepened from 0 plies on
/// (the same questions as [`prove`]'s, one thread per move, two moves at
/// a time with [`ProveLimits::threads`] >= 2) within `limits.max_nodes`
/// nodes and `limits.max_plies`, and gets its exact value or the distance
/// below which it was refuted; with [`ProveLimits::principal_line`] a
/// decided move also gets a principal line ([`principal_line`]). Returns
/// the moves best first (exact values from the best down, in the rules
/// core's move order among equals, then the undecided ones) and the nodes
/// searched; `stop` ends the moves not yet decided as undecided.
pub fn move_values(
    packer: Packer,
    table: &BoundTable,
    root: &Position,
    value: Value,
    best: &[Move],
    limits: ProveLimits,
    stop: &dyn Fn() -> bool,
) -> (Vec<MoveLine>, u64) {
    let mut list = MoveList::new();
    movegen::legal_moves(root, &mut list);
    let moves = list.as_slice();
    let next = AtomicUsize::new(0);
    let work = |stop: &dyn Fn() -> bool| {
        let mut found = Vec::new();
        let mut nodes = 0;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&m) = moves.get(i) else { break };
            if stop() {
                // Stopped: the moves not begun stay undecided at once.
                let v = MoveValue::Undecided { plies: 0 };
                found.push((
                    i,
                    MoveLine {
                        mv: m,
                        value: v,
                        line: vec![m],
                    },
                ));
                continue;
            }
            let mut s = Searcher::new(packer, table, limits.max_nodes, stop);
            let v = if best.contains(&m) {
                MoveValue::Exact(value)
            } else {
                let d = deepen(&mut s, &root.play(m), 0, limits.max_plies);
                match d.value {
                    Some(v) => MoveValue::Exact(v.before_move()),
                    None => MoveValue::Undecided {
                        plies: d.refuted_below,
                    },
                }
            };
            let line = match v {
                MoveValue::Exact(v) if limits.principal_line => {
                    principal_line(&mut s, root, v, &[m])
                }
                _ => vec![m],
            };
            nodes += s.nodes;
            found.push((
                i,
                MoveLine {
                    mv: m,
                    value: v,
                    line,
                },
            ));
        }
        (found, nodes)
    };
    let (mut found, nodes) = if limits.threads < 2 {
        work(stop)
    } else {
        let halt = AtomicBool::new(false);
        let halt = &halt;
        std::thread::scope(|scope| {
            let twin = scope.spawn(move || work(&|| halt.load(Ordering::Relaxed)));
            let (mut own, n) = work(&|| {
                if stop() {
                    halt.store(true, Ordering::Relaxed);
                }
                halt.load(Ordering::Relaxed)
            });
            let (other, m) = join_polling(twin, stop, halt);
            own.extend(other);
            (own, n + m)
        })
    };
    found.sort_unstable_by_key(|(i, m)| match m.value {
        MoveValue::Exact(v) => (0, std::cmp::Reverse(v), *i),
        MoveValue::Undecided { .. } => (1, std::cmp::Reverse(Value::Draw), *i),
    });
    (found.into_iter().map(|(_, m)| m).collect(), nodes)
}

/// Whether `child`, reached by a move from a position of exact value
/// `value`, has the exact value that keeps it: the opponent loses within
/// `d - 1` after a move from `Win(d)` (it cannot lose faster: the win
/// within `d - 2` was refuted); it does not win within `d - 3` after a move
/// from `Loss(d)` (every child is won within `d - 1`).
fn keeps_value(s: &mut Searcher, child: &Position, value: Value) -> Result<bool, Abort> {
    match value {
        Value::Win(d) => s.loses(child, d - 1),
        Value::Loss(d) => Ok(d < 3 || !s.wins(child, d - 3)?),
        Value::Draw => Ok(false),
    }
}

/// A principal line from `root` of exact value `value` whose value-keeping
/// first moves are `first`: at each ply the first value-keeping move in the
/// rules core's move order, so every position on it has an exact value one
/// ply shorter than the one before, down to the loser without a legal
/// move. The line stops early (every move on it still value-keeping) if
/// the searcher's node budget runs out.
pub fn principal_line(
    s: &mut Searcher,
    root: &Position,
    value: Value,
    first: &[Move],
) -> Vec<Move> {
    let Some(&m) = first.first() else {
        return Vec::new();
    };
    let mut line = vec![m];
    let mut pos = root.play(m);
    let mut value = value.after_move();
    let mut list = MoveList::new();
    while value.plies() > 0 {
        movegen::legal_moves(&pos, &mut list);
        let mut next = None;
        for &m in list.iter() {
            let child = pos.play(m);
            match keeps_value(s, &child, value) {
                Ok(true) => {
                    next = Some((m, child));
                    break;
                }
                Ok(false) => {}
                Err(Abort) => return line,
            }
        }
        let Some((m, child)) = next else {
            // Never: a position of exact value has a value-keeping move.
            debug_assert!(false, "no value-keeping move");
            return line;
        };
        line.push(m);
        pos = child;
        value = value.after_move();
    }
    line
}

#[cfg(test)]
mod tests;
