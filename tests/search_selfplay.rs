//! Short self-play games on every board: every reply is one legal
//! `bestmove` (or `resign` only when the game is lost), with a persistent
//! searcher reused across moves as the shell does.

use crossbeam_channel::unbounded;
use fukayomi::game::Game;
use fukayomi::movegen::is_legal;
use fukayomi::rules::BoardKind;
use fukayomi::search::{Control, Limits, SearchOptions, Searcher};
use fukayomi::sfen::{parse_move, parse_sfen};

fn play(sfen: &str, depth: u32, plies: usize, threads: usize) -> Game {
    let mut game = Game::new(parse_sfen(sfen).unwrap());
    let mut searcher = Searcher::new(8);
    searcher.clear();
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let (tx, rx) = unbounded();
        let control = Control::default();
        control.reset(false);
        searcher.think(&game, &limits, &options, &control, &tx);
        let lines: Vec<String> = rx.try_iter().collect();
        let last = lines.last().unwrap();
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1,
            "{lines:?}"
        );
        let text = last.split_whitespace().nth(1).unwrap();
        if text == "resign" || text == "win" {
            break;
        }
        let m = parse_move(game.position(), text).unwrap();
        assert!(is_legal(game.position(), m), "{last}");
        game.play(m);
    }
    game
}

#[test]
fn self_play_on_every_board() {
    play(BoardKind::Standard.start_sfen(), 3, 40, 1);
    play(BoardKind::Mini.start_sfen(), 4, 80, 2);
    for sfen in ["bk1/3/1KB b Pp 1", "1pk/R1r/KP1 b Bb 1", "2k/3/K2 b SPsp 1"] {
        play(sfen, 5, 80, 1);
    }
}
