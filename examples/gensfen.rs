//! Self-play training data for the learned evaluation.
//!
//! Plays games of the engine against itself at a fixed node count from
//! randomised openings and writes one line per position:
//! `sfen <TAB> score <TAB> result <TAB> quiet`, where `score` is the search's
//! score in centipawns and `result` the game's result (1 win, 0.5 draw,
//! 0 loss), both for the side to move, and `quiet` is 1 when the side to move
//! is not in check and the best move is no capture (the trainer uses only
//! those). Mate scores are written as +-`MATE_CP`.
//!
//! ```text
//! cargo run --release --example gensfen -- --board 9x9 --games 1000 --nodes 5000 \
//!     --threads 2 --seed 1 --out target/evaldata/9x9-1.tsv [--eval-file W] [--material]
//! ```

use crossbeam_channel::unbounded;
use fukayomi::eval::EvalKind;
use fukayomi::game::{Game, Outcome};
use fukayomi::movegen::legal_moves;
use fukayomi::moves::MoveList;
use fukayomi::rules::BoardKind;
use fukayomi::search::{Control, Limits, MATE_BOUND, SearchOptions, Searcher};
use fukayomi::sfen::{parse_sfen, to_sfen};
use fukayomi::types::Color;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The score written for a mate.
const MATE_CP: i32 = 10_000;
/// A game is adjudicated once the side to move's score stays beyond this
/// for [`ADJUDICATE_PLIES`] plies in a row.
const ADJUDICATE_CP: i32 = 3_000;
/// Plies of a lopsided score before adjudication.
const ADJUDICATE_PLIES: i32 = 4;

struct Args {
    board: BoardKind,
    games: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
    out: String,
    eval_file: String,
    material: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        board: BoardKind::Standard,
        games: 100,
        nodes: 5000,
        threads: 1,
        seed: 1,
        out: "target/evaldata/selfplay.tsv".into(),
        eval_file: String::new(),
        material: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--board" => {
                a.board = match val().as_str() {
                    "9x9" => BoardKind::Standard,
                    "5x5" => BoardKind::Mini,
                    "3x3" => BoardKind::Ninemasu,
                    b => panic!("unknown board {b}"),
                }
            }
            "--games" => a.games = val().parse().expect("--games N"),
            "--nodes" => a.nodes = val().parse().expect("--nodes N"),
            "--threads" => a.threads = val().parse().expect("--threads N"),
            "--seed" => a.seed = val().parse().expect("--seed N"),
            "--out" => a.out = val(),
            "--eval-file" => a.eval_file = val(),
            "--material" => a.material = true,
            f => panic!("unknown flag {f}"),
        }
    }
    a
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Random plies played before the engine takes over, per board.
fn random_plies(board: BoardKind, rng: &mut Rng) -> u64 {
    match board {
        BoardKind::Standard => 6 + rng.below(10),
        BoardKind::Mini => 2 + rng.below(5),
        BoardKind::Ninemasu => rng.below(3),
    }
}

/// Longest game before it counts as a draw.
fn max_plies(board: BoardKind) -> usize {
    match board {
        BoardKind::Standard => 320,
        BoardKind::Mini | BoardKind::Ninemasu => 200,
    }
}

/// One record: the position, its score and whether it is quiet.
struct Record {
    sfen: String,
    side: Color,
    score: i32,
    quiet: bool,
}

/// The 3x3 layouts of the tests (a random one per game on that board).
fn start_position(board: BoardKind, rng: &mut Rng) -> String {
    if board != BoardKind::Ninemasu {
        return board.start_sfen().to_string();
    }
    let layouts = include_str!("../tests/data/ninemasu-layouts.tsv");
    let sfens: Vec<&str> = layouts
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').nth(1))
        .collect();
    sfens[rng.below(sfens.len() as u64) as usize].to_string()
}

/// Plays one game; returns its records and the winner (`None`: draw).
fn play_game(a: &Args, searcher: &Searcher, seed: u64) -> (Vec<Record>, Option<Color>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let start = parse_sfen(&start_position(a.board, &mut rng)).expect("start sfen");
    let mut game = Game::new(start);
    let mut list = MoveList::new();
    for _ in 0..random_plies(a.board, &mut rng) {
        if game.outcome().is_some() {
            break;
        }
        list.clear();
        legal_moves(game.position(), &mut list);
        let m = list.iter().nth(rng.below(list.len() as u64) as usize);
        game.play(*m.expect("a legal move"));
    }
    let options = SearchOptions {
        hash_mb: 16,
        network_delay: 0,
        network_delay2: 0,
        evaluation: if a.material {
            EvalKind::Material
        } else {
            EvalKind::Learned
        },
        eval_file: a.eval_file.clone(),
        ..SearchOptions::default()
    };
    let limits = Limits {
        nodes: Some(a.nodes),
        ..Limits::default()
    };
    let control = Control::default();
    let mut records = Vec::new();
    let mut lopsided = 0;
    let winner = loop {
        if let Some((outcome, _)) = game.outcome() {
            break match outcome {
                Outcome::Win(c) => Some(c),
                Outcome::Draw => None,
            };
        }
        if game.moves().len() >= max_plies(a.board) {
            break None;
        }
        let pos = game.position().clone();
        let (tx, _rx) = unbounded();
        control.reset(false);
        let r = searcher.think(&game, &limits, &options, &control, &tx);
        let us = pos.side_to_move();
        let Some(best) = r.best else {
            // `bestmove win` (declaration) or `resign`.
            break Some(if r.final_line.contains("win") {
                us
            } else {
                us.flip()
            });
        };
        let score = if r.score.abs() >= MATE_BOUND {
            MATE_CP * r.score.signum()
        } else {
            r.score
        };
        let capture = !best.is_drop() && !pos.piece_on(best.to()).is_none();
        records.push(Record {
            sfen: to_sfen(&pos),
            side: us,
            score,
            quiet: !pos.in_check() && !capture,
        });
        lopsided = if score.abs() >= ADJUDICATE_CP {
            lopsided + 1
        } else {
            0
        };
        if lopsided >= ADJUDICATE_PLIES {
            break Some(if score > 0 { us } else { us.flip() });
        }
        game.play(best);
    };
    (records, winner)
}

fn result_for(side: Color, winner: Option<Color>) -> &'static str {
    match winner {
        None => "0.5",
        Some(w) if w == side => "1",
        Some(_) => "0",
    }
}

fn main() {
    let a = parse_args();
    if let Some(dir) = std::path::Path::new(&a.out).parent() {
        std::fs::create_dir_all(dir).expect("output directory");
    }
    let out = Mutex::new(std::io::BufWriter::new(
        std::fs::File::create(&a.out).expect("output file"),
    ));
    let next = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let started = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..a.threads {
            s.spawn(|| {
                let mut searcher = Searcher::new(16);
                if let Err(e) = searcher.load_eval(&a.eval_file) {
                    panic!("{e}");
                }
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= a.games {
                        break;
                    }
                    searcher.clear();
                    let (records, winner) = play_game(&a, &searcher, a.seed * 1_000_003 + g);
                    let mut text = String::new();
                    for r in &records {
                        text += &format!(
                            "{}\t{}\t{}\t{}\n",
                            r.sfen,
                            r.score,
                            result_for(r.side, winner),
                            u8::from(r.quiet)
                        );
                    }
                    // Whole games only, flushed: a run stopped at any
                    // point leaves a file of complete games.
                    let mut file = out.lock().unwrap();
                    file.write_all(text.as_bytes()).unwrap();
                    file.flush().unwrap();
                    drop(file);
                    let n = positions.fetch_add(records.len() as u64, Ordering::Relaxed);
                    if g % 50 == 49 {
                        eprintln!(
                            "game {} positions {} {:.0} s",
                            g + 1,
                            n + records.len() as u64,
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    out.lock().unwrap().flush().unwrap();
    eprintln!(
        "done: {} games, {} positions in {:.0} s",
        a.games,
        positions.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
}
