//! The learned evaluation's weights: one set per board, built into the
//! binary (`eval/weights.bin`) or loaded from a file (`EvalFile`).
//!
//! File format (little-endian): the 8 bytes [`MAGIC`], a `u32` with the
//! number of weights per board ([`FEATURES`]), then the weights of 9x9, 5x5
//! and 3x3 in that order, each an `i16` in centipawns. Files are written by
//! `examples/train_eval.rs`.

use super::features::{FEATURES, MAX_HAND, PSQ_BASE, board_index, hand_feature};
use super::material::{PIECE_VALUES, hand_value};
use crate::rules::BoardKind;
use crate::types::{PieceType, SQUARE_COUNT};
use std::fmt;

/// The first bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"FKYEVAL1";
/// Boards in a file.
const BOARDS: usize = 3;
/// Bytes of a complete file.
pub const FILE_BYTES: usize = MAGIC.len() + 4 + BOARDS * FEATURES * 2;

/// The weights built into the binary.
static BUILT_IN: &[u8] = include_bytes!("weights.bin");

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// The file's weight count is not this build's.
    WrongCount { found: u32, expected: usize },
    /// The file is shorter or longer than its header says.
    WrongLength { found: usize, expected: usize },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::BadMagic => write!(f, "not a Fukayomi weights file (bad header)"),
            WeightsError::WrongCount { found, expected } => {
                write!(f, "{found} weights per board, this build needs {expected}")
            }
            WeightsError::WrongLength { found, expected } => {
                write!(
                    f,
                    "{found} bytes, a complete file has {expected} (truncated?)"
                )
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// The weights of all three boards.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    boards: [Box<[i16]>; BOARDS],
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({FEATURES} per board)")
    }
}

impl Weights {
    /// The built-in weights.
    pub fn built_in() -> Weights {
        Weights::parse(BUILT_IN).expect("the built-in weights are valid")
    }

    /// Weights that evaluate exactly like the material evaluation (the
    /// trainer's starting point).
    pub fn material() -> Weights {
        let mut w = vec![0i16; FEATURES];
        for pt in PieceType::ALL {
            let v = if pt == PieceType::KING {
                0
            } else {
                PIECE_VALUES[pt.index()]
            };
            for sq in 0..SQUARE_COUNT {
                w[PSQ_BASE + pt.index() * SQUARE_COUNT + sq] = v as i16;
            }
        }
        for pt in PieceType::HAND {
            for k in 1..=MAX_HAND {
                w[hand_feature(pt, k)] = hand_value(pt) as i16;
            }
        }
        let b: Box<[i16]> = w.into_boxed_slice();
        Weights {
            boards: [b.clone(), b.clone(), b],
        }
    }

    /// Reads a weights file's bytes.
    pub fn parse(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if count as usize != FEATURES {
            return Err(WeightsError::WrongCount {
                found: count,
                expected: FEATURES,
            });
        }
        if bytes.len() != FILE_BYTES {
            return Err(WeightsError::WrongLength {
                found: bytes.len(),
                expected: FILE_BYTES,
            });
        }
        let mut values = bytes[12..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut board = || -> Box<[i16]> { values.by_ref().take(FEATURES).collect() };
        Ok(Weights {
            boards: [board(), board(), board()],
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        for b in &self.boards {
            for v in b.iter() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// The weights of one board.
    #[inline]
    pub fn board(&self, kind: BoardKind) -> &[i16] {
        &self.boards[board_index(kind)]
    }

    /// The weights of one board, to change (the trainer).
    pub fn board_mut(&mut self, kind: BoardKind) -> &mut [i16] {
        &mut self.boards[board_index(kind)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_round_trips() {
        let w = Weights::material();
        assert_eq!(Weights::parse(&w.to_bytes()), Ok(w));
    }

    #[test]
    fn bad_files_are_refused() {
        let bytes = Weights::material().to_bytes();
        assert_eq!(
            Weights::parse(&bytes[..100]),
            Err(WeightsError::WrongLength {
                found: 100,
                expected: FILE_BYTES
            })
        );
        assert_eq!(Weights::parse(b"hello"), Err(WeightsError::BadMagic));
        let mut other = bytes.clone();
        other[8] ^= 1;
        assert!(matches!(
            Weights::parse(&other),
            Err(WeightsError::WrongCount { .. })
        ));
    }

    #[test]
    fn the_built_in_weights_load() {
        let _ = Weights::built_in();
    }
}
