//! The position: pieces on the board, hands, side to move, and what follows
//! from them (Zobrist key, checkers). Moves are applied by copy-make: a
//! position is a few hundred bytes and copying it is cheaper and safer than
//! undoing.

use crate::bitboard::{self, Bitboard};
use crate::moves::Move;
use crate::rules::BoardKind;
use crate::types::{Color, Piece, PieceType, SQUARE_COUNT, Square};
use crate::zobrist;

/// The pieces one side holds in hand, counted per type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand([u8; 8]);

impl Hand {
    /// How many pieces of type `pt` (an unpromoted, non-king type).
    #[inline]
    pub fn count(self, pt: PieceType) -> u8 {
        self.0[pt.index()]
    }

    /// Whether the hand holds nothing.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 8]
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    #[inline]
    fn set(&mut self, pt: PieceType, n: u8) {
        self.0[pt.index()] = n;
    }
}

/// A shogi position on any of the three boards.
#[derive(Clone)]
pub struct Position {
    kind: BoardKind,
    board: [Piece; SQUARE_COUNT],
    by_color: [Bitboard; 2],
    by_type: [Bitboard; PieceType::COUNT],
    hands: [Hand; 2],
    side: Color,
    move_number: u32,
    key: u64,
    kings: [Option<Square>; 2],
    checkers: Bitboard,
}

impl Position {
    /// An empty board of the given kind, sente to move. Fill it with
    /// [`put`](Self::put) and [`set_hand`](Self::set_hand), then call
    /// [`finish`](Self::finish).
    pub fn empty(kind: BoardKind) -> Position {
        Position {
            kind,
            board: [Piece::NONE; SQUARE_COUNT],
            by_color: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; PieceType::COUNT],
            hands: [Hand::default(); 2],
            side: Color::Sente,
            move_number: 1,
            key: 0,
            kings: [None; 2],
            checkers: Bitboard::EMPTY,
        }
    }

    /// Places a piece (setup only; the square must be empty and on the board).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = piece;
        self.by_color[piece.color().index()] |= Bitboard::from_square(sq);
        self.by_type[piece.piece_type().index()] |= Bitboard::from_square(sq);
    }

    /// Sets a hand count (setup only).
    pub fn set_hand(&mut self, color: Color, pt: PieceType, n: u8) {
        self.hands[color.index()].set(pt, n);
    }

    /// Sets the side to move (setup only).
    pub fn set_side_to_move(&mut self, color: Color) {
        self.side = color;
    }

    /// Sets the move number printed in SFEN (setup only).
    pub fn set_move_number(&mut self, n: u32) {
        self.move_number = n;
    }

    /// Computes the derived state (key, king squares, checkers) after setup.
    pub fn finish(&mut self) {
        let mut key = 0;
        for sq in self.occupied() {
            key ^= zobrist::board_key(sq, self.board[sq.index()]);
        }
        for c in Color::ALL {
            for pt in PieceType::HAND {
                key ^= zobrist::hand_key(c, pt, self.hands[c.index()].count(pt));
            }
            self.kings[c.index()] =
                (self.by_type[PieceType::KING.index()] & self.by_color[c.index()]).first();
        }
        if self.side == Color::Gote {
            key ^= zobrist::side_key();
        }
        self.key = key;
        self.checkers = self.compute_checkers();
    }

    // ---- queries ---------------------------------------------------------

    /// The board this position is played on.
    #[inline]
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// The piece on `sq` ([`Piece::NONE`] if empty).
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The hand of `color`.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Zobrist key of board, hands and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The square of `color`'s king, if it has one.
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The pieces of `color`.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The pieces of type `pt`, both colours.
    #[inline]
    pub fn pieces_of_type(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }

    /// The pieces of `color` and type `pt`.
    #[inline]
    pub fn pieces_of(&self, color: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[color.index()]
    }

    /// Pieces of `color` that move like a gold (gold and promoted minor pieces).
    #[inline]
    pub fn gold_movers(&self, color: Color) -> Bitboard {
        self.all_gold_movers() & self.by_color[color.index()]
    }

    /// Every slider of both colours (lance, bishop, rook, horse, dragon).
    #[inline]
    pub fn sliders(&self) -> Bitboard {
        let t = &self.by_type;
        t[PieceType::LANCE.index()]
            | t[PieceType::BISHOP.index()]
            | t[PieceType::ROOK.index()]
            | t[PieceType::HORSE.index()]
            | t[PieceType::DRAGON.index()]
    }

    /// Pieces that move like a gold (gold and the promoted minor pieces).
    #[inline]
    fn all_gold_movers(&self) -> Bitboard {
        self.by_type[PieceType::GOLD.index()]
            | self.by_type[PieceType::PRO_PAWN.index()]
            | self.by_type[PieceType::PRO_LANCE.index()]
            | self.by_type[PieceType::PRO_KNIGHT.index()]
            | self.by_type[PieceType::PRO_SILVER.index()]
    }

    /// Pieces of `color` attacking `sq`, with the given occupancy for sliders.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = color.flip();
        let t = &self.by_type;
        let own = self.by_color[color.index()];
        let horse = t[PieceType::HORSE.index()];
        let dragon = t[PieceType::DRAGON.index()];
        let mut attackers = (bitboard::step_attacks(them, PieceType::PAWN, sq)
            & t[PieceType::PAWN.index()])
            | (bitboard::step_attacks(them, PieceType::KNIGHT, sq) & t[PieceType::KNIGHT.index()])
            | (bitboard::step_attacks(them, PieceType::SILVER, sq) & t[PieceType::SILVER.index()])
            | (bitboard::gold_attacks(them, sq) & self.all_gold_movers())
            | (bitboard::king_attacks(sq) & (t[PieceType::KING.index()] | horse | dragon));
        // Slider rays are the expensive part: trace them only when a slider of
        // the right kind stands on one of the lines at all.
        let lances = t[PieceType::LANCE.index()] & own;
        if (bitboard::lance_pseudo_attacks(them, sq) & lances).any() {
            attackers |= bitboard::lance_attacks(them, sq, occupied) & lances;
        }
        let diagonal = (t[PieceType::BISHOP.index()] | horse) & own;
        if (bitboard::bishop_pseudo_attacks(sq) & diagonal).any() {
            attackers |= bitboard::bishop_attacks(sq, occupied) & diagonal;
        }
        let orthogonal = (t[PieceType::ROOK.index()] | dragon) & own;
        if (bitboard::rook_pseudo_attacks(sq) & orthogonal).any() {
            attackers |= bitboard::rook_attacks(sq, occupied) & orthogonal;
        }
        attackers & own
    }

    /// Pieces of both colours attacking `sq`, with the given occupancy for
    /// sliders (`attackers_to` of each colour, joined).
    #[inline(always)]
    pub fn all_attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.step_attackers_to(sq, Color::Sente)
            | self.step_attackers_to(sq, Color::Gote)
            | self.slider_attackers_to(sq, occupied)
    }

    /// Non-sliding attackers of `color` on `sq` (the step part of horse and
    /// dragon included).
    #[inline(always)]
    fn step_attackers_to(&self, sq: Square, color: Color) -> Bitboard {
        let them = color.flip();
        let t = &self.by_type;
        let kingly =
            t[PieceType::KING.index()] | t[PieceType::HORSE.index()] | t[PieceType::DRAGON.index()];
        ((bitboard::step_attacks(them, PieceType::PAWN, sq) & t[PieceType::PAWN.index()])
            | (bitboard::step_attacks(them, PieceType::KNIGHT, sq) & t[PieceType::KNIGHT.index()])
            | (bitboard::step_attacks(them, PieceType::SILVER, sq) & t[PieceType::SILVER.index()])
            | (bitboard::gold_attacks(them, sq) & self.all_gold_movers())
            | (bitboard::king_attacks(sq) & kingly))
            & self.by_color[color.index()]
    }

    /// Sliders of both colours attacking `sq` along their lines, with the
    /// given occupancy.
    #[inline(always)]
    pub fn slider_attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let t = &self.by_type;
        let lances = t[PieceType::LANCE.index()];
        let diagonal = t[PieceType::BISHOP.index()] | t[PieceType::HORSE.index()];
        let orthogonal = t[PieceType::ROOK.index()] | t[PieceType::DRAGON.index()];
        let mut attackers = Bitboard::EMPTY;
        if (bitboard::bishop_pseudo_attacks(sq) & diagonal).any() {
            attackers |= bitboard::bishop_attacks(sq, occupied) & diagonal;
        }
        if (bitboard::rook_pseudo_attacks(sq) & (orthogonal | lances)).any() {
            let rook = bitboard::rook_attacks(sq, occupied);
            attackers |= rook & orthogonal;
            // A sente lance attacks towards rank a, so from the side of rank i.
            attackers |= rook
                & lances
                & ((bitboard::lance_pseudo_attacks(Color::Gote, sq) & self.by_color[0])
                    | (bitboard::lance_pseudo_attacks(Color::Sente, sq) & self.by_color[1]));
        }
        attackers
    }

    /// Whether `color` attacks `sq`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, color: Color, occupied: Bitboard) -> bool {
        self.attackers_to(sq, color, occupied).any()
    }

    /// The squares of `targets`, squares next to `k`, that `color` attacks
    /// (each as [`is_attacked`](Self::is_attacked) says), piece by piece:
    /// cheaper than a test per square. Only the stepping pieces near
    /// enough to `k` are looked at.
    #[inline(always)]
    pub fn attacked_around(
        &self,
        k: Square,
        targets: Bitboard,
        color: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        debug_assert!(targets.and_not(bitboard::king_attacks(k)).is_empty());
        let own = self.by_color[color.index()];
        let knights = self.by_type[PieceType::KNIGHT.index()];
        let steppers = (own.and_not(self.sliders() | knights) & bitboard::near_steppers(k))
            | (own & knights & bitboard::near_knights(k));
        let mut attacked = Bitboard::EMPTY;
        for from in steppers {
            let pt = self.board[from.index()].piece_type();
            attacked |= bitboard::step_attacks(color, pt, from);
        }
        for from in own & self.sliders() {
            let pt = self.board[from.index()].piece_type();
            if (bitboard::pseudo_attacks(color, pt, from) & targets).any() {
                attacked |= bitboard::attacks(color, pt, from, occupied);
            }
        }
        attacked & targets
    }

    #[inline(always)]
    fn compute_checkers(&self) -> Bitboard {
        match self.kings[self.side.index()] {
            Some(k) => self.attackers_to(k, self.side.flip(), self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Pieces of `color` that shield `color`'s king from an enemy slider:
    /// moving one off the line would expose the king.
    #[inline(always)]
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.pins(color).0
    }

    /// The pieces of `color` pinned to `color`'s king ([`pinned`](Self::pinned))
    /// and the enemy sliders that pin them.
    #[inline(always)]
    pub fn pins(&self, color: Color) -> (Bitboard, Bitboard) {
        let Some(k) = self.kings[color.index()] else {
            return (Bitboard::EMPTY, Bitboard::EMPTY);
        };
        let them = color.flip();
        let t = &self.by_type;
        let snipers = ((bitboard::rook_pseudo_attacks(k)
            & (t[PieceType::ROOK.index()] | t[PieceType::DRAGON.index()]))
            | (bitboard::bishop_pseudo_attacks(k)
                & (t[PieceType::BISHOP.index()] | t[PieceType::HORSE.index()]))
            | (bitboard::lance_pseudo_attacks(color, k) & t[PieceType::LANCE.index()]))
            & self.by_color[them.index()];
        let occupied = self.occupied();
        let ours = self.by_color[color.index()];
        let mut pinned = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        for s in snipers {
            let blockers = bitboard::between(k, s) & occupied;
            if blockers.any() && !blockers.more_than_one() && (blockers & ours).any() {
                pinned |= blockers;
                pinners = pinners.with(s);
            }
        }
        (pinned, pinners)
    }

    // ---- making moves ----------------------------------------------------

    /// The position after `m`, which must be legal here.
    #[inline(always)]
    pub fn play(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.play_in_place(m);
        next
    }

    /// Applies `m`, which must be legal here.
    #[inline(always)]
    pub fn play_in_place(&mut self, m: Move) {
        let us = self.side;
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        if m.is_drop() {
            let pt = m.dropped();
            let piece = Piece::new(us, pt);
            let n = self.hands[us.index()].count(pt);
            self.key ^= zobrist::hand_key(us, pt, n) ^ zobrist::hand_key(us, pt, n - 1);
            self.hands[us.index()].set(pt, n - 1);
            self.board[to.index()] = piece;
            self.by_color[us.index()] |= to_bb;
            self.by_type[pt.index()] |= to_bb;
            self.key ^= zobrist::board_key(to, piece);
        } else {
            let from = m.from();
            let from_bb = Bitboard::from_square(from);
            let piece = self.board[from.index()];
            let captured = self.board[to.index()];
            if !captured.is_none() {
                let cpt = captured.piece_type();
                let them = us.flip();
                self.by_color[them.index()] ^= to_bb;
                self.by_type[cpt.index()] ^= to_bb;
                self.key ^= zobrist::board_key(to, captured);
                if cpt == PieceType::KING {
                    // Only reachable in analysis of positions where a king
                    // hangs; keep the state consistent anyway.
                    self.kings[them.index()] = None;
                } else {
                    let base = cpt.unpromoted();
                    let n = self.hands[us.index()].count(base);
                    self.key ^= zobrist::hand_key(us, base, n) ^ zobrist::hand_key(us, base, n + 1);
                    self.hands[us.index()].set(base, n + 1);
                }
            }
            let pt = piece.piece_type();
            let new_pt = if m.is_promotion() { pt.promoted() } else { pt };
            let new_piece = Piece::new(us, new_pt);
            self.board[from.index()] = Piece::NONE;
            self.board[to.index()] = new_piece;
            self.by_color[us.index()] ^= from_bb | to_bb;
            self.by_type[pt.index()] ^= from_bb;
            self.by_type[new_pt.index()] |= to_bb;
            self.key ^= zobrist::board_key(from, piece) ^ zobrist::board_key(to, new_piece);
            if pt == PieceType::KING {
                self.kings[us.index()] = Some(to);
            }
        }
        self.side = us.flip();
        self.key ^= zobrist::side_key();
        self.move_number = self.move_number.saturating_add(1);
        self.checkers = self.compute_checkers();
    }

    /// Whether the position's derived state matches a recomputation (for tests).
    pub fn is_consistent(&self) -> bool {
        let mut fresh = self.clone();
        fresh.finish();
        fresh.key == self.key && fresh.checkers == self.checkers && fresh.kings == self.kings
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", crate::sfen::to_sfen(self))
    }
}

#[cfg(test)]
mod tests {
    use crate::bitboard::Bitboard;
    use crate::movegen::random_playouts;
    use crate::types::Color;

    #[test]
    fn attacked_around_agrees_with_the_test_per_square() {
        // Random playouts (a fixed LCG) from the bench positions and the
        // small boards; every square asked of both colours, with the full
        // occupancy and with each king lifted (as the king's steps see it).
        let mut starts: Vec<&str> = crate::search::BENCH_POSITIONS.to_vec();
        starts.extend([
            crate::rules::BoardKind::Mini.start_sfen(),
            "npk/3/KPN b - 1",
            "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
        ]);
        let mut asked = 0;
        random_playouts(&starts, 40, |pos, _| {
            let all = pos.kind().mask();
            for color in [Color::Sente, Color::Gote] {
                let mut occupancies = vec![pos.occupied()];
                occupancies.extend(
                    [Color::Sente, Color::Gote]
                        .iter()
                        .filter_map(|&c| pos.king_square(c))
                        .map(|k| pos.occupied().without(k)),
                );
                for occupied in occupancies {
                    let mut want = Bitboard::EMPTY;
                    for sq in all {
                        if pos.is_attacked(sq, color, occupied) {
                            want = want.with(sq);
                        }
                    }
                    for k in all {
                        let around = crate::bitboard::king_attacks(k) & all;
                        assert_eq!(
                            pos.attacked_around(k, around, color, occupied),
                            want & around,
                            "{pos:?} {k:?}"
                        );
                    }
                    asked += 1;
                }
            }
        });
        assert!(asked > 1000, "{asked}");
    }
}
