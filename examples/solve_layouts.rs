//! Solves every layout of `tests/data/ninemasu-layouts.tsv` and writes the
//! table `docs/ninemasu.md`.
//!
//! ```sh
//! cargo run --release --example solve_layouts            # all layouts -> docs/ninemasu.md
//! cargo run --release --example solve_layouts -- 41 143  # only these, printed to stdout
//! ```
//!
//! Each layout is settled from scratch (nothing is shared between layouts)
//! by [`settle`]'s rule: retrograde analysis when the reachable set has at
//! most 1.5 M positions, the exact forward proof otherwise (and the
//! retrograde analysis within 4 GiB if that proves nothing), on up to two
//! threads.

use std::fmt::Write as _;
use std::time::Instant;

use fukayomi::game::Game;
use fukayomi::position::Position;
use fukayomi::sfen::{parse_move, parse_sfen};
use fukayomi::solve::hybrid::{
    RETROGRADE_MAX_POSITIONS, SettleError, SettleLimits, Settled, settle,
};
use fukayomi::solve::prove::{DEFAULT_TABLE_BYTES, FIRST_TABLE_BYTES};
use fukayomi::solve::report::{for_sente, layouts, line_text};
use fukayomi::solve::{Solution, Value};
use fukayomi::types::Color;

const LAYOUTS: &str = "tests/data/ninemasu-layouts.tsv";
const OUTPUT: &str = "docs/ninemasu.md";

/// No.41's line from 「9マス将棋の本」 as quoted in the seed blog post
/// (2三玉、2一玉、1三角、同歩成、同玉、3三角、2三歩、1一角成、3一歩成、同玉、
/// 2二角、同馬、同歩、1一歩、2三玉、1二角、3三玉、2一角、同歩成、同玉、3二角、
/// 1二玉、3一角、2一歩、2三角), transcribed to USI.
const BOOK_LINE_41: &str = "3c2c 1a2a 3a1c 1b1c+ 2c1c B*3c P*2c 3c1a+ 3b3a+ 2a3a B*2b 1a2b 2c2b P*1a 1c2c B*1b 2c3c 1b2a 2b2a+ 3a2a B*3b 2a1b B*3a P*2a 3b2c";

/// The reachable sets of the layouts the rule settles by forward proof
/// (which never enumerates them), counted apart (session 9) by
/// `cargo run --release --example count_reachable -- 4 5 24 27 29 32 36 37
/// 42 43 143 144`, with the same packing (a position and its mirror image
/// once) as the retrograde's counts; shown beside the proof nodes.
const REACHABLE: &[(u32, &str)] = &[
    (4, "31208588"),
    (5, "31208588"),
    (24, "134982032"),
    (27, "7486916"),
    (29, "2364188"),
    // Stopped at the memory of this machine (a hash set of 8-byte keys):
    // more than this.
    (32, "> 671088640"),
    (36, "1620738"),
    (37, "42478736"),
    (42, "1615276"),
    (43, "7673754"),
    (143, "42478736"),
    (144, "42478736"),
];

struct Row {
    number: u32,
    sfen: String,
    side: Color,
    result: Result<Settled, SettleError>,
    seconds: f64,
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn value_for_sente(v: Value, side: Color) -> (String, String) {
    let text = for_sente(v, side);
    match v {
        Value::Draw => ("draw".into(), "-".into()),
        Value::Win(d) | Value::Loss(d) => (
            text.split(" in ").next().unwrap_or("").to_string(),
            d.to_string(),
        ),
    }
}

fn best_moves(s: &Settled) -> String {
    let list: Vec<String> = s.best_moves().iter().map(|m| m.to_string()).collect();
    if list.is_empty() {
        "(none)".into()
    } else {
        list.join(" ")
    }
}

/// Peak memory of a settled layout: the retrograde's estimate, or the
/// forward proof's table (allocated once; its pages are touched as used).
fn memory_mib(s: &Settled) -> usize {
    match s {
        Settled::Solved(s) => s.stats().peak_bytes >> 20,
        Settled::Proved(p) => p.bytes >> 20,
    }
}

/// A one-line description for the progress log.
fn describe(s: &Settled, pos: &Position) -> String {
    let value = for_sente(s.value(), pos.side_to_move());
    match s {
        Settled::Solved(x) => format!(
            "{value} (retrograde, {} positions, {} MiB)",
            x.stats().positions,
            memory_mib(s)
        ),
        Settled::Proved(p) => format!(
            "{value} (forward proof, {} nodes, {} positions stored, {} MiB table)",
            p.nodes,
            p.stored,
            memory_mib(s)
        ),
    }
}

fn book_line_report(s: &Solution, root: &Position) -> String {
    let mut text = String::new();
    let mut game = Game::new(root.clone());
    let mut first_error: Option<String> = None;
    let _ = writeln!(
        text,
        "| ply | move | mover's move value | best value for the mover | value-keeping |"
    );
    let _ = writeln!(text, "|---:|---|---|---|---|");
    for (i, word) in BOOK_LINE_41.split_whitespace().enumerate() {
        let pos = game.position().clone();
        let m = match parse_move(&pos, word) {
            Ok(m) => m,
            Err(e) => {
                let _ = writeln!(text, "| {} | {word} | illegal: {e} | | |", i + 1);
                return text;
            }
        };
        let moves = s.move_values(&pos).unwrap_or_default();
        let best = moves.first().map(|&(_, v)| v);
        let this = moves.iter().find(|&&(x, _)| x == m).map(|&(_, v)| v);
        let keeps = match (this, best) {
            (Some(a), Some(b)) if a == b => "yes".to_string(),
            (Some(a), Some(b)) if std::mem::discriminant(&a) == std::mem::discriminant(&b) => {
                "same result, not the best distance".to_string()
            }
            _ => {
                if first_error.is_none() {
                    let alternatives: Vec<String> = moves
                        .iter()
                        .filter(|&&(_, v)| Some(v) == best)
                        .map(|(m, _)| format!("`{m}`"))
                        .collect();
                    first_error = Some(format!(
                        "The first move of the line that changes the result is ply {} `{word}` \
                         ({}); the value-keeping moves there: {} ({}).",
                        i + 1,
                        show_value(this),
                        alternatives.join(", "),
                        show_value(best)
                    ));
                }
                "**no: changes the result**".to_string()
            }
        };
        let _ = writeln!(
            text,
            "| {} | {word} | {} | {} | {keeps} |",
            i + 1,
            show_value(this),
            show_value(best)
        );
        game.play(m);
    }
    let end = game.position();
    let _ = writeln!(
        text,
        "\nAfter the line: {} to move, {}.",
        if end.side_to_move() == Color::Sente {
            "sente"
        } else {
            "gote"
        },
        s.value(end).map_or("?".to_string(), |v| v.to_string())
    );
    if let Some(e) = first_error {
        let _ = writeln!(text, "\n{e}");
    }
    text
}

/// The remark on a drawn root held only by perpetual check (empty if none).
fn draw_note(s: &Solution) -> String {
    let root = s.root();
    if s.value(root) != Some(Value::Draw) {
        return String::new();
    }
    if s.perpetual_check_trap(root) == Some(true) {
        return " (sente holds only by perpetual check)".into();
    }
    let traps = s
        .move_values(root)
        .unwrap_or_default()
        .iter()
        .any(|&(m, mv)| mv == Value::Draw && s.perpetual_check_trap(&root.play(m)) == Some(true));
    if traps {
        " (sente can leave gote only perpetual check)".into()
    } else {
        String::new()
    }
}

fn show_value(v: Option<Value>) -> String {
    v.map_or("?".to_string(), |v| v.to_string())
}

fn main() {
    let only: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let text = std::fs::read_to_string(LAYOUTS).expect("run from the repository root");
    let load_before = load();
    let started = Instant::now();
    let mut rows = Vec::new();
    for (number, sfen) in layouts(&text, &only) {
        let pos = parse_sfen(sfen).expect("layout SFEN");
        let t = Instant::now();
        let result = settle(&pos, SettleLimits::default(), &|| false);
        let seconds = t.elapsed().as_secs_f64();
        match &result {
            Ok(s) => eprintln!("No.{number} {sfen}: {} {seconds:.2} s", describe(s, &pos)),
            Err(e) => eprintln!("No.{number} {sfen}: not solved: {e} ({seconds:.1} s)"),
        }
        rows.push(Row {
            number,
            sfen: sfen.to_string(),
            side: pos.side_to_move(),
            result,
            seconds,
        });
    }
    let total = started.elapsed().as_secs_f64();
    let load_after = load();

    let mut md = String::new();
    let _ = writeln!(md, "# 9マス将棋: the exact value of every layout\n");
    let _ = writeln!(
        md,
        "Generated by `cargo run --release --example solve_layouts` from `{LAYOUTS}` \
         (layouts numbered as in the 3三将棋 app). Each layout is settled from scratch \
         (`src/solve/`) by one rule (`src/solve/hybrid.rs`): *retrograde* analysis over every \
         position reachable from it when that set has at most {RETROGRADE_MAX_POSITIONS} \
         positions; otherwise an exact *forward* proof (a depth-bounded AND/OR search deepened \
         ply by ply, no pruning; the children of a node are tried in rounds with a growing \
         node budget, which orders them and decides nothing; two threads ask the same questions \
         on one shared table, the second taking the children of a loss node in the reverse \
         order, `src/solve/prove/`), which proves \
         decisive values only; and if \
         that proved nothing, the retrograde analysis with a 4 GiB bound. Rules: the rules \
         core's 3x3 rules (promotion zone = the far rank, forced promotion and dead drops, 二歩, \
         打ち歩詰め; no legal move = loss). A decisive value holds whatever the repetition rule; \
         *draw* means neither side can force a win (see `src/solve/mod.rs` for 千日手 and \
         連続王手の千日手); a draw is marked when one side can hold it only by perpetual check, \
         a loss under 連続王手の千日手.\n"
    );
    let _ = writeln!(
        md,
        "Columns: *value* for sente (who wins with best play), *plies* to the end under best \
         play (winner fastest, loser longest), *best first moves* (every first move that keeps \
         the value at that distance: the winning moves, or in a loss the longest-resisting ones, \
         or in a draw the drawing ones), *method* (retrograde or forward), *positions*: for the \
         retrograde the positions of the reachable set (a position and its mirror image, files \
         1 and 3 exchanged, counted once); for the forward proof, which never enumerates the \
         set, the same count made apart (`cargo run --release --example count_reachable`, \
         not part of the timed rule) and in brackets the *proof nodes*: \
         positions expanded by the proof search, counted each time one is expanded \
         (not distinct positions), both threads together (the count varies a little from run \
         to run: the threads share what they prove as they go); *MiB* the peak memory \
         (retrograde: estimate from its tables; forward: the pages of the proof table written, \
         expected from the positions stored, or all of them: its first table of {first} MiB \
         is allocated at once, with huge pages, and its pages are taken as they are first \
         written; past a million nodes a table of {second} MiB takes all its pages at once), \
         *seconds* \
         wall-clock for the whole rule (for forward rows this includes the refused first \
         retrograde attempt).\n",
        first = FIRST_TABLE_BYTES >> 20,
        second = DEFAULT_TABLE_BYTES >> 20,
    );
    let _ = writeln!(
        md,
        "Cross-checks: on every decisive layout whose reachable set has at most 2.5 million \
         positions (118 layouts) the forward proof and the retrograde analysis give the same \
         value, distance and set of best first moves (`cargo run --release --example \
         prove_check -- --compare --max-positions 2500000`); the forward results on No.4, 5, \
         27, 37, 43, 143 and 144 are those the retrograde analysis gave when this table was \
         generated by it alone; No.24's (sente wins in 17, only by 2a1a) is that of the \
         un-move retrograde solver of commit 2e6b6e3 (134,982,032 positions, 872 s).\n"
    );
    let solved = rows.iter().filter(|r| r.result.is_ok()).count();
    let count = |f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count();
    let sente_side = |r: &Row| r.result.as_ref().ok().map(|s| (s.value(), r.side));
    let sente_wins = count(&|r| {
        matches!(
            sente_side(r),
            Some((Value::Win(_), Color::Sente)) | Some((Value::Loss(_), Color::Gote))
        )
    });
    let draws = count(&|r| matches!(sente_side(r), Some((Value::Draw, _))));
    let forward = count(&|r| matches!(r.result, Ok(Settled::Proved(_))));
    let max_seconds = rows
        .iter()
        .filter(|r| r.result.is_ok())
        .map(|r| r.seconds)
        .fold(0.0, f64::max);
    let over_ten = count(&|r| r.seconds > 10.0);
    let max_mib = rows
        .iter()
        .filter_map(|r| r.result.as_ref().ok())
        .map(memory_mib)
        .max()
        .unwrap_or(0);
    let _ = writeln!(
        md,
        "Summary: {} layouts, {solved} solved ({forward} by forward proof): sente wins \
         {sente_wins}, gote wins {}, draws {draws}; {} not solved. Slowest layout \
         {max_seconds:.2} s; {over_ten} layouts took more than 10 s; largest memory figure \
         {max_mib} MiB (see *MiB*). Total {total:.0} s; load average {load_before} before, {load_after} \
         after (the 2-core machine was shared with other jobs).\n",
        rows.len(),
        solved - sente_wins - draws,
        rows.len() - solved,
    );
    if let Some(r) = rows.iter().find(|r| r.number == 41)
        && let Ok(Settled::Solved(s)) = &r.result
    {
        let root = s.root();
        let v = s.value(root).expect("root is solved");
        let _ = writeln!(md, "## No.41 (`{}`), the book's 上級 problem\n", r.sfen);
        let _ = writeln!(
            md,
            "Value: **{} plies** (sente to move: {}, score `{}`). Sente's first moves:\n",
            for_sente(v, root.side_to_move()),
            v,
            v.usi_score()
        );
        for (m, mv) in s.move_values(root).unwrap_or_default() {
            let _ = writeln!(md, "- `{m}`: {mv}");
        }
        let _ = writeln!(
            md,
            "\nA principal line (fastest win, longest defence): `{}`\n",
            line_text(s, root)
        );
        let _ = writeln!(
            md,
            "The book's line, move by move (3c2c = 2三玉; a move is value-keeping when it has \
             the best value available to its player):\n"
        );
        md.push_str(&book_line_report(s, root));
        md.push('\n');
    }
    let _ = writeln!(md, "## All layouts\n");
    let _ = writeln!(
        md,
        "| No. | SFEN | value for sente | plies | best first moves | method | positions | MiB | seconds |"
    );
    let _ = writeln!(md, "|---:|---|---|---:|---|---|---:|---:|---:|");
    for r in &rows {
        match &r.result {
            Ok(settled) => {
                let v = settled.value();
                let (mut who, plies) = value_for_sente(v, r.side);
                let (method, size) = match settled {
                    Settled::Solved(s) => {
                        who.push_str(&draw_note(s));
                        ("retrograde", s.stats().positions.to_string())
                    }
                    Settled::Proved(p) => {
                        let reachable = REACHABLE
                            .iter()
                            .find(|&&(n, _)| n == r.number)
                            .map_or("-", |&(_, c)| c);
                        ("forward", format!("{reachable} ({} proof nodes)", p.nodes))
                    }
                };
                let _ = writeln!(
                    md,
                    "| {} | `{}` | {who} | {plies} | {} | {method} | {size} | {} | {:.2} |",
                    r.number,
                    r.sfen,
                    best_moves(settled),
                    memory_mib(settled),
                    r.seconds
                );
            }
            Err(e) => {
                let _ = writeln!(
                    md,
                    "| {} | `{}` | not solved: {e} | | | | | | {:.1} |",
                    r.number, r.sfen, r.seconds
                );
            }
        }
    }
    if only.is_empty() {
        std::fs::create_dir_all("docs").expect("create docs/");
        std::fs::write(OUTPUT, md).expect("write the table");
        eprintln!("wrote {OUTPUT}");
    } else {
        print!("{md}");
    }
}
