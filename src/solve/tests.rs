//! Solver tests on tiny positions whose values can be derived by hand, and
//! cross-checks against an independent brute-force search, the rules core's
//! perft and the search's mate solver.

use super::*;
use crate::game::{Game, Outcome, Reason};
use crate::perft::perft;
use crate::search::{Control, MateResult, mate_search};
use crate::sfen::{parse_move, parse_sfen};

fn solved(sfen: &str) -> (Position, Solution) {
    let pos = parse_sfen(sfen).unwrap();
    let s = solve(&pos, Limits::default(), &|| false).unwrap();
    (pos, s)
}

fn value_of(sfen: &str) -> Value {
    let (pos, s) = solved(sfen);
    s.value(&pos).unwrap()
}

fn move_value(s: &Solution, pos: &Position, usi: &str) -> Option<Value> {
    let m = parse_move(pos, usi).ok()?;
    s.move_values(pos)?
        .into_iter()
        .find(|&(x, _)| x == m)
        .map(|(_, v)| v)
}

/// Whether the side to move can force the end of the game in its favour
/// within `plies` plies: a plain AND-OR search over the rules core, sharing
/// nothing with the solver but the move generator.
fn wins_within(pos: &Position, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let mut list = MoveList::new();
    movegen::legal_moves(pos, &mut list);
    list.iter().any(|&m| loses_within(&pos.play(m), plies - 1))
}

/// Whether the side to move loses within `plies` plies whatever it does.
fn loses_within(pos: &Position, plies: u32) -> bool {
    let mut list = MoveList::new();
    movegen::legal_moves(pos, &mut list);
    if list.is_empty() {
        return true;
    }
    plies > 0 && list.iter().all(|&m| wins_within(&pos.play(m), plies - 1))
}

/// The solver's value agrees with the brute force: exact distance for
/// decisive values up to `horizon`, and no decisive result within `horizon`
/// for the others.
fn agrees_with_brute_force(pos: &Position, v: Value, horizon: u32) {
    match v {
        Value::Win(d) if d <= horizon => {
            assert!(wins_within(pos, d), "{pos:?}: {v}");
            assert!(
                d < 2 || !wins_within(pos, d - 2),
                "{pos:?}: {v} is not the fastest"
            );
        }
        Value::Loss(d) if d <= horizon => {
            assert!(loses_within(pos, d), "{pos:?}: {v}");
            assert!(
                d < 2 || !loses_within(pos, d - 2),
                "{pos:?}: {v} is not the longest"
            );
        }
        Value::Win(_) | Value::Loss(_) | Value::Draw => {
            assert!(!wins_within(pos, horizon), "{pos:?}: {v}");
            assert!(!loses_within(pos, horizon), "{pos:?}: {v}");
        }
    }
}

#[test]
fn mate_in_one() {
    // G*1b: the gold, guarded by the king on 2c, covers 2a and 2b.
    let (pos, s) = solved("2k/3/1K1 b G 1");
    assert_eq!(s.value(&pos), Some(Value::Win(1)));
    assert_eq!(move_value(&s, &pos, "G*1b"), Some(Value::Win(1)));
    let after = pos.play(parse_move(&pos, "G*1b").unwrap());
    assert_eq!(s.value(&after), Some(Value::Loss(0)));
    assert!(after.in_check());
}

#[test]
fn mate_in_three() {
    // A lone silver in hand: no mate in 1 (a silver drop next to the king
    // always leaves it a square), mate in 3 by 3c2c and S*2b after the
    // king's reply (checked by brute force below).
    let (pos, s) = solved("2k/3/K2 b S 1");
    assert_eq!(s.value(&pos), Some(Value::Win(3)));
    assert!(!wins_within(&pos, 1));
    assert!(wins_within(&pos, 3));
    assert_eq!(move_value(&s, &pos, "3c2c"), Some(Value::Win(3)));
    assert_eq!(s.principal_line(&pos, 3).len(), 3);
}

#[test]
fn stalemate_is_a_loss() {
    // Gote's king on 1a is not in check but every square is covered: the
    // silver takes 2a, the gold 1b and 2b.
    let (pos, s) = solved("2k/S2/K1G w - 1");
    assert!(!pos.in_check());
    assert_eq!(s.value(&pos), Some(Value::Loss(0)));
    assert_eq!(s.stats().positions, 1);
    // And playing into it wins: S*2c stalemates gote (the search's test too).
    assert_eq!(value_of("2k/S2/K2 b S 1"), Value::Win(1));
}

#[test]
fn pawn_drop_mate_is_not_a_move() {
    // P*1b would mate (1b guarded by the king, 2a by the silver), so it is
    // illegal (打ち歩詰め); the same drop with a gold is mate.
    let (pos, s) = solved("2k/S2/1K1 b P 1");
    assert!(parse_move(&pos, "P*1b").is_err());
    assert_eq!(move_value(&s, &pos, "P*1b"), None);
    let (gpos, gs) = solved("2k/S2/1K1 b G 1");
    assert_eq!(move_value(&gs, &gpos, "G*1b"), Some(Value::Win(1)));
    // The pawn still wins, by stalemating moves, not by the drop.
    assert_eq!(s.value(&pos), Some(Value::Win(1)));
    for (m, v) in s.move_values(&pos).unwrap() {
        if v == Value::Win(1) {
            let after = pos.play(m);
            assert!(!after.in_check(), "{m} is not a pawn-drop mate");
        }
    }
}

#[test]
fn bare_kings_draw_by_repetition() {
    // Kings cannot check each other, so nobody can ever be mated: every
    // line ends in 千日手, a draw.
    let (pos, s) = solved("2k/3/K2 b - 1");
    assert_eq!(s.value(&pos), Some(Value::Draw));
    assert!(
        s.move_values(&pos)
            .unwrap()
            .iter()
            .all(|&(_, v)| v == Value::Draw)
    );
    // Both kings anywhere not adjacent, either side to move: 64 positions;
    // a position and its mirror image are stored once, and 4 are their own
    // mirror images (the kings on 2a and 2c), so (64 - 4) / 2 + 4 = 34.
    assert_eq!(s.stats().positions, 34);
    let line = s.principal_line(&pos, 100);
    assert!(line.len() < 100, "a drawn line stops at a repetition");
}

#[test]
fn decisive_values_match_brute_force() {
    for sfen in [
        "2k/3/K2 b S 1",
        "2k/3/K2 b G 1",
        "2k/3/1K1 b P 1",
        "2k/2P/1K1 w - 1",
        "2k/S2/1K1 b P 1",
        "k2/3/2K b R 1",
        "2k/3/K2 b B 1",
    ] {
        let (pos, s) = solved(sfen);
        let mut seen = 0;
        // The root and the positions along every root move's line.
        for (m, _) in s.move_values(&pos).unwrap() {
            let child = pos.play(m);
            let mut p = child.clone();
            agrees_with_brute_force(&p, s.value(&p).unwrap(), 7);
            for mv in s.principal_line(&child, 6) {
                p = p.play(mv);
                agrees_with_brute_force(&p, s.value(&p).unwrap(), 7);
                seen += 1;
            }
        }
        agrees_with_brute_force(&pos, s.value(&pos).unwrap(), 7);
        assert!(seen > 0, "{sfen}");
    }
}

#[test]
fn move_counts_match_perft() {
    // The solver's edges are the rules core's legal moves: perft 1 summed
    // over a reachable set is its edge count, and perft 2 of the root is the
    // sum of its children's move counts.
    let (pos, s) = solved("2k/3/K2 b S 1");
    let mut list = MoveList::new();
    movegen::legal_moves(&pos, &mut list);
    assert_eq!(s.move_values(&pos).unwrap().len() as u64, perft(&pos, 1));
    let children: u64 = list.iter().map(|&m| perft(&pos.play(m), 1)).sum();
    assert_eq!(children, perft(&pos, 2));
    let (bare, sb) = solved("2k/3/K2 b - 1");
    assert_eq!(sb.move_values(&bare).unwrap().len() as u64, perft(&bare, 1));
}

#[test]
fn agrees_with_the_mate_search() {
    // Wherever the tsume search finds a mate, the solver has a win at most
    // that long (it may be shorter: the solver also counts stalemates and
    // quiet moves).
    let control = Control::default();
    let mut checked = 0;
    for sfen in [
        "k2/3/2K b R 1",
        "2k/3/K2 b B 1",
        "2k/3/K2 b G 1",
        "2k/2P/1K1 w - 1",
    ] {
        let (pos, s) = solved(sfen);
        let mut positions = vec![pos.clone()];
        for (m, _) in s.move_values(&pos).unwrap() {
            let mut p = pos.play(m);
            positions.push(p.clone());
            for m in s.principal_line(&p.clone(), 8) {
                p = p.play(m);
                positions.push(p.clone());
            }
        }
        for p in positions {
            let (result, _) = mate_search(&p, Some(300), 0, &control);
            if let MateResult::Mate(line) = result {
                match s.value(&p) {
                    Some(Value::Win(d)) => assert!(d as usize <= line.len(), "{p:?}"),
                    other => panic!("{p:?}: mate search {line:?}, solver {other:?}"),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 4, "{checked}");
}

#[test]
fn layout_41() {
    // The book says sente wins with 3c2c; exhaustive analysis says gote wins.
    let (pos, s) = solved("B1k/P1p/K1b b - 1");
    assert_eq!(s.value(&pos), Some(Value::Loss(30)));
    assert_eq!(move_value(&s, &pos, "3c2c"), Some(Value::Loss(30)));
    // 1,378,888 positions without the mirror symmetry (measured before it
    // was used), 604 of them their own mirror image.
    assert_eq!(s.stats().positions, (1_378_888 + 604) / 2);
    let mut game = Game::new(pos.clone());
    for m in s.principal_line(&pos, 30) {
        game.play(m);
    }
    assert!(!movegen::has_legal_move(game.position()));
    assert_eq!(game.moves().len(), 30);
}

#[test]
fn unsupported_positions_are_refused() {
    let pos = parse_sfen("rbsgk/4p/5/P4/KGSBR b - 1").unwrap();
    assert!(matches!(
        solve(&pos, Limits::default(), &|| false),
        Err(SolveError::Unsupported(PackError::NotNinemasu))
    ));
    let pos = parse_sfen("B1k/P1p/K1b b - 1").unwrap();
    assert_eq!(
        solve(&pos, Limits::default(), &|| true).unwrap_err(),
        SolveError::Stopped
    );
    let tiny = Limits {
        threads: 1,
        max_bytes: 1 << 20,
        ..Limits::default()
    };
    assert!(matches!(
        solve(&pos, tiny, &|| false),
        Err(SolveError::TooLarge { .. })
    ));
}

#[test]
fn thread_count_does_not_change_the_result() {
    let pos = parse_sfen("2k/3/K2 b SPsp 1").unwrap();
    let one = solve(
        &pos,
        Limits {
            threads: 1,
            ..Limits::default()
        },
        &|| false,
    )
    .unwrap();
    let two = solve(
        &pos,
        Limits {
            threads: 2,
            ..Limits::default()
        },
        &|| false,
    )
    .unwrap();
    assert_eq!(one.values, two.values);
    assert_eq!(one.value(&pos), Some(Value::Win(27)));
}

/// The trapped positions of a solved set.
fn trapped_positions(s: &Solution) -> Vec<Position> {
    (0..s.index.len())
        .filter(|&i| s.trapped[i])
        .map(|i| s.packer.unpack(s.index.key(i as u32)))
        .collect()
}

#[test]
fn perpetual_check_is_the_only_hold_and_loses_by_the_rule() {
    // With a rook each, some drawn positions can be held only by checking
    // forever. Play one out: the trapped side gives check (its only drawing
    // moves), the other answers without check and keeps it trapped, until
    // the rules core's game ends it by 連続王手の千日手.
    let (_, s) = solved("2k/3/K2 b Rr 1");
    let traps = trapped_positions(&s);
    assert!(!traps.is_empty());
    for start in traps {
        assert_eq!(s.value(&start), Some(Value::Draw));
        let checker = start.side_to_move();
        let moves = s.move_values(&start).unwrap();
        assert!(
            moves
                .iter()
                .filter(|&&(_, v)| v == Value::Draw)
                .all(|&(m, _)| start.play(m).in_check()),
            "{start:?}: a quiet drawing move"
        );
        let mut game = Game::new(start.clone());
        let outcome = loop {
            if let Some(end) = game.outcome() {
                break end;
            }
            let pos = game.position().clone();
            let moves = s.move_values(&pos).unwrap();
            let m = if pos.side_to_move() == checker {
                moves.iter().find(|&&(_, v)| v == Value::Draw).unwrap().0
            } else {
                moves
                    .iter()
                    .find(|&&(m, v)| {
                        let next = pos.play(m);
                        v == Value::Draw
                            && !next.in_check()
                            && s.perpetual_check_trap(&next) == Some(true)
                    })
                    .expect("a quiet reply that keeps the trap")
                    .0
            };
            game.play(m);
            assert!(game.moves().len() < 200, "{start:?}: no repetition");
        };
        assert_eq!(
            outcome,
            (Outcome::Win(checker.flip()), Reason::PerpetualCheck),
            "{start:?}"
        );
    }
}
