//! Zobrist keys, fixed at compile time so keys are the same in every run.

use crate::types::{Color, Piece, PieceType, SQUARE_COUNT, Square};

/// Most pieces of one type a hand can hold (18 pawns).
pub const MAX_HAND_COUNT: usize = 18;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    board: [[u64; Piece::COUNT]; SQUARE_COUNT],
    hand: [[[u64; MAX_HAND_COUNT + 1]; PieceType::COUNT]; 2],
    side: u64,
}

const fn build_keys() -> Keys {
    let mut keys = Keys {
        board: [[0; Piece::COUNT]; SQUARE_COUNT],
        hand: [[[0; MAX_HAND_COUNT + 1]; PieceType::COUNT]; 2],
        side: 0,
    };
    let mut state = 0x4675_6b61_796f_6d69; // "Fukayomi"
    let mut sq = 0;
    while sq < SQUARE_COUNT {
        let mut p = 1;
        while p < Piece::COUNT {
            let (s, k) = splitmix(state);
            state = s;
            keys.board[sq][p] = k;
            p += 1;
        }
        sq += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut pt = 1;
        while pt < PieceType::COUNT {
            // Count 0 keeps key 0 so an empty hand adds nothing.
            let mut n = 1;
            while n <= MAX_HAND_COUNT {
                let (s, k) = splitmix(state);
                state = s;
                keys.hand[c][pt][n] = k;
                n += 1;
            }
            pt += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
    keys.side = side;
    keys
}

static KEYS: Keys = build_keys();

/// Key of `piece` standing on `sq`.
#[inline]
pub fn board_key(sq: Square, piece: Piece) -> u64 {
    KEYS.board[sq.index()][piece.index()]
}

/// Key of `color` holding `count` pieces of type `pt`.
#[inline]
pub fn hand_key(color: Color, pt: PieceType, count: u8) -> u64 {
    KEYS.hand[color.index()][pt.index()][(count as usize).min(MAX_HAND_COUNT)]
}

/// Key toggled when gote is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.side
}
