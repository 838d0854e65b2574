//! What differs between the three boards: size, promotion zone, and how a
//! repetition ends the game. Everything else is one rule set.

use crate::bitboard::Bitboard;
use crate::types::{Color, GRID, PieceType, Square};

/// The board a position is played on, chosen by the shape of its SFEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// Standard 9x9 shogi (本将棋).
    Standard,
    /// 5x5 minishogi (5五将棋).
    Mini,
    /// 3x3 9-masu shogi (9マス将棋).
    Ninemasu,
}

/// How a fourfold repetition without perpetual check ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// The game is drawn.
    Draw,
    /// Sente (the first player) loses.
    SenteLoses,
}

/// Precomputed masks of one board.
struct Geometry {
    mask: Bitboard,
    /// Promotion zone, per colour.
    zone: [Bitboard; 2],
    /// Squares where a pawn or lance of that colour could never move again.
    dead_pawn: [Bitboard; 2],
    /// Squares where a knight of that colour could never move again.
    dead_knight: [Bitboard; 2],
}

const fn rank_range_mask(size: u8, first: u8, last: u8) -> Bitboard {
    let mut bits = 0u128;
    let mut file = 0;
    while file < size {
        let mut rank = first;
        while rank <= last {
            bits |= 1u128 << (file as u32 * GRID as u32 + rank as u32);
            rank += 1;
        }
        file += 1;
    }
    Bitboard::from_bits(bits)
}

const fn geometry(size: u8, zone_depth: u8) -> Geometry {
    let last = size - 1;
    Geometry {
        mask: rank_range_mask(size, 0, last),
        zone: [
            rank_range_mask(size, 0, zone_depth - 1),
            rank_range_mask(size, size - zone_depth, last),
        ],
        dead_pawn: [
            rank_range_mask(size, 0, 0),
            rank_range_mask(size, last, last),
        ],
        dead_knight: [
            rank_range_mask(size, 0, 1),
            rank_range_mask(size, last - 1, last),
        ],
    }
}

static GEOMETRY: [Geometry; 3] = [geometry(9, 3), geometry(5, 1), geometry(3, 1)];

impl BoardKind {
    /// Every board kind.
    pub const ALL: [BoardKind; 3] = [BoardKind::Standard, BoardKind::Mini, BoardKind::Ninemasu];

    #[inline]
    fn geometry(self) -> &'static Geometry {
        &GEOMETRY[self as usize]
    }

    /// Number of files (and of ranks).
    pub const fn size(self) -> u8 {
        match self {
            BoardKind::Standard => 9,
            BoardKind::Mini => 5,
            BoardKind::Ninemasu => 3,
        }
    }

    /// The board kind with `size` files and ranks.
    pub const fn from_size(size: usize) -> Option<BoardKind> {
        match size {
            9 => Some(BoardKind::Standard),
            5 => Some(BoardKind::Mini),
            3 => Some(BoardKind::Ninemasu),
            _ => None,
        }
    }

    /// The squares of this board.
    #[inline]
    pub fn mask(self) -> Bitboard {
        self.geometry().mask
    }

    /// Whether `sq` is on this board.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        sq.file() < self.size() && sq.rank() < self.size()
    }

    /// The promotion zone of `color`.
    #[inline]
    pub fn zone(self, color: Color) -> Bitboard {
        self.geometry().zone[color.index()]
    }

    /// Squares where a piece of `color` and type `pt` could never move again
    /// (and so may not stand unpromoted).
    #[inline]
    pub fn dead_squares(self, color: Color, pt: PieceType) -> Bitboard {
        match pt {
            PieceType::PAWN | PieceType::LANCE => self.geometry().dead_pawn[color.index()],
            PieceType::KNIGHT => self.geometry().dead_knight[color.index()],
            _ => Bitboard::EMPTY,
        }
    }

    /// How a plain fourfold repetition ends on this board.
    pub const fn repetition_rule(self) -> RepetitionRule {
        match self {
            BoardKind::Mini => RepetitionRule::SenteLoses,
            BoardKind::Standard | BoardKind::Ninemasu => RepetitionRule::Draw,
        }
    }

    /// The SFEN of the usual starting position (for 3x3, layout No.1 of the
    /// 3三将棋 app; any layout may be set with `position sfen`).
    pub const fn start_sfen(self) -> &'static str {
        match self {
            BoardKind::Standard => {
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
            }
            BoardKind::Mini => "rbsgk/4p/5/P4/KGSBR b - 1",
            BoardKind::Ninemasu => "bk1/3/1KB b Pp 1",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_per_board() {
        assert_eq!(BoardKind::Standard.zone(Color::Sente).count(), 27);
        assert_eq!(BoardKind::Mini.zone(Color::Gote).count(), 5);
        assert!(BoardKind::Mini.zone(Color::Gote).has(Square::new(0, 4)));
        assert_eq!(BoardKind::Ninemasu.zone(Color::Sente).count(), 3);
        assert_eq!(BoardKind::Ninemasu.mask().count(), 9);
    }

    #[test]
    fn dead_squares_are_geometric() {
        let k = BoardKind::Ninemasu;
        assert_eq!(k.dead_squares(Color::Sente, PieceType::KNIGHT).count(), 6);
        assert_eq!(k.dead_squares(Color::Gote, PieceType::PAWN).count(), 3);
        assert!(
            k.dead_squares(Color::Gote, PieceType::PAWN)
                .has(Square::new(2, 2))
        );
        assert!(k.dead_squares(Color::Sente, PieceType::SILVER).is_empty());
    }
}
