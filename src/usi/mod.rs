//! The USI shell: everything between a GUI (or a match runner, or a person at
//! a terminal) and the search.
//!
//! - [`command`] parses a line into a typed [`command::Command`], with a
//!   specific error for anything malformed;
//! - [`options`] declares the engine options and maps `setoption` onto them;
//! - [`session`] holds the game and the option values, changed all-or-nothing;
//! - [`engine_loop`] runs the dialogue: a reader thread for input, one loop
//!   that owns stdout, and a persistent search thread fed through a channel;
//! - [`display`] formats `d`, `moves` and `go perft`;
//! - [`cli`] turns the command line into USI commands.

pub mod cli;
pub mod command;
pub mod display;
pub mod engine_loop;
pub mod options;
pub mod session;
mod worker;

pub use engine_loop::run;
