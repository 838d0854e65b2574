//! Compact packing of a 3x3 position into one `u64`.
//!
//! Layout, low bits first: the nine squares of the 3x3 board at 5 bits each
//! (the piece's encoding, 0 = empty; 45 bits), the side to move (1 bit), and
//! sente's hand as a mixed-radix number whose digit for each hand type runs
//! from 0 to the number of pieces of that type in the material (at most 18
//! bits). Gote's hand is whatever of the material is neither on the board
//! nor in sente's hand, so it needs no bits.
//!
//! A position and its mirror image (files 1 and 3 exchanged) share one key,
//! the smaller packing, so the reachable set holds each pair once.
//!
//! The material (how many pieces of each unpromoted type exist) never changes
//! in a game, so one [`Packer`] built from the root serves every position
//! reachable from it. A packed position is never 0 (a king is always on the
//! board), which hash tables use as their empty slot.

use crate::moves::Move;
use crate::position::Position;
use crate::rules::BoardKind;
use crate::types::{Color, GRID, Piece, PieceType, Square};

/// The board's side length.
const SIZE: u8 = 3;
/// Squares of the 3x3 board.
const SQUARES: usize = 9;
/// Bits per square.
const SQUARE_BITS: u32 = 5;
/// Bit of the side to move.
const SIDE_SHIFT: u32 = SQUARE_BITS * SQUARES as u32;
/// First bit of sente's hand.
const HAND_SHIFT: u32 = SIDE_SHIFT + 1;
/// Largest product of hand radices that still fits in the 64-bit key.
const MAX_HAND_STATES: u64 = 1 << (64 - HAND_SHIFT);

/// Why a position cannot be packed (and so cannot be solved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// The position is not on the 3x3 board.
    NotNinemasu,
    /// A side has no king (or more than one).
    Kings,
    /// More material than the key has room for.
    TooMuchMaterial,
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackError::NotNinemasu => write!(f, "not a 3x3 (9-masu) position"),
            PackError::Kings => write!(f, "each side needs exactly one king"),
            PackError::TooMuchMaterial => write!(f, "too much material to pack"),
        }
    }
}

impl std::error::Error for PackError {}

/// The packing index of the mirror image (files 1 <-> 3) of each square.
const MIRROR: [usize; SQUARES] = {
    let mut m = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (file, rank) = (i / SIZE as usize, i % SIZE as usize);
        m[i] = (SIZE as usize - 1 - file) * SIZE as usize + rank;
        i += 1;
    }
    m
};

/// The nine squares of the 3x3 board, in packing order.
pub fn squares() -> [Square; SQUARES] {
    let mut out = [Square::new(0, 0); SQUARES];
    for (i, sq) in out.iter_mut().enumerate() {
        *sq = Square::new(i as u8 / SIZE, i as u8 % SIZE);
    }
    out
}

/// The packing index of a square of the 3x3 board.
#[inline]
fn slot(sq: Square) -> usize {
    let i = sq.index();
    i / GRID as usize * SIZE as usize + i % GRID as usize
}

/// `board` with the code of packing index `i` replaced by `code`.
#[inline]
fn with_code(board: u64, i: usize, code: u64) -> u64 {
    let shift = SQUARE_BITS * i as u32;
    board & !(0x1f << shift) | code << shift
}

/// The key of a position from its packing's parts: the smaller
/// orientation, the side to move and sente's hand.
#[inline]
fn key_of(board: u64, mirrored: u64, digits: u64, side: Color) -> u64 {
    let side_bit = if side == Color::Gote {
        1 << SIDE_SHIFT
    } else {
        0
    };
    board.min(mirrored) | side_bit | digits << HAND_SHIFT
}

/// A position's packing before the orientation is chosen
/// ([`Packer::parts`]).
#[derive(Clone, Copy, Debug)]
pub struct Parts {
    /// The squares' codes in packing order.
    board: u64,
    /// The same for the mirror image.
    mirrored: u64,
    /// Sente's hand as digits.
    digits: u64,
    /// The side to move.
    side: Color,
}

/// Packs and unpacks the positions of one material set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packer {
    /// Pieces of each hand type in the material (board and both hands).
    material: [u8; PieceType::HAND.len()],
    /// Place value of each hand type's digit.
    radix: [u64; PieceType::HAND.len()],
}

impl Packer {
    /// The packer for the material of `pos`.
    pub fn new(pos: &Position) -> Result<Packer, PackError> {
        if pos.kind() != BoardKind::Ninemasu {
            return Err(PackError::NotNinemasu);
        }
        for c in Color::ALL {
            if pos.pieces_of(c, PieceType::KING).count() != 1 {
                return Err(PackError::Kings);
            }
        }
        let mut material = [0u8; PieceType::HAND.len()];
        for (i, &pt) in PieceType::HAND.iter().enumerate() {
            let mut on_board = pos.pieces_of_type(pt).count();
            if pt.can_promote() {
                on_board += pos.pieces_of_type(pt.promoted()).count();
            }
            let in_hand =
                pos.hand(Color::Sente).count(pt) as u32 + pos.hand(Color::Gote).count(pt) as u32;
            material[i] =
                u8::try_from(on_board + in_hand).map_err(|_| PackError::TooMuchMaterial)?;
        }
        let mut radix = [0u64; PieceType::HAND.len()];
        let mut place = 1u64;
        for i in 0..material.len() {
            radix[i] = place;
            place = place
                .checked_mul(material[i] as u64 + 1)
                .filter(|&p| p <= MAX_HAND_STATES)
                .ok_or(PackError::TooMuchMaterial)?;
        }
        Ok(Packer { material, radix })
    }

    /// Whether `pos` has this packer's material (so it can be packed by it).
    pub fn covers(&self, pos: &Position) -> bool {
        Packer::new(pos).is_ok_and(|p| p == *self)
    }

    /// The key of `pos`, which must have this packer's material.
    ///
    /// The rules are symmetric under mirroring the files (1 <-> 3), and a
    /// position and its mirror image have the same value, so both get one
    /// key: the smaller of the two packings. [`unpack`](Self::unpack) gives
    /// back that orientation, which may be the mirror image of `pos`.
    #[inline]
    pub fn pack(&self, pos: &Position) -> u64 {
        let p = self.parts(pos);
        key_of(p.board, p.mirrored, p.digits, p.side)
    }

    /// The packing of `pos` before its orientation is chosen, from which
    /// [`child_key`](Self::child_key) makes its children's keys.
    #[inline]
    pub fn parts(&self, pos: &Position) -> Parts {
        let mut board = 0u64;
        let mut mirrored = 0u64;
        for (i, sq) in squares().into_iter().enumerate() {
            let code = pos.piece_on(sq).index() as u64;
            board |= code << (SQUARE_BITS * i as u32);
            mirrored |= code << (SQUARE_BITS * MIRROR[i] as u32);
        }
        let hand = pos.hand(Color::Sente);
        let mut digits = 0u64;
        for (i, &pt) in PieceType::HAND.iter().enumerate() {
            digits += hand.count(pt) as u64 * self.radix[i];
        }
        Parts {
            board,
            mirrored,
            digits,
            side: pos.side_to_move(),
        }
    }

    /// The key of the position after the legal move `m` of `pos`, whose
    /// [`parts`](Self::parts) are `parts`: the same as packing the
    /// position played, without playing it (only the squares the move
    /// touches and sente's hand change).
    #[inline]
    pub fn child_key(&self, parts: &Parts, pos: &Position, m: Move) -> u64 {
        let us = parts.side;
        let (mut board, mut mirrored, mut digits) = (parts.board, parts.mirrored, parts.digits);
        let to = slot(m.to());
        let placed = if m.is_drop() {
            let pt = m.dropped();
            if us == Color::Sente {
                digits -= self.radix[pt.index() - 1];
            }
            Piece::new(us, pt)
        } else {
            let from = slot(m.from());
            let captured = pos.piece_on(m.to());
            if !captured.is_none() && us == Color::Sente {
                digits += self.radix[captured.piece_type().unpromoted().index() - 1];
            }
            board = with_code(board, from, 0);
            mirrored = with_code(mirrored, MIRROR[from], 0);
            let pt = pos.piece_on(m.from()).piece_type();
            Piece::new(us, if m.is_promotion() { pt.promoted() } else { pt })
        };
        let code = placed.index() as u64;
        board = with_code(board, to, code);
        mirrored = with_code(mirrored, MIRROR[to], code);
        key_of(board, mirrored, digits, us.flip())
    }

    /// The side to move of a packed position.
    #[inline]
    pub fn side_to_move(key: u64) -> Color {
        if key >> SIDE_SHIFT & 1 == 0 {
            Color::Sente
        } else {
            Color::Gote
        }
    }

    /// The position of a key made by [`pack`](Self::pack).
    pub fn unpack(&self, key: u64) -> Position {
        let mut pos = Position::empty(BoardKind::Ninemasu);
        let mut on_board = [0u8; PieceType::HAND.len()];
        for (i, sq) in squares().into_iter().enumerate() {
            let code = (key >> (SQUARE_BITS * i as u32) & 0x1f) as u8;
            if code == 0 {
                continue;
            }
            let color = if code & 0x10 == 0 {
                Color::Sente
            } else {
                Color::Gote
            };
            let Some(pt) = PieceType::from_u8(code & 0x0f) else {
                continue;
            };
            pos.put(sq, Piece::new(color, pt));
            if pt != PieceType::KING {
                // HAND lists the types in their numeric order from PAWN = 1.
                on_board[pt.unpromoted().index() - 1] += 1;
            }
        }
        pos.set_side_to_move(Packer::side_to_move(key));
        let digits = key >> HAND_SHIFT;
        for (i, &pt) in PieceType::HAND.iter().enumerate() {
            let n = (digits / self.radix[i] % (self.material[i] as u64 + 1)) as u8;
            pos.set_hand(Color::Sente, pt, n);
            pos.set_hand(
                Color::Gote,
                pt,
                self.material[i].saturating_sub(n + on_board[i]),
            );
        }
        pos.finish();
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::{parse_sfen, to_sfen};

    #[test]
    fn child_keys_are_the_packings_of_the_children() {
        use crate::movegen;
        use crate::moves::MoveList;
        for sfen in [
            "B1k/P1p/K1b b - 1",
            "2k/3/K2 b RPrp 1",
            "1pk/R1r/KP1 w Bb 7",
            "k2/1+p+R/2K b BPp 3",
            "Rnk/bPl/KsP b - 1",
            "1pk/3/K2 w 2SP2b 1",
        ] {
            let root = parse_sfen(sfen).unwrap();
            let packer = Packer::new(&root).unwrap();
            // Two plies deep, to reach captures, promotions and drops of
            // both sides.
            let mut list = MoveList::new();
            movegen::legal_moves(&root, &mut list);
            let mut positions = vec![root.clone()];
            positions.extend(list.iter().map(|&m| root.play(m)));
            for pos in &positions {
                let parts = packer.parts(pos);
                movegen::legal_moves(pos, &mut list);
                for &m in list.iter() {
                    assert_eq!(
                        packer.child_key(&parts, pos, m),
                        packer.pack(&pos.play(m)),
                        "{} {m:?}",
                        to_sfen(pos)
                    );
                }
            }
        }
    }

    #[test]
    fn pack_unpack_round_trip() {
        for sfen in [
            "B1k/P1p/K1b b - 1",
            "2k/3/K2 b RPrp 1",
            "1pk/R1r/KP1 w Bb 7",
            "k2/1+p+R/2K b BPp 3",
        ] {
            let pos = parse_sfen(sfen).unwrap();
            let packer = Packer::new(&pos).unwrap();
            let key = packer.pack(&pos);
            assert_ne!(key, 0);
            let back = packer.unpack(key);
            assert_eq!(packer.pack(&back), key, "{sfen}");
            // The move number is not part of a position's identity; the
            // orientation is the smaller packing's.
            let text = to_sfen(&back);
            let text = text.rsplit_once(' ').unwrap().0;
            let want = sfen.rsplit_once(' ').unwrap().0;
            let mirror = |t: &str| {
                let (board, rest) = t.split_once(' ').unwrap();
                let ranks: Vec<String> = board.split('/').map(mirror_rank).collect();
                format!("{} {rest}", ranks.join("/"))
            };
            assert!(text == want || text == mirror(want), "{sfen}: {text}");
            let mirrored = parse_sfen(&format!("{} 1", mirror(want))).unwrap();
            assert_eq!(packer.pack(&mirrored), key, "{sfen}");
        }
    }

    /// A SFEN rank read right to left (pieces with their `+`).
    fn mirror_rank(rank: &str) -> String {
        let mut tokens: Vec<String> = Vec::new();
        let mut promoted = false;
        for c in rank.chars() {
            if c == '+' {
                promoted = true;
                continue;
            }
            tokens.push(if promoted {
                format!("+{c}")
            } else {
                c.to_string()
            });
            promoted = false;
        }
        tokens.reverse();
        tokens.concat()
    }

    #[test]
    fn rejects_other_boards_and_missing_kings() {
        let pos = parse_sfen("rbsgk/4p/5/P4/KGSBR b - 1").unwrap();
        assert_eq!(Packer::new(&pos), Err(PackError::NotNinemasu));
    }
}
