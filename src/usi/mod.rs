//! The USI shell (minimal for now: `usi`, `isready`, `position`, `go perft`,
//! `d`, `quit`).

use crate::game::Game;
use crate::perft;
use crate::rules::BoardKind;
use crate::sfen;
use std::io::{BufRead, Write};
use std::time::Instant;

/// Reads USI commands from `input` until `quit` or end of input.
pub fn run(input: impl BufRead, mut output: impl Write) {
    let mut game =
        Game::new(sfen::parse_sfen(BoardKind::Standard.start_sfen()).expect("start sfen"));
    for line in input.split(b'\n') {
        let Ok(bytes) = line else { break };
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim();
        log::debug!("<< {line}");
        let mut words = line.split_whitespace();
        let reply = match words.next() {
            Some("usi") => format!(
                "id name Fukayomi {}\nid author the Fukayomi developers\nusiok",
                env!("CARGO_PKG_VERSION")
            ),
            Some("isready") => "readyok".to_string(),
            Some("quit") => break,
            Some("position") => match parse_position(&line["position".len()..]) {
                Ok(g) => {
                    game = g;
                    continue;
                }
                Err(e) => format!("info string error: {e}"),
            },
            Some("go") if words.next() == Some("perft") => {
                match words.next().and_then(|d| d.parse::<u32>().ok()) {
                    Some(depth) => go_perft(&game, depth),
                    None => "info string error: go perft needs a depth".to_string(),
                }
            }
            Some("d") => sfen::to_sfen(game.position()),
            Some(other) => format!(
                "info string error: unknown command '{}'",
                sfen::printable(other)
            ),
            None => continue,
        };
        log::debug!(">> {reply}");
        if writeln!(output, "{reply}")
            .and_then(|_| output.flush())
            .is_err()
        {
            break;
        }
    }
}

fn go_perft(game: &Game, depth: u32) -> String {
    let start = Instant::now();
    let mut out = String::new();
    let mut total = 0;
    for (m, n) in perft::divide(game.position(), depth) {
        out.push_str(&format!("{m}: {n}\n"));
        total += n;
    }
    let ms = start.elapsed().as_millis().max(1);
    out.push_str(&format!(
        "info string time {ms} ms, {} nodes/s\n",
        total as u128 * 1000 / ms
    ));
    out.push_str(&format!("Nodes searched: {total}"));
    out
}

fn parse_position(args: &str) -> Result<Game, String> {
    let args = args.trim();
    let (sfen_text, moves) = match args.find("moves") {
        Some(i) => (args[..i].trim(), args[i + "moves".len()..].trim()),
        None => (args, ""),
    };
    let start = if sfen_text == "startpos" {
        sfen::parse_sfen(BoardKind::Standard.start_sfen())
    } else if let Some(rest) = sfen_text.strip_prefix("sfen") {
        sfen::parse_sfen(rest)
    } else {
        return Err(format!(
            "position needs startpos or sfen, got '{}'",
            sfen::printable(sfen_text)
        ));
    }
    .map_err(|e| e.to_string())?;
    let mut game = Game::new(start);
    for text in moves.split_whitespace() {
        let m = sfen::parse_move(game.position(), text).map_err(|e| e.to_string())?;
        game.play(m);
    }
    Ok(game)
}
