//! Whether a check leaves the defender's king a flight square, decided
//! without playing the check: the exact, cheap test the solver runs before
//! it plays a check to learn whether it mates at once.
//!
//! A square next to the king that no attacker's piece reaches now (the king
//! taken off the board, so it cannot hide behind itself) stays out of reach
//! after a check unless the moved piece reaches it from its new square or
//! the move uncovers a slider's line through the square it left: no other
//! piece moves, and the new occupant of the destination only blocks lines.
//! A check that leaves such a square to the king does not mate, since a
//! king may always step to a square no enemy piece attacks.

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
    squares: Bitboard,
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
                squares: Bitboard::EMPTY,
                occupied: pos.occupied(),
            };
        };
        let occupied = pos.occupied().without(king);
        let near = bitboard::king_attacks(king) & pos.kind().mask() & !pos.pieces(defender);
        let mut squares = Bitboard::EMPTY;
        for s in near {
            if !pos.is_attacked(s, attacker, occupied) {
                squares = squares.with(s);
            }
        }
        Flights { squares, occupied }
    }

    /// Whether the king keeps a flight square after the attacker's move `m`
    /// in `pos` (then `m` does not mate). False says nothing: the move may
    /// or may not mate.
    pub fn survive(&self, pos: &Position, m: Move) -> bool {
        if self.squares.is_empty() {
            return false;
        }
        let to = m.to();
        let from: Option<Square> = (!m.is_drop()).then(|| m.from());
        let mut occupied = self.occupied.with(to);
        if let Some(f) = from {
            occupied = occupied.without(f);
        }
        let attacker = pos.side_to_move();
        let covered = bitboard::attacks(attacker, moved_type(pos, m), to, occupied);
        let open = self.squares.without(to).and_not(covered);
        for s in open {
            match from {
                // The square it left may uncover a slider's line to `s`.
                Some(f) if bitboard::line(s, f).any() => {
                    if pos
                        .attackers_to(s, attacker, occupied)
                        .without(f)
                        .is_empty()
                    {
                        return true;
                    }
                }
                _ => return true,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{has_legal_move, legal_checks};
    use crate::moves::MoveList;
    use crate::sfen::parse_sfen;

    /// Every check of each position: when `survive` says the king keeps a
    /// flight, the defender has a legal move after it.
    #[test]
    fn a_surviving_flight_is_never_a_mate() {
        let positions = [
            // Mates and near mates with drops, sliders and discovered lines.
            "4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l16p 1",
            "7kl/9/6G2/9/9/9/9/9/L3K4 b RBGSrb2g 1",
            "8k/6+R2/7P1/9/9/4B4/9/9/4K4 b Gb2gsp 1",
            "3gkg3/9/4P4/4L4/9/9/9/9/4K4 b GNr2bs2p 1",
            "lnsgkgsnl/9/ppppppppp/9/4N4/9/PPPPPPPPP/1B5R1/LNSGKGS1L b - 1",
            "6snk/6+P1l/5S1p1/7N1/8B/9/9/9/K8 b RGr2gsp 1",
        ];
        let mut tested = 0;
        for sfen in positions {
            let pos = parse_sfen(sfen).unwrap();
            let flights = Flights::of(&pos);
            let mut checks = MoveList::new();
            legal_checks(&pos, &mut checks);
            for &m in checks.iter() {
                if flights.survive(&pos, m) {
                    tested += 1;
                    assert!(has_legal_move(&pos.play(m)), "{sfen}: {m:?}");
                }
            }
        }
        assert!(tested > 20, "only {tested} checks with a flight");
    }

    /// The same along random games from the tsume positions above and the
    /// start positions of each board (a fixed xorshift sequence).
    #[test]
    fn random_games_agree() {
        let starts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "rbsgk/4p/5/P4/KGSBR b - 1",
            "6snk/6+P1l/5S1p1/7N1/8B/9/9/9/K8 b RGr2gsp 1",
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
                    for &m in checks.iter() {
                        let after = pos.play(m);
                        let mate = !has_legal_move(&after);
                        mates += usize::from(mate);
                        if flights.survive(&pos, m) {
                            tested += 1;
                            assert!(!mate, "{}: {m:?}", crate::sfen::to_sfen(&pos));
                        }
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
