//! Whether the defender's king keeps a flight square after a check,
//! decided without playing the check: the test the mate solver and the
//! search's mate-in-one run before they play a check to learn whether it
//! mates at once (a check that leaves the king a square no enemy piece
//! attacks does not mate).
//!
//! For one check, [`king_can_step_after`] tests each square next to the
//! king on the board after the move: the exact answer. For the many checks
//! of one position, [`Flights`] computes once the squares next to the king
//! that no attacker's piece reaches now (the king taken off the board, so
//! it cannot hide behind itself); such a square stays out of reach after a
//! check unless the moved piece reaches it from its new square or the move
//! uncovers a slider's line through the square it left (no other piece
//! moves, and the new occupant of the destination only blocks lines). That
//! test is one-sided and cheaper: it never claims a flight the king lacks,
//! but it leaves out the flights a check opens (the checker's own square, a
//! square the moved piece guarded or whose attack it blocks), which the
//! caller then finds by playing the move.

use crate::bitboard::{self, Bitboard};
use crate::checks::moved_type;
use crate::moves::Move;
use crate::position::Position;
use crate::types::Square;

/// The squares the defender's king (the side not to move) could step to
/// now, and what a check must change to take them all.
#[derive(Clone, Copy, Debug)]
pub struct Flights {
    /// Squares next to the king, not held by the defender's pieces, that no
    /// attacker's piece reaches.
    safe: Bitboard,
    /// The occupancy without the defender's king.
    occupied: Bitboard,
}

impl Flights {
    /// The flight squares of the king of the side not to move in `pos`
    /// (none without that king).
    pub fn of(pos: &Position) -> Flights {
        let attacker = pos.side_to_move();
        let defender = attacker.flip();
        let Some(king) = pos.king_square(defender) else {
            return Flights {
                safe: Bitboard::EMPTY,
                occupied: pos.occupied(),
            };
        };
        let occupied = pos.occupied().without(king);
        let near = bitboard::king_attacks(king) & pos.kind().mask() & !pos.pieces(defender);
        let safe = near.and_not(pos.attacked_around(king, near, attacker, occupied));
        Flights { safe, occupied }
    }

    /// Whether one of the king's present flights stays free after the
    /// attacker's legal move `m` in `pos` (then `m` does not mate). False
    /// says nothing: the move may mate or open another flight.
    pub fn survive(&self, pos: &Position, m: Move) -> bool {
        if self.safe.is_empty() {
            return false;
        }
        let (left, occupied, covered) = after_move(pos, m, self.occupied);
        let attacker = pos.side_to_move();
        for s in self.safe.without(m.to()).and_not(covered) {
            // The square the piece left may uncover a slider's line to `s`.
            let uncovered = !m.is_drop() && bitboard::line(s, m.from()).any();
            if !uncovered
                || pos
                    .attackers_to(s, attacker, occupied)
                    .and_not(left)
                    .is_empty()
            {
                return true;
            }
        }
        false
    }
}

/// Whether, after the attacker's legal checking move `m` in `pos`, the
/// defender's king (on `king`) can step to a square no enemy piece attacks:
/// the exact answer, each square tested on the board after the move (for
/// the few checks of a search node; [`Flights`] is the one-sided test
/// for the many checks of a solver's node).
#[inline]
pub fn king_can_step_after(pos: &Position, m: Move, king: Square) -> bool {
    let attacker = pos.side_to_move();
    let (left, occupied, mover) = after_move(pos, m, pos.occupied().without(king));
    let defenders = pos.pieces(attacker.flip()).without(m.to());
    let near = (bitboard::king_attacks(king) & pos.kind().mask()).and_not(defenders);
    Iterator::any(&mut near.and_not(mover).into_iter(), |s| {
        pos.attackers_to(s, attacker, occupied)
            .and_not(left)
            .is_empty()
    })
}

/// The board after the attacker's move `m` in `pos`, as the defender's
/// king sees it: the square the piece left (empty for a drop), the
/// occupancy (from `occupied`, the board's without that king) and the
/// squares the moved piece reaches from its new square.
#[inline]
fn after_move(pos: &Position, m: Move, occupied: Bitboard) -> (Bitboard, Bitboard, Bitboard) {
    let to = m.to();
    let left = if m.is_drop() {
        Bitboard::EMPTY
    } else {
        Bitboard::from_square(m.from())
    };
    let occupied = occupied.and_not(left).with(to);
    let reach = bitboard::attacks(pos.side_to_move(), moved_type(pos, m), to, occupied);
    (left, occupied, reach)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{has_legal_move, legal_checks};
    use crate::moves::MoveList;
    use crate::sfen::{parse_sfen, to_sfen};

    /// Whether the side to move in `child` has a king step to a square the
    /// other side does not attack (the definition, on the played board).
    fn king_can_step_in(child: &Position) -> bool {
        let us = child.side_to_move();
        let Some(k) = child.king_square(us) else {
            return false;
        };
        let occupied = child.occupied().without(k);
        let near = (bitboard::king_attacks(k) & child.kind().mask()).and_not(child.pieces(us));
        Iterator::any(&mut near.into_iter(), |sq| {
            !child.is_attacked(sq, us.flip(), occupied)
        })
    }

    /// Every check of each position: `king_can_step_after` agrees with the
    /// board after the check, and `survive` never claims a flight it lacks.
    #[test]
    fn flights_agree_with_the_played_board() {
        let positions = [
            // Mates and near mates with drops, sliders and discovered lines.
            "4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l16p 1",
            "7kl/9/6G2/9/9/9/9/9/L3K4 b RBGSrb2g 1",
            "8k/6+R2/7P1/9/9/4B4/9/9/4K4 b Gb2gsp 1",
            "3gkg3/9/4P4/4L4/9/9/9/9/4K4 b GNr2bs2p 1",
            "lnsgkgsnl/9/ppppppppp/9/4N4/9/PPPPPPPPP/1B5R1/LNSGKGS1L b - 1",
            "6snk/6+P1l/5S1p1/7N1/8B/9/9/9/K8 b RGr2gsp 1",
            // The only check, N 7e6c, uncovers the bishop's line to 4b,
            // the king's only flight before it: mate.
            "3gkg3/3br4/9/9/2N6/9/B8/9/8K b - 1",
            // A rook's check x-rays through the king to the square behind.
            "9/9/9/9/4k4/9/9/9/4K4 b RG 1",
            // 3x3 and 5x5.
            "bk1/3/1KB b Pp 1",
            "2k2/5/2P2/5/K4 b GS 1",
        ];
        let (mut tested, mut mates) = (0, 0);
        for sfen in positions {
            let pos = parse_sfen(sfen).unwrap();
            let flights = Flights::of(&pos);
            let king = pos.king_square(pos.side_to_move().flip()).unwrap();
            let mut checks = MoveList::new();
            legal_checks(&pos, &mut checks);
            for &m in checks.iter() {
                let after = pos.play(m);
                let want = king_can_step_in(&after);
                let survive = flights.survive(&pos, m);
                assert!(!survive || want, "{sfen}: {m:?}");
                assert_eq!(king_can_step_after(&pos, m, king), want, "{sfen}: {m:?}");
                tested += usize::from(survive);
                mates += usize::from(!has_legal_move(&after));
            }
        }
        assert!(mates >= 3, "only {mates} mates");
        assert!(tested > 20, "only {tested} checks with a flight");
    }

    /// The same along random games from the 9x9 and 5x5 start positions,
    /// a tsume position and a 3x3 position (a fixed xorshift sequence).
    #[test]
    fn random_games_agree() {
        let starts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "rbsgk/4p/5/P4/KGSBR b - 1",
            "6snk/6+P1l/5S1p1/7N1/8B/9/9/9/K8 b RGr2gsp 1",
            "bk1/3/1KB b Pp 1",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut tested, mut mates) = (0, 0);
        for sfen in starts {
            for _game in 0..100 {
                let mut pos = parse_sfen(sfen).unwrap();
                for _ply in 0..120 {
                    let flights = Flights::of(&pos);
                    let mut checks = MoveList::new();
                    legal_checks(&pos, &mut checks);
                    let sfen = to_sfen(&pos);
                    for &m in checks.iter() {
                        let after = pos.play(m);
                        let want = king_can_step_in(&after);
                        let survive = flights.survive(&pos, m);
                        assert!(!survive || want, "{sfen}: {m:?}");
                        let king = pos.king_square(pos.side_to_move().flip()).unwrap();
                        assert_eq!(king_can_step_after(&pos, m, king), want, "{sfen}: {m:?}");
                        tested += usize::from(survive);
                        mates += usize::from(!has_legal_move(&after));
                    }
                    let mut moves = MoveList::new();
                    crate::movegen::legal_moves(&pos, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves.as_slice()[next() as usize % moves.len()];
                    pos = pos.play(m);
                }
            }
        }
        assert!(
            tested > 1000 && mates > 0,
            "{tested} flights, {mates} mates"
        );
    }
}
