//! The `fukayomi` binary: a USI engine on stdin/stdout.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    fukayomi::usi::run(stdin.lock(), stdout.lock());
}
