//! What makes a move give check in one position ([`CheckInfo`]): the
//! squares from which each piece type attacks the opponent's king, and the
//! pieces whose move uncovers a slider. The move generator uses it to sort
//! out the checking moves while generating, the search to test moves.

use crate::bitboard::{self, Bitboard};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{PieceType, Square};

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

    /// Of the drops of `pt` onto each square of `to`, those that check.
    #[inline]
    pub fn checking_drops(&self, pt: PieceType, to: Bitboard) -> Bitboard {
        to & self.squares[pt.index()]
    }
}
