//! The learned linear evaluation: the sum of the weights of the features
//! ([`super::features`]) a position switches on, kept incrementally.
//!
//! A move that is not a king move changes only the features of the pieces
//! it moves, captures or drops and of the hand counts it changes, so
//! [`delta`] computes the new sum from a handful of weights; a king move
//! changes the features relative to that king: [`king_delta`] goes over
//! every piece for those alone (the full [`sum`] would look up three
//! features of every piece and the hands).

use super::features::{
    KingOf, for_each_feature, hand_feature, king_features, kings, piece_features, sign,
};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// The sum of `w` over the features of `pos`, from sente's point of view.
pub fn sum(w: &[i16], pos: &Position) -> i32 {
    let mut s = 0i32;
    for_each_feature(pos, |i, sg| s += sg * i32::from(w[i]));
    s
}

/// The signed weight sum of one piece (sente's point of view).
#[inline(always)]
fn piece(
    w: &[i16],
    size: u8,
    kings: [Option<Square>; 2],
    c: Color,
    pt: PieceType,
    sq: Square,
) -> i32 {
    let mut s = 0i32;
    piece_features(size, kings, c, pt, sq, |i| s += i32::from(w[i]));
    sign(c) * s
}

/// The signed weight of the `k`-th piece of type `pt` in `c`'s hand.
#[inline(always)]
fn hand_piece(w: &[i16], c: Color, pt: PieceType, k: usize) -> i32 {
    sign(c) * i32::from(w[hand_feature(pt, k)])
}

/// How the legal move `m`, not a king move, changes [`sum`] (sente's point
/// of view).
#[inline]
pub fn delta(w: &[i16], pos: &Position, m: Move) -> i32 {
    let size = pos.kind().size();
    let kings = kings(pos);
    let us = pos.side_to_move();
    let to = m.to();
    if m.is_drop() {
        let pt = m.dropped();
        let n = pos.hand(us).count(pt) as usize;
        return piece(w, size, kings, us, pt, to) - hand_piece(w, us, pt, n);
    }
    let from = m.from();
    let pt = pos.piece_on(from).piece_type();
    let new_pt = if m.is_promotion() { pt.promoted() } else { pt };
    let mut d = piece(w, size, kings, us, new_pt, to) - piece(w, size, kings, us, pt, from);
    let victim = pos.piece_on(to);
    if !victim.is_none() && victim.piece_type() != PieceType::KING {
        let vpt = victim.piece_type();
        d -= piece(w, size, kings, us.flip(), vpt, to);
        let base = vpt.unpromoted();
        d += hand_piece(w, us, base, pos.hand(us).count(base) as usize + 1);
    }
    d
}

/// How the legal king move `m`, which captures no king, changes [`sum`]
/// (sente's point of view).
pub fn king_delta(w: &[i16], pos: &Position, m: Move) -> i32 {
    let size = pos.kind().size();
    let us = pos.side_to_move();
    let them = us.flip();
    let (from, to) = (m.from(), m.to());
    let old = kings(pos);
    let mut new = old;
    new[us.index()] = Some(to);
    let mut d = piece(w, size, new, us, PieceType::KING, to)
        - piece(w, size, old, us, PieceType::KING, from);
    let victim = pos.piece_on(to);
    if !victim.is_none() {
        let vpt = victim.piece_type();
        d -= piece(w, size, old, them, vpt, to);
        let base = vpt.unpromoted();
        d += hand_piece(w, us, base, pos.hand(us).count(base) as usize + 1);
    }
    // Our pieces relative to their own king, theirs relative to the enemy's.
    let mut own = 0i32;
    for sq in pos.pieces(us).without(from) {
        let pt = pos.piece_on(sq).piece_type();
        king_features(KingOf::Own, size, us, (pt, sq), to, |i| {
            own += i32::from(w[i])
        });
        king_features(KingOf::Own, size, us, (pt, sq), from, |i| {
            own -= i32::from(w[i])
        });
    }
    let mut enemy = 0i32;
    for sq in pos.pieces(them).without(to) {
        let pt = pos.piece_on(sq).piece_type();
        king_features(KingOf::Enemy, size, them, (pt, sq), to, |i| {
            enemy += i32::from(w[i])
        });
        king_features(KingOf::Enemy, size, them, (pt, sq), from, |i| {
            enemy -= i32::from(w[i])
        });
    }
    d + sign(us) * own + sign(them) * enemy
}

/// Whether `m` moves a king (then [`delta`] does not apply).
#[inline]
pub fn is_king_move(pos: &Position, m: Move) -> bool {
    !m.is_drop() && pos.piece_on(m.from()).piece_type() == PieceType::KING
}
