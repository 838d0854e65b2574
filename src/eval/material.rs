//! The material evaluation, for every board (also the piece values used by
//! move ordering and SEE).
//!
//! The score counts the pieces on the board (promoted pieces at their
//! promoted value) and the pieces in hand (at their unpromoted value plus a
//! small bonus, since a piece in hand may be dropped almost anywhere). It is
//! given in centipawns from the side to move's point of view: positive means
//! the side to move is ahead. Kings are not counted, so positions without a
//! king (tsume problems) evaluate normally.

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType};

/// Value of each piece type on the board, indexed by [`PieceType::index`]
/// (index 0 is unused, the king is 0: it is never traded).
pub const PIECE_VALUES: [i32; PieceType::COUNT] = [
    0,    // (none)
    90,   // pawn
    315,  // lance
    405,  // knight
    495,  // silver
    855,  // bishop
    990,  // rook
    540,  // gold
    0,    // king
    540,  // promoted pawn (tokin)
    540,  // promoted lance
    540,  // promoted knight
    540,  // promoted silver
    945,  // horse
    1395, // dragon
];

/// Value used for ordering captures of a king (never reached in legal play,
/// but a move list may be scored before legality matters).
pub const KING_VALUE: i32 = 15000;

/// Extra value of a piece in hand over the same piece on the board, in
/// percent of its board value.
pub const HAND_BONUS_PERCENT: i32 = 10;

/// The board value of a piece type (kings: [`KING_VALUE`]).
#[inline]
pub fn piece_value(pt: PieceType) -> i32 {
    if pt == PieceType::KING {
        KING_VALUE
    } else {
        PIECE_VALUES[pt.index()]
    }
}

/// The value of one piece of type `pt` held in hand (`pt` unpromoted).
#[inline]
pub const fn hand_value(pt: PieceType) -> i32 {
    let v = PIECE_VALUES[pt.index()];
    v + v * HAND_BONUS_PERCENT / 100
}

/// [`capture_gain`] of every piece type, indexed by [`PieceType::index`].
const CAPTURE_GAINS: [i32; PieceType::COUNT] = {
    let mut t = [0; PieceType::COUNT];
    let mut i = 0;
    while i < PieceType::ALL.len() {
        let pt = PieceType::ALL[i];
        t[pt.index()] = if pt.value() == PieceType::KING.value() {
            KING_VALUE
        } else {
            PIECE_VALUES[pt.index()] + hand_value(pt.unpromoted())
        };
        i += 1;
    }
    t
};

/// The value a capture of a piece of type `pt` gains: the victim leaves the
/// board and joins the capturer's hand unpromoted.
#[inline]
pub fn capture_gain(pt: PieceType) -> i32 {
    CAPTURE_GAINS[pt.index()]
}

/// The material balance from sente's point of view.
pub fn material_sente(pos: &Position) -> i32 {
    let mut score = 0;
    for pt in PieceType::ALL {
        if pt == PieceType::KING {
            continue;
        }
        let n = pos.pieces_of(Color::Sente, pt).count() as i32
            - pos.pieces_of(Color::Gote, pt).count() as i32;
        score += n * PIECE_VALUES[pt.index()];
    }
    let (hs, hg) = (pos.hand(Color::Sente), pos.hand(Color::Gote));
    for pt in PieceType::HAND {
        score += (hs.count(pt) as i32 - hg.count(pt) as i32) * hand_value(pt);
    }
    score
}

/// The static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let s = material_sente(pos);
    match pos.side_to_move() {
        Color::Sente => s,
        Color::Gote => -s,
    }
}

/// How much the legal move `m` changes the material balance, from the
/// mover's point of view: `evaluate(&pos.play(m)) == -(evaluate(pos) +
/// material_delta(pos, m))`. Lets the search keep the evaluation
/// incrementally.
#[inline]
pub fn material_delta(pos: &Position, m: Move) -> i32 {
    if m.is_drop() {
        let pt = m.dropped();
        return PIECE_VALUES[pt.index()] - hand_value(pt);
    }
    let mut delta = 0;
    let victim = pos.piece_on(m.to());
    if !victim.is_none() && victim.piece_type() != PieceType::KING {
        delta += capture_gain(victim.piece_type());
    }
    if m.is_promotion() {
        let pt = pos.piece_on(m.from()).piece_type();
        delta += PIECE_VALUES[pt.promoted().index()] - PIECE_VALUES[pt.index()];
    }
    delta
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardKind;
    use crate::sfen::parse_sfen;

    #[test]
    fn material_delta_matches_a_fresh_evaluation() {
        use crate::movegen::legal_moves;
        use crate::moves::MoveList;
        for sfen in crate::search::BENCH_POSITIONS {
            let pos = parse_sfen(sfen).unwrap();
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            for &m in list.iter() {
                let child = pos.play(m);
                assert_eq!(
                    evaluate(&child),
                    -(evaluate(&pos) + material_delta(&pos, m)),
                    "{sfen} {m}"
                );
            }
        }
    }

    #[test]
    fn start_positions_are_balanced() {
        for kind in BoardKind::ALL {
            let pos = parse_sfen(kind.start_sfen()).unwrap();
            assert_eq!(evaluate(&pos), 0, "{kind:?}");
        }
    }

    #[test]
    fn score_is_from_the_side_to_move() {
        // Sente has an extra rook on the board.
        let b = parse_sfen("4k4/9/9/9/9/9/9/8R/4K4 b - 1").unwrap();
        let w = parse_sfen("4k4/9/9/9/9/9/9/8R/4K4 w - 1").unwrap();
        assert_eq!(evaluate(&b), PIECE_VALUES[PieceType::ROOK.index()]);
        assert_eq!(evaluate(&w), -evaluate(&b));
    }

    #[test]
    fn hands_and_promotions_count() {
        // 5x5: gote's dragon against sente's pawn in hand.
        let pos = parse_sfen("4k/5/5/+r4/K4 b P 1").unwrap();
        assert_eq!(evaluate(&pos), hand_value(PieceType::PAWN) - 1395);
        // 3x3 without kings (tsume style): a silver in hand.
        let pos = parse_sfen("3/3/3 w S 1").unwrap();
        assert_eq!(evaluate(&pos), -hand_value(PieceType::SILVER));
    }
}
