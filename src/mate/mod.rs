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

pub mod dfpn;
pub mod keys;
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
/// Nodes the line shortening may spend, per node of the proof (session 16:
/// 9; until then 0, i.e. only [`SHORTEN_MIN_NODES`]).
const SHORTEN_NODE_FACTOR: u64 = 9;
/// Nodes the line shortening may spend besides.
const SHORTEN_MIN_NODES: u64 = 4096;
/// Share (in percent) of the remaining time the line shortening may take.
const SHORTEN_SHARE_PERCENT: u64 = 50;
/// Share (in percent) of the time then left that the exact line may take
/// (the rest is for the line of the known lengths, if it runs out).
const EXACT_LINE_SHARE_PERCENT: u64 = 60;

/// The outcome of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mating line, attacker's move first, ending in mate.
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
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            time_ms: None,
            network_delay: 0,
            hash_mb: DEFAULT_MATE_HASH_MB,
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
}

impl Clock<'_> {
    fn elapsed_ms(&self) -> u128 {
        self.control.clock_start().elapsed().as_millis()
    }

    fn info(&self, nodes: u64, table: &Table) -> String {
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
    // the search runs on the first ones.
    let memory = table.memory();
    crate::prefetch::populate_while(memory, POPULATE_DELAY, || {
        prove(table, pos, &mut clock, out)
    })
}

/// Proves or disproves a mate from `pos` with `table`, then finds the line
/// to send.
fn prove(
    table: &mut Table,
    pos: &Position,
    clock: &mut Clock<'_>,
    out: Option<&Sender<String>>,
) -> (MateResult, u64) {
    let mut dfpn = Dfpn::new(table, pos.side_to_move());
    let root = dfpn.mid(pos, 0, INF, INF, clock);
    let result = if root.pn == 0 {
        if let Some(out) = out {
            let ms = clock.start.elapsed().as_millis();
            let _ = out.send(format!(
                "info string mate of {} plies proven at {} nodes in {ms} ms",
                root.len, dfpn.nodes
            ));
        }
        let shortest = shorten(&mut dfpn, pos, root.len as usize, clock);
        if let Some(out) = out {
            let _ = out.send(shortest.usi());
        }
        let exact = if shortest.proven {
            exact_line(&mut dfpn, pos, shortest.plies, clock)
        } else {
            None
        };
        clock.finishing = true;
        clock.node_limit = dfpn.nodes.saturating_add(LINE_NODE_LIMIT);
        match exact.or_else(|| pv::principal_line(&mut dfpn, pos, clock)) {
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
    (result, dfpn.nodes)
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

/// What the line shortening established: the length of the shortest mate
/// known (every ply counted, interpositions included) and whether no
/// shorter one exists.
struct Shortest {
    plies: usize,
    proven: bool,
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

/// Spends part of the remaining time looking for shorter mates: df-pn again
/// with the length limited to two plies less than the mate known, until no
/// such mate exists (the mate is then a shortest one), or the share of time
/// or nodes is spent. Bounded by nodes when there is no time limit.
fn shorten(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    proven_len: usize,
    clock: &mut Clock<'_>,
) -> Shortest {
    let proof_nodes = dfpn.nodes;
    let saved_deadline = clock.share_deadline(SHORTEN_SHARE_PERCENT);
    // `dfpn.nodes` counts on from the proof's.
    clock.node_limit = proof_nodes
        .saturating_add(proof_nodes.saturating_mul(SHORTEN_NODE_FACTOR))
        .saturating_add(SHORTEN_MIN_NODES);
    let shortest = shorten_within(dfpn, pos, proven_len, clock);
    dfpn.stopped = false;
    clock.deadline = saved_deadline;
    clock.node_limit = u64::MAX;
    shortest
}

/// The loop of [`shorten`], within whatever budget `poll` keeps.
fn shorten_within(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    proven_len: usize,
    poll: &mut dyn Poll,
) -> Shortest {
    let mut best = dfpn
        .probe(pos)
        .filter(|v| v.pn == 0)
        .map_or(proven_len, |v| v.len as usize);
    // A mate of one ply is a shortest one.
    let mut proven = best == 1;
    while best >= 3 && !dfpn.stopped {
        dfpn.limit = best - 2;
        let v = dfpn.mid(pos, 0, INF, INF, poll);
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
    }
}
