//! Move tests the search needs without playing the move: whether it gives
//! check ([`gives_check`]), its static exchange value ([`see_ge`]), and a
//! one-ply mate probe ([`mate_in_one`]).

use crate::bitboard::{self, Bitboard};
use crate::eval::capture_gain;
use crate::movegen::has_legal_move;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// The piece type standing on the destination after `m`.
#[inline]
fn moved_type(pos: &Position, m: Move) -> PieceType {
    if m.is_drop() {
        m.dropped()
    } else {
        let pt = pos.piece_on(m.from()).piece_type();
        if m.is_promotion() { pt.promoted() } else { pt }
    }
}

/// What makes a move give check in one position: the squares from which
/// each piece type attacks the opponent's king, and our pieces whose move
/// off the line would uncover one of our sliders.
pub struct CheckInfo {
    king: Option<Square>,
    squares: [Bitboard; PieceType::COUNT],
    discoverers: Bitboard,
}

impl CheckInfo {
    /// The check information of the side to move in `pos`.
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = us.flip();
        let mut info = CheckInfo {
            king: pos.king_square(them),
            squares: [Bitboard::EMPTY; PieceType::COUNT],
            discoverers: Bitboard::EMPTY,
        };
        let Some(k) = info.king else {
            return info;
        };
        let occupied = pos.occupied();
        for pt in PieceType::ALL {
            info.squares[pt.index()] = bitboard::attacks(them, pt, k, occupied);
        }
        let ours = |pt: PieceType| pos.pieces_of(us, pt);
        let snipers = (bitboard::rook_pseudo_attacks(k)
            & (ours(PieceType::ROOK) | ours(PieceType::DRAGON)))
            | (bitboard::bishop_pseudo_attacks(k)
                & (ours(PieceType::BISHOP) | ours(PieceType::HORSE)))
            | (bitboard::lance_pseudo_attacks(them, k) & ours(PieceType::LANCE));
        for s in snipers {
            let blockers = bitboard::between(k, s) & occupied;
            if blockers.any() && !blockers.more_than_one() {
                info.discoverers |= blockers & pos.pieces(us);
            }
        }
        info
    }

    /// The squares from which a piece of type `pt` of the side to move
    /// would attack the opponent's king (empty when it has none).
    #[inline]
    pub fn check_squares(&self, pt: PieceType) -> Bitboard {
        self.squares[pt.index()]
    }

    /// Whether the legal move `m` checks the opponent's king (directly, or
    /// by uncovering a slider). False when the opponent has no king.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let Some(k) = self.king else {
            return false;
        };
        if self.squares[moved_type(pos, m).index()].has(m.to()) {
            return true;
        }
        !m.is_drop() && self.discoverers.has(m.from()) && !bitboard::line(k, m.from()).has(m.to())
    }
}

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

/// The least valuable of `attackers` (non-empty) and its value.
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

/// Whether the static exchange on the destination of `m` gains at least
/// `threshold` for the side to move (captures recaptured by the least
/// valuable attacker in turn, x-rays included; promotions ignored).
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
    loop {
        stm = stm.flip();
        let attackers = pos.attackers_to(to, stm, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        res = !res;
        let (sq, pt) = least_valuable(pos, attackers);
        if pt == PieceType::KING {
            // The king may capture only if the square is no longer defended.
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

/// Whether the side to move in `pos` (in check) can step its king to a
/// square the opponent does not attack: a quick proof of "not mate".
#[inline]
fn king_can_step(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let Some(k) = pos.king_square(us) else {
        return true;
    };
    let occupied = pos.occupied().without(k);
    let flights = (bitboard::king_attacks(k) & pos.kind().mask()).and_not(pos.pieces(us));
    Iterator::any(&mut flights.into_iter(), |sq| {
        !pos.is_attacked(sq, us.flip(), occupied)
    })
}

/// A legal move of `list` (the legal moves of `pos`) that mates at once,
/// if any. Drop-pawn mates are not in `list` (they are illegal).
pub fn mate_in_one(pos: &Position, list: &MoveList, info: &CheckInfo) -> Option<Move> {
    info.king?;
    list.iter()
        .copied()
        .filter(|&m| info.gives_check(pos, m))
        .find(|&m| {
            let child = pos.play(m);
            !king_can_step(&child) && !has_legal_move(&child)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
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
    fn mate_in_one_finds_a_gold_drop() {
        // Gold drop on 5b, protected by the pawn on 5c: mate.
        let pos = parse_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        let m = mate_in_one(&pos, &list, &CheckInfo::new(&pos)).expect("mate");
        assert_eq!(m.to_string(), "G*5b");
        let pos = parse_sfen(POSITIONS[0]).unwrap();
        legal_moves(&pos, &mut list);
        assert_eq!(mate_in_one(&pos, &list, &CheckInfo::new(&pos)), None);
    }
}
