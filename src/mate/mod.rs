//! `go mate`: a df-pn tsume solver (詰将棋) for every board.
//!
//! The side to move at the root is the attacker: it may play only checking
//! moves; the defender answers with every legal move (king moves, captures,
//! interpositions by moving or dropping). Pawn-drop mate is illegal in the
//! move generator, so it never mates here. Positions without the attacker's
//! king (the usual tsume form) and a defender holding all remaining pieces
//! work as any other position.
//!
//! - [`table`]: the fixed-size table (`MateHash` MiB) with superiority of
//!   hands and replacement of the least-worked entry when a cluster is full.
//! - [`pieces`]: proof and disproof pieces (証明駒 / 反証駒), the hand a
//!   result needs, so that it serves every hand superior (or inferior) to it.
//! - [`dfpn`]: df-pn with thresholds, the 1+ε trick, heuristic initial
//!   numbers, and repetition handled per path (a disproof through
//!   repetition is stored only where the cycle lies within its subtree).
//! - [`pv`]: the answer line: the attacker's shortest mate known against the
//!   defender's longest resistance, useless interpositions (無駄合い) ranked
//!   as if not played, every line checked move by move before it is sent;
//!   the main line by exact lengths when the shortest length is proven.
//!
//! Replies: `checkmate <moves>` once proven, `checkmate nomate` only when
//! the root is disproven without the ply cap cutting any path (a disproof
//! through repetition at the root is exact: no repetition-free mate exists),
//! `checkmate timeout` when the time runs out or `stop` comes first.
//!
//! With `Threads` above 1, helpers join the proof once it has run for
//! [`HELPERS_AFTER_MS`]: each runs df-pn from the root on the shared table
//! with its own ε (see [`crew`]); the first to solve the root ends the
//! others. The answer line is then found by the main searcher alone.

mod crew;
pub mod dfpn;
pub mod keys;
pub mod no_quick_mate;
pub mod pieces;
pub mod pv;
pub mod recent_checks;
pub mod table;
#[cfg(test)]
mod tests;

use crate::moves::Move;
use crate::position::Position;
use crate::search::Control;
use crossbeam_channel::Sender;
use dfpn::{Dfpn, Poll};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;
use table::{INF, Table};

/// Default size of the mate table in MiB (`MateHash`).
pub const DEFAULT_MATE_HASH_MB: usize = 256;
/// Largest `MateHash` in MiB.
pub const MAX_MATE_HASH_MB: usize = 65536;
/// The table kept from one `go mate` to the next.
static TABLE: Mutex<Option<Table>> = Mutex::new(None);
/// How long a `go mate` runs before another thread starts faulting in its
/// table's pages: most searches are over by then, and touch only the few
/// pages they need (populating the whole table at once would zero pages no
/// short search uses: the generated tsume set took 0.8 s longer in all
/// with a delay of 50 ms).
const POPULATE_DELAY: std::time::Duration = std::time::Duration::from_secs(1);
/// Stack of the solver's thread: the search recurses once per ply.
const SOLVER_STACK: usize = 512 << 20;
/// Milliseconds between two `info` lines.
const INFO_INTERVAL_MS: u128 = 1000;
/// Nodes the answer line may spend re-proving replaced entries.
const LINE_NODE_LIMIT: u64 = 50_000_000;
/// Nodes the line shortening may spend, per node of the proof, when the
/// proof is longer than [`SHORT_PROOF_PLIES`] (sessions 16-37: for every
/// proof; until then 0, i.e. only [`SHORTEN_MIN_NODES`]).
const SHORTEN_NODE_FACTOR: u64 = 9;
/// Proofs up to this length (the mates of games) get
/// [`SHORT_SHORTEN_NODE_FACTOR`]: their lines have few positions to make
/// exact. Session 38, at 5 s a problem: the games set took 9.2 s instead
/// of 14.2 s (YaneuraOu's mate build: 11.2 s) with 71 instead of 72 of 80
/// lines of the agreed length, the generated set 7.9 s instead of
/// 13.6 s with 110 instead of 112 of 120; the long classics at 60 s sent
/// the same lengths. With the smaller factor for every proof, ミクロコスモス
/// after 1,464 plies (a 65-ply proof) kept 65 plies instead of 61.
const SHORT_PROOF_PLIES: usize = 47;
/// [`SHORTEN_NODE_FACTOR`] for proofs up to [`SHORT_PROOF_PLIES`].
const SHORT_SHORTEN_NODE_FACTOR: u64 = 4;
/// Nodes the line shortening may spend besides.
const SHORTEN_MIN_NODES: u64 = 4096;
/// Share (in percent) of the remaining time the line shortening may take.
const SHORTEN_SHARE_PERCENT: u64 = 50;
/// The line shortening's first step from the root (see [`shorten`]) gives
/// up when it takes more than the proof's nodes divided by this, and each
/// position's exact length from the end of the line gets at least as many
/// (0: from the root only, without a limit per step).
const STEP_DIVISOR: u64 = 3;
/// The shortening from the end gives one position at least this fraction
/// of the nodes (or time) left.
const POSITION_SHARE_DIV: u64 = 8;
/// Share (in percent) of the time then left that the exact line may take
/// (the rest is for the line of the known lengths, if it runs out).
const EXACT_LINE_SHARE_PERCENT: u64 = 60;
/// Milliseconds a proof runs alone before its helpers join (with
/// `Threads` above 1): most problems are solved by then, without the
/// cluster locks of a shared table (see [`Table::share`]).
pub const HELPERS_AFTER_MS: u64 = 1000;

/// The outcome of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mating line, attacker's move first, ending in mate or in a check
    /// that only useless interpositions answer (see
    /// [`pv::without_final_useless_drop`]).
    Mate(Vec<Move>),
    /// Proven: no mate exists.
    NoMate,
    /// Time ran out or `stop` came first.
    Timeout,
}

impl MateResult {
    /// The USI reply: `checkmate <moves>`, `checkmate nomate`, `checkmate timeout`.
    pub fn usi(&self) -> String {
        match self {
            MateResult::Mate(line) => {
                let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
                format!("checkmate {}", moves.join(" "))
            }
            MateResult::NoMate => "checkmate nomate".to_string(),
            MateResult::Timeout => "checkmate timeout".to_string(),
        }
    }
}

/// Settings of one mate search.
#[derive(Clone, Debug)]
pub struct MateOptions {
    /// Milliseconds from [`Control::clock_start`]; `None` = until `stop`.
    pub time_ms: Option<u64>,
    /// Milliseconds kept back from `time_ms` (`NetworkDelay`).
    pub network_delay: u64,
    /// Table size in MiB (`MateHash`).
    pub hash_mb: usize,
    /// Searchers of the proof (`Threads`): the main one and its helpers.
    pub threads: usize,
    /// Milliseconds before the helpers join ([`HELPERS_AFTER_MS`]).
    pub helpers_after_ms: u64,
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            time_ms: None,
            network_delay: 0,
            hash_mb: DEFAULT_MATE_HASH_MB,
            threads: 1,
            helpers_after_ms: HELPERS_AFTER_MS,
        }
    }
}

/// The clock, the stop flag and the `info` lines.
struct Clock<'a> {
    control: &'a Control,
    deadline: Option<u64>,
    start: Instant,
    last_info: u128,
    out: Option<&'a Sender<String>>,
    /// A node count at which to stop (line shortening's budget).
    node_limit: u64,
    /// Whether `stop` and the deadline are ignored (while the line of a
    /// proven mate is extracted).
    finishing: bool,
    /// Nodes of the proof's helpers, added to the searcher's in the `info`
    /// lines once the proof is over.
    helper_nodes: u64,
}

impl Clock<'_> {
    fn elapsed_ms(&self) -> u128 {
        self.control.clock_start().elapsed().as_millis()
    }

    fn info(&self, nodes: u64, table: &Table) -> String {
        let nodes = nodes + self.helper_nodes;
        let ms = self.start.elapsed().as_millis().max(1);
        format!(
            "info time {ms} nodes {nodes} nps {} hashfull {}",
            nodes as u128 * 1000 / ms,
            table.hashfull()
        )
    }

    /// Moves the deadline (if any) to `percent` of the time left before
    /// it; returns the deadline it had, for the caller to restore.
    fn share_deadline(&mut self, percent: u64) -> Option<u64> {
        let saved = self.deadline;
        if let Some(d) = saved {
            let now = self.elapsed_ms() as u64;
            self.deadline = Some(now + d.saturating_sub(now) * percent / 100);
        }
        saved
    }

    /// The nodes left before `node_limit` and, at the rate searched so
    /// far (`nodes` since the start), before the deadline.
    fn nodes_left(&self, nodes: u64, node_limit: u64) -> u64 {
        let left = node_limit.saturating_sub(nodes);
        let Some(d) = self.deadline else {
            return left;
        };
        let ms_left = u128::from(d).saturating_sub(self.elapsed_ms());
        let rate = u128::from(nodes) / self.start.elapsed().as_millis().max(1);
        left.min(u64::try_from(rate * ms_left).unwrap_or(u64::MAX))
    }

    fn out_of_time(&self) -> bool {
        self.control.stopped()
            || self
                .deadline
                .is_some_and(|d| self.elapsed_ms() >= d as u128)
    }
}

impl Poll for Clock<'_> {
    fn poll(&mut self, nodes: u64, table: &Table) -> bool {
        let now = self.start.elapsed().as_millis();
        if now >= self.last_info + INFO_INTERVAL_MS {
            self.last_info = now;
            if let Some(out) = self.out {
                let _ = out.send(self.info(nodes, table));
            }
        }
        nodes >= self.node_limit || (!self.finishing && self.out_of_time())
    }
}

/// Searches a mate for the side to move of `pos` within `time_ms` (from
/// [`Control::clock_start`], less `network_delay`; `None` = until `stop`),
/// with the default table size. Returns the result and the nodes searched.
pub fn mate_search(
    pos: &Position,
    time_ms: Option<u64>,
    network_delay: u64,
    control: &Control,
) -> (MateResult, u64) {
    let options = MateOptions {
        time_ms,
        network_delay,
        ..MateOptions::default()
    };
    solve(pos, &options, control, None)
}

/// Searches a mate for the side to move of `pos`, sending `info` lines
/// (about every second) to `out`. Returns the result and the nodes searched.
pub fn solve(
    pos: &Position,
    options: &MateOptions,
    control: &Control,
    out: Option<&Sender<String>>,
) -> (MateResult, u64) {
    if control.stopped() {
        return (MateResult::Timeout, 0);
    }
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("mate".into())
            .stack_size(SOLVER_STACK)
            .spawn_scoped(s, || run(pos, options, control, out))
            .expect("cannot start the mate thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn run(
    pos: &Position,
    options: &MateOptions,
    control: &Control,
    out: Option<&Sender<String>>,
) -> (MateResult, u64) {
    let deadline = options
        .time_ms
        .map(|t| crate::search::time::keep_back(t, options.network_delay).max(1));
    let mut clock = Clock {
        control,
        deadline,
        start: Instant::now(),
        last_info: 0,
        out,
        node_limit: u64::MAX,
        finishing: false,
        helper_nodes: 0,
    };
    // One table serves every search (one at a time; a search that finds it
    // busy makes its own).
    let mb = options.hash_mb.clamp(1, MAX_MATE_HASH_MB);
    let mut shared = TABLE.try_lock().ok();
    let mut own = None;
    let table = match shared.as_deref_mut() {
        Some(slot) => {
            if slot.as_ref().is_none_or(|t| t.size_mb() != mb) {
                *slot = None;
                *slot = Some(Table::new(mb));
            }
            slot.as_mut().expect("just made")
        }
        None => own.insert(Table::new(mb)),
    };
    table.clear();
    // The pages of a large table are faulted in on another thread while
    // the search runs on the first ones, when a core is free for it: with a
    // searcher on every core it would take their time (20% of it on
    // 飛燕乱舞 after 80 plies with Threads 2 on 2 cores, perf), where the
    // searchers fault in only the pages they touch.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if options.threads > 1 && options.threads >= cores {
        return prove(table, pos, options, &mut clock, out);
    }
    let memory = table.memory();
    crate::prefetch::populate_while(memory, POPULATE_DELAY, || {
        prove(table, pos, options, &mut clock, out)
    })
}

/// Proves or disproves a mate from `pos` with `table`, then finds the line
/// to send.
fn prove(
    table: &Table,
    pos: &Position,
    options: &MateOptions,
    clock: &mut Clock<'_>,
    out: Option<&Sender<String>>,
) -> (MateResult, u64) {
    let mut dfpn = Dfpn::new(table, pos.side_to_move());
    dfpn.use_large_cache();
    let (root, helper_nodes) = crew::prove_root(&mut dfpn, pos, options, clock);
    clock.helper_nodes = helper_nodes;
    let result = if root.pn == 0 {
        if let Some(out) = out {
            let ms = clock.start.elapsed().as_millis();
            let _ = out.send(format!(
                "info string mate of {} plies proven at {} nodes in {ms} ms",
                root.len,
                dfpn.nodes + helper_nodes
            ));
        }
        // The proof's line while its entries are fresh, whatever the time:
        // the answer when no shorter line comes within the time left.
        let first_line = line_of_the_proof(&mut dfpn, pos, clock, true);
        let shortest = shorten(
            &mut dfpn,
            pos,
            root.len as usize,
            first_line.as_deref(),
            clock,
        );
        if let Some(out) = out {
            let _ = out.send(shortest.usi());
        }
        let exact = if shortest.proven {
            exact_line(&mut dfpn, pos, shortest.plies, clock)
        } else {
            None
        };
        let line = exact.or(shortest.line).or_else(|| {
            let table_line = line_of_the_proof(&mut dfpn, pos, clock, false);
            closest_line(table_line, first_line, shortest.plies)
        });
        match line {
            Some(line) => MateResult::Mate(pv::without_final_useless_drop(pos, line)),
            None => {
                log::error!("mate proven but no line could be extracted");
                MateResult::Timeout
            }
        }
    } else if root.dn == 0 && !dfpn.capped {
        MateResult::NoMate
    } else {
        MateResult::Timeout
    };
    if let Some(out) = out {
        let _ = out.send(clock.info(dfpn.nodes, dfpn.table));
    }
    (result, dfpn.nodes + helper_nodes)
}

/// The main line when the shortest mate's length is proven (see
/// [`pv::exact_line`]), within part of the remaining time
/// ([`EXACT_LINE_SHARE_PERCENT`]) and [`LINE_NODE_LIMIT`] nodes; `None`
/// when they run out (the line of the known lengths is sent then).
fn exact_line(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    plies: usize,
    clock: &mut Clock<'_>,
) -> Option<Vec<Move>> {
    let saved_deadline = clock.share_deadline(EXACT_LINE_SHARE_PERCENT);
    clock.node_limit = dfpn.nodes.saturating_add(LINE_NODE_LIMIT);
    let line = pv::exact_line(dfpn, pos, plies, clock);
    match &line {
        Some(line) => log::debug!("exact line: {} plies at {} nodes", line.len(), dfpn.nodes),
        None => log::debug!("no exact line within the budget ({} nodes)", dfpn.nodes),
    }
    dfpn.stopped = false;
    clock.deadline = saved_deadline;
    clock.node_limit = u64::MAX;
    line
}

/// The line of the known lengths ([`pv::principal_line`]) within
/// [`LINE_NODE_LIMIT`] nodes, and, unless `whatever_the_time`, within the
/// time and `stop`.
fn line_of_the_proof(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    clock: &mut Clock<'_>,
    whatever_the_time: bool,
) -> Option<Vec<Move>> {
    clock.finishing = whatever_the_time;
    clock.node_limit = dfpn.nodes.saturating_add(LINE_NODE_LIMIT);
    let line = pv::principal_line(dfpn, pos, clock);
    dfpn.stopped = false;
    clock.finishing = false;
    clock.node_limit = u64::MAX;
    line
}

/// Of the table's line at the end and the proof's first line, the one of
/// `plies` plies (the shortest mate known), else the nearest longer one,
/// else the longer (a line shorter than the proven length has a defender
/// giving up too soon); the table's on a tie. The table's line follows the
/// lengths stored, which searches after the proof lower along other lines;
/// where they lead the longest defence round a cycle, the line falls back
/// to the defender's shortest replies (session 28: kotobuki-zuko-100, a
/// mate of 611 plies, came out as a line of 145 once the shortening from
/// the end had searched on).
fn closest_line(
    table_line: Option<Vec<Move>>,
    first_line: Option<Vec<Move>>,
    plies: usize,
) -> Option<Vec<Move>> {
    match (table_line, first_line) {
        (Some(t), Some(f)) => {
            // Lines not shorter than `plies` first, then the nearer.
            let rank = |l: &[Move]| (l.len() < plies, l.len().abs_diff(plies));
            Some(if rank(&f) < rank(&t) { f } else { t })
        }
        (t, f) => t.or(f),
    }
}

/// What the line shortening established: the length of the shortest mate
/// known (every ply counted, interpositions included) and whether no
/// shorter one exists.
struct Shortest {
    plies: usize,
    proven: bool,
    /// A mating line of `plies` plies that the table's lines may not follow
    /// (the shortening from the end splices shorter tails into the line
    /// without lowering the lengths stored above them).
    line: Option<Vec<Move>>,
}

impl Shortest {
    /// The `info string` that reports it.
    fn usi(&self) -> String {
        let what = if self.proven {
            "no shorter mate exists"
        } else {
            "a shorter one is not ruled out"
        };
        format!(
            "info string shortest mate found: {} plies, every interposition counted ({what})",
            self.plies
        )
    }
}

/// Spends part of the remaining time looking for shorter mates, until no
/// mate two plies shorter than the one known exists (the mate is then a
/// shortest one), or the share of time or nodes is spent. Bounded by nodes
/// when there is no time limit. Three stages share the budget:
/// 1. from the root ([`shorten_within`]), its first step within
///    [`STEP_DIVISOR`]'s share of the proof's nodes: long problems come
///    down cheaply this way, unless the first step must already disprove
///    a shorter mate or find a detour deep in the line;
/// 2. when the first step found no shorter mate, from the end of the line
///    ([`shorten_from_the_end`]), each position within the same share or
///    an eighth of what is left, which finds such a detour where it starts;
/// 3. from the root again with whatever is left.
fn shorten(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    proven_len: usize,
    first_line: Option<&[Move]>,
    clock: &mut Clock<'_>,
) -> Shortest {
    let proof_nodes = dfpn.nodes;
    let saved_deadline = clock.share_deadline(SHORTEN_SHARE_PERCENT);
    // `dfpn.nodes` counts on from the proof's.
    let factor = if proven_len <= SHORT_PROOF_PLIES {
        SHORT_SHORTEN_NODE_FACTOR
    } else {
        SHORTEN_NODE_FACTOR
    };
    let node_limit = proof_nodes
        .saturating_add(proof_nodes.saturating_mul(factor))
        .saturating_add(SHORTEN_MIN_NODES);
    let step = proof_nodes
        .checked_div(STEP_DIVISOR)
        .map_or(u64::MAX, |n| n + SHORTEN_MIN_NODES);
    let mut shortest = shorten_within(dfpn, pos, proven_len, clock, step, node_limit);
    // The line's end first only when the root made no progress: when it
    // did, what remains is mostly the disproof of a shorter mate, which the
    // root's search finds best on its own (astral-traveler's 579 plies took
    // longer than the time after the end's searches).
    let from_the_end = shortest.plies >= proven_len;
    if step != u64::MAX && from_the_end && !shortest.proven && !clock.out_of_time() {
        dfpn.stopped = false;
        let line = first_line.map(<[Move]>::to_vec);
        shortest = shorten_from_the_end(dfpn, pos, line, shortest.plies, clock, step, node_limit);
    }
    if step != u64::MAX && !shortest.proven && !clock.out_of_time() {
        dfpn.stopped = false;
        let line = shortest.line.take();
        shortest = shorten_within(dfpn, pos, shortest.plies, clock, u64::MAX, node_limit);
        shortest.line = line;
    }
    // The line from the end is sent when every defender's reply on it is
    // proven mated within the line's rest: it then proves a mate of its own
    // length. A line whose defender chose by the lengths known before its
    // tail got shorter fails (game-077: a line of 11 plies where another
    // reply holds out for 13).
    match shortest.line.take() {
        Some(line) if line.len() <= shortest.plies && holds_every_defence(dfpn, pos, &line) => {
            shortest.plies = line.len();
            shortest.line = Some(line);
        }
        _ => {}
    }
    dfpn.stopped = false;
    clock.deadline = saved_deadline;
    clock.node_limit = u64::MAX;
    shortest
}

/// The shortening from the root: df-pn again with the length limited to
/// two plies less than the mate known, until no such mate exists, the first
/// step within `step` nodes and all within `node_limit` (counted from 0).
fn shorten_within(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    proven_len: usize,
    clock: &mut Clock<'_>,
    step: u64,
    node_limit: u64,
) -> Shortest {
    let mut best = dfpn
        .probe(pos)
        .filter(|v| v.pn == 0)
        .map_or(proven_len, |v| (v.len as usize).min(proven_len));
    // A mate of one ply is a shortest one.
    let mut proven = best == 1;
    while best >= 3 && !dfpn.stopped {
        dfpn.limit = best - 2;
        // Only the first step is held to `step`: a stopped search's
        // numbers resume badly, so a step that found shorter mates before
        // goes on to the end of the budget.
        let cap = if best >= proven_len { step } else { u64::MAX };
        clock.node_limit = dfpn.nodes.saturating_add(cap).min(node_limit);
        let v = dfpn.mid(pos, 0, INF, INF, clock);
        if v.pn != 0 {
            // Disproven within the limit, with no path cut by the ply cap
            // and not merely stopped: no mate of `best - 2` plies or fewer.
            proven = v.dn == 0 && !dfpn.stopped && !dfpn.capped;
            break;
        }
        best = v.len as usize;
        proven = best == 1;
        log::debug!("shortening: a mate of {best} plies at {} nodes", dfpn.nodes);
    }
    dfpn.limit = usize::MAX;
    Shortest {
        plies: best,
        proven,
        line: None,
    }
}

/// Whether `line` from `root` (a mating line) mates against every defence
/// within its length, by the table's proofs alone: at each of the
/// defender's turns, every reply but the line's is proven mated within
/// what the line has left after it.
fn holds_every_defence(dfpn: &Dfpn<'_>, root: &Position, line: &[Move]) -> bool {
    let mut pos = root.clone();
    let mut replies = crate::moves::MoveList::new();
    for (j, &m) in line.iter().enumerate() {
        if j % 2 == 1 {
            crate::movegen::legal_moves(&pos, &mut replies);
            let rest = line.len() - j - 1;
            let held = replies
                .iter()
                .filter(|&&r| r != m)
                .all(|&r| usize::from(dfpn.proof_len(&pos.play(r))) <= rest);
            if !held {
                return false;
            }
        }
        pos = pos.play(m);
    }
    pv::is_mating_line(root, line)
}

/// The shortest mate found from the proven `pos` (at `ply`, the path above
/// it entered): its stored proof length, lowered by searches limited to two
/// plies less until one fails, and whether the last one failed by a
/// disproof (the length is then exact). `None` when not even a proof
/// length is known (the entry was replaced and its search stopped).
fn exact_length(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    ply: usize,
    poll: &mut dyn Poll,
) -> Option<(usize, bool)> {
    let mut best = dfpn.proof_len(pos) as usize;
    while best >= 3 {
        log::trace!(
            "exact length at ply {ply}: within {}? at {} nodes",
            best - 2,
            dfpn.nodes
        );
        match dfpn.mate_within(pos, ply, best - 2, poll) {
            Some(false) => break,
            None => return (best < usize::from(u16::MAX)).then_some((best, false)),
            Some(true) => {}
        }
        let shorter = dfpn.proof_len(pos) as usize;
        if shorter >= best {
            return Some((best, false));
        }
        best = shorter;
    }
    Some((best, true))
}

/// The line shortening from the end of the line back to the root: the
/// exact length ([`exact_length`]) of each of the attacker's positions on
/// the line, the last first. Each one's searches find the deeper positions
/// exact in the table (a proof of their length, and the bound that no
/// shorter mate exists), so they stop where the line goes on and search
/// only the rest: a shorter way (the attacker's detour in a long problem)
/// is found where it starts, and a root-level search limited to two plies
/// less than a long mate, which searches everything below it again, is
/// left to the end, when it is cheap. When a position's mate gets shorter
/// than the line's rest from it, the line from there is taken again from
/// the table and its new end comes first. A position whose length cannot
/// be made exact within `per_position` nodes keeps the shortest mate found
/// for it, and the walk goes on to the positions before it: the line comes
/// out shorter, and its length is proven shortest only when the root's is
/// exact. When the time or `node_limit` runs out, the line as it stands is
/// the result. The walk starts from `first_line` (the line taken right
/// after the proof), else from the table's line.
fn shorten_from_the_end(
    dfpn: &mut Dfpn<'_>,
    root: &Position,
    first_line: Option<Vec<Move>>,
    proven_len: usize,
    clock: &mut Clock<'_>,
    per_position: u64,
    node_limit: u64,
) -> Shortest {
    // Only the root's proof bounds the mate against every defence: the
    // line's defender plays its longest known replies, whose stored lengths
    // may be above what the line's tail takes.
    let bound = |dfpn: &Dfpn<'_>| (dfpn.proof_len(root) as usize).min(proven_len);
    // A search stopped by its own share, not by the time or `node_limit`,
    // resumes; returns whether the budget is spent.
    let resume = |dfpn: &mut Dfpn<'_>, clock: &Clock<'_>| {
        let spent = clock.out_of_time() || dfpn.nodes >= node_limit;
        if !spent {
            dfpn.stopped = false;
        }
        spent
    };
    clock.node_limit = dfpn.nodes.saturating_add(per_position).min(node_limit);
    let line = first_line.or_else(|| pv::principal_line(dfpn, root, clock));
    log::trace!(
        "shortening from the end: a line of {:?} plies at {} nodes",
        line.as_ref().map(Vec::len),
        dfpn.nodes
    );
    let Some(mut line) = line else {
        return Shortest {
            plies: bound(dfpn),
            proven: false,
            line: None,
        };
    };
    // The attacker's positions on the line, from the last one back; those
    // that could not be made exact, with the length they kept (a walk that
    // comes back to one after a splice skips it unless it got shorter).
    let mut k = line.len().saturating_sub(1) & !1;
    let mut inexact: HashMap<u64, usize> = HashMap::new();
    loop {
        let mut path = Vec::with_capacity(k + 1);
        let mut pos = root.clone();
        for (ply, &m) in line[..k].iter().enumerate() {
            dfpn.enter(pos.key(), ply);
            path.push(pos.key());
            pos = pos.play(m);
        }
        // A position gets its share, or more while much is left; the root
        // (whose search alone can lower the proven length) all that is left.
        let share = if k == 0 {
            u64::MAX
        } else {
            per_position.max(clock.nodes_left(dfpn.nodes, node_limit) / POSITION_SHARE_DIV)
        };
        clock.node_limit = dfpn.nodes.saturating_add(share).min(node_limit);
        let known = dfpn.proof_len(&pos) as usize;
        let exact = if inexact.get(&pos.key()) == Some(&known) {
            Some((known, false))
        } else {
            exact_length(dfpn, &pos, k, clock)
        };
        if let Some((e, false)) = exact {
            inexact.insert(pos.key(), e);
        }
        log::trace!(
            "shortening from the end: ply {k} of {}: {exact:?} at {} nodes",
            line.len(),
            dfpn.nodes
        );
        // Stopped by this position's share alone: the rest of the budget
        // goes to the positions before it.
        let spent = resume(dfpn, clock);
        let tail = match exact {
            Some((e, _)) if e < line.len() - k && !spent => {
                clock.node_limit = dfpn.nodes.saturating_add(per_position).min(node_limit);
                let tail = pv::principal_line_at(dfpn, &pos, k, clock);
                resume(dfpn, clock);
                tail
            }
            _ => None,
        };
        for key in path {
            dfpn.leave(key);
        }
        let spliced = match tail {
            Some(tail) if tail.len() < line.len() - k => {
                line.truncate(k);
                line.extend(tail);
                log::debug!(
                    "shortening from the end: ply {k}, line now {} plies",
                    line.len()
                );
                true
            }
            _ => false,
        };
        if k == 0 || spent {
            let bound = bound(dfpn);
            let (plies, proven) = match exact {
                Some((e, exact)) if k == 0 => (e.min(bound), exact && e <= bound),
                _ => (bound, false),
            };
            log::debug!(
                "shortening from the end: {plies} plies ({}), a line of {} at {} nodes",
                if proven {
                    "exact"
                } else {
                    "not proven shortest"
                },
                line.len(),
                dfpn.nodes
            );
            return Shortest {
                plies,
                proven,
                line: Some(line),
            };
        }
        k = if spliced {
            line.len().saturating_sub(1) & !1
        } else {
            k - 2
        };
    }
}
