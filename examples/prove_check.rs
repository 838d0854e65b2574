//! Proves layouts of `tests/data/ninemasu-layouts.tsv` by the forward proof
//! and, with `--compare`, checks value, distance and best first moves
//! against the retrograde analysis.
//!
//! ```sh
//! cargo run --release --example prove_check -- 144 24        # forward proof only
//! cargo run --release --example prove_check -- --compare 41  # and the retrograde
//! cargo run --release --example prove_check -- --compare --max-positions 3000000
//! cargo run --release --example prove_check -- --threads 1 37 # one thread
//! ```
//!
//! With `--max-positions N` and no layout numbers, every layout whose
//! retrograde solve has at most N positions is compared (the forward proof
//! is skipped for draws, which it cannot prove).

use std::time::Instant;

use fukayomi::sfen::parse_sfen;
use fukayomi::solve::prove::{ProveLimits, prove};
use fukayomi::solve::report::layouts;
use fukayomi::solve::{Limits, Value, solve};

const LAYOUTS: &str = "tests/data/ninemasu-layouts.tsv";

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let compare = args.iter().any(|a| a == "--compare");
    let max_positions: Option<usize> = args
        .iter()
        .position(|a| a == "--max-positions")
        .and_then(|i| args.get(i + 1))
        .and_then(|a| a.parse().ok());
    let threads: Option<usize> = args
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .and_then(|a| a.parse().ok());
    let only: Vec<u32> = args
        .iter()
        .enumerate()
        .filter(|&(i, _)| {
            i == 0 || (args[i - 1] != "--max-positions" && args[i - 1] != "--threads")
        })
        .filter_map(|(_, a)| a.parse().ok())
        .collect();
    let text = std::fs::read_to_string(LAYOUTS).expect("run from the repository root");
    let mut disagreements = 0;
    for (number, sfen) in layouts(&text, &only) {
        let pos = parse_sfen(sfen).expect("layout SFEN");
        let mut expected = None;
        if compare {
            let t = Instant::now();
            let limits = Limits {
                max_positions: max_positions.unwrap_or(usize::MAX),
                ..Limits::default()
            };
            match solve(&pos, limits, &|| false) {
                Ok(s) => {
                    let v = s.value(&pos).expect("root");
                    let moves = s.move_values(&pos).unwrap_or_default();
                    let mut best: Vec<String> = moves
                        .iter()
                        .filter(|&&(_, mv)| mv == v)
                        .map(|(m, _)| m.to_string())
                        .collect();
                    best.sort();
                    eprintln!(
                        "No.{number}: retrograde {v} best {best:?} ({} positions, {:.2} s)",
                        s.stats().positions,
                        t.elapsed().as_secs_f64()
                    );
                    expected = Some((v, best));
                }
                Err(e) => {
                    eprintln!("No.{number}: retrograde: {e}");
                    if max_positions.is_some() && only.is_empty() {
                        continue;
                    }
                }
            }
        }
        if matches!(expected, Some((Value::Draw, _))) {
            continue;
        }
        let t = Instant::now();
        let limits = ProveLimits {
            threads: threads.unwrap_or(ProveLimits::default().threads),
            ..ProveLimits::default()
        };
        match prove(&pos, limits, &|| false) {
            Ok(p) => {
                let mut best: Vec<String> = p.best_moves.iter().map(|m| m.to_string()).collect();
                best.sort();
                let agree = match &expected {
                    Some((v, b)) if *v == p.value && *b == best => "agrees",
                    Some(_) => {
                        disagreements += 1;
                        "DISAGREES"
                    }
                    None => "no retrograde",
                };
                println!(
                    "No.{number} {sfen}: forward {} best {best:?}: {} nodes, {} stored, {:.2} s, {} MiB; {agree}",
                    p.value,
                    p.nodes,
                    p.stored,
                    t.elapsed().as_secs_f64(),
                    p.bytes >> 20
                );
            }
            Err(e) => println!(
                "No.{number} {sfen}: forward: {e} ({:.2} s)",
                t.elapsed().as_secs_f64()
            ),
        }
    }
    if disagreements > 0 {
        println!("{disagreements} disagreements");
        std::process::exit(1);
    }
}
