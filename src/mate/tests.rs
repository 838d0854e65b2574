//! Unit tests of the solver on the three boards.

use super::*;
use crate::moves::Move;
use crate::sfen::parse_sfen;

fn solve_sfen(sfen: &str) -> MateResult {
    solve_with_table(sfen, 16)
}

/// `go mate 60000` on `sfen` with a table of `hash_mb` MiB.
fn solve_with_table(sfen: &str, hash_mb: usize) -> MateResult {
    let control = Control::default();
    control.reset(false);
    let options = MateOptions {
        time_ms: Some(60_000),
        hash_mb,
        ..MateOptions::default()
    };
    solve(&parse_sfen(sfen).unwrap(), &options, &control, None).0
}

/// The line's length, after checking it mates.
fn mate_len(sfen: &str) -> usize {
    mate_len_of(sfen, solve_sfen(sfen))
}

/// The length of `result`'s line from `sfen`, after checking it mates.
fn mate_len_of(sfen: &str, result: MateResult) -> usize {
    match result {
        MateResult::Mate(line) => {
            assert!(
                pv::is_mating_line(&parse_sfen(sfen).unwrap(), &line),
                "{sfen}: {line:?}"
            );
            line.len()
        }
        other => panic!("{sfen}: expected a mate, got {other:?}"),
    }
}

#[test]
fn kingless_three_ply_mate_that_the_old_search_missed() {
    // G*5b 4a5b G*4b: the old search answered nomate without sente's king.
    assert_eq!(mate_len("3sks3/9/4S4/9/9/9/9/9/9 b 2G 1"), 3);
}

#[test]
fn one_ply_mates() {
    assert_eq!(mate_len("4k4/9/4P4/9/9/9/9/9/9 b G 1"), 1);
    assert_eq!(mate_len("4k/5/3G1/5/K4 b S 1"), 1);
    assert_eq!(mate_len("2k/3/K2 b GS 1"), 1);
}

#[test]
fn nomate_when_no_check_mates() {
    assert_eq!(solve_sfen("4k4/9/9/9/9/9/9/9/9 b - 1"), MateResult::NoMate);
    assert_eq!(solve_sfen("4k/5/5/5/K4 b GG 1"), MateResult::NoMate);
    assert_eq!(solve_sfen("4k4/9/9/9/9/9/9/9/9 b G 1"), MateResult::NoMate);
}

#[test]
fn checks_only_generation_matches_filtered_legal_moves() {
    use crate::movegen::{legal_checks, legal_moves};
    use crate::moves::MoveList;
    use crate::search::tactics::CheckInfo;
    for sfen in [
        "4k4/9/4P4/9/9/9/9/9/9 b G 1",
        "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
        "1nkg5/2s6/3rp4/1B7/r8/1P7/9/9/9 b BG3SN2g2n4l16p 1",
        "4+bn1g1/5kpPl/2l1b1s2/3+l1N1GP/4G1+P1N/5L3/9/1+r7/R8 b GP3sn13p 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k/5/3G1/5/K4 b S 1",
    ] {
        let pos = parse_sfen(sfen).unwrap();
        let info = CheckInfo::new(&pos);
        let mut all = MoveList::new();
        legal_moves(&pos, &mut all);
        all.retain(|m| info.gives_check(&pos, m));
        let mut checks = MoveList::new();
        legal_checks(&pos, &mut checks);
        assert_eq!(all.as_slice(), checks.as_slice(), "{sfen}");
    }
}

/// Proves `sfen`, then shortens its mate without a budget until no shorter
/// one exists: the search, the shortest length, the clock's control.
fn shortest_proven(sfen: &str, table: &mut Table, control: &Control) -> (usize, Option<Vec<Move>>) {
    let pos = parse_sfen(sfen).unwrap();
    let mut clock = Clock {
        control,
        deadline: None,
        start: Instant::now(),
        last_info: 0,
        out: None,
        node_limit: u64::MAX,
        finishing: false,
        helper_nodes: 0,
    };
    let mut dfpn = Dfpn::new(table, pos.side_to_move());
    let root = dfpn.mid(&pos, 0, INF, INF, &mut clock);
    assert_eq!(root.pn, 0, "{sfen}");
    let shortest = shorten_within(
        &mut dfpn,
        &pos,
        root.len as usize,
        &mut clock,
        u64::MAX,
        u64::MAX,
    );
    assert!(shortest.proven, "{sfen}");
    let line = pv::exact_line(&mut dfpn, &pos, shortest.plies, &mut clock);
    (shortest.plies, line)
}

#[test]
fn exact_line_is_as_long_as_the_shortest_mate() {
    let control = Control::default();
    control.reset(false);
    let mut table = Table::new(16);
    // Generated problems (tests/data/tsume-generated.tsv) whose length
    // YaneuraOu's mate build and KomoringHeights agree on.
    for (sfen, plies) in [
        ("6+rg1/6b1k/5B+R2/5p1P1/8n/9/9/9/9 b GN2g4s2n4l16p 1", 9),
        ("6Sk1/5s+b2/9/5R1+S1/4r1+Pg1/9/9/9/9 b GNb2gs3n4l17p 1", 11),
        ("1k7/+p3B4/9/1+S+P6/9/3b5/9/9/9 b 2SN2r4gs3n4l16p 1", 13),
    ] {
        let (best, line) = shortest_proven(sfen, &mut table, &control);
        assert_eq!(best, plies, "{sfen}");
        let line = line.unwrap_or_else(|| panic!("{sfen}: no exact line"));
        assert!(
            pv::is_mating_line(&parse_sfen(sfen).unwrap(), &line),
            "{sfen}"
        );
        assert_eq!(line.len(), plies, "{sfen}: {line:?}");
    }
}

/// The shortest length of `sfen` (proven, see [`shortest_proven`]) and its
/// exact line in USI, on a fresh table.
fn exact_usi_line(sfen: &str) -> (usize, Vec<String>) {
    let control = Control::default();
    control.reset(false);
    let mut table = Table::new(16);
    let (best, line) = shortest_proven(sfen, &mut table, &control);
    let line = line
        .expect("a line")
        .iter()
        .map(|m| m.to_string())
        .collect();
    (best, line)
}

#[test]
fn exact_line_ranks_a_useless_interposition_two_plies_shorter() {
    // gen-097: YaneuraOu and KomoringHeights count 7 plies with a drop on
    // 2c, which the rook takes at once (無駄合い); the line plays the real
    // defence, 5 plies.
    let (best, line) = exact_usi_line("8G/9/6k2/5R1l1/3+P5/7R1/9/9/9 b GS2b2g3s4n3l17p 1");
    assert_eq!(best, 7);
    assert_eq!(line.join(" "), "G*4c 3c2b 4d2d 2b1a 2d2a+");
}

#[test]
fn exact_line_counts_an_interposition_whose_piece_the_mate_needs() {
    // game-075: the rook dropped on 6i is taken at once, but the attacker
    // drops it again on 7i later (有効合): 11 plies, as YaneuraOu and
    // KomoringHeights count it, not the 9 of the line without the drop.
    let (best, line) = exact_usi_line(
        "lns2n3/1+L4kb1/pp1GG2p1/4ppp1P/3P5/1BP1S4/PPN1PLPP+s/2S3G2/LK1+p1r3 w R3Pgn 67",
    );
    assert_eq!(best, 11);
    assert_eq!(line.len(), 11, "{line:?}");
    assert_eq!(line[1], "R*6i", "{line:?}");
}

#[test]
fn a_check_answered_only_by_useless_drops_ends_the_line() {
    // The rook on 1i checks the king on 1a; the golds cover 2a, 2b and 1b,
    // so every pawn drop on the file is taken by the rook with mate.
    let pos = parse_sfen("8k/6G2/7G1/9/9/9/9/9/K7R w p 1").unwrap();
    assert!(pv::only_useless_drops(&pos));
    // Without the gold on 2c the defender still has only drops (the king's
    // squares are all covered), but the king takes a rook on 1b: P*1b is
    // a real defence.
    assert!(!pv::only_useless_drops(
        &parse_sfen("8k/6G2/9/9/9/9/9/9/K7R w p 1").unwrap()
    ));
    // Mated outright: no moves at all, so nothing to leave out.
    assert!(!pv::only_useless_drops(
        &parse_sfen("8k/6G2/7G1/9/9/9/9/9/K7R w - 1").unwrap()
    ));
    // A line ending with such a drop and its capture loses the two plies.
    let root = parse_sfen("8k/6G2/7G1/9/9/9/9/9/K8 b Rp 1").unwrap();
    let line = moves_from(&root, &["R*1i", "P*1e", "1i1e"]);
    assert!(pv::is_mating_line(&root, &line));
    let kept = pv::without_final_useless_drop(&root, line.clone());
    assert_eq!(kept, line[..1].to_vec());
    // Lines that end in a real mate are kept whole.
    let real = moves_from(&root, &["R*1b"]);
    assert_eq!(pv::without_final_useless_drop(&root, real.clone()), real);
    let root = parse_sfen("3sks3/9/4S4/9/9/9/9/9/9 b 2G 1").unwrap();
    let real = moves_from(&root, &["G*5b", "4a5b", "G*4b"]);
    assert!(pv::is_mating_line(&root, &real));
    assert_eq!(pv::without_final_useless_drop(&root, real.clone()), real);
}

/// The moves `usi` played one after another from `pos`.
fn moves_from(pos: &Position, usi: &[&str]) -> Vec<Move> {
    let mut pos = pos.clone();
    usi.iter()
        .map(|s| {
            let m = crate::sfen::parse_move(&pos, s).unwrap();
            pos = pos.play(m);
            m
        })
        .collect()
}

#[test]
fn shortening_from_the_end_goes_on_past_a_position_it_cannot_make_exact() {
    // ミクロコスモス after 1,464 plies of its published solution, which
    // mates in 61 more. The proof is 65 plies long and the root's first
    // shortening step finds nothing shorter; from the end of the line a
    // detour two plies long is found at ply 60, but from ply 34 back no
    // position can be shown exact within its share. Until session 28 the
    // stage gave up at ply 34 and the answer kept 65 plies; walking on to
    // the root with larger shares, the root itself is proven within 61.
    let sfen =
        "g3+P+P+P+P+L/1p1k5/+Rn2ppppl/2+Psg+p1+R1/+b+nL6/1PP+B1ssP1/4+Ps2N/4+P1P1L/6G1g b Np 1465";
    assert_eq!(mate_len_of(sfen, solve_with_table(sfen, 256)), 61);
}

#[test]
fn a_line_holds_every_defence_only_where_the_defender_resists_longest() {
    // game-077 (tests/data/tsume-games.tsv): a mate of 13 plies. A line
    // of 11 whose defender answers 9i5i with 4h3h does not hold: 4h5i
    // holds out for nine plies more, where the line leaves seven.
    let sfen = "1+P+B3sn1/4gk2l/1s4bp1/2p1ppp1p/7P1/4PP3/1r4P1P/1gs1GK3/+r3G2NL w Ps2n2l5p 90";
    let control = Control::default();
    control.reset(false);
    let mut table = Table::new(16);
    let (best, _) = shortest_proven(sfen, &mut table, &control);
    assert_eq!(best, 13);
    let pos = parse_sfen(sfen).unwrap();
    let dfpn = Dfpn::new(&table, pos.side_to_move());
    let long = "S*4g 5h4g 9i5i 4h5i G*4i 5i5h 8g6g+ 5h4i 6g4g S*4h G*3h 4i5i 4g4h";
    let short = "S*4g 5h4g 9i5i 4h3h N*2f 3h2g N*3e 2g2f G*1e 2f3f 8g4g+";
    let long: Vec<&str> = long.split(' ').collect();
    let short: Vec<&str> = short.split(' ').collect();
    assert!(holds_every_defence(&dfpn, &pos, &moves_from(&pos, &long)));
    assert!(!holds_every_defence(&dfpn, &pos, &moves_from(&pos, &short)));
}

#[test]
fn helpers_from_the_first_poll_give_the_same_answers() {
    // Two searchers sharing the table from the main one's first poll: the
    // answers of one searcher (a mate, checked move by move, and a
    // disproof of 441 k nodes from 飛燕乱舞, session 38).
    let control = Control::default();
    control.reset(false);
    let options = MateOptions {
        time_ms: Some(60_000),
        hash_mb: 64,
        threads: 2,
        helpers_after_ms: 0,
        ..MateOptions::default()
    };
    let solve2 = |sfen: &str| solve(&parse_sfen(sfen).unwrap(), &options, &control, None);
    let mate = "1k7/+p3B4/9/1+S+P6/9/3b5/9/9/9 b 2SN2r4gs3n4l16p 1";
    let (result, nodes) = solve2(mate);
    assert!(nodes > 2 * dfpn::POLL_INTERVAL, "{nodes}");
    mate_len_of(mate, result);
    let nomate = "3s2gn1/g7+N/4lpS1l/4l+P1Pk/3+p1L3/1R4G2/2+p+p2B1+n/5N1p+s/5G2S b Prb10p 87";
    assert_eq!(solve2(nomate).0, MateResult::NoMate);
}
