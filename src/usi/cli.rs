//! The command line, as Stockfish and YaneuraOu have it: no arguments runs
//! the USI loop on standard input; `--help` and `--version` print and exit;
//! any other arguments are USI commands, run in order before the program
//! exits (`fukayomi bench`, `fukayomi "position startpos" "go perft 5"`).
//!
//! How arguments become commands: an argument whose first word is a command
//! name ([`COMMANDS`]) starts a new command; any other argument continues the
//! one before it, so `fukayomi go depth 5` is the one command `go depth 5`
//! (and `moves` after a `position` is that command's move list, not the
//! `moves` command). A lone `,` ends a command, as in YaneuraOu
//! (`fukayomi bench , quit`).

use super::command::COMMANDS;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    /// No arguments: the USI loop on standard input.
    Loop,
    /// `--help` / `-h`.
    Help,
    /// `--version` / `-V`.
    Version,
    /// USI commands to run in order, then exit.
    Commands(Vec<String>),
}

/// Reads the arguments (without the program name).
pub fn parse_args(args: &[String]) -> Invocation {
    match args {
        [] => Invocation::Loop,
        [a] if a == "--help" || a == "-h" => Invocation::Help,
        [a] if a == "--version" || a == "-V" => Invocation::Version,
        _ => Invocation::Commands(group_commands(args)),
    }
}

/// Joins the arguments into commands (see the module documentation).
fn group_commands(args: &[String]) -> Vec<String> {
    let mut commands: Vec<String> = Vec::new();
    let mut open = false;
    for arg in args {
        let arg = arg.trim();
        if arg == "," {
            open = false;
            continue;
        }
        let first = arg.split_whitespace().next().unwrap_or("");
        let continues_position = first == "moves"
            && open
            && commands
                .last()
                .is_some_and(|c| c.starts_with("position ") && !c.contains(" moves"));
        let starts = COMMANDS.contains(&first) && !continues_position;
        match commands.last_mut() {
            Some(last) if open && !starts => {
                last.push(' ');
                last.push_str(arg);
            }
            _ => commands.push(arg.to_string()),
        }
        open = true;
    }
    commands
}

/// The text of `--help`.
pub fn help() -> String {
    format!(
        "Fukayomi {version}: a USI shogi engine for 9x9 shogi, 5x5 minishogi and 3x3 9-masu shogi.

Usage:
  fukayomi                 speak USI on standard input and output (for GUIs and match runners)
  fukayomi COMMAND...      run USI commands in order, then exit; an argument whose first word
                           is a command starts a new command, other arguments continue the
                           previous one, and a lone ',' separates commands
  fukayomi --help          this text
  fukayomi --version       the version

Examples:
  fukayomi bench                               search benchmark (nodes, nodes/s)
  fukayomi \"position startpos\" \"go perft 5\"    perft through the USI shell
  fukayomi position startpos moves 7g7f , go depth 8
  fukayomi \"position sfen 4k/5/5/5/K4 b G 1\" \"go mate 1000\"
  fukayomi solve \"B1k/P1p/K1b b - 1\"            exact value of 9-masu layout No.41

Commands: {commands}.
Beyond USI: d (show the position), moves (list the legal moves), go perft N, bench [depth],
solve [<sfen>] (the exact value of a 3x3 position and of each move).
The engine's options, output and bad-input rules are described in README.md.",
        version = env!("CARGO_PKG_VERSION"),
        commands = COMMANDS.join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(args: &[&str]) -> Vec<String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse_args(&args) {
            Invocation::Commands(c) => c,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn flags_and_the_loop() {
        assert_eq!(parse_args(&[]), Invocation::Loop);
        assert_eq!(parse_args(&["--help".into()]), Invocation::Help);
        assert_eq!(parse_args(&["-h".into()]), Invocation::Help);
        assert_eq!(parse_args(&["--version".into()]), Invocation::Version);
        assert!(help().contains("bench"));
    }

    #[test]
    fn arguments_group_into_commands() {
        assert_eq!(commands(&["bench"]), ["bench"]);
        assert_eq!(
            commands(&["position startpos", "go perft 5"]),
            ["position startpos", "go perft 5"]
        );
        assert_eq!(commands(&["go", "depth", "5"]), ["go depth 5"]);
        assert_eq!(
            commands(&["position", "startpos", "moves", "7g7f", "go", "depth", "3"]),
            ["position startpos moves 7g7f", "go depth 3"]
        );
        assert_eq!(
            commands(&["position startpos moves 7g7f", "moves"]),
            ["position startpos moves 7g7f", "moves"]
        );
        assert_eq!(commands(&["bench", ",", "quit"]), ["bench", "quit"]);
        assert_eq!(commands(&["bench", "3", ",", "d"]), ["bench 3", "d"]);
        assert_eq!(commands(&["nonsense", "d"]), ["nonsense", "d"]);
    }
}
