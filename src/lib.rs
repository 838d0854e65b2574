//! Fukayomi (深読み): a USI shogi engine for standard 9x9 shogi, 5x5
//! minishogi and 3x3 9-masu shogi.
//!
//! The layers, bottom up: [`types`] and [`moves`] (values), [`bitboard`]
//! (square sets and attack tables), [`rules`] (what differs per board),
//! [`position`] and [`sfen`] (the state and its notation), [`movegen`] (legal
//! moves), [`game`] (history: repetition and game end), [`perft`], and the
//! [`usi`] shell.

pub mod bitboard;
pub mod checks;
pub mod entering_king;
pub mod eval;
pub mod flights;
pub mod game;
pub mod mate;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod prefetch;
pub mod rules;
pub mod search;
pub mod sfen;
pub mod solve;
pub mod types;
pub mod usi;
pub mod zobrist;
