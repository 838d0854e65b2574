//! Backward move generation on packed positions: the predecessors of a
//! position, for the retrograde analysis.
//!
//! A predecessor of `x` is a position `y` with a legal move `m` such that
//! `y` after `m` is `x`. The generator works on the packed key alone (no
//! [`Position`](crate::position::Position) is built) and undoes, for the
//! side that just moved, every kind of move:
//!
//! * a drop (the piece goes back to the hand), with the rules core's drop
//!   rules: no drop where the piece could never move (dead drops), 二歩, and
//!   no pawn drop that gives mate (打ち歩詰め; decided by the caller's
//!   `no_moves`: `x` has no legal move);
//! * a board move, of the piece as it stands or un-promoted (a promotion
//!   needs the origin or the target in the mover's zone), with the path of a
//!   slider empty;
//! * each of those board moves as a capture, of every piece type the mover
//!   holds in hand, put back for the other side unpromoted or promoted.
//!
//! The generator over-generates on purpose: it does not check that `y` is a
//! legal position (the side that did not move in check, a piece that could
//! never move, 二歩 of the side to move in `x`). The caller looks every
//! candidate up in the reachable set, which holds only positions reached by
//! legal moves, so an illegal `y` is never found. Given that `y` is in the
//! set and `x` is too (so the mover's king is not attacked in `x`), the
//! checks here make `m` legal in `y`; tests compare the result with the
//! forward move generator on whole reachable sets.
//!
//! # Mirror images and multiplicity
//!
//! Keys stand for a position and its mirror image. The retrograde analysis
//! counts the moves still unrefuted, so each predecessor key `p` must be
//! reported once for every legal move of `unpack(p)` that leads to `x` or
//! to its mirror image, as the forward generator sees it. The generator
//! undoes moves from one orientation of `x` only; a predecessor `y` found
//! so stands for the moves of `y` to `x`, which mirror onto moves of the
//! mirror image of `y` to the mirror image of `x`. Counting them:
//!
//! * `x` and `y` both asymmetric (not their own mirror image): each `y`
//!   is one move of `p`'s orientation to `x` or to its mirror: once.
//! * `x` symmetric, `y` asymmetric: `y` and its mirror image are both
//!   found, for the same moves of `p`: only the one in `p`'s orientation
//!   counts.
//! * `x` asymmetric, `y` symmetric: the moves of `y` to `x` and those to its
//!   mirror image are as many, and only the former are found: twice.
//! * both symmetric: once.

use super::pack::{
    BOARD_MASK, HAND_SHIFT, Packer, SIDE_SHIFT, SQUARE_BITS, SQUARE_MASK, SQUARES, mirror_board,
};
use crate::bitboard::{self, Bitboard};
use crate::rules::BoardKind;
use crate::types::{Color, PieceType, Square};

/// Number of piece type codes (0 = none, 1..=14).
const TYPES: usize = PieceType::COUNT;
/// Bit of a piece code marking gote's pieces.
const GOTE_BIT: u64 = 0x10;
/// Bits of a piece code holding its type.
const TYPE_MASK: u64 = 0x0f;
/// Squares of one file.
const FILE_SQUARES: usize = 3;

/// A set of the nine squares, bit `i` for packing index `i`.
type Squares9 = u16;

/// Backward move generator for one material set.
#[derive(Clone, Debug)]
pub struct Unmover {
    packer: Packer,
    /// `origins[color][type][to]`: squares from which a piece of that colour
    /// and type reaches `to` on an empty board.
    origins: [[[Squares9; SQUARES]; TYPES]; 2],
    /// `between[a][b]`: squares strictly between `a` and `b` on a line.
    between: [[Squares9; SQUARES]; SQUARES],
    /// Promotion zone per colour.
    zone: [Squares9; 2],
    /// `dead[color][type]`: squares where that piece may not stand unpromoted.
    dead: [[Squares9; TYPES]; 2],
    /// `pawn_check[color][king]`: the square from which the other side's
    /// pawn checks a king of `color` standing on `king`.
    pawn_check: [[Squares9; SQUARES]; 2],
    /// Sente's hand counts (by [`PieceType::HAND`] index) of every value of
    /// the hand digits.
    hands: Vec<[u8; PieceType::HAND.len()]>,
}

/// The mover's pieces other than the one that moved, for the check test.
struct Pieces {
    squares: [u8; SQUARES],
    types: [u8; SQUARES],
    len: usize,
}

/// The rules core's square of packing index `i`.
fn square(i: usize) -> Square {
    Square::new((i / FILE_SQUARES) as u8, (i % FILE_SQUARES) as u8)
}

/// A rules-core bitboard restricted to the 3x3 board, as a nine-square set.
fn squares9(bb: Bitboard) -> Squares9 {
    (0..SQUARES)
        .filter(|&i| bb.has(square(i)))
        .fold(0, |acc, i| acc | 1 << i)
}

/// The piece code of a piece of `color` and type code `pt`.
#[inline]
fn code(color: Color, pt: u64) -> u64 {
    match color {
        Color::Sente => pt,
        Color::Gote => pt | GOTE_BIT,
    }
}

/// The piece code on square `i` of the board bits.
#[inline]
fn cell(board: u64, i: usize) -> u64 {
    board >> (SQUARE_BITS * i as u32) & SQUARE_MASK
}

/// Board bits with square `i` emptied.
#[inline]
fn cleared(board: u64, i: usize) -> u64 {
    board & !(SQUARE_MASK << (SQUARE_BITS * i as u32))
}

/// Board bits with piece code `c` put on the empty square `i`.
#[inline]
fn with(board: u64, i: usize, c: u64) -> u64 {
    board | c << (SQUARE_BITS * i as u32)
}

impl Unmover {
    /// The generator for the positions packed by `packer`.
    pub fn new(packer: Packer) -> Unmover {
        let kind = BoardKind::Ninemasu;
        let mut origins = [[[0; SQUARES]; TYPES]; 2];
        for color in Color::ALL {
            for pt in PieceType::ALL {
                let to_origins = &mut origins[color.index()][pt.index()];
                for from in 0..SQUARES {
                    let reach = bitboard::attacks(color, pt, square(from), Bitboard::EMPTY);
                    for (to, set) in to_origins.iter_mut().enumerate() {
                        if reach.has(square(to)) {
                            *set |= 1 << from;
                        }
                    }
                }
            }
        }
        let mut between = [[0; SQUARES]; SQUARES];
        for (a, row) in between.iter_mut().enumerate() {
            for (b, set) in row.iter_mut().enumerate() {
                *set = squares9(bitboard::between(square(a), square(b)));
            }
        }
        let mut dead = [[0; TYPES]; 2];
        let mut pawn_check = [[0; SQUARES]; 2];
        for color in Color::ALL {
            for pt in PieceType::ALL {
                dead[color.index()][pt.index()] = squares9(kind.dead_squares(color, pt));
            }
            for (k, set) in pawn_check[color.index()].iter_mut().enumerate() {
                *set = squares9(bitboard::step_attacks(color, PieceType::PAWN, square(k)));
            }
        }
        let states: u64 = (0..PieceType::HAND.len())
            .map(|i| packer.material(i) as u64 + 1)
            .product();
        let hands = (0..states)
            .map(|digits| {
                let mut hand = [0u8; PieceType::HAND.len()];
                for (i, h) in hand.iter_mut().enumerate() {
                    *h = (digits / packer.radix(i) % (packer.material(i) as u64 + 1)) as u8;
                }
                hand
            })
            .collect();
        Unmover {
            packer,
            hands,
            origins,
            between,
            zone: [
                squares9(kind.zone(Color::Sente)),
                squares9(kind.zone(Color::Gote)),
            ],
            dead,
            pawn_check,
        }
    }

    /// Calls `emit` with the key of every predecessor of the position `key`
    /// (see the module docs for multiplicity); `no_moves` says that the side
    /// to move of `key` has no legal move (so a pawn drop giving check was
    /// a mate, which 打ち歩詰め forbids).
    #[inline]
    pub fn predecessors(&self, key: u64, no_moves: bool, emit: &mut impl FnMut(u64)) {
        let board = key & BOARD_MASK;
        let stm = Packer::side_to_move(key);
        let mover = stm.flip();
        let digits = key >> HAND_SHIFT;
        let side = (mover == Color::Gote) as u64;
        let mut occupied: Squares9 = 0;
        let mut own: Squares9 = 0;
        let mut king: usize = 0;
        let mut on_board = [0u8; PieceType::HAND.len()];
        for i in 0..SQUARES {
            let c = cell(board, i);
            if c == 0 {
                continue;
            }
            occupied |= 1 << i;
            let pt = c & TYPE_MASK;
            let is_mover = (c & GOTE_BIT != 0) == (mover == Color::Gote);
            if is_mover {
                own |= 1 << i;
            }
            if pt == PieceType::KING.value() as u64 {
                if !is_mover {
                    king = i;
                }
            } else {
                on_board[base_type(pt) as usize - 1] += 1;
            }
        }
        let hand = self.mover_hand(mover, digits, &on_board);
        let out = Out {
            side: side << SIDE_SHIFT,
            digits,
            mover,
            hand,
            king,
            symmetric: board == mirror_board(board),
            no_moves,
        };
        for to in 0..SQUARES {
            if own & 1 << to == 0 {
                continue;
            }
            let pt = cell(board, to) & TYPE_MASK;
            let empty_board = cleared(board, to);
            let others = self.others(board, own & !(1 << to));
            let at = Target {
                empty_board,
                to,
                occupied,
            };
            if !self.attacked(&out, &others, occupied & !(1 << to)) {
                self.undrop(&out, &at, pt, emit);
            }
            self.unmoves(&out, &at, pt, &others, emit);
        }
    }

    /// The pieces on the squares `set` of `board`.
    #[inline]
    fn others(&self, board: u64, mut set: Squares9) -> Pieces {
        let mut pieces = Pieces {
            squares: [0; SQUARES],
            types: [0; SQUARES],
            len: 0,
        };
        while set != 0 {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            pieces.squares[pieces.len] = i as u8;
            pieces.types[pieces.len] = (cell(board, i) & TYPE_MASK) as u8;
            pieces.len += 1;
        }
        pieces
    }

    /// Whether a piece of the mover at `square` of type `pt` attacks the
    /// other side's king, with `occupied` the occupancy.
    #[inline]
    fn attacks_king(&self, out: &Out, square: usize, pt: usize, occupied: Squares9) -> bool {
        self.origins[out.mover.index()][pt][out.king] & 1 << square != 0
            && self.between[square][out.king] & occupied == 0
    }

    /// Whether one of `pieces` attacks the other side's king, with
    /// `occupied` the occupancy (then the position is illegal with the
    /// mover to move).
    #[inline]
    fn attacked(&self, out: &Out, pieces: &Pieces, occupied: Squares9) -> bool {
        (0..pieces.len).any(|j| {
            self.attacks_king(
                out,
                pieces.squares[j] as usize,
                pieces.types[j] as usize,
                occupied,
            )
        })
    }

    /// The mover's hand counts (by [`PieceType::HAND`] index).
    fn mover_hand(
        &self,
        mover: Color,
        digits: u64,
        on_board: &[u8; PieceType::HAND.len()],
    ) -> [u8; PieceType::HAND.len()] {
        let mut hand = [0u8; PieceType::HAND.len()];
        for (i, h) in hand.iter_mut().enumerate() {
            let material = self.packer.material(i);
            let sente = self.hands[digits as usize][i];
            *h = match mover {
                Color::Sente => sente,
                Color::Gote => material.saturating_sub(sente + on_board[i]),
            };
        }
        hand
    }

    /// The drop of the unpromoted piece `pt` on `to`, undone.
    #[inline]
    fn undrop(&self, out: &Out, at: &Target, pt: u64, emit: &mut impl FnMut(u64)) {
        let to = at.to;
        if pt == PieceType::KING.value() as u64 || pt > PieceType::KING.value() as u64 {
            return;
        }
        let m = out.mover.index();
        if self.dead[m][pt as usize] & 1 << to != 0 {
            return;
        }
        if pt == PieceType::PAWN.value() as u64 {
            let pawn = code(out.mover, pt);
            let file = to / FILE_SQUARES * FILE_SQUARES;
            let doubled =
                (file..file + FILE_SQUARES).any(|i| i != to && cell(at.empty_board, i) == pawn);
            let mate =
                out.no_moves && self.pawn_check[out.mover.flip().index()][out.king] & 1 << to != 0;
            if doubled || mate {
                return;
            }
        }
        let i = pt as usize - 1;
        let digits = match out.mover {
            Color::Sente => out.digits + self.packer.radix(i),
            Color::Gote => out.digits,
        };
        out.emit(at.empty_board, digits, emit);
    }

    /// Board moves (and captures) onto `to` ending with the piece `pt`, undone.
    #[inline]
    fn unmoves(
        &self,
        out: &Out,
        at: &Target,
        pt: u64,
        others: &Pieces,
        emit: &mut impl FnMut(u64),
    ) {
        let m = out.mover.index();
        let promoted = pt > PieceType::KING.value() as u64;
        if promoted || self.dead[m][pt as usize] & 1 << at.to == 0 {
            self.unmoves_of(out, at, pt, pt, others, emit);
        }
        if promoted {
            self.unmoves_of(out, at, base_type(pt), pt, others, emit);
        }
    }

    /// Moves of a piece of type `from_pt` to `to`, where it stands as `pt`
    /// (a promotion when they differ), undone.
    #[inline]
    fn unmoves_of(
        &self,
        out: &Out,
        at: &Target,
        from_pt: u64,
        pt: u64,
        others: &Pieces,
        emit: &mut impl FnMut(u64),
    ) {
        let (to, occupied) = (at.to, at.occupied);
        let m = out.mover.index();
        let promotion = from_pt != pt;
        let mut from_set = self.origins[m][from_pt as usize][to] & !occupied;
        while from_set != 0 {
            let from = from_set.trailing_zeros() as usize;
            from_set &= from_set - 1;
            if self.between[from][to] & occupied != 0 {
                continue;
            }
            if promotion && (self.zone[m] & (1 << from | 1 << to)) == 0 {
                continue;
            }
            let before = with(at.empty_board, from, code(out.mover, from_pt));
            // Occupancy before the move: the origin filled, the target
            // empty (a plain move) or holding the captured piece.
            let plain = (occupied & !(1 << to)) | 1 << from;
            let capture = plain | 1 << to;
            let moved_checks = |occ| self.attacks_king(out, from, from_pt as usize, occ);
            if !moved_checks(plain) && !self.attacked(out, others, plain) {
                out.emit(before, out.digits, emit);
            }
            if !moved_checks(capture) && !self.attacked(out, others, capture) {
                self.uncaptures(out, before, to, emit);
            }
        }
    }

    /// The position `before` (the mover's piece back on its origin) with a
    /// piece of the other side captured on `to` put back, for every type the
    /// mover holds.
    #[inline]
    fn uncaptures(&self, out: &Out, before: u64, to: usize, emit: &mut impl FnMut(u64)) {
        let victim = out.mover.flip();
        for (i, &pt) in PieceType::HAND.iter().enumerate() {
            if out.hand[i] == 0 {
                continue;
            }
            let digits = match out.mover {
                Color::Sente => out.digits - self.packer.radix(i),
                Color::Gote => out.digits,
            };
            let base = pt.value() as u64;
            if self.dead[victim.index()][pt.index()] & 1 << to == 0 {
                out.emit(with(before, to, code(victim, base)), digits, emit);
            }
            if pt.can_promote() {
                let promoted = pt.promoted().value() as u64;
                out.emit(with(before, to, code(victim, promoted)), digits, emit);
            }
        }
    }
}

/// The unpromoted type code of the piece type code `pt` (not the king).
#[inline]
fn base_type(pt: u64) -> u64 {
    if pt > PieceType::KING.value() as u64 {
        pt - PieceType::PROMOTION as u64
    } else {
        pt
    }
}

/// What every predecessor of one orientation shares.
struct Out {
    /// The side-to-move bit of the predecessors, in place.
    side: u64,
    /// Sente's hand digits of the position undone from.
    digits: u64,
    /// The side that made the move undone.
    mover: Color,
    /// The mover's hand (by [`PieceType::HAND`] index).
    hand: [u8; PieceType::HAND.len()],
    /// The other side's king square.
    king: usize,
    /// Whether the position undone from is its own mirror image.
    symmetric: bool,
    /// Whether the position undone from has no legal move.
    no_moves: bool,
}

/// The square a move undone went to.
struct Target {
    /// The board bits with that square emptied.
    empty_board: u64,
    /// The square.
    to: usize,
    /// The occupancy after the move.
    occupied: Squares9,
}

impl Out {
    /// Emits the key of the predecessor with these board bits and hand
    /// digits as often as it counts (see the module docs).
    #[inline]
    fn emit(&self, board: u64, digits: u64, emit: &mut impl FnMut(u64)) {
        let mirrored = mirror_board(board);
        let rest = self.side | digits << HAND_SHIFT;
        if board == mirrored {
            emit(board | rest);
            if !self.symmetric {
                emit(board | rest);
            }
        } else if board < mirrored {
            emit(board | rest);
        } else if !self.symmetric {
            emit(mirrored | rest);
        }
    }
}
