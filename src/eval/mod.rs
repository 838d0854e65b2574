//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! Two evaluations, chosen by the `Evaluation` option ([`EvalKind`]):
//!
//! * [`EvalKind::Learned`] (the default): a linear evaluation over
//!   king-relative piece features and hand counts ([`features`]), with
//!   weights per board learned from the engine's own games
//!   (`tools/train_eval.sh`) and built into the binary ([`weights`]);
//!   `EvalFile` loads another weights file.
//! * [`EvalKind::Material`]: material only ([`material`]), kept so that the
//!   search can be measured against other material-only engines on equal
//!   terms.
//!
//! The search keeps the evaluation of each node incrementally: an
//! [`Evaluator`] gives the child's value from the parent's and the move.

pub mod data;
pub mod features;
pub mod learned;
pub mod material;
pub mod network;
pub mod weights;

pub use material::{
    HAND_BONUS_PERCENT, KING_VALUE, PIECE_VALUES, capture_gain, evaluate, hand_value,
    material_delta, material_sente, piece_value,
};
pub use network::{Accumulator, Network, NetworkError};
pub use weights::{Weights, WeightsError};

use crate::moves::Move;
use crate::position::Position;

/// Which evaluation the search uses (`Evaluation` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The learned weights (built in, or `EvalFile`).
    #[default]
    Learned,
    /// Material only.
    Material,
}

/// A score from sente's point of view turned to the side to move's.
#[inline(always)]
fn from_sente(pos: &Position, s: i32) -> i32 {
    features::sign(pos.side_to_move()) * s
}

/// An evaluation with its weights for one board.
#[derive(Clone, Copy, Debug)]
pub struct Evaluator<'a> {
    kind: EvalKind,
    /// The weights of the board searched (unused by the material evaluation).
    weights: &'a [i16],
    /// The network that corrects the learned linear evaluation (9x9 only:
    /// built in, or from an `EvalFile` network file).
    network: Option<&'a Network>,
}

impl<'a> Evaluator<'a> {
    /// The evaluation `kind` with `weights`, for positions on `board`.
    pub fn new(kind: EvalKind, weights: &'a Weights, board: crate::rules::BoardKind) -> Self {
        Evaluator {
            kind,
            weights: weights.board(board),
            network: None,
        }
    }

    /// Like [`Evaluator::new`], but the learned evaluation of 9x9 is
    /// `network` if there is one.
    pub fn with_network(
        kind: EvalKind,
        weights: &'a Weights,
        network: Option<&'a Network>,
        board: crate::rules::BoardKind,
    ) -> Self {
        let use_net = kind == EvalKind::Learned && board == crate::rules::BoardKind::Standard;
        Evaluator {
            network: network.filter(|_| use_net),
            ..Evaluator::new(kind, weights, board)
        }
    }

    /// Whether the network evaluates (then the search keeps accumulators:
    /// [`Evaluator::root`], [`Evaluator::after_acc`], [`Evaluator::null`]).
    #[inline(always)]
    pub fn uses_network(&self) -> bool {
        self.network.is_some()
    }

    /// The value of `pos` for the side to move, computed from scratch.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        if let Some(net) = self.network {
            return net.evaluate(&net.refresh(pos), pos.side_to_move());
        }
        match self.kind {
            EvalKind::Material => evaluate(pos),
            EvalKind::Learned => from_sente(pos, learned::sum(self.weights, pos)),
        }
    }

    /// The value of `pos` for the side to move, from scratch, setting `acc`
    /// to its accumulators when the network evaluates.
    pub fn root(&self, pos: &Position, acc: &mut Accumulator) -> i32 {
        match self.network {
            Some(net) => {
                *acc = net.refresh(pos);
                net.evaluate(acc, pos.side_to_move())
            }
            None => self.evaluate(pos),
        }
    }

    /// [`Evaluator::after`] keeping the accumulators: `parent` are those of
    /// `pos`, `acc` receives the child's (when the network evaluates).
    #[inline]
    pub fn after_acc(
        &self,
        pos: &Position,
        eval: i32,
        m: Move,
        child: &Position,
        parent: &Accumulator,
        acc: &mut Accumulator,
    ) -> i32 {
        match self.network {
            Some(net) => {
                *acc = net.after(pos, parent, m, child);
                net.evaluate(acc, child.side_to_move())
            }
            None => self.after(pos, eval, m, child),
        }
    }

    /// The value after a null move: `child` is the position with the side
    /// to move passed, `eval` and `acc` the values before it.
    #[inline]
    pub fn null(&self, eval: i32, acc: &Accumulator, child: &Position) -> i32 {
        match self.network {
            Some(net) => net.evaluate(acc, child.side_to_move()),
            None => -eval,
        }
    }

    /// The value of `child` = `pos` after the legal move `m`, for its side to
    /// move, given `eval` = the value of `pos` for its side to move.
    /// (With the network this is computed from scratch: the search uses
    /// [`Evaluator::after_acc`].)
    #[inline]
    pub fn after(&self, pos: &Position, eval: i32, m: Move, child: &Position) -> i32 {
        if self.network.is_some() {
            return self.evaluate(child);
        }
        match self.kind {
            EvalKind::Material => -(eval + material_delta(pos, m)),
            EvalKind::Learned if learned::is_king_move(pos, m) => {
                if child.king_square(child.side_to_move()).is_none() {
                    // A king was captured (analysis of a broken position).
                    self.evaluate(child)
                } else {
                    -(eval + from_sente(pos, learned::king_delta(self.weights, pos, m)))
                }
            }
            EvalKind::Learned => -(eval + from_sente(pos, learned::delta(self.weights, pos, m))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::moves::MoveList;
    use crate::rules::BoardKind;
    use crate::sfen::parse_sfen;

    /// Positions on every board, with kings and without, with hands.
    const POSITIONS: [&str; 4] = [
        "4k/5/5/+r4/K4 b P 1",
        "bk1/3/1KB b Pp 1",
        "3sks3/9/4S4/9/9/9/9/9/9 b 2G 1",
        "rbsgk/4p/5/P4/KGSBR b - 1",
    ];

    /// Checks the incremental values of every move of `pos` and, if
    /// `depth` > 1, of the positions after them.
    fn check_incremental(ev: &Evaluator, pos: &Position, depth: u32) {
        let e = ev.evaluate(pos);
        let mut acc = Accumulator::default();
        assert_eq!(ev.root(pos, &mut acc), e);
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        for &m in list.iter() {
            let child = pos.play(m);
            assert_eq!(
                ev.after(pos, e, m, &child),
                ev.evaluate(&child),
                "{pos:?} {m}"
            );
            let mut child_acc = Accumulator::default();
            assert_eq!(
                ev.after_acc(pos, e, m, &child, &acc, &mut child_acc),
                ev.evaluate(&child),
                "{pos:?} {m}"
            );
            if depth > 1 {
                check_incremental(ev, &child, depth - 1);
            }
        }
    }

    #[test]
    fn incremental_values_match_fresh_ones() {
        // Arbitrary non-zero weights exercise every feature kind.
        let mut w = Weights::material();
        for kind in BoardKind::ALL {
            for (i, v) in w.board_mut(kind).iter_mut().enumerate() {
                *v = v.wrapping_add((i as i16).wrapping_mul(31) % 97 - 48);
            }
        }
        let sfens = crate::search::BENCH_POSITIONS
            .iter()
            .chain(POSITIONS.iter());
        for sfen in sfens {
            let pos = parse_sfen(sfen).unwrap();
            for ek in [EvalKind::Learned, EvalKind::Material] {
                check_incremental(&Evaluator::new(ek, &w, pos.kind()), &pos, 2);
            }
        }
    }

    /// Plays `plies` pseudo-random legal moves from `pos`, checking after
    /// each that the incremental accumulators and value (and those after a
    /// null move) equal the fresh ones.
    fn check_random_game(ev: &Evaluator, pos: &Position, plies: usize, mut seed: u64) {
        let mut pos = pos.clone();
        let mut acc = Accumulator::default();
        let mut eval = ev.root(&pos, &mut acc);
        for _ in 0..plies {
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = list
                .iter()
                .nth((seed % list.len() as u64) as usize)
                .copied();
            let m = m.expect("a move");
            let child = pos.play(m);
            let mut child_acc = Accumulator::default();
            let e = ev.after_acc(&pos, eval, m, &child, &acc, &mut child_acc);
            let mut fresh = Accumulator::default();
            assert_eq!(e, ev.root(&child, &mut fresh), "{pos:?} {m}");
            assert_eq!(child_acc, fresh, "{pos:?} {m}");
            assert_eq!(e, ev.evaluate(&child));
            if child.checkers().is_empty() {
                let mut passed = child.clone();
                passed.set_side_to_move(child.side_to_move().flip());
                passed.finish();
                assert_eq!(ev.null(e, &child_acc, &passed), ev.evaluate(&passed));
            }
            (pos, acc, eval) = (child, child_acc, e);
        }
    }

    #[test]
    fn network_incremental_values_match_fresh_ones() {
        let w = Weights::built_in();
        let board = crate::rules::BoardKind::Standard;
        for inputs in [features::FEATURES, features::KP_OWN_BASE] {
            let net = Network::pseudo_random(w.board(board), inputs);
            let ev = Evaluator::with_network(EvalKind::Learned, &w, Some(&net), board);
            assert!(ev.uses_network());
            for (i, sfen) in crate::search::BENCH_POSITIONS.iter().enumerate() {
                let pos = parse_sfen(sfen).unwrap();
                if pos.kind() != board {
                    continue;
                }
                check_incremental(&ev, &pos, 2);
                for game in 0..20u64 {
                    check_random_game(&ev, &pos, 300, 0x9E37_79B9 + 1000 * i as u64 + game);
                }
            }
        }
    }

    #[test]
    fn a_network_that_adds_nothing_evaluates_like_the_weights() {
        let w = Weights::built_in();
        let board = crate::rules::BoardKind::Standard;
        let net = Network::from_linear(w.board(board));
        let linear = Evaluator::new(EvalKind::Learned, &w, board);
        let ev = Evaluator::with_network(EvalKind::Learned, &w, Some(&net), board);
        for sfen in crate::search::BENCH_POSITIONS.iter() {
            let pos = parse_sfen(sfen).unwrap();
            if pos.kind() == board {
                assert_eq!(ev.evaluate(&pos), linear.evaluate(&pos), "{sfen}");
            }
        }
    }

    #[test]
    fn material_weights_evaluate_like_material() {
        let w = Weights::material();
        let sfens = crate::search::BENCH_POSITIONS
            .iter()
            .chain(POSITIONS.iter());
        for sfen in sfens {
            let pos = parse_sfen(sfen).unwrap();
            let learned = Evaluator::new(EvalKind::Learned, &w, pos.kind());
            assert_eq!(learned.evaluate(&pos), evaluate(&pos), "{sfen}");
        }
    }

    #[test]
    fn built_in_weights_are_symmetric_at_the_start() {
        let w = Weights::built_in();
        for kind in BoardKind::ALL {
            let pos = parse_sfen(kind.start_sfen()).unwrap();
            let v = Evaluator::new(EvalKind::Learned, &w, kind).evaluate(&pos);
            assert!(v.abs() < 200, "{kind:?}: {v}");
        }
    }
}
