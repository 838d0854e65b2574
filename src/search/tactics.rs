//! Move tests the search needs without playing the move: whether it gives
//! check ([`gives_check`]), its static exchange value ([`see_ge`]), and a
//! one-ply mate probe ([`mate_in_one`]).

use crate::bitboard::{self, Bitboard};
pub use crate::checks::CheckInfo;
use crate::checks::moved_type;
use crate::eval::capture_gain;
use crate::flights::king_can_step_after;
use crate::movegen::has_legal_move;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Whether the legal move `m` checks the opponent's king (directly, or by
/// uncovering a slider). False when the opponent has no king. For many
/// moves of one position, [`CheckInfo`] is faster.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let Some(king) = pos.king_square(us.flip()) else {
        return false;
    };
    let to = m.to();
    let from_bb = if m.is_drop() {
        Bitboard::EMPTY
    } else {
        Bitboard::from_square(m.from())
    };
    let occupied = pos.occupied().and_not(from_bb).with(to);
    if bitboard::attacks(us, moved_type(pos, m), to, occupied).has(king) {
        return true;
    }
    !m.is_drop() && pos.attackers_to(king, us, occupied).and_not(from_bb).any()
}

/// The exchange value of a piece of type `pt` (it leaves the board and joins
/// the capturer's hand).
#[inline]
fn see_value(pt: PieceType) -> i32 {
    capture_gain(pt)
}

/// The least valuable of `attackers` (non-empty) and its type; of two of
/// equal value, the one on the lower square.
#[inline]
fn least_valuable(pos: &Position, attackers: Bitboard) -> (Square, PieceType) {
    let mut best: Option<(Square, PieceType, i32)> = None;
    for sq in attackers {
        let pt = pos.piece_on(sq).piece_type();
        let v = see_value(pt);
        if best.is_none_or(|b| v < b.2) {
            best = Some((sq, pt, v));
        }
    }
    let (sq, pt, _) = best.expect("non-empty attackers");
    (sq, pt)
}

/// Whether [`see_ge`] leaves out the recaptures by pinned pieces.
const SEE_PINS: bool = true;

/// Whether the static exchange on the destination of `m` gains at least
/// `threshold` for the side to move (captures recaptured by the least
/// valuable attacker in turn, x-rays included, pieces pinned to their king
/// left out while their pinner stands; promotions ignored).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let victim = pos.piece_on(to);
    let victim_value = if m.is_drop() || victim.is_none() {
        0
    } else {
        see_value(victim.piece_type())
    };
    let mut swap = victim_value - threshold;
    if swap < 0 {
        return false;
    }
    let mover = if m.is_drop() {
        m.dropped()
    } else {
        pos.piece_on(m.from()).piece_type()
    };
    swap = see_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = if m.is_drop() {
        pos.occupied()
    } else {
        pos.occupied().without(m.from())
    };
    let mut stm: Color = pos.side_to_move();
    let mut res = true;
    // Removing a piece only uncovers sliders behind it: the attackers are
    // computed once and the sliders traced again after each removal.
    let mut attackers = pos.all_attackers_to(to, occupied);
    let sliders = pos.sliders();
    // Each side's pinned pieces and their pinners, when first needed.
    let mut pins: [Option<(Bitboard, Bitboard)>; 2] = [None, None];
    loop {
        stm = stm.flip();
        let mut ours = attackers & occupied & pos.pieces(stm);
        if ours.is_empty() {
            break;
        }
        if SEE_PINS {
            // A piece pinned to its king does not recapture while the
            // slider pinning it stands (Stockfish's rule).
            let (pinned, pinners) = *pins[stm.index()].get_or_insert_with(|| pos.pins(stm));
            if (pinners & occupied).any() {
                ours = ours.and_not(pinned);
                if ours.is_empty() {
                    break;
                }
            }
        }
        res = !res;
        let (sq, pt) = least_valuable(pos, ours);
        if pt == PieceType::KING {
            // The king may capture only if the square is no longer defended.
            let defended = (attackers & occupied & pos.pieces(stm.flip())).any();
            return if defended { !res } else { res };
        }
        swap = see_value(pt) - swap;
        if swap < i32::from(res) {
            break;
        }
        occupied = occupied.without(sq);
        // Only a slider on the line through the removed piece, not yet
        // counted, can join.
        if (bitboard::line(to, sq) & sliders & occupied)
            .and_not(attackers)
            .any()
        {
            attackers |= pos.slider_attackers_to(to, occupied);
        }
    }
    res
}

/// A move of `checks` (the legal checking moves of `pos`, see
/// [`crate::movegen::legal_moves_and_checks`]) that mates at once, if any
/// (the first in list order). Drop-pawn mates are not among them (they are
/// illegal).
pub fn mate_in_one(pos: &Position, checks: &MoveList) -> Option<Move> {
    let king = pos.king_square(pos.side_to_move().flip())?;
    checks
        .iter()
        .copied()
        .filter(|&m| !king_can_step_after(pos, m, king))
        .find(|&m| !has_legal_move(&pos.play(m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{legal_moves, legal_moves_and_checks};
    use crate::sfen::parse_sfen;

    const POSITIONS: [&str; 6] = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
        "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
        "4k4/9/4P4/9/4L4/9/9/9/4K4 b GN 1",
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "bk1/3/1KB b Pp 1",
    ];

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        for sfen in POSITIONS {
            let pos = parse_sfen(sfen).unwrap();
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            let info = CheckInfo::new(&pos);
            for &m in list.iter() {
                let want = pos.play(m).in_check();
                assert_eq!(gives_check(&pos, m), want, "{sfen} {m}");
                assert_eq!(info.gives_check(&pos, m), want, "{sfen} {m}");
            }
        }
    }

    /// The first definition of [`see_ge`]: attackers recomputed each turn.
    fn see_ge_reference(pos: &Position, m: Move, threshold: i32) -> bool {
        let to = m.to();
        let victim = pos.piece_on(to);
        let victim_value = if m.is_drop() || victim.is_none() {
            0
        } else {
            see_value(victim.piece_type())
        };
        let mut swap = victim_value - threshold;
        if swap < 0 {
            return false;
        }
        swap = see_value(moved_type_unpromoted(pos, m)) - swap;
        if swap <= 0 {
            return true;
        }
        let mut occupied = if m.is_drop() {
            pos.occupied()
        } else {
            pos.occupied().without(m.from())
        };
        let mut stm = pos.side_to_move();
        let mut res = true;
        loop {
            stm = stm.flip();
            let mut attackers = pos.attackers_to(to, stm, occupied) & occupied;
            let (pinned, pinners) = pos.pins(stm);
            if SEE_PINS && (pinners & occupied).any() {
                attackers = attackers.and_not(pinned);
            }
            if attackers.is_empty() {
                break;
            }
            res = !res;
            let (sq, pt) = least_valuable(pos, attackers);
            if pt == PieceType::KING {
                let defended = (pos.attackers_to(to, stm.flip(), occupied) & occupied).any();
                return if defended { !res } else { res };
            }
            swap = see_value(pt) - swap;
            if swap < i32::from(res) {
                break;
            }
            occupied = occupied.without(sq);
        }
        res
    }

    fn moved_type_unpromoted(pos: &Position, m: Move) -> PieceType {
        if m.is_drop() {
            m.dropped()
        } else {
            pos.piece_on(m.from()).piece_type()
        }
    }

    /// The bench positions, the test positions, and every position one
    /// move after them.
    fn sample_positions() -> Vec<Position> {
        crate::search::positions_and_children(
            POSITIONS
                .iter()
                .chain(crate::search::BENCH_POSITIONS.iter())
                .copied(),
        )
    }

    #[test]
    fn see_agrees_with_the_reference() {
        const THRESHOLDS: [i32; 7] = [-2000, -500, -100, 0, 1, 300, 1500];
        let mut list = MoveList::new();
        for pos in sample_positions() {
            legal_moves(&pos, &mut list);
            for &m in list.iter() {
                for t in THRESHOLDS {
                    assert_eq!(
                        see_ge(&pos, m, t),
                        see_ge_reference(&pos, m, t),
                        "{pos:?} {m} {t}"
                    );
                }
            }
        }
    }

    #[test]
    fn all_attackers_join_both_colours() {
        for pos in sample_positions() {
            let occupied = pos.occupied();
            for sq in Square::all() {
                for occ in [occupied, occupied.without(sq), Bitboard::EMPTY] {
                    let want = pos.attackers_to(sq, Color::Sente, occ)
                        | pos.attackers_to(sq, Color::Gote, occ);
                    assert_eq!(pos.all_attackers_to(sq, occ), want, "{pos:?} {sq}");
                }
            }
        }
    }

    #[test]
    fn see_of_simple_exchanges() {
        // A rook takes a pawn defended by a gold: loses the exchange.
        let pos = parse_sfen("4k4/4g4/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        let m = Move::normal(Square::new(4, 7), Square::new(4, 2), false);
        assert!(pos.piece_on(m.from()).piece_type() == PieceType::ROOK);
        assert!(!see_ge(&pos, m, 0));
        assert!(see_ge(&pos, m, -10_000));
        // Undefended pawn: wins it.
        let pos = parse_sfen("4k4/9/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        assert!(see_ge(&pos, m, 1));
    }

    #[test]
    fn see_leaves_out_a_pinned_recapture() {
        // Gote's gold takes the silver on 8e; sente's gold on 8f is pinned
        // to its king on 9g by the bishop on 4b and cannot take back.
        let pos = parse_sfen("4k4/5b3/9/2g6/1S7/1G7/K8/9/9 w - 1").unwrap();
        let m = Move::normal(Square::new(6, 3), Square::new(7, 4), false);
        assert_eq!(pos.piece_on(m.from()).piece_type(), PieceType::GOLD);
        assert!(see_ge(&pos, m, 1));
        // Without the bishop the gold recaptures: gold for silver.
        let pos = parse_sfen("4k4/9/9/2g6/1S7/1G7/K8/9/9 w - 1").unwrap();
        assert!(!see_ge(&pos, m, 1));
    }

    #[test]
    fn mate_in_one_finds_a_gold_drop() {
        let mate = |sfen: &str| {
            let pos = parse_sfen(sfen).unwrap();
            let (mut list, mut checks) = (MoveList::new(), MoveList::new());
            legal_moves_and_checks(&pos, &CheckInfo::new(&pos), &mut list, &mut checks);
            mate_in_one(&pos, &checks)
        };
        // Gold drop on 5b, protected by the pawn on 5c: mate.
        let m = mate("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").expect("mate");
        assert_eq!(m.to_string(), "G*5b");
        assert_eq!(mate(POSITIONS[0]), None);
    }
}
