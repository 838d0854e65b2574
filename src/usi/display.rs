//! Text for the extra commands `d` (the position as an ASCII diagram) and
//! `moves` (the legal moves), and for `go perft`.

use crate::game::Game;
use crate::movegen;
use crate::moves::MoveList;
use crate::perft;
use crate::position::{Hand, Position};
use crate::sfen;
use crate::types::{Color, PieceType, Square};
use std::time::Instant;

/// The lines `d` prints: board, hands, side to move, SFEN, key.
pub fn diagram(game: &Game) -> Vec<String> {
    let pos = game.position();
    let size = pos.kind().size();
    let mut lines = Vec::new();
    lines.push(format!("Gote hand: {}", hand_text(pos.hand(Color::Gote))));
    let mut files = String::from(" ");
    for file in (1..=size).rev() {
        files.push_str(&format!("  {file}"));
    }
    lines.push(files);
    let border = format!(" +{}+", "-".repeat(3 * size as usize));
    lines.push(border.clone());
    for rank in 0..size {
        let mut row = String::from(" |");
        for file in (0..size).rev() {
            let p = pos.piece_on(Square::new(file, rank));
            let cell = if p.is_none() {
                " .".to_string()
            } else {
                p.to_string()
            };
            row.push_str(&format!("{cell:>3}"));
        }
        row.push_str(&format!("| {}", (b'a' + rank) as char));
        lines.push(row);
    }
    lines.push(border);
    lines.push(format!("Sente hand: {}", hand_text(pos.hand(Color::Sente))));
    lines.push(format!(
        "Side to move: {}{}",
        match pos.side_to_move() {
            Color::Sente => "sente (b)",
            Color::Gote => "gote (w)",
        },
        if pos.in_check() { ", in check" } else { "" }
    ));
    lines.push(format!("Moves played: {}", game.moves().len()));
    lines.push(format!("Sfen: {}", sfen::to_sfen(pos)));
    lines.push(format!("Key: {:016x}", pos.key()));
    lines
}

fn hand_text(hand: Hand) -> String {
    let mut parts = Vec::new();
    for pt in PieceType::HAND_SFEN_ORDER {
        match hand.count(pt) {
            0 => {}
            1 => parts.push(pt.letter().to_string()),
            n => parts.push(format!("{}{n}", pt.letter())),
        }
    }
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    }
}

/// The legal moves on one line (`(none)` when there are none).
pub fn legal_moves_line(pos: &Position) -> String {
    let mut list = MoveList::new();
    movegen::legal_moves(pos, &mut list);
    if list.is_empty() {
        return "(none)".to_string();
    }
    list.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `go perft`: one line per root move (`7g7f: N`), a timing line, then
/// `Nodes searched: N` (YaneuraOu's format).
pub fn perft_lines(pos: &Position, depth: u32) -> Vec<String> {
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut total = 0u64;
    for (m, n) in perft::divide(pos, depth) {
        lines.push(format!("{m}: {n}"));
        total += n;
    }
    let ms = start.elapsed().as_millis().max(1);
    lines.push(format!(
        "info string perft {depth}: {ms} ms, {} nodes/s",
        total as u128 * 1000 / ms
    ));
    lines.push(format!("Nodes searched: {total}"));
    lines
}
