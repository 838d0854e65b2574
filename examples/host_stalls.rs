//! Measures how long the machine takes busy threads off their cores: `n`
//! threads spin for `secs` seconds reading the clock, and every gap between
//! two readings longer than [`REPORTED_GAP`] is counted. On an idle machine
//! the worst gap is well under a millisecond; a virtual machine whose host
//! caps its CPU time (a quota per 100 ms period) stops every thread of the
//! guest for tens of milliseconds once its cores are all busy, which no
//! engine can prevent. The timing tests' margins (tests/usi_timing.rs) are
//! set from this measurement.
//!
//! ```text
//! cargo run --release --example host_stalls -- 2 60
//! ```

use std::time::{Duration, Instant};

/// Gaps at least this long are counted and printed.
const REPORTED_GAP: Duration = Duration::from_millis(20);

fn main() {
    let mut args = std::env::args().skip(1);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let secs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let spinners: Vec<_> = (0..threads)
        .map(|_| std::thread::spawn(move || spin(Duration::from_secs(secs))))
        .collect();
    for (i, s) in spinners.into_iter().enumerate() {
        let (worst, stalls) = s.join().expect("spinner");
        println!("thread {i}: worst gap {worst:?}, {stalls} gaps of {REPORTED_GAP:?} or more");
    }
}

/// Spins for `length`; returns the worst gap and the number of long ones.
fn spin(length: Duration) -> (Duration, usize) {
    let start = Instant::now();
    let mut last = start;
    let (mut worst, mut stalls) = (Duration::ZERO, 0);
    while last - start < length {
        let now = Instant::now();
        let gap = now - last;
        worst = worst.max(gap);
        stalls += usize::from(gap >= REPORTED_GAP);
        last = now;
    }
    (worst, stalls)
}
