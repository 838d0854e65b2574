//! A fast mate-in-one probe without move generation, for the quiescence
//! search: at a quiet node it tells whether the side to move mates at once,
//! so a mate threat left at the horizon (after a null move, or after a
//! quiet move one ply above) is seen there and not stood pat on.
//!
//! It looks only at *contact* checks: a drop or a board move that puts a
//! piece next to the enemy king (or a knight a knight's jump away) checking
//! it directly. Such a check cannot be blocked, so it mates when the checker
//! cannot be taken and every flight square is covered; the probe tests both
//! on bitboards around the king and plays only the candidates that pass,
//! confirming each by the rules core (no legal reply). It is sound (a move
//! it returns mates) and complete for contact mates; distant checks,
//! discovered checks and pawn drops (a drop-pawn mate is illegal) are left
//! to [`super::tactics::mate_in_one`], which the full-width search uses.

use crate::bitboard::{self, Bitboard};
use crate::movegen::has_legal_move;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// The piece types tried as drops, strongest first (pawns never: a pawn
/// drop may not mate).
const DROP_TYPES: [PieceType; 6] = [
    PieceType::ROOK,
    PieceType::BISHOP,
    PieceType::GOLD,
    PieceType::SILVER,
    PieceType::LANCE,
    PieceType::KNIGHT,
];

/// Our attackers of each square around the enemy king, the king lifted off
/// the board (so a square behind it on a slider's line counts as covered),
/// computed when first asked for.
struct Cover {
    squares: [(Square, Option<Bitboard>); 8],
    len: usize,
}

impl Cover {
    fn new(near: Bitboard) -> Cover {
        let mut cover = Cover {
            squares: [(Square::new(0, 0), None); 8],
            len: 0,
        };
        for sq in near {
            cover.squares[cover.len].0 = sq;
            cover.len += 1;
        }
        cover
    }

    /// Our attackers of `sq` (a square around the king).
    #[inline]
    fn of(&mut self, pos: &Position, us: Color, occupied: Bitboard, sq: Square) -> Bitboard {
        let Some(slot) = self.squares[..self.len].iter_mut().find(|(s, _)| *s == sq) else {
            return Bitboard::EMPTY;
        };
        *slot
            .1
            .get_or_insert_with(|| pos.attackers_to(sq, us, occupied))
    }
}

/// The probe's view of one position: the enemy king, its flights and our
/// cover around it.
struct Probe<'a> {
    pos: &'a Position,
    us: Color,
    king: Square,
    /// Squares next to the king not held by the king's own side.
    flights: Bitboard,
    /// The occupancy without the enemy king.
    occupied: Bitboard,
    cover: Cover,
    /// The king's side's pinned pieces, when first asked for.
    their_pinned: Option<Bitboard>,
}

/// A move of the side to move (not in check) that mates at once by a
/// contact check, if there is one. See the module docs for what it covers.
pub fn quick_mate_in_one(pos: &Position) -> Option<Move> {
    let us = pos.side_to_move();
    let them = us.flip();
    let king = pos.king_square(them)?;
    let near = bitboard::king_attacks(king) & pos.kind().mask();
    let occupied = pos.occupied().without(king);
    let mut probe = Probe {
        pos,
        us,
        king,
        flights: near.and_not(pos.pieces(them)),
        occupied,
        cover: Cover::new(near),
        their_pinned: None,
    };
    probe
        .drop_mate(near)
        .or_else(|| probe.move_mate(near))
        .or_else(|| probe.knight_mate())
}

impl Probe<'_> {
    /// Our attackers of `sq`, a square next to the king.
    #[inline]
    fn cover(&mut self, sq: Square) -> Bitboard {
        self.cover.of(self.pos, self.us, self.occupied, sq)
    }

    /// Whether we attack every square of `squares` (next to the king) now.
    fn covered(&mut self, squares: Bitboard) -> bool {
        squares.into_iter().all(|sq| self.cover(sq).any())
    }

    /// Whether `m` (legal, a contact check) leaves the opponent without a
    /// legal move.
    fn mates(&mut self, m: Move) -> bool {
        !self.checker_can_be_taken(m) && !has_legal_move(&self.pos.play(m))
    }

    /// A quick proof of "not mate" for the contact check `m`: a piece of
    /// the king's side other than the king, not pinned, attacks the
    /// checker's square. A board move from a square in line with the king
    /// may pin a piece or check twice on leaving it: never decided here.
    fn checker_can_be_taken(&mut self, m: Move) -> bool {
        let them = self.us.flip();
        let to = m.to();
        let mut occupied = self.pos.occupied().with(to);
        if !m.is_drop() {
            if bitboard::line(self.king, m.from()).any() {
                return false;
            }
            occupied = occupied.without(m.from());
        }
        let takers = self.pos.attackers_to(to, them, occupied).without(self.king);
        if takers.is_empty() {
            return false;
        }
        let pinned = *self
            .their_pinned
            .get_or_insert_with(|| self.pos.pinned(them));
        takers.and_not(pinned).any()
    }

    /// A mating drop next to the king (or a knight drop).
    fn drop_mate(&mut self, near: Bitboard) -> Option<Move> {
        let hand = self.pos.hand(self.us);
        if hand.is_empty() {
            return None;
        }
        let them = self.us.flip();
        let empty = self.pos.kind().mask().and_not(self.pos.occupied());
        for pt in DROP_TYPES {
            if hand.count(pt) == 0 {
                continue;
            }
            // Squares from which a `pt` of ours would attack the king.
            let checking = bitboard::attacks(them, pt, self.king, self.occupied)
                & empty
                & if pt == PieceType::KNIGHT {
                    Bitboard::ALL
                } else {
                    near
                };
            let targets = checking.and_not(self.pos.kind().dead_squares(self.us, pt));
            for to in targets {
                // Next to the king a checker must be defended.
                if pt != PieceType::KNIGHT && self.cover(to).is_empty() {
                    continue;
                }
                let reach = bitboard::attacks(self.us, pt, to, self.occupied.with(to));
                if !self.covered(self.flights.without(to).and_not(reach)) {
                    continue;
                }
                let m = Move::drop(pt, to);
                if self.mates(m) {
                    return Some(m);
                }
            }
        }
        None
    }

    /// A mating board move onto a square next to the king.
    fn move_mate(&mut self, near: Bitboard) -> Option<Move> {
        let targets = near.and_not(self.pos.pieces(self.us));
        let occupied = self.pos.occupied();
        let mut pinned = None;
        for from in self.possible_movers(near) {
            let pt = self.pos.piece_on(from).piece_type();
            for to in bitboard::attacks(self.us, pt, from, occupied) & targets {
                let (plain, promoting) = self.promotion_choices(pt, from, to);
                for promote in [false, true] {
                    if !(if promote { promoting } else { plain }) {
                        continue;
                    }
                    let new_pt = if promote { pt.promoted() } else { pt };
                    if let Some(m) = self.try_move(from, to, new_pt, promote, &mut pinned) {
                        return Some(m);
                    }
                }
            }
        }
        None
    }

    /// Our pieces that may reach a square of `near` (the king's
    /// neighbourhood): stepping pieces within two squares of the king,
    /// knights, and the sliders wherever they stand; never our king.
    fn possible_movers(&self, near: Bitboard) -> Bitboard {
        let mut zone = near;
        for sq in near {
            zone |= bitboard::king_attacks(sq);
        }
        let of = |pt| self.pos.pieces_of(self.us, pt);
        let far_reaching = of(PieceType::KNIGHT)
            | of(PieceType::LANCE)
            | of(PieceType::BISHOP)
            | of(PieceType::ROOK)
            | of(PieceType::HORSE)
            | of(PieceType::DRAGON);
        ((self.pos.pieces(self.us) & zone) | far_reaching).and_not(of(PieceType::KING))
    }

    /// A mating knight jump (a knight check cannot be blocked or answered
    /// by the king taking the knight).
    fn knight_mate(&mut self) -> Option<Move> {
        let knights = self.pos.pieces_of(self.us, PieceType::KNIGHT);
        if knights.is_empty() {
            return None;
        }
        let them = self.us.flip();
        let targets = (bitboard::step_attacks(them, PieceType::KNIGHT, self.king)
            & self.pos.kind().mask())
        .and_not(self.pos.pieces(self.us))
        .and_not(self.pos.kind().dead_squares(self.us, PieceType::KNIGHT));
        let mut pinned = None;
        for to in targets {
            let from_squares = bitboard::step_attacks(them, PieceType::KNIGHT, to) & knights;
            for from in from_squares {
                let m = self.try_move(from, to, PieceType::KNIGHT, false, &mut pinned);
                if m.is_some() {
                    return m;
                }
            }
        }
        None
    }

    /// Whether a piece of type `pt` moving `from` -> `to` may stay
    /// unpromoted, and whether it may promote.
    fn promotion_choices(&self, pt: PieceType, from: Square, to: Square) -> (bool, bool) {
        let kind = self.pos.kind();
        let zone = kind.zone(self.us);
        let may_promote = pt.can_promote() && (zone.has(from) || zone.has(to));
        (!kind.dead_squares(self.us, pt).has(to), may_promote)
    }

    /// Tests the board move `from` -> `to` (the piece becoming `new_pt`):
    /// a direct check from a defended square, every flight covered, legal,
    /// and no legal reply. `pinned` caches our pinned pieces.
    fn try_move(
        &mut self,
        from: Square,
        to: Square,
        new_pt: PieceType,
        promote: bool,
        pinned: &mut Option<Bitboard>,
    ) -> Option<Move> {
        let after = self.occupied.without(from).with(to);
        let reach = bitboard::attacks(self.us, new_pt, to, after);
        if !reach.has(self.king) {
            return None;
        }
        let adjacent = bitboard::king_attacks(self.king).has(to);
        if adjacent && !self.defended_after(to, from, after) {
            return None;
        }
        for f in self.flights.without(to).and_not(reach) {
            if !self.defended_after(f, from, after) {
                return None;
            }
        }
        let pinned = *pinned.get_or_insert_with(|| self.pos.pinned(self.us));
        if pinned.has(from) {
            let own_king = self.pos.king_square(self.us)?;
            if !bitboard::line(own_king, from).has(to) {
                return None;
            }
        }
        let m = Move::normal(from, to, promote);
        self.mates(m).then_some(m)
    }

    /// Whether a piece of ours other than the one leaving `from` attacks
    /// `sq` on the board `after` the move (sliders behind `from` included).
    fn defended_after(&mut self, sq: Square, from: Square, after: Bitboard) -> bool {
        if self.cover(sq).without(from).any() {
            return true;
        }
        // Only a slider of ours on the line through `from` and `sq` can
        // join once `from` is empty.
        let sliders = self.pos.sliders() & self.pos.pieces(self.us);
        (bitboard::line(sq, from) & sliders).any()
            && self
                .pos
                .attackers_to(sq, self.us, after)
                .without(from)
                .any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::CheckInfo;
    use crate::movegen::{legal_moves, legal_moves_and_checks};
    use crate::moves::MoveList;
    use crate::sfen::parse_sfen;

    /// Whether `m` checks only by the moved piece standing next to the king
    /// (or a knight's jump away): the class the probe is complete for.
    fn is_contact_check(pos: &Position, m: Move) -> bool {
        let us = pos.side_to_move();
        let Some(k) = pos.king_square(us.flip()) else {
            return false;
        };
        let child = pos.play(m);
        let checkers = child.checkers();
        let pt = child.piece_on(m.to()).piece_type();
        let contact = bitboard::king_attacks(k).has(m.to()) || pt == PieceType::KNIGHT;
        checkers == Bitboard::from_square(m.to()) && contact
    }

    /// Positions with the attacker to move two plies into the generated
    /// tsume problems (many of them mate in one; every
    /// [`SAMPLE_EVERY`]-th kept), and the problems.
    fn positions() -> Vec<Position> {
        const SAMPLE_EVERY: usize = 16;
        let text = include_str!("../../tests/data/tsume-generated.tsv");
        let mut out = Vec::new();
        let (mut l1, mut l2) = (MoveList::new(), MoveList::new());
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let sfen = line.split('\t').nth(2).expect("sfen column");
            let root = parse_sfen(sfen).unwrap();
            legal_moves(&root, &mut l1);
            for &m in l1.iter() {
                let child = root.play(m);
                legal_moves(&child, &mut l2);
                out.extend(l2.iter().step_by(SAMPLE_EVERY).map(|&r| child.play(r)));
            }
            out.push(root);
        }
        for sfen in crate::search::BENCH_POSITIONS {
            out.push(parse_sfen(sfen).unwrap());
        }
        out
    }

    #[test]
    fn finds_exactly_the_contact_mates() {
        let (mut list, mut checks) = (MoveList::new(), MoveList::new());
        let (mut found, mut missed_other) = (0, 0);
        for pos in positions().iter().filter(|p| !p.in_check()) {
            legal_moves_and_checks(pos, &CheckInfo::new(pos), &mut list, &mut checks);
            let mating: Vec<Move> = checks
                .iter()
                .copied()
                .filter(|&m| !has_legal_move(&pos.play(m)))
                .collect();
            match quick_mate_in_one(pos) {
                Some(m) => {
                    assert!(mating.contains(&m), "{pos:?}: {m} is not a legal mate");
                    found += 1;
                }
                None => {
                    let contact = mating.iter().find(|&&m| is_contact_check(pos, m));
                    assert!(contact.is_none(), "{pos:?}: missed {:?}", contact);
                    missed_other += usize::from(!mating.is_empty());
                }
            }
        }
        assert!(found > 5000, "{found} mates found");
        eprintln!("{found} mates found, {missed_other} distant or discovered mates left");
    }

    #[test]
    fn simple_mates() {
        let mate = |sfen: &str| quick_mate_in_one(&parse_sfen(sfen).unwrap());
        // Gold drop on 5b, defended by the pawn on 5c.
        assert_eq!(
            mate("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap().to_string(),
            "G*5b"
        );
        // No defender of 5b: the king takes the gold.
        assert_eq!(mate("4k4/9/9/9/9/9/9/9/4K4 b G 1"), None);
        // The start position.
        assert_eq!(mate(crate::search::BENCH_POSITIONS[0]), None);
    }
}
