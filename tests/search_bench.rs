//! Bench smoke test: every bench position searches and the totals add up.

use fukayomi::search::{BENCH_POSITIONS, bench};

#[test]
fn bench_positions_parse_and_search() {
    for sfen in BENCH_POSITIONS {
        if let Err(e) = fukayomi::sfen::parse_sfen(sfen) {
            panic!("{sfen}: {e}");
        }
    }
    let (tx, rx) = crossbeam_channel::unbounded();
    let r = bench(3, "", &tx);
    let lines: Vec<String> = rx.try_iter().collect();
    for l in &lines {
        println!("{l}");
    }
    assert_eq!(lines.len(), BENCH_POSITIONS.len() + 1);
    assert!(r.nodes > 0);
    assert!(
        lines
            .last()
            .unwrap()
            .contains(&format!("nodes {}", r.nodes))
    );
    assert!(
        lines
            .iter()
            .take(BENCH_POSITIONS.len())
            .all(|l| l.contains("bestmove"))
    );
}

/// The full bench at the default depth (slow: `cargo test --release -- --ignored`).
#[test]
#[ignore]
fn bench_default_depth() {
    let (tx, rx) = crossbeam_channel::unbounded();
    let depth = std::env::var("BENCH_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    let r = bench(depth, "", &tx);
    for l in rx.try_iter() {
        println!("{l}");
    }
    assert!(r.nodes > 0);
}
