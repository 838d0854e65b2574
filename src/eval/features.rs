//! The features of the learned evaluation: which weights a position switches
//! on. Shared by the engine ([`super::learned`]) and the trainer
//! (`examples/train_eval.rs`), so both always agree.
//!
//! Every feature belongs to one piece (or one piece in hand) and is seen
//! from that piece's owner: squares are turned by 180 degrees for gote, so
//! one weight serves both sides, counted `+1` for a sente piece and `-1` for
//! a gote piece (the sum is from sente's point of view). A piece of type
//! `pt` on square `sq` switches on:
//!
//! * `PSQ[pt][sq]`: its type and square (this carries the material value);
//! * `OWN[pt][dy][dx]`: where it stands relative to its own king (not for
//!   the king itself), the KP term of Bonanza-style evaluations in the
//!   relative form that needs little data: a gold beside the king, a silver
//!   in front of it;
//! * `ENEMY[pt][dy][dx]`: where it stands relative to the enemy king (the
//!   attack: a gold or a dragon next to the enemy king).
//!
//! A hand holding `n` pieces of a type switches on `HAND[pt][1..=n]`: the
//! k-th piece of a type has its own value (the first pawn in hand is worth
//! more than the fifth).
//!
//! Left and right share weights: a square and its mirror image have one
//! piece-square weight, and a relative offset counts only the file
//! distance (halving the weights to learn; the rules are symmetric).
//!
//! The relative terms are skipped when the king they refer to is absent
//! (tsume positions). Weights exist per board; the index space is the 9x9
//! one on every board.

use crate::position::Position;
use crate::rules::BoardKind;
use crate::types::{Color, PieceType, SQUARE_COUNT, Square};

/// Piece types, indexed by [`PieceType::index`] (index 0 unused).
pub const TYPES: usize = PieceType::COUNT;
/// Width of a relative offset (-8..=8).
pub const SPAN: usize = 17;
/// Relative offsets of a piece to a king.
pub const OFFSETS: usize = SPAN * SPAN;
/// Most pieces of one type in one hand (18 pawns).
pub const MAX_HAND: usize = 18;

/// Where the piece-square weights start.
pub const PSQ_BASE: usize = 0;
/// Where the weights relative to the own king start.
pub const OWN_BASE: usize = PSQ_BASE + TYPES * SQUARE_COUNT;
/// Where the weights relative to the enemy king start.
pub const ENEMY_BASE: usize = OWN_BASE + TYPES * OFFSETS;
/// Where the hand weights start (`HAND_BASE + pt * (MAX_HAND + 1) + k`).
pub const HAND_BASE: usize = ENEMY_BASE + TYPES * OFFSETS;
/// King squares of the absolute king-piece terms: the king's oriented
/// square mirrored onto the files `0..=4` (5 files x 9 ranks).
pub const KP_KING_SQUARES: usize = 45;
/// Weights of one absolute king-piece block (king square, piece type,
/// piece square).
pub const KP_WEIGHTS: usize = KP_KING_SQUARES * TYPES * SQUARE_COUNT;
/// Where the absolute weights relative to the own king start.
pub const KP_OWN_BASE: usize = HAND_BASE + 8 * (MAX_HAND + 1);
/// Where the absolute weights relative to the enemy king start.
pub const KP_ENEMY_BASE: usize = KP_OWN_BASE + KP_WEIGHTS;
/// Number of weights per board.
pub const FEATURES: usize = KP_ENEMY_BASE + KP_WEIGHTS;

/// A square seen from `color`'s side of a board of `size` files: gote's
/// squares are turned by 180 degrees. Returns (file, rank).
#[inline(always)]
pub fn oriented(size: u8, color: Color, sq: Square) -> (i32, i32) {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    match color {
        Color::Sente => (f, r),
        Color::Gote => (size as i32 - 1 - f, size as i32 - 1 - r),
    }
}

/// The index of the offset from a king to a piece, both oriented; left
/// and right are one (mirror symmetry: only the file distance counts).
#[inline(always)]
fn offset(piece: (i32, i32), king: (i32, i32)) -> usize {
    let dx = (piece.0 - king.0).unsigned_abs() as usize;
    let dy = (piece.1 - king.1 + 8) as usize;
    dy * SPAN + dx
}

/// The piece-square index of an oriented square, mirrored onto the files
/// `0..=size/2` (the rules are symmetric under exchanging left and right).
#[inline(always)]
fn psq(size: u8, p: (i32, i32)) -> usize {
    let f = p.0.min(size as i32 - 1 - p.0);
    (f * 9 + p.1) as usize
}

/// The index within a king-piece block of a piece of type `pt` on the
/// oriented square `p` with a king on the oriented square `king`, both
/// mirrored so that the king stands on the left half (files `0..=4`).
#[inline(always)]
fn king_piece(size: u8, pt: PieceType, p: (i32, i32), king: (i32, i32)) -> usize {
    let last = size as i32 - 1;
    let (kf, pf) = if 2 * king.0 > last {
        (last - king.0, last - p.0)
    } else {
        (king.0, p.0)
    };
    let k = (kf * 9 + king.1) as usize;
    let sq = (pf * 9 + p.1) as usize;
    (k * TYPES + pt.index()) * SQUARE_COUNT + sq
}

/// Which king a piece's king features refer to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingOf {
    /// The piece's own king (defence).
    Own,
    /// The enemy king (attack).
    Enemy,
}

/// The features of a piece of `color` and type `pt` on `sq` relative to a
/// king on `king` (its own or the enemy's): the offset to the king and the
/// pair (king square, piece square). Calls `f` with each index.
#[inline(always)]
pub fn king_features(
    of: KingOf,
    size: u8,
    color: Color,
    (pt, sq): (PieceType, Square),
    king: Square,
    mut f: impl FnMut(usize),
) {
    let (offsets, pairs) = match of {
        KingOf::Own => (OWN_BASE, KP_OWN_BASE),
        KingOf::Enemy => (ENEMY_BASE, KP_ENEMY_BASE),
    };
    let p = oriented(size, color, sq);
    let k = oriented(size, color, king);
    f(offsets + pt.index() * OFFSETS + offset(p, k));
    f(pairs + king_piece(size, pt, p, k));
}

/// The features of one piece on the board, for its owner `color`, given the
/// kings' squares (indexed by colour). Calls `f` with each index.
#[inline(always)]
pub fn piece_features(
    size: u8,
    kings: [Option<Square>; 2],
    color: Color,
    pt: PieceType,
    sq: Square,
    mut f: impl FnMut(usize),
) {
    let p = oriented(size, color, sq);
    f(PSQ_BASE + pt.index() * SQUARE_COUNT + psq(size, p));
    if pt != PieceType::KING
        && let Some(k) = kings[color.index()]
    {
        king_features(KingOf::Own, size, color, (pt, sq), k, &mut f);
    }
    if let Some(k) = kings[color.flip().index()] {
        king_features(KingOf::Enemy, size, color, (pt, sq), k, &mut f);
    }
}

/// The feature of the `k`-th piece (from 1) of type `pt` in a hand.
#[inline(always)]
pub fn hand_feature(pt: PieceType, k: usize) -> usize {
    HAND_BASE + pt.index() * (MAX_HAND + 1) + k.min(MAX_HAND)
}

/// The kings' squares of `pos`, indexed by colour.
#[inline(always)]
pub fn kings(pos: &Position) -> [Option<Square>; 2] {
    [pos.king_square(Color::Sente), pos.king_square(Color::Gote)]
}

/// `+1` for sente, `-1` for gote.
#[inline(always)]
pub fn sign(color: Color) -> i32 {
    match color {
        Color::Sente => 1,
        Color::Gote => -1,
    }
}

/// Every feature of `pos` with its sign (`+1` sente, `-1` gote).
pub fn for_each_feature(pos: &Position, mut f: impl FnMut(usize, i32)) {
    let size = pos.kind().size();
    let kings = kings(pos);
    for sq in pos.occupied() {
        let piece = pos.piece_on(sq);
        let c = piece.color();
        let s = sign(c);
        piece_features(size, kings, c, piece.piece_type(), sq, |i| f(i, s));
    }
    for c in Color::ALL {
        let hand = pos.hand(c);
        for pt in PieceType::HAND {
            for k in 1..=hand.count(pt) as usize {
                f(hand_feature(pt, k), sign(c));
            }
        }
    }
}

/// The index of a board kind's weights in a weights file.
#[inline]
pub fn board_index(kind: BoardKind) -> usize {
    kind as usize
}
