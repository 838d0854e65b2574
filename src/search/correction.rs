//! Correction history: how far the search's results have landed from the
//! static evaluation, by side to move and parts of the position. The static
//! evaluation of a node is corrected by the running offsets of its parts,
//! so a crude evaluation (material only, above all) learns during the game
//! what its terms miss in the positions at hand.
//!
//! The parts (as in Stockfish and YaneuraOu): both sides' pawns; with
//! [`PARTIAL_TABLES`] also the minor pieces of both sides (lances, knights,
//! silvers, golds and their promoted forms, pawns promoted included) and
//! each side's pieces other than pawns. Their keys are kept along the
//! search path by [`PartialKeys`].
//!
//! Entries are in 1/[`GRAIN`] centipawns, kept in `-LIMIT..=LIMIT` by the
//! gravity rule of the other history tables; a node's result updates its
//! entries by the difference between the search score and the corrected
//! evaluation, weighted by depth.

use super::history::gravity;
use crate::bitboard::king_attacks;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square};
use crate::zobrist::board_key;

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
/// Whether the minor-piece and the two non-pawn tables are used beside the
/// pawn table.
pub const PARTIAL_TABLES: bool = true;
/// Weights of the tables in the correction, in 1/128 (YaneuraOu's
/// proportions: pawns 1, minor pieces 0.71, each side's other pieces 1.02).
const PAWN_WEIGHT: i32 = 128;
const MINOR_WEIGHT: i32 = 91;
const NON_PAWN_WEIGHT: i32 = 130;
/// Update scales of the tables, in 1/128 (YaneuraOu's).
const MINOR_UPDATE: i32 = 153;
const NON_PAWN_UPDATE: i32 = 187;
/// Whether the updates of the pawn, minor-piece and non-pawn tables are
/// scaled down so that together they move the correction as far as the
/// pawn table alone did (each table moves by its share). Without it an
/// update moves the sum about five times as far as the pawn table alone,
/// so that from depth 2 or so repeated updates of one position overshoot
/// the difference; off all the same: at 300 ms against YaneuraOu's
/// material build it scored 15-57-3 in 75 games, where one run of the
/// undamped tables scored 30-42-3 on the same openings (a lucky run: the
/// same build scored 25-71-4 on those 100 in session 22, so the evidence is
/// weaker than it looked; docs/search-results.md, sessions 21 and 22).
pub const PARTIAL_DAMPING: bool = false;
/// How far one update of all the partial tables moves the correction, in
/// 1/128^2 of the pawn table alone's.
const PARTIAL_GAIN: i32 =
    PAWN_WEIGHT * 128 + MINOR_WEIGHT * MINOR_UPDATE + 2 * NON_PAWN_WEIGHT * NON_PAWN_UPDATE;
/// Whether the continuation table is used: keyed by the last move (its
/// piece and destination) together with our move two or four plies back,
/// as YaneuraOu's continuation correction history.
pub const CONT_CORRECTION: bool = false;
/// Whether the king-zone tables are used: one per king, keyed by its
/// square and the pieces on the squares around it (not in Stockfish or
/// YaneuraOu: a material evaluation knows nothing of king safety, which
/// these learn during the search).
pub const KING_ZONE_TABLES: bool = false;
/// Weight of each king-zone table in the correction, in 1/128.
const KING_ZONE_WEIGHT: i32 = 128;
/// Update scale of the king-zone tables, in 1/128.
const KING_ZONE_UPDATE: i32 = 128;
/// Whether the hands table is used: keyed by what both sides hold in hand
/// (not in Stockfish or YaneuraOu: in shogi the pieces in hand are half of
/// the game).
pub const HAND_TABLE: bool = false;
/// Weight of the hands table in the correction, in 1/128.
const HAND_WEIGHT: i32 = 128;
/// Update scale of the hands table, in 1/128.
const HAND_UPDATE: i32 = 128;
/// Whether the global table is used: one entry per side to move, the
/// offset every position of that side shares (a tempo the search learns).
pub const GLOBAL_TABLE: bool = false;
/// Weight of the global table in the correction, in 1/128.
const GLOBAL_WEIGHT: i32 = 128;
/// Update scale of the global table, in 1/128: a quarter of the others',
/// since every node's update lands on this one entry.
const GLOBAL_UPDATE: i32 = 32;
/// Entries of the continuation table (hashed keys).
const CONT_ENTRIES: usize = 1 << 18;
/// Weight of the continuation table in the correction, in 1/128.
const CONT_WEIGHT: i32 = 84;
/// Update scales of the continuation table for the moves two and four
/// plies back, in 1/128.
const CONT_UPDATE: [i32; 2] = [126, 63];

/// The largest correction in centipawns: every enabled table at its bound.
#[cfg(test)]
const MAX_CORRECTION: i32 = {
    let mut weights = PAWN_WEIGHT;
    if PARTIAL_TABLES {
        weights += MINOR_WEIGHT + 2 * NON_PAWN_WEIGHT;
    }
    if CONT_CORRECTION {
        weights += 2 * CONT_WEIGHT;
    }
    if KING_ZONE_TABLES {
        weights += 2 * KING_ZONE_WEIGHT;
    }
    if HAND_TABLE {
        weights += HAND_WEIGHT;
    }
    if GLOBAL_TABLE {
        weights += GLOBAL_WEIGHT;
    }
    LIMIT / GRAIN * weights / 128
};

/// A key of the continuation table: the earlier move (piece slot,
/// destination) two or four plies back and the last move, for the side to
/// move now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContCorrectionKey(usize);

impl ContCorrectionKey {
    /// The key of the earlier move (`earlier_slot`, `earlier_to`) `back`
    /// plies before and the last move (`last_slot`, `last_to`), for side
    /// `us` (index) to move.
    #[inline]
    pub fn new(
        us: usize,
        back: usize,
        (earlier_slot, earlier_to): (usize, Square),
        (last_slot, last_to): (usize, Square),
    ) -> ContCorrectionKey {
        let raw = ((((us * 8 + back) * 32 + earlier_slot) * 128 + earlier_to.index()) * 32
            + last_slot)
            * 128
            + last_to.index();
        let h = (raw as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ContCorrectionKey((h >> (64 - CONT_ENTRIES.trailing_zeros())) as usize)
    }
}

/// The continuation keys of a node: two and four plies back (`None` where
/// a move is missing: near the root or after a null move).
pub type ContCorrectionKeys = [Option<ContCorrectionKey>; 2];

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
    table: Box<[i32]>,
    minor: Box<[i32]>,
    non_pawn: [Box<[i32]>; 2],
    cont: Box<[i32]>,
    king_zone: [Box<[i32]>; 2],
    hands: Box<[i32]>,
    global: [i32; 2],
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let partial = if PARTIAL_TABLES { 2 * ENTRIES } else { 0 };
        CorrectionHistory {
            table: vec![0; 2 * ENTRIES].into_boxed_slice(),
            minor: vec![0; partial].into_boxed_slice(),
            non_pawn: [
                vec![0; partial].into_boxed_slice(),
                vec![0; partial].into_boxed_slice(),
            ],
            cont: vec![0; if CONT_CORRECTION { CONT_ENTRIES } else { 0 }].into_boxed_slice(),
            king_zone: [(); 2].map(|_| {
                vec![0; if KING_ZONE_TABLES { 2 * ENTRIES } else { 0 }].into_boxed_slice()
            }),
            hands: vec![0; if HAND_TABLE { 2 * ENTRIES } else { 0 }].into_boxed_slice(),
            global: [0; 2],
        }
    }
}

/// The hands key of `pos`: what both sides hold.
#[inline]
fn hands_key(pos: &Position) -> u64 {
    pos.hand(Color::Sente)
        .packed()
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
        ^ pos
            .hand(Color::Gote)
            .packed()
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// A hash of both sides' pawns on the board.
#[inline]
pub fn pawn_hash(pos: &Position) -> u64 {
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

/// The king-zone key of `color`'s king: its square and the pieces around
/// it (`None` without a king).
#[inline]
fn king_zone_key(pos: &Position, color: Color) -> Option<u64> {
    let k = pos.king_square(color)?;
    let mut h = (k.index() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    for sq in king_attacks(k) {
        h ^= board_key(sq, pos.piece_on(sq));
    }
    Some(h)
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
    pub fn value(&self, pos: &Position, keys: &PartialKeys, cont: &ContCorrectionKeys) -> i32 {
        let mut sum = PAWN_WEIGHT * self.table[index(pos)];
        if PARTIAL_TABLES {
            let minor = self.minor[slot(pos, keys.minor)];
            let non_pawn = self.non_pawn[0][slot(pos, keys.non_pawn[0])]
                + self.non_pawn[1][slot(pos, keys.non_pawn[1])];
            sum += MINOR_WEIGHT * minor + NON_PAWN_WEIGHT * non_pawn;
        }
        if CONT_CORRECTION {
            let c: i32 = cont.iter().flatten().map(|k| self.cont[k.0]).sum();
            sum += CONT_WEIGHT * c;
        }
        if HAND_TABLE {
            sum += HAND_WEIGHT * self.hands[slot(pos, hands_key(pos))];
        }
        if GLOBAL_TABLE {
            sum += GLOBAL_WEIGHT * self.global[pos.side_to_move().index()];
        }
        if KING_ZONE_TABLES {
            for (c, table) in Color::ALL.iter().zip(&self.king_zone) {
                if let Some(key) = king_zone_key(pos, *c) {
                    sum += KING_ZONE_WEIGHT * table[slot(pos, key)];
                }
            }
        }
        sum / (128 * GRAIN)
    }

    /// Records that a search of `pos` (partial keys `keys`) to `depth`
    /// scored `diff` centipawns above its corrected static evaluation.
    #[inline]
    pub fn update(
        &mut self,
        pos: &Position,
        (keys, cont): (&PartialKeys, &ContCorrectionKeys),
        diff: i32,
        depth: i32,
    ) {
        let bonus = (diff * GRAIN * depth / DEPTH_DIV)
            .clamp(-LIMIT / MAX_UPDATE_DIV, LIMIT / MAX_UPDATE_DIV);
        // The damping scales the pawn, minor and non-pawn tables only.
        let damped = if PARTIAL_TABLES && PARTIAL_DAMPING {
            bonus * (128 * 128) / PARTIAL_GAIN
        } else {
            bonus
        };
        learn(&mut self.table[index(pos)], damped, 128);
        if PARTIAL_TABLES {
            learn(&mut self.minor[slot(pos, keys.minor)], damped, MINOR_UPDATE);
            for (c, key) in keys.non_pawn.iter().enumerate() {
                learn(
                    &mut self.non_pawn[c][slot(pos, *key)],
                    damped,
                    NON_PAWN_UPDATE,
                );
            }
        }
        if CONT_CORRECTION {
            for (k, scale) in cont.iter().zip(CONT_UPDATE) {
                if let Some(k) = k {
                    learn(&mut self.cont[k.0], bonus, scale);
                }
            }
        }
        if HAND_TABLE {
            learn(
                &mut self.hands[slot(pos, hands_key(pos))],
                bonus,
                HAND_UPDATE,
            );
        }
        if GLOBAL_TABLE {
            let entry = &mut self.global[pos.side_to_move().index()];
            learn(entry, bonus, GLOBAL_UPDATE);
        }
        if KING_ZONE_TABLES {
            for (c, table) in Color::ALL.iter().zip(&mut self.king_zone) {
                if let Some(key) = king_zone_key(pos, *c) {
                    learn(&mut table[slot(pos, key)], bonus, KING_ZONE_UPDATE);
                }
            }
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
        assert_eq!(c.value(&pos, &keys, &[None; 2]), 0);
        // Small steps (depth 1): without damping the tables together move
        // the sum several times the difference at depth 8.
        for _ in 0..400 {
            let diff = 80 - c.value(&pos, &keys, &[None; 2]);
            c.update(&pos, (&keys, &[None; 2]), diff, 1);
        }
        assert!(
            (70..=90).contains(&c.value(&pos, &keys, &[None; 2])),
            "{}",
            c.value(&pos, &keys, &[None; 2])
        );
        for _ in 0..200 {
            c.update(&pos, (&keys, &[None; 2]), 10_000, 20);
        }
        assert!(c.value(&pos, &keys, &[None; 2]) <= MAX_CORRECTION);
        for _ in 0..200 {
            c.update(&pos, (&keys, &[None; 2]), -10_000, 20);
        }
        assert!(c.value(&pos, &keys, &[None; 2]) >= -MAX_CORRECTION);
        // The other side to move has its own entry.
        let other = parse_sfen(crate::search::BENCH_POSITIONS[1]).unwrap();
        assert_eq!(c.value(&other, &PartialKeys::of(&other), &[None; 2]), 0);
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
