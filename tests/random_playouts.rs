//! Seeded random games on every board: after every move the incremental
//! state (Zobrist key, checkers, king squares) must equal a recomputation, the
//! SFEN must round-trip, and every generated move must parse back as legal.

use fukayomi::game::Game;
use fukayomi::movegen::{count_legal_moves, legal_moves};
use fukayomi::moves::MoveList;
use fukayomi::rules::BoardKind;
use fukayomi::sfen::{parse_move, parse_sfen, to_sfen};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn starts() -> Vec<String> {
    let mut v: Vec<String> = BoardKind::ALL
        .iter()
        .map(|k| k.start_sfen().to_string())
        .collect();
    let layouts = include_str!("data/ninemasu-layouts.tsv");
    v.extend(
        layouts
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split('\t').nth(1))
            .map(str::to_string),
    );
    v
}

#[test]
fn incremental_state_matches_recomputation() {
    let mut rng = Rng(0x5eed_0001);
    let mut list = MoveList::new();
    let mut positions = 0;
    for sfen in starts() {
        for _game in 0..6 {
            let mut game = Game::new(parse_sfen(&sfen).unwrap());
            for _ply in 0..120 {
                let pos = game.position();
                assert!(pos.is_consistent(), "{}", to_sfen(pos));
                let text = to_sfen(pos);
                let reparsed = parse_sfen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(reparsed.key(), pos.key(), "{text}");
                legal_moves(pos, &mut list);
                assert_eq!(list.len(), count_legal_moves(pos), "{text}");
                if list.is_empty() || game.outcome().is_some() {
                    break;
                }
                let m = list.as_slice()[rng.below(list.len())];
                assert_eq!(parse_move(pos, &m.to_string()), Ok(m), "{text}: {m}");
                game.play(m);
                positions += 1;
            }
        }
    }
    assert!(positions > 10_000, "only {positions} positions visited");
}
