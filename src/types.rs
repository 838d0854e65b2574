//! Basic value types: colours, squares, piece types and pieces.
//!
//! Squares are numbered on a 9x9 grid as `file * 9 + rank`, with file 0 = the
//! 1-file (right edge for sente) and rank 0 = rank `a` (sente's far side).
//! The small boards use the corner `files < n, ranks < n` of that grid, so one
//! set of tables and one move generator serve every board.

use std::fmt;

/// The side to move. Sente (black, `b`) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player (uppercase in SFEN).
    Sente = 0,
    /// The second player (lowercase in SFEN).
    Gote = 1,
}

impl Color {
    /// Both colours, sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// Index for per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Number of files and ranks of the largest board; all geometry lives on it.
pub const GRID: u8 = 9;
/// Number of squares of the 9x9 grid.
pub const SQUARE_COUNT: usize = (GRID as usize) * (GRID as usize);

/// A square of the 9x9 grid (`file * 9 + rank`, both from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with the given 0-based file (0 = 1-file) and rank (0 = rank a).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < GRID && rank < GRID);
        Square(file * GRID + rank)
    }

    /// The square with the given index, if it is on the grid.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARE_COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square of bit `index` of a [`crate::bitboard::Bitboard`], whose
    /// bits all lie on the grid (its invariant): no check in release builds.
    #[inline(always)]
    pub(crate) const fn from_bit(index: u32) -> Square {
        debug_assert!((index as usize) < SQUARE_COUNT);
        Square(index as u8)
    }

    /// Index into per-square arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (0 = the 1-file).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / GRID
    }

    /// 0-based rank (0 = rank a).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % GRID
    }

    /// Every square of the grid in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_COUNT as u8).map(Square)
    }
}

impl fmt::Display for Square {
    /// USI notation: file digit then rank letter, e.g. `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'1' + self.file()) as char,
            (b'a' + self.rank()) as char
        )
    }
}

/// A kind of piece, unpromoted or promoted. Values follow the usual USI engine
/// order; a promoted type is its base type plus [`PieceType::PROMOTION`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceType(u8);

impl PieceType {
    pub const PAWN: PieceType = PieceType(1);
    pub const LANCE: PieceType = PieceType(2);
    pub const KNIGHT: PieceType = PieceType(3);
    pub const SILVER: PieceType = PieceType(4);
    pub const BISHOP: PieceType = PieceType(5);
    pub const ROOK: PieceType = PieceType(6);
    pub const GOLD: PieceType = PieceType(7);
    pub const KING: PieceType = PieceType(8);
    pub const PRO_PAWN: PieceType = PieceType(9);
    pub const PRO_LANCE: PieceType = PieceType(10);
    pub const PRO_KNIGHT: PieceType = PieceType(11);
    pub const PRO_SILVER: PieceType = PieceType(12);
    pub const HORSE: PieceType = PieceType(13);
    pub const DRAGON: PieceType = PieceType(14);

    /// Offset from a base type to its promoted type.
    pub const PROMOTION: u8 = 8;
    /// One past the largest piece-type value, for array sizes.
    pub const COUNT: usize = 15;

    /// Every piece type, in value order.
    pub const ALL: [PieceType; 14] = [
        Self::PAWN,
        Self::LANCE,
        Self::KNIGHT,
        Self::SILVER,
        Self::BISHOP,
        Self::ROOK,
        Self::GOLD,
        Self::KING,
        Self::PRO_PAWN,
        Self::PRO_LANCE,
        Self::PRO_KNIGHT,
        Self::PRO_SILVER,
        Self::HORSE,
        Self::DRAGON,
    ];

    /// Piece types that can be held in hand, in value order.
    pub const HAND: [PieceType; 7] = [
        Self::PAWN,
        Self::LANCE,
        Self::KNIGHT,
        Self::SILVER,
        Self::BISHOP,
        Self::ROOK,
        Self::GOLD,
    ];

    /// Hand piece types in the order SFEN prints them (R B G S N L P).
    pub const HAND_SFEN_ORDER: [PieceType; 7] = [
        Self::ROOK,
        Self::BISHOP,
        Self::GOLD,
        Self::SILVER,
        Self::KNIGHT,
        Self::LANCE,
        Self::PAWN,
    ];

    /// The piece type with the given value, if valid.
    #[inline]
    pub const fn from_u8(v: u8) -> Option<PieceType> {
        if v >= 1 && v <= 14 {
            Some(PieceType(v))
        } else {
            None
        }
    }

    /// Raw value (1..=14).
    #[inline]
    pub const fn value(self) -> u8 {
        self.0
    }

    /// Index into per-type arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this type may promote (P L N S B R).
    #[inline]
    pub const fn can_promote(self) -> bool {
        self.0 >= 1 && self.0 <= 6
    }

    /// Whether this is a promoted type.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        self.0 > Self::PROMOTION
    }

    /// The promoted type (only meaningful if [`can_promote`](Self::can_promote)).
    #[inline]
    pub const fn promoted(self) -> PieceType {
        PieceType(self.0 + Self::PROMOTION)
    }

    /// The type a captured piece becomes in hand.
    #[inline]
    pub const fn unpromoted(self) -> PieceType {
        if self.is_promoted() {
            PieceType(self.0 - Self::PROMOTION)
        } else {
            self
        }
    }

    /// SFEN letter of the base type, uppercase.
    pub const fn letter(self) -> char {
        match self.unpromoted().0 {
            1 => 'P',
            2 => 'L',
            3 => 'N',
            4 => 'S',
            5 => 'B',
            6 => 'R',
            7 => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted type for an uppercase SFEN letter.
    pub const fn from_letter(c: char) -> Option<PieceType> {
        match c {
            'P' => Some(Self::PAWN),
            'L' => Some(Self::LANCE),
            'N' => Some(Self::KNIGHT),
            'S' => Some(Self::SILVER),
            'B' => Some(Self::BISHOP),
            'R' => Some(Self::ROOK),
            'G' => Some(Self::GOLD),
            'K' => Some(Self::KING),
            _ => None,
        }
    }

    /// How many of this base type a shogi set has (both sides together).
    pub const fn set_count(self) -> u8 {
        match self.unpromoted().0 {
            1 => 18,
            2..=4 | 7 => 4,
            5 | 6 | 8 => 2,
            _ => 0,
        }
    }
}

/// A coloured piece, or none. Encoded as `type | colour << 4` so it can index
/// small tables directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// The empty square.
    pub const NONE: Piece = Piece(0);
    /// One past the largest encoding, for array sizes.
    pub const COUNT: usize = 32;
    const COLOR_SHIFT: u8 = 4;

    /// The piece of the given colour and type.
    #[inline]
    pub const fn new(color: Color, pt: PieceType) -> Piece {
        Piece(pt.0 | ((color as u8) << Self::COLOR_SHIFT))
    }

    /// Whether this is no piece.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The piece's type (undefined for [`Piece::NONE`]).
    #[inline]
    pub const fn piece_type(self) -> PieceType {
        PieceType(self.0 & 0x0f)
    }

    /// The piece's owner (undefined for [`Piece::NONE`]).
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 >> Self::COLOR_SHIFT == 0 {
            Color::Sente
        } else {
            Color::Gote
        }
    }

    /// Index into per-piece arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Piece {
    /// SFEN notation: `+p`, `K`, ... (empty string for no piece).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return Ok(());
        }
        let pt = self.piece_type();
        if pt.is_promoted() {
            f.write_str("+")?;
        }
        let c = pt.letter();
        let c = match self.color() {
            Color::Sente => c,
            Color::Gote => c.to_ascii_lowercase(),
        };
        write!(f, "{c}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_follow_usi() {
        assert_eq!(Square::new(6, 6).to_string(), "7g");
        assert_eq!(Square::new(0, 0).to_string(), "1a");
        assert_eq!(Square::new(8, 8).to_string(), "9i");
    }

    #[test]
    fn promotion_round_trips() {
        for pt in PieceType::HAND {
            if pt.can_promote() {
                assert_eq!(pt.promoted().unpromoted(), pt);
                assert!(pt.promoted().is_promoted());
            }
        }
        assert!(!PieceType::GOLD.can_promote());
        assert!(!PieceType::KING.can_promote());
    }

    #[test]
    fn piece_encoding_keeps_colour_and_type() {
        for c in Color::ALL {
            for pt in PieceType::ALL {
                let p = Piece::new(c, pt);
                assert_eq!(p.color(), c);
                assert_eq!(p.piece_type(), pt);
            }
        }
        assert_eq!(
            Piece::new(Color::Gote, PieceType::PRO_PAWN).to_string(),
            "+p"
        );
    }
}
