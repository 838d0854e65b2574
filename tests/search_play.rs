//! Behaviour of `Searcher::think` through its USI output: mates, stalemate,
//! captures, repetition, limits, stop/ponder protocol, resign/win, MultiPV.

use crossbeam_channel::{Receiver, unbounded};
use fukayomi::game::Game;
use fukayomi::movegen::{has_legal_move, is_legal};
use fukayomi::search::{Control, Limits, SearchOptions, Searcher};
use fukayomi::sfen::{parse_move, parse_sfen};
use std::time::{Duration, Instant};

fn game(sfen: &str, moves: &str) -> Game {
    let mut g = Game::new(parse_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}")));
    for text in moves.split_whitespace() {
        let m = parse_move(g.position(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
        g.play(m);
    }
    g
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Runs one search to completion and returns every line sent.
fn run(g: &Game, limits: &Limits, options: &SearchOptions) -> Vec<String> {
    let (tx, rx) = unbounded();
    let control = Control::default();
    control.reset(limits.ponder);
    Searcher::new(4).think(g, limits, options, &control, &tx);
    rx.try_iter().collect()
}

/// Checks the protocol (one final line, last; a full info line before it)
/// and returns (last info line, bestmove line).
fn check_output(lines: &[String]) -> (String, String) {
    let finals: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(finals.len(), 1, "{lines:#?}");
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove"), "{lines:#?}");
    let info = &lines[lines.len() - 2];
    for word in [
        "info",
        " depth ",
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
    ] {
        assert!(info.contains(word), "missing '{word}' in {info}");
    }
    assert!(lines.iter().all(|l| l.is_ascii() && !l.contains('\n')));
    (info.clone(), last.clone())
}

/// The best move of a `bestmove` line, checked to be legal.
fn best(g: &Game, line: &str) -> fukayomi::moves::Move {
    let text = line.split_whitespace().nth(1).unwrap();
    let m = parse_move(g.position(), text).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert!(is_legal(g.position(), m));
    m
}

#[test]
fn finds_mate_in_one_on_every_board() {
    for sfen in [
        "8k/9/7G1/9/9/9/9/9/K8 b G 1",
        "4k/5/3G1/5/K4 b S 1",
        "2k/3/K1P b G 1",
    ] {
        let g = game(sfen, "");
        let lines = run(&g, &depth(3), &SearchOptions::default());
        let (info, bm) = check_output(&lines);
        assert!(info.contains("score mate 1 "), "{sfen}: {info}");
        let after = g.position().play(best(&g, &bm));
        assert!(!has_legal_move(&after), "{sfen}: {bm}");
    }
}

#[test]
fn finds_mate_in_three_on_every_board() {
    for sfen in [
        "8k/9/6K2/9/9/9/9/9/9 b SS 1",
        "4k/5/2K2/5/5 b SS 1",
        "2k/3/K2 b SS 1",
    ] {
        let g = game(sfen, "");
        let lines = run(&g, &depth(5), &SearchOptions::default());
        let (info, bm) = check_output(&lines);
        assert!(info.contains("score mate 3 "), "{sfen}: {info}");
        assert_eq!(best(&g, &bm).to_string(), "S*2b", "{sfen}");
    }
}

#[test]
fn stalemate_is_a_win_on_3x3() {
    // S*2c leaves gote's king on 1a without a move, though not in check.
    let g = game("2k/S2/K2 b S 1", "");
    let lines = run(&g, &depth(3), &SearchOptions::default());
    let (info, bm) = check_output(&lines);
    assert!(info.contains("score mate 1 "), "{info}");
    let after = g.position().play(best(&g, &bm));
    assert!(!has_legal_move(&after));
}

#[test]
fn no_legal_move_at_the_root_resigns() {
    let g = game("2k/S2/KS1 w - 1", "");
    let lines = run(&g, &depth(3), &SearchOptions::default());
    let (info, bm) = check_output(&lines);
    assert_eq!(bm, "bestmove resign");
    assert!(info.contains("score mate -"), "{info}");
}

#[test]
fn captures_a_hanging_rook() {
    let g = game("4k4/9/9/9/9/2r6/9/4B4/4K4 b - 1", "");
    let (info, bm) = check_output(&run(&g, &depth(4), &SearchOptions::default()));
    assert_eq!(bm.split_whitespace().nth(1), Some("5h7f"), "{info}");
}

#[test]
fn depth_limits_are_respected() {
    let g = game(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "",
    );
    let opts = SearchOptions {
        pv_interval: 0,
        ..SearchOptions::default()
    };
    let lines = run(&g, &depth(3), &opts);
    let (info, _) = check_output(&lines);
    assert!(info.starts_with("info depth 3 "), "{info}");
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|r| r.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, vec![1, 2, 3]);
    // DepthLimit caps a deeper request.
    let opts = SearchOptions {
        depth_limit: 2,
        ..SearchOptions::default()
    };
    let (info, _) = check_output(&run(&g, &depth(6), &opts));
    assert!(info.starts_with("info depth 2 "), "{info}");
}

#[test]
fn node_limits_are_respected() {
    let g = game(
        "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
        "",
    );
    for (limits, opts) in [
        (
            Limits {
                nodes: Some(3000),
                ..Limits::default()
            },
            SearchOptions::default(),
        ),
        (
            Limits::default(),
            SearchOptions {
                nodes_limit: 3000,
                threads: 2,
                ..SearchOptions::default()
            },
        ),
    ] {
        let lines = run(&g, &limits, &opts);
        let (info, bm) = check_output(&lines);
        let nodes: u64 = info
            .split(" nodes ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes <= 3000, "{info}");
        best(&g, &bm);
    }
}

#[test]
fn stopped_before_it_starts_still_plays_one_legal_move() {
    let g = game(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "",
    );
    let (tx, rx) = unbounded();
    let control = Control::default();
    control.reset(false);
    control.stop();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    Searcher::new(1).think(&g, &limits, &SearchOptions::default(), &control, &tx);
    let lines: Vec<String> = rx.try_iter().collect();
    let (_, bm) = check_output(&lines);
    best(&g, &bm);
}

/// Starts a search on another thread; returns the receiver and the handle.
fn spawn(
    g: Game,
    limits: Limits,
    control: std::sync::Arc<Control>,
) -> (Receiver<String>, std::thread::JoinHandle<()>) {
    let (tx, rx) = unbounded();
    control.reset(limits.ponder);
    let h = std::thread::spawn(move || {
        Searcher::new(4).think(&g, &limits, &SearchOptions::default(), &control, &tx);
    });
    (rx, h)
}

#[test]
fn infinite_waits_for_stop_even_when_the_search_is_done() {
    // 3x3 with depth 2: the search ends at once but must wait for `stop`.
    let control = std::sync::Arc::new(Control::default());
    let limits = Limits {
        infinite: true,
        depth: Some(2),
        ..Limits::default()
    };
    let (rx, h) = spawn(game("bk1/3/1KB b Pp 1", ""), limits, control.clone());
    std::thread::sleep(Duration::from_millis(60));
    assert!(rx.try_iter().all(|l| !l.starts_with("bestmove")));
    control.stop();
    h.join().unwrap();
    let lines: Vec<String> = rx.try_iter().collect();
    check_output(&lines);
}

#[test]
fn ponder_waits_for_ponderhit_then_uses_the_clock() {
    let control = std::sync::Arc::new(Control::default());
    let limits = Limits {
        ponder: true,
        btime: Some(0),
        wtime: Some(0),
        byoyomi: Some(300),
        ..Limits::default()
    };
    let g = game(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "",
    );
    let (rx, h) = spawn(g, limits, control.clone());
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        rx.try_iter().all(|l| !l.starts_with("bestmove")),
        "bestmove while pondering"
    );
    let hit = Instant::now();
    control.ponderhit();
    let line = loop {
        let l = rx
            .recv_timeout(Duration::from_secs(2))
            .expect("bestmove after ponderhit");
        if l.starts_with("bestmove") {
            break l;
        }
    };
    let ms = hit.elapsed().as_millis();
    h.join().unwrap();
    assert!(ms < 300, "{ms} ms after ponderhit ({line})");
}

#[test]
fn resigns_below_the_resign_value() {
    let g = game("4k4/9/9/9/9/9/9/9/4K4 w R 1", "");
    let opts = SearchOptions {
        resign_value: 500,
        ..SearchOptions::default()
    };
    let (_, bm) = check_output(&run(&g, &depth(3), &opts));
    assert_eq!(bm, "bestmove resign");
    let (_, bm) = check_output(&run(&g, &depth(3), &SearchOptions::default()));
    assert_ne!(bm, "bestmove resign");
}

#[test]
fn declares_an_entering_king_win() {
    let g = game("KRBGG4/PPPPPPPPP/9/9/9/9/9/9/4k4 b RB 1", "");
    assert!(fukayomi::entering_king::can_declare(
        g.position(),
        SearchOptions::default().entering_king_rule
    ));
    let (_, bm) = check_output(&run(&g, &depth(3), &SearchOptions::default()));
    assert_eq!(bm, "bestmove win");
}

#[test]
fn try_rule_plays_the_king_onto_the_try_square() {
    // The sente king on 4b can step onto 5a: under TryRule that move wins.
    let g = game("9/5K3/9/9/9/9/9/9/k8 b - 1", "");
    let opts = SearchOptions {
        entering_king_rule: fukayomi::entering_king::EnteringKingRule::TryRule,
        ..SearchOptions::default()
    };
    let (info, bm) = check_output(&run(&g, &depth(3), &opts));
    assert_eq!(bm, "bestmove 4b5a");
    assert!(info.contains("score mate 1"), "{info}");
    // Under the default rule the same position is an ordinary search.
    let (_, bm) = check_output(&run(&g, &depth(1), &SearchOptions::default()));
    assert_ne!(bm, "bestmove win");
}

#[test]
fn repetition_is_a_draw_on_9x9() {
    // Gote, a rook down, goes back to the start position: a draw.
    let g = game("4k4/9/9/9/9/9/9/9/4K4 b R 1", "5i5h 5a5b 5h5i");
    let opts = SearchOptions {
        draw_value_white: -7,
        ..SearchOptions::default()
    };
    let (info, bm) = check_output(&run(&g, &depth(4), &opts));
    assert!(info.contains("score cp -7 "), "{info}");
    assert_eq!(bm.split_whitespace().nth(1), Some("5b5a"));
}

#[test]
fn repetition_loses_for_sente_on_5x5() {
    // The same manoeuvre on 5x5 wins for gote.
    let g = game("4k/5/5/5/K4 b R 1", "5e5d 1a1b 5d5e");
    let (info, bm) = check_output(&run(&g, &depth(4), &SearchOptions::default()));
    assert!(info.contains("score mate 1 "), "{info}");
    assert_eq!(bm.split_whitespace().nth(1), Some("1b1a"));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Sente checked on every move of the cycle; repeating with 5h4h loses,
    // however bad the alternatives (gote has a dragon and a gold in hand).
    let g = game("+r4k3/9/9/9/9/9/9/4R4/8K b g 1", "5h4h 4a5a 4h5h 5a4a");
    let n = {
        let mut l = fukayomi::moves::MoveList::new();
        fukayomi::movegen::legal_moves(g.position(), &mut l);
        l.len()
    };
    let opts = SearchOptions {
        multi_pv: n,
        ..SearchOptions::default()
    };
    let lines = run(&g, &depth(2), &opts);
    check_output(&lines);
    let line = lines
        .iter()
        .find(|l| l.contains(" pv 5h4h"))
        .expect("the repeating move is reported");
    assert!(line.contains("score mate -1 "), "{line}");
}

#[test]
fn max_moves_to_draw_scores_a_draw() {
    let g = game("4k4/9/9/9/9/9/9/9/4K4 b R 100", "");
    let opts = SearchOptions {
        max_moves_to_draw: 100,
        ..SearchOptions::default()
    };
    let (info, _) = check_output(&run(&g, &depth(3), &opts));
    assert!(info.contains("score cp -2 "), "{info}");
}

#[test]
fn multipv_reports_k_lines_best_last() {
    let g = game("rbsgk/4p/5/P4/KGSBR b - 1", "");
    let opts = SearchOptions {
        multi_pv: 3,
        ..SearchOptions::default()
    };
    let lines = run(&g, &depth(3), &opts);
    let (info, bm) = check_output(&lines);
    assert!(info.contains(" multipv 1 "), "{info}");
    for k in 1..=3 {
        assert!(lines.iter().any(|l| l.contains(&format!(" multipv {k} "))));
    }
    let first = info
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(bm.split_whitespace().nth(1), Some(first));
}

#[test]
fn two_threads_search_and_suggest_a_ponder_move() {
    let g = game(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "",
    );
    let opts = SearchOptions {
        threads: 2,
        ..SearchOptions::default()
    };
    let (_, bm) = check_output(&run(&g, &depth(5), &opts));
    let m = best(&g, &bm);
    let words: Vec<&str> = bm.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{bm}");
    let after = g.position().play(m);
    let p = parse_move(&after, words[3]).unwrap();
    assert!(is_legal(&after, p));
}
