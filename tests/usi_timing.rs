//! The timing promises over pipes: `stop`, `isready`, `quit` mid-search are
//! answered at once; short byoyomi and sudden-death clocks are never
//! overstepped; `go`/`stop`/`ponderhit` races always give exactly one
//! `bestmove`. Margins are generous (the tests may share a loaded 2-core
//! machine); the measured numbers are printed (`--nocapture`).

mod usi_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use usi_support::{Engine, PATIENCE, count, exclusive};

const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
const POSITIONS: &[&str] = &[
    "startpos",
    "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "sfen rbsgk/4p/5/P4/KGSBR b - 1",
];

/// How long the project's VM stops every thread of the guest, about once a
/// second per busy thread, once both of its cores are busy (its host caps
/// the guest's CPU time per 100 ms period): measured by
/// `cargo run --release --example host_stalls -- 2 60` (worst gaps 100-103
/// ms with two busy threads; 0.3 ms with one). A search on both cores can
/// lose this much to the host, on top of its own time.
const HOST_STALL: Duration = Duration::from_millis(110);

/// Sends `go <params>` and returns how long the bestmove took.
fn timed_go(e: &mut Engine, params: &str) -> Duration {
    e.send(&format!("go {params}"));
    let sent = Instant::now();
    let (_, at) = e.until_timed(PATIENCE, |l| l.starts_with("bestmove"));
    at.duration_since(sent)
}

fn ready_engine(options: &[&str]) -> Engine {
    let mut e = Engine::spawn();
    e.handshake();
    for o in options {
        e.send(o);
    }
    assert!(e.sync().is_empty());
    e
}

#[test]
fn stop_is_answered_at_once() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    let mut worst = Duration::ZERO;
    for pos in POSITIONS {
        e.send(&format!("position {pos}"));
        e.send("go infinite");
        thread::sleep(Duration::from_millis(300));
        e.send("stop");
        let sent = Instant::now();
        let (_, at) = e.until_timed(PATIENCE, |l| l.starts_with("bestmove"));
        worst = worst.max(at.duration_since(sent));
    }
    eprintln!("stop -> bestmove: worst {worst:?}");
    assert!(worst < Duration::from_millis(300), "{worst:?}");
}

#[test]
fn isready_is_answered_at_once_mid_search() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    let mut worst = Duration::ZERO;
    for go in [
        "go infinite",
        "go ponder btime 0 wtime 0 byoyomi 5000",
        "go btime 60000 wtime 60000 byoyomi 10000",
    ] {
        e.send(&format!("position sfen {MIDGAME}"));
        e.send(go);
        thread::sleep(Duration::from_millis(200));
        for _ in 0..5 {
            e.send("isready");
            let sent = Instant::now();
            let (lines, at) = e.until_timed(PATIENCE, |l| l == "readyok");
            assert_eq!(count(&lines, "bestmove"), 0, "{go}: {lines:?}");
            worst = worst.max(at.duration_since(sent));
        }
        e.send("stop");
        e.until_bestmove(PATIENCE);
    }
    eprintln!("isready -> readyok mid-search: worst {worst:?}");
    assert!(worst < Duration::from_millis(200), "{worst:?}");
}

#[test]
fn quit_mid_search_exits_within_a_second() {
    let _x = exclusive();
    for threads in [1, 2] {
        let mut e = ready_engine(&[&format!("setoption name Threads value {threads}")]);
        e.send("position startpos");
        e.send("go infinite");
        thread::sleep(Duration::from_millis(300));
        e.send("quit");
        let sent = Instant::now();
        let status = e.wait_exit(PATIENCE).expect("exit");
        let took = sent.elapsed();
        eprintln!("quit mid-search ({threads} threads): exit after {took:?}");
        assert!(status.success());
        assert!(took < Duration::from_secs(1), "{took:?}");
    }
}

#[test]
fn quit_mid_perft_exits_within_a_second() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    e.send("position startpos");
    e.send("go perft 9");
    thread::sleep(Duration::from_millis(200));
    e.send("quit");
    let sent = Instant::now();
    e.wait_exit(PATIENCE).expect("exit");
    let took = sent.elapsed();
    eprintln!("quit mid-perft: exit after {took:?}");
    assert!(took < Duration::from_secs(1), "{took:?}");
}

#[test]
fn end_of_input_stops_an_infinite_search_and_exits() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.close_stdin();
    let sent = Instant::now();
    let lines = e.until_bestmove(PATIENCE);
    assert_eq!(count(&lines, "bestmove"), 1);
    assert!(e.wait_exit(PATIENCE).expect("exit").success());
    let took = sent.elapsed();
    eprintln!("end of input mid-search: exit after {took:?}");
    assert!(took < Duration::from_secs(1), "{took:?}");
}

#[test]
fn end_of_input_lets_a_finite_search_finish() {
    let _x = exclusive();
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go movetime 500");
    e.close_stdin();
    let sent = Instant::now();
    let lines = e.until_bestmove(PATIENCE);
    assert!(sent.elapsed() >= Duration::from_millis(300), "{lines:?}");
    assert!(e.wait_exit(PATIENCE).expect("exit").success());
}

/// Byoyomi `ms` on every test position: the worst time to bestmove.
fn worst_byoyomi(e: &mut Engine, ms: u64, rounds: usize) -> Duration {
    let mut worst = Duration::ZERO;
    for _ in 0..rounds {
        for pos in POSITIONS {
            e.send(&format!("position {pos}"));
            worst = worst.max(timed_go(e, &format!("btime 0 wtime 0 byoyomi {ms}")));
        }
    }
    worst
}

#[test]
fn byoyomi_100ms_is_never_overstepped() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    let worst = worst_byoyomi(&mut e, 100, 5);
    eprintln!("byoyomi 100 ms, 1 thread: worst {worst:?}");
    assert!(worst < Duration::from_millis(150), "{worst:?}");
}

#[test]
fn byoyomi_100ms_with_two_threads() {
    let _x = exclusive();
    let mut e = ready_engine(&["setoption name Threads value 2"]);
    let worst = worst_byoyomi(&mut e, 100, 5);
    eprintln!("byoyomi 100 ms, 2 threads: worst {worst:?}");
    // Two search threads keep both cores busy: the host may stop them once.
    assert!(worst < Duration::from_millis(150) + HOST_STALL, "{worst:?}");
}

#[test]
fn byoyomi_100ms_on_a_loaded_machine() {
    let _x = exclusive();
    let busy = Arc::new(AtomicBool::new(true));
    let burners: Vec<_> = (0..4)
        .map(|_| {
            let busy = busy.clone();
            thread::spawn(move || {
                let mut x = 0u64;
                while busy.load(Ordering::Relaxed) {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                }
                x
            })
        })
        .collect();
    let mut e = ready_engine(&["setoption name Threads value 2"]);
    let worst = worst_byoyomi(&mut e, 100, 3);
    busy.store(false, Ordering::Relaxed);
    for b in burners {
        b.join().unwrap();
    }
    eprintln!("byoyomi 100 ms, 2 threads, 4 busy threads beside: worst {worst:?}");
    // The busy threads keep both cores busy: the host stops us too.
    assert!(worst < Duration::from_millis(250) + HOST_STALL, "{worst:?}");
}

#[test]
fn sudden_death_with_300ms_left() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    let mut worst = Duration::ZERO;
    for pos in POSITIONS {
        e.send(&format!("position {pos}"));
        worst = worst.max(timed_go(&mut e, "btime 300 wtime 300"));
        e.send(&format!("position {pos}"));
        worst = worst.max(timed_go(
            &mut e,
            "btime 300 wtime 300 binc 0 winc 0 byoyomi 0",
        ));
    }
    eprintln!("sudden death, 300 ms left: worst {worst:?}");
    assert!(worst < Duration::from_millis(250), "{worst:?}");
}

#[test]
fn fischer_uses_the_increment_but_not_more() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    e.send("position startpos");
    let took = timed_go(&mut e, "btime 100 wtime 100 binc 500 winc 500");
    eprintln!("fischer 100 ms + 500 ms inc: {took:?}");
    assert!(took < Duration::from_millis(600), "{took:?}");
}

#[test]
fn movetime_is_kept() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    e.send("position startpos");
    let took = timed_go(&mut e, "movetime 500");
    eprintln!("movetime 500: {took:?}");
    assert!(took < Duration::from_millis(650), "{took:?}");
}

#[test]
fn a_bare_go_ends_by_itself() {
    let _x = exclusive();
    let mut e = ready_engine(&[]);
    e.send("position startpos");
    let took = timed_go(&mut e, "");
    eprintln!("bare go: {took:?}");
    assert!(took < Duration::from_secs(15), "{took:?}");
}

/// `go` then `stop`/`ponderhit`/`gameover` with no pause (or a tiny one),
/// many times: always exactly one bestmove per go, never one too early.
#[test]
fn go_stop_ponderhit_races() {
    let _x = exclusive();
    let mut e = ready_engine(&["setoption name USI_Ponder value true"]);
    let rounds = 300;
    for i in 0..rounds {
        let pos = POSITIONS[i % POSITIONS.len()];
        e.send(&format!("position {pos}"));
        let pause = Duration::from_micros([0, 0, 100, 1000, 5000][i % 5]);
        match i % 6 {
            0 => {
                e.send("go ponder btime 0 wtime 0 byoyomi 50");
                thread::sleep(pause);
                e.send("ponderhit");
            }
            1 => {
                e.send("go ponder btime 0 wtime 0 byoyomi 50");
                thread::sleep(pause);
                e.send("stop");
            }
            2 => {
                e.send("go infinite");
                thread::sleep(pause);
                e.send("stop");
            }
            3 => {
                e.send("go ponder btime 1000 wtime 1000");
                thread::sleep(pause);
                e.send("ponderhit");
                e.send("stop");
            }
            4 => {
                e.send("go btime 0 wtime 0 byoyomi 20");
                thread::sleep(pause);
                e.send("gameover");
            }
            _ => {
                e.send("go infinite");
                e.send("isready");
                e.send("stop");
                e.until(PATIENCE, |l| l == "readyok");
            }
        }
        let lines = e.until_bestmove(PATIENCE);
        assert_eq!(count(&lines, "bestmove"), 1, "round {i}: {lines:?}");
        let after = e.sync();
        assert_eq!(count(&after, "bestmove"), 0, "round {i}: extra {after:?}");
    }
    // go ponder without ponderhit or stop never answers by itself.
    e.send("position sfen bk1/3/1KB b Pp 1");
    e.send("go ponder btime 0 wtime 0 byoyomi 10");
    let early = e.drain(Duration::from_millis(500));
    assert_eq!(count(&early, "bestmove"), 0, "{early:?}");
    e.send("stop");
    e.until_bestmove(PATIENCE);
}
