use fukayomi::sfen::parse_sfen;
use fukayomi::solve::{Limits, solve};
fn main() {
    let sfen = std::env::args().nth(1).unwrap();
    let pos = parse_sfen(&sfen).unwrap();
    let t = std::time::Instant::now();
    let s = solve(&pos, Limits { threads: 1, ..Limits::default() }, &|| false).unwrap();
    eprintln!("solve {:?} {:?}", t.elapsed(), s.stats());
    let (cand, hits, n) = s.unmove_stats();
    eprintln!("candidates/pos {:.1} hits/pos {:.1} n {n}", cand as f64 / n as f64, hits as f64 / n as f64);
}
