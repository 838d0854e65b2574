//! A small perspective network on top of the learned linear evaluation
//! (9x9 only; see `docs/eval-network.md`).
//!
//! For each colour `P` an accumulator of [`HIDDEN`] values:
//!
//! ```text
//! acc_P = b1 + sum over P's pieces' features f of W1[f]
//!            + sum over the opponent's pieces' features f of W1[inputs + f]
//! ```
//!
//! with the features of [`super::features`] (each seen from its piece's
//! owner), or only those below a limit (`inputs`: the relative and hand
//! features without the absolute king-piece blocks, say); all features feed
//! the linear part. The value for the side to move is the linear evaluation plus
//! `w2 . [crelu(acc_stm), crelu(acc_opp)] + b2`, where `crelu` clamps to
//! `0..=1` (`0..=`[`Q1`] in integers).
//!
//! Two forms: [`FloatNetwork`] (the trainer's, `examples/train_nn.rs`) and
//! [`Network`], its integer form for the engine: `W1` and `b1` scaled by
//! [`Q1`] (`i16`, summed in `i32`), the linear weights in centipawns
//! (`i16`), `w2` in centipawns scaled by [`Q2`].

use super::features::{FEATURES, for_each_feature, hand_feature, kings, piece_features};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};
use std::fmt;

/// Hidden width of the engine's network (a file of another width is
/// refused).
pub const HIDDEN: usize = 16;
/// Integer value of an activation of 1.
pub const Q1: i32 = 1024;
/// Output weights' scale (units per centipawn per unit activation).
pub const Q2: i32 = 16;
/// Bound of the network's correction of the linear value, in centipawns
/// (the built-in network's largest possible correction is about 1,600).
const MAX_CORRECTION: i64 = 10_000;

/// Largest first-layer bias a file may hold (the trainer writes at most
/// 1e9; an accumulator adds at most a few million to it).
pub const MAX_BIAS: i32 = 1_000_000_000;

/// The built-in network's file.
static BUILT_IN: &[u8] = include_bytes!("network.bin");

/// The first bytes of an integer network file.
pub const MAGIC: &[u8; 8] = b"FKYNET01";
/// The first bytes of a float network file (the trainer's).
pub const FLOAT_MAGIC: &[u8; 8] = b"FKYNETF1";

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with the expected magic.
    BadMagic,
    /// The file's feature count or hidden width is not this build's.
    WrongShape {
        /// The file's feature count.
        features: u32,
        /// The file's hidden width.
        hidden: u32,
    },
    /// The file is shorter or longer than its header says.
    WrongLength {
        /// The file's length.
        found: usize,
        /// The length its header implies.
        expected: usize,
    },
    /// A first-layer bias beyond [`MAX_BIAS`] (the sums could overflow).
    BiasOutOfRange,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::BadMagic => write!(f, "not a Fukayomi network file (bad header)"),
            NetworkError::WrongShape { features, hidden } => write!(
                f,
                "{features} features x {hidden} hidden, this build needs {FEATURES} x {HIDDEN}"
            ),
            NetworkError::WrongLength { found, expected } => {
                write!(f, "{found} bytes, a complete file has {expected}")
            }
            NetworkError::BiasOutOfRange => write!(f, "a first-layer bias is out of range"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// Little-endian reader over a file's bytes.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("N bytes")
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn f32s(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| f32::from_le_bytes(self.take())).collect()
    }
    fn i16s(&mut self, n: usize) -> Box<[i16]> {
        (0..n).map(|_| i16::from_le_bytes(self.take())).collect()
    }
    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| i32::from_le_bytes(self.take())).collect()
    }
}

/// Bytes of a file's header: magic, feature count, hidden width, inputs.
const HEADER_BYTES: usize = 20;

/// The header of a network file: returns the hidden width and the number
/// of inputs (the features that feed the network; the others feed only the
/// linear part).
fn header<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
) -> Result<(usize, usize, Reader<'a>), NetworkError> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != magic {
        return Err(NetworkError::BadMagic);
    }
    let mut r = Reader(&bytes[8..]);
    let (features, hidden, inputs) = (r.u32(), r.u32(), r.u32());
    if features as usize != FEATURES || inputs as usize > FEATURES {
        return Err(NetworkError::WrongShape { features, hidden });
    }
    Ok((hidden as usize, inputs as usize, r))
}

/// Writes a header.
fn write_header(out: &mut Vec<u8>, magic: &[u8; 8], hidden: usize, inputs: usize) {
    out.extend_from_slice(magic);
    for v in [FEATURES, hidden, inputs] {
        out.extend_from_slice(&(v as u32).to_le_bytes());
    }
}

/// The trainer's network, in floats: values in centipawns are
/// `linear + scale * (w2 . h + b2)`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub hidden: usize,
    /// The features below this feed the network (all feed the linear part).
    pub inputs: usize,
    /// Centipawns per unit of the network's output (the logistic's scale).
    pub scale: f32,
    /// The linear weights, centipawns, one per feature.
    pub linear: Vec<f32>,
    /// `2 * inputs` rows of `hidden`: a feature of the perspective's own
    /// pieces, then of the opponent's.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// The side to move's half, then the opponent's.
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl FloatNetwork {
    /// The network with linear weights `linear` and zero network weights.
    pub fn new(hidden: usize, inputs: usize, scale: f32, linear: Vec<f32>) -> FloatNetwork {
        assert_eq!(linear.len(), FEATURES);
        FloatNetwork {
            hidden,
            inputs,
            scale,
            linear,
            w1: vec![0.0; 2 * inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; 2 * hidden],
            b2: 0.0,
        }
    }

    fn expected_len(hidden: usize, inputs: usize) -> usize {
        HEADER_BYTES + 4 * (1 + FEATURES + 2 * inputs * hidden + hidden + 2 * hidden + 1)
    }

    /// Reads a float network file.
    pub fn parse(bytes: &[u8]) -> Result<FloatNetwork, NetworkError> {
        let (hidden, inputs, mut r) = header(bytes, FLOAT_MAGIC)?;
        let expected = Self::expected_len(hidden, inputs);
        if bytes.len() != expected {
            return Err(NetworkError::WrongLength {
                found: bytes.len(),
                expected,
            });
        }
        let scale = r.f32s(1)[0];
        Ok(FloatNetwork {
            hidden,
            inputs,
            scale,
            linear: r.f32s(FEATURES),
            w1: r.f32s(2 * inputs * hidden),
            b1: r.f32s(hidden),
            w2: r.f32s(2 * hidden),
            b2: r.f32s(1)[0],
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::expected_len(self.hidden, self.inputs));
        write_header(&mut out, FLOAT_MAGIC, self.hidden, self.inputs);
        let (scale, b2) = ([self.scale], [self.b2]);
        let all = scale
            .iter()
            .chain(&self.linear)
            .chain(&self.w1)
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(b2.iter());
        for v in all {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }
}

/// The engine's network, in integers.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The linear weights (centipawns).
    linear: Box<[i16]>,
    /// The features below this feed the network.
    inputs: usize,
    /// `2 * inputs` rows of [`HIDDEN`], scaled by [`Q1`].
    w1: Box<[i16]>,
    b1: [i32; HIDDEN],
    /// Scaled by [`Q2`]: centipawns per unit activation.
    w2: [i32; 2 * HIDDEN],
    /// Centipawns scaled by `Q1 * Q2`.
    b2: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({FEATURES} features x {HIDDEN})")
    }
}

/// Bytes of a complete integer network file with `inputs` inputs.
pub const fn file_bytes(inputs: usize) -> usize {
    HEADER_BYTES + 2 * FEATURES + 2 * 2 * inputs * HIDDEN + 4 * (HIDDEN + 2 * HIDDEN + 1)
}

fn round_clamp(x: f32, lim: f32) -> f32 {
    x.round().clamp(-lim, lim)
}

impl Network {
    /// The integer form of a trained network of width [`HIDDEN`].
    pub fn quantise(f: &FloatNetwork) -> Network {
        assert_eq!(f.hidden, HIDDEN, "the engine's networks are {HIDDEN} wide");
        let q1 = Q1 as f32;
        let q2 = Q2 as f32;
        let lim16 = f32::from(i16::MAX);
        Network {
            linear: f
                .linear
                .iter()
                .map(|&w| round_clamp(w, lim16) as i16)
                .collect(),
            inputs: f.inputs,
            w1: f
                .w1
                .iter()
                .map(|&w| round_clamp(w * q1, lim16) as i16)
                .collect(),
            b1: std::array::from_fn(|j| round_clamp(f.b1[j] * q1, 1e9) as i32),
            w2: std::array::from_fn(|j| round_clamp(f.w2[j] * f.scale * q2, 1e6) as i32),
            b2: round_clamp(f.b2 * f.scale * q1 * q2, 1e9) as i32,
        }
    }

    /// The float form of this network for the trainer to go on from
    /// (`examples/train_nn.rs --resume builtin`): the inverse of
    /// [`Network::quantise`] with the logistic's `scale` (centipawns per
    /// unit of output), exact up to the rounding the integers kept.
    pub fn to_float(&self, scale: f32) -> FloatNetwork {
        let q1 = Q1 as f32;
        let q2 = Q2 as f32;
        FloatNetwork {
            hidden: HIDDEN,
            inputs: self.inputs,
            scale,
            linear: self.linear.iter().map(|&w| f32::from(w)).collect(),
            w1: self.w1.iter().map(|&w| f32::from(w) / q1).collect(),
            b1: self.b1.iter().map(|&b| b as f32 / q1).collect(),
            w2: self.w2.iter().map(|&w| w as f32 / (scale * q2)).collect(),
            b2: self.b2 as f32 / (scale * q1 * q2),
        }
    }

    /// The linear weights `linear` with a network that adds nothing (so it
    /// evaluates exactly like the linear evaluation).
    pub fn from_linear(linear: &[i16]) -> Network {
        Network {
            linear: linear.into(),
            inputs: 0,
            w1: Box::new([]),
            b1: [0; HIDDEN],
            w2: [0; 2 * HIDDEN],
            b2: 0,
        }
    }

    /// The built-in 9x9 network (`src/eval/network.bin`, trained by
    /// `examples/train_nn.rs`; see `docs/eval-network.md`).
    pub fn built_in() -> Network {
        Network::parse(BUILT_IN).expect("the built-in network is a network file")
    }

    /// Reads an integer network file.
    pub fn parse(bytes: &[u8]) -> Result<Network, NetworkError> {
        let (hidden, inputs, mut r) = header(bytes, MAGIC)?;
        if hidden != HIDDEN {
            return Err(NetworkError::WrongShape {
                features: FEATURES as u32,
                hidden: hidden as u32,
            });
        }
        if bytes.len() != file_bytes(inputs) {
            return Err(NetworkError::WrongLength {
                found: bytes.len(),
                expected: file_bytes(inputs),
            });
        }
        let (linear, w1) = (r.i16s(FEATURES), r.i16s(2 * inputs * HIDDEN));
        let b1: [i32; HIDDEN] = r.i32s(HIDDEN).try_into().expect("HIDDEN values");
        if b1.iter().any(|b| b.unsigned_abs() > MAX_BIAS as u32) {
            return Err(NetworkError::BiasOutOfRange);
        }
        Ok(Network {
            linear,
            inputs,
            w1,
            b1,
            w2: r.i32s(2 * HIDDEN).try_into().expect("2 * HIDDEN values"),
            b2: r.i32s(1)[0],
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_bytes(self.inputs));
        write_header(&mut out, MAGIC, HIDDEN, self.inputs);
        for v in self.linear.iter().chain(self.w1.iter()) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.b1.iter().chain(&self.w2).chain([self.b2].iter()) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The linear weights.
    pub fn linear(&self) -> &[i16] {
        &self.linear
    }

    #[inline(always)]
    fn row(&self, r: usize) -> &[i16; HIDDEN] {
        self.w1[r * HIDDEN..r * HIDDEN + HIDDEN]
            .try_into()
            .expect("a row")
    }

    /// Adds (`s = 1`) or removes (`s = -1`) feature `f` of a piece owned
    /// by `owner`.
    #[inline(always)]
    fn apply(&self, acc: &mut Accumulator, owner: Color, f: usize, s: i32) {
        if f < self.inputs {
            let (own, opp) = (self.row(f), self.row(self.inputs + f));
            let (o, t) = (owner.index(), owner.flip().index());
            for j in 0..HIDDEN {
                acc.v[o][j] += s * i32::from(own[j]);
                acc.v[t][j] += s * i32::from(opp[j]);
            }
        }
        acc.linear += s * super::features::sign(owner) * i32::from(self.linear[f]);
    }

    /// The accumulators of `pos`, from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            v: [self.b1; 2],
            linear: 0,
        };
        for_each_feature(pos, |f, s| {
            let owner = if s > 0 { Color::Sente } else { Color::Gote };
            self.apply(&mut acc, owner, f, 1);
        });
        acc
    }

    /// Adds (`s = 1`) or removes (`s = -1`) the features of a piece.
    #[inline(always)]
    fn piece(
        &self,
        acc: &mut Accumulator,
        pos: &Position,
        kings: [Option<Square>; 2],
        (c, pt, sq): (Color, PieceType, Square),
        s: i32,
    ) {
        piece_features(pos.kind().size(), kings, c, pt, sq, |f| {
            self.apply(acc, c, f, s)
        });
    }

    /// The accumulators of `child` = `pos` after the legal move `m`, given
    /// `acc` = those of `pos`.
    pub fn after(
        &self,
        pos: &Position,
        acc: &Accumulator,
        m: Move,
        child: &Position,
    ) -> Accumulator {
        if super::learned::is_king_move(pos, m) {
            return self.refresh(child);
        }
        let mut a = *acc;
        let k = kings(pos);
        let us = pos.side_to_move();
        let to = m.to();
        if m.is_drop() {
            let pt = m.dropped();
            let n = pos.hand(us).count(pt) as usize;
            self.piece(&mut a, pos, k, (us, pt, to), 1);
            self.apply(&mut a, us, hand_feature(pt, n), -1);
            return a;
        }
        let from = m.from();
        let pt = pos.piece_on(from).piece_type();
        let new_pt = if m.is_promotion() { pt.promoted() } else { pt };
        self.piece(&mut a, pos, k, (us, pt, from), -1);
        self.piece(&mut a, pos, k, (us, new_pt, to), 1);
        let victim = pos.piece_on(to);
        if !victim.is_none() {
            if victim.piece_type() == PieceType::KING {
                // A king was captured (analysis of a broken position).
                return self.refresh(child);
            }
            let vpt = victim.piece_type();
            self.piece(&mut a, pos, k, (us.flip(), vpt, to), -1);
            let base = vpt.unpromoted();
            let n = pos.hand(us).count(base) as usize + 1;
            self.apply(&mut a, us, hand_feature(base, n), 1);
        }
        a
    }

    /// The value of a position with accumulators `acc`, for `stm`, the
    /// side to move (centipawns).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let (us, them) = (&acc.v[stm.index()], &acc.v[stm.flip().index()]);
        let mut out = i64::from(self.b2);
        for j in 0..HIDDEN {
            out += i64::from(us[j].clamp(0, Q1)) * i64::from(self.w2[j]);
            out += i64::from(them[j].clamp(0, Q1)) * i64::from(self.w2[HIDDEN + j]);
        }
        // Products in 64 bits: a hand-made file's large weights cannot
        // overflow; the correction is clamped to a sane range.
        let net = (out / i64::from(Q1 * Q2)).clamp(-MAX_CORRECTION, MAX_CORRECTION) as i32;
        super::features::sign(stm) * acc.linear + net
    }
}

#[cfg(test)]
impl Network {
    /// A network with pseudo-random weights whose accumulators cross both
    /// ends of the activation (tests), over the first `inputs` features.
    pub(crate) fn pseudo_random(linear: &[i16], inputs: usize) -> Network {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |range: i32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * range as u64 + 1)) as i32 - range
        };
        Network {
            linear: linear.into(),
            inputs,
            w1: (0..2 * inputs * HIDDEN).map(|_| next(300) as i16).collect(),
            b1: std::array::from_fn(|_| Q1 / 2 + next(Q1)),
            w2: std::array::from_fn(|_| next(100 * Q2)),
            b2: next(Q1 * Q2 * 50),
        }
    }
}

/// The accumulators of a position: one per perspective (indexed by
/// colour), and the linear sum from sente's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// The hidden values of each perspective (indexed by colour), scaled
    /// by [`Q1`].
    pub v: [[i32; HIDDEN]; 2],
    /// The linear evaluation from sente's point of view.
    pub linear: i32,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
            linear: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;
    use crate::eval::features::KP_OWN_BASE;
    use crate::rules::BoardKind;

    #[test]
    fn files_round_trip() {
        let w = Weights::built_in();
        for inputs in [FEATURES, KP_OWN_BASE] {
            let net = Network::pseudo_random(w.board(BoardKind::Standard), inputs);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_bytes(inputs));
            assert_eq!(Network::parse(&bytes), Ok(net));
            assert_eq!(
                Network::parse(&bytes[..bytes.len() - 1]),
                Err(NetworkError::WrongLength {
                    found: bytes.len() - 1,
                    expected: bytes.len()
                })
            );
        }
        let mut f = FloatNetwork::new(HIDDEN, KP_OWN_BASE, 600.0, vec![1.5; FEATURES]);
        f.w1[7] = 0.25;
        f.b2 = -0.5;
        assert_eq!(FloatNetwork::parse(&f.to_bytes()), Ok(f.clone()));
        assert_eq!(Network::parse(&f.to_bytes()), Err(NetworkError::BadMagic));
        let back = Network::quantise(&Network::quantise(&f).to_float(600.0));
        assert_eq!(back, Network::quantise(&f), "dequantising round-trips");
        let q = Network::quantise(&f);
        assert_eq!(q.w1[7], (Q1 / 4) as i16);
        assert_eq!(q.linear[0], 2);
    }

    #[test]
    fn the_built_in_network_reads_the_relative_features_and_corrects_the_linear_value() {
        let net = Network::built_in();
        assert_eq!(net.inputs, KP_OWN_BASE);
        assert!(
            net.w2.iter().any(|&v| v != 0),
            "a network that adds something"
        );
        let pos = crate::sfen::parse_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        )
        .unwrap();
        let v = net.evaluate(&net.refresh(&pos), pos.side_to_move());
        assert!(v.abs() < 200, "the start position is about even: {v}");
    }
}
