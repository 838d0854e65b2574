//! Legal move generation for every board.
//!
//! Moves are generated legal, not pseudo-legal: checks, pins and the king's
//! safety are handled while generating, so callers never filter. Every legal
//! move is produced, including non-promotions that engines usually skip.
//!
//! The generator hands moves to a [`Sink`] in groups (one origin, a set of
//! destinations), so the same code fills a [`MoveList`] or only counts, which
//! is what perft does at its last ply.

use crate::bitboard::{self, Bitboard};
use crate::checks::CheckInfo;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Receives generated moves, a group at a time.
trait Sink {
    /// Moves from `from` to each square of `to`.
    fn board(&mut self, from: Square, to: Bitboard, promote: bool);
    /// Pawn pushes: every pawn moves one square forward, onto `to`.
    fn pawns(&mut self, us: Color, to: Bitboard, promote: bool);
    /// Drops of `pt` onto each square of `to`.
    fn drops(&mut self, pt: PieceType, to: Bitboard);
    /// Whether the sink needs no more moves (the generator may stop).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

impl Sink for MoveList {
    #[inline]
    fn board(&mut self, from: Square, to: Bitboard, promote: bool) {
        for sq in to {
            self.push(Move::normal(from, sq, promote));
        }
    }

    #[inline]
    fn pawns(&mut self, us: Color, to: Bitboard, promote: bool) {
        for sq in to {
            self.push(Move::normal(pawn_origin(us, sq), sq, promote));
        }
    }

    #[inline]
    fn drops(&mut self, pt: PieceType, to: Bitboard) {
        for sq in to {
            self.push(Move::drop(pt, sq));
        }
    }
}

/// Fills a list with every move and a second one with the checking moves,
/// both in generation order.
struct WithChecks<'a> {
    all: &'a mut MoveList,
    checks: CheckSink<'a>,
}

impl Sink for WithChecks<'_> {
    #[inline]
    fn board(&mut self, from: Square, to: Bitboard, promote: bool) {
        self.all.board(from, to, promote);
        self.checks.board(from, to, promote);
    }

    #[inline]
    fn pawns(&mut self, us: Color, to: Bitboard, promote: bool) {
        self.all.pawns(us, to, promote);
        self.checks.pawns(us, to, promote);
    }

    #[inline]
    fn drops(&mut self, pt: PieceType, to: Bitboard) {
        self.all.drops(pt, to);
        self.checks.drops(pt, to);
    }
}

/// Counts moves without making them.
struct Counter(usize);

impl Sink for Counter {
    #[inline]
    fn board(&mut self, _from: Square, to: Bitboard, _promote: bool) {
        self.0 += to.count_sparse() as usize;
    }

    #[inline]
    fn pawns(&mut self, _us: Color, to: Bitboard, _promote: bool) {
        self.0 += to.count_sparse() as usize;
    }

    #[inline]
    fn drops(&mut self, _pt: PieceType, to: Bitboard) {
        self.0 += to.count_sparse() as usize;
    }
}

/// Stops at the first move (whether there is any).
struct AnyMove(bool);

impl Sink for AnyMove {
    #[inline]
    fn board(&mut self, _from: Square, to: Bitboard, _promote: bool) {
        self.0 |= to.any();
    }

    #[inline]
    fn pawns(&mut self, _us: Color, to: Bitboard, _promote: bool) {
        self.0 |= to.any();
    }

    #[inline]
    fn drops(&mut self, _pt: PieceType, to: Bitboard) {
        self.0 |= to.any();
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// Keeps only the checking moves (the mate solver's attacker moves): of
/// each piece's destinations and each drop's squares, those from which the
/// piece checks ([`CheckInfo::checking`] and its kin).
struct CheckSink<'a> {
    pos: &'a Position,
    info: &'a CheckInfo,
    list: &'a mut MoveList,
}

impl Sink for CheckSink<'_> {
    #[inline]
    fn board(&mut self, from: Square, to: Bitboard, promote: bool) {
        let pt = self.pos.piece_on(from).piece_type();
        let pt = if promote { pt.promoted() } else { pt };
        self.list
            .board(from, self.info.checking(pt, from, to), promote);
    }

    #[inline]
    fn pawns(&mut self, us: Color, to: Bitboard, promote: bool) {
        let pt = if promote {
            PieceType::PRO_PAWN
        } else {
            PieceType::PAWN
        };
        self.list
            .pawns(us, self.info.checking_pawn_steps(us, pt, to), promote);
    }

    #[inline]
    fn drops(&mut self, pt: PieceType, to: Bitboard) {
        self.list.drops(pt, self.info.checking_drops(pt, to));
    }
}

/// Fills `list` with every legal checking move of the side to move (the
/// legal moves that [`CheckInfo::gives_check`] accepts, in the same order).
pub fn legal_checks(pos: &Position, list: &mut MoveList) {
    list.clear();
    let info = CheckInfo::new(pos);
    let mut sink = CheckSink {
        pos,
        info: &info,
        list,
    };
    match info.king() {
        Some(k) if !pos.in_check() => generate_checks(pos, k, &mut sink),
        _ => generate(pos, &mut sink),
    }
}

/// [`generate`] for a [`CheckSink`] when the side to move is not in check
/// and the opponent's king stands on `their_king`: only the pieces that may
/// check are moved (our sliders, the pieces that uncover one, and the
/// stepping pieces near enough to reach a checking square), in the
/// generator's order.
#[inline(always)]
fn generate_checks(pos: &Position, their_king: Square, sink: &mut CheckSink) {
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let discoverers = sink.info.discoverers();
    let king = pos.king_square(us);
    // Our king checks only by uncovering a slider (a step next to theirs
    // is never legal).
    if let Some(k) = king
        && discoverers.has(k)
    {
        king_moves(pos, k, sink);
    }
    let knights = pos.pieces_of(us, PieceType::KNIGHT);
    let movers = (own & pos.sliders())
        | discoverers
        | (own.and_not(knights) & bitboard::near_steppers(their_king))
        | (knights & bitboard::near_knight_checks(their_king));
    let mask = pos.kind().mask();
    piece_moves(pos, king, mask.and_not(own), movers, sink);
    if !pos.hand(us).is_empty() {
        drops(pos, mask.and_not(pos.occupied()), sink);
    }
}

/// The square a pawn of `us` came from to reach `to` (one rank behind).
#[inline]
pub(crate) fn pawn_origin(us: Color, to: Square) -> Square {
    let index = match us {
        Color::Sente => to.index() + 1,
        Color::Gote => to.index() - 1,
    };
    Square::from_index(index).unwrap_or(to)
}

/// Fills `list` with every legal move of the side to move.
#[inline(always)]
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    list.clear();
    generate(pos, list);
}

/// Fills `list` with every legal move of the side to move and `checks`
/// with those that check (as `info`, made for `pos`, tells), each in the
/// order [`legal_moves`] gives.
#[inline(always)]
pub fn legal_moves_and_checks(
    pos: &Position,
    info: &CheckInfo,
    list: &mut MoveList,
    checks: &mut MoveList,
) {
    list.clear();
    checks.clear();
    let mut sink = WithChecks {
        all: list,
        checks: CheckSink {
            pos,
            info,
            list: checks,
        },
    };
    generate(pos, &mut sink);
}

/// Number of legal moves of the side to move.
#[inline(always)]
pub fn count_legal_moves(pos: &Position) -> usize {
    if let Some(k) = pos.king_square(pos.side_to_move())
        && pos.checkers().any()
    {
        return count_evasions(pos, k, pos.checkers());
    }
    let mut counter = Counter(0);
    generate(pos, &mut counter);
    counter.0
}

/// [`count_legal_moves`] of a side in check (king on `k`, checked by
/// `checkers`), square by square instead of piece by piece: the king's
/// steps, then for each square that takes the checker or blocks its line
/// the pieces that reach it (each with its promotion choices), and the drops
/// on the line. A pinned piece can neither take the checker nor block: its
/// pinner is another slider, and it may move only on the line of that pin,
/// which meets the checker's line at the king alone.
#[inline(always)]
fn count_evasions(pos: &Position, k: Square, checkers: Bitboard) -> usize {
    let mut counter = Counter(0);
    king_moves(pos, k, &mut counter);
    let Some(checker) = checkers.first() else {
        return counter.0;
    };
    if checkers.more_than_one() {
        return counter.0;
    }
    let us = pos.side_to_move();
    let occupied = pos.occupied();
    let block = bitboard::between(k, checker);
    let targets = block.with(checker);
    let movers = pos.pieces(us).and_not(pos.pinned(us)).without(k);
    for to in targets {
        for from in pos.attackers_to(to, us, occupied) & movers {
            counter.0 += move_choices(pos, from, to);
        }
    }
    if block.any() && !pos.hand(us).is_empty() {
        drops(pos, block, &mut counter);
    }
    counter.0
}

/// The number of legal moves of the piece on `from` to `to` (a square it
/// reaches): with and without promotion where each is allowed.
#[inline(always)]
fn move_choices(pos: &Position, from: Square, to: Square) -> usize {
    let pt = pos.piece_on(from).piece_type();
    if !pt.can_promote() {
        return 1;
    }
    let us = pos.side_to_move();
    let kind = pos.kind();
    let zone = kind.zone(us);
    let promote = zone.has(from) || zone.has(to);
    let stay = !kind.dead_squares(us, pt).has(to);
    usize::from(promote) + usize::from(stay)
}

/// Whether the side to move has at least one legal move.
pub fn has_legal_move(pos: &Position) -> bool {
    let mut any = AnyMove(false);
    generate(pos, &mut any);
    any.0
}

/// Whether `m` is legal in `pos`.
pub fn is_legal(pos: &Position, m: Move) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.contains(m)
}

/// Whether `m`, any 16-bit move (a TT move may come from another
/// position), is legal in `pos`: [`is_legal`] without generating the list,
/// square by square by the same rules as the generator.
pub fn is_legal_fast(pos: &Position, m: Move) -> bool {
    // Only a canonical encoding can be in the generator's list.
    let canonical = if m.is_drop() {
        Move::drop(m.dropped(), m.to())
    } else {
        Move::normal(m.from(), m.to(), m.is_promotion())
    };
    if m.is_none() || canonical != m {
        return false;
    }
    let us = pos.side_to_move();
    let kind = pos.kind();
    let to = m.to();
    if !kind.mask().has(to) || pos.pieces(us).has(to) {
        return false;
    }
    let king = pos.king_square(us);
    let checkers = pos.checkers();
    if m.is_drop() {
        return drop_is_legal(pos, m, king, checkers);
    }
    let from = m.from();
    if !kind.mask().has(from) || !pos.pieces(us).has(from) {
        return false;
    }
    let pt = pos.piece_on(from).piece_type();
    let occupied = pos.occupied();
    if !bitboard::attacks(us, pt, from, occupied).has(to) {
        return false;
    }
    let zone = kind.zone(us);
    let promotion_ok = if m.is_promotion() {
        pt.can_promote() && (zone.has(from) || zone.has(to))
    } else {
        !kind.dead_squares(us, pt).has(to)
    };
    if !promotion_ok {
        return false;
    }
    let Some(k) = king else {
        return true;
    };
    if from == k {
        return !pos.is_attacked(to, us.flip(), occupied.without(k));
    }
    if pos.pinned(us).has(from) && !bitboard::line(k, from).has(to) {
        return false;
    }
    match checkers.first() {
        None => true,
        Some(_) if checkers.more_than_one() => false,
        Some(c) => to == c || bitboard::between(k, c).has(to),
    }
}

/// [`is_legal_fast`] for a drop onto the empty square `m.to()`.
fn drop_is_legal(pos: &Position, m: Move, king: Option<Square>, checkers: Bitboard) -> bool {
    let us = pos.side_to_move();
    let to = m.to();
    let pt = m.dropped();
    if !PieceType::HAND.contains(&pt)
        || pos.hand(us).count(pt) == 0
        || pos.occupied().has(to)
        || pos.kind().dead_squares(us, pt).has(to)
    {
        return false;
    }
    if let (Some(k), Some(c)) = (king, checkers.first())
        && (checkers.more_than_one() || !bitboard::between(k, c).has(to))
    {
        return false;
    }
    if pt == PieceType::PAWN
        && (pawn_files(pos, us).has(to)
            || (pawn_mate_square(pos) == Some(to) && is_pawn_drop_mate(pos, to)))
    {
        return false;
    }
    true
}

#[inline(always)]
fn generate<S: Sink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let mask = pos.kind().mask();
    let own = pos.pieces(us);
    let checkers = pos.checkers();
    let king = pos.king_square(us);

    if let Some(k) = king {
        king_moves(pos, k, sink);
        if checkers.more_than_one() || sink.done() {
            return;
        }
    }
    // With one checker every other move must capture it or block its line;
    // a contact check leaves nothing to block, so drops find no square.
    let (move_targets, drop_targets) = match (king, checkers.first()) {
        (Some(k), Some(checker)) => {
            let block = bitboard::between(k, checker);
            (block.with(checker), block)
        }
        _ => (mask.and_not(own), mask.and_not(pos.occupied())),
    };
    piece_moves(pos, king, move_targets, pos.pieces(us), sink);
    if drop_targets.any() && !pos.hand(us).is_empty() && !sink.done() {
        drops(pos, drop_targets, sink);
    }
}

#[inline(always)]
fn king_moves<S: Sink>(pos: &Position, k: Square, sink: &mut S) {
    let us = pos.side_to_move();
    let them = us.flip();
    let targets = bitboard::king_attacks(k) & pos.kind().mask() & !pos.pieces(us);
    // The king must not hide behind itself from a slider: look through it.
    let occupied = pos.occupied().without(k);
    let safe = targets.and_not(pos.attacked_around(k, targets, them, occupied));
    sink.board(k, safe, false);
}

/// Moves of the pieces of `movers` but the king. Unpinned pieces go type by
/// type (pawns all at once); pinned ones stay on the line through their
/// king.
#[inline(always)]
fn piece_moves<S: Sink>(
    pos: &Position,
    king: Option<Square>,
    targets: Bitboard,
    movers: Bitboard,
    sink: &mut S,
) {
    let us = pos.side_to_move();
    let occupied = pos.occupied();
    let pinned = pos.pinned(us) & movers;
    let free = movers.and_not(pinned);
    let kind = pos.kind();
    let zone = kind.zone(us);

    // Pawns never stand on their last rank, so a one-rank shift stays in the file.
    let pawns = pos.pieces_of(us, PieceType::PAWN) & free;
    if pawns.any() {
        let to = match us {
            Color::Sente => pawns.shift_up(),
            Color::Gote => pawns.shift_down(),
        } & targets;
        sink.pawns(us, to & zone, true);
        sink.pawns(
            us,
            to.and_not(kind.dead_squares(us, PieceType::PAWN)),
            false,
        );
    }
    // Lances and knights only move forward: promotion depends on `to` alone.
    for pt in [PieceType::LANCE, PieceType::KNIGHT] {
        let dead = kind.dead_squares(us, pt);
        for from in pos.pieces_of(us, pt) & free {
            let to = bitboard::attacks(us, pt, from, occupied) & targets;
            sink.board(from, to & zone, true);
            sink.board(from, to.and_not(dead), false);
        }
    }
    for from in pos.pieces_of(us, PieceType::SILVER) & free {
        let to = bitboard::step_attacks(us, PieceType::SILVER, from) & targets;
        promotable(sink, zone, from, to);
    }
    for from in pos.pieces_of(us, PieceType::BISHOP) & free {
        promotable(
            sink,
            zone,
            from,
            bitboard::bishop_attacks(from, occupied) & targets,
        );
    }
    for from in pos.pieces_of(us, PieceType::ROOK) & free {
        promotable(
            sink,
            zone,
            from,
            bitboard::rook_attacks(from, occupied) & targets,
        );
    }
    for from in pos.gold_movers(us) & free {
        sink.board(from, bitboard::gold_attacks(us, from) & targets, false);
    }
    for from in pos.pieces_of(us, PieceType::HORSE) & free {
        let to = bitboard::bishop_attacks(from, occupied) | bitboard::king_attacks(from);
        sink.board(from, to & targets, false);
    }
    for from in pos.pieces_of(us, PieceType::DRAGON) & free {
        let to = bitboard::rook_attacks(from, occupied) | bitboard::king_attacks(from);
        sink.board(from, to & targets, false);
    }
    if let Some(k) = king {
        for from in pinned {
            let pt = pos.piece_on(from).piece_type();
            let to = bitboard::attacks(us, pt, from, occupied) & targets & bitboard::line(k, from);
            push_board_moves(pos, us, pt, from, to, sink);
        }
    }
}

/// Silver, bishop and rook: promotion is optional when the move starts or
/// ends in the zone, and they are never dead.
#[inline]
fn promotable<S: Sink>(sink: &mut S, zone: Bitboard, from: Square, to: Bitboard) {
    let promoting = if zone.has(from) { to } else { to & zone };
    sink.board(from, promoting, true);
    sink.board(from, to, false);
}

/// Moves of one piece of any type to each target, with and without promotion
/// where each is allowed.
fn push_board_moves<S: Sink>(
    pos: &Position,
    us: Color,
    pt: PieceType,
    from: Square,
    targets: Bitboard,
    sink: &mut S,
) {
    if !pt.can_promote() {
        sink.board(from, targets, false);
        return;
    }
    let kind = pos.kind();
    let zone = kind.zone(us);
    let promoting = if zone.has(from) {
        targets
    } else {
        targets & zone
    };
    sink.board(from, promoting, true);
    sink.board(from, targets.and_not(kind.dead_squares(us, pt)), false);
}

#[inline(always)]
fn drops<S: Sink>(pos: &Position, targets: Bitboard, sink: &mut S) {
    let us = pos.side_to_move();
    let kind = pos.kind();
    let hand = pos.hand(us);
    for pt in PieceType::HAND {
        if hand.count(pt) == 0 {
            continue;
        }
        let mut to = targets.and_not(kind.dead_squares(us, pt));
        if pt == PieceType::PAWN {
            to = to.and_not(pawn_files(pos, us));
            if let Some(sq) = pawn_mate_square(pos)
                && to.has(sq)
                && is_pawn_drop_mate(pos, sq)
            {
                to = to.without(sq);
            }
        }
        sink.drops(pt, to);
    }
}

/// Files holding an unpromoted pawn of `color` (二歩 forbids dropping there).
fn pawn_files(pos: &Position, color: Color) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for sq in pos.pieces_of(color, PieceType::PAWN) {
        files |= Bitboard::file_mask(sq.file());
    }
    files
}

/// The square from which a pawn of the side to move would check the enemy king.
fn pawn_mate_square(pos: &Position) -> Option<Square> {
    let them = pos.side_to_move().flip();
    let k = pos.king_square(them)?;
    bitboard::step_attacks(them, PieceType::PAWN, k).first()
}

/// 打ち歩詰め, decided exactly: the drop is a mate only if the defender has no
/// legal reply at all, so pins on defenders and sliders covering the pawn
/// through the king are accounted for by the ordinary legality rules.
#[inline(never)]
fn is_pawn_drop_mate(pos: &Position, sq: Square) -> bool {
    let after = pos.play(Move::drop(PieceType::PAWN, sq));
    !has_legal_move(&after)
}

/// Random playouts for tests: from each of `starts`, up to `plies` moves
/// chosen by a fixed LCG; `visit` sees every position reached with its
/// legal moves. Returns the number of positions visited.
#[cfg(test)]
pub(crate) fn random_playouts(
    starts: &[&str],
    plies: usize,
    mut visit: impl FnMut(&Position, &MoveList),
) -> usize {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut visited = 0;
    for sfen in starts {
        let mut pos = crate::sfen::parse_sfen(sfen).expect("valid sfen");
        for _ in 0..plies {
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            visit(&pos, &list);
            visited += 1;
            if list.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            pos = pos.play(list.as_slice()[(seed >> 33) as usize % list.len()]);
        }
    }
    visited
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen;

    fn moves_of(sfen_text: &str) -> Vec<String> {
        let pos = sfen::parse_sfen(sfen_text).expect("valid sfen");
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    fn count(sfen_text: &str) -> usize {
        moves_of(sfen_text).len()
    }

    #[test]
    fn checks_are_the_legal_moves_that_check() {
        let mut checked = 0;
        for sfen in crate::search::BENCH_POSITIONS.iter().chain(&[
            // Discovered checks by pawn, lance and knight; checks by promotion.
            "4k4/9/4P4/4L4/9/9/9/9/4K4 b GN 1",
            "4k4/9/2N1P4/9/B8/9/9/9/4K4 b - 1",
            "3k5/1S7/P1P6/9/9/9/9/9/4K4 b RBGSNLP 1",
            // Pawn steps that uncover a bishop: sente, gote, and into the
            // promotion zone.
            "8k/9/9/9/4P4/9/9/9/B3K4 b - 1",
            "k7b/9/9/9/4p4/9/9/9/K8 w - 1",
            "7k1/9/9/4P4/9/9/9/B8/4K4 b - 1",
        ]) {
            let root = sfen::parse_sfen(sfen).unwrap();
            let mut first = MoveList::new();
            legal_moves(&root, &mut first);
            let children: Vec<Position> = first.iter().map(|&m| root.play(m)).collect();
            for pos in std::iter::once(&root).chain(&children) {
                let info = CheckInfo::new(pos);
                let (mut all, mut checks, mut want) =
                    (MoveList::new(), MoveList::new(), MoveList::new());
                legal_moves(pos, &mut want);
                legal_moves_and_checks(pos, &info, &mut all, &mut checks);
                assert_eq!(all.as_slice(), want.as_slice(), "{pos:?}");
                want.retain(|m| pos.play(m).in_check());
                assert_eq!(checks.as_slice(), want.as_slice(), "{pos:?}");
                checked += checks.len();
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn checks_and_evasions_as_the_generator_finds_them() {
        // Random playouts (a fixed LCG) from the tsume benchmark's game
        // positions, the bench positions and small boards; at each position
        // the checks are generated both ways, and every check is played and
        // the replies counted both ways.
        let games = include_str!("../tests/data/tsume-games.tsv");
        let mut starts: Vec<&str> = games
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split('\t').nth(2))
            .collect();
        starts.extend(crate::search::BENCH_POSITIONS.iter());
        starts.extend([
            crate::rules::BoardKind::Mini.start_sfen(),
            "npk/3/KPN b - 1",
            "lk1/3/1KL b Nn 1",
            "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
        ]);
        let mut checked = 0;
        random_playouts(&starts, 24, |pos, list| {
            let mut checks = MoveList::new();
            legal_checks(pos, &mut checks);
            let want: Vec<Move> = list
                .iter()
                .copied()
                .filter(|&m| pos.play(m).in_check())
                .collect();
            assert_eq!(checks.as_slice(), want.as_slice(), "{pos:?}");
            for &m in list.iter() {
                let child = pos.play(m);
                if !child.in_check() {
                    continue;
                }
                let mut counter = Counter(0);
                generate(&child, &mut counter);
                assert_eq!(count_legal_moves(&child), counter.0, "{child:?}");
                checked += 1;
            }
        });
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn fast_legality_agrees_with_the_generator_on_every_encoding() {
        // Random playouts (a fixed LCG) from the start positions, the
        // bench positions and positions without the attacker's king; at
        // each position every 16-bit value is asked.
        let mut starts: Vec<&str> = crate::search::BENCH_POSITIONS.to_vec();
        starts.extend([
            crate::rules::BoardKind::Standard.start_sfen(),
            crate::rules::BoardKind::Mini.start_sfen(),
            crate::rules::BoardKind::Ninemasu.start_sfen(),
            "8k/6G2/7G1/9/9/9/9/9/K8 b P 1",
            "4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1",
            "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
            "8l/7sk/7R1/6B2/9/8b/9/9/9 b Sr4g2s4n3l18p 1",
            // Knights and lances on 3x3 (must promote at once), and gote to
            // move without a king.
            "npk/3/KPN b - 1",
            "npk/3/KPN w - 1",
            "lk1/3/1KL b Nn 1",
            "9/9/9/9/9/9/9/4K4/9 w GS2r2b3g3s4n4l18p 1",
        ]);
        let positions = random_playouts(&starts, 24, |pos, list| {
            for raw in 0..=u16::MAX {
                let m = Move::from_raw(raw);
                assert_eq!(is_legal_fast(pos, m), list.contains(m), "{m} in {pos:?}");
            }
        });
        assert!(positions > 200);
    }

    #[test]
    fn start_positions() {
        assert_eq!(count(crate::rules::BoardKind::Standard.start_sfen()), 30);
        assert_eq!(count(crate::rules::BoardKind::Mini.start_sfen()), 14);
    }

    #[test]
    fn pawn_drop_mate_is_excluded_but_other_pawn_drops_stay() {
        // Golds on 3b and 2c cover every escape and the pawn: P*1b mates.
        let v = moves_of("8k/6G2/7G1/9/9/9/9/9/K8 b P 1");
        assert!(!v.contains(&"P*1b".to_string()));
        assert!(v.contains(&"P*1c".to_string()));
        // Without the gold on 2c the king takes the pawn: the drop is legal.
        let v = moves_of("8k/6G2/9/9/9/9/9/9/K8 b P 1");
        assert!(v.contains(&"P*1b".to_string()));
    }

    #[test]
    fn seed_002_rook_pins_the_capturing_bishop() {
        // Seed 002, first case, on 3x3: gote drops P*3b against the king on
        // 3c. Sente's bishop on 2c could take the pawn, but gote's rook on 1c
        // pins it to the king; the gold on 3a guards the pawn. Mate, so the
        // drop is illegal; a shortcut that sees "the bishop can capture"
        // gets this wrong.
        let v = moves_of("g2/1S1/KBr w p 1");
        assert!(!v.contains(&"P*3b".to_string()), "{v:?}");
        // Without the pinning rook the bishop takes the pawn: legal.
        let v = moves_of("g2/1S1/KB1 w p 1");
        assert!(v.contains(&"P*3b".to_string()), "{v:?}");
    }

    #[test]
    fn seed_002_bishop_pins_the_capturing_rook() {
        // Seed 002, second case, on 3x3: sente drops P*1b against the king on
        // 1a. Gote's rook on 2b could take it, but sente's bishop on 3c pins
        // the rook along the diagonal; the gold on 1c guards the pawn.
        let v = moves_of("1lk/1r1/B1G b P 1");
        assert!(!v.contains(&"P*1b".to_string()), "{v:?}");
        let v = moves_of("1lk/1r1/2G b P 1");
        assert!(v.contains(&"P*1b".to_string()), "{v:?}");
    }

    #[test]
    fn pinned_defender_on_9x9() {
        // Sente king 5i; gote drops P*5h. The bishop on 4i could take it but
        // is pinned along the i-rank by the rook on 1i; the silver on 5g guards
        // the pawn and the king's other squares hold its own pieces.
        let v = moves_of("8k/9/9/9/9/9/4s4/3S1P3/3LKB2r w p 1");
        assert!(!v.contains(&"P*5h".to_string()), "{v:?}");
        let v = moves_of("8k/9/9/9/9/9/4s4/3S1P3/3LKB3 w p 1");
        assert!(v.contains(&"P*5h".to_string()), "{v:?}");
    }

    #[test]
    fn king_may_not_take_a_pawn_a_slider_guards() {
        // P*1b against the king on 1a: a bishop on 4e guards 1b from afar,
        // a gold on 3b covers 2a and 2b. Mate: illegal.
        let v = moves_of("8k/6G2/9/9/5B3/9/9/9/K8 b P 1");
        assert!(!v.contains(&"P*1b".to_string()), "{v:?}");
        // A piece on 2c cuts the bishop's line: the king takes the pawn.
        let v = moves_of("8k/6G2/7p1/9/5B3/9/9/9/K8 b P 1");
        assert!(v.contains(&"P*1b".to_string()), "{v:?}");
    }

    #[test]
    fn nifu_and_dead_drops_are_excluded() {
        let v = moves_of("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1");
        assert!(!v.iter().any(|m| m.starts_with("P*5")));
        assert!(v.contains(&"P*4e".to_string()));
        assert!(!v.iter().any(|m| m.starts_with("P*") && m.ends_with('a')));
        assert!(!v.iter().any(|m| m.starts_with("L*") && m.ends_with('a')));
        assert!(
            !v.iter()
                .any(|m| m.starts_with("N*") && (m.ends_with('a') || m.ends_with('b')))
        );
        assert!(v.contains(&"N*1c".to_string()));
    }

    #[test]
    fn forced_and_optional_promotion() {
        // Sente pawn on 1b must promote on 1a; silver may choose.
        let v = moves_of("k8/8P/9/5S3/9/9/9/9/K8 b - 1");
        assert!(v.contains(&"1b1a+".to_string()));
        assert!(!v.contains(&"1b1a".to_string()));
        assert!(v.contains(&"4d4c+".to_string()));
        assert!(v.contains(&"4d4c".to_string()));
        // A knight may not stop on the last two ranks unpromoted.
        let v = moves_of("k8/9/9/7N1/9/9/9/9/K8 b - 1");
        assert!(v.contains(&"2d1b+".to_string()));
        assert!(!v.contains(&"2d1b".to_string()));
    }

    #[test]
    fn promotion_into_out_of_and_within_the_zone() {
        // Sente silver on 4c (in the zone): out of it (4c3d) and within it
        // (4c4b) may promote; a bishop entering the zone (8h3c) may too.
        let v = moves_of("k8/9/5S3/9/9/9/9/1B7/K8 b - 1");
        for m in ["4c3d+", "4c3d", "4c4b+", "4c4b", "8h3c+", "8h3c", "8h6f"] {
            assert!(v.contains(&m.to_string()), "{m} missing: {v:?}");
        }
        // Outside the zone on both ends: no promotion.
        assert!(!v.contains(&"8h6f+".to_string()));
        // 5x5: the zone is the far rank only; a silver on 3b may promote
        // going to 2a but not retreating to 2c, and one on 3c never.
        let v = moves_of("k4/2S2/5/5/4K b - 1");
        assert!(v.contains(&"3b2a+".to_string()) && !v.contains(&"3b2c+".to_string()));
        let v = moves_of("k4/5/2S2/5/4K b - 1");
        assert!(!v.iter().any(|m| m.ends_with('+')), "{v:?}");
    }

    #[test]
    fn minishogi_knight_cannot_stop_on_its_second_last_rank() {
        // On 5x5 the zone is one rank: a knight jumping to rank b can neither
        // promote nor ever move again, so that move does not exist; jumping to
        // rank a it must promote.
        let v = moves_of("k4/5/5/2N2/4K b - 1");
        assert!(!v.iter().any(|m| m.starts_with("3d")), "{v:?}");
        let v = moves_of("k4/5/2N2/5/4K b - 1");
        assert!(v.contains(&"3c2a+".to_string()) && !v.contains(&"3c2a".to_string()));
    }

    #[test]
    fn ninemasu_knight_geometry() {
        // On 3x3 a sente knight on rank c jumps to rank a and must promote;
        // it can never be dropped outside rank c.
        let v = moves_of("1k1/3/1N1 b N 1");
        assert!(v.contains(&"2c1a+".to_string()) || v.contains(&"2c3a+".to_string()));
        assert!(!v.contains(&"2c3a".to_string()));
        assert!(
            v.iter()
                .filter(|m| m.starts_with("N*"))
                .all(|m| m.ends_with('c'))
        );
    }

    #[test]
    fn no_move_into_check() {
        // Sente king 5i, gote rook 5a: the king may not stay on the 5-file.
        let v = moves_of("4r4/9/9/9/9/9/9/9/4K4 b - 1");
        assert!(!v.contains(&"5i5h".to_string()));
        assert!(v.contains(&"5i4h".to_string()));
    }
}
