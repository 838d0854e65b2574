//! The USI commands over pipes: what each one answers, and the promises about
//! `bestmove` (exactly one per `go`, none before `stop` in infinite/ponder).

mod usi_support;

use fukayomi::usi::options::{OptionType, declared};
use std::time::Duration;
use usi_support::{Engine, PATIENCE, count, errors};

const MATED: &str = "4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1";
const MATE_IN_ONE: &str = "4k4/9/4G4/9/9/9/9/9/4K4 b G 1";
const DECLARABLE: &str = "KG7/9/PPPPPPPPP/9/9/9/9/9/8k b 2R2B 1";

#[test]
fn usi_lists_id_every_option_and_usiok() {
    let mut e = Engine::spawn();
    e.send("usi");
    let lines = e.until(PATIENCE, |l| l == "usiok");
    assert!(lines[0].starts_with("id name Fukayomi "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for d in declared() {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("option name {} type ", d.name)))
            .unwrap_or_else(|| panic!("option {} not listed", d.name));
        assert_eq!(*line, d.usi_line());
    }
    assert_eq!(count(&lines, "option name "), declared().len());
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn setoption_accepts_every_declared_option() {
    let mut e = Engine::spawn();
    for d in declared() {
        let values: Vec<String> = match &d.kind {
            OptionType::Spin { default, min, max } => {
                vec![min.to_string(), max.to_string(), default.to_string()]
            }
            OptionType::Check { default } => vec![(!default).to_string(), default.to_string()],
            OptionType::Combo { vars, default } => vars
                .iter()
                .map(|v| v.to_string())
                .chain([default.to_string()])
                .collect(),
            OptionType::Text { default } => vec![default.to_string()],
        };
        for v in values {
            if d.name == "USI_Hash" && v != "1" && v != "16" {
                continue; // do not allocate 64 GiB in a test
            }
            e.send(&format!("setoption name {} value {v}", d.name));
        }
    }
    // Names are case-insensitive, as in YaneuraOu.
    e.send("setoption name multipv value 3");
    let lines = e.sync();
    assert_eq!(lines, Vec::<String>::new());
}

#[test]
fn position_d_and_moves() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f 3c3d");
    e.send("d");
    let lines = e.until(PATIENCE, |l| l.starts_with("Key: "));
    let text = lines.join("\n");
    assert!(text.contains("Gote hand: -"), "{text}");
    assert!(text.contains("Sente hand: -"), "{text}");
    assert!(text.contains("Side to move: sente (b)"), "{text}");
    assert!(
        text.contains("Sfen: lnsgkgsnl/1r5b1/pp1pppppp/2p6/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3")
            || text.contains(
                "Sfen: lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
            ),
        "{text}"
    );
    assert!(lines.last().unwrap().len() == "Key: ".len() + 16);
    assert_eq!(count(&lines, " |"), 9);

    e.send("position startpos");
    e.send("moves");
    let line = e.recv(PATIENCE).unwrap();
    assert_eq!(line.split_whitespace().count(), 30, "{line}");
    assert!(line.split_whitespace().any(|m| m == "7g7f"));

    e.send(&format!("position sfen {MATED}"));
    e.send("moves");
    assert_eq!(e.recv(PATIENCE).unwrap(), "(none)");
}

#[test]
fn hands_show_in_d() {
    let mut e = Engine::spawn();
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b RB2G3Pn 1");
    e.send("d");
    let lines = e.until(PATIENCE, |l| l.starts_with("Key: "));
    assert!(
        lines.contains(&"Sente hand: R B G2 P3".to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&"Gote hand: N".to_string()), "{lines:?}");
}

#[test]
fn usi_variant_chooses_startpos_and_sfen_chooses_its_board() {
    let mut e = Engine::spawn();
    e.send("setoption name USI_Variant value minishogi");
    e.send("position startpos moves 5e4d");
    assert_eq!(e.sfen(), "rbsgk/4p/5/PK3/1GSBR w - 2");
    e.send("setoption name USI_Variant value ninemasu");
    e.send("position startpos");
    assert_eq!(e.sfen(), "bk1/3/1KB b Pp 1");
    // An SFEN chooses its own board whatever USI_Variant says.
    e.send("position sfen rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(e.sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
    e.send("setoption name USI_Variant value shogi");
    e.send("position startpos");
    assert_eq!(
        e.sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert!(errors(&e.transcript).is_empty(), "{:?}", e.transcript);
}

#[test]
fn go_perft_uses_yaneuraou_format() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until(PATIENCE, |l| l.starts_with("Nodes searched: "));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 25470");
    let per_move: Vec<&String> = lines
        .iter()
        .filter(|l| !l.starts_with("info ") && !l.starts_with("Nodes"))
        .collect();
    assert_eq!(per_move.len(), 30, "{lines:?}");
    let sum: u64 = per_move
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 25470);
    // The other boards too.
    e.send("position sfen rbsgk/4p/5/P4/KGSBR b - 1");
    e.send("go perft 4");
    let lines = e.until(PATIENCE, |l| l.starts_with("Nodes searched: "));
    assert!(lines.last().unwrap().starts_with("Nodes searched: "));
}

/// Sends `go <params>` and returns the lines up to `bestmove`, checking that
/// exactly one `bestmove` comes and nothing after it.
fn one_bestmove(e: &mut Engine, params: &str) -> Vec<String> {
    e.send(format!("go {params}").trim_end());
    let lines = e.until_bestmove(PATIENCE);
    let after = e.sync();
    assert_eq!(count(&after, "bestmove"), 0, "second bestmove: {after:?}");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    lines
}

#[test]
fn every_go_form_gives_one_bestmove() {
    let mut e = Engine::spawn();
    e.handshake();
    e.send("usinewgame");
    e.send("position startpos moves 7g7f");
    for params in [
        "depth 3",
        "nodes 5000",
        "movetime 200",
        "btime 0 wtime 0 byoyomi 200",
        "btime 2000 wtime 2000 binc 100 winc 100",
        "btime 1000 wtime 1000",
        "wtime 800 btime 800 byoyomi 0",
        "",
    ] {
        let lines = one_bestmove(&mut e, params);
        let best = lines.last().unwrap();
        let mv = best.split_whitespace().nth(1).unwrap();
        assert!(mv.len() >= 4, "{params}: {best}");
    }
    e.send("gameover win");
    assert!(e.sync().is_empty());
}

#[test]
fn bestmove_is_legal_on_every_board() {
    let mut e = Engine::spawn();
    for sfen in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "bk1/3/1KB b Pp 1",
    ] {
        e.send(&format!("position sfen {sfen}"));
        e.send("moves");
        let legal = e.recv(PATIENCE).unwrap();
        let lines = one_bestmove(&mut e, "depth 4");
        let mv = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        assert!(
            legal.split_whitespace().any(|m| m == mv),
            "{sfen}: {mv} not in {legal}"
        );
    }
}

#[test]
fn info_lines_precede_bestmove() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    let lines = one_bestmove(&mut e, "depth 3");
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("info "), "{l}");
    }
}

#[test]
fn resign_when_there_is_no_legal_move() {
    let mut e = Engine::spawn();
    e.send(&format!("position sfen {MATED}"));
    let lines = one_bestmove(&mut e, "btime 0 wtime 0 byoyomi 100");
    assert_eq!(lines.last().unwrap(), "bestmove resign");
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = Engine::spawn();
    e.send("position sfen bk1/3/1KB b Pp 1"); // searched out at once
    e.send("go infinite");
    assert_eq!(
        e.recv(Duration::from_millis(700))
            .filter(|l| l.starts_with("bestmove")),
        None
    );
    let lines = e.sync();
    assert_eq!(count(&lines, "bestmove"), 0, "{lines:?}");
    e.send("stop");
    e.until_bestmove(PATIENCE);
    assert_eq!(count(&e.sync(), "bestmove"), 0);
}

#[test]
fn go_ponder_waits_for_ponderhit_or_stop() {
    let mut e = Engine::spawn();
    e.send("setoption name USI_Ponder value true");
    e.send(&format!("position sfen {MATED}"));
    e.send("go ponder btime 0 wtime 0 byoyomi 100");
    let early = e.drain(Duration::from_millis(500));
    assert_eq!(count(&early, "bestmove"), 0, "{early:?}");
    e.send("ponderhit");
    let lines = e.until_bestmove(PATIENCE);
    assert_eq!(lines.last().unwrap(), "bestmove resign");

    e.send("position startpos");
    e.send("go ponder btime 10000 wtime 10000 byoyomi 1000");
    let early = e.drain(Duration::from_millis(300));
    assert_eq!(count(&early, "bestmove"), 0, "{early:?}");
    e.send("stop");
    e.until_bestmove(PATIENCE);
    assert_eq!(count(&e.sync(), "bestmove"), 0);
}

#[test]
fn ponderhit_starts_the_clock() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    std::thread::sleep(Duration::from_millis(1500));
    e.send("ponderhit");
    let start = std::time::Instant::now();
    let (lines, at) = e.until_timed(PATIENCE, |l| l.starts_with("bestmove"));
    let spent = at.duration_since(start);
    assert!(spent < Duration::from_millis(1000), "{spent:?}: {lines:?}");
}

#[test]
fn gameover_stops_with_or_without_result() {
    let mut e = Engine::spawn();
    for word in ["lose", "win", "draw", ""] {
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(50));
        e.send(format!("gameover {word}").trim_end());
        e.until_bestmove(PATIENCE);
        assert_eq!(count(&e.sync(), "bestmove"), 0);
    }
    assert!(errors(&e.transcript).is_empty(), "{:?}", e.transcript);
}

#[test]
fn stop_and_ponderhit_when_idle_are_silent() {
    let mut e = Engine::spawn();
    e.send("stop");
    e.send("ponderhit");
    e.send("gameover");
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn go_during_a_search_stops_the_old_one_first() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves 7g7f");
    e.send("go depth 2");
    let first = e.until_bestmove(PATIENCE);
    let second = e.until_bestmove(PATIENCE);
    assert_eq!(count(&first, "bestmove"), 1);
    assert_eq!(count(&second, "bestmove"), 1);
    // The second search was of the new position: gote's move.
    let mv = second.last().unwrap().split_whitespace().nth(1).unwrap();
    e.send("moves");
    let legal = e.recv(PATIENCE).unwrap();
    assert!(legal.split_whitespace().any(|m| m == mv), "{mv} / {legal}");
    assert_eq!(count(&e.sync(), "bestmove"), 0);
}

#[test]
fn position_and_setoption_during_a_search_apply_to_the_next() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go infinite");
    e.send("position sfen bk1/3/1KB b Pp 1");
    e.send("setoption name MultiPV value 2");
    e.send("usinewgame");
    assert!(e.sync().iter().all(|l| l.starts_with("info ")));
    e.send("stop");
    let lines = e.until_bestmove(PATIENCE);
    // The running search was of the 9x9 start.
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert_eq!(mv.len(), 4, "{mv}");
    assert_eq!(e.sfen(), "bk1/3/1KB b Pp 1");
}

#[test]
fn go_mate_answers_with_one_checkmate_line() {
    let mut e = Engine::spawn();
    e.send(&format!("position sfen {MATE_IN_ONE}"));
    e.send("go mate 5000");
    let lines = e.until(PATIENCE, |l| l.starts_with("checkmate"));
    assert_eq!(lines.last().unwrap(), "checkmate G*5b");
    let after = e.sync();
    assert_eq!(count(&after, "checkmate") + count(&after, "bestmove"), 0);
    e.send(&format!("position sfen {MATED}"));
    e.send("go mate infinite");
    let lines = e.until(PATIENCE, |l| l.starts_with("checkmate"));
    assert!(lines.last().unwrap().starts_with("checkmate "), "{lines:?}");
}

#[test]
fn bestmove_win_under_entering_king_rule() {
    let mut e = Engine::spawn();
    e.send(&format!("position sfen {DECLARABLE}"));
    let lines = one_bestmove(&mut e, "btime 0 wtime 0 byoyomi 200");
    assert_eq!(lines.last().unwrap(), "bestmove win");
    e.send("setoption name EnteringKingRule value NoEnteringKing");
    let lines = one_bestmove(&mut e, "btime 0 wtime 0 byoyomi 200");
    assert_ne!(lines.last().unwrap(), "bestmove win");
}

#[test]
fn bench_runs_and_ends() {
    let mut e = Engine::spawn();
    e.send("bench 3");
    let lines = e.until(PATIENCE, |l| l.starts_with("info string bench depth "));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.last().unwrap().contains(" nps "), "{lines:?}");
}

#[test]
fn comments_are_ignored() {
    let mut e = Engine::spawn();
    e.send("# a script comment");
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn in_order_jobs_answer_before_later_commands() {
    // A pipe user reads answers in command order: the perft and the readyok
    // come before the board and the move list typed after them.
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go perft 4");
    e.send("d");
    e.send("isready");
    e.send("moves");
    // The `moves` answer: the 30 legal moves on one line.
    let lines = e.until(PATIENCE, |l| l.split_whitespace().count() == 30);
    let at = |prefix: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{prefix} missing: {lines:?}"))
    };
    assert!(at("Nodes searched: 719731") < at("Sfen:"), "{lines:?}");
    assert!(at("Sfen:") < at("readyok"), "{lines:?}");
    assert_eq!(at("readyok"), lines.len() - 2, "{lines:?}");
}

#[test]
fn a_bad_eval_file_is_reported_and_the_built_in_weights_play() {
    let mut e = Engine::spawn();
    e.send("usi");
    e.until(PATIENCE, |l| l == "usiok");
    let dir = std::env::temp_dir().join(format!("fukayomi-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &b"FKYEVAL1\x01\x02"[..]).unwrap();
    for file in [dir.join("missing.bin"), truncated] {
        e.send(&format!("setoption name EvalFile value {}", file.display()));
        // Reported once: at isready, or (when the engine was still winding
        // down the last search and answered readyok at once) at the go.
        let mut lines = e.sync();
        e.send("position startpos");
        e.send("go depth 4");
        lines.extend(e.until_bestmove(PATIENCE));
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{file:?} {lines:?}");
        assert!(errs[0].contains("EvalFile"), "{lines:?}");
    }
    // The same path repaired (material-only weights): loaded at the next
    // isready without an error, and the learned evaluation is then material.
    let repaired = dir.join("truncated.bin");
    std::fs::write(&repaired, fukayomi::eval::Weights::material().to_bytes()).unwrap();
    assert_eq!(e.sync(), Vec::<String>::new());
    assert_scores_material(&mut e);
    // Back to the built-in weights: no error.
    e.send("setoption name EvalFile value <empty>");
    assert_eq!(e.sync(), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_network_eval_file_is_loaded_and_a_float_one_refused() {
    use fukayomi::eval::{Network, Weights};
    use fukayomi::rules::BoardKind;
    let mut e = Engine::spawn();
    e.handshake();
    let dir = std::env::temp_dir().join(format!("fukayomi-network-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A network that adds nothing to material weights evaluates material.
    let net = Network::from_linear(Weights::material().board(BoardKind::Standard));
    let file = dir.join("material-net.bin");
    std::fs::write(&file, net.to_bytes()).unwrap();
    e.send(&format!("setoption name EvalFile value {}", file.display()));
    assert_eq!(e.sync(), Vec::<String>::new());
    assert_scores_material(&mut e);
    // The trainer's float file is refused with a hint.
    let float = dir.join("float.bin");
    std::fs::write(&float, b"FKYNETF1\x00").unwrap();
    e.send(&format!(
        "setoption name EvalFile value {}",
        float.display()
    ));
    // Reported at isready or, when the last search was still winding
    // down, at the go.
    let mut lines = e.sync();
    e.send("position startpos");
    e.send("go depth 2");
    lines.extend(e.until_bestmove(PATIENCE));
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "{lines:?}");
    assert!(errs[0].contains("float network"), "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_material_evaluation_stays_selectable() {
    let mut e = Engine::spawn();
    e.handshake();
    e.send("setoption name Evaluation value Material");
    assert_scores_material(&mut e);
}

/// Gote a gold down in a quiet position: an evaluation that counts material
/// only scores -540 whatever gote plays.
fn assert_scores_material(e: &mut Engine) {
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K3G w - 1");
    e.send("go depth 1");
    let lines = e.until_bestmove(PATIENCE);
    assert!(
        lines.iter().any(|l| l.contains("score cp -540")),
        "{lines:?}"
    );
}
