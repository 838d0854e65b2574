//! The root mate probe: a short df-pn tsume search ([`crate::mate`]) for
//! the side to move, run early in the alpha-beta search.
//!
//! Mates by a long series of checks lie far beyond the depth the alpha-beta
//! search reaches in a game's time, but df-pn proves many of them in a few
//! thousand nodes. The search's main thread runs the probe after iteration
//! 2 unless the search already sees a mate; a proven mate ends the search
//! (`score mate N` with the checked line: a proof, never a guess).
//! Otherwise the search goes on as if the probe had not run, its nodes
//! counted. (Probing the opponent's mate after the root moves that become
//! the best, to set aside a move proven to lose, is the search's
//! `DEFENCE_PROBE` switch, off: it did not win games in sessions 7 and 32,
//! docs/search-results.md.)
//!
//! The game's earlier positions are on the probe's path from the start, so
//! the proof search keeps off them (a repetition there could make the
//! checks a perpetual check, though only a fourth occurrence would): a
//! conservative rule that may hide a mate. Entries of the probe's own table
//! and the line's reading do not re-check it, which is harmless, since one
//! earlier occurrence of a position is no 千日手.

use super::Control;
use crate::mate::dfpn::{Dfpn, Poll};
use crate::mate::pv::principal_line;
use crate::mate::table::{INF, Table};
use crate::moves::Move;
use crate::position::Position;
use std::sync::Mutex;
use std::time::Instant;

/// Size of the probe's own table in MiB (cleared before every probe, so
/// results from a probe for the other side are never read).
pub const PROBE_TABLE_MB: usize = 16;
/// Probe nodes per millisecond of the move's optimum time (a quarter of
/// the time or so at the solver's usual speed; the deadline of
/// `PROBE_TIME_PERCENT` in search.rs binds when it is slower).
pub const PROBE_NODES_PER_MS: u64 = 50;
/// Fewest nodes a timed probe gets.
pub const PROBE_MIN_NODES: u64 = 2_000;
/// Most nodes a timed probe gets.
pub const PROBE_MAX_NODES: u64 = 200_000;
/// Nodes between two checks of the probe's budget, deadline and `stop`.
pub const PROBE_POLL_INTERVAL: u64 = 256;
/// Nodes of a probe when time does not limit the search (depth or node
/// limits, `infinite`): fixed, so that such searches stay deterministic.
pub const PROBE_UNTIMED_NODES: u64 = 20_000;

/// The probe's table, kept between moves (allocated on first use).
#[derive(Default)]
pub struct MateProbe {
    table: Mutex<Option<Table>>,
}

impl std::fmt::Debug for MateProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MateProbe").finish_non_exhaustive()
    }
}

/// A `go nodes N` search gives the probe at most N / this.
pub const PROBE_SHARE_OF_NODE_LIMIT: u64 = 10;

/// The probe's node budget for a move whose optimum time is `optimum_ms`
/// (`None`: time does not limit the search) in a search limited to
/// `node_limit` nodes (0 = none).
pub fn node_budget(optimum_ms: Option<u64>, node_limit: u64) -> u64 {
    let nodes = match optimum_ms {
        Some(ms) => ms
            .saturating_mul(PROBE_NODES_PER_MS)
            .clamp(PROBE_MIN_NODES, PROBE_MAX_NODES),
        None => PROBE_UNTIMED_NODES,
    };
    if node_limit > 0 {
        nodes.min(node_limit / PROBE_SHARE_OF_NODE_LIMIT)
    } else {
        nodes
    }
}

/// What a probe found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeResult {
    /// A proven mate's line, attacker's move first, ending in mate
    /// (checked move by move); `None`: no mate proven.
    pub mate: Option<Vec<Move>>,
    /// Nodes the probe searched.
    pub nodes: u64,
}

/// Stops the probe at its node budget, its deadline or at `stop`.
struct Budget<'a> {
    control: &'a Control,
    limit: u64,
    deadline: Option<Instant>,
}

impl Poll for Budget<'_> {
    fn poll(&mut self, nodes: u64, _table: &Table) -> bool {
        nodes >= self.limit
            || self.control.stopped()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl MateProbe {
    /// Looks for a mate by the side to move of `pos` within `nodes` nodes.
    /// `history` holds the keys of the game's earlier positions. The probe
    /// ends at `deadline` too (`None`: nodes only); it checks its limits
    /// every [`PROBE_POLL_INTERVAL`] nodes.
    pub fn probe(
        &self,
        pos: &Position,
        history: &[u64],
        nodes: u64,
        deadline: Option<Instant>,
        control: &Control,
    ) -> ProbeResult {
        let mut slot = self
            .table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let table = slot.get_or_insert_with(|| Table::new(PROBE_TABLE_MB));
        table.clear();
        let mut dfpn = Dfpn::new(table, pos.side_to_move());
        dfpn.set_poll_interval(PROBE_POLL_INTERVAL);
        for &key in history {
            dfpn.enter(key, 0);
        }
        let mut budget = Budget {
            control,
            limit: nodes,
            deadline,
        };
        let root = dfpn.mid(pos, 0, INF, INF, &mut budget);
        // A proof is final even if the budget ran out with it; the line's
        // reading then may fail to re-prove a replaced entry (no mate
        // claimed, never a wrong one).
        let mate = if root.pn == 0 {
            // Reading the line may re-prove entries replaced since the
            // proof: it gets the probe's budget again.
            budget.limit = dfpn.nodes.saturating_add(nodes);
            principal_line(&mut dfpn, pos, &mut budget)
        } else {
            None
        };
        ProbeResult {
            mate,
            nodes: dfpn.nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::pv::is_mating_line;
    use crate::sfen::parse_sfen;

    fn probe(sfen: &str, history: &[u64]) -> Option<Vec<Move>> {
        let control = Control::default();
        control.reset(false);
        let pos = parse_sfen(sfen).unwrap();
        MateProbe::default()
            .probe(&pos, history, PROBE_UNTIMED_NODES, None, &control)
            .mate
    }

    #[test]
    fn proves_a_mate_by_checks_with_a_checked_line() {
        // kotenn-3 of tests/data/tsume-classics.tsv (3 plies, no attacker
        // king).
        let sfen = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
        let line = probe(sfen, &[]).expect("a mate");
        assert!(is_mating_line(&parse_sfen(sfen).unwrap(), &line));
        assert_eq!(line.len() % 2, 1);
    }

    #[test]
    fn no_mate_claimed_without_one() {
        assert_eq!(probe("4k4/9/9/9/9/9/9/9/4K4 b G 1", &[]), None);
    }

    #[test]
    fn a_mate_through_a_position_of_the_game_is_not_claimed() {
        let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
        let line = probe(sfen, &[]).expect("G*5b mates");
        assert_eq!(line.len(), 1);
        // The mated position already occurred in the game: the probe keeps
        // off it (the conservative repetition rule), so no mate is claimed.
        let pos = parse_sfen(sfen).unwrap();
        let mated = pos.play(line[0]);
        assert_eq!(probe(sfen, &[mated.key()]), None);
    }

    #[test]
    fn budget_grows_with_time_within_its_bounds() {
        assert_eq!(node_budget(None, 0), PROBE_UNTIMED_NODES);
        assert_eq!(node_budget(Some(1), 0), PROBE_MIN_NODES);
        assert_eq!(node_budget(Some(1000), 0), 1000 * PROBE_NODES_PER_MS);
        assert_eq!(node_budget(Some(10_000_000), 0), PROBE_MAX_NODES);
        assert_eq!(
            node_budget(None, 50_000),
            50_000 / PROBE_SHARE_OF_NODE_LIMIT
        );
    }
}
