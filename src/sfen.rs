//! SFEN positions and USI move notation: parsing (with specific errors) and
//! printing, for all three boards.

use crate::bitboard::Bitboard;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::BoardKind;
use crate::types::{Color, Piece, PieceType, Square};
use crate::zobrist::MAX_HAND_COUNT;
use std::fmt;

/// Why an SFEN was rejected: which field, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenError {
    /// The field at fault: `board`, `side`, `hands`, `move number`, or `position`.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

impl SfenError {
    fn new(field: &'static str, message: impl Into<String>) -> SfenError {
        SfenError {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad sfen ({}): {}", self.field, self.message)
    }
}

impl std::error::Error for SfenError {}

/// Parses an SFEN (`board side hands [move-number]`). The board's shape chooses
/// the board kind: 9, 5 or 3 ranks.
pub fn parse_sfen(text: &str) -> Result<Position, SfenError> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() < 3 || fields.len() > 4 {
        return Err(SfenError::new(
            "position",
            format!(
                "expected 3 or 4 fields (board side hands [move number]), found {}",
                fields.len()
            ),
        ));
    }
    let mut pos = parse_board(fields[0])?;
    let side = match fields[1] {
        "b" => Color::Sente,
        "w" => Color::Gote,
        other => {
            return Err(SfenError::new(
                "side",
                format!("expected 'b' or 'w', found '{}'", printable(other)),
            ));
        }
    };
    pos.set_side_to_move(side);
    parse_hands(fields[2], &mut pos)?;
    if let Some(n) = fields.get(3) {
        let n: u32 = n.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
            SfenError::new(
                "move number",
                format!("'{}' is not a positive integer", printable(n)),
            )
        })?;
        pos.set_move_number(n);
    }
    pos.finish();
    validate(&pos)?;
    Ok(pos)
}

/// Clips and escapes untrusted text for an error message (stdout stays ASCII).
pub fn printable(s: &str) -> String {
    const LIMIT: usize = 40;
    let mut out: String = s
        .chars()
        .take(LIMIT)
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect();
    if s.chars().count() > LIMIT {
        out.push_str("...");
    }
    out
}

fn parse_board(text: &str) -> Result<Position, SfenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    let kind = BoardKind::from_size(ranks.len()).ok_or_else(|| {
        SfenError::new(
            "board",
            format!("{} ranks; a board has 9, 5 or 3", ranks.len()),
        )
    })?;
    let size = kind.size();
    let mut pos = Position::empty(kind);
    for (r, rank_text) in ranks.iter().enumerate() {
        let rank_name = (b'a' + r as u8) as char;
        // SFEN lists a rank from the highest file down to the 1-file.
        let mut file = size as i32 - 1;
        let mut promoted = false;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if promoted {
                    return Err(SfenError::new(
                        "board",
                        format!("rank {rank_name}: '+' before a digit"),
                    ));
                }
                if d == 0 {
                    return Err(SfenError::new(
                        "board",
                        format!("rank {rank_name}: empty-square count 0"),
                    ));
                }
                file -= d as i32;
                if file < -1 {
                    return Err(too_long(rank_name, size));
                }
                continue;
            }
            if c == '+' {
                if promoted {
                    return Err(SfenError::new("board", format!("rank {rank_name}: '++'")));
                }
                promoted = true;
                continue;
            }
            let base = PieceType::from_letter(c.to_ascii_uppercase())
                .filter(|_| c.is_ascii_alphabetic())
                .ok_or_else(|| {
                    SfenError::new(
                        "board",
                        format!(
                            "rank {rank_name}: unexpected character '{}'",
                            printable(&c.to_string())
                        ),
                    )
                })?;
            let pt = if promoted {
                if !base.can_promote() {
                    return Err(SfenError::new(
                        "board",
                        format!("rank {rank_name}: '+{c}' cannot be promoted"),
                    ));
                }
                base.promoted()
            } else {
                base
            };
            promoted = false;
            if file < 0 {
                return Err(too_long(rank_name, size));
            }
            let color = if c.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            pos.put(Square::new(file as u8, r as u8), Piece::new(color, pt));
            file -= 1;
        }
        if promoted {
            return Err(SfenError::new(
                "board",
                format!("rank {rank_name}: ends with '+'"),
            ));
        }
        if file != -1 {
            return Err(SfenError::new(
                "board",
                format!("rank {rank_name} does not have {size} squares"),
            ));
        }
    }
    Ok(pos)
}

fn too_long(rank_name: char, size: u8) -> SfenError {
    SfenError::new(
        "board",
        format!("rank {rank_name} has more than {size} squares"),
    )
}

fn parse_hands(text: &str, pos: &mut Position) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let mut counts = [[0u32; PieceType::COUNT]; 2];
    let mut number: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = number.unwrap_or(0) * 10 + d;
            if n > MAX_HAND_COUNT as u32 || (number.is_none() && d == 0) {
                return Err(SfenError::new("hands", "bad piece count"));
            }
            number = Some(n);
            continue;
        }
        let pt = PieceType::from_letter(c.to_ascii_uppercase())
            .filter(|pt| *pt != PieceType::KING && c.is_ascii_alphabetic())
            .ok_or_else(|| {
                SfenError::new(
                    "hands",
                    format!("unexpected character '{}'", printable(&c.to_string())),
                )
            })?;
        let color = if c.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        let n = number.take().unwrap_or(1);
        counts[color.index()][pt.index()] += n;
    }
    if number.is_some() {
        return Err(SfenError::new("hands", "count without a piece letter"));
    }
    for color in Color::ALL {
        for pt in PieceType::HAND {
            let n = counts[color.index()][pt.index()];
            if n > pt.set_count() as u32 {
                return Err(SfenError::new(
                    "hands",
                    format!("more {} than a shogi set has", pt.letter()),
                ));
            }
            pos.set_hand(color, pt, n as u8);
        }
    }
    Ok(())
}

/// Checks what a syntactically fine SFEN may still get wrong.
fn validate(pos: &Position) -> Result<(), SfenError> {
    let kind = pos.kind();
    for c in Color::ALL {
        if pos.pieces_of(c, PieceType::KING).more_than_one() {
            let side = if c == Color::Sente { "sente" } else { "gote" };
            return Err(SfenError::new(
                "position",
                format!("{side} has more than one king"),
            ));
        }
    }
    for base in PieceType::ALL.iter().filter(|pt| !pt.is_promoted()) {
        let mut n: u32 = Color::ALL
            .iter()
            .map(|&c| {
                if *base == PieceType::KING {
                    0
                } else {
                    pos.hand(c).count(*base) as u32
                }
            })
            .sum();
        n += pos.pieces_of_type(*base).count();
        if base.can_promote() {
            n += pos.pieces_of_type(base.promoted()).count();
        }
        if n > base.set_count() as u32 {
            return Err(SfenError::new(
                "position",
                format!(
                    "{n} pieces of type {}; a shogi set has {}",
                    base.letter(),
                    base.set_count()
                ),
            ));
        }
    }
    for c in Color::ALL {
        let side = if c == Color::Sente { "sente" } else { "gote" };
        let mut files = Bitboard::EMPTY;
        for sq in pos.pieces_of(c, PieceType::PAWN) {
            let file = Bitboard::file_mask(sq.file());
            if (files & file).any() {
                return Err(SfenError::new(
                    "position",
                    format!("two {side} pawns on file {} (nifu)", sq.file() + 1),
                ));
            }
            files |= file;
        }
        for pt in [PieceType::PAWN, PieceType::LANCE, PieceType::KNIGHT] {
            if let Some(sq) = (pos.pieces_of(c, pt) & kind.dead_squares(c, pt)).first() {
                return Err(SfenError::new(
                    "position",
                    format!("{side} {} on {sq} could never move", pt.letter()),
                ));
            }
        }
    }
    let them = pos.side_to_move().flip();
    if let Some(k) = pos.king_square(them)
        && pos.is_attacked(k, pos.side_to_move(), pos.occupied())
    {
        return Err(SfenError::new(
            "position",
            "the side not to move is in check",
        ));
    }
    Ok(())
}

/// Prints the SFEN of `pos` (hands in the standard order, sente first).
pub fn to_sfen(pos: &Position) -> String {
    let kind = pos.kind();
    let size = kind.size();
    let mut out = String::new();
    for rank in 0..size {
        if rank > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for file in (0..size).rev() {
            let p = pos.piece_on(Square::new(file, rank));
            if p.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push_str(&p.to_string());
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out.push(' ');
    out.push(if pos.side_to_move() == Color::Sente {
        'b'
    } else {
        'w'
    });
    out.push(' ');
    let mut hands = String::new();
    for c in Color::ALL {
        for pt in PieceType::HAND_SFEN_ORDER {
            let n = pos.hand(c).count(pt);
            if n == 0 {
                continue;
            }
            if n > 1 {
                hands.push_str(&n.to_string());
            }
            hands.push_str(&Piece::new(c, pt).to_string());
        }
    }
    out.push_str(if hands.is_empty() { "-" } else { &hands });
    out.push(' ');
    out.push_str(&pos.move_number().to_string());
    out
}

/// Why a USI move was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `7g7f`, `7g7f+` or `P*5e`.
    Malformed(String),
    /// Well-formed, but a square lies off this board (size given).
    OffBoard(String, u8),
    /// Well-formed, but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(m) => write!(
                f,
                "malformed move '{m}' (expected e.g. 7g7f, 7g7f+ or P*5e)"
            ),
            MoveError::OffBoard(m, n) => {
                write!(f, "move '{m}' names a square off the {n}x{n} board")
            }
            MoveError::Illegal(m) => write!(f, "illegal move '{m}' in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A square named on the 9x9 grid (`1a`..`9i`), then checked against `kind`.
fn parse_square(kind: BoardKind, text: &str, file: u8, rank: u8) -> Result<Square, MoveError> {
    let grid = |c: u8, first: u8| c.checked_sub(first).filter(|v| *v < crate::types::GRID);
    let (Some(f), Some(r)) = (grid(file, b'1'), grid(rank, b'a')) else {
        return Err(MoveError::Malformed(printable(text)));
    };
    let sq = Square::new(f, r);
    if kind.contains(sq) {
        Ok(sq)
    } else {
        Err(MoveError::OffBoard(printable(text), kind.size()))
    }
}

/// Reads USI move notation without looking at legality.
pub fn parse_move_syntax(kind: BoardKind, text: &str) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed(printable(text));
    let b = text.as_bytes();
    match b {
        [p, b'*', f, r] => {
            let pt = PieceType::from_letter(*p as char)
                .filter(|pt| *pt != PieceType::KING)
                .ok_or_else(malformed)?;
            let to = parse_square(kind, text, *f, *r)?;
            Ok(Move::drop(pt, to))
        }
        [f1, r1, f2, r2, rest @ ..] if rest.is_empty() || rest == b"+" => {
            let from = parse_square(kind, text, *f1, *r1)?;
            let to = parse_square(kind, text, *f2, *r2)?;
            Ok(Move::normal(from, to, !rest.is_empty()))
        }
        _ => Err(malformed()),
    }
}

/// Reads a USI move and checks that it is legal in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let m = parse_move_syntax(pos.kind(), text)?;
    let mut list = MoveList::new();
    movegen::legal_moves(pos, &mut list);
    if list.contains(m) {
        Ok(m)
    } else {
        Err(MoveError::Illegal(printable(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_on_every_board() {
        for kind in BoardKind::ALL {
            let pos = parse_sfen(kind.start_sfen()).unwrap();
            assert_eq!(pos.kind(), kind);
            assert_eq!(to_sfen(&pos), kind.start_sfen());
        }
        let s = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
        let pos = parse_sfen(s).unwrap();
        assert_eq!(
            to_sfen(&pos),
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
        );
    }

    #[test]
    fn move_number_saturates_instead_of_wrapping() {
        let pos = parse_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 4294967295").unwrap();
        let next = pos.play(parse_move(&pos, "5i5h").unwrap());
        assert_eq!(to_sfen(&next), "4k4/9/9/9/9/9/9/4K4/9 w - 4294967295");
    }

    #[test]
    fn move_number_is_optional() {
        let pos = parse_sfen("bk1/3/1KB b Pp").unwrap();
        assert_eq!(pos.move_number(), 1);
    }

    #[test]
    fn every_ninemasu_layout_parses() {
        let text = include_str!("../tests/data/ninemasu-layouts.tsv");
        let mut n = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let sfen = line.split('\t').nth(1).unwrap();
            let pos = parse_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            assert_eq!(pos.kind(), BoardKind::Ninemasu);
            n += 1;
        }
        assert_eq!(n, 149);
    }

    fn rejects(sfen: &str, field: &str, needle: &str) {
        let e = parse_sfen(sfen).expect_err(sfen);
        assert_eq!(e.field, field, "{sfen}: {e}");
        assert!(e.message.contains(needle), "{sfen}: {e}");
    }

    #[test]
    fn specific_errors() {
        rejects("9/9/9 b - 1", "board", "rank a");
        rejects(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
            "board",
            "8 ranks",
        );
        rejects("4k4/9/9/9/9/9/9/9/4K3 b - 1", "board", "rank i");
        rejects(
            "4k4/9/9/9/9/9/9/9/4X4 b - 1",
            "board",
            "unexpected character",
        );
        rejects(
            "4k4/9/9/9/9/9/9/9/4+G4 b - 1",
            "board",
            "cannot be promoted",
        );
        rejects("4k4/9/9/9/9/9/9/9/4K4 x - 1", "side", "expected");
        rejects("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "hands", "count");
        rejects("4k4/9/9/9/9/9/9/9/4K4 b 3B 1", "hands", "more B");
        rejects("4k4/9/9/9/9/9/9/9/4K4 b - 0", "move number", "positive");
        rejects("4k4/9/9/4P4/4P4/9/9/9/4K4 b - 1", "position", "nifu");
        rejects("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "position", "never move");
        rejects("4k4/9/9/9/9/9/9/9/1n2K4 w - 1", "position", "never move");
        rejects(
            "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
            "position",
            "not to move is in check",
        );
        rejects(
            "3kk4/9/9/9/9/9/9/9/9 b - 1",
            "position",
            "more than one king",
        );
        rejects(
            "4k/5/5/5/K3k b - 1",
            "position",
            "gote has more than one king",
        );
        // A rank with a piece or a digit too many is an error, not truncated.
        let long = "rank a has more than 9";
        rejects(
            "lnsgkgsnll/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "board",
            long,
        );
        rejects("9p/9/9/9/9/9/9/9/9 b - 1", "board", long);
        rejects(
            "9/9/9/9/9/9/PP2PPPPPPP/9/9 b - 1",
            "board",
            "rank g has more than 9",
        );
        rejects("bk1/3/1KBk b Pp 1", "board", "rank c has more than 3");
        rejects("k2g/3/K2 b - 1", "board", "rank a has more than 3");
    }

    #[test]
    fn usi_moves() {
        let pos = parse_sfen(BoardKind::Standard.start_sfen()).unwrap();
        assert!(parse_move(&pos, "7g7f").is_ok());
        assert!(matches!(
            parse_move(&pos, "7g7e"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&pos, "7g7f++"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            parse_move(&pos, "P*5e"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&pos, "K*5e"),
            Err(MoveError::Malformed(_))
        ));
        let mini = parse_sfen(BoardKind::Mini.start_sfen()).unwrap();
        assert!(matches!(
            parse_move(&mini, "6e5d"),
            Err(MoveError::OffBoard(_, 5))
        ));
        assert!(matches!(
            parse_move(&mini, "0e5d"),
            Err(MoveError::Malformed(_))
        ));
        assert!(parse_move(&mini, "5d5c").is_ok());
    }
}
