//! Depth-first proof-number search (df-pn, Nagai 2002) over the tsume tree.
//!
//! OR nodes: the attacker to move, children are its checking moves. AND
//! nodes: the defender to move (in check), children are all its legal moves.
//! Proof number (pn) of an OR node is the minimum over its children, its
//! disproof number (dn) the sum; the converse at AND nodes. Sums saturate
//! just below [`INF`] (which means proven/disproven), so double counting on
//! merging paths can inflate a sum but never overflow it into a false
//! terminal value.
//!
//! Thresholds follow df-pn with the 1+ε trick: the best child gets a
//! threshold of the second best's number times `1 + 1/EPSILON_DIV`, so the
//! search does not thrash between two close siblings.
//!
//! Heuristic initial numbers (df-pn+): a check's child starts with pn = the
//! defender's number of replies, dn = 1; a check without reply is a proof.
//! A defender's reply new to the table is looked at when its node is
//! expanded (unless it waits behind an alike move): without a check it is
//! a disproof, with a check that mates at once a proof (both stored), else
//! it starts at pn = dn = 1.
//!
//! Children are probed by the keys of [`super::keys`], without playing the
//! move; only a child the table does not know is played.
//!
//! Delayed expansion of alike moves ([`link_alike`]): the defender's drops
//! on one square, its undefended non-checking drops, and a pawn, bishop or
//! rook non-promotion behind its promotion form chains; a move waits until
//! the one before it is resolved, and the node's sum counts the waiting
//! moves as one point per eight.
//!
//! Repetition (the graph-history interaction): a child whose position is
//! already on the current path is a disproof for the attacker (千日手 or
//! 連続王手の千日手, neither a win for the attacker). Such a disproof holds
//! only for this path, so it is kept in the node's own child list (the path
//! above is fixed while that node is searched), and every disproof that
//! depends on it carries the shallowest ply of a repeated position it relies
//! on (`rep_start`). A node at that ply or nearer the root holds the whole
//! cycle in its subtree, so its disproof holds on any path and is stored
//! (with the node's own hand, never generalised by disproof pieces); a
//! deeper node stores nothing. Proofs never depend on the path (a repeated position
//! never proves anything), so every stored proof and disproof holds on every
//! path. At the root a disproof through repetition is a true "no mate",
//! unless the ply cap ([`MAX_PLY`]) cut the path somewhere: then the answer
//! is unknown.
//!
//! Proof and disproof pieces ([`super::pieces`]) are computed when a node
//! is solved and stored with it.
//!
//! Non-terminal superiority: an unsolved entry of the same board whose
//! hand holds at least the node's gives the node's pn a floor (`Hints`).
//! Double-count elimination (`Dfpn::eliminate_double_count`): a node
//! whose subtree is reached from two children of an OR node on the path
//! makes that node add their dn by the largest instead of the sum.

use super::keys::{self, ChildKeys};
use super::no_quick_mate::{self, NoQuickMate};
use super::pieces;
use super::recent_checks::RecentChecks;
use super::table::{Found, INF, PackedHand, Table, board_key};
use crate::flights::Flights;
use crate::movegen::{count_legal_moves, has_legal_move, legal_checks, legal_moves};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType, Square};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// `rep_start` of a value that does not depend on a repetition.
pub const NO_REPETITION: u32 = u32::MAX;
/// Largest non-terminal proof or disproof number.
const SAT: u32 = INF - 1;
/// The 1+ε trick: ε = 1 / EPSILON_DIV.
const EPSILON_DIV: u64 = 4;
/// Deepest path searched, in plies; deeper is treated as unknown.
pub const MAX_PLY: usize = 2000;
/// Delayed expansion of alike moves (see [`link_alike`]). Session 10,
/// proof nodes at MateHash 2048 without -> with: muso-1 9.65 M -> 4.4 M,
/// sekitoba-478 9.94 M -> 4.6 M, sekitoba-470 16.8 M -> 7.7 M,
/// bokusui-38-h 28.0 M -> 6.1 M, meta-800 more than 24 M -> 13.3 M,
/// act-no-yume 4.26 M -> 2.1 M; setsugekka 24-32 M -> 35-38 M (worse).
const DELAY_ALIKE: bool = true;
/// Whether the defender's undefended non-checking drops on different
/// squares form one chain of alike moves.
const SHARE_UNDEFENDED_DROPS: bool = true;
/// Whether a pawn, bishop or rook non-promotion waits behind its promotion
/// (off: setsugekka 39 M -> more than 41 M nodes).
const DELAY_NON_PROMOTIONS: bool = true;
/// Drops on one square: the strongest piece first, else the pawn first.
/// Strongest first (KomoringHeights' order is the generator's, pawn first
/// too): setsugekka 22-23 M nodes instead of 35 M and more, meta-800 7-11 M
/// instead of 13 M, but sekitoba-478 and -470 and bokusui-38-h not proven
/// within 60 s (more than 15 M nodes each instead of 4.6-7.7 M).
const STRONGEST_FIRST: bool = false;
/// Hidden alike moves per point of [`hidden_penalty`] (1: no gain).
const HIDDEN_PER_POINT: u32 = 8;
/// Whether the defender's drops on one (defended or checking) square form a
/// chain of alike moves (off: setsugekka 18.8 M nodes, but bokusui-38-h not
/// proven in 60 s, muso-1 8.5 M, sekitoba-478 7.6 M).
const CHAIN_SQUARE_DROPS: bool = true;
/// Nodes between two polls of the clock and the stop flag.
pub const POLL_INTERVAL: u64 = 4096;

/// Whether the unsolved entries of the same board with a hand holding at
/// least the node's give its pn a floor (non-terminal superiority, see
/// [`super::table::Lookup`]). Session 12, proof nodes at MateHash 2048
/// without -> with: setsugekka 38.2 M -> 17.2 M, muso-1 4.47 M -> 3.31 M,
/// bokusui-38-h 5.38 M -> 2.99 M, sekitoba-478 4.35 M -> 2.20 M,
/// sekitoba-470 13.4 M -> 4.07 M, setsugekka-256 281 k -> 139 k,
/// astral-traveler 2.86 M -> 2.41 M, act-no-yume 2.04 M -> 1.98 M;
/// meta-800 10.6 M -> 11.4 M (worse).
const FLOOR_PN: bool = true;
/// Whether the entries with a hand the node's holds give its dn a floor
/// (on: setsugekka not proven in 90 s, 72 M nodes with the table almost
/// empty: the dn floors feed each other round the OR nodes' sums).
const FLOOR_DN: bool = false;
/// Whether the floors raise the numbers of the node's own entry too (else
/// only a node without its own entry starts from them). Without
/// double-count elimination: 45.7 M -> 48.9 M nodes over the nine long
/// problems (meta-800 11.4 M -> 16.4 M). With it (session 12, before ->
/// after): setsugekka 12.6 M -> 12.5 M, muso-1 3.37 M -> 3.32 M,
/// bokusui-38-h 4.05 M -> 3.32 M, sekitoba-478 2.35 M -> 1.34 M,
/// sekitoba-470 2.87 M -> 5.95 M (worse), setsugekka-256 142 k -> 150 k,
/// meta-800 12.0 M -> 10.2 M, astral-traveler 2.46 M -> 2.15 M,
/// act-no-yume 1.94 M -> 1.96 M (41.8 M -> 40.9 M), but hashimoto-587
/// (587 plies) is no longer proven: off, it is a mate of 595 plies at
/// 11.0 M nodes, 23.5 s; on, a timeout at 60 s and at 240 s (63.7 M nodes).
/// Off, then: every 100+ ply classic of the file but microcosmos is solved
/// within a minute.
const RAISE_EXACT: bool = false;
/// The threshold controlling algorithm (see [`Dfpn::search_node`]). On:
/// setsugekka 17.2 M -> 19.5 M nodes, setsugekka-256 139 k -> 269 k.
const TCA: bool = false;
/// Double-count elimination (see [`Dfpn::eliminate_double_count`]).
const DOUBLE_COUNT: bool = true;
/// Whether a node looks for a double count only for the first child it
/// searches (as KomoringHeights), else for every child it searches again.
const DOUBLE_COUNT_ONCE: bool = true;
/// Whether double counts of dn at OR nodes are eliminated.
const DOUBLE_COUNT_OR: bool = true;
/// Whether double counts of pn at AND nodes are eliminated.
const DOUBLE_COUNT_AND: bool = false;
/// How much the summed number may grow from a node to its parent on the
/// way up the table's links before the double count is deemed negligible
/// (KomoringHeights: 3 of its units).
const DOUBLE_COUNT_SLACK: u64 = 3;
/// Whether the floors come only from entries stored from plies up to the
/// node's (a deeper entry's numbers may include the node's own, a loop).
/// Off: setsugekka 16.1 M nodes, bokusui-38-h 2.38 M, sekitoba-478 1.99 M,
/// but meta-800 14.2 M (46.4 M over the nine long problems against 45.7 M).
const FLOORS_FROM_SHALLOWER: bool = true;
/// Whether a child whose board is on the current path with at least the
/// attacker's hand (the same board, the attacker no richer) counts as a
/// repetition, as an exact repeat does (KomoringHeights' rule). Whatever
/// mates from it mates the earlier node too, in fewer plies (優越関係), so
/// a shortest mate never passes through it: the rule loses no mate and
/// cuts the attacker's detours that only hand pieces back. Off: on
/// (session 24) the generated set took 4.27 M nodes (3.52 M), the games
/// set 4.44 M (4.28 M); at `go mate 60000` setsugekka sent 557 plies
/// (553), hashimoto-587 589 (587), astral-traveler 577 (579, its first
/// proof 667 plies at 2.12 M nodes), the others the same.
const INFERIOR_REPETITION: bool = false;

/// Cap on the pn a new check starts with (`None`: the defender's number of
/// replies, every drop interposition counted). KomoringHeights starts a
/// check at one to three points, so a distant check with many possible
/// interpositions is not pushed behind the contact checks.
const NEW_CHECK_PN_CAP: Option<u32> = None;

/// Whether a tie in the selected number (pn at an OR node, dn at an AND
/// node) goes to the child whose other number is larger (the harder to
/// refute), as KomoringHeights breaks it, instead of to the first child.
const TIE_BY_OTHER: bool = false;

/// What the table's other entries of a node's board tell of it: floors of
/// its numbers from the entries of other hands (0: none), and whether its
/// own unsolved entry was stored from a ply nearer the root (an "old
/// child" of the threshold controlling algorithm).
#[derive(Clone, Copy, Debug, Default)]
struct Hints {
    pn: u32,
    dn: u32,
    old: bool,
}

impl Hints {
    /// Whether any floor is set.
    fn any(self) -> bool {
        self.pn != 0 || self.dn != 0
    }

    /// `v` with its numbers raised to the floors (an unsolved `v` only).
    fn raise(self, v: NodeValue) -> NodeValue {
        if v.is_terminal() {
            return v;
        }
        NodeValue {
            pn: v.pn.max(self.pn),
            dn: v.dn.max(self.dn),
            ..v
        }
    }
}

/// What the reply look ([`Dfpn::obvious`]) learned of an attacker's node.
enum Look {
    /// No check (a disproof), or a check that mates at once (a proof).
    Solved(NodeValue),
    /// Checks, none of which mates at once.
    NoQuickResult,
    /// Checks, not played: the length limit leaves no ply for them.
    NotLooked,
}

/// The result of searching a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeValue {
    /// Proof number.
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// Mate length in plies of a proof.
    pub len: u16,
    /// For a disproof through repetition: the least ply of a repeated
    /// position on the current path it depends on ([`NO_REPETITION`] if
    /// none). Such a disproof holds from any path for a node at this ply or
    /// above it (the repetition lies within its subtree), else only on this
    /// path.
    pub rep_start: u32,
    /// Whether a disproof holds only within the length limit.
    pub depth_limited: bool,
    /// The proof or disproof pieces of an absolute proof or disproof (the
    /// attacker's hand it needs, see [`super::pieces`]); meaningless
    /// otherwise.
    pub hand: PackedHand,
}

impl NodeValue {
    const PROVEN: NodeValue = NodeValue {
        pn: 0,
        dn: INF,
        len: 0,
        rep_start: NO_REPETITION,
        depth_limited: false,
        hand: PackedHand::EMPTY,
    };
    /// A repetition of the position at ply `rep_start` on the path (0: the
    /// ply cap, treated as depending on the whole path).
    const REPETITION: NodeValue = NodeValue {
        pn: INF,
        dn: 0,
        len: 0,
        rep_start: 0,
        depth_limited: false,
        hand: PackedHand::EMPTY,
    };
    const DEPTH_CUT: NodeValue = NodeValue {
        pn: INF,
        dn: 0,
        len: 0,
        rep_start: NO_REPETITION,
        depth_limited: true,
        hand: PackedHand::EMPTY,
    };
    const DISPROVEN: NodeValue = NodeValue {
        pn: INF,
        dn: 0,
        len: 0,
        rep_start: NO_REPETITION,
        depth_limited: false,
        hand: PackedHand::EMPTY,
    };
    /// A new node's numbers.
    const fn unknown(pn: u32, dn: u32) -> NodeValue {
        NodeValue {
            pn,
            dn,
            len: 0,
            rep_start: NO_REPETITION,
            depth_limited: false,
            hand: PackedHand::EMPTY,
        }
    }

    fn from_found(f: Found) -> NodeValue {
        NodeValue {
            pn: f.pn,
            dn: f.dn,
            len: f.len,
            rep_start: NO_REPETITION,
            depth_limited: false,
            hand: f.hand,
        }
    }

    /// Whether this is a proof, or a disproof that holds on every path to
    /// a node at `ply` (within the length limit or not).
    fn holds_at(&self, ply: usize) -> bool {
        self.pn == 0 || (self.dn == 0 && self.rep_start as usize >= ply)
    }

    /// Whether this is a proof, or a disproof that holds on every path
    /// without repetition below it and without the length limit: its proof
    /// or disproof pieces may generalise it over hands.
    fn is_absolute(&self) -> bool {
        self.pn == 0 || (self.dn == 0 && self.rep_start == NO_REPETITION && !self.depth_limited)
    }

    /// Whether this is a proof or a disproof.
    pub fn is_terminal(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// A child of an expanded node with its current numbers.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    value: NodeValue,
    /// Index + 1 of the next alike move after this one (0: none): it is
    /// searched only once this one is resolved (delayed expansion).
    next: u16,
    /// Whether an alike move before it is unresolved: the node then counts
    /// and searches without it (see [`link_alike`]).
    hidden: bool,
    /// Whether the table did not know it when its node was expanded (and it
    /// was not searched since).
    fresh: bool,
    /// Whether its unsolved entry was stored from a ply nearer the root
    /// (see [`Hints`]).
    old: bool,
    /// Its board key and attacker hand.
    board: u64,
    hand: PackedHand,
    /// Its [`node_id`].
    id: u64,
}

impl Child {
    /// The child by `mv` with keys `keys`.
    fn with_keys(mv: Move, value: NodeValue, keys: &ChildKeys) -> Child {
        Child {
            board: keys.board,
            hand: keys.hand,
            id: node_id(keys.board, keys.hand),
            ..Child::new(mv, value)
        }
    }

    fn new(mv: Move, value: NodeValue) -> Child {
        Child {
            mv,
            value,
            next: 0,
            hidden: false,
            fresh: false,
            old: false,
            board: 0,
            hand: PackedHand::EMPTY,
            id: 0,
        }
    }
}

/// Decides when to stop: polled every [`POLL_INTERVAL`] nodes (or as set
/// by [`Dfpn::set_poll_interval`]).
pub trait Poll {
    /// Called with the node count; returns true to stop the search.
    fn poll(&mut self, nodes: u64, table: &Table) -> bool;
}

/// The df-pn searcher: the table, the current path and counters.
pub struct Dfpn<'t> {
    /// The table shared by every search of this `go mate`.
    pub table: &'t Table,
    attacker: Color,
    path: PathSet,
    /// Nodes searched.
    pub nodes: u64,
    /// Set once the poll asks to stop; every node then returns at once.
    pub stopped: bool,
    /// Whether the ply cap cut a path (disproofs then are not trusted).
    pub capped: bool,
    /// Longest mate searched, in plies from the root (`usize::MAX` = any):
    /// an attacker node at this ply is a disproof for this path, and a
    /// proof longer than what is left counts as unknown.
    pub limit: usize,
    next_poll: u64,
    poll_interval: u64,
    /// The moves of the node being expanded (a buffer kept between nodes).
    moves: MoveList,
    /// The checks of a defender's reply tested for an obvious value.
    replies_checks: MoveList,
    /// The checks the reply look generated lately, for the expansions that
    /// follow it.
    recent_checks: RecentChecks,
    /// The attacker's nodes the reply look found without a quick result,
    /// by [`node_id`] (so a later expansion skips them).
    no_quick_mate: NoQuickMate,
    /// The keys of the children by `moves`.
    keys: Vec<ChildKeys>,
    /// The nodes of the current path being searched, root first (see
    /// [`Frame`]).
    trail: Vec<Frame>,
    /// The index in `trail` of each of its nodes, by [`node_id`].
    trail_index: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    /// The indices in `trail` of its nodes, by board key (for
    /// [`INFERIOR_REPETITION`]).
    trail_boards: HashMap<u64, Vec<usize>, BuildHasherDefault<KeyHasher>>,
    /// The threshold controlling algorithm's count (see
    /// [`search_node`](Self::search_node)): while it is above 0, nodes search
    /// past their thresholds.
    extend: u32,
    /// The ε of the 1+ε trick is 1 / `epsilon_div` ([`EPSILON_DIV`]; the
    /// helpers of a shared table take others, see [`Dfpn::set_epsilon_div`]).
    epsilon_div: u64,
}

/// A node of the current path being searched.
struct Frame {
    board: u64,
    hand: PackedHand,
    ply: usize,
    /// The ids of its children whose numbers it sums by their largest
    /// (found by [`Dfpn::eliminate_double_count`] below it).
    by_max: Vec<u64>,
}

/// The id of the node with board key `board` and attacker hand `hand` (one
/// key for both, as the table has them apart).
#[inline]
fn node_id(board: u64, hand: PackedHand) -> u64 {
    board ^ hand.0.wrapping_mul(NODE_ID_MULTIPLIER)
}

/// Mixes the hand into [`node_id`] (a 64-bit odd constant).
const NODE_ID_MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

/// Hashes a Zobrist key as itself (it is random already).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The positions on the current path, by key, with their counts and the
/// ply of their first occurrence.
type PathSet = HashMap<u64, (u32, u32), BuildHasherDefault<KeyHasher>>;

/// Adds two numbers, saturating below [`INF`].
#[inline]
fn add(a: u32, b: u32) -> u32 {
    (a as u64 + b as u64).min(SAT as u64) as u32
}

/// The thresholds of the child to search (numbers `c`, the second best
/// child's number `second`) of a node with numbers `v` and thresholds
/// `th`: the 1+ε trick on the minimum, the rest of the threshold on the
/// sum. A child summed by the largest (`max_part`, the largest of those
/// numbers) needs only what the summed children leave.
fn child_thresholds(
    epsilon_div: u64,
    or_node: bool,
    v: NodeValue,
    c: NodeValue,
    second: u32,
    max_part: Option<u32>,
    th: (u32, u32),
) -> (u32, u32) {
    let (thpn, thdn) = th;
    let rest = |th: u32, sum: u32, own: u32| {
        let others = sum.saturating_sub(max_part.unwrap_or(own));
        th.saturating_sub(others)
    };
    if or_node {
        (widen(second, thpn, epsilon_div), rest(thdn, v.dn, c.dn))
    } else {
        (rest(thpn, v.pn, c.pn), widen(second, thdn, epsilon_div))
    }
}

/// `base * (1 + 1 / epsilon_div) + 1`, at most `cap`.
#[inline]
fn widen(base: u32, cap: u32, epsilon_div: u64) -> u32 {
    let b = base as u64;
    (b + b / epsilon_div + 1).min(cap as u64) as u32
}

impl<'t> Dfpn<'t> {
    /// A searcher for `attacker` (the side to move at the root).
    pub fn new(table: &'t Table, attacker: Color) -> Dfpn<'t> {
        Dfpn {
            table,
            attacker,
            path: PathSet::default(),
            nodes: 0,
            stopped: false,
            capped: false,
            limit: usize::MAX,
            next_poll: POLL_INTERVAL,
            poll_interval: POLL_INTERVAL,
            moves: MoveList::new(),
            replies_checks: MoveList::new(),
            recent_checks: RecentChecks::default(),
            no_quick_mate: NoQuickMate::new(no_quick_mate::SMALL_SLOTS),
            keys: Vec::new(),
            extend: 0,
            epsilon_div: EPSILON_DIV,
            trail: Vec::new(),
            trail_index: HashMap::default(),
            trail_boards: HashMap::default(),
        }
    }

    /// Gives the searcher the larger no-quick-mate cache of a long search
    /// (`go mate`).
    pub fn use_large_cache(&mut self) {
        self.no_quick_mate = NoQuickMate::new(no_quick_mate::LARGE_SLOTS);
    }

    /// Searches with ε = 1 / `div` in the 1+ε trick instead of
    /// 1 / [`EPSILON_DIV`]: a helper searching a shared table goes its own
    /// way through it.
    pub fn set_epsilon_div(&mut self, div: u64) {
        self.epsilon_div = div.max(1);
    }

    /// Polls every `nodes` nodes instead of every [`POLL_INTERVAL`] (a
    /// short search that must keep to a tight budget).
    pub fn set_poll_interval(&mut self, nodes: u64) {
        self.poll_interval = nodes.max(1);
        self.next_poll = self.nodes + self.poll_interval;
    }

    /// Marks `key`, reached at `ply`, as on the current path (for
    /// repetition); `leave` undoes it. A key entered again keeps its first ply.
    pub fn enter(&mut self, key: u64, ply: usize) {
        self.path.entry(key).or_insert((0, ply as u32)).0 += 1;
    }

    /// Undoes [`enter`](Self::enter).
    pub fn leave(&mut self, key: u64) {
        if let Some((n, _)) = self.path.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.path.remove(&key);
            }
        }
    }

    /// The ply at which `key` is on the current path, if it is.
    pub fn on_path(&self, key: u64) -> Option<u32> {
        self.path.get(&key).map(|&(_, ply)| ply)
    }

    /// What the table knows of `pos`.
    pub fn probe(&self, pos: &Position) -> Option<NodeValue> {
        let hand = PackedHand::new(pos.hand(self.attacker));
        self.table
            .lookup(board_key(pos), hand)
            .map(NodeValue::from_found)
    }

    /// What the table knows of `pos` at `ply`, within the length limit.
    fn probe_at(&self, pos: &Position, ply: usize) -> (Option<NodeValue>, Hints) {
        let hand = PackedHand::new(pos.hand(self.attacker));
        self.probe_keys_at(board_key(pos), hand, ply)
    }

    /// What the table knows of the board `board` with attacker hand `hand`
    /// at `ply`, within the length limit: the entry, and the floors of the
    /// entries of other hands (see [`super::table::Lookup`]).
    fn probe_keys_at(
        &self,
        board: u64,
        hand: PackedHand,
        ply: usize,
    ) -> (Option<NodeValue>, Hints) {
        let floor_ply = if FLOORS_FROM_SHALLOWER {
            ply
        } else {
            usize::MAX
        };
        let lookup = self.table.lookup_with_floors(board, hand, floor_ply);
        let floors = Hints {
            pn: if FLOOR_PN { lookup.pn_floor } else { 0 },
            dn: if FLOOR_DN { lookup.dn_floor } else { 0 },
            old: lookup.old,
        };
        let left = self.limit.saturating_sub(ply);
        let found = lookup.found.map(NodeValue::from_found);
        // A disproof, or a proof short enough, decides before a bound.
        let decides = found.is_some_and(|v| v.dn == 0 || (v.pn == 0 && v.len as usize <= left));
        if !decides && lookup.bound as usize > left {
            // A stored bound: no mate within `bound - 1` plies.
            return (Some(NodeValue::DEPTH_CUT), Hints::default());
        }
        let Some(v) = found else {
            return (None, floors);
        };
        if v.pn == 0 {
            return ((v.len as usize <= left).then_some(v), floors);
        }
        let v = NodeValue { len: 0, ..v };
        let v = if RAISE_EXACT { floors.raise(v) } else { v };
        (Some(v), floors)
    }

    fn store(&mut self, pos: &Position, v: NodeValue, amount: u64) {
        self.store_at(pos, v, amount, 0);
    }

    /// Stores `v` of `pos` reached at `ply`. A disproof within the length
    /// limit is stored as a non-terminal entry whose `len` is a lower bound
    /// of the mate's length (no mate within `len - 1` plies); a
    /// non-terminal entry otherwise has `len` 0.
    fn store_at(&mut self, pos: &Position, v: NodeValue, amount: u64, ply: usize) {
        self.store_from(pos, v, amount, ply, None);
    }

    /// [`store_at`](Self::store_at), with the parent (board key and hand)
    /// `pos` was searched from.
    fn store_from(
        &mut self,
        pos: &Position,
        v: NodeValue,
        amount: u64,
        ply: usize,
        parent: Option<(u64, PackedHand)>,
    ) {
        let repetition = v.rep_start != NO_REPETITION;
        if v.dn == 0 && repetition && (!v.holds_at(ply) || self.capped) {
            return;
        }
        let v = if v.dn == 0 && v.depth_limited {
            let left = self.limit.saturating_sub(ply);
            let Ok(bound) = u16::try_from(left + 1) else {
                return;
            };
            NodeValue {
                len: bound,
                ..NodeValue::unknown(SAT, 1)
            }
        } else {
            v
        };
        // A proof or disproof is stored with its proof or disproof pieces.
        let hand = if v.is_absolute() {
            v.hand
        } else {
            PackedHand::new(pos.hand(self.attacker))
        };
        let found = Found {
            pn: v.pn,
            dn: v.dn,
            len: v.len,
            hand,
        };
        self.table
            .store(board_key(pos), hand, found, amount, ply, parent);
    }

    /// Stores a proof of `pos` with mate length `len`, protected from
    /// replacement (the answer line's entries).
    pub fn store_proof(&mut self, pos: &Position, len: u16) {
        let v = NodeValue {
            len,
            hand: PackedHand::new(pos.hand(self.attacker)),
            ..NodeValue::PROVEN
        };
        self.store(pos, v, u64::from(u32::MAX));
    }

    /// Whether `pos` (reached at `ply`) is mated within `plies` plies
    /// (every interposition counted): from the table when it knows (a proof
    /// that short, or a bound past it), else by a search with the length
    /// limited to them. `None` when the search stopped, or when the ply cap
    /// cut a path of a disproof.
    pub fn mate_within(
        &mut self,
        pos: &Position,
        ply: usize,
        plies: usize,
        poll: &mut dyn Poll,
    ) -> Option<bool> {
        let (limit, capped) = (self.limit, self.capped);
        self.limit = ply.saturating_add(plies);
        self.capped = false;
        let v = self.mid(pos, ply, INF, INF, poll);
        let cut = self.capped;
        self.limit = limit;
        self.capped = capped || cut;
        if v.pn == 0 {
            Some(true)
        } else if v.dn == 0 && !self.stopped && !cut {
            Some(false)
        } else {
            None
        }
    }

    /// The stored proof length of `pos` (`u16::MAX` if it is not proven).
    pub fn proof_len(&self, pos: &Position) -> u16 {
        match self.probe(pos) {
            Some(NodeValue { pn: 0, len, .. }) => len,
            _ => u16::MAX,
        }
    }

    /// Searches `pos` (reached at `ply`) until its proof number reaches
    /// `thpn` or its disproof number `thdn`, or it is solved.
    pub fn mid(
        &mut self,
        pos: &Position,
        ply: usize,
        thpn: u32,
        thdn: u32,
        poll: &mut dyn Poll,
    ) -> NodeValue {
        self.extend = 0;
        self.mid_node(pos, ply, thpn, thdn, poll)
    }

    /// [`mid`](Self::mid) within a search (the threshold controlling
    /// algorithm's count kept).
    fn mid_node(
        &mut self,
        pos: &Position,
        ply: usize,
        thpn: u32,
        thdn: u32,
        poll: &mut dyn Poll,
    ) -> NodeValue {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + self.poll_interval;
            if poll.poll(self.nodes, self.table) {
                self.stopped = true;
            }
        }
        let (known, floors) = self.probe_at(pos, ply);
        let known = known.or_else(|| floors.any().then(|| floors.raise(NodeValue::unknown(1, 1))));
        if let Some(v) = known
            && (v.is_terminal() || v.pn >= thpn || v.dn >= thdn || self.stopped)
        {
            return v;
        }
        if self.stopped {
            return NodeValue::unknown(1, 1);
        }
        if ply >= MAX_PLY {
            self.capped = true;
            return NodeValue::REPETITION;
        }
        if ply >= self.limit && pos.side_to_move() == self.attacker {
            return NodeValue::DEPTH_CUT;
        }
        self.search_node(pos, ply, thpn, thdn, poll)
    }

    /// Searches `pos` afresh (its children again, whatever the table says of
    /// it) until it is solved or the search stops: re-proves a position
    /// whose children's entries were replaced.
    pub fn prove_again(&mut self, pos: &Position, ply: usize, poll: &mut dyn Poll) -> NodeValue {
        self.extend = 0;
        self.search_node(pos, ply, INF, INF, poll)
    }

    /// Expands `pos` and searches its children within the thresholds.
    fn search_node(
        &mut self,
        pos: &Position,
        ply: usize,
        thpn: u32,
        thdn: u32,
        poll: &mut dyn Poll,
    ) -> NodeValue {
        let or_node = pos.side_to_move() == self.attacker;
        let mut children = self.expand(pos, ply, or_node);
        let start = self.nodes;
        let key = pos.key();
        self.enter(key, ply);
        let parent = self
            .trail
            .last()
            .filter(|f| f.ply + 1 == ply)
            .map(|f| (f.board, f.hand));
        let frame = self.push_frame(pos, ply);
        // The threshold controlling algorithm (TCA, Kishimoto): a child
        // whose entry comes from a shallower visit may hold numbers that
        // depend on this very node (a loop through the table), so the node
        // searches past its thresholds until a new node is expanded below
        // it, then returns to the node that extended.
        let outer_extend = self.extend;
        if TCA
            && children
                .iter()
                .any(|c| c.old && !c.hidden && !c.value.is_terminal())
        {
            self.extend += 1;
        }
        let mut searched = false;
        let value = loop {
            let (v, max_part) = aggregate(&children, or_node, &self.trail[frame].by_max);
            if v.is_terminal() || self.stopped {
                break v;
            }
            if searched && self.extend == 0 && outer_extend > 0 {
                break v;
            }
            let (thpn, thdn) = self.extended(v, (thpn, thdn));
            if v.pn >= thpn || v.dn >= thdn {
                break v;
            }
            let (best, second) = select(&children, or_node);
            let by_max = in_max(&children[best], &self.trail[frame].by_max);
            let part = by_max.then_some(max_part);
            let (cthpn, cthdn) = child_thresholds(
                self.epsilon_div,
                or_node,
                v,
                children[best].value,
                second,
                part,
                (thpn, thdn),
            );
            let child = pos.play(children[best].mv);
            if children[best].fresh {
                children[best].fresh = false;
                self.extend = self.extend.saturating_sub(1);
            } else if DOUBLE_COUNT && !(DOUBLE_COUNT_ONCE && searched) {
                self.eliminate_double_count(&children[best], or_node);
            }
            let cv = self.mid_node(&child, ply + 1, cthpn, cthdn, poll);
            searched = true;
            children[best].value = cv;
            if cv.is_terminal() {
                reveal_next(&mut children, best);
            }
        };
        self.extend = self.extend.min(outer_extend);
        self.pop_frame();
        self.leave(key);
        let value = if value.is_terminal() && value.is_absolute() {
            NodeValue {
                hand: final_hand(pos, &children, or_node),
                ..value
            }
        } else {
            value
        };
        self.store_from(pos, value, self.nodes - start + 1, ply, parent);
        value
    }

    /// The children of `pos` (at `ply`) with their numbers, ordered, alike
    /// moves chained and (at an AND node) the obvious replies resolved.
    fn expand(&mut self, pos: &Position, ply: usize, or_node: bool) -> Vec<Child> {
        let mut children = if or_node {
            self.expand_or(pos, ply)
        } else {
            self.expand_and(pos, ply)
        };
        if DELAY_ALIKE {
            link_alike(pos, &mut children, or_node);
        }
        if !or_node {
            self.resolve_obvious(pos, &mut children, ply);
        }
        children
    }

    /// The thresholds of a node whose numbers are `v`: its own `base`, or
    /// past its numbers while the threshold controlling algorithm extends.
    fn extended(&self, v: NodeValue, base: (u32, u32)) -> (u32, u32) {
        if self.extend > 0 {
            (base.0.max(add(v.pn, 1)), base.1.max(add(v.dn, 1)))
        } else {
            base
        }
    }

    /// Puts `pos` (at `ply`) on the trail; returns its index.
    fn push_frame(&mut self, pos: &Position, ply: usize) -> usize {
        let board = board_key(pos);
        let hand = PackedHand::new(pos.hand(self.attacker));
        let index = self.trail.len();
        self.trail.push(Frame {
            board,
            hand,
            ply,
            by_max: Vec::new(),
        });
        self.trail_index.insert(node_id(board, hand), index);
        if INFERIOR_REPETITION {
            self.trail_boards.entry(board).or_default().push(index);
        }
        index
    }

    /// Undoes [`push_frame`](Self::push_frame).
    fn pop_frame(&mut self) {
        if let Some(f) = self.trail.pop() {
            self.trail_index.remove(&node_id(f.board, f.hand));
            if INFERIOR_REPETITION && let Some(frames) = self.trail_boards.get_mut(&f.board) {
                frames.pop();
                if frames.is_empty() {
                    self.trail_boards.remove(&f.board);
                }
            }
        }
    }

    /// Double-count elimination (as in KomoringHeights): follows the
    /// table's parent links up from `child` (of the node on top of the
    /// trail, an OR node if `or_node`). When they lead to a node of the
    /// current path other than through this node, `child`'s subtree is also
    /// below another child of that node (the branch root), so that node's
    /// sum counts the shared part twice: it then sums those two children by
    /// their largest number instead. The way up stops where the summed
    /// number grows by more than [`DOUBLE_COUNT_SLACK`] (other branches
    /// dominate it there) or at a link the table lacks.
    fn eliminate_double_count(&mut self, child: &Child, or_node: bool) {
        let me = self.trail.len() - 1;
        let (my_board, my_hand) = (self.trail[me].board, self.trail[me].hand);
        let (mut board, mut hand) = (child.board, child.hand);
        let (mut last_pn, mut last_dn) = (u64::from(INF), u64::from(INF));
        let (mut pn_flag, mut dn_flag) = (true, true);
        let mut parent_or = or_node;
        for step in 0..=me {
            let Some(link) = self.table.parent(board, hand) else {
                return;
            };
            if step == 0 && link.board == my_board && link.hand == my_hand {
                return;
            }
            pn_flag &= u64::from(link.pn) <= last_pn + DOUBLE_COUNT_SLACK;
            dn_flag &= u64::from(link.dn) <= last_dn + DOUBLE_COUNT_SLACK;
            if let Some(&root) = self.trail_index.get(&node_id(link.board, link.hand)) {
                if (parent_or && dn_flag && DOUBLE_COUNT_OR)
                    || (!parent_or && pn_flag && DOUBLE_COUNT_AND)
                {
                    let on_path = match self.trail.get(root + 1) {
                        Some(f) => node_id(f.board, f.hand),
                        None => child.id,
                    };
                    let by_max = &mut self.trail[root].by_max;
                    for id in [node_id(board, hand), on_path] {
                        if !by_max.contains(&id) {
                            by_max.push(id);
                        }
                    }
                }
                return;
            }
            if !pn_flag && !dn_flag {
                return;
            }
            (board, hand) = (link.board, link.hand);
            (last_pn, last_dn) = (u64::from(link.pn), u64::from(link.dn));
            parent_or = !parent_or;
        }
    }

    /// What is known of a child (keys `child`, at `ply`) without searching
    /// it: a repetition, or its entry; else the floors of its numbers.
    fn initial(&mut self, child: &ChildKeys, ply: usize) -> (Option<NodeValue>, Hints) {
        if let Some(rep_start) = self
            .on_path(child.key)
            .or_else(|| self.inferior_on_path(child.board, child.hand))
        {
            let v = NodeValue {
                rep_start,
                ..NodeValue::REPETITION
            };
            return (Some(v), Hints::default());
        }
        self.probe_keys_at(child.board, child.hand, ply)
    }

    /// The ply of the deepest node of the current path with board `board`
    /// and an attacker's hand holding at least `hand`, if any (see
    /// [`INFERIOR_REPETITION`]).
    fn inferior_on_path(&self, board: u64, hand: PackedHand) -> Option<u32> {
        if !INFERIOR_REPETITION {
            return None;
        }
        let frames = self.trail_boards.get(&board)?;
        frames
            .iter()
            .rev()
            .map(|&i| &self.trail[i])
            .find(|f| hand.is_subset_of(f.hand))
            .map(|f| f.ply as u32)
    }

    /// Fills `keys` with the keys of the children by `moves` and asks the
    /// CPU to fetch their table clusters, so the probes that follow overlap
    /// their cache misses.
    fn child_keys(&mut self, pos: &Position) {
        let board = board_key(pos);
        self.keys.clear();
        for &mv in self.moves.iter() {
            let k = keys::after(pos, board, mv, self.attacker);
            self.table.prefetch(k.board);
            self.keys.push(k);
        }
    }

    /// The attacker's checks from `pos`, each with its child's numbers.
    fn expand_or(&mut self, pos: &Position, ply: usize) -> Vec<Child> {
        if !self.recent_checks.get(pos.key(), &mut self.moves) {
            legal_checks(pos, &mut self.moves);
        }
        self.child_keys(pos);
        let mut children = Vec::with_capacity(self.moves.len());
        for i in 0..self.moves.len() {
            let mv = self.moves.as_slice()[i];
            let keys = self.keys[i];
            let child = self.child(mv, &keys, ply, |dfpn, floors| {
                dfpn.new_check(pos, mv, floors)
            });
            let proven = child.value.pn == 0;
            children.push(child);
            if proven {
                break;
            }
        }
        children
    }

    /// The child `mv` (keys `keys`) of a node at `ply`: its known value
    /// (see [`initial`](Self::initial)), else a fresh child valued by
    /// `new` from the floors of its numbers.
    fn child(
        &mut self,
        mv: Move,
        keys: &ChildKeys,
        ply: usize,
        new: impl FnOnce(&mut Self, Hints) -> NodeValue,
    ) -> Child {
        match self.initial(keys, ply + 1) {
            (Some(v), hints) => Child {
                old: hints.old,
                ..Child::with_keys(mv, v, keys)
            },
            (None, floors) => Child {
                fresh: true,
                ..Child::with_keys(mv, new(self, floors), keys)
            },
        }
    }

    /// The numbers of the new child of the check `mv` from `pos`: a proof
    /// (stored) when the defender has no reply, else pn = its number of
    /// replies (at most [`NEW_CHECK_PN_CAP`], raised to the floors), dn = 1.
    fn new_check(&mut self, pos: &Position, mv: Move, floors: Hints) -> NodeValue {
        let child = pos.play(mv);
        let replies = count_legal_moves(&child) as u32;
        if replies == 0 {
            let mated = NodeValue {
                hand: pieces::and_proof(&child, PackedHand::EMPTY),
                ..NodeValue::PROVEN
            };
            self.store(&child, mated, 1);
            return mated;
        }
        let pn = NEW_CHECK_PN_CAP.map_or(replies, |cap| replies.min(cap));
        floors.raise(NodeValue::unknown(pn, 1))
    }

    /// The value of the new attacker's node `pos` (at `ply`) when it is
    /// obvious (stored then): a disproof when it has no check, a proof when
    /// a check mates at once (within the length limit). Resolving these
    /// replies when their defender's node is expanded keeps its pn to the
    /// replies that need a search, so a long forced line does not look
    /// costlier with every ply. A check that leaves the king a flight
    /// ([`Flights`]) is not played to find out.
    fn obvious(&mut self, pos: &Position, ply: usize) -> Look {
        legal_checks(pos, &mut self.replies_checks);
        if self.replies_checks.is_empty() {
            let v = NodeValue {
                hand: pieces::or_disproof(pos, PackedHand::full()),
                ..NodeValue::DISPROVEN
            };
            self.store(pos, v, 1);
            return Look::Solved(v);
        }
        self.recent_checks.put(pos.key(), &self.replies_checks);
        if ply >= self.limit {
            return Look::NotLooked;
        }
        let flights = Flights::of(pos);
        for i in 0..self.replies_checks.len() {
            let mv = self.replies_checks.as_slice()[i];
            if flights.survive(pos, mv) {
                continue;
            }
            let mated = pos.play(mv);
            if !has_legal_move(&mated) {
                let needed = pieces::and_proof(&mated, PackedHand::EMPTY);
                let v = NodeValue {
                    len: 1,
                    hand: pieces::before_move(pos, mv, needed),
                    ..NodeValue::PROVEN
                };
                self.store(pos, v, 1);
                return Look::Solved(v);
            }
        }
        Look::NoQuickResult
    }

    /// Gives the defender's replies new to the table that are not hidden
    /// behind an alike move their obvious values (see [`obvious`](Self::obvious)),
    /// skipping those the look already found without one
    /// ([`NoQuickMate`]).
    fn resolve_obvious(&mut self, pos: &Position, children: &mut [Child], ply: usize) {
        for i in 0..children.len() {
            if !children[i].fresh || children[i].hidden {
                continue;
            }
            if self.no_quick_mate.contains(children[i].id) {
                continue;
            }
            match self.obvious(&pos.play(children[i].mv), ply + 1) {
                Look::Solved(v) => {
                    children[i].value = v;
                    reveal_next(children, i);
                }
                Look::NoQuickResult => self.no_quick_mate.put(children[i].id),
                Look::NotLooked => {}
            }
        }
    }

    /// The defender's replies from `pos`, king moves and captures first.
    fn expand_and(&mut self, pos: &Position, ply: usize) -> Vec<Child> {
        legal_moves(pos, &mut self.moves);
        self.child_keys(pos);
        let king = pos.king_square(pos.side_to_move());
        let mut children = Vec::with_capacity(self.moves.len());
        for i in 0..self.moves.len() {
            let mv = self.moves.as_slice()[i];
            let keys = self.keys[i];
            let child = self.child(mv, &keys, ply, |_, floors| {
                floors.raise(NodeValue::unknown(1, 1))
            });
            children.push(child);
        }
        // Drops last, grouped by square (see `aggregate`).
        let rank = |m: Move| {
            if m.is_drop() {
                2 + m.to().index()
            } else if Some(m.from()) == king || !pos.piece_on(m.to()).is_none() {
                0
            } else {
                1
            }
        };
        // With `STRONGEST_FIRST`, on one square the strongest piece first
        // (the head of its chain of alike drops, see `link_alike`); else the
        // generator's order, the pawn first.
        let strength = |m: Move| {
            if !m.is_drop() {
                return 0;
            }
            match m.dropped() {
                PieceType::PAWN => 0,
                PieceType::LANCE | PieceType::KNIGHT => 3,
                PieceType::SILVER => 2,
                _ => 1,
            }
        };
        if STRONGEST_FIRST {
            children.sort_by_key(|c| (rank(c.mv), strength(c.mv)));
        } else {
            children.sort_by_key(|c| rank(c.mv));
        }
        children
    }
}

/// The proof or disproof pieces of the node `pos` whose absolute proof or
/// disproof `children` establish (see [`super::pieces`]).
fn final_hand(pos: &Position, children: &[Child], or_node: bool) -> PackedHand {
    let proven = |c: &&Child| c.value.pn == 0;
    let disproven = |c: &&Child| c.value.dn == 0 && c.value.is_absolute();
    match or_node {
        true => match children.iter().filter(proven).min_by_key(|c| c.value.len) {
            Some(c) => pieces::before_move(pos, c.mv, c.value.hand),
            None => {
                let all = children.iter().fold(PackedHand::full(), |h, c| {
                    h.intersection(pieces::before_move(pos, c.mv, c.value.hand))
                });
                pieces::or_disproof(pos, all)
            }
        },
        false => match children.iter().find(disproven) {
            Some(c) => pieces::and_disproof(pos, c.mv, c.value.hand),
            None => {
                let all = children
                    .iter()
                    .fold(PackedHand::EMPTY, |h, c| h.union(c.value.hand));
                pieces::and_proof(pos, all)
            }
        },
    }
}

/// The checking moves of the side to move.
pub fn checks(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    legal_checks(pos, &mut list);
    list
}

/// The node's numbers from its children's; the children whose ids are in
/// `by_max` add only the largest of their numbers to the sum (dn at an OR
/// node, pn at an AND node; see [`Dfpn::eliminate_double_count`]). Also
/// that largest number (0: none).
fn aggregate(children: &[Child], or_node: bool, by_max: &[u64]) -> (NodeValue, u32) {
    if or_node {
        aggregate_or(children, by_max)
    } else {
        aggregate_and(children, by_max)
    }
}

/// Whether `c` is among the children summed by their largest number.
#[inline]
fn in_max(c: &Child, by_max: &[u64]) -> bool {
    !by_max.is_empty() && by_max.contains(&c.id)
}

/// [`aggregate`] at an OR node.
fn aggregate_or(children: &[Child], by_max: &[u64]) -> (NodeValue, u32) {
    if children.is_empty() {
        return (NodeValue::DISPROVEN, 0);
    }
    let mut pn = INF;
    let mut dn = 0u32;
    let mut max_part = 0u32;
    let mut len = u16::MAX;
    let mut rep_start = NO_REPETITION;
    let mut depth_limited = false;
    let mut hidden = 0u32;
    for c in children {
        if c.hidden {
            hidden += 1;
            continue;
        }
        pn = pn.min(c.value.pn);
        if c.value.dn != INF && in_max(c, by_max) {
            max_part = max_part.max(c.value.dn);
        } else {
            dn = if c.value.dn == INF || dn == INF {
                INF
            } else {
                add(dn, c.value.dn)
            };
        }
        if c.value.pn == 0 {
            len = len.min(c.value.len.saturating_add(1));
        }
        rep_start = rep_start.min(c.value.rep_start);
        depth_limited |= c.value.depth_limited;
    }
    if pn == 0 {
        let v = NodeValue {
            len,
            ..NodeValue::PROVEN
        };
        return (v, 0);
    }
    let dn = if dn == INF { SAT } else { dn };
    let dn = add(add(dn, max_part), hidden_penalty(hidden));
    let v = NodeValue {
        pn,
        dn,
        len: 0,
        rep_start: if dn == 0 { rep_start } else { NO_REPETITION },
        depth_limited: dn == 0 && depth_limited,
        hand: PackedHand::EMPTY,
    };
    (v, max_part)
}

/// [`aggregate`] at an AND node.
fn aggregate_and(children: &[Child], by_max: &[u64]) -> (NodeValue, u32) {
    if children.is_empty() {
        return (NodeValue::PROVEN, 0);
    }
    let mut pn = 0u32;
    let mut dn = INF;
    let mut max_part = 0u32;
    let mut len = 0u16;
    // The best disproof among the children: the one depending on the
    // deepest repetition (none best), then one without the length limit.
    let mut disproof: Option<(u32, bool)> = None;
    // Interpositions by drops on one square count once (their largest
    // pn): they are alike, and summing them would make every distant
    // check look hopeless. Exact for proofs: the max is 0 only when all
    // are 0.
    let mut group: Option<(Square, u32)> = None;
    let sum = |pn: u32, n: u32| {
        if n == INF || pn == INF {
            INF
        } else {
            add(pn, n)
        }
    };
    let mut hidden = 0u32;
    for c in children {
        if c.hidden {
            hidden += 1;
            continue;
        }
        dn = dn.min(c.value.dn);
        if c.value.dn == 0 {
            let rank = (c.value.rep_start, !c.value.depth_limited);
            disproof = disproof.max(Some(rank));
        }
        len = len.max(c.value.len.saturating_add(1));
        if c.value.pn != INF && in_max(c, by_max) {
            max_part = max_part.max(c.value.pn);
        } else if c.mv.is_drop() {
            match group {
                Some((sq, max)) if sq == c.mv.to() => {
                    group = Some((sq, max.max(c.value.pn)));
                    continue;
                }
                Some((_, max)) => pn = sum(pn, max),
                None => {}
            }
            group = Some((c.mv.to(), c.value.pn));
        } else {
            pn = sum(pn, c.value.pn);
        }
    }
    if let Some((_, max)) = group {
        pn = sum(pn, max);
    }
    if let Some((rep_start, unlimited)) = disproof {
        let v = NodeValue {
            rep_start,
            depth_limited: !unlimited,
            ..NodeValue::DISPROVEN
        };
        return (v, 0);
    }
    let pn = if pn == INF { SAT } else { pn };
    let pn = add(pn, max_part);
    let pn = if pn == 0 {
        0
    } else {
        add(pn, hidden_penalty(hidden))
    };
    let v = NodeValue {
        pn,
        dn,
        len: if pn == 0 { len } else { 0 },
        ..NodeValue::unknown(pn, dn)
    };
    (v, max_part)
}

/// The child to search (least pn at OR nodes, least dn at AND nodes; a tie
/// to the first, or with [`TIE_BY_OTHER`] to the largest other number) and
/// the second least number among the others.
fn select(children: &[Child], or_node: bool) -> (usize, u32) {
    let number = |c: &Child| if or_node { c.value.pn } else { c.value.dn };
    let other = |c: &Child| if or_node { c.value.dn } else { c.value.pn };
    let mut best = 0;
    let mut best_n = INF;
    let mut best_other = 0;
    let mut second = INF;
    for (i, c) in children.iter().enumerate() {
        if c.hidden {
            continue;
        }
        let n = number(c);
        if n < best_n || (TIE_BY_OTHER && n == best_n && other(c) > best_other) {
            second = best_n;
            best_n = n;
            best_other = other(c);
            best = i;
        } else if n < second {
            second = n;
        }
    }
    (best, second)
}

/// What the alike moves waiting behind others add to a node's sum (pn at
/// an AND node, dn at an OR node): one per eight, at least one.
#[inline]
fn hidden_penalty(hidden: u32) -> u32 {
    if hidden == 0 {
        0
    } else {
        (hidden / HIDDEN_PER_POINT).max(1)
    }
}

/// Delayed expansion of alike moves: chains moves that would lead to
/// similar subtrees, so that each is searched only once the one before it
/// is resolved, and the node's sum counts only the first unresolved one
/// (plus [`hidden_penalty`]) instead of every alike move:
///
/// - the defender's drops on one square (the pawn first), and its drops on
///   squares none of its pieces defends, when none of them checks;
/// - a non-promotion of a pawn, bishop or rook, behind its promotion.
///
/// Exact: a node is proven (disproven) only when its children are, and a
/// hidden child is revealed as soon as every alike move before it is
/// resolved, so no child is left out of a final value.
fn link_alike(pos: &Position, children: &mut [Child], or_node: bool) {
    // Per class, (last member, whether a member so far is unresolved).
    let mut last: Vec<(u32, usize, bool)> = Vec::new();
    let defender = pos.side_to_move();
    let occupied = pos.occupied();
    let check_info = (!or_node && pos.king_square(defender.flip()).is_some())
        .then(|| crate::checks::CheckInfo::new(pos));
    for i in 0..children.len() {
        let m = children[i].mv;
        let class = if m.is_drop() {
            if or_node {
                continue;
            }
            let to = m.to();
            let defended = pos.attackers_to(to, defender, occupied).any();
            let checks = check_info.as_ref().is_some_and(|ci| ci.gives_check(pos, m));
            if defended || checks || !SHARE_UNDEFENDED_DROPS {
                if !CHAIN_SQUARE_DROPS {
                    continue;
                }
                to.index() as u32
            } else {
                SHARED_DROP_CLASS
            }
        } else {
            if !DELAY_NON_PROMOTIONS {
                continue;
            }
            let pt = pos.piece_on(m.from()).piece_type();
            if !matches!(pt, PieceType::PAWN | PieceType::BISHOP | PieceType::ROOK) {
                continue;
            }
            let twin = if m.is_promotion() {
                Move::normal(m.from(), m.to(), false)
            } else {
                Move::normal(m.from(), m.to(), true)
            };
            if !children.iter().any(|c| c.mv == twin) {
                continue;
            }
            PAIR_CLASS + (m.from().index() * 128 + m.to().index()) as u32
        };
        let open = !children[i].value.is_terminal();
        match last.iter_mut().find(|(c, _, _)| *c == class) {
            Some((_, j, blocked)) => {
                children[*j].next = (i + 1) as u16;
                children[i].hidden = *blocked && open;
                *j = i;
                *blocked |= open;
            }
            None => last.push((class, i, open)),
        }
    }
}

/// Chain class of the defender's undefended, non-checking drops.
const SHARED_DROP_CLASS: u32 = 1 << 16;
/// Chain classes of promotion pairs start here.
const PAIR_CLASS: u32 = 1 << 17;

/// After child `i` is resolved: the alike moves behind it are revealed up
/// to the first unresolved one.
fn reveal_next(children: &mut [Child], i: usize) {
    let mut next = children[i].next;
    while next != 0 {
        let c = &mut children[next as usize - 1];
        c.hidden = false;
        if !c.value.is_terminal() {
            break;
        }
        next = c.next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    /// The defender's children of `sfen`, ordered and chained as
    /// `search_node` does, all unresolved.
    fn linked(sfen: &str) -> (Position, Vec<Child>) {
        let pos = parse_sfen(sfen).unwrap();
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        let mut children: Vec<Child> = list
            .iter()
            .map(|&m| Child::new(m, NodeValue::unknown(1, 1)))
            .collect();
        children.sort_by_key(|c| {
            if c.mv.is_drop() {
                2 + c.mv.to().index()
            } else {
                0
            }
        });
        link_alike(&pos, &mut children, false);
        (pos, children)
    }

    #[test]
    fn alike_drops_wait_for_the_first() {
        // A rook checks along the file: the defender can drop a pawn, lance
        // or gold on 5b (next to its king) or on 5c-5h (undefended).
        let (_, mut children) = linked("4k4/9/9/9/9/9/9/9/4R4 w glp 1");
        let b = Square::new(4, 1);
        let visible = |cs: &[Child], on_b: bool| {
            cs.iter()
                .filter(|c| c.mv.is_drop() && !c.hidden && (c.mv.to() == b) == on_b)
                .count()
        };
        assert_eq!(visible(&children, true), 1);
        assert_eq!(visible(&children, false), 1);
        let first = children
            .iter()
            .position(|c| c.mv.is_drop() && c.mv.to() == b && !c.hidden)
            .unwrap();
        assert_eq!(children[first].mv.dropped(), PieceType::PAWN);
        // Proving the pawn drop reveals the next drop on 5b, and only it.
        children[first].value = NodeValue::PROVEN;
        reveal_next(&mut children, first);
        assert_eq!(visible(&children, true), 2);
        let (v, _) = aggregate(&children, false, &[]);
        assert!(v.pn > 0 && v.dn > 0);
    }
}
