//! 81-square bitboards and the attack tables built on them.
//!
//! Bit `i` is the square with index `i` (`file * 9 + rank`). The tables cover
//! the whole 9x9 grid; a small board masks what it uses (see
//! [`crate::rules::BoardKind::mask`]). Every table is computed at compile time.

use crate::types::{Color, GRID, PieceType, SQUARE_COUNT, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Invariant: no bit beyond the grid's 81 is ever set
/// (every constructor and operation keeps to [`Bitboard::ALL`]), so the
/// squares it hands out need no range check.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u128);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of the 9x9 grid.
    pub const ALL: Bitboard = Bitboard((1u128 << SQUARE_COUNT) - 1);

    /// The set holding one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// The set with the given bits (bits beyond the grid are dropped).
    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & Self::ALL.0)
    }

    /// Raw bits.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Whether the set contains `sq`.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Number of squares, counted one by one: faster than a software
    /// popcount for the few-square sets move generation produces on CPUs
    /// (or builds) without a popcount instruction.
    #[inline]
    pub const fn count_sparse(self) -> u32 {
        let mut bits = self.0;
        let mut n = 0;
        while bits != 0 {
            bits &= bits - 1;
            n += 1;
        }
        n
    }

    /// Whether the set has two or more squares.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_bit(self.0.trailing_zeros()))
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// `self & !other`.
    #[inline]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Every square moved one rank towards rank i (index + 1). Callers make
    /// sure no square is on rank i, so nothing wraps into the next file.
    #[inline]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard((self.0 << 1) & Self::ALL.0)
    }

    /// Every square moved one rank towards rank a (index - 1). Callers make
    /// sure no square is on rank a.
    #[inline]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 >> 1)
    }

    /// Every square of one file.
    #[inline]
    pub const fn file_mask(file: u8) -> Bitboard {
        debug_assert!(file < GRID);
        Bitboard(((1u128 << GRID) - 1) << (file as u32 * GRID as u32))
    }

    /// Every square of one rank.
    pub const fn rank_mask(rank: u8) -> Bitboard {
        debug_assert!(rank < GRID);
        let mut bits = 0u128;
        let mut file = 0;
        while file < GRID {
            bits |= 1u128 << (file as u32 * GRID as u32 + rank as u32);
            file += 1;
        }
        Bitboard(bits)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Pops the lowest square.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::from_bit(index))
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let squares: Vec<String> = (*self).map(|s| s.to_string()).collect();
        write!(f, "Bitboard[{}]", squares.join(" "))
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 9x9 grid.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

// ---------------------------------------------------------------------------
// Geometry, from sente's point of view: "forward" is towards rank a.

/// A step on the grid as (file delta, rank delta).
type Step = (i8, i8);

const FORWARD: i8 = -1;
const KING_STEPS: [Step; 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const GOLD_STEPS: [Step; 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const SILVER_STEPS: [Step; 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const KNIGHT_STEPS: [Step; 2] = [(-1, -2), (1, -2)];
const PAWN_STEPS: [Step; 1] = [(0, FORWARD)];

/// The eight ray directions. The first four run towards higher square indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Direction {
    /// Towards rank i (index + 1).
    South = 0,
    /// Towards the 9-file (index + 9).
    West = 1,
    /// index + 10.
    SouthWest = 2,
    /// index + 8.
    NorthWest = 3,
    /// Towards rank a (index - 1).
    North = 4,
    /// Towards the 1-file (index - 9).
    East = 5,
    /// index - 10.
    NorthEast = 6,
    /// index - 8.
    SouthEast = 7,
}

const DIRECTION_STEPS: [Step; 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (-1, 1),
];

const fn offset(sq: usize, step: Step) -> Option<usize> {
    let file = (sq / GRID as usize) as i8 + step.0;
    let rank = (sq % GRID as usize) as i8 + step.1;
    if file < 0 || rank < 0 || file >= GRID as i8 || rank >= GRID as i8 {
        None
    } else {
        Some(file as usize * GRID as usize + rank as usize)
    }
}

/// Turns a sente step into the same step for `color` (gote looks down the board).
const fn orient(step: Step, color: usize) -> Step {
    if color == 0 { step } else { (-step.0, -step.1) }
}

const fn step_set(sq: usize, steps: &[Step], color: usize) -> u128 {
    let mut bits = 0u128;
    let mut i = 0;
    while i < steps.len() {
        if let Some(t) = offset(sq, orient(steps[i], color)) {
            bits |= 1u128 << t;
        }
        i += 1;
    }
    bits
}

const fn ray(sq: usize, dir: usize) -> u128 {
    let mut bits = 0u128;
    let mut cur = sq;
    while let Some(t) = offset(cur, DIRECTION_STEPS[dir]) {
        bits |= 1u128 << t;
        cur = t;
    }
    bits
}

/// Step attacks of every non-sliding piece kind: `[color][piece type][square]`.
/// Slider types hold only their step part (the king steps of horse and dragon).
static STEP_ATTACKS: [[[Bitboard; SQUARE_COUNT]; PieceType::COUNT]; 2] = build_step_attacks();

const fn build_step_attacks() -> [[[Bitboard; SQUARE_COUNT]; PieceType::COUNT]; 2] {
    let mut t = [[[Bitboard::EMPTY; SQUARE_COUNT]; PieceType::COUNT]; 2];
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < SQUARE_COUNT {
            let gold = step_set(sq, &GOLD_STEPS, color);
            let king = step_set(sq, &KING_STEPS, color);
            let row = &mut t[color];
            row[PieceType::PAWN.index()][sq] = Bitboard(step_set(sq, &PAWN_STEPS, color));
            row[PieceType::KNIGHT.index()][sq] = Bitboard(step_set(sq, &KNIGHT_STEPS, color));
            row[PieceType::SILVER.index()][sq] = Bitboard(step_set(sq, &SILVER_STEPS, color));
            row[PieceType::GOLD.index()][sq] = Bitboard(gold);
            row[PieceType::KING.index()][sq] = Bitboard(king);
            row[PieceType::PRO_PAWN.index()][sq] = Bitboard(gold);
            row[PieceType::PRO_LANCE.index()][sq] = Bitboard(gold);
            row[PieceType::PRO_KNIGHT.index()][sq] = Bitboard(gold);
            row[PieceType::PRO_SILVER.index()][sq] = Bitboard(gold);
            row[PieceType::HORSE.index()][sq] = Bitboard(king);
            row[PieceType::DRAGON.index()][sq] = Bitboard(king);
            sq += 1;
        }
        color += 1;
    }
    t
}

/// Empty-board rays: `[direction][square]`.
static RAYS: [[Bitboard; SQUARE_COUNT]; 8] = build_rays();

const fn build_rays() -> [[Bitboard; SQUARE_COUNT]; 8] {
    let mut t = [[Bitboard::EMPTY; SQUARE_COUNT]; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut sq = 0;
        while sq < SQUARE_COUNT {
            t[dir][sq] = Bitboard(ray(sq, dir));
            sq += 1;
        }
        dir += 1;
    }
    t
}

/// Empty-board attacks of the sliders, by square: `[0]` the bishop's
/// (the diagonal rays), `[1]` the rook's (the orthogonal ones).
static SLIDER_PSEUDO: [[Bitboard; SQUARE_COUNT]; 2] = build_slider_pseudo();

const fn build_slider_pseudo() -> [[Bitboard; SQUARE_COUNT]; 2] {
    let mut t = [[Bitboard::EMPTY; SQUARE_COUNT]; 2];
    let mut sq = 0;
    while sq < SQUARE_COUNT {
        t[0][sq] = Bitboard(ray(sq, 2) | ray(sq, 3) | ray(sq, 6) | ray(sq, 7));
        t[1][sq] = Bitboard(ray(sq, 0) | ray(sq, 1) | ray(sq, 4) | ray(sq, 5));
        sq += 1;
    }
    t
}

/// Squares within a king's distance of 2 (`[0]`), 3 (`[1]`) and 4 (`[2]`)
/// of each square (itself included): where a piece must stand to reach a
/// square near it in one step (see [`near_steppers`], [`near_knights`] and
/// [`near_knight_checks`]).
static NEAR: [[Bitboard; SQUARE_COUNT]; 3] = build_near();

const fn build_near() -> [[Bitboard; SQUARE_COUNT]; 3] {
    let mut t = [[Bitboard::EMPTY; SQUARE_COUNT]; 3];
    let grid = GRID as usize;
    let mut sq = 0;
    while sq < SQUARE_COUNT {
        let mut other = 0;
        while other < SQUARE_COUNT {
            let df = (sq / grid).abs_diff(other / grid);
            let dr = (sq % grid).abs_diff(other % grid);
            let d = if df > dr { df } else { dr };
            let mut i = 0;
            while i < 3 {
                if d <= i + 2 {
                    t[i][sq].0 |= 1u128 << other;
                }
                i += 1;
            }
            other += 1;
        }
        sq += 1;
    }
    t
}

/// Squares within a king's distance of 2 of `sq`: a stepping piece other
/// than a knight that attacks a square next to `sq`, or checks a king on
/// `sq` after one step, stands there.
#[inline]
pub fn near_steppers(sq: Square) -> Bitboard {
    NEAR[0][sq.index()]
}

/// Squares within a king's distance of 3 of `sq`: a knight that attacks a
/// square next to `sq` stands there.
#[inline]
pub fn near_knights(sq: Square) -> Bitboard {
    NEAR[1][sq.index()]
}

/// Squares within a king's distance of 4 of `sq`: a knight that checks a
/// king on `sq` after one jump stands there.
#[inline]
pub fn near_knight_checks(sq: Square) -> Bitboard {
    NEAR[2][sq.index()]
}

/// Squares strictly between two squares on a line (empty if not aligned).
static BETWEEN: [[Bitboard; SQUARE_COUNT]; SQUARE_COUNT] = build_between(false);
/// The whole line through two aligned squares (empty if not aligned).
static LINE: [[Bitboard; SQUARE_COUNT]; SQUARE_COUNT] = build_between(true);

const fn build_between(whole_line: bool) -> [[Bitboard; SQUARE_COUNT]; SQUARE_COUNT] {
    let mut t = [[Bitboard::EMPTY; SQUARE_COUNT]; SQUARE_COUNT];
    let mut a = 0;
    while a < SQUARE_COUNT {
        let mut dir = 0;
        while dir < 8 {
            let forward = ray(a, dir);
            let mut b = 0;
            while b < SQUARE_COUNT {
                if forward >> b & 1 != 0 {
                    t[a][b] = if whole_line {
                        // The opposite direction is dir ^ 4 in DIRECTION_STEPS.
                        Bitboard(forward | ray(a, dir ^ 4) | 1u128 << a)
                    } else {
                        Bitboard(forward & !ray(b, dir) & !(1u128 << b))
                    };
                }
                b += 1;
            }
            dir += 1;
        }
        a += 1;
    }
    t
}

/// Attacks along one ray, stopping at (and including) the first blocker.
#[inline]
fn ray_attacks(sq: Square, dir: Direction, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir as usize][sq.index()].0;
    let blockers = ray & occupied.0;
    if (dir as usize) < 4 {
        // Towards higher indices the first blocker is the lowest set bit; with
        // no blocker the subtraction borrows through and keeps the whole ray.
        Bitboard(ray & (blockers ^ blockers.wrapping_sub(1)))
    } else if blockers == 0 {
        Bitboard(ray)
    } else {
        let first = 127 - blockers.leading_zeros();
        Bitboard(ray & (u128::MAX << first))
    }
}

/// Squares a piece of `color` and type `pt` on `sq` attacks, given the occupancy.
#[inline(always)]
pub fn attacks(color: Color, pt: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
    match pt {
        PieceType::LANCE => lance_attacks(color, sq, occupied),
        PieceType::BISHOP => bishop_attacks(sq, occupied),
        PieceType::ROOK => rook_attacks(sq, occupied),
        PieceType::HORSE => bishop_attacks(sq, occupied) | king_attacks(sq),
        PieceType::DRAGON => rook_attacks(sq, occupied) | king_attacks(sq),
        _ => step_attacks(color, pt, sq),
    }
}

/// Squares a piece of `color` and type `pt` on `sq` attacks on an empty
/// board (a superset of [`attacks`] under any occupancy).
#[inline(always)]
pub fn pseudo_attacks(color: Color, pt: PieceType, sq: Square) -> Bitboard {
    match pt {
        PieceType::LANCE => lance_pseudo_attacks(color, sq),
        PieceType::BISHOP => bishop_pseudo_attacks(sq),
        PieceType::ROOK => rook_pseudo_attacks(sq),
        PieceType::HORSE => bishop_pseudo_attacks(sq) | king_attacks(sq),
        PieceType::DRAGON => rook_pseudo_attacks(sq) | king_attacks(sq),
        _ => step_attacks(color, pt, sq),
    }
}

/// Step attacks of a non-sliding piece (the king part for horse and dragon).
#[inline]
pub fn step_attacks(color: Color, pt: PieceType, sq: Square) -> Bitboard {
    STEP_ATTACKS[color.index()][pt.index()][sq.index()]
}

/// King attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    STEP_ATTACKS[0][PieceType::KING.index()][sq.index()]
}

/// Gold attacks (also those of every promoted minor piece).
#[inline]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    STEP_ATTACKS[color.index()][PieceType::GOLD.index()][sq.index()]
}

/// Lance attacks.
#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match color {
        Color::Sente => ray_attacks(sq, Direction::North, occupied),
        Color::Gote => ray_attacks(sq, Direction::South, occupied),
    }
}

/// Lance attacks on an empty board.
#[inline]
pub fn lance_pseudo_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::Sente => RAYS[Direction::North as usize][sq.index()],
        Color::Gote => RAYS[Direction::South as usize][sq.index()],
    }
}

/// Bishop attacks.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray_attacks(sq, Direction::SouthWest, occupied)
        | ray_attacks(sq, Direction::NorthWest, occupied)
        | ray_attacks(sq, Direction::NorthEast, occupied)
        | ray_attacks(sq, Direction::SouthEast, occupied)
}

/// Rook attacks.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ray_attacks(sq, Direction::South, occupied)
        | ray_attacks(sq, Direction::West, occupied)
        | ray_attacks(sq, Direction::North, occupied)
        | ray_attacks(sq, Direction::East, occupied)
}

/// Bishop attacks on an empty board.
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    SLIDER_PSEUDO[0][sq.index()]
}

/// Rook attacks on an empty board.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    SLIDER_PSEUDO[1][sq.index()]
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The full line through `a` and `b` if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'1', b[1] - b'a')
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |bb, n| bb.with(sq(n)))
    }

    #[test]
    fn pseudo_attacks_cover_attacks() {
        let occupancies = [
            Bitboard::EMPTY,
            Bitboard::from_bits(0x5555_5555_5555_5555_5555_5555),
        ];
        for color in Color::ALL {
            for pt in PieceType::ALL {
                for s in Square::all() {
                    let pseudo = pseudo_attacks(color, pt, s);
                    assert_eq!(pseudo, attacks(color, pt, s, Bitboard::EMPTY));
                    for occ in occupancies {
                        assert!(attacks(color, pt, s, occ).and_not(pseudo).is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn step_tables_orient_by_colour() {
        assert_eq!(
            step_attacks(Color::Sente, PieceType::PAWN, sq("7g")),
            set(&["7f"])
        );
        assert_eq!(
            step_attacks(Color::Gote, PieceType::PAWN, sq("3c")),
            set(&["3d"])
        );
        assert_eq!(
            step_attacks(Color::Sente, PieceType::KNIGHT, sq("8i")),
            set(&["7g", "9g"])
        );
        assert_eq!(king_attacks(sq("1a")), set(&["2a", "1b", "2b"]));
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let occ = set(&["5c", "2e", "5h"]);
        let r = rook_attacks(sq("5e"), occ);
        assert!(r.has(sq("5c")) && !r.has(sq("5b")));
        assert!(r.has(sq("2e")) && !r.has(sq("1e")));
        assert!(r.has(sq("5h")) && !r.has(sq("5i")));
        assert!(r.has(sq("9e")));
        assert_eq!(r.count(), 2 + 3 + 3 + 4);
        let b = bishop_attacks(sq("5e"), set(&["3c"]));
        assert!(b.has(sq("3c")) && !b.has(sq("2b")) && b.has(sq("1i")) && b.has(sq("9a")));
        assert_eq!(
            lance_attacks(Color::Sente, sq("1i"), set(&["1c"])),
            set(&["1h", "1g", "1f", "1e", "1d", "1c"])
        );
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("5e"), sq("5a")), set(&["5d", "5c", "5b"]));
        assert_eq!(between(sq("1a"), sq("3c")), set(&["2b"]));
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert!(line(sq("1a"), sq("9i")).has(sq("5e")));
        assert!(line(sq("1a"), sq("2c")).is_empty());
    }
}
