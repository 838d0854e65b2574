//! 入玉宣言: winning by declaration once the king has entered the enemy camp,
//! under the CSA rules YaneuraOu offers as its `EnteringKingRule` option.

use crate::bitboard::Bitboard;
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::BoardKind;
use crate::types::{Color, PieceType, Square};
use std::fmt;
use std::str::FromStr;

/// The declaration rule in force (YaneuraOu's option values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EnteringKingRule {
    /// Declaration is never possible.
    NoEnteringKing,
    /// 24-point rule: 31 points or more win, for either side.
    CsaRule24,
    /// 24-point rule, counting pieces missing in a handicap game for gote.
    CsaRule24H,
    /// 27-point rule (the CSA rule): sente needs 28 points, gote 27.
    #[default]
    CsaRule27,
    /// 27-point rule, counting pieces missing in a handicap game for gote.
    CsaRule27H,
    /// Try rule: the king reaching the enemy king's starting square wins
    /// (the engine plays that king move, see [`try_rule_move`]).
    TryRule,
}

impl EnteringKingRule {
    /// Every rule, in option order.
    pub const ALL: [EnteringKingRule; 6] = [
        EnteringKingRule::NoEnteringKing,
        EnteringKingRule::CsaRule24,
        EnteringKingRule::CsaRule24H,
        EnteringKingRule::CsaRule27,
        EnteringKingRule::CsaRule27H,
        EnteringKingRule::TryRule,
    ];

    /// The option value's name.
    pub const fn name(self) -> &'static str {
        match self {
            EnteringKingRule::NoEnteringKing => "NoEnteringKing",
            EnteringKingRule::CsaRule24 => "CSARule24",
            EnteringKingRule::CsaRule24H => "CSARule24H",
            EnteringKingRule::CsaRule27 => "CSARule27",
            EnteringKingRule::CsaRule27H => "CSARule27H",
            EnteringKingRule::TryRule => "TryRule",
        }
    }
}

impl fmt::Display for EnteringKingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EnteringKingRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("unknown EnteringKingRule '{s}'"))
    }
}

/// Pieces (besides the king) the declaring side must have in the enemy camp.
const MIN_PIECES_IN_CAMP: u32 = 10;
/// Points of a rook or bishop (promoted or not); every other piece is worth 1.
const BIG_PIECE_POINTS: u32 = 5;
/// Points of a full set without kings: 4 big pieces and 34 small ones.
const FULL_SET_POINTS: u32 = 4 * BIG_PIECE_POINTS + 34;

fn points(pos: &Position, color: Color, squares: Bitboard) -> u32 {
    let mine = pos.pieces(color) & squares;
    let big = mine
        & (pos.pieces_of_type(PieceType::BISHOP)
            | pos.pieces_of_type(PieceType::ROOK)
            | pos.pieces_of_type(PieceType::HORSE)
            | pos.pieces_of_type(PieceType::DRAGON));
    let kings = mine & pos.pieces_of_type(PieceType::KING);
    let hand = pos.hand(color);
    let hand_big = (hand.count(PieceType::BISHOP) + hand.count(PieceType::ROOK)) as u32;
    let hand_small = hand.total() - hand_big;
    let small = mine.count() - big.count() - kings.count();
    BIG_PIECE_POINTS * (big.count() + hand_big) + small + hand_small
}

/// The enemy king's starting square, which the try rule asks `color`'s king
/// to reach: 5a for sente, 5i for gote.
fn try_square(color: Color) -> Square {
    match color {
        Color::Sente => Square::new(4, 0),
        Color::Gote => Square::new(4, 8),
    }
}

/// Under the try rule (9x9), the legal king move onto the try square, if the
/// side to move has one: playing it wins, as in YaneuraOu.
pub fn try_rule_move(pos: &Position) -> Option<Move> {
    if pos.kind() != BoardKind::Standard {
        return None;
    }
    let us = pos.side_to_move();
    let king = pos.king_square(us)?;
    let m = Move::normal(king, try_square(us), false);
    movegen::is_legal(pos, m).then_some(m)
}

/// Whether the side to move may declare a win by points under `rule` (9x9
/// only; the small boards have no declaration). The try rule is not a
/// declaration: it wins by a move, see [`try_rule_move`].
pub fn can_declare(pos: &Position, rule: EnteringKingRule) -> bool {
    if pos.kind() != BoardKind::Standard || pos.in_check() {
        return false;
    }
    let us = pos.side_to_move();
    let Some(king) = pos.king_square(us) else {
        return false;
    };
    let camp = pos.kind().zone(us);
    let needed = match rule {
        EnteringKingRule::NoEnteringKing | EnteringKingRule::TryRule => return false,
        EnteringKingRule::CsaRule24 | EnteringKingRule::CsaRule24H => 31,
        EnteringKingRule::CsaRule27 | EnteringKingRule::CsaRule27H => match us {
            Color::Sente => 28,
            Color::Gote => 27,
        },
    };
    if !camp.has(king) {
        return false;
    }
    let in_camp = (pos.pieces(us) & camp).count() - 1;
    if in_camp < MIN_PIECES_IN_CAMP {
        return false;
    }
    let mut score = points(pos, us, camp);
    let handicap = matches!(
        rule,
        EnteringKingRule::CsaRule24H | EnteringKingRule::CsaRule27H
    );
    if handicap && us == Color::Gote {
        // In a handicap game gote is the giver: the missing pieces count for it.
        let present =
            points(pos, Color::Sente, Bitboard::ALL) + points(pos, Color::Gote, Bitboard::ALL);
        score += FULL_SET_POINTS.saturating_sub(present);
    }
    score >= needed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    // Sente king on 5c with ten promoted pawns in the camp.
    const WIN27: &str = "+P+P+P+P1+P+P+P+P/7+P+P/4K4/9/9/9/9/9/4k4 b 2R2B 1";

    #[test]
    fn point_thresholds() {
        // 10 promoted pawns in the camp (10) + 2R2B in hand (20) = 30 points.
        let pos = parse_sfen(WIN27).unwrap();
        assert!(can_declare(&pos, EnteringKingRule::CsaRule27));
        assert!(!can_declare(&pos, EnteringKingRule::CsaRule24));
        assert!(!can_declare(&pos, EnteringKingRule::NoEnteringKing));
        // 31 points: enough for the 24-point rule too.
        let pos = parse_sfen("+P+P+P+P1+P+P+P+P/7+P+P/4K4/9/9/9/9/9/4k4 b 2R2BP 1").unwrap();
        assert!(can_declare(&pos, EnteringKingRule::CsaRule24));
        // 27 points: sente needs 28 under the 27-point rule.
        let pos = parse_sfen("+P+P+P+P1+P+P+P+P/7+P+P/4K4/9/9/9/9/9/4k4 b 2RB2P 1").unwrap();
        assert!(!can_declare(&pos, EnteringKingRule::CsaRule27));
        let pos = parse_sfen("+P+P+P+P1+P+P+P+P/7+P+P/4K4/9/9/9/9/9/4k4 b 2RB3P 1").unwrap();
        assert!(can_declare(&pos, EnteringKingRule::CsaRule27));
        // Gote needs only 27.
        let pos = parse_sfen("4K4/9/9/9/9/9/4k4/+p+p7/+p+p+p+p1+p+p+p+p w 2rb2p 1").unwrap();
        assert!(can_declare(&pos, EnteringKingRule::CsaRule27));
    }

    #[test]
    fn needs_ten_pieces_and_king_in_camp() {
        let pos = parse_sfen("+P+P+P+P1+P+P+P1/8+P/4K4/9/9/9/9/9/4k4 b 2R2B3P 1").unwrap();
        assert!(!can_declare(&pos, EnteringKingRule::CsaRule27));
        let pos = parse_sfen("+P+P+P+P1+P+P+P+P/7+P+P/9/4K4/9/9/9/9/4k4 b 2R2B 1").unwrap();
        assert!(!can_declare(&pos, EnteringKingRule::CsaRule27));
    }

    #[test]
    fn try_rule_wins_by_the_king_move() {
        // The sente king on 5b steps to 5a.
        let pos = parse_sfen("9/4K4/9/9/9/9/9/9/k8 b - 1").unwrap();
        assert_eq!(
            try_rule_move(&pos).map(|m| m.to_string()),
            Some("5b5a".to_string())
        );
        assert!(!can_declare(&pos, EnteringKingRule::TryRule));
        // Not when 5a is guarded, nor when it holds an own piece.
        let guarded = parse_sfen("9/4K4/9/9/9/9/9/9/k3r4 b - 1").unwrap();
        assert_eq!(try_rule_move(&guarded), None);
        let blocked = parse_sfen("4G4/4K4/9/9/9/9/9/9/k8 b - 1").unwrap();
        assert_eq!(try_rule_move(&blocked), None);
        // Gote aims at 5i.
        let gote = parse_sfen("K8/9/9/9/9/9/9/4k4/9 w - 1").unwrap();
        assert_eq!(
            try_rule_move(&gote).map(|m| m.to_string()),
            Some("5h5i".to_string())
        );
    }
}
