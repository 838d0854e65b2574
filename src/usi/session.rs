//! The state the USI commands change outside a search: the current game and
//! the option values. Every change is all-or-nothing: a rejected command
//! leaves the session exactly as it was.

use super::command::{CommandError, PositionCommand};
use super::options::EngineOptions;
use crate::game::Game;
use crate::rules::BoardKind;
use crate::sfen;

/// The game to search next and the current options.
#[derive(Clone)]
pub struct Session {
    /// The position set by the last accepted `position` (the 9x9 start before any).
    pub game: Game,
    /// The option values.
    pub options: EngineOptions,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session at the 9x9 start position with default options.
    pub fn new() -> Session {
        let start = sfen::parse_sfen(BoardKind::Standard.start_sfen())
            .expect("the built-in start position parses");
        Session {
            game: Game::new(start),
            options: EngineOptions::default(),
        }
    }

    /// Applies `position`; on error the previous position stays in force.
    pub fn set_position(&mut self, cmd: &PositionCommand) -> Result<(), CommandError> {
        self.game = cmd.build(self.options.variant)?;
        Ok(())
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), CommandError> {
        self.options
            .set(name, value)
            .map_err(|e| CommandError::new(format!("setoption: {e}")))
    }

    /// A fingerprint of everything a command can change (for tests: equal
    /// fingerprints mean nothing changed).
    pub fn fingerprint(&self) -> String {
        let moves: Vec<String> = self.game.moves().iter().map(|m| m.to_string()).collect();
        format!(
            "{} | {} | {} | {:?}",
            sfen::to_sfen(self.game.start()),
            moves.join(" "),
            sfen::to_sfen(self.game.position()),
            self.options
        )
    }
}
