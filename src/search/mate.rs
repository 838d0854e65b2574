//! `go mate`: a mate search for the side to move (詰将棋).
//!
//! An AND/OR search: at OR nodes the attacker (the side to move at the root)
//! tries only checking moves, at AND nodes the defender tries every legal
//! evasion. Iterative deepening on the number of plies (1, 3, 5, ...) makes
//! the first mate found a shortest one. A table keyed by the Zobrist key
//! keeps proven lines (valid at any depth) and disproofs (valid up to the
//! depth they were made at, or for ever when the tree was exhausted without
//! meeting the depth limit).
//!
//! Pawn-drop mate is illegal in the move generator, so it is never a mate
//! here. Positions without the attacker's king (usual in tsume) work.

use super::Control;
use super::time::keep_back;
use crate::movegen::legal_moves;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::collections::HashMap;

/// Deepest mate searched, in plies.
pub const MAX_MATE_PLIES: u32 = 63;
/// Table entries kept before the table is emptied.
const TABLE_LIMIT: usize = 4_000_000;

/// The outcome of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mating line, attacker's move first, ending in mate.
    Mate(Vec<Move>),
    /// No mate exists (the tree was exhausted) or none within
    /// [`MAX_MATE_PLIES`].
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

enum Entry {
    Proven(Vec<Move>),
    Disproven { depth: u32, absolute: bool },
}

enum Res {
    Proven(Vec<Move>),
    Disproven { absolute: bool },
}

struct MateSearch<'a> {
    control: &'a Control,
    deadline: Option<u64>,
    nodes: u64,
    stopped: bool,
    table: HashMap<u64, Entry>,
    lists: Vec<MoveList>,
    scratch: MoveList,
}

impl MateSearch<'_> {
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            if self.control.stopped() {
                self.stopped = true;
            }
            if let Some(d) = self.deadline
                && self.control.clock_start().elapsed().as_millis() as u64 >= d
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn lookup(&self, key: u64, depth: u32) -> Option<Res> {
        match self.table.get(&key)? {
            Entry::Proven(line) if line.len() as u32 <= depth => Some(Res::Proven(line.clone())),
            Entry::Disproven { depth: d, absolute } if *absolute || *d >= depth => {
                Some(Res::Disproven {
                    absolute: *absolute,
                })
            }
            _ => None,
        }
    }

    fn save(&mut self, key: u64, depth: u32, res: &Res) {
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        let e = match res {
            Res::Proven(line) => Entry::Proven(line.clone()),
            Res::Disproven { absolute } => Entry::Disproven {
                depth,
                absolute: *absolute,
            },
        };
        self.table.insert(key, e);
    }

    /// The attacker to move with `depth` (odd) plies left.
    fn or_node(&mut self, pos: &Position, depth: u32, ply: usize) -> Res {
        if self.visit() {
            return Res::Disproven { absolute: false };
        }
        let key = pos.key();
        if let Some(r) = self.lookup(key, depth) {
            return r;
        }
        legal_moves(pos, &mut self.lists[ply]);
        // Checks, with the number of replies each leaves.
        let mut checks: Vec<(usize, Move)> = Vec::new();
        for i in 0..self.lists[ply].len() {
            let m = self.lists[ply].as_slice()[i];
            let child = pos.play(m);
            if !child.in_check() {
                continue;
            }
            legal_moves(&child, &mut self.scratch);
            let replies = self.scratch.len();
            if replies == 0 {
                let res = Res::Proven(vec![m]);
                self.save(key, depth, &res);
                return res;
            }
            checks.push((replies, m));
        }
        if depth <= 1 || ply + 2 >= self.lists.len() {
            let res = Res::Disproven {
                absolute: checks.is_empty(),
            };
            self.save(key, depth, &res);
            return res;
        }
        checks.sort_by_key(|&(n, _)| n);
        let mut absolute = true;
        for (_, m) in checks {
            let child = pos.play(m);
            match self.and_node(&child, depth - 1, ply + 1) {
                Res::Proven(line) => {
                    let mut full = vec![m];
                    full.extend(line);
                    let res = Res::Proven(full);
                    self.save(key, depth, &res);
                    return res;
                }
                Res::Disproven { absolute: a } => absolute &= a,
            }
            if self.stopped {
                return Res::Disproven { absolute: false };
            }
        }
        let res = Res::Disproven { absolute };
        self.save(key, depth, &res);
        res
    }

    /// The defender to move (in check) with `depth` (even) plies left.
    fn and_node(&mut self, pos: &Position, depth: u32, ply: usize) -> Res {
        if self.visit() {
            return Res::Disproven { absolute: false };
        }
        let key = pos.key();
        if let Some(r) = self.lookup(key, depth) {
            return r;
        }
        legal_moves(pos, &mut self.lists[ply]);
        if self.lists[ply].is_empty() {
            return Res::Proven(Vec::new());
        }
        if depth == 0 {
            return Res::Disproven { absolute: false };
        }
        // Likely escapes first: king moves, then captures, drops last.
        let king = pos.king_square(pos.side_to_move());
        let mut evasions: Vec<(u8, Move)> = self.lists[ply]
            .iter()
            .map(|&m| {
                let rank = if m.is_drop() {
                    3
                } else if Some(m.from()) == king {
                    0
                } else if !pos.piece_on(m.to()).is_none() {
                    1
                } else {
                    2
                };
                (rank, m)
            })
            .collect();
        evasions.sort_by_key(|&(r, _)| r);
        let mut longest: Option<Vec<Move>> = None;
        for (_, m) in evasions {
            let child = pos.play(m);
            match self.or_node(&child, depth - 1, ply + 1) {
                Res::Disproven { absolute } => {
                    let res = Res::Disproven {
                        absolute: absolute && !self.stopped,
                    };
                    if !self.stopped {
                        self.save(key, depth, &res);
                    }
                    return res;
                }
                Res::Proven(line) => {
                    if longest.as_ref().is_none_or(|l| line.len() + 1 > l.len()) {
                        let mut full = vec![m];
                        full.extend(line);
                        longest = Some(full);
                    }
                }
            }
        }
        let res = Res::Proven(longest.unwrap_or_default());
        self.save(key, depth, &res);
        res
    }
}

/// Searches a mate for the side to move of `pos` within `time_ms` (from
/// [`Control::clock_start`], less `network_delay`; `None` = until `stop`).
/// Returns the result and the nodes searched.
pub fn mate_search(
    pos: &Position,
    time_ms: Option<u64>,
    network_delay: u64,
    control: &Control,
) -> (MateResult, u64) {
    let mut s = MateSearch {
        control,
        deadline: time_ms.map(|t| keep_back(t, network_delay).max(1)),
        nodes: 0,
        stopped: false,
        table: HashMap::new(),
        lists: (0..MAX_MATE_PLIES as usize + 3)
            .map(|_| MoveList::new())
            .collect(),
        scratch: MoveList::new(),
    };
    if control.stopped() {
        return (MateResult::Timeout, 0);
    }
    let mut depth = 1;
    while depth <= MAX_MATE_PLIES {
        match s.or_node(pos, depth, 0) {
            Res::Proven(line) => return (MateResult::Mate(line), s.nodes),
            Res::Disproven { absolute: true } if !s.stopped => {
                return (MateResult::NoMate, s.nodes);
            }
            Res::Disproven { .. } => {}
        }
        if s.stopped {
            return (MateResult::Timeout, s.nodes);
        }
        depth += 2;
    }
    (MateResult::NoMate, s.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    fn solve(sfen: &str) -> MateResult {
        let control = Control::default();
        control.reset(false);
        mate_search(&parse_sfen(sfen).unwrap(), Some(10_000), 0, &control).0
    }

    fn line(r: &MateResult) -> Vec<String> {
        match r {
            MateResult::Mate(l) => l.iter().map(|m| m.to_string()).collect(),
            other => panic!("expected a mate, got {other:?}"),
        }
    }

    #[test]
    fn mate_in_one_with_a_gold_drop() {
        // Head gold: G*5b mates the king on 5a boxed in by a pawn on 5c
        // guarded... by the pawn itself: the king cannot take (pawn guards).
        let r = solve("4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_eq!(line(&r), vec!["G*5b"]);
    }

    #[test]
    fn no_checks_means_nomate() {
        let r = solve("4k4/9/9/9/9/9/9/9/9 b - 1");
        assert_eq!(r, MateResult::NoMate);
    }

    #[test]
    fn stop_gives_timeout() {
        let control = Control::default();
        control.reset(false);
        control.stop();
        // Plenty of checks and no quick mate: the search polls the flag.
        let pos = parse_sfen("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S 1").unwrap();
        let (r, _) = mate_search(&pos, None, 0, &control);
        assert_eq!(r, MateResult::Timeout);
    }
}
