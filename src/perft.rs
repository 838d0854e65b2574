//! Perft: counting the leaves of the legal move tree, to check move generation
//! against other implementations and to measure its speed.

use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Number of leaf nodes `depth` plies below `pos` (1 for depth 0).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    count(pos, depth, &mut lists)
}

/// Perft split by root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut root = MoveList::new();
    movegen::legal_moves(pos, &mut root);
    let below = depth.saturating_sub(1);
    root.iter()
        .map(|&m| (m, perft(&pos.play(m), below)))
        .collect()
}

/// Counts with one move list per ply, reused, and bulk counting at the last
/// ply: the leaves are the legal moves of their parent, never made.
fn count(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let Some((list, deeper)) = lists.split_first_mut() else {
        return 1;
    };
    movegen::legal_moves(pos, list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter()
        .map(|&m| count(&pos.play(m), depth - 1, deeper))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardKind;
    use crate::sfen::parse_sfen;

    #[test]
    fn shallow_anchors() {
        let pos = parse_sfen(BoardKind::Standard.start_sfen()).unwrap();
        assert_eq!(perft(&pos, 1), 30);
        assert_eq!(perft(&pos, 2), 900);
        assert_eq!(perft(&pos, 3), 25_470);
        let mini = parse_sfen(BoardKind::Mini.start_sfen()).unwrap();
        assert_eq!(perft(&mini, 3), 2_512);
        let d: u64 = divide(&pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(d, 25_470);
    }
}
