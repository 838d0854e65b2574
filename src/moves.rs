//! Moves and move lists.

use crate::types::{PieceType, Square};
use std::fmt;

/// A move packed in 16 bits: destination (7 bits), origin or dropped piece
/// type (7 bits), promotion flag, drop flag. Whether a move is legal depends on
/// a position; the value itself is only a description.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// No move (never legal; used as "nothing" in tables).
    pub const NONE: Move = Move(0);

    const FROM_SHIFT: u16 = 7;
    const SQUARE_MASK: u16 = 0x7f;
    const PROMOTE_FLAG: u16 = 1 << 14;
    const DROP_FLAG: u16 = 1 << 15;

    /// A board move, promoting or not.
    #[inline]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        let flag = if promote { Self::PROMOTE_FLAG } else { 0 };
        Move(to.index() as u16 | ((from.index() as u16) << Self::FROM_SHIFT) | flag)
    }

    /// A drop of a piece from hand.
    #[inline]
    pub const fn drop(pt: PieceType, to: Square) -> Move {
        Move(to.index() as u16 | ((pt.value() as u16) << Self::FROM_SHIFT) | Self::DROP_FLAG)
    }

    /// Destination square.
    #[inline]
    pub fn to(self) -> Square {
        Square::from_index((self.0 & Self::SQUARE_MASK) as usize).unwrap_or(Square::new(0, 0))
    }

    /// Origin square (meaningless for drops).
    #[inline]
    pub fn from(self) -> Square {
        Square::from_index(((self.0 >> Self::FROM_SHIFT) & Self::SQUARE_MASK) as usize)
            .unwrap_or(Square::new(0, 0))
    }

    /// The dropped piece type (meaningless for board moves).
    #[inline]
    pub fn dropped(self) -> PieceType {
        PieceType::from_u8(((self.0 >> Self::FROM_SHIFT) & Self::SQUARE_MASK) as u8)
            .unwrap_or(PieceType::PAWN)
    }

    /// Whether this is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.0 & Self::DROP_FLAG != 0
    }

    /// Whether this move promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & Self::PROMOTE_FLAG != 0
    }

    /// Whether this is [`Move::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Raw 16-bit encoding (for hash tables).
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// A move from its raw encoding (as stored by [`raw`](Self::raw)).
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }
}

impl fmt::Display for Move {
    /// USI notation: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return f.write_str("none");
        }
        if self.is_drop() {
            write!(f, "{}*{}", self.dropped().letter(), self.to())
        } else {
            let plus = if self.is_promotion() { "+" } else { "" };
            write!(f, "{}{}{}", self.from(), self.to(), plus)
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most legal moves any shogi position is known to have is 593; this
/// leaves room for non-promotions the usual bound ignores.
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves, kept on the stack.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        // The capacity exceeds every reachable position's move count; a debug
        // build still checks it.
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes all moves.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether the list contains `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps only the moves for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        let m = Move::normal(Square::new(6, 6), Square::new(6, 5), false);
        assert_eq!(m.to_string(), "7g7f");
        let m = Move::normal(Square::new(7, 7), Square::new(1, 1), true);
        assert_eq!(m.to_string(), "8h2b+");
        assert!(m.is_promotion() && !m.is_drop());
        let m = Move::drop(PieceType::PAWN, Square::new(4, 4));
        assert_eq!(m.to_string(), "P*5e");
        assert!(m.is_drop());
        assert_eq!(m.dropped(), PieceType::PAWN);
        assert!(!m.is_none());
    }
}
