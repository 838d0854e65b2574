//! `go mate`: tsume problems of 1, 3 and 5 plies on every board, nomate,
//! timeout, and the USI reply through `Searcher::think`.

use crossbeam_channel::unbounded;
use fukayomi::game::Game;
use fukayomi::movegen::{has_legal_move, is_legal, legal_moves};
use fukayomi::moves::MoveList;
use fukayomi::position::Position;
use fukayomi::search::{Control, Limits, MateResult, SearchOptions, Searcher, mate_search};
use fukayomi::sfen::{parse_move, parse_sfen};
use std::time::Duration;

/// Runs `go mate <ms>` and returns the single `checkmate` line.
fn go_mate(sfen: &str, time: Option<u64>) -> String {
    let g = Game::new(parse_sfen(sfen).unwrap());
    let (tx, rx) = unbounded();
    let control = Control::default();
    control.reset(false);
    let limits = Limits {
        mate: Some(time),
        ..Limits::default()
    };
    Searcher::new(1).think(&g, &limits, &SearchOptions::default(), &control, &tx);
    let lines: Vec<String> = rx.try_iter().collect();
    let finals: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(finals.len(), 1, "{lines:?}");
    assert_eq!(lines.last(), Some(finals[0]));
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    finals[0].clone()
}

/// Checks that `line` (a `checkmate` reply) is a legal mating sequence in
/// which every attacker move checks, and returns its length.
fn verify(sfen: &str, line: &str) -> usize {
    let mut pos = parse_sfen(sfen).unwrap();
    let moves: Vec<&str> = line.split_whitespace().skip(1).collect();
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(&pos, text).unwrap_or_else(|e| panic!("{line}: {text}: {e}"));
        assert!(is_legal(&pos, m), "{line}: {text}");
        pos = pos.play(m);
        if i % 2 == 0 {
            assert!(pos.in_check(), "{line}: {text} does not check");
        }
    }
    assert!(!has_legal_move(&pos), "{line} does not end in mate");
    moves.len()
}

#[test]
fn solves_tsume_of_one_three_and_five_plies_on_every_board() {
    let cases = [
        // (sfen, plies)
        ("8k/9/7G1/9/9/9/9/9/9 b G 1", 1),
        ("8k/9/6K2/9/9/9/9/9/9 b SS 1", 3),
        ("8k/9/9/6K2/9/9/9/9/9 b SSG 1", 5),
        ("4k/5/3G1/5/K4 b S 1", 1),
        ("4k/5/2K2/5/5 b SS 1", 3),
        ("3k1/5/5/2K2/5 b SGG 1", 5),
        ("2k/3/K2 b GS 1", 1),
        ("2k/3/K2 b SS 1", 3),
        ("2k/3/K2 b BS 1", 3),
    ];
    for (sfen, plies) in cases {
        let line = go_mate(sfen, Some(5000));
        assert_eq!(verify(sfen, &line), plies, "{sfen}: {line}");
    }
}

#[test]
fn tsume_without_the_attackers_king() {
    let sfen = "7k1/9/7G1/9/9/9/9/9/9 b S 1";
    let line = go_mate(sfen, Some(5000));
    assert!(
        line != "checkmate nomate" && line != "checkmate timeout",
        "{line}"
    );
    verify(sfen, &line);
}

#[test]
fn nomate_when_no_check_exists_or_none_mates() {
    assert_eq!(
        go_mate("4k4/9/9/9/9/9/9/9/4K4 b - 1", Some(1000)),
        "checkmate nomate"
    );
    assert_eq!(
        go_mate("4k/5/5/5/K4 b GG 1", Some(5000)),
        "checkmate nomate"
    );
}

#[test]
fn timeout_on_stop() {
    // A hard problem: stop after 30 ms gives `checkmate timeout`.
    let control = std::sync::Arc::new(Control::default());
    control.reset(false);
    let c2 = control.clone();
    let h = std::thread::spawn(move || {
        let pos = parse_sfen("4k4/9/9/9/9/9/9/9/4K4 b RB 1").unwrap();
        mate_search(&pos, None, 0, &c2)
    });
    std::thread::sleep(Duration::from_millis(30));
    control.stop();
    let (r, _) = h.join().unwrap();
    assert_eq!(r, MateResult::Timeout);
    // A time limit does the same.
    assert_eq!(
        go_mate("4k4/9/9/9/9/9/9/9/4K4 b RB 1", Some(50)),
        "checkmate timeout"
    );
}

/// An independent reference: the shortest mate by plain iterative deepening
/// over the AND/OR tree (no table, no proof numbers), up to `max` plies.
/// Exponential: only for small positions.
fn shortest_mate(pos: &Position, max: usize) -> Option<usize> {
    (1..=max).step_by(2).find(|&d| attacker_wins(pos, d))
}

fn attacker_wins(pos: &Position, depth: usize) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.iter().any(|&m| {
        let child = pos.play(m);
        child.in_check() && defender_loses(&child, depth - 1)
    })
}

fn defender_loses(pos: &Position, depth: usize) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if list.is_empty() {
        return true;
    }
    depth > 0 && list.iter().all(|&m| attacker_wins(&pos.play(m), depth - 1))
}

/// `go mate` on `sfen`: the line's length after [`verify`].
fn solved_len(sfen: &str) -> usize {
    let line = go_mate(sfen, Some(60_000));
    assert!(
        line.starts_with("checkmate ") && !line.ends_with("nomate") && !line.ends_with("timeout"),
        "{sfen}: {line}"
    );
    verify(sfen, &line)
}

#[test]
fn small_board_mates_match_the_reference_search() {
    let cases = [
        "2k/3/K2 b SS 1",
        "2k/3/K2 b BS 1",
        "2k/3/K2 b GS 1",
        "k2/3/2K b RB 1",
        "1k1/3/3 b GG 1",
        "4k/5/2K2/5/5 b SS 1",
        "3k1/5/5/2K2/5 b SGG 1",
        "4k/5/5/5/K4 b GGS 1",
        "2k2/5/5/5/K4 b RGS 1",
        "4k/3p1/5/5/K4 b RG 1",
        "k4/5/5/5/4K b BGS 1",
    ];
    for sfen in cases {
        let pos = parse_sfen(sfen).unwrap();
        let want = shortest_mate(&pos, 9);
        match want {
            Some(n) => assert_eq!(solved_len(sfen), n, "{sfen}"),
            None => {
                let line = go_mate(sfen, Some(60_000));
                if line.starts_with("checkmate ")
                    && !line.ends_with("nomate")
                    && !line.ends_with("timeout")
                {
                    // A mate longer than the reference looked: still a mate.
                    verify(sfen, &line);
                }
            }
        }
    }
}

#[test]
fn kingless_mate_the_old_search_called_nomate() {
    // G*5b 4a5b G*4b mates; the old search answered nomate without sente's king.
    assert_eq!(solved_len("3sks3/9/4S4/9/9/9/9/9/9 b 2G 1"), 3);
}

#[test]
fn a_mate_that_needs_a_non_promotion() {
    // Only the unpromoted knight on 2c checks the boxed-in king.
    let sfen = "7nk/7bn/9/9/6N2/9/9/9/9 b - 1";
    assert_eq!(go_mate(sfen, Some(10_000)), "checkmate 3e2c");
}

#[test]
fn pawn_drop_mate_is_not_a_mate() {
    // P*1b would mate (the knight on 2d guards it): illegal, nothing else mates.
    assert_eq!(
        go_mate("7nk/7p1/9/7N1/9/9/9/9/9 b P 1", Some(10_000)),
        "checkmate nomate"
    );
    // With a gold as well, the gold drop is the mate.
    assert_eq!(
        go_mate("7nk/7p1/9/7N1/9/9/9/9/9 b GP 1", Some(10_000)),
        "checkmate G*1b"
    );
}

#[test]
fn nine_by_nine_mates_of_seven_to_seventeen_plies() {
    // From tests/data/tsume-generated.tsv: lengths agreed by YaneuraOu's
    // mate build and KomoringHeights. `go mate infinite` bounds the line
    // shortening by nodes only, so the answer does not depend on the clock.
    let cases = [
        ("2+R6/L8/k1n6/9/1S1+p5/1b7/9/9/9 b Srb4g2s3n3l17p 1", 7),
        ("2+P6/9/3k1G3/+R8/6p2/9/9/9/9 b SLPr2b3g3s4n3l15p 1", 9),
        ("2nk1+S+s2/9/+B1b6/2G6/4+R4/3+r5/9/9/9 b SL3gs3n3l18p 1", 11),
        ("1pk6/B8/2+p2+b3/1Gp2+P3/9/3R5/9/9/9 b SNr3g3s3n4l14p 1", 13),
        ("2g2k3/7Sl/4+s3+P/9/6+R2/7B1/9/9/9 b GNrb2g2s3n3l17p 1", 15),
        ("6g2/9/7k1/4R4/9/5+R3/9/9/9 b SP2b3g3s4n4l17p 1", 17),
    ];
    for (sfen, plies) in cases {
        let line = go_mate(sfen, None);
        assert_eq!(verify(sfen, &line), plies, "{sfen}: {line}");
    }
}
