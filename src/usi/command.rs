//! Parsing one input line into a typed [`Command`], with a specific error for
//! anything malformed. Parsing has no side effects; applying a command is the
//! engine loop's business (and [`PositionCommand::build`] for `position`).

use crate::game::Game;
use crate::rules::BoardKind;
use crate::search::Limits;
use crate::sfen::{self, printable};
use std::fmt;

/// Longest input line accepted, in bytes. A `position` command of a
/// 20,000-move game fits; anything longer is rejected (after reading it).
pub const MAX_LINE_BYTES: usize = 128 * 1024;

/// Deepest `go perft` accepted.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// One USI command (and the extras `d`, `moves`, `go perft`, `bench`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `usi`: identify, list the options, `usiok`.
    Usi,
    /// `isready`: prepare (allocate the hash) and answer `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// The value, if given (may contain spaces).
        value: Option<String>,
    },
    /// `usinewgame`.
    UsiNewGame,
    /// `position startpos|sfen ... [moves ...]`.
    Position(PositionCommand),
    /// `go ...` (a search).
    Go(GoCommand),
    /// `go perft <depth>`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit` (any time parameters after it are checked and ignored;
    /// the errors in them do not stop the `ponderhit`).
    PonderHit(Vec<CommandError>),
    /// `gameover [win|lose|draw]`.
    GameOver(Option<GameResult>),
    /// `quit`.
    Quit,
    /// `d`: show the position.
    Display,
    /// `moves`: list the legal moves.
    Moves,
    /// `bench [depth]` (0 = the search's default depth).
    Bench(u32),
    /// A line starting with `#`: a comment in a script, ignored.
    Comment,
    /// `solve [sfen] <sfen> [moves ...]` or `solve`: solve a 3x3 position
    /// exactly (the current one when none is given).
    Solve(Option<PositionCommand>),
}

/// A `go` command as typed. Every `go` is answered, so parsing it never
/// fails: a parameter that cannot be used is reported in `errors` and left
/// out, and the search runs with the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// The limits (without `search_moves`, which need the position).
    pub limits: Limits,
    /// The words after `searchmoves`, checked against the position when the
    /// search starts.
    pub search_moves: Vec<String>,
    /// What was left out, and why.
    pub errors: Vec<CommandError>,
}

/// The result word of `gameover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The engine won.
    Win,
    /// The engine lost.
    Lose,
    /// Draw.
    Draw,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the start of the board chosen by `USI_Variant`.
    StartPos,
    /// `sfen <sfen>` (the SFEN's fields joined by single spaces).
    Sfen(String),
}

/// A parsed `position` command (moves not yet checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The starting position.
    pub start: Start,
    /// The moves after it, as written.
    pub moves: Vec<String>,
}

impl PositionCommand {
    /// Builds the game: parses the SFEN (or the start position of `variant`)
    /// and plays every move, each checked for legality.
    pub fn build(&self, variant: BoardKind) -> Result<Game, CommandError> {
        let start = match &self.start {
            Start::StartPos => sfen::parse_sfen(variant.start_sfen()),
            Start::Sfen(text) => sfen::parse_sfen(text),
        }
        .map_err(|e| CommandError::new(format!("position: {e}")))?;
        let mut game = Game::new(start);
        for (i, text) in self.moves.iter().enumerate() {
            let m = sfen::parse_move(game.position(), text).map_err(|e| {
                CommandError::new(format!(
                    "position: move {} of {}: {e}",
                    i + 1,
                    self.moves.len()
                ))
            })?;
            game.play(m);
        }
        Ok(game)
    }
}

/// Why a line was rejected (the text after `info string error: `).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError(pub String);

impl CommandError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> CommandError {
        CommandError(message.into())
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandError {}

fn err<T>(message: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError::new(message))
}

/// Parses a raw input line (without its newline). `total_len` is the line's
/// full length when it was longer than what was kept (see [`MAX_LINE_BYTES`]).
pub fn parse_bytes(bytes: &[u8], total_len: usize) -> Result<Command, CommandError> {
    if total_len > MAX_LINE_BYTES {
        return err(format!(
            "line too long ({total_len} bytes; the limit is {MAX_LINE_BYTES})"
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        CommandError::new(format!(
            "line is not valid UTF-8 (bad byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    if let Some((i, c)) = text
        .char_indices()
        .find(|(_, c)| c.is_control() && !matches!(c, '\t' | '\r'))
    {
        return err(format!(
            "line contains control character 0x{:02x} at offset {i}",
            c as u32
        ));
    }
    parse(text)
}

/// Whether a raw line is a command that acts on a running job at once
/// (`quit`, `stop`, `ponderhit`, `gameover`) and so never waits behind one.
pub fn is_control(bytes: &[u8]) -> bool {
    matches!(
        parse_bytes(bytes, bytes.len()),
        Ok(Command::Quit | Command::Stop | Command::PonderHit(_) | Command::GameOver(_))
    )
}

/// The first words of the commands, in the order they are listed to users.
pub const COMMANDS: &[&str] = &[
    "usi",
    "isready",
    "setoption",
    "usinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "gameover",
    "quit",
    "d",
    "moves",
    "bench",
    "solve",
];

/// Parses one line of text.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    // A script saved with a byte-order mark still starts with a command.
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, args)) = words.split_first() else {
        return err(format!(
            "empty command (the commands are {})",
            COMMANDS.join(", ")
        ));
    };
    if head.starts_with('#') {
        return Ok(Command::Comment);
    }
    let no_args = |cmd: Command| -> Result<Command, CommandError> {
        match args.first() {
            None => Ok(cmd),
            Some(extra) => err(format!(
                "{head} takes no arguments, got '{}'",
                printable(extra)
            )),
        }
    };
    match head {
        "usi" => no_args(Command::Usi),
        "isready" => no_args(Command::IsReady),
        "usinewgame" => no_args(Command::UsiNewGame),
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "moves" => no_args(Command::Moves),
        "setoption" => parse_setoption(line),
        "position" => parse_position(args).map(Command::Position),
        "go" => parse_go(args),
        // YaneuraOu's extension `ponderhit btime .. wtime ..` is accepted;
        // the times are checked but not used.
        "ponderhit" => Ok(Command::PonderHit(
            parse_go_parameters("ponderhit", args).errors,
        )),
        "gameover" => match args {
            [] => Ok(Command::GameOver(None)),
            ["win"] => Ok(Command::GameOver(Some(GameResult::Win))),
            ["lose"] => Ok(Command::GameOver(Some(GameResult::Lose))),
            ["draw"] => Ok(Command::GameOver(Some(GameResult::Draw))),
            _ => err(format!(
                "gameover takes win, lose or draw, got '{}'",
                printable(&args.join(" "))
            )),
        },
        "bench" => match args {
            [] => Ok(Command::Bench(0)),
            [d] => d
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
                .map(Command::Bench)
                .ok_or_else(|| {
                    CommandError::new(format!(
                        "bench takes an optional depth from 1 to {MAX_PERFT_DEPTH}, got '{}'",
                        printable(d)
                    ))
                }),
            _ => err("bench takes at most one argument (the depth)"),
        },
        "solve" => parse_solve(args),
        other => err(format!(
            "unknown command '{}' (the commands are {})",
            printable(other),
            COMMANDS.join(", ")
        )),
    }
}

/// `setoption name <name...> [value <value...>]`: the name runs up to the
/// word `value`; the value is the rest of the line (spaces kept inside).
fn parse_setoption(line: &str) -> Result<Command, CommandError> {
    let usage = "usage: setoption name <name> [value <value>]";
    let rest = line.trim_start()["setoption".len()..].trim();
    let Some(rest) = strip_word(rest, "name") else {
        return err(format!("setoption: missing 'name' ({usage})"));
    };
    let (name, value) = match find_word(rest, "value") {
        Some(i) => (rest[..i].trim(), Some(rest[i + "value".len()..].trim())),
        None => (rest.trim(), None),
    };
    if name.is_empty() {
        return err(format!("setoption: missing option name ({usage})"));
    }
    if value == Some("") {
        return err(format!(
            "setoption: 'value' without a value for {} ({usage})",
            printable(name)
        ));
    }
    Ok(Command::SetOption {
        name: name.split_whitespace().collect::<Vec<_>>().join(" "),
        value: value.map(str::to_string),
    })
}

/// `text` without its first word if that word is `word`.
fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(word)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// Byte offset of the first whole word `word` in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut offset = 0;
    for piece in text.split_inclusive(char::is_whitespace) {
        if piece.trim_end() == word {
            return Some(offset);
        }
        offset += piece.len();
    }
    None
}

fn parse_position(args: &[&str]) -> Result<PositionCommand, CommandError> {
    let usage = "usage: position startpos|sfen <sfen> [moves <move>...]";
    let (start, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (Start::StartPos, rest),
        Some((&"sfen", rest)) => {
            let n = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            if n == 0 {
                return err(format!("position: sfen needs a position ({usage})"));
            }
            (Start::Sfen(rest[..n].join(" ")), &rest[n..])
        }
        Some((other, _)) => {
            return err(format!(
                "position: expected startpos or sfen, got '{}' ({usage})",
                printable(other)
            ));
        }
        None => return err(format!("position: missing startpos or sfen ({usage})")),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|s| s.to_string()).collect(),
        Some((other, _)) => {
            return err(format!(
                "position: expected 'moves' after the start position, got '{}' ({usage})",
                printable(other)
            ));
        }
    };
    Ok(PositionCommand { start, moves })
}

/// `solve`, `solve sfen <sfen> [moves ...]`, `solve startpos [moves ...]`
/// or `solve <sfen> [moves ...]` (the word `sfen` left out).
fn parse_solve(args: &[&str]) -> Result<Command, CommandError> {
    match args.first() {
        None => Ok(Command::Solve(None)),
        Some(&"sfen" | &"startpos") => parse_position(args)
            .map(|p| Command::Solve(Some(p)))
            .map_err(|e| {
                CommandError::new(format!("solve: {}", e.0.trim_start_matches("position: ")))
            }),
        Some(_) => {
            let mut with_word = vec!["sfen"];
            with_word.extend_from_slice(args);
            parse_solve(&with_word)
        }
    }
}

fn parse_go(args: &[&str]) -> Result<Command, CommandError> {
    if let Some((&"perft", rest)) = args.split_first() {
        let depth = match rest {
            [d] => d
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d)),
            _ => None,
        };
        return depth.map(Command::Perft).ok_or_else(|| {
            CommandError::new(format!(
                "go perft needs one depth from 1 to {MAX_PERFT_DEPTH}, got '{}'",
                printable(&rest.join(" "))
            ))
        });
    }
    Ok(Command::Go(parse_go_parameters("go", args)))
}

/// The words that start a parameter of `go` (or of `ponderhit`).
const GO_PARAMETERS: &[&str] = &[
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
];

/// Parses `go`-style parameters of `command` (`go`, or `ponderhit` with its
/// optional times). A parameter that is unknown, repeated, lacks its value
/// or has a bad one is reported (errors name `command`) and left out; the
/// rest stands. `mate` takes an optional value (bare `mate` = `infinite`);
/// `searchmoves` takes every word after it.
fn parse_go_parameters(command: &str, args: &[&str]) -> GoCommand {
    let mut go = GoCommand::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut words = args.iter().copied().peekable();
    while let Some(word) = words.next() {
        let repeated = seen.contains(&word);
        // The value of a parameter that takes one: the next word, unless
        // that is the next parameter.
        let value = match word {
            "infinite" | "ponder" | "searchmoves" => None,
            "mate" => words.next_if(|w| *w == "infinite" || !GO_PARAMETERS.contains(w)),
            _ if GO_PARAMETERS.contains(&word) => {
                match words.next_if(|w| !GO_PARAMETERS.contains(w)) {
                    Some(v) => Some(v),
                    None => {
                        go.errors.push(CommandError::new(format!(
                            "{command}: {word} needs a value; ignored"
                        )));
                        continue;
                    }
                }
            }
            _ => None,
        };
        if repeated {
            go.errors.push(CommandError::new(format!(
                "{command}: {} given twice; the first is used",
                printable(word)
            )));
            continue;
        }
        if word == "searchmoves" {
            go.search_moves = words.by_ref().map(str::to_string).collect();
            if go.search_moves.is_empty() {
                go.errors.push(CommandError::new(format!(
                    "{command}: searchmoves lists no move; every move is searched"
                )));
            }
        } else if let Err(e) = set_parameter(&mut go.limits, command, word, value) {
            go.errors.push(e);
            continue;
        }
        seen.push(word);
    }
    let limits = &mut go.limits;
    if limits.mate.is_some() && (limits.infinite || limits.ponder) {
        go.errors.push(CommandError::new(format!(
            "{command}: mate cannot be combined with infinite or ponder; they are ignored"
        )));
        limits.infinite = false;
        limits.ponder = false;
    }
    go
}

/// Sets one parameter of `limits` from its word and value.
fn set_parameter(
    limits: &mut Limits,
    command: &str,
    word: &str,
    value: Option<&str>,
) -> Result<(), CommandError> {
    let v = value.unwrap_or_default();
    match word {
        "infinite" => limits.infinite = true,
        "ponder" => limits.ponder = true,
        "btime" => limits.btime = Some(parse_ms(command, word, v)?),
        "wtime" => limits.wtime = Some(parse_ms(command, word, v)?),
        "binc" => limits.binc = Some(parse_ms(command, word, v)?),
        "winc" => limits.winc = Some(parse_ms(command, word, v)?),
        "byoyomi" => limits.byoyomi = Some(parse_ms(command, word, v)?),
        "movetime" => limits.movetime = Some(parse_ms(command, word, v)?),
        // 0 asks for the smallest search, which still plays a move.
        "depth" => {
            let d = v.parse::<u32>();
            limits.depth = Some(
                d.map_err(|_| bad_number(command, word, v, "a depth"))?
                    .max(1),
            );
        }
        "nodes" => {
            let n = v.parse::<u64>();
            limits.nodes = Some(
                n.map_err(|_| bad_number(command, word, v, "a node count"))?
                    .max(1),
            );
        }
        "mate" => {
            limits.mate = Some(match value {
                None | Some("infinite") => None,
                Some(v) => match parse_ms(command, word, v) {
                    Ok(ms) => Some(ms),
                    Err(e) => {
                        // Still a mate search: a bare `go mate` is `go mate infinite`.
                        limits.mate = Some(None);
                        return Err(CommandError::new(format!("{e}; searching without a limit")));
                    }
                },
            })
        }
        "perft" => {
            return err(format!(
                "{command}: perft must come first (go perft <depth>); ignored"
            ));
        }
        other => {
            return err(format!(
                "{command}: unknown parameter '{}' (expected btime, wtime, binc, winc, byoyomi, movetime, depth, nodes, infinite, ponder, mate, searchmoves or perft); ignored",
                printable(other)
            ));
        }
    }
    Ok(())
}

fn bad_number(command: &str, word: &str, value: &str, expected: &str) -> CommandError {
    CommandError::new(format!(
        "{command}: {word} '{}' is not {expected}; ignored",
        printable(value)
    ))
}

/// Milliseconds: a non-negative integer. A negative time (some GUIs send one
/// when a clock has run over) counts as 0.
fn parse_ms(command: &str, word: &str, value: &str) -> Result<u64, CommandError> {
    let n: i64 = value
        .parse()
        .map_err(|_| bad_number(command, word, value, "a whole number of milliseconds"))?;
    Ok(n.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn bad(line: &str, needle: &str) {
        let e = parse(line).expect_err(line);
        assert!(e.0.contains(needle), "{line}: {e}");
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("usi"), Command::Usi);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("gameover"), Command::GameOver(None));
        assert_eq!(
            ok("gameover lose"),
            Command::GameOver(Some(GameResult::Lose))
        );
        assert_eq!(ok("ponderhit"), Command::PonderHit(vec![]));
        assert_eq!(
            ok("ponderhit btime 1000 wtime 1000"),
            Command::PonderHit(vec![])
        );
        assert_eq!(ok("# a comment"), Command::Comment);
        bad("", "empty");
        bad("   ", "empty");
        bad("stop now", "no arguments");
        bad("gameover maybe", "win, lose or draw");
        bad("fly", "unknown command");
        assert_eq!(ok("bench"), Command::Bench(0));
        assert_eq!(ok("bench 5"), Command::Bench(5));
        bad("bench x", "optional depth");
        bad("bench 1 2", "at most one");
    }

    #[test]
    fn setoption() {
        assert_eq!(
            ok("setoption name USI_Hash value 256"),
            Command::SetOption {
                name: "USI_Hash".into(),
                value: Some("256".into())
            }
        );
        assert_eq!(
            ok("setoption name Book File value my  book.db"),
            Command::SetOption {
                name: "Book File".into(),
                value: Some("my  book.db".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear"),
            Command::SetOption {
                name: "Clear".into(),
                value: None
            }
        );
        bad("setoption", "missing 'name'");
        bad("setoption name", "missing option name");
        bad("setoption name value 3", "missing option name");
        bad("setoption name X value", "without a value");
        bad("setoption nameX value 3", "missing 'name'");
    }

    #[test]
    fn position() {
        assert_eq!(
            ok("position startpos moves 7g7f 3c3d"),
            Command::Position(PositionCommand {
                start: Start::StartPos,
                moves: vec!["7g7f".into(), "3c3d".into()]
            })
        );
        assert_eq!(
            ok("position sfen bk1/3/1KB b Pp 1 moves"),
            Command::Position(PositionCommand {
                start: Start::Sfen("bk1/3/1KB b Pp 1".into()),
                moves: vec![]
            })
        );
        bad("position", "missing startpos");
        bad("position sfen", "needs a position");
        bad("position sfen moves 7g7f", "needs a position");
        bad("position startpos 7g7f", "expected 'moves'");
        bad("position start", "expected startpos or sfen");
    }

    #[test]
    fn position_build_errors_are_specific() {
        let build = |line: &str| match ok(line) {
            Command::Position(p) => p.build(BoardKind::Standard),
            _ => unreachable!(),
        };
        assert!(build("position startpos moves 7g7f 3c3d").is_ok());
        let e = build("position startpos moves 7g7f 3c3d 7g7f").unwrap_err();
        assert!(
            e.0.contains("move 3 of 3") && e.0.contains("illegal"),
            "{e}"
        );
        let e = build("position startpos moves 7g7f xx").unwrap_err();
        assert!(
            e.0.contains("move 2 of 2") && e.0.contains("malformed"),
            "{e}"
        );
        let e = build("position sfen 9/9 b - 1").unwrap_err();
        assert!(e.0.contains("bad sfen (board)"), "{e}");
        let mini = match ok("position startpos moves 5d5c") {
            Command::Position(p) => p.build(BoardKind::Mini).unwrap(),
            _ => unreachable!(),
        };
        assert_eq!(mini.position().kind(), BoardKind::Mini);
    }

    /// The limits of a `go` line that parses without an error.
    fn go_ok(line: &str) -> Limits {
        match ok(line) {
            Command::Go(go) if go.errors.is_empty() && go.search_moves.is_empty() => go.limits,
            other => panic!("{line}: {other:?}"),
        }
    }

    /// A `go` line with one bad part: its error, and the limits that stand.
    fn go_bad(line: &str, needle: &str) -> Limits {
        let Command::Go(go) = ok(line) else {
            panic!("{line}: not a go")
        };
        assert_eq!(go.errors.len(), 1, "{line}: {:?}", go.errors);
        assert!(go.errors[0].0.contains(needle), "{line}: {:?}", go.errors);
        go.limits
    }

    #[test]
    fn go() {
        let l = go_ok("go btime 1000 wtime 2000 byoyomi 100");
        assert_eq!(
            (l.btime, l.wtime, l.byoyomi),
            (Some(1000), Some(2000), Some(100))
        );
        let l = go_ok("go ponder binc 10 winc 20 btime -5 wtime 0");
        assert!(l.ponder);
        assert_eq!((l.btime, l.binc, l.winc), (Some(0), Some(10), Some(20)));
        assert_eq!(go_ok("go mate infinite").mate, Some(None));
        assert_eq!(go_ok("go mate 3000").mate, Some(Some(3000)));
        // A bare `go mate` is `go mate infinite`, also before another parameter.
        assert_eq!(go_ok("go mate").mate, Some(None));
        assert_eq!(go_ok("go mate depth 5").mate, Some(None));
        assert_eq!(go_ok("go"), Limits::default());
        assert_eq!(ok("go perft 3"), Command::Perft(3));
        bad("go perft", "needs one depth");
        bad("go perft 0", "needs one depth");
        bad("go perft 3 4", "needs one depth");
        // 0 asks for the smallest search: still a search, still a bestmove.
        assert_eq!(go_ok("go depth 0").depth, Some(1));
        assert_eq!(go_ok("go nodes 0").nodes, Some(1));
        assert_eq!(ok("\u{feff}usi"), Command::Usi);
    }

    #[test]
    fn go_with_a_bad_part_keeps_the_rest() {
        assert_eq!(go_bad("go btime", "needs a value"), Limits::default());
        let l = go_bad("go btime byoyomi 100", "btime needs a value");
        assert_eq!((l.btime, l.byoyomi), (None, Some(100)));
        let l = go_bad("go btime x wtime 5", "not a whole number");
        assert_eq!((l.btime, l.wtime), (None, Some(5)));
        go_bad("go btime 99999999999999999999999", "not a whole number");
        go_bad("go depth -1", "not a depth");
        go_bad("go nodes 1.5", "node count");
        assert_eq!(go_bad("go btime 1 btime 2", "twice").btime, Some(1));
        let l = go_bad("go fast depth 3", "unknown parameter 'fast'");
        assert_eq!(l.depth, Some(3));
        let l = go_bad("go mate soon", "not a whole number");
        assert_eq!(l.mate, Some(None));
        assert!(go_bad("go infinite perft", "must come first").infinite);
        let l = go_bad("go mate 100 ponder", "cannot be combined");
        assert_eq!((l.mate, l.ponder), (Some(Some(100)), false));
        assert_eq!(ok("ponderhit"), Command::PonderHit(vec![]));
        assert_eq!(
            ok("ponderhit btime 1000 wtime 1000"),
            Command::PonderHit(vec![])
        );
        assert!(
            matches!(ok("ponderhit foo"), Command::PonderHit(e) if e.len() == 1 && e[0].0.contains("ponderhit: unknown parameter"))
        );
    }

    #[test]
    fn searchmoves_takes_the_rest_of_the_line() {
        let Command::Go(go) = ok("go movetime 300 searchmoves 2g2f 5i4h") else {
            panic!()
        };
        assert_eq!(go.limits.movetime, Some(300));
        assert_eq!(go.search_moves, ["2g2f", "5i4h"]);
        assert!(go.errors.is_empty());
        let Command::Go(go) = ok("go searchmoves") else {
            panic!()
        };
        assert!(go.search_moves.is_empty());
        assert!(go.errors[0].0.contains("lists no move"), "{:?}", go.errors);
    }

    #[test]
    fn every_listed_command_is_known() {
        for name in COMMANDS {
            if let Err(e) = parse(name) {
                assert!(!e.0.contains("unknown command"), "{name}: {e}");
            }
        }
    }

    #[test]
    fn raw_bytes() {
        assert!(parse_bytes(b"usi", 3).is_ok());
        let e = parse_bytes(b"usi\xff", 4).unwrap_err();
        assert!(e.0.contains("UTF-8"), "{e}");
        let e = parse_bytes(b"is\0ready", 8).unwrap_err();
        assert!(e.0.contains("control character 0x00"), "{e}");
        let e = parse_bytes(b"usi", MAX_LINE_BYTES + 1).unwrap_err();
        assert!(e.0.contains("too long"), "{e}");
    }

    #[test]
    fn solve_command() {
        assert_eq!(ok("solve"), Command::Solve(None));
        let sfen = |text: &str, moves: &[&str]| {
            Command::Solve(Some(PositionCommand {
                start: Start::Sfen(text.to_string()),
                moves: moves.iter().map(|m| m.to_string()).collect(),
            }))
        };
        assert_eq!(
            ok("solve sfen B1k/P1p/K1b b - 1"),
            sfen("B1k/P1p/K1b b - 1", &[])
        );
        assert_eq!(
            ok("solve B1k/P1p/K1b b - 1"),
            sfen("B1k/P1p/K1b b - 1", &[])
        );
        assert_eq!(
            ok("solve B1k/P1p/K1b b - 1 moves 3c2c"),
            sfen("B1k/P1p/K1b b - 1", &["3c2c"])
        );
        let e = parse("solve sfen").unwrap_err();
        assert!(e.0.starts_with("solve: sfen needs a position"), "{e}");
    }
}
