//! The `fukayomi` binary: a USI engine on stdin/stdout, or the USI commands
//! given as arguments (see [`fukayomi::usi::cli`]). `RUST_LOG=debug` logs
//! the dialogue on stderr.

use fukayomi::usi::cli::{self, Invocation};
use std::io::{BufReader, Cursor, stdin, stdout};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format_timestamp_millis()
        .init();
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match cli::parse_args(&args) {
        Invocation::Help => println!("{}", cli::help()),
        Invocation::Version => println!("fukayomi {}", env!("CARGO_PKG_VERSION")),
        Invocation::Loop => {
            let input = BufReader::with_capacity(64 * 1024, stdin());
            fukayomi::usi::run(input, stdout().lock());
        }
        Invocation::Commands(commands) => {
            // Run as a script: at its end a search with limits finishes and
            // prints its result, as with a piped-in file.
            let script = commands.join("\n") + "\n";
            fukayomi::usi::run(Cursor::new(script.into_bytes()), stdout().lock());
        }
    }
    // The input thread may still be blocked reading stdin, and a search
    // thread stuck in a long perft after `quit`: leave without them.
    std::process::exit(0);
}
