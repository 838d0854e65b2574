//! A game: the current position with the history that decides repetitions,
//! and the game-end rules that need that history.

use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::RepetitionRule;
use crate::types::Color;

/// How a game ended (or would end here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The given side has won.
    Win(Color),
    /// Drawn.
    Draw,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move has no legal move (mate or stalemate: both lose).
    NoLegalMove,
    /// Fourfold repetition (千日手).
    Repetition,
    /// Fourfold repetition in which one side checked on every move (連続王手の千日手).
    PerpetualCheck,
}

/// What the history remembers of each position reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    key: u64,
    side: Color,
    /// Whether the move that led here gave check.
    gave_check: bool,
}

/// How many times a position must occur for 千日手.
pub const REPETITION_COUNT: usize = 4;

/// A position and the positions that led to it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    history: Vec<Record>,
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        let history = vec![Record {
            key: start.key(),
            side: start.side_to_move(),
            gave_check: start.in_check(),
        }];
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            history,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played from the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `m`, which must be legal in the current position.
    pub fn play(&mut self, m: Move) {
        self.position.play_in_place(m);
        self.moves.push(m);
        self.history.push(Record {
            key: self.position.key(),
            side: self.position.side_to_move(),
            gave_check: self.position.in_check(),
        });
    }

    /// Zobrist keys of every position so far, oldest first, with whether each
    /// was reached by a checking move (for the search's repetition checks).
    pub fn key_history(&self) -> impl Iterator<Item = (u64, bool)> + '_ {
        self.history.iter().map(|r| (r.key, r.gave_check))
    }

    /// The result if the game is over in the current position.
    pub fn outcome(&self) -> Option<(Outcome, Reason)> {
        if let Some(r) = self.repetition() {
            return Some(r);
        }
        if !movegen::has_legal_move(&self.position) {
            let loser = self.position.side_to_move();
            return Some((Outcome::Win(loser.flip()), Reason::NoLegalMove));
        }
        None
    }

    /// The result of a fourfold repetition of the current position, if it is one.
    pub fn repetition(&self) -> Option<(Outcome, Reason)> {
        let current = *self.history.last()?;
        let occurrences: Vec<usize> = self
            .history
            .iter()
            .enumerate()
            .filter(|(_, r)| r.key == current.key && r.side == current.side)
            .map(|(i, _)| i)
            .collect();
        if occurrences.len() < REPETITION_COUNT {
            return None;
        }
        // The cycle runs from the first of the last four occurrences to now.
        let first = occurrences[occurrences.len() - REPETITION_COUNT];
        let span = &self.history[first + 1..];
        // A record's move was made by the side not to move there.
        let checked_throughout = |checker: Color| {
            let mut moves = span.iter().filter(|r| r.side != checker).peekable();
            moves.peek().is_some() && moves.all(|r| r.gave_check)
        };
        // Only one side can be the perpetual checker; if both somehow were,
        // neither is singled out and the plain repetition rule applies.
        match (
            checked_throughout(Color::Sente),
            checked_throughout(Color::Gote),
        ) {
            (true, false) => return Some((Outcome::Win(Color::Gote), Reason::PerpetualCheck)),
            (false, true) => return Some((Outcome::Win(Color::Sente), Reason::PerpetualCheck)),
            _ => {}
        }
        let outcome = match self.position.kind().repetition_rule() {
            RepetitionRule::Draw => Outcome::Draw,
            RepetitionRule::SenteLoses => Outcome::Win(Color::Gote),
        };
        Some((outcome, Reason::Repetition))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::{parse_move, parse_sfen};

    fn play_all(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let m = parse_move(game.position(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
            game.play(m);
        }
    }

    const SHUFFLE_9X9: &str = "5i5h 5a5b 5h5i 5b5a";

    #[test]
    fn fourfold_repetition_is_a_draw_on_9x9() {
        let mut g = Game::new(parse_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap());
        play_all(&mut g, SHUFFLE_9X9);
        play_all(&mut g, SHUFFLE_9X9);
        assert_eq!(g.outcome(), None, "three occurrences are not yet 千日手");
        play_all(&mut g, SHUFFLE_9X9);
        assert_eq!(g.outcome(), Some((Outcome::Draw, Reason::Repetition)));
    }

    #[test]
    fn fourfold_repetition_loses_for_sente_on_5x5() {
        let mut g = Game::new(parse_sfen("4k/5/5/5/K4 b - 1").unwrap());
        for _ in 0..3 {
            play_all(&mut g, "5e5d 1a1b 5d5e 1b1a");
        }
        assert_eq!(
            g.outcome(),
            Some((Outcome::Win(Color::Gote), Reason::Repetition))
        );
    }

    #[test]
    fn fourfold_repetition_is_a_draw_on_3x3() {
        let mut g = Game::new(parse_sfen("2k/3/K2 b - 1").unwrap());
        for _ in 0..3 {
            play_all(&mut g, "3c3b 1a1b 3b3c 1b1a");
        }
        assert_eq!(g.outcome(), Some((Outcome::Draw, Reason::Repetition)));
    }

    #[test]
    fn perpetual_check_loses_on_every_board() {
        // The checking side shuttles a rook; the king shuttles out of check.
        let cases = [
            (
                "5k3/9/9/9/9/9/9/4R4/8K b - 1",
                "5h4h 4a5a 4h5h 5a4a",
                Color::Gote,
            ),
            ("3k1/5/5/2R2/K4 b - 1", "3d2d 2a3a 2d3d 3a2a", Color::Gote),
            ("2k/3/KR1 b - 1", "2c1c 1a2a 1c2c 2a1a", Color::Gote),
            // On 5x5 a perpetual check by gote loses for gote, although a plain
            // repetition would lose for sente.
            ("4k/2r2/5/5/3K1 w - 1", "3b2b 2e3e 2b3b 3e2e", Color::Sente),
        ];
        for (sfen, cycle, winner) in cases {
            let mut g = Game::new(parse_sfen(sfen).unwrap());
            play_all(&mut g, cycle);
            play_all(&mut g, cycle);
            assert_eq!(g.outcome(), None, "{sfen}");
            play_all(&mut g, cycle);
            assert_eq!(
                g.outcome(),
                Some((Outcome::Win(winner), Reason::PerpetualCheck)),
                "{sfen}"
            );
        }
    }

    #[test]
    fn no_legal_move_loses_even_without_check() {
        // 3x3 stalemate: the gote king on 1a is not in check, but silvers on
        // 3b and 2c cover every square it could go to.
        let g = Game::new(parse_sfen("2k/S2/KS1 w - 1").unwrap());
        assert!(!g.position().in_check());
        assert_eq!(
            g.outcome(),
            Some((Outcome::Win(Color::Sente), Reason::NoLegalMove))
        );
    }
}
