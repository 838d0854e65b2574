//! The exact solver through the USI shell: `go` on a 3x3 position answers
//! with exact scores and a value-keeping move, `MultiPV` shows every move's
//! value, and the `solve` command reports a position's value.

mod usi_support;

use std::time::Duration;
use usi_support::{Engine, errors};

const SOLVE_WAIT: Duration = Duration::from_secs(60);

fn score_of(line: &str) -> &str {
    let rest = line.split(" score ").nth(1).expect("a score");
    let mut words = rest.split_whitespace();
    let kind = words.next().unwrap();
    let value = words.next().unwrap();
    &rest[..kind.len() + 1 + value.len()]
}

#[test]
fn go_on_3x3_plays_the_longest_defence_with_an_exact_score() {
    let mut e = Engine::spawn();
    e.handshake();
    // No.41: every sente move loses; 3c2c lasts longest (30 plies).
    e.send("position sfen B1k/P1p/K1b b - 1");
    e.send("go btime 0 wtime 0 byoyomi 20000");
    let lines = e.until_bestmove(SOLVE_WAIT);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(score_of(info), "mate -30", "{info}");
    assert!(info.contains(" pv 3c2c "), "{info}");
    assert!(
        lines.last().unwrap().starts_with("bestmove 3c2c ponder "),
        "{lines:?}"
    );

    // Gote's answer after 3c2c reuses the table (same game): a win in 29.
    e.send("position sfen B1k/P1p/K1b b - 1 moves 3c2c");
    e.send("setoption name MultiPV value 10");
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let lines = e.until_bestmove(SOLVE_WAIT);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    // One line per legal move, the best last as multipv 1.
    let moves = {
        e.send("moves");
        e.recv(SOLVE_WAIT).unwrap()
    };
    assert_eq!(
        infos.len(),
        moves.split_whitespace().count(),
        "{infos:?} {moves}"
    );
    let best = infos.last().unwrap();
    assert!(best.contains(" multipv 1 "), "{best}");
    assert_eq!(score_of(best), "mate 29", "{best}");
    assert!(
        infos
            .iter()
            .all(|l| l.contains(" score mate ") || l.contains(" score cp 0 "))
    );
    let played = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(best.contains(&format!(" pv {played}")), "{best}");
}

#[test]
fn go_on_a_drawn_3x3_position_scores_cp_0() {
    let mut e = Engine::spawn();
    e.handshake();
    e.send("position sfen 2k/3/K2 b - 1");
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let lines = e.until_bestmove(SOLVE_WAIT);
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(score_of(info), "cp 0", "{info}");
}

#[test]
fn go_infinite_on_3x3_waits_for_stop() {
    let mut e = Engine::spawn();
    e.handshake();
    e.send("position sfen 2k/3/K2 b S 1");
    e.send("go infinite");
    let early = e.drain(Duration::from_millis(500));
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("stop");
    let lines = e.until_bestmove(SOLVE_WAIT);
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(score_of(info), "mate 3", "{info}");
}

#[test]
fn solve_command_reports_values_and_a_line() {
    let mut e = Engine::spawn();
    e.handshake();
    e.send("solve sfen 2k/3/K2 b S 1");
    e.send("solve B1k/P1p/K1b b - 1 moves 3c2c");
    e.send("solve 5/5/5/5/5 b - 1");
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    let text = lines.join("\n");
    assert!(
        text.contains(
            "info string value win in 3 for the side to move (sente wins in 3), score mate 3"
        ),
        "{text}"
    );
    assert!(
        text.contains("info string move 3c2c win in 3 score mate 3"),
        "{text}"
    );
    assert!(
        text.contains("info string value win in 29 for the side to move (gote wins in 29)"),
        "{text}"
    );
    assert!(text.contains("info string positions "), "{text}");
    assert!(text.contains("info string pv 1a2a "), "{text}");
    assert_eq!(errors(&lines).len(), 1, "{text}");
    // Bad input changes nothing: the current position is still the start.
    assert!(e.sfen().starts_with("lnsgkgsnl/"));
}

#[test]
fn a_solve_too_slow_for_one_move_serves_the_next_ones() {
    let mut e = Engine::spawn();
    e.handshake();
    // A 30 ms move cannot wait for No.41's solve (about a second): the
    // search plays it while the solve goes on; a later `go` is exact.
    e.send("position sfen B1k/P1p/K1b b - 1 moves 3c2c");
    let mut searched = 0;
    let mut exact = None;
    for _ in 0..100 {
        e.send("go btime 0 wtime 0 byoyomi 30");
        let lines = e.until_bestmove(SOLVE_WAIT);
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        if info.contains(" nodes 689746 ") {
            exact = Some(info.clone());
            break;
        }
        searched += 1;
        std::thread::sleep(Duration::from_millis(200));
    }
    let exact = exact.expect("the table was never used");
    assert!(searched >= 1, "the first move waited for the whole solve");
    assert_eq!(score_of(&exact), "mate 29", "{exact}");
}
