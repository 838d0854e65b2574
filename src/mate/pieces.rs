//! Proof pieces and disproof pieces (証明駒 / 反証駒): the attacker's hand a
//! result needs, so that one proof or disproof serves many hands.
//!
//! A proof stored with hand `P` (the proof pieces) holds for every attacker
//! hand holding at least `P`; a disproof stored with hand `D` (the disproof
//! pieces) holds for every hand holding at most `D`. The board and thus the
//! pieces of both hands together are fixed, so more for the attacker means
//! less for the defender. Computed bottom-up:
//!
//! - OR node proven by move `m`: the child's proof pieces before `m` (a
//!   dropped piece added back, a captured one taken away).
//! - AND node proven: the union (max per type) of the children's, plus the
//!   attacker's whole count of every type the defender lacks when an
//!   interposition is possible (with fewer, the defender could interpose).
//! - OR node disproven: the intersection (min per type) of the children's
//!   before their moves, without the types the attacker lacks whose drop
//!   could check (with one, the attacker would have a new check).
//! - AND node disproven by move `m`: the child's, leaving the defender at
//!   least one piece of a type `m` drops.
//!
//! Every rule errs on the safe side: a larger proof hand or a smaller
//! disproof hand than necessary only generalises less.

use super::table::PackedHand;
use crate::bitboard::{self, Bitboard};
use crate::moves::Move;
use crate::position::Position;
use crate::types::PieceType;

impl PackedHand {
    /// The empty hand (proof pieces of a mate that needs none).
    pub const EMPTY: PackedHand = PackedHand(0);

    /// The hand holding every piece of every set (the disproof pieces
    /// before any child restricts them).
    pub fn full() -> PackedHand {
        let mut h = PackedHand::EMPTY;
        for pt in PieceType::HAND {
            h = h.with(pt, pt.set_count());
        }
        h
    }

    /// The count of `pt`.
    #[inline]
    pub fn count(self, pt: PieceType) -> u8 {
        (self.0 >> (8 * pt.index())) as u8
    }

    /// This hand with `n` pieces of `pt`.
    #[inline]
    pub fn with(self, pt: PieceType, n: u8) -> PackedHand {
        let shift = 8 * pt.index();
        PackedHand((self.0 & !(0xff << shift)) | (n as u64) << shift)
    }

    /// The larger count of each type.
    pub fn union(self, other: PackedHand) -> PackedHand {
        let mut h = self;
        for pt in PieceType::HAND {
            h = h.with(pt, self.count(pt).max(other.count(pt)));
        }
        h
    }

    /// The smaller count of each type.
    pub fn intersection(self, other: PackedHand) -> PackedHand {
        let mut h = self;
        for pt in PieceType::HAND {
            h = h.with(pt, self.count(pt).min(other.count(pt)));
        }
        h
    }
}

/// The attacker's hand before its move `m` from `pos`, given the proof or
/// disproof pieces `after` of the position after it: a dropped piece added
/// back (at most a set), a captured one taken away (at least zero).
pub fn before_move(pos: &Position, m: Move, after: PackedHand) -> PackedHand {
    if m.is_drop() {
        let pt = m.dropped();
        return after.with(pt, (after.count(pt) + 1).min(pt.set_count()));
    }
    let captured = pos.piece_on(m.to());
    if captured.is_none() {
        return after;
    }
    let pt = captured.piece_type().unpromoted();
    after.with(pt, after.count(pt).saturating_sub(1))
}

/// The proof pieces of the AND node `pos` (the defender to move, in check)
/// whose replies are all proven with the union `children` of their proof
/// pieces (empty when it is mate).
pub fn and_proof(pos: &Position, children: PackedHand) -> PackedHand {
    if !interposition_possible(pos) {
        return children;
    }
    let defender = pos.hand(pos.side_to_move());
    let attacker = pos.hand(pos.side_to_move().flip());
    let mut proof = children;
    for pt in PieceType::HAND {
        if defender.count(pt) == 0 {
            proof = proof.with(pt, attacker.count(pt));
        }
    }
    proof
}

/// Whether the defender of `pos` (in check) could interpose a dropped piece:
/// one checker with an empty square between it and the king.
fn interposition_possible(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return false;
    }
    let (Some(king), Some(checker)) = (pos.king_square(pos.side_to_move()), checkers.first())
    else {
        return false;
    };
    bitboard::between(king, checker).any()
}

/// The disproof pieces of the OR node `pos` (the attacker to move) whose
/// checks are all disproven with the intersection `children` of their
/// disproof pieces taken before the move (the full hand when it has none).
pub fn or_disproof(pos: &Position, children: PackedHand) -> PackedHand {
    let us = pos.side_to_move();
    let them = us.flip();
    let hand = pos.hand(us);
    let Some(king) = pos.king_square(them) else {
        return children;
    };
    let occupied = pos.occupied();
    let empty = !occupied;
    let mut disproof = children;
    for pt in PieceType::HAND {
        if hand.count(pt) == 0 && disproof.count(pt) > 0 {
            let from = bitboard::attacks(them, pt, king, occupied);
            if (from & empty) != Bitboard::EMPTY {
                disproof = disproof.with(pt, 0);
            }
        }
    }
    disproof
}

/// The disproof pieces of the AND node `pos` disproven by the defender's
/// move `m` whose child has disproof pieces `child`: a drop needs the
/// defender to keep at least one piece of its type.
pub fn and_disproof(pos: &Position, m: Move, child: PackedHand) -> PackedHand {
    if !m.is_drop() {
        return child;
    }
    let pt = m.dropped();
    let total =
        pos.hand(pos.side_to_move()).count(pt) + pos.hand(pos.side_to_move().flip()).count(pt);
    let max = total.saturating_sub(1);
    child.with(pt, child.count(pt).min(max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    fn packed(sfen: &str) -> PackedHand {
        let pos = parse_sfen(sfen).unwrap();
        PackedHand::new(pos.hand(pos.side_to_move()))
    }

    #[test]
    fn union_and_intersection_are_per_type() {
        let a = PackedHand::EMPTY
            .with(PieceType::GOLD, 2)
            .with(PieceType::PAWN, 1);
        let b = PackedHand::EMPTY
            .with(PieceType::GOLD, 1)
            .with(PieceType::ROOK, 1);
        let u = a.union(b);
        let i = a.intersection(b);
        assert_eq!(
            (
                u.count(PieceType::GOLD),
                u.count(PieceType::PAWN),
                u.count(PieceType::ROOK)
            ),
            (2, 1, 1)
        );
        assert_eq!(
            (
                i.count(PieceType::GOLD),
                i.count(PieceType::PAWN),
                i.count(PieceType::ROOK)
            ),
            (1, 0, 0)
        );
        assert!(i.is_subset_of(a) && a.is_subset_of(u));
    }

    #[test]
    fn a_drop_needs_its_piece_and_a_capture_brings_one() {
        let pos = parse_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        let drop = Move::drop(PieceType::GOLD, crate::types::Square::new(4, 1));
        let p = before_move(&pos, drop, PackedHand::EMPTY);
        assert_eq!(p, PackedHand::EMPTY.with(PieceType::GOLD, 1));
        assert_eq!(p, packed("4k4/9/4P4/9/9/9/9/9/9 b G 1"));
    }

    #[test]
    fn a_distant_check_needs_every_piece_the_defender_lacks() {
        // Rook check along the file, king on 5a: the defender holds no gold,
        // so a mate needs all the attacker's four (with fewer, the defender
        // would have a gold to interpose).
        let pos = parse_sfen("3sks3/9/9/9/4R4/9/9/9/9 w 4Gr2b2s4n4l18p 1").unwrap();
        let proof = and_proof(&pos, PackedHand::EMPTY);
        assert_eq!(proof.count(PieceType::GOLD), 4);
        assert_eq!(proof.count(PieceType::PAWN), 0);
        assert_eq!(proof.count(PieceType::ROOK), 0);
    }

    #[test]
    fn disproof_pieces_drop_what_could_check() {
        // The attacker holds nothing: a gold in hand could check next to the
        // king, so no gold belongs to the disproof pieces; a knight could
        // check too (from 4c or 6c), a lance too.
        let pos = parse_sfen("4k4/9/9/9/9/9/9/9/9 b - 1").unwrap();
        let d = or_disproof(&pos, PackedHand::full());
        assert_eq!(d.count(PieceType::GOLD), 0);
        assert_eq!(d.count(PieceType::KNIGHT), 0);
        assert!(d.is_subset_of(PackedHand::full()));
    }
}
