//! The root proof of `go mate` alone (one thread, no line, no USI): a
//! deterministic workload for timing and profiling the df-pn solver, as
//! `perft` is for the move generator. Prints the result, the nodes and the
//! time.
//!
//! ```sh
//! cargo run --release --example mate_proof -- 'SFEN' [MiB]
//! valgrind --tool=cachegrind target/release/examples/mate_proof 'SFEN' 256
//! ```

use std::time::Instant;

use fukayomi::mate::dfpn::{Dfpn, Poll};
use fukayomi::mate::table::{INF, Table};
use fukayomi::sfen::parse_sfen;

/// Never stops the search.
struct Endless;

impl Poll for Endless {
    fn poll(&mut self, _nodes: u64, _table: &Table) -> bool {
        false
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(sfen) = args.first() else {
        eprintln!("usage: mate_proof SFEN [MiB]");
        std::process::exit(2);
    };
    let mib = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(256);
    let pos = parse_sfen(sfen.trim_start_matches("sfen ")).expect("a valid SFEN");
    let table = Table::new(mib);
    let mut dfpn = Dfpn::new(&table, pos.side_to_move());
    dfpn.use_large_cache();
    let start = Instant::now();
    let v = dfpn.mid(&pos, 0, INF, INF, &mut Endless);
    let ms = start.elapsed().as_millis();
    let result = if v.pn == 0 {
        "proven"
    } else if v.dn == 0 {
        "disproven"
    } else {
        "unsolved"
    };
    println!("{result} at {} nodes in {ms} ms", dfpn.nodes);
}
