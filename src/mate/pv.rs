//! The answer line of a proven position.
//!
//! Every proven entry holds the length of the mate it was proven with (an
//! upper bound of the true distance: min over the attacker's proven checks
//! plus one, max over the defender's replies plus one). The line follows the
//! attacker's shortest known mate and the defender's longest resistance; a
//! drop interposition that the attacker's best reply just captures is a
//! useless interposition (無駄合い) and ranks as two plies shorter, so the
//! line prefers a real defence. Entries replaced since the proof are proven
//! again on the way. The finished line is checked move by move (every
//! attacker move checks, it ends without a legal reply) before it is used.
//!
//! When the line shortening has proven the root's shortest length (a mate
//! of `n` plies, none of `n - 2`), [`exact_line`] follows exact lengths
//! instead of upper bounds: the table keeps, beside proofs, the length
//! bounds of the failed shortening (no mate within so many plies), so the
//! defender's reply that is not mated sooner is mostly read from it, else
//! found by a search with the length limited.

use super::dfpn::{Dfpn, NodeValue, Poll, checks};
use crate::movegen::{has_legal_move, is_legal, legal_moves};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Attempts at a line against the longest defence (each avoiding the
/// defender's moves that led to a failure before) before the shortest.
const LINE_ATTEMPTS: usize = 32;
/// Longest line followed, in plies.
const MAX_LINE: usize = super::dfpn::MAX_PLY;

/// The next move of the line from `pos`, or `None` at the end.
enum Step {
    Play(Move),
    Mated,
    Failed,
}

/// The proven length of `pos`, re-proving it if its entry is gone.
fn proven_len(dfpn: &mut Dfpn<'_>, pos: &Position, ply: usize, poll: &mut dyn Poll) -> Option<u16> {
    let v = match dfpn.probe(pos) {
        Some(v) if v.is_terminal() => v,
        _ if dfpn.on_path(pos.key()).is_some() => return None,
        _ => dfpn.mid(pos, ply, super::table::INF, super::table::INF, poll),
    };
    (v.pn == 0).then_some(v.len)
}

/// The attacker's check with the shortest known mate, if any is proven.
fn best_check(dfpn: &Dfpn<'_>, pos: &Position) -> Option<(Move, u16)> {
    let mut best: Option<(Move, u16)> = None;
    for &m in checks(pos).iter() {
        let child = pos.play(m);
        if dfpn.on_path(child.key()).is_some() {
            continue;
        }
        if let Some(NodeValue { pn: 0, len, .. }) = dfpn.probe(&child)
            && best.is_none_or(|(_, l)| len < l)
        {
            best = Some((m, len));
        }
    }
    best
}

fn or_step(dfpn: &mut Dfpn<'_>, pos: &Position, ply: usize, poll: &mut dyn Poll) -> Step {
    if let Some((m, _)) = best_check(dfpn, pos) {
        return Step::Play(m);
    }
    // The children's entries were replaced: prove the node again.
    let v = dfpn.prove_again(pos, ply, poll);
    match best_check(dfpn, pos) {
        Some((m, _)) if v.pn == 0 => Step::Play(m),
        _ => Step::Failed,
    }
}

/// Whether the drop `m` is a useless interposition: the attacker's best
/// reply captures the dropped piece.
fn useless_drop(dfpn: &Dfpn<'_>, child: &Position, m: Move) -> bool {
    m.is_drop() && best_check(dfpn, child).is_some_and(|(r, _)| !r.is_drop() && r.to() == m.to())
}

/// Which reply the line's defender plays.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Defence {
    /// The longest known resistance (real defences before useless drops).
    Longest,
    /// The shortest known mate: the fallback when the longest line runs
    /// into a position already on it (the proven lengths are upper bounds,
    /// so the longest replies can lead round a cycle).
    Shortest,
}

/// A defender's move: the key of the position it is played from, and the
/// move.
type DefenderMove = (u64, Move);

/// The defender's replies the line avoids: each led to a position where the
/// line could not go on.
type Banned = Vec<DefenderMove>;

fn and_step(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    ply: usize,
    defence: Defence,
    banned: &Banned,
    poll: &mut dyn Poll,
) -> Step {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if list.is_empty() {
        return Step::Mated;
    }
    // (rank, move): rank orders by effective length, then real defences.
    let mut best: Option<((u32, bool), Move)> = None;
    for &m in list.iter() {
        let child = pos.play(m);
        let Some(len) = proven_len(dfpn, &child, ply + 1, poll) else {
            return Step::Failed;
        };
        if dfpn.on_path(child.key()).is_some() || banned.contains(&(pos.key(), m)) {
            continue;
        }
        let useless = useless_drop(dfpn, &child, m);
        let effective = if useless {
            (len as u32).saturating_sub(2)
        } else {
            len as u32
        };
        let effective = match defence {
            Defence::Longest => effective,
            Defence::Shortest => u32::MAX - len as u32,
        };
        let rank = (effective, !m.is_drop());
        if best.is_none_or(|(r, _)| rank > r) {
            best = Some((rank, m));
        }
    }
    best.map_or(Step::Failed, |(_, m)| Step::Play(m))
}

/// The line from `root`; when the proof could not be followed, `Err` with
/// the last defender's move before the failure (if any).
fn line_positions(
    dfpn: &mut Dfpn<'_>,
    root: &Position,
    ply0: usize,
    defence: Defence,
    banned: &Banned,
    poll: &mut dyn Poll,
) -> Result<Vec<Move>, Option<DefenderMove>> {
    let attacker = root.side_to_move();
    let mut line = Vec::new();
    let mut positions = vec![root.clone()];
    let mut entered = Vec::new();
    let mated = loop {
        let pos = positions.last().expect("root").clone();
        if line.len() >= MAX_LINE {
            break false;
        }
        let ply = ply0 + line.len();
        dfpn.enter(pos.key(), ply);
        entered.push(pos.key());
        let step = if pos.side_to_move() == attacker {
            or_step(dfpn, &pos, ply, poll)
        } else {
            and_step(dfpn, &pos, ply, defence, banned, poll)
        };
        match step {
            Step::Play(m) => {
                line.push(m);
                positions.push(pos.play(m));
            }
            Step::Mated => break true,
            Step::Failed => break false,
        }
    };
    for key in entered {
        dfpn.leave(key);
    }
    if mated {
        return Ok(line);
    }
    // The defender's moves are at odd indices: the last one before the
    // failure.
    let n = line.len();
    let last = n.checked_sub(if n % 2 == 0 { 1 } else { 2 });
    let last = last.map(|i| (positions[i].key(), line[i]));
    Err(last)
}

/// One step of the exact line: the move, and the exact length of the mate
/// after it.
type ExactStep = Option<(Move, usize)>;

/// The attacker's step from `pos` (at `ply`), mated in exactly `plies`:
/// a check after which the defender is mated within `plies - 1` (the
/// shortest stored first). `None` when the search stopped.
fn exact_or(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    ply: usize,
    plies: usize,
    poll: &mut dyn Poll,
) -> ExactStep {
    let mut moves: Vec<(u16, Move, Position)> = checks(pos)
        .iter()
        .map(|&m| {
            let child = pos.play(m);
            (dfpn.proof_len(&child), m, child)
        })
        .filter(|(_, _, child)| dfpn.on_path(child.key()).is_none())
        .collect();
    moves.sort_by_key(|&(len, m, _)| (len, m.is_drop()));
    for (_, m, child) in moves {
        if dfpn.mate_within(&child, ply + 1, plies - 1, poll)? {
            return Some((m, plies - 1));
        }
    }
    None
}

/// Whether the defender's node `child` (at `ply`, reached by a reply),
/// whose mate takes at most `upper` plies, takes exactly `upper`: it is not
/// mated within `upper - 2`. `None` when the search stopped.
fn takes_exactly(
    dfpn: &mut Dfpn<'_>,
    child: &Position,
    ply: usize,
    upper: usize,
    poll: &mut dyn Poll,
) -> Option<bool> {
    if upper < 2 {
        return Some(true);
    }
    if (dfpn.proof_len(child) as usize) < upper {
        return Some(false);
    }
    dfpn.mate_within(child, ply, upper - 2, poll)
        .map(|mated| !mated)
}

/// Whether the drop interposition `m`, after which the attacker's best
/// reply captures the dropped piece, is useless (無駄合い) in an exact line:
/// the position after the capture with the piece handed back (the
/// attacker without it, the defender with it, as if it had never been
/// dropped) is still mated within `plies` (the length after the capture).
/// An interposition whose piece the attacker needs is a real defence (有効合),
/// counted as the composers count it. `None` when the search stopped.
fn needless_piece(
    dfpn: &mut Dfpn<'_>,
    child: &Position,
    m: Move,
    ply: usize,
    plies: usize,
    poll: &mut dyn Poll,
) -> Option<bool> {
    let Some((r, _)) = best_check(dfpn, child) else {
        return Some(false);
    };
    if r.is_drop() || r.to() != m.to() {
        return Some(false);
    }
    let mut back = child.play(r);
    let attacker = child.side_to_move();
    let pt = m.dropped();
    let held = back.hand(attacker).count(pt);
    if held == 0 {
        return Some(false);
    }
    back.set_hand(attacker, pt, held - 1);
    // Back to the defender: the table's keys count on every piece being
    // somewhere (the defender's hand is not in them).
    let defender = attacker.flip();
    let theirs = back.hand(defender).count(pt);
    back.set_hand(defender, pt, theirs + 1);
    back.finish();
    if dfpn.on_path(back.key()).is_some() {
        return Some(false);
    }
    dfpn.mate_within(&back, ply + 1, plies, poll)
}

/// The defender's step from `pos` (at `ply`), mated in exactly `plies`: a
/// real defence whose mate takes `plies - 1`; when only useless
/// interpositions (無駄合い) take that long, a real defence that takes
/// `plies - 3` (the drop ranks as two plies shorter), else the drop. A drop
/// the attacker captures at once is useless only when the mate after the
/// capture does not need the piece ([`needless_piece`]).
/// `None` when the search stopped.
fn exact_and(
    dfpn: &mut Dfpn<'_>,
    pos: &Position,
    ply: usize,
    plies: usize,
    poll: &mut dyn Poll,
) -> ExactStep {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    // (captured at once, drop, shorter stored proof first as a negative)
    // per reply.
    let mut replies: Vec<(bool, bool, i32, Move, Position)> = Vec::new();
    for &m in list.iter() {
        let child = pos.play(m);
        if dfpn.on_path(child.key()).is_some() {
            continue;
        }
        let captured = useless_drop(dfpn, &child, m);
        let len = -i32::from(dfpn.proof_len(&child));
        replies.push((captured, m.is_drop(), len, m, child));
    }
    replies.sort_by_key(|r| (r.0, r.1, r.2));
    let mut useless_longest = None;
    // Drops captured at once that do not take `plies - 1`: real defences
    // of `plies - 3` if their piece is needed (tested below).
    let mut shorter_captured = Vec::new();
    for (captured, _, _, m, child) in &replies {
        if takes_exactly(dfpn, child, ply + 1, plies - 1, poll)? {
            if !captured {
                return Some((*m, plies - 1));
            }
            let needless = needless_piece(dfpn, child, *m, ply + 1, plies - 2, poll)?;
            log::debug!(
                "ply {ply}: interposition {m} captured at once, its piece needed: {}",
                !needless
            );
            if !needless {
                return Some((*m, plies - 1));
            }
            useless_longest.get_or_insert(*m);
        } else if *captured {
            shorter_captured.push(*m);
        }
    }
    let drop = useless_longest?;
    if plies >= 4 {
        for (captured, _, _, m, child) in &replies {
            if *captured && !shorter_captured.contains(m) {
                continue;
            }
            if !takes_exactly(dfpn, child, ply + 1, plies - 3, poll)? {
                continue;
            }
            // A drop captured at once is real when the mate needs its piece.
            if !captured || !needless_piece(dfpn, child, *m, ply + 1, plies - 4, poll)? {
                return Some((*m, plies - 3));
            }
        }
    }
    Some((drop, plies - 1))
}

/// The main line of the proven `root`, whose shortest mate takes exactly
/// `plies` plies (every interposition counted; no mate of `plies - 2`
/// exists): the attacker plays a check that keeps to that length, the
/// defender the longest real defence (see [`exact_and`]), each step read
/// from the table's proofs and length bounds where it knows them, else
/// searched with the length limited. `None` when the search stopped or
/// the line fails its check.
pub fn exact_line(
    dfpn: &mut Dfpn<'_>,
    root: &Position,
    plies: usize,
    poll: &mut dyn Poll,
) -> Option<Vec<Move>> {
    let attacker = root.side_to_move();
    let mut line = Vec::new();
    let mut pos = root.clone();
    let mut left = plies;
    let mut entered = Vec::new();
    let complete = loop {
        if left == 0 || line.len() >= MAX_LINE {
            break left == 0;
        }
        dfpn.enter(pos.key(), line.len());
        entered.push(pos.key());
        let step = if pos.side_to_move() == attacker {
            exact_or(dfpn, &pos, line.len(), left, poll)
        } else {
            exact_and(dfpn, &pos, line.len(), left, poll)
        };
        let Some((m, rest)) = step else {
            break false;
        };
        line.push(m);
        pos = pos.play(m);
        left = rest;
    };
    for key in entered {
        dfpn.leave(key);
    }
    (complete && is_mating_line(root, &line)).then_some(line)
}

/// Whether the defender of `pos` has only useless interpositions (無駄合い)
/// left: it has legal moves, every one a drop that some capture of the
/// dropped piece answers with mate at once. Composers count `pos` as mated
/// (the drop and its capture are not part of the solution).
pub fn only_useless_drops(pos: &Position) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    !list.is_empty()
        && list.iter().all(|&d| {
            if !d.is_drop() {
                return false;
            }
            let child = pos.play(d);
            let mut answers = MoveList::new();
            legal_moves(&child, &mut answers);
            answers.iter().any(|&r| {
                !r.is_drop() && r.to() == d.to() && {
                    let after = child.play(r);
                    after.in_check() && !has_legal_move(&after)
                }
            })
        })
}

/// `line` (a checked mating line from `root`) without a last useless
/// interposition and its capture: when the defender's position before its
/// last move has only useless drops left ([`only_useless_drops`]), the line
/// ends there, as composers count it (e.g. 579 plies, not 581).
pub fn without_final_useless_drop(root: &Position, mut line: Vec<Move>) -> Vec<Move> {
    if line.len() >= 3 {
        let mut pos = root.clone();
        for &m in &line[..line.len() - 2] {
            pos = pos.play(m);
        }
        if only_useless_drops(&pos) {
            line.truncate(line.len() - 2);
        }
    }
    line
}

/// Whether `line` from `root` is a legal tsume line: every attacker move
/// checks, every move is legal, and the defender has no move at the end.
pub fn is_mating_line(root: &Position, line: &[Move]) -> bool {
    let mut pos = root.clone();
    for (i, &m) in line.iter().enumerate() {
        if !is_legal(&pos, m) {
            return false;
        }
        pos = pos.play(m);
        if i % 2 == 0 && !pos.in_check() {
            return false;
        }
    }
    line.len() % 2 == 1 && !has_legal_move(&pos)
}

/// The answer line of the proven `root`, checked before it is returned:
/// against the longest known defence, else (when that line cannot be
/// followed) against the shortest.
pub fn principal_line(
    dfpn: &mut Dfpn<'_>,
    root: &Position,
    poll: &mut dyn Poll,
) -> Option<Vec<Move>> {
    principal_line_at(dfpn, root, 0, poll)
}

/// [`principal_line`] from `root` reached at `ply0`, the path above it
/// entered (its searches store and detect repetitions at the true plies).
pub fn principal_line_at(
    dfpn: &mut Dfpn<'_>,
    root: &Position,
    ply0: usize,
    poll: &mut dyn Poll,
) -> Option<Vec<Move>> {
    let mut banned = Banned::new();
    let mut found = None;
    for _ in 0..LINE_ATTEMPTS {
        match line_positions(dfpn, root, ply0, Defence::Longest, &banned, poll) {
            Ok(line) => {
                found = Some(line);
                break;
            }
            Err(Some(ban)) => banned.push(ban),
            Err(None) => break,
        }
    }
    let line = match found {
        Some(line) => line,
        None => line_positions(dfpn, root, ply0, Defence::Shortest, &Banned::new(), poll).ok()?,
    };
    if is_mating_line(root, &line) {
        Some(line)
    } else {
        log::error!("mate line failed its check: {line:?}");
        None
    }
}
