//! History tables of one search thread: how often a move caused a cutoff.
//!
//! - butterfly: by side to move, moved piece (or dropped piece) and
//!   destination; orders the quiet moves;
//! - countermove: the quiet move that last refuted a given move (by its
//!   moved piece and destination), one table for both sides;
//! - capture history: by side to move, moving piece, destination and
//!   victim type;
//! - continuation history: by side to move, an earlier move of the path
//!   (its piece and destination, [`CONT_PLIES`] plies back) and this quiet
//!   move's piece and destination; orders the quiet moves with the
//!   butterfly table.
//!
//! Updates use the "gravity" rule: a bonus moves an entry towards the
//! bound in proportion to the distance left, so entries stay in
//! `-HISTORY_MAX..=HISTORY_MAX`.

use super::correction::CorrectionHistory;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{PieceType, SQUARE_COUNT};

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;
/// Piece indices: 0..16 for pieces on the board (by type), 16..24 for drops.
pub const PIECE_SLOTS: usize = 24;
/// Largest bonus of one update (at high depth).
const MAX_BONUS: i32 = 2_000;

/// The piece index of `m` in `pos`: the moving piece type, or 16 + the
/// dropped type.
#[inline]
pub fn piece_slot(pos: &Position, m: Move) -> usize {
    if m.is_drop() {
        16 + m.dropped().index()
    } else {
        pos.piece_on(m.from()).piece_type().index()
    }
}

/// The bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(MAX_BONUS)
}

#[inline]
fn apply(entry: &mut i32, bonus: i32) {
    gravity(entry, bonus.clamp(-HISTORY_MAX, HISTORY_MAX), HISTORY_MAX);
}

/// The gravity rule: moves `entry` by `bonus` (at most `limit` in size)
/// less its share of the distance already covered, so that it stays in
/// `-limit..=limit`.
#[inline]
pub fn gravity(entry: &mut i32, bonus: i32, limit: i32) {
    *entry += bonus - *entry * bonus.abs() / limit;
}

/// The earlier moves of the path whose continuation history a quiet move
/// reads and updates, in plies back (Stockfish uses 1, 2, 3, 4 and 6; the
/// one table serves them all, keyed by the side to move now).
pub const CONT_PLIES: [usize; 2] = [1, 2];

/// The continuation-history keys of a node: one per entry of
/// [`CONT_PLIES`] (`None` before the root or after a null move).
pub type ContKeys = [Option<ContKey>; CONT_PLIES.len()];

/// Entries of the continuation table for one earlier move (piece slot and
/// destination of this move).
const CONT_BLOCK: usize = PIECE_SLOTS * SQUARE_COUNT;
/// Entries of the whole continuation table.
/// (The side to move now is the table's context.)
const CONT_SIZE: usize = 2 * PIECE_SLOTS * SQUARE_COUNT * CONT_BLOCK;

/// An earlier move of the search path as the continuation history sees it:
/// the offset of its block in the table (side to move now, its piece slot,
/// its destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContKey(usize);

impl ContKey {
    /// The key of the earlier move `prev` (piece slot `prev_slot`), for
    /// moves of side `us` (index); `None` for a null move. The moves one
    /// and two plies back share the table (keeping them apart measured no
    /// better, sessions 4, 20 and 21).
    #[inline]
    pub fn new(us: usize, prev_slot: usize, prev: Move) -> Option<ContKey> {
        if prev.is_none() {
            return None;
        }
        let block = (us * PIECE_SLOTS + prev_slot) * SQUARE_COUNT + prev.to().index();
        Some(ContKey(block * CONT_BLOCK))
    }

    #[inline]
    fn index(self, slot: usize, m: Move) -> usize {
        self.0 + slot * SQUARE_COUNT + m.to().index()
    }
}

/// The history tables of one thread.
pub struct History {
    butterfly: Box<[[[i32; SQUARE_COUNT]; PIECE_SLOTS]; 2]>,
    counter: Box<[[Move; SQUARE_COUNT]; PIECE_SLOTS]>,
    capture: Box<[[[[i32; PieceType::COUNT]; SQUARE_COUNT]; PIECE_SLOTS]; 2]>,
    continuation: Box<[i16]>,
    /// The static evaluation's correction (not a move table, but kept and
    /// cleared with them).
    pub correction: CorrectionHistory,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History").finish_non_exhaustive()
    }
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; SQUARE_COUNT]; PIECE_SLOTS]; 2]),
            counter: Box::new([[Move::NONE; SQUARE_COUNT]; PIECE_SLOTS]),
            capture: Box::new([[[[0; PieceType::COUNT]; SQUARE_COUNT]; PIECE_SLOTS]; 2]),
            continuation: vec![0; CONT_SIZE].into_boxed_slice(),
            correction: CorrectionHistory::default(),
        }
    }
}

impl History {
    /// The butterfly score of quiet move `m` for side `us` (index).
    #[inline]
    pub fn quiet(&self, us: usize, slot: usize, m: Move) -> i32 {
        self.butterfly[us][slot][m.to().index()]
    }

    /// Rewards (`bonus` > 0) or punishes a quiet move.
    #[inline]
    pub fn update_quiet(&mut self, us: usize, slot: usize, m: Move, bonus: i32) {
        apply(&mut self.butterfly[us][slot][m.to().index()], bonus);
    }

    /// The continuation score of quiet move `m` (piece `slot`) after the
    /// earlier moves `keys` (missing ones count zero).
    #[inline]
    pub fn continuation(&self, keys: &[Option<ContKey>], slot: usize, m: Move) -> i32 {
        keys.iter()
            .flatten()
            .map(|k| i32::from(self.continuation[k.index(slot, m)]))
            .sum()
    }

    /// Rewards or punishes quiet move `m` after the earlier moves `keys`.
    #[inline]
    pub fn update_continuation(
        &mut self,
        keys: &[Option<ContKey>],
        slot: usize,
        m: Move,
        bonus: i32,
    ) {
        for k in keys.iter().flatten() {
            let e = &mut self.continuation[k.index(slot, m)];
            let mut v = i32::from(*e);
            apply(&mut v, bonus);
            *e = v as i16;
        }
    }

    /// The capture history of a capture of `victim` by side `us` (index)
    /// with piece `slot` on `m.to()`.
    #[inline]
    pub fn capture(&self, us: usize, slot: usize, m: Move, victim: PieceType) -> i32 {
        self.capture[us][slot][m.to().index()][victim.index()]
    }

    /// Rewards or punishes a capture.
    #[inline]
    pub fn update_capture(
        &mut self,
        us: usize,
        slot: usize,
        m: Move,
        victim: PieceType,
        bonus: i32,
    ) {
        apply(
            &mut self.capture[us][slot][m.to().index()][victim.index()],
            bonus,
        );
    }

    /// The quiet move that last refuted the move `prev` (piece
    /// `prev_slot`); one table serves both sides (a side keeping its own
    /// measured no better, session 20).
    #[inline]
    pub fn counter_move(&self, prev_slot: usize, prev: Move) -> Move {
        if prev.is_none() {
            Move::NONE
        } else {
            self.counter[prev_slot][prev.to().index()]
        }
    }

    /// Records `m` as the refutation of `prev`.
    #[inline]
    pub fn set_counter_move(&mut self, prev_slot: usize, prev: Move, m: Move) {
        if !prev.is_none() {
            self.counter[prev_slot][prev.to().index()] = m;
        }
    }
}
