//! The forward proof against the retrograde analysis: same value, same
//! distance, same best first moves, on hand-made tiny positions, on every
//! position one ply into small layouts, and on the proof's own contract
//! (no claim for draws, refusal of unsupported positions).

use super::*;
use crate::sfen::parse_sfen;
use crate::solve::{Limits, Solution, solve};

/// A small table: the tests' proofs are small.
const TEST_TABLE_BYTES: usize = 1 << 24;
/// Deepest draw check: a drawn position must stay undecided up to here.
const DRAW_HORIZON: u32 = 8;

fn prove_up_to(pos: &Position, max_plies: u32) -> Result<Proof, ProveError> {
    let limits = ProveLimits {
        table_bytes: TEST_TABLE_BYTES,
        max_plies,
        principal_line: true,
        ..ProveLimits::default()
    };
    prove(pos, limits, &|| false)
}

/// The retrograde's best first moves of `pos`, sorted.
fn retro_best(s: &Solution, pos: &Position) -> Vec<String> {
    let moves = s.move_values(pos).unwrap();
    let best = moves.first().map(|&(_, v)| v);
    let mut out: Vec<String> = moves
        .iter()
        .filter(|&&(_, v)| Some(v) == best)
        .map(|(m, _)| m.to_string())
        .collect();
    out.sort();
    out
}

/// The forward proof of `pos` agrees with the retrograde solution `s`.
fn agrees(s: &Solution, pos: &Position) {
    let v = s.value(pos).unwrap();
    match v {
        Value::Win(d) | Value::Loss(d) => {
            let p = prove_up_to(pos, MAX_PLIES).unwrap_or_else(|e| panic!("{pos:?}: {e}"));
            assert_eq!(p.value, v, "{pos:?}");
            let mut best: Vec<String> = p.best_moves.iter().map(|m| m.to_string()).collect();
            best.sort();
            if d > 0 {
                assert_eq!(best, retro_best(s, pos), "{pos:?}: {v}");
            }
            line_keeps_the_value(s, pos, v, &p.line);
        }
        Value::Draw => assert!(
            matches!(
                prove_up_to(pos, DRAW_HORIZON),
                Err(ProveError::Undecided { refuted_below, .. }) if refuted_below == DRAW_HORIZON + 1
            ),
            "{pos:?}: a draw must stay undecided"
        ),
    }
}

/// `line` is a principal line of `pos` (exact value `v`) by the
/// retrograde values: it starts with a best move, every position on it has
/// the value one ply shorter than the one before, and it ends with the
/// loser without a legal move.
fn line_keeps_the_value(s: &Solution, pos: &Position, v: Value, line: &[Move]) {
    assert_eq!(
        line.len(),
        v.plies() as usize,
        "{pos:?}: {v}, line {line:?}"
    );
    let mut at = pos.clone();
    let mut value = v;
    for &m in line {
        assert!(movegen::is_legal(&at, m), "{pos:?}: {m} illegal in {at:?}");
        at = at.play(m);
        value = value.after_move();
        assert_eq!(s.value(&at), Some(value), "{pos:?}: after {m}");
    }
    assert_eq!(
        movegen::count_legal_moves(&at),
        0,
        "{pos:?}: the line ends before the end"
    );
}

fn solved(sfen: &str) -> (Position, Solution) {
    let pos = parse_sfen(sfen).unwrap();
    let s = solve(&pos, Limits::default(), &|| false).unwrap();
    (pos, s)
}

#[test]
fn tiny_positions_agree_with_the_retrograde() {
    for sfen in [
        "2k/3/1K1 b G 1",  // mate in 1
        "2k/3/K2 b S 1",   // mate in 3
        "2k/S2/K1G w - 1", // stalemate: lost in 0
        "2k/S2/K2 b S 1",  // win by stalemate in 1
        "2k/S2/1K1 b P 1", // 打ち歩詰め is not a move
        "2k/2P/1K1 w - 1",
        "k2/3/2K b R 1",
        "2k/3/K2 b B 1",
        "2k/3/K2 b - 1", // bare kings: a draw
    ] {
        let (pos, s) = solved(sfen);
        agrees(&s, &pos);
    }
}

#[test]
fn small_layouts_agree_with_the_retrograde_one_ply_in() {
    // No.41 (gote wins in 30), No.145 (sente wins in 27), No.137 (sente
    // wins in 11), No.10 (a draw).
    for sfen in [
        "B1k/P1p/K1b b - 1",
        "1gk/3/KG1 b Nn 1",
        "KG1/3/1gk b Bb 1",
        "npk/3/KPN b - 1",
    ] {
        let (pos, s) = solved(sfen);
        agrees(&s, &pos);
        for (m, _) in s.move_values(&pos).unwrap() {
            agrees(&s, &pos.play(m));
        }
    }
}

#[test]
fn refuses_what_it_cannot_prove() {
    let pos = parse_sfen("rbsgk/4p/5/P4/KGSBR b - 1").unwrap();
    assert!(matches!(
        prove_up_to(&pos, 5),
        Err(ProveError::Unsupported(_))
    ));
    // Sente wins in 27: not within 25 plies, so nothing is claimed.
    let pos = parse_sfen("1gk/3/KG1 b Nn 1").unwrap();
    assert!(matches!(
        prove_up_to(&pos, 25),
        Err(ProveError::Undecided {
            refuted_below: 26,
            ..
        })
    ));
    let limits = ProveLimits {
        table_bytes: TEST_TABLE_BYTES,
        max_nodes: 10,
        ..ProveLimits::default()
    };
    assert!(matches!(
        prove(&pos, limits, &|| false),
        Err(ProveError::Undecided { .. })
    ));
}

#[test]
fn every_move_value_agrees_with_the_retrograde() {
    // No.41 (gote wins in 30: every move a loss), No.145 (sente wins in
    // 27), and a win whose other moves include three draws, which must
    // stay undecided: `2k/3/K2 b NLs 1`.
    for sfen in ["B1k/P1p/K1b b - 1", "1gk/3/KG1 b Nn 1", "2k/3/K2 b NLs 1"] {
        let (pos, s) = solved(sfen);
        let limits = ProveLimits {
            table_bytes: TEST_TABLE_BYTES,
            principal_line: true,
            move_value_nodes: 200_000,
            max_plies: 60,
            ..ProveLimits::default()
        };
        let p = prove(&pos, limits, &|| false).unwrap();
        let want = s.move_values(&pos).unwrap();
        assert_eq!(p.move_values.len(), want.len(), "{sfen}");
        for ml in &p.move_values {
            let (_, v) = want.iter().find(|(m, _)| *m == ml.mv).unwrap();
            match ml.value {
                MoveValue::Exact(got) => {
                    assert_eq!(got, *v, "{sfen} {}", ml.mv);
                    assert_eq!(ml.line.len() as u32, got.plies(), "{sfen} {}", ml.mv);
                    assert_eq!(ml.line[0], ml.mv);
                }
                // Undecided: a draw, or decisive beyond the refuted bound.
                MoveValue::Undecided { plies } => {
                    assert!(*v == Value::Draw || v.plies() >= plies, "{sfen} {}", ml.mv)
                }
            }
        }
        let undecided = p
            .move_values
            .iter()
            .filter(|m| matches!(m.value, MoveValue::Undecided { .. }))
            .count();
        let draws = want.iter().filter(|(_, v)| *v == Value::Draw).count();
        assert_eq!(undecided, draws, "{sfen}");
        // Best first.
        let values: Vec<MoveValue> = p.move_values.iter().map(|m| m.value).collect();
        let firsts = values
            .iter()
            .take_while(|&&v| v == MoveValue::Exact(p.value));
        assert_eq!(firsts.count(), p.best_moves.len(), "{sfen}");
    }
}
