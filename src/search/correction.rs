//! Correction history: how far the search's results have landed from the
//! static evaluation, by side to move and parts of the position. The static
//! evaluation of a node is corrected by the running offsets of its parts,
//! so a crude evaluation (material only, above all) learns during the game
//! what its terms miss in the positions at hand.
//!
//! The parts (as in Stockfish and YaneuraOu): both sides' pawns, the minor
//! pieces of both sides (lances, knights, silvers, golds and their promoted
//! forms, pawns promoted included) and each side's pieces other than pawns.
//! Their keys are kept along the search path by [`PartialKeys`].
//!
//! Entries are in 1/[`GRAIN`] centipawns, kept in `-LIMIT..=LIMIT` by the
//! gravity rule of the other history tables; a node's result updates its
//! entries by the difference between the search score and the corrected
//! evaluation, weighted by depth.
//!
//! Tables measured and dropped (docs/search-results.md, sessions 21-23; the
//! code is in commit a2642d0's tree): damped updates, a continuation table,
//! king-zone tables, a hands table and a global per-side entry.

use super::history::gravity;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square};
use crate::zobrist::board_key;

/// Entries per side to move.
const ENTRIES: usize = 1 << 14;
/// Fractions of a centipawn per unit of an entry.
const GRAIN: i32 = 32;
/// Bound of an entry: a correction of at most 512 centipawns (256 until
/// session 28: against YaneuraOu's material build at 300 ms, 43.5% in 400
/// games against 37.5% on the same openings).
const LIMIT: i32 = 512 * GRAIN;
/// Largest update of one node, as a fraction of [`LIMIT`] (64 cp).
const MAX_UPDATE_DIV: i32 = 8;
/// The update is the score difference times depth over this.
const DEPTH_DIV: i32 = 8;
/// Weights of the tables in the correction, in 1/128 (YaneuraOu's
/// proportions: pawns 1, minor pieces 0.71, each side's other pieces 1.02).
const PAWN_WEIGHT: i32 = 128;
const MINOR_WEIGHT: i32 = 91;
const NON_PAWN_WEIGHT: i32 = 130;
/// Update scales of the tables, in 1/128 (YaneuraOu's).
const MINOR_UPDATE: i32 = 153;
const NON_PAWN_UPDATE: i32 = 187;
/// The largest correction in centipawns: every table at its bound.
#[cfg(test)]
const MAX_CORRECTION: i32 =
    LIMIT / GRAIN * (PAWN_WEIGHT + MINOR_WEIGHT + 2 * NON_PAWN_WEIGHT) / 128;

/// Keys of the parts of a position that the correction tables follow
/// besides the pawns: its minor pieces, and each side's pieces other than
/// pawns (on the board; hands are left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartialKeys {
    minor: u64,
    non_pawn: [u64; 2],
}

/// Whether pieces of type `pt` count as minor pieces.
#[inline]
fn is_minor(pt: PieceType) -> bool {
    !matches!(
        pt,
        PieceType::PAWN
            | PieceType::BISHOP
            | PieceType::ROOK
            | PieceType::KING
            | PieceType::HORSE
            | PieceType::DRAGON
    )
}

impl PartialKeys {
    /// The keys of `pos`, from its board.
    pub fn of(pos: &Position) -> PartialKeys {
        let mut keys = PartialKeys::default();
        for sq in Square::all() {
            keys.toggle(sq, pos.piece_on(sq));
        }
        keys
    }

    /// The keys after `m` is played in `pos` (whose keys these are).
    #[inline]
    pub fn after(mut self, pos: &Position, m: Move) -> PartialKeys {
        let us = pos.side_to_move();
        let to = m.to();
        if m.is_drop() {
            self.toggle(to, Piece::new(us, m.dropped()));
            return self;
        }
        let from = m.from();
        let piece = pos.piece_on(from);
        self.toggle(from, piece);
        self.toggle(to, pos.piece_on(to));
        let moved = if m.is_promotion() {
            Piece::new(us, piece.piece_type().promoted())
        } else {
            piece
        };
        self.toggle(to, moved);
        self
    }

    /// Adds or removes `piece` on `sq` (nothing for no piece or a pawn).
    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        if piece.is_none() || piece.piece_type() == PieceType::PAWN {
            return;
        }
        let k = board_key(sq, piece);
        self.non_pawn[piece.color().index()] ^= k;
        if is_minor(piece.piece_type()) {
            self.minor ^= k;
        }
    }
}

/// The correction tables of one search thread.
pub struct CorrectionHistory {
    pawn: Box<[i32]>,
    minor: Box<[i32]>,
    non_pawn: [Box<[i32]>; 2],
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let table = || vec![0; 2 * ENTRIES].into_boxed_slice();
        CorrectionHistory {
            pawn: table(),
            minor: table(),
            non_pawn: [table(), table()],
        }
    }
}

/// A hash of both sides' pawns on the board.
#[inline]
fn pawn_hash(pos: &Position) -> u64 {
    let fold = |c: Color| {
        let b = pos.pieces_of(c, PieceType::PAWN).bits();
        (b as u64) ^ ((b >> 64) as u64).rotate_left(17)
    };
    fold(Color::Sente).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ fold(Color::Gote).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// The table index of `pos`: side to move and a hash of both sides' pawns.
#[inline]
fn index(pos: &Position) -> usize {
    slot(pos, pawn_hash(pos))
}

/// The table index of key `h` (already a hash) for `pos`'s side to move.
#[inline]
fn slot(pos: &Position, h: u64) -> usize {
    let slot = (h >> (64 - ENTRIES.trailing_zeros())) as usize;
    pos.side_to_move().index() * ENTRIES + slot
}

/// Moves one entry by `bonus` scaled by `scale`/128, within the bounds.
#[inline]
fn learn(entry: &mut i32, bonus: i32, scale: i32) {
    gravity(entry, bonus * scale / 128, LIMIT);
}

impl CorrectionHistory {
    /// The correction to add to the static evaluation of `pos` (side to
    /// move's view, centipawns); `keys` are its partial keys.
    #[inline]
    pub fn value(&self, pos: &Position, keys: &PartialKeys) -> i32 {
        let non_pawn = self.non_pawn[0][slot(pos, keys.non_pawn[0])]
            + self.non_pawn[1][slot(pos, keys.non_pawn[1])];
        let sum = PAWN_WEIGHT * self.pawn[index(pos)]
            + MINOR_WEIGHT * self.minor[slot(pos, keys.minor)]
            + NON_PAWN_WEIGHT * non_pawn;
        sum / (128 * GRAIN)
    }

    /// Records that a search of `pos` (partial keys `keys`) to `depth`
    /// scored `diff` centipawns above its corrected static evaluation.
    #[inline]
    pub fn update(&mut self, pos: &Position, keys: &PartialKeys, diff: i32, depth: i32) {
        let bonus = (diff * GRAIN * depth / DEPTH_DIV)
            .clamp(-LIMIT / MAX_UPDATE_DIV, LIMIT / MAX_UPDATE_DIV);
        learn(&mut self.pawn[index(pos)], bonus, 128);
        learn(&mut self.minor[slot(pos, keys.minor)], bonus, MINOR_UPDATE);
        for (c, key) in keys.non_pawn.iter().enumerate() {
            learn(
                &mut self.non_pawn[c][slot(pos, *key)],
                bonus,
                NON_PAWN_UPDATE,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    #[test]
    fn learns_a_steady_offset_and_stays_bounded() {
        let pos = parse_sfen(crate::search::BENCH_POSITIONS[0]).unwrap();
        let keys = PartialKeys::of(&pos);
        let mut c = CorrectionHistory::default();
        assert_eq!(c.value(&pos, &keys), 0);
        // Small steps (depth 1): the four tables together move the sum
        // about five times the pawn table's step, so at depth 8 the steps
        // would overshoot.
        for _ in 0..400 {
            let diff = 80 - c.value(&pos, &keys);
            c.update(&pos, &keys, diff, 1);
        }
        assert!(
            (70..=90).contains(&c.value(&pos, &keys)),
            "{}",
            c.value(&pos, &keys)
        );
        for _ in 0..200 {
            c.update(&pos, &keys, 10_000, 20);
        }
        assert!(c.value(&pos, &keys) <= MAX_CORRECTION);
        for _ in 0..200 {
            c.update(&pos, &keys, -10_000, 20);
        }
        assert!(c.value(&pos, &keys) >= -MAX_CORRECTION);
        // The other side to move has its own entry.
        let other = parse_sfen(crate::search::BENCH_POSITIONS[1]).unwrap();
        assert_eq!(c.value(&other, &PartialKeys::of(&other)), 0);
    }
}

#[cfg(test)]
mod partial_key_tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::moves::MoveList;
    use crate::sfen::parse_sfen;

    /// The keys kept move by move equal the keys computed from the board.
    #[test]
    fn incremental_keys_match_the_board() {
        for sfen in crate::search::BENCH_POSITIONS {
            let mut pos = parse_sfen(sfen).unwrap();
            let mut keys = PartialKeys::of(&pos);
            for step in 0..40 {
                let mut list = MoveList::new();
                legal_moves(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                // A fixed walk through the move lists (captures and drops
                // come up as well as quiet moves).
                let m = list.as_slice()[(step * 7 + 3) % list.len()];
                keys = keys.after(&pos, m);
                pos = pos.play(m);
                assert_eq!(keys, PartialKeys::of(&pos), "{sfen} after {m}");
            }
        }
    }
}
