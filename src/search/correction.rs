//! Correction history: how far the search's results have landed from the
//! static evaluation, by side to move and pawn structure. The static
//! evaluation of a node is corrected by the running offset of its
//! structure, so a crude evaluation (material only, above all) learns
//! during the game what its terms miss in the positions at hand.
//!
//! Entries are in 1/[`GRAIN`] centipawns, kept in `-LIMIT..=LIMIT` by the
//! gravity rule of the other history tables; a node's result updates its
//! entry by the difference between the search score and the corrected
//! evaluation, weighted by depth.

use super::history::gravity;
use crate::position::Position;
use crate::types::{Color, PieceType};

/// Entries per side to move.
const ENTRIES: usize = 1 << 14;
/// Fractions of a centipawn per unit of an entry.
const GRAIN: i32 = 32;
/// Bound of an entry: a correction of at most 256 centipawns.
const LIMIT: i32 = 256 * GRAIN;
/// Largest update of one node, as a fraction of [`LIMIT`].
const MAX_UPDATE_DIV: i32 = 4;
/// The update is the score difference times depth over this.
const DEPTH_DIV: i32 = 8;

/// The correction table of one search thread.
pub struct CorrectionHistory {
    table: Box<[i32]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: vec![0; 2 * ENTRIES].into_boxed_slice(),
        }
    }
}

/// The table index of `pos`: side to move and a hash of both sides' pawns.
#[inline]
fn index(pos: &Position) -> usize {
    let fold = |c: Color| {
        let b = pos.pieces_of(c, PieceType::PAWN).bits();
        (b as u64) ^ ((b >> 64) as u64).rotate_left(17)
    };
    let h = fold(Color::Sente).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ fold(Color::Gote).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let slot = (h >> (64 - ENTRIES.trailing_zeros())) as usize;
    pos.side_to_move().index() * ENTRIES + slot
}

impl CorrectionHistory {
    /// The correction to add to the static evaluation of `pos` (side to
    /// move's view, centipawns).
    #[inline]
    pub fn value(&self, pos: &Position) -> i32 {
        self.table[index(pos)] / GRAIN
    }

    /// Records that a search of `pos` to `depth` scored `diff` centipawns
    /// above its corrected static evaluation.
    #[inline]
    pub fn update(&mut self, pos: &Position, diff: i32, depth: i32) {
        let bonus = (diff * GRAIN * depth / DEPTH_DIV)
            .clamp(-LIMIT / MAX_UPDATE_DIV, LIMIT / MAX_UPDATE_DIV);
        gravity(&mut self.table[index(pos)], bonus, LIMIT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    #[test]
    fn learns_a_steady_offset_and_stays_bounded() {
        let pos = parse_sfen(crate::search::BENCH_POSITIONS[0]).unwrap();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.value(&pos), 0);
        for _ in 0..200 {
            let diff = 80 - c.value(&pos);
            c.update(&pos, diff, 8);
        }
        assert!((70..=90).contains(&c.value(&pos)), "{}", c.value(&pos));
        for _ in 0..200 {
            c.update(&pos, 10_000, 20);
        }
        assert!(c.value(&pos) <= LIMIT / GRAIN);
        // The other side to move has its own entry.
        let other = parse_sfen(crate::search::BENCH_POSITIONS[1]).unwrap();
        assert_eq!(c.value(&other), 0);
    }
}
