//! Never lose on time: tiny byoyomi, tiny sudden death, movetime, and two
//! threads, measured on the wall clock (with room for a loaded machine).

use crossbeam_channel::unbounded;
use fukayomi::game::Game;
use fukayomi::search::{Control, Limits, SearchOptions, Searcher};
use fukayomi::sfen::parse_sfen;
use std::time::Instant;

/// A busy middle game with full hands (many drops: slow nodes).
const BUSY: &str =
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1";

/// Milliseconds from `go` to `bestmove`, checking there is one bestmove.
fn timed(sfen: &str, limits: Limits, threads: usize) -> u128 {
    let g = Game::new(parse_sfen(sfen).unwrap());
    let searcher = Searcher::new(16);
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let (tx, rx) = unbounded();
    let control = Control::default();
    let start = Instant::now();
    control.reset(false);
    searcher.think(&g, &limits, &options, &control, &tx);
    let ms = start.elapsed().as_millis();
    let lines: Vec<String> = rx.try_iter().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert_ne!(lines.last().unwrap(), "bestmove resign");
    ms
}

#[test]
fn byoyomi_100_with_no_main_time() {
    for threads in [1, 2] {
        let l = Limits {
            btime: Some(0),
            wtime: Some(0),
            byoyomi: Some(100),
            ..Limits::default()
        };
        let ms = timed(BUSY, l, threads);
        assert!(ms < 90, "{ms} ms with {threads} thread(s)");
    }
}

#[test]
fn sudden_death_with_300_ms_left() {
    for threads in [1, 2] {
        let l = Limits {
            btime: Some(300),
            wtime: Some(300),
            ..Limits::default()
        };
        let ms = timed(BUSY, l, threads);
        assert!(ms < 80, "{ms} ms with {threads} thread(s)");
    }
}

#[test]
fn movetime_is_used_but_not_exceeded() {
    let l = Limits {
        movetime: Some(300),
        ..Limits::default()
    };
    let ms = timed(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        l,
        1,
    );
    assert!((100..300).contains(&ms), "{ms} ms");
}

#[test]
fn fischer_with_little_time_left_is_quick() {
    let l = Limits {
        btime: Some(1000),
        wtime: Some(1000),
        binc: Some(100),
        winc: Some(100),
        ..Limits::default()
    };
    let ms = timed("rbsgk/4p/5/P4/KGSBR b - 1", l, 1);
    assert!(ms < 500, "{ms} ms");
}
