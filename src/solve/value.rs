//! The exact value of a position for the side to move.

use std::cmp::Ordering;
use std::fmt;

/// Game-theoretic value for the side to move, with the distance in plies to
/// the end of the game under best play (the winner ends it as fast as
/// possible, the loser as late as possible).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move forces a win in this many plies (odd).
    Win(u32),
    /// The side to move loses in this many plies against best play (even;
    /// 0 = no legal move now).
    Loss(u32),
    /// Neither side can force a win (see the module docs of
    /// [`solve`](super) for what repetition rules do here).
    Draw,
}

/// Flag bit of a win in the encoded form.
const WIN_BIT: u16 = 0x8000;
/// Largest distance the encoded form holds.
pub const MAX_DISTANCE: u32 = 0x7ffe;

impl Value {
    /// Two bytes: 0 = draw (or not yet decided), `d + 1` = loss in `d`,
    /// `0x8000 | (d + 1)` = win in `d`.
    #[inline]
    pub fn encode(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Loss(d) => d.min(MAX_DISTANCE) as u16 + 1,
            Value::Win(d) => WIN_BIT | (d.min(MAX_DISTANCE) as u16 + 1),
        }
    }

    /// The value of an encoded form made by [`encode`](Self::encode).
    #[inline]
    pub fn decode(code: u16) -> Value {
        if code == 0 {
            Value::Draw
        } else if code & WIN_BIT != 0 {
            Value::Win((code & !WIN_BIT) as u32 - 1)
        } else {
            Value::Loss(code as u32 - 1)
        }
    }

    /// The value of the position before a move that leads to a position of
    /// value `self` (for the side that made the move).
    #[inline]
    pub fn before_move(self) -> Value {
        match self {
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
            Value::Win(d) => Value::Loss(d + 1),
        }
    }

    /// The value, for the opponent, of the position after a value-keeping
    /// move from a decisive position of value `self` (the inverse of
    /// [`before_move`](Self::before_move); a draw stays a draw).
    #[inline]
    pub fn after_move(self) -> Value {
        match self {
            Value::Draw => Value::Draw,
            Value::Win(d) => Value::Loss(d.saturating_sub(1)),
            Value::Loss(d) => Value::Win(d.saturating_sub(1)),
        }
    }

    /// The distance in plies to the end of the game (0 for a draw).
    #[inline]
    pub fn plies(self) -> u32 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 0,
        }
    }

    /// A total order key: faster wins above slower wins above draws above
    /// longer losses above shorter losses.
    fn rank(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i64,
        }
    }

    /// The USI score: `mate N`, `mate -N` or `cp 0`.
    pub fn usi_score(self) -> String {
        match self {
            Value::Win(d) => format!("mate {d}"),
            Value::Loss(d) => format!("mate -{d}"),
            Value::Draw => "cp 0".to_string(),
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips_and_orders() {
        for v in [
            Value::Draw,
            Value::Win(1),
            Value::Win(41),
            Value::Loss(0),
            Value::Loss(12),
        ] {
            assert_eq!(Value::decode(v.encode()), v);
        }
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(99) > Value::Draw);
        assert!(Value::Draw > Value::Loss(40));
        assert!(Value::Loss(40) > Value::Loss(2));
        assert_eq!(Value::Loss(0).before_move(), Value::Win(1));
    }
}
