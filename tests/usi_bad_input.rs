//! Bad input over pipes: every malformed line gets exactly one
//! `info string error: ...` line and changes nothing.

mod usi_support;

use std::time::Duration;
use usi_support::{Engine, PATIENCE, count, errors};

const AFTER_TWO: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";

/// Sends `bad` (raw bytes, newline added) and checks: exactly one error line
/// containing `needle`, nothing else, and the position unchanged.
fn rejects(e: &mut Engine, bad: &[u8], needle: &str) {
    let before = e.sfen();
    let mut line = bad.to_vec();
    line.push(b'\n');
    e.send_bytes(&line);
    let lines = e.sync();
    assert_eq!(
        lines.len(),
        1,
        "{:?}: expected one error line, got {lines:?}",
        String::from_utf8_lossy(bad)
    );
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        lines[0].contains(needle),
        "{:?}: '{}' does not mention '{needle}'",
        String::from_utf8_lossy(bad),
        lines[0]
    );
    assert!(lines[0].len() < 400, "error line too long: {}", lines[0]);
    assert_eq!(
        e.sfen(),
        before,
        "state changed by {:?}",
        String::from_utf8_lossy(bad)
    );
}

fn engine_at_two_moves() -> Engine {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f 3c3d");
    assert_eq!(e.sfen(), AFTER_TWO);
    e
}

#[test]
fn garbage_empty_binary_and_invalid_utf8() {
    let mut e = engine_at_two_moves();
    rejects(&mut e, b"hello world", "unknown command 'hello'");
    rejects(&mut e, b"", "empty command");
    rejects(&mut e, b"   \t ", "empty command");
    rejects(&mut e, b"\x00\x01\x02\x03", "control character 0x00");
    rejects(&mut e, b"isready\x07", "control character 0x07");
    rejects(&mut e, b"\xff\xfe\xfd", "not valid UTF-8");
    rejects(
        &mut e,
        b"position startpos moves \xc3\x28",
        "not valid UTF-8",
    );
    rejects(
        &mut e,
        "\u{5c06}\u{68cb}".as_bytes(),
        "unknown command '??'",
    );
    rejects(&mut e, b"USI", "unknown command 'USI'");
    rejects(&mut e, b"isready now", "takes no arguments");
    rejects(&mut e, b"quit please", "takes no arguments");
    rejects(&mut e, b"gameover maybe", "win, lose or draw");
}

#[test]
fn huge_lines() {
    let mut e = engine_at_two_moves();
    let mut big = b"position startpos moves".to_vec();
    while big.len() < 1 << 20 {
        big.extend_from_slice(b" 7g7f");
    }
    rejects(&mut e, &big, "line too long");
    rejects(&mut e, &vec![b'x'; 3 << 20], "line too long");
    // A long but legal line (a 200-ply repetition dance) is fine.
    let mut long = String::from("position startpos moves");
    for _ in 0..50 {
        long.push_str(" 5i5h 5a5b 5h5i 5b5a");
    }
    e.send(&long);
    assert!(e.sync().is_empty());
    assert_eq!(
        e.sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 201"
    );
}

#[test]
fn bad_positions_leave_the_previous_one() {
    let mut e = engine_at_two_moves();
    rejects(&mut e, b"position", "missing startpos or sfen");
    rejects(&mut e, b"position begin", "expected startpos or sfen");
    rejects(&mut e, b"position sfen", "needs a position");
    rejects(&mut e, b"position sfen moves 7g7f", "needs a position");
    rejects(&mut e, b"position startpos 7g7f", "expected 'moves'");
    rejects(&mut e, b"position sfen 9/9/9 b - 1", "bad sfen (board)");
    rejects(
        &mut e,
        b"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "bad sfen (side)",
    );
    rejects(
        &mut e,
        b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
        "bad sfen (hands)",
    );
    rejects(
        &mut e,
        b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 0",
        "bad sfen (move number)",
    );
    rejects(
        &mut e,
        b"position sfen 4k4/9/9/4P4/4P4/9/9/9/4K4 b - 1",
        "nifu",
    );
    rejects(
        &mut e,
        b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 2",
        "fields",
    );
    // An illegal or malformed move anywhere in the list.
    rejects(
        &mut e,
        b"position startpos moves 7g7e",
        "move 1 of 1: illegal move '7g7e'",
    );
    rejects(
        &mut e,
        b"position startpos moves 7g7f 3c3d 8h2b 8b2b 2b2a",
        "move 5 of 5: illegal",
    );
    rejects(
        &mut e,
        b"position startpos moves 7g7f 3c3d 7f7e 3d3e zz",
        "move 5 of 5: malformed",
    );
    rejects(
        &mut e,
        b"position startpos moves 7g7f 3c3d 7f7e+",
        "move 3 of 3: illegal",
    );
    rejects(
        &mut e,
        b"position startpos moves P*5e",
        "illegal move 'P*5e'",
    );
    rejects(&mut e, b"position startpos moves K*5e", "malformed");
    rejects(
        &mut e,
        b"position startpos moves 7g7f moves 3c3d",
        "malformed move 'moves'",
    );
    // On the small boards, a square beyond the board is named as such.
    rejects(
        &mut e,
        b"position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 6e5d",
        "off the 5x5 board",
    );
}

#[test]
fn bad_go_commands_that_are_not_searches_start_nothing() {
    let mut e = engine_at_two_moves();
    for (bad, needle) in [
        ("go perft", "needs one depth"),
        ("go perft x", "needs one depth"),
        ("go perft 1000", "needs one depth"),
    ] {
        rejects(&mut e, bad.as_bytes(), needle);
    }
    let late = e.drain(Duration::from_millis(300));
    assert_eq!(count(&late, "bestmove"), 0, "{late:?}");
}

/// A `go` with a bad word is still a `go`: each bad word gets its error line,
/// the search runs with the rest, and exactly one final line answers it.
#[test]
fn go_with_a_bad_word_reports_it_and_still_answers_once() {
    let mut e = engine_at_two_moves();
    for (bad, needle, last) in [
        ("go btime depth 2", "btime needs a value", "bestmove"),
        ("go btime ten depth 2", "not a whole number", "bestmove"),
        (
            "go byoyomi 99999999999999999999 depth 2",
            "not a whole number",
            "bestmove",
        ),
        ("go depth -1 nodes 500", "not a depth", "bestmove"),
        ("go nodes -3 depth 2", "not a node count", "bestmove"),
        ("go depth 2 depth 4", "given twice", "bestmove"),
        (
            "go sometime depth 2",
            "unknown parameter 'sometime'",
            "bestmove",
        ),
        ("go depth 2 perft 3", "perft must come first", "bestmove"),
        ("go mate soon", "not a whole number", "checkmate"),
        ("go mate 300 infinite", "cannot be combined", "checkmate"),
    ] {
        e.send(bad);
        let lines = e.until(PATIENCE, |l| l.starts_with(last));
        let errs = errors(&lines);
        assert!(
            !errs.is_empty() && errs[0].contains(needle),
            "{bad}: {lines:?}"
        );
        let after = e.sync();
        assert_eq!(
            count(&lines, last) + count(&after, last),
            1,
            "{bad}: {lines:?} {after:?}"
        );
        assert!(errors(&after).is_empty(), "{bad}: {after:?}");
    }
    // With nothing usable left, `go` is a bare `go`: it thinks until `stop`
    // (or its 10 s) and answers once.
    e.send("go btime x");
    e.send("stop");
    let lines = e.until_bestmove(PATIENCE);
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert_eq!(e.sfen(), AFTER_TWO);
}

#[test]
fn bad_setoption_changes_nothing() {
    let mut e = engine_at_two_moves();
    for (bad, needle) in [
        ("setoption", "missing 'name'"),
        ("setoption name", "missing option name"),
        (
            "setoption name NoSuchThing value 1",
            "unknown option 'NoSuchThing'",
        ),
        ("setoption name USI_Hash", "needs a value"),
        ("setoption name USI_Hash value", "without a value"),
        ("setoption name USI_Hash value 0", "out of range 1..65536"),
        ("setoption name USI_Hash value many", "not an integer"),
        ("setoption name Threads value 100000", "out of range"),
        ("setoption name USI_Ponder value maybe", "not true or false"),
        (
            "setoption name EnteringKingRule value CSARule99",
            "not one of",
        ),
        ("setoption name USI_Variant value chess", "not one of"),
        ("setoption name MultiPV value 1.5", "not an integer"),
    ] {
        rejects(&mut e, bad.as_bytes(), needle);
    }
    // USI_Variant stayed shogi: startpos is still 9x9.
    e.send("position startpos");
    assert!(e.sfen().starts_with("lnsgkgsnl/"));
}

#[test]
fn bad_input_mid_search_changes_nothing() {
    let mut e = engine_at_two_moves();
    e.send("go infinite");
    for bad in [
        &b"position sfen nonsense"[..],
        b"\xff",
        b"go btime x",
        b"setoption name X value 1",
    ] {
        let mut line = bad.to_vec();
        line.push(b'\n');
        e.send_bytes(&line);
    }
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 4, "{lines:?}");
    assert_eq!(count(&lines, "bestmove"), 0);
    e.send("stop");
    e.until_bestmove(PATIENCE);
    assert_eq!(e.sfen(), AFTER_TWO);
}

#[test]
fn end_of_input_without_newline_and_mid_line() {
    let mut e = Engine::spawn();
    e.send_bytes(b"isready");
    e.close_stdin();
    assert_eq!(e.recv(PATIENCE).as_deref(), Some("readyok"));
    let status = e.wait_exit(PATIENCE).expect("exits at end of input");
    assert!(status.success());
}

#[test]
fn closed_stdout_ends_the_engine_quietly() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_fukayomi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"usi\nposition startpos\ngo depth 3\n");
    let _ = stdin.flush();
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(start.elapsed() < PATIENCE, "engine kept running");
        std::thread::sleep(Duration::from_millis(5));
    }
}
