//! The keys of a child position without playing the move: the full key
//! (for repetition), the board key (hands excluded, for the table) and the
//! attacker's hand after the move, updated from the parent's as
//! [`Position::play_in_place`] updates its key. Expanding a node probes
//! every child; most are in the table, so most children are never played.

use super::table::PackedHand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, PieceType};
use crate::zobrist;

/// The keys of the position after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildKeys {
    /// The full key ([`Position::key`]).
    pub key: u64,
    /// The board key ([`super::table::board_key`]).
    pub board: u64,
    /// The attacker's hand.
    pub hand: PackedHand,
}

/// The keys after `m` from `pos`, whose board key is `board`, for the
/// attacker `attacker`.
#[inline]
pub fn after(pos: &Position, board: u64, m: Move, attacker: Color) -> ChildKeys {
    let us = pos.side_to_move();
    let mut key = pos.key() ^ zobrist::side_key();
    let mut board = board ^ zobrist::side_key();
    let mut hand = PackedHand::new(pos.hand(attacker));
    let to = m.to();
    // The mover's hand: one piece of `pt` less (a drop) or more (a capture).
    let mut hand_change = |pt: PieceType, before: u8, now: u8| {
        key ^= zobrist::hand_key(us, pt, before) ^ zobrist::hand_key(us, pt, now);
        if us == attacker {
            hand = hand.with(pt, now);
        }
    };
    let squares = if m.is_drop() {
        let pt = m.dropped();
        let n = pos.hand(us).count(pt);
        hand_change(pt, n, n - 1);
        zobrist::board_key(to, Piece::new(us, pt))
    } else {
        let from = m.from();
        let piece = pos.piece_on(from);
        let captured = pos.piece_on(to);
        let mut squares = zobrist::board_key(from, piece);
        if !captured.is_none() {
            squares ^= zobrist::board_key(to, captured);
            let cpt = captured.piece_type();
            if cpt != PieceType::KING {
                let base = cpt.unpromoted();
                let n = pos.hand(us).count(base);
                hand_change(base, n, n + 1);
            }
        }
        let pt = piece.piece_type();
        let new_pt = if m.is_promotion() { pt.promoted() } else { pt };
        squares ^ zobrist::board_key(to, Piece::new(us, new_pt))
    };
    key ^= squares;
    board ^= squares;
    ChildKeys { key, board, hand }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::table::board_key;
    use crate::movegen::legal_moves;
    use crate::moves::MoveList;

    /// Every legal move of a few positions: the keys match the played child.
    #[test]
    fn keys_match_the_played_move() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "3s2gn1/g7+N/4lpS1l/4l+P1P1/2+p+p+pLR2/Rp6k/1+p+p+p+pGB1+n/5N1p+s/5G2S b b6p 1",
            "1g1R5/1S1r2+p1B/N1Nkp4/2p2L1n1/1g1p2+pg1/2sSL4/6+p2/N1g2+p3/9 b LPbsl10p 1",
            "8l/7sk/7R1/6B2/9/8b/9/9/9 w Sr4g2s4n3l18p 1",
        ];
        for sfen in sfens {
            let pos = crate::sfen::parse_sfen(sfen).expect("sfen");
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            for attacker in Color::ALL {
                for &m in list.iter() {
                    let child = pos.play(m);
                    let want = ChildKeys {
                        key: child.key(),
                        board: board_key(&child),
                        hand: PackedHand::new(child.hand(attacker)),
                    };
                    assert_eq!(
                        after(&pos, board_key(&pos), m, attacker),
                        want,
                        "{sfen} {m}"
                    );
                }
            }
        }
    }
}
