//! Times perft straight through the library, without the USI shell:
//! `cargo run --release --example perft -- [DEPTH [SFEN...]]`
//! (default: the start position at depth 6).

use fukayomi::perft::perft;
use fukayomi::rules::BoardKind;
use fukayomi::sfen::parse_sfen;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(6);
    let sfen = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        BoardKind::Standard.start_sfen().to_string()
    };
    let pos = match parse_sfen(&sfen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {nodes} nodes in {secs:.3} s ({:.1} M nodes/s)",
        nodes as f64 / secs / 1e6
    );
}
