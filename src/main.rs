//! The `fukayomi` binary: a USI engine on stdin/stdout. `RUST_LOG=debug`
//! logs the dialogue on stderr.

use std::io::{BufReader, stdin, stdout};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format_timestamp_millis()
        .init();
    let input = BufReader::with_capacity(64 * 1024, stdin());
    fukayomi::usi::run(input, stdout().lock());
    // The input thread may still be blocked reading stdin, and a search
    // thread stuck in a long perft after `quit`: leave without them.
    std::process::exit(0);
}
