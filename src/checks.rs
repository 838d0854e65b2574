//! What makes a move give check in one position ([`CheckInfo`]): the
//! squares from which each piece type attacks the opponent's king, and the
//! pieces whose move uncovers a slider. The move generator uses it to sort
//! out the checking moves while generating, the search to test moves.

use crate::bitboard::{self, Bitboard};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// The piece type standing on the destination after `m`.
#[inline]
pub fn moved_type(pos: &Position, m: Move) -> PieceType {
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
#[derive(Clone, Debug)]
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
        // Each slider's rays are traced once; the gold's squares serve the
        // promoted minor pieces, the king's the horse and dragon.
        let step = |pt| bitboard::step_attacks(them, pt, k);
        let gold = bitboard::gold_attacks(them, k);
        let king = bitboard::king_attacks(k);
        let diagonal = bitboard::bishop_attacks(k, occupied);
        let orthogonal = bitboard::rook_attacks(k, occupied);
        let sq = &mut info.squares;
        sq[PieceType::PAWN.index()] = step(PieceType::PAWN);
        sq[PieceType::LANCE.index()] = bitboard::lance_attacks(them, k, occupied);
        sq[PieceType::KNIGHT.index()] = step(PieceType::KNIGHT);
        sq[PieceType::SILVER.index()] = step(PieceType::SILVER);
        sq[PieceType::BISHOP.index()] = diagonal;
        sq[PieceType::ROOK.index()] = orthogonal;
        sq[PieceType::KING.index()] = king;
        sq[PieceType::HORSE.index()] = diagonal | king;
        sq[PieceType::DRAGON.index()] = orthogonal | king;
        for pt in [
            PieceType::GOLD,
            PieceType::PRO_PAWN,
            PieceType::PRO_LANCE,
            PieceType::PRO_KNIGHT,
            PieceType::PRO_SILVER,
        ] {
            sq[pt.index()] = gold;
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

    /// Our pieces whose move off their line to the opponent's king
    /// uncovers one of our sliders.
    #[inline]
    pub fn discoverers(&self) -> Bitboard {
        self.discoverers
    }

    /// The opponent's king, if it has one (no move checks without it).
    #[inline]
    pub fn king(&self) -> Option<Square> {
        self.king
    }

    /// Of the moves of our piece on `from` to each square of `to`, those
    /// that check, the piece standing there as `pt` (after promotion).
    #[inline]
    pub fn checking(&self, pt: PieceType, from: Square, to: Bitboard) -> Bitboard {
        let Some(k) = self.king else {
            return Bitboard::EMPTY;
        };
        let direct = to & self.squares[pt.index()];
        if self.discoverers.has(from) {
            direct | to.and_not(bitboard::line(k, from))
        } else {
            direct
        }
    }

    /// Of the pawn steps onto each square of `to` (each pawn one square
    /// forward for `us`, standing there as `pt`), the squares of those
    /// that check.
    #[inline]
    pub fn checking_pawn_steps(&self, us: Color, pt: PieceType, to: Bitboard) -> Bitboard {
        let Some(k) = self.king else {
            return Bitboard::EMPTY;
        };
        let mut checking = to & self.squares[pt.index()];
        for from in self.discoverers {
            // A pawn leaving `from` off the line through the king uncovers
            // the slider behind it.
            let step = bitboard::step_attacks(us, PieceType::PAWN, from) & to;
            checking |= step.and_not(bitboard::line(k, from));
        }
        checking
    }

    /// Of the drops of `pt` onto each square of `to`, those that check.
    #[inline]
    pub fn checking_drops(&self, pt: PieceType, to: Bitboard) -> Bitboard {
        to & self.squares[pt.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    #[test]
    fn check_squares_are_the_attacks_from_the_king() {
        for sfen in crate::search::BENCH_POSITIONS.iter().chain(&[
            "4k4/9/4P4/9/4L4/9/9/9/4K4 b GN 1",
            "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
        ]) {
            let pos = parse_sfen(sfen).unwrap();
            let info = CheckInfo::new(&pos);
            let Some(k) = info.king else { continue };
            let them = pos.side_to_move().flip();
            for pt in PieceType::ALL {
                let want = bitboard::attacks(them, pt, k, pos.occupied());
                assert_eq!(info.squares[pt.index()], want, "{sfen} {pt:?}");
            }
        }
    }
}
