//! `go` as match runners and GUIs send it: `searchmoves` restricts the root,
//! a bare `go mate` is `go mate infinite`, and every `go` is answered once.

mod usi_support;

use std::time::Duration;
use usi_support::{Engine, PATIENCE, count, errors};

const MATE_IN_FIVE: &str = "4k4/9/3P1P3/9/9/9/9/9/9 b GS 1";

/// The move of a `bestmove` line.
fn best(lines: &[String]) -> String {
    let last = lines.last().expect("a final line");
    assert!(last.starts_with("bestmove "), "{lines:?}");
    last.split_whitespace().nth(1).unwrap().to_string()
}

/// Sends `go`, waits for its `bestmove`, and checks no second one follows.
fn go(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    let lines = e.until_bestmove(PATIENCE);
    let after = e.sync();
    assert_eq!(count(&after, "bestmove"), 0, "{line}: {after:?}");
    lines
}

/// The first move of each `pv` in `info` lines.
fn pv_heads(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.split(" pv ").nth(1))
        .filter_map(|pv| pv.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::spawn();
    e.handshake();
    e.send("position startpos");
    // One move: it is played, also where a search would prefer another.
    let lines = go(&mut e, "go depth 4 searchmoves 1g1f");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(best(&lines), "1g1f");
    assert!(pv_heads(&lines).iter().all(|m| m == "1g1f"), "{lines:?}");
    // Several, with a time limit as shogiarena sends it.
    let lines = go(&mut e, "go movetime 300 searchmoves 2g2f 5i4h");
    assert!(
        ["2g2f", "5i4h"].contains(&best(&lines).as_str()),
        "{lines:?}"
    );
    assert!(pv_heads(&lines).iter().all(|m| m == "2g2f" || m == "5i4h"));
}

#[test]
fn searchmoves_with_multipv_shows_only_the_listed_moves() {
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 5");
    e.send("position startpos");
    let lines = go(&mut e, "go depth 3 searchmoves 7g7f 2g2f 9g9f");
    let heads = pv_heads(&lines);
    for m in ["7g7f", "2g2f", "9g9f"] {
        assert!(heads.contains(&m.to_string()), "{m}: {lines:?}");
    }
    assert!(
        heads
            .iter()
            .all(|m| ["7g7f", "2g2f", "9g9f"].contains(&m.as_str()))
    );
    assert!(lines.iter().all(|l| !l.contains("multipv 4")), "{lines:?}");
}

#[test]
fn searchmoves_leaves_out_bad_entries_and_falls_back_to_all() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    // Illegal and malformed entries are reported and left out.
    let lines = go(&mut e, "go depth 3 searchmoves 7g7f 7g7e xx 2g2f");
    assert_eq!(errors(&lines).len(), 2, "{lines:?}");
    assert!(errors(&lines)[0].contains("7g7e"), "{lines:?}");
    assert!(errors(&lines)[1].contains("xx"), "{lines:?}");
    assert!(
        ["7g7f", "2g2f"].contains(&best(&lines).as_str()),
        "{lines:?}"
    );
    // None left: every move is searched, and the engine still answers.
    let lines = go(&mut e, "go depth 3 searchmoves 5e5d P*5e");
    assert_eq!(errors(&lines).len(), 3, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("every move is searched")));
    assert_eq!(best(&lines).len(), 4, "{lines:?}");
}

#[test]
fn searchmoves_with_infinite_and_ponder() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f");
    e.send("go infinite searchmoves 8c8d");
    assert!(
        e.drain(Duration::from_millis(200))
            .iter()
            .all(|l| !l.starts_with("bestmove"))
    );
    e.send("stop");
    assert_eq!(best(&e.until_bestmove(PATIENCE)), "8c8d");
    e.send("go ponder btime 0 wtime 0 byoyomi 100 searchmoves 4a3b");
    e.send("ponderhit");
    assert_eq!(best(&e.until_bestmove(PATIENCE)), "4a3b");
}

#[test]
fn bare_go_mate_is_go_mate_infinite() {
    let mut e = Engine::spawn();
    e.send(&format!("position sfen {MATE_IN_FIVE}"));
    e.send("go mate");
    let lines = e.until(PATIENCE, |l| l.starts_with("checkmate"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let answer = lines.last().unwrap();
    assert_eq!(
        answer.split_whitespace().count(),
        6,
        "a 5-ply mate: {answer}"
    );
    // Before the line: the shortening's finding, proven here (no mate of
    // three plies exists).
    let shortest = "info string shortest mate found: 5 plies, every interposition counted \
                    (no shorter mate exists)";
    assert!(lines.iter().any(|l| l == shortest), "{lines:?}");
    let after = e.sync();
    assert_eq!(count(&after, "checkmate") + count(&after, "bestmove"), 0);
}

/// The command line: arguments are USI commands, run in order; then the
/// program exits.
#[test]
fn command_line_arguments_run_as_commands() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fukayomi"))
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run fukayomi");
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).expect("ASCII output")
    };
    assert!(run(&["--version"]).starts_with("fukayomi "));
    assert!(run(&["--help"]).contains("Usage:"));
    let perft = run(&["position startpos", "go perft 3"]);
    assert!(perft.contains("Nodes searched: 25470"), "{perft}");
    let search = run(&[
        "position", "startpos", "moves", "7g7f", ",", "go", "depth", "3",
    ]);
    assert_eq!(
        search.lines().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    let mate = run(&[&format!("position sfen {MATE_IN_FIVE}"), "go mate 5000"]);
    assert!(
        mate.lines()
            .any(|l| l.starts_with("checkmate ") && l.split_whitespace().count() == 6),
        "{mate}"
    );
}
