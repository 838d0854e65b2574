//! Counts the positions reachable from 9マス将棋 layouts, as the retrograde
//! analysis would enumerate them (a position and its mirror image counted
//! once), without solving them: for the layouts whose reachable set is too
//! large for the retrograde's memory bound, whose rows in
//! `docs/ninemasu.md` give proof nodes instead.
//!
//! ```sh
//! cargo run --release --example count_reachable -- 24 32
//! ```
//!
//! One thread, a hash set of 8-byte keys (about 20 bytes a position with
//! the set's slack and the stack of positions still to expand).

use std::collections::HashSet;
use std::time::Instant;

use fukayomi::movegen;
use fukayomi::moves::MoveList;
use fukayomi::sfen::parse_sfen;
use fukayomi::solve::Packer;
use fukayomi::solve::report::layouts;

const LAYOUTS: &str = "tests/data/ninemasu-layouts.tsv";

fn main() {
    let only: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let text = std::fs::read_to_string(LAYOUTS).expect("run from the repository root");
    for (number, sfen) in layouts(&text, &only) {
        let root = parse_sfen(sfen).expect("layout SFEN");
        let packer = Packer::new(&root).expect("a 3x3 layout");
        let started = Instant::now();
        let first = packer.pack(&root);
        let mut seen = HashSet::from([first]);
        let mut todo = vec![first];
        let mut list = MoveList::new();
        let mut edges = 0u64;
        while let Some(key) = todo.pop() {
            let pos = packer.unpack(key);
            let parts = packer.parts(&pos);
            movegen::legal_moves(&pos, &mut list);
            edges += list.len() as u64;
            for &m in list.iter() {
                let child = packer.child_key(&parts, &pos, m);
                if seen.insert(child) {
                    todo.push(child);
                }
            }
            if seen.len().is_multiple_of(1 << 24) {
                eprintln!("No.{number}: {} positions so far", seen.len());
            }
        }
        println!(
            "No.{number} {sfen}: {} reachable positions, {edges} moves, {:.1} s",
            seen.len(),
            started.elapsed().as_secs_f64()
        );
    }
}
