//! Text reports of solutions: the `solve` command's `info string` lines and
//! the `info` lines of a `go` answered from a solved table.

use super::hybrid::RETROGRADE_MAX_POSITIONS;
use super::prove::{MoveLine, MoveValue, Proof};
use super::{Solution, Stats, Value};
use crate::moves::Move;
use crate::position::Position;
use crate::sfen::to_sfen;
use crate::types::Color;

/// The layouts of a layouts table (lines `number<TAB>sfen`; `#` comments
/// and blank lines skipped) whose number is in `only` (all when `only` is
/// empty). Panics on a malformed number: the table is the repository's.
pub fn layouts<'a>(text: &'a str, only: &[u32]) -> Vec<(u32, &'a str)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .map(|(n, sfen)| (n.trim().parse().expect("layout number"), sfen.trim()))
        .filter(|(n, _)| only.is_empty() || only.contains(n))
        .collect()
}

/// Longest principal line printed for a drawn position.
pub const DRAW_LINE_PLIES: usize = 24;

/// The principal line of `pos` as USI moves, long enough to reach the end
/// of a decisive game.
pub fn line_text(solution: &Solution, pos: &Position) -> String {
    let plies = match solution.value(pos) {
        Some(Value::Win(d) | Value::Loss(d)) => d as usize,
        _ => DRAW_LINE_PLIES,
    };
    let line = solution.principal_line(pos, plies);
    join(&line)
}

fn join(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The value for sente of a position with value `v` for `side` to move.
pub fn for_sente(v: Value, side: Color) -> String {
    let winner = |sente_wins: bool| if sente_wins { "sente" } else { "gote" };
    match v {
        Value::Draw => "draw".to_string(),
        Value::Win(d) => format!("{} wins in {d}", winner(side == Color::Sente)),
        Value::Loss(d) => format!("{} wins in {d}", winner(side == Color::Gote)),
    }
}

/// Figures of a solve on one line.
pub fn stats_text(stats: &Stats, cached: bool) -> String {
    format!(
        "positions {} moves {} memory {} MiB time {} ms (enumerate {} ms, analyse {} ms){}",
        stats.positions,
        stats.edges,
        stats.peak_bytes.div_ceil(1 << 20),
        stats.total().as_millis(),
        stats.enumerate.as_millis(),
        stats.analyse.as_millis(),
        if cached { ", table reused" } else { "" }
    )
}

/// A remark on a drawn position held only by perpetual check.
fn trap_note(solution: &Solution, pos: &Position) -> &'static str {
    if solution.perpetual_check_trap(pos) == Some(true) {
        " (held only by perpetual check: a loss under the perpetual-check rule)"
    } else {
        ""
    }
}

/// The `info string` lines of the `solve` command for `pos`.
pub fn solve_lines(solution: &Solution, pos: &Position, cached: bool) -> Vec<String> {
    let mut lines = vec![format!("info string solve sfen {}", to_sfen(pos))];
    let Some(value) = solution.value(pos) else {
        lines.push("info string error: solve: the position is not in the solved table".into());
        return lines;
    };
    lines.push(format!(
        "info string value {value} for the side to move ({}), score {}{}",
        for_sente(value, pos.side_to_move()),
        value.usi_score(),
        trap_note(solution, pos)
    ));
    lines.push(format!(
        "info string {}",
        stats_text(&solution.stats(), cached)
    ));
    lines.push(format!(
        "info string drawn positions held only by perpetual check: {}",
        solution.perpetual_check_traps()
    ));
    let moves = solution.move_values(pos).unwrap_or_default();
    if moves.is_empty() {
        lines.push("info string no legal move: the side to move has lost".into());
    }
    let best = moves.first().map(|&(_, v)| v);
    let best_moves: Vec<String> = moves
        .iter()
        .filter(|&&(_, v)| Some(v) == best)
        .map(|(m, _)| m.to_string())
        .collect();
    if !best_moves.is_empty() {
        lines.push(format!("info string best moves {}", best_moves.join(" ")));
    }
    for (m, v) in &moves {
        let child = pos.play(*m);
        let note = if solution.perpetual_check_trap(&child) == Some(true) {
            " (the opponent then holds only by perpetual check)"
        } else {
            ""
        };
        lines.push(format!(
            "info string move {m} {v} score {}{note}",
            v.usi_score()
        ));
    }
    lines.push(format!("info string pv {}", line_text(solution, pos)));
    lines
}

/// The `info string` lines of the `solve` command for a position settled by
/// the forward proof (its reachable set has more positions than the
/// retrograde analysis is first tried on):
/// the value, the best first moves, every move's value as far as the
/// proof decided it ([`Proof::move_values`]) and a principal line.
pub fn proof_lines(proof: &Proof, pos: &Position) -> Vec<String> {
    let best: Vec<String> = proof.best_moves.iter().map(|m| m.to_string()).collect();
    let mut lines = vec![
        format!("info string solve sfen {}", to_sfen(pos)),
        format!(
            "info string value {} for the side to move ({}), score {}",
            proof.value,
            for_sente(proof.value, pos.side_to_move()),
            proof.value.usi_score()
        ),
        format!(
            "info string forward proof (the reachable set has more than {RETROGRADE_MAX_POSITIONS} positions): \
             {} nodes, {} positions stored, table {} MiB, time {} ms",
            proof.nodes,
            proof.stored,
            proof.bytes >> 20,
            proof.elapsed.as_millis()
        ),
        format!("info string best moves {}", best.join(" ")),
    ];
    for MoveLine { mv, value, .. } in &proof.move_values {
        lines.push(match value {
            MoveValue::Exact(v) => format!("info string move {mv} {v} score {}", v.usi_score()),
            MoveValue::Undecided { .. } => format!("info string move {mv} {value}"),
        });
    }
    lines.push(format!(
        "info string pv {}{}",
        join(&proof.line),
        if proof.line.len() < proof.value.plies() as usize {
            " (cut short: node budget)"
        } else {
            ""
        }
    ));
    lines
}
