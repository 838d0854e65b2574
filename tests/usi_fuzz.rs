//! Seeded random testing of the command and SFEN parsers and of the session:
//! generated lines (valid, nearly valid, garbage, raw bytes) must never
//! panic, and every rejected command must leave the state unchanged.
//!
//! `FUKAYOMI_FUZZ_LINES` sets the number of lines of the in-process run
//! (default 2,000,000), `FUKAYOMI_FUZZ_SEED` the seed.

mod usi_support;

use fukayomi::movegen;
use fukayomi::moves::MoveList;
use fukayomi::usi::command::{self, Command};
use fukayomi::usi::options::{OptionType, declared};
use fukayomi::usi::session::Session;
use std::time::{Duration, Instant};
use usi_support::{Engine, PATIENCE, errors};

/// SplitMix64: small, fast, good enough to drive a fuzzer.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const SFENS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "bk1/3/1KB b Pp 1",
    "4k4/9/4G4/9/9/9/9/9/4K4 b G 1",
    "KG7/9/PPPPPPPPP/9/9/9/9/9/8k b 2R2B 1",
    "8k/9/9/9/9/9/9/9/K8 w 2r2b4g4s4n4l18p 1",
];

const WORDS: &[&str] = &[
    "usi",
    "isready",
    "setoption",
    "name",
    "value",
    "usinewgame",
    "position",
    "startpos",
    "sfen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "gameover",
    "quit",
    "d",
    "bench",
    "perft",
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "win",
    "lose",
    "draw",
    "b",
    "w",
    "-",
    "1",
    "0",
    "-1",
    "+",
    "*",
    "/",
    "9",
    "99999999999999999999",
    "true",
    "false",
    "P*5e",
    "7g7f",
    "7g7f+",
    "3c3d",
    "1a1a",
    "K*5e",
    "+P",
    "10",
    "4294967296",
    "#",
    "searchmoves",
    "5i4h",
    "G*5b",
];

fn sfen_mutant(rng: &mut Rng) -> String {
    let mut s: Vec<char> = rng.pick(SFENS).chars().collect();
    let edits = rng.below(4);
    let alphabet: Vec<char> = "0123456789+/ bwkrbgsnlpKRBGSNLPx-*".chars().collect();
    for _ in 0..edits {
        if s.is_empty() {
            break;
        }
        let i = rng.below(s.len());
        match rng.below(3) {
            0 => {
                s.remove(i);
            }
            1 => s.insert(i, *rng.pick(&alphabet)),
            _ => s[i] = *rng.pick(&alphabet),
        }
    }
    s.into_iter().collect()
}

/// Some moves from `session`'s position: mostly legal, sometimes not.
fn move_list(rng: &mut Rng, session: &Session) -> Vec<String> {
    let mut pos = session.game.position().clone();
    let mut out = Vec::new();
    for _ in 0..rng.below(12) {
        let mut list = MoveList::new();
        movegen::legal_moves(&pos, &mut list);
        if list.is_empty() || rng.chance(8) {
            out.push(rng.pick(WORDS).to_string());
            break;
        }
        let m = *rng.pick(list.as_slice());
        out.push(m.to_string());
        pos = pos.play(m);
    }
    out
}

fn option_line(rng: &mut Rng) -> String {
    let decls = declared();
    let d = rng.pick(&decls);
    let name = if rng.chance(10) {
        d.name.to_lowercase()
    } else if rng.chance(5) {
        format!("{}X", d.name)
    } else {
        d.name.to_string()
    };
    let value = match (&d.kind, rng.below(4)) {
        // Any text is a valid file name; a missing file is reported at
        // isready, which this test's mirror does not model (the USI tests
        // check EvalFile errors).
        (OptionType::Text { default }, _) => default.to_string(),
        (_, 0) => rng.pick(WORDS).to_string(),
        (OptionType::Spin { min, max, .. }, _) => {
            let span = (*max as i128 - *min as i128 + 3) as u128;
            (*min as i128 - 1 + (rng.next() as u128 % span) as i128).to_string()
        }
        (OptionType::Check { .. }, _) => rng.pick(&["true", "false", "TRUE", "1"]).to_string(),
        (OptionType::Combo { vars, .. }, _) => rng.pick(vars).to_string(),
    };
    if rng.chance(5) {
        format!("setoption name {name}")
    } else {
        format!("setoption name {name} value {value}")
    }
}

/// One generated line (bytes: some are not UTF-8).
fn line(rng: &mut Rng, session: &Session) -> Vec<u8> {
    let text = match rng.below(10) {
        0 | 1 => {
            let start = if rng.chance(40) {
                "startpos".to_string()
            } else {
                format!("sfen {}", rng.pick(SFENS))
            };
            let mut l = format!("position {start}");
            if rng.chance(80) {
                l.push_str(" moves ");
                l.push_str(&move_list(rng, session).join(" "));
            }
            l
        }
        2 => format!(
            "position sfen {} moves {}",
            sfen_mutant(rng),
            move_list(rng, session).join(" ")
        ),
        3 => format!(
            "position startpos moves {}",
            move_list(rng, session).join(" ")
        ),
        4 => option_line(rng),
        5 => {
            let n = rng.below(8);
            let words: Vec<&str> = (0..n).map(|_| *rng.pick(WORDS)).collect();
            words.join(" ")
        }
        6 => {
            let mut l = "go".to_string();
            for _ in 0..rng.below(6) {
                l.push(' ');
                let word = *rng.pick(WORDS);
                l.push_str(word);
            }
            l
        }
        7 => {
            // Raw bytes.
            let n = rng.below(40);
            return (0..n)
                .map(|_| rng.next() as u8)
                .filter(|&b| b != b'\n')
                .collect();
        }
        8 => {
            // A valid-looking command with one byte changed.
            let mut b = format!(
                "position startpos moves {}",
                move_list(rng, session).join(" ")
            )
            .into_bytes();
            let i = rng.below(b.len());
            b[i] = rng.next() as u8;
            b.retain(|&c| c != b'\n');
            return b;
        }
        _ => {
            let s: String = (0..rng.below(30))
                .map(|_| char::from_u32(rng.below(0x3100) as u32).unwrap_or('?'))
                .filter(|c| *c != '\n')
                .collect();
            s
        }
    };
    text.into_bytes()
}

/// Applies what the engine loop applies without a search thread: `position`
/// and `setoption` change the session; everything else is only parsed.
/// Returns whether the line was rejected.
fn apply(session: &mut Session, bytes: &[u8]) -> bool {
    match command::parse_bytes(bytes, bytes.len()) {
        Err(_) => true,
        Ok(Command::Position(p)) => session.set_position(&p).is_err(),
        Ok(Command::SetOption { name, value }) => {
            session.set_option(&name, value.as_deref()).is_err()
        }
        Ok(_) => false,
    }
}

#[test]
fn millions_of_generated_lines_never_panic_and_rejections_change_nothing() {
    let lines: u64 = std::env::var("FUKAYOMI_FUZZ_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000);
    let seed: u64 = std::env::var("FUKAYOMI_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_f00d);
    let mut rng = Rng(seed);
    let mut session = Session::new();
    let mut fingerprint = session.fingerprint();
    let (mut rejected, mut accepted) = (0u64, 0u64);
    let start = Instant::now();
    for i in 0..lines {
        if i % 100_000 == 0 {
            // Now and then start over, so that states stay varied.
            session = Session::new();
            fingerprint = session.fingerprint();
        }
        let bytes = line(&mut rng, &session);
        if apply(&mut session, &bytes) {
            rejected += 1;
            let after = session.fingerprint();
            assert_eq!(
                after,
                fingerprint,
                "line {i} ({:?}) was rejected but changed the state",
                String::from_utf8_lossy(&bytes)
            );
        } else {
            accepted += 1;
            fingerprint = session.fingerprint();
        }
    }
    eprintln!(
        "fuzz: {lines} lines (seed {seed:#x}): {accepted} accepted, {rejected} rejected, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(rejected > lines / 10 && accepted > lines / 10);
}

#[test]
fn raw_random_bytes_through_the_parser() {
    let mut rng = Rng(7);
    for _ in 0..300_000 {
        let n = rng.below(64);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        let _ = command::parse_bytes(&bytes, bytes.len());
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let _ = fukayomi::sfen::parse_sfen(text);
        }
    }
}

/// Every `go` is answered exactly once, whatever its parameters: generated
/// `go` lines (valid and bad words, `searchmoves` with legal, illegal and
/// malformed moves, `mate`, `ponder`, `infinite`) are each followed by
/// `stop`; exactly one final line (`bestmove` or `checkmate`) must come, and
/// no second one before the next `readyok`.
#[test]
fn every_generated_go_is_answered_exactly_once() {
    let mut rng = Rng(0x60_a115);
    let mut e = Engine::spawn();
    e.handshake();
    let mut answered = 0;
    for i in 0..300 {
        if i % 25 == 0 {
            let start = *rng.pick(SFENS);
            e.send(&format!("position sfen {start}"));
        }
        let mut go = "go".to_string();
        for _ in 0..rng.below(6) {
            go.push(' ');
            let word = *rng.pick(WORDS);
            go.push_str(word);
        }
        if go.split_whitespace().nth(1) == Some("perft") {
            continue; // `go perft` is not a search
        }
        e.send(&go);
        e.send("stop");
        let lines = e.until(PATIENCE, |l| {
            l.starts_with("bestmove") || l.starts_with("checkmate")
        });
        let after = e.sync();
        let finals = |ls: &[String]| {
            ls.iter()
                .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
                .count()
        };
        assert_eq!(
            finals(&lines) + finals(&after),
            1,
            "{go}: {lines:?} {after:?}"
        );
        answered += 1;
    }
    e.send("quit");
    assert!(e.wait_exit(PATIENCE).expect("quit").success());
    eprintln!("go fuzz: {answered} go lines, each answered once");
}

/// The same generator over pipes: the engine must answer every rejected line
/// with exactly one error line, survive, and end in the state an in-process
/// session predicts.
#[test]
fn generated_lines_through_the_binary() {
    let mut rng = Rng(0xb1_7a7e);
    let mut mirror = Session::new();
    let mut e = Engine::spawn();
    let mut expected_errors = 0usize;
    let mut sent = 0usize;
    let deadline = Instant::now() + Duration::from_secs(60);
    while sent < 20_000 && Instant::now() < deadline {
        let bytes = line(&mut rng, &mirror);
        // Commands with replies or searches are left to the other tests.
        if let Ok(c) = command::parse_bytes(&bytes, bytes.len())
            && !matches!(c, Command::Position(_) | Command::SetOption { .. })
        {
            continue;
        }
        // USI_Hash values are not worth allocating here.
        if bytes
            .windows(8)
            .any(|w| w.eq_ignore_ascii_case(b"USI_Hash"))
        {
            continue;
        }
        if apply(&mut mirror, &bytes) {
            expected_errors += 1;
        }
        let mut framed = bytes.clone();
        framed.push(b'\n');
        e.send_bytes(&framed);
        sent += 1;
        if sent.is_multiple_of(1000) {
            let lines = e.sync();
            assert_eq!(errors(&lines).len(), lines.len(), "{lines:?}");
            assert_eq!(lines.len(), expected_errors, "after {sent} lines");
            expected_errors = 0;
        }
    }
    let lines = e.sync();
    assert_eq!(lines.len(), expected_errors);
    assert_eq!(e.sfen(), fukayomi::sfen::to_sfen(mirror.game.position()));
    e.send("quit");
    assert!(e.wait_exit(PATIENCE).expect("quit").success());
    eprintln!("pipe fuzz: {sent} lines");
}
