#!/usr/bin/env python3
"""Generate tests/data/perft.tsv: perft counts on 9x9, 5x5 and 3x3 shogi
boards, each confirmed by at least two independent oracles.

Oracles (see tools/README.md):
  cshogi   9x9 only (cshogi.Board.legal_moves, which includes the
           non-promotions of pawns/bishops/rooks)
  pyffish  Fairy-Stockfish: the engine code of the pyffish package, driven
           through target/fsf_perft (the pyffish Python API costs ~2 ms per
           call); pawn-drop mates filtered.  Needs a king for each side.
           Depth 1 is also cross-checked against the pyffish module itself.
  ref      tools/refshogi.py, a simple pure-Python implementation written
           from the rules (slow: used on 5x5/3x3 for every row, on 9x9 only
           for rows up to REF_LIMIT_9 nodes).

Run `tools/setup_venv.sh` first, then
    target/venv/bin/python tools/gen_perft_fixtures.py [--out PATH] [--quick]
The output is deterministic (fixed seeds, depth chosen from counts only).
Exits non-zero, listing sfen/depth/sources, if any two oracles disagree.
"""

import argparse
import multiprocessing
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import oracles  # noqa: E402
from refshogi import Position, P, K  # noqa: E402

REPO = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(REPO, 'tests', 'data', 'perft.tsv')
DEFAULT_LAYOUTS = os.path.join(REPO, '..', 'shared', 'data', 'ninemasu-layouts.tsv')

SEED = 20240601

# Per board: max nodes for the deepest fast row, max depth, and how far the
# slow pure-Python reference is asked to go.
LIMIT = {9: 3_000_000, 5: 1_000_000, 3: 500_000}
DMAX = {9: 6, 5: 8, 3: 12}
REF_LIMIT_9 = 40_000

START9 = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
POS2_GIVEN = 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1'
START5 = 'rbsgk/4p/5/P4/KGSBR b - 1'

# (sfen, depth, published count): slow-tier rows, #[ignore]d in Rust.
SLOW = [
    (START9, 6, 547_581_517),
    (POS2_GIVEN, 4, 516_925_165),
]

# Hand-made 9x9 positions: (label, sfen, fixed max depth or None).
HANDMADE_9 = [
    # The brief's '8k/7G1/6G2/9/9/9/9/9/K8 b P 1' is left out: gote is already
    # in check with sente to move, an illegal position the engine rejects.
    ('uchifuzume: P*1b mates (1b guarded by gold 2c, 2a by gold 3a) -> illegal',
     '6G1k/9/7G1/9/9/9/9/9/K8 b P 1', None),
    ('pawn-drop check that is not mate: king takes the pawn',
     '8k/9/9/9/9/9/9/9/K8 b P 1', None),
    ('uchifuzume: pawn on 1b guarded from afar by bishop 4e, knight 2a cannot take',
     '7nk/7s1/9/9/5B3/9/9/9/K8 b P 1', None),
    ('not uchifuzume: silver 2a can take the pawn on 1b',
     '7sk/7s1/9/9/5B3/9/9/9/K8 b P 1', None),
    ('uchifuzume with pinned defender: gold 2b pinned by bishop 5e',
     '7lk/7g1/8G/9/4B4/9/9/9/K8 b P 1', None),
    ('same without the pinning bishop: gold 2b takes the pawn, P*1b legal',
     '7lk/7g1/8G/9/9/9/9/9/K8 b P 1', None),
    ('gote pawn-drop mate P*9h is illegal (mirror of the gold case)',
     '8k/9/9/9/9/9/1g7/9/K1g6 w p 1', None),
    ('in check by a pawn guarded by a rook: king cannot capture onto 5d',
     '4r4/9/9/4p4/4K4/9/9/9/8k b - 1', None),
    ('rook check along a file: king may not step back along the line',
     '4r4/9/9/9/4K4/9/9/9/8k b G 1', None),
    ('double check by rook 5a and bishop 1a: only king moves',
     'k3r3b/9/9/9/4K4/9/9/9/9 b GSp 1', None),
    ('double check by rook and bishop',
     '3k5/9/9/9/4K3r/9/2b6/9/9 b G 1', None),
    ('pins: rook pinned along a file can slide on it, bishop pinned cannot move',
     '4r4/9/9/4R4/9/4K1B1b/9/9/8k b - 1', None),
    ('forced promotions and dead drops: pawns/lances/knights near the far ranks',
     '4k4/1P5L1/2N3N2/9/9/9/9/9/4K4 b NLP 1', None),
    ('gote forced promotions and dead drops',
     '4k4/9/9/9/9/9/2n3n2/1p5l1/4K4 w nlp 1', None),
    ('nifu: sente pawns on most files, pawn in hand',
     '4k4/9/9/9/9/P1PP1PP1P/9/9/4K4 b 2P 1', None),
    ('full hands, bare kings',
     '4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1', None),
    ('many promoted pieces',
     '+R2gk3+B/9/2+P1+S1+N2/9/9/9/2+p1+s1+n2/9/+r2GK3+b b Ll 1', None),
    ('tsume style, no sente king (cshogi+ref only)',
     '7nk/9/7P1/9/9/9/9/9/9 b GS 1', 3),
    ('tsume style, no sente king, gold in hand',
     '4k4/9/9/9/9/9/9/9/9 b G 1', 3),
    ('tsume style, no gote king',
     '9/9/9/9/9/9/9/9/4K4 w g 1', 3),
]

HANDMADE_5 = [
    ('5x5 knights: N to rank b outside the 1-rank zone is illegal, drops limited',
     '2k2/5/N1N2/5/K4 b NLPnlp 1', None),
    ('5x5 gote knights and lances',
     'k4/5/2n1n/5/2K2 w lnpLN 1', None),
    ('5x5 uchifuzume: P*1b illegal',
     '2G1k/5/3G1/5/K4 b P 1', None),
]


# ------------------------------------------------------------------ playouts
def playout(start_sfen, rng, plies, want_check=False, extra=60):
    """Random game from start_sfen (biased to captures and promotions so
    hands fill up and promoted pieces appear).  Returns the sfen reached
    after `plies` moves (or, with want_check, the first later position with
    the side to move in check, if one occurs within `extra` more moves)."""
    pos = Position.from_sfen(start_sfen)
    last_alive = pos.sfen()
    limit = plies + (extra if want_check else 0)
    for i in range(limit):
        if i >= plies and (not want_check or pos.in_check(pos.side)):
            break
        moves = pos.legal_moves()
        if not moves:
            break
        moves.sort(key=pos.move_usi)  # determinism independent of gen order
        caps = [m for m in moves if m[0] >= 0 and pos.board[m[1]] != 0
                and abs(pos.board[m[1]]) != K]
        proms = [m for m in moves if m[2]]
        x = rng.random()
        if caps and x < 0.55:
            m = rng.choice(caps)
        elif proms and x < 0.75:
            m = rng.choice(proms)
        else:
            m = rng.choice(moves)
        pos.make(m)
        last_alive = pos.sfen()
    return last_alive


def normalize(sfen):
    return Position.from_sfen(sfen).sfen()


def read_layouts(path):
    out = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            num, sfen = line.split('\t')
            out.append((int(num), sfen.strip()))
    return out


def build_positions(args):
    """List of dicts: board, label, sfen, fixed (max depth or None)."""
    rng = random.Random(SEED)
    pos = []

    def add(board, label, sfen, fixed=None, mind=None):
        pos.append(dict(board=board, label=label, sfen=normalize(sfen),
                        fixed=fixed, mind=mind))

    quick = args.quick
    # 9x9
    add(9, 'standard start', START9, 5)
    add(9, 'position from the brief (d4 = 516,925,165, computed as slow row)', POS2_GIVEN, 3)
    for label, sfen, fixed in (HANDMADE_9[:4] if quick else HANDMADE_9):
        add(9, label, sfen, fixed)
    n_random = 3 if quick else 40
    for i in range(n_random):
        plies = rng.randint(6, 180)
        want_check = (i % 5 == 4)
        s = playout(START9, rng, plies, want_check)
        add(9, 'random playout #%d (%d+ plies%s)' % (i, plies, ', stop at check' if want_check else ''), s)
    # 5x5
    add(5, 'minishogi start', START5, 5)
    for label, sfen, fixed in ([] if quick else HANDMADE_5):
        add(5, label, sfen, fixed)
    for i in range(2 if quick else 20):
        plies = rng.randint(2, 70)
        want_check = (i % 5 == 4)
        s = playout(START5, rng, plies, want_check)
        add(5, 'minishogi random playout #%d (%d+ plies%s)' % (i, plies, ', stop at check' if want_check else ''), s)
    # 3x3
    layouts = read_layouts(args.layouts)
    for num, sfen in (layouts[:5] if quick else layouts):
        add(3, 'ninemasu layout %d' % num, sfen)
    for i in range(2 if quick else 15):
        num, sfen = layouts[rng.randrange(len(layouts))]
        plies = rng.randint(1, 8)
        s = playout(sfen, rng, plies)
        add(3, 'ninemasu random playout #%d from layout %d (%d plies)' % (i, num, plies), s)
    # de-duplicate (keep first)
    seen = set()
    out = []
    for p in pos:
        if p['sfen'] in seen:
            continue
        seen.add(p['sfen'])
        out.append(p)
    return out


# ------------------------------------------------------------------ workers
def run_oracle(name, sfen, depth):
    if name == 'pyffish':
        return oracles.fsf_perft_all(sfen, depth)
    if name == 'pyffish-module':
        return oracles.ffish_perft_all(sfen, depth)
    return oracles.ORACLES[name](sfen, depth)


def select_depth(p):
    """Choose the row depth from counts only (deterministic): the largest
    depth <= DMAX whose count is <= LIMIT (or the fixed depth).  Returns
    (selector oracle, counts) or raises."""
    sfen, n = p['sfen'], p['board']
    chain = ['pyffish', 'cshogi'] if n == 9 else ['pyffish', 'ref']
    last_err = None
    for name in chain:
        try:
            if p['fixed']:
                return name, run_oracle(name, sfen, p['fixed'])
            counts = run_oracle(name, sfen, 1)
            while len(counts) < DMAX[n] and counts[-1] <= LIMIT[n] and counts[-1] > 0:
                prev = counts[-2] if len(counts) > 1 else 1
                est = counts[-1] * max(counts[-1] / max(prev, 1), 1)
                if est > 3 * LIMIT[n]:
                    break
                counts = run_oracle(name, sfen, len(counts) + 1)
            while len(counts) > 1 and counts[-1] > LIMIT[n]:
                counts = counts[:-1]
            return name, counts
        except oracles.OracleRejects as e:
            last_err = e
    raise RuntimeError('no oracle accepts %s: %s' % (sfen, last_err))


def work(task):
    kind, key, payload = task
    t0 = time.time()
    try:
        if kind == 'select':
            res = select_depth(payload)
        else:
            name, sfen, depth = payload
            try:
                res = run_oracle(name, sfen, depth)
            except oracles.OracleRejects:
                res = None
    except Exception as e:  # surface worker failures loudly
        return kind, key, ('error', repr(e)), time.time() - t0
    return kind, key, res, time.time() - t0


def run_pool(tasks, jobs):
    results = {}
    times = []
    if jobs <= 1:
        it = map(work, tasks)
        pool = None
    else:
        pool = multiprocessing.Pool(jobs)
        it = pool.imap_unordered(work, tasks, chunksize=1)
    for kind, key, res, dt in it:
        if isinstance(res, tuple) and res and res[0] == 'error':
            raise RuntimeError('%s %s failed: %s' % (kind, key, res[1]))
        results[key] = res
        times.append((dt, kind, key))
    if pool:
        pool.close()
        pool.join()
    times.sort(key=lambda x: -x[0])
    print('  task time %.0fs in %d tasks; longest: %s' % (
        sum(t[0] for t in times), len(times),
        ', '.join('%s %.0fs' % (t[2], t[0]) for t in times[:4])), flush=True)
    return results


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', default=None,
                    help='output TSV (default tests/data/perft.tsv; '
                         'target/perft-quick.tsv with --quick)')
    ap.add_argument('--quick', action='store_true',
                    help='few positions, to check the script itself')
    ap.add_argument('--no-slow', action='store_true',
                    help='do not compute the slow-tier rows (writes them '
                         'with sources "anchor" = published counts)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--layouts', default=DEFAULT_LAYOUTS,
                    help='ninemasu layouts TSV (number<TAB>sfen)')
    args = ap.parse_args()
    out = args.out or (os.path.join(REPO, 'target', 'perft-quick.tsv')
                       if args.quick else DEFAULT_OUT)
    t_start = time.time()

    positions = build_positions(args)
    print('positions: %d (9x9 %d, 5x5 %d, 3x3 %d)  [%.0fs]' % (
        len(positions), *(sum(p['board'] == n for p in positions) for n in (9, 5, 3)),
        time.time() - t_start), flush=True)

    # Phase 1: choose depths.
    sel = run_pool([('select', i, p) for i, p in enumerate(positions)], args.jobs)
    print('depths chosen  [%.0fs]' % (time.time() - t_start), flush=True)

    # Phase 2: the other oracles.
    tasks = []
    cost = {}
    for i, p in enumerate(positions):
        selector, counts = sel[i]
        p['results'] = {selector: counts}
        depth = len(counts)
        n = p['board']
        others = (['pyffish', 'cshogi', 'ref'] if n == 9 else ['pyffish', 'ref'])
        for name in others:
            if name == selector:
                continue
            d = depth
            if name == 'ref' and n == 9:
                d = 0
                while d < depth and counts[d] <= REF_LIMIT_9:
                    d += 1
                if d == 0:
                    continue
            tasks.append(('verify', (i, name), (name, p['sfen'], d)))
            cost[(i, name)] = counts[d - 1] * (1 if name == 'ref' else 0.02)
        if 'pyffish' in others:
            tasks.append(('verify', (i, 'pyffish-module'), ('pyffish-module', p['sfen'], 1)))
            cost[(i, 'pyffish-module')] = 0
    slow_rows = []
    for sfen, depth, anchor in ([] if args.quick else SLOW):
        sfen = normalize(sfen)
        row = dict(sfen=sfen, depth=depth, anchor=anchor, results={})
        slow_rows.append(row)
        if not args.no_slow:
            for name in ('pyffish', 'cshogi'):
                key = ('slow', sfen, depth, name)
                tasks.append(('verify', key, (name, sfen, depth)))
                cost[key] = 10 ** 12
    tasks.sort(key=lambda t: -cost[t[1]])
    res = run_pool(tasks, args.jobs)
    print('verified  [%.0fs]' % (time.time() - t_start), flush=True)
    for key, counts in res.items():
        if key[0] == 'slow':
            row = next(r for r in slow_rows if r['sfen'] == key[1] and r['depth'] == key[2])
            if counts is not None:
                row['results'][key[3]] = counts[-1]
        elif counts is not None:
            positions[key[0]]['results'][key[1]] = counts

    # Compare.
    errors = []
    rows = []
    for p in positions:
        results = p['results']
        module = results.pop('pyffish-module', None)
        if module is not None and 'pyffish' in results and module[0] != results['pyffish'][0]:
            errors.append('pyffish module vs fsf_perft driver at depth 1: %s vs %s  sfen %s'
                          % (module[0], results['pyffish'][0], p['sfen']))
        depth = max(len(c) for c in results.values())
        for d in range(1, depth + 1):
            vals = {name: c[d - 1] for name, c in results.items() if len(c) >= d}
            if len(set(vals.values())) > 1:
                errors.append('DISAGREE sfen %s depth %d: %s' % (
                    p['sfen'], d, ', '.join('%s=%d' % kv for kv in sorted(vals.items()))))
                continue
            srcs = [s for s in ('cshogi', 'pyffish', 'ref') if s in vals]
            if len(srcs) < 2:
                errors.append('only one source (%s) for sfen %s depth %d' % (srcs, p['sfen'], d))
                continue
            rows.append((p, d, next(iter(vals.values())), '+'.join(srcs), 'fast'))
    slow_out = []
    for r in slow_rows:
        vals = dict(r['results'])
        if len(set(vals.values())) > 1 or (vals and r['anchor'] not in vals.values()):
            errors.append('DISAGREE (slow) sfen %s depth %d: %s, anchor=%d' % (
                r['sfen'], r['depth'], ', '.join('%s=%d' % kv for kv in sorted(vals.items())),
                r['anchor']))
            continue
        srcs = [s for s in ('cshogi', 'pyffish') if s in vals] or ['anchor']
        slow_out.append((r, '+'.join(srcs)))

    if errors:
        print('\n'.join(errors), file=sys.stderr)
        print('FAILED: %d disagreement(s); %s not written' % (len(errors), out), file=sys.stderr)
        return 1

    lines = ['# generated by tools/gen_perft_fixtures.py — do not edit by hand',
             '# columns: sfen<TAB>depth<TAB>nodes<TAB>sources<TAB>tier']
    board_names = {9: '9x9 shogi (zone 3 ranks)', 5: '5x5 minishogi (zone 1 rank)',
                   3: '3x3 ninemasu (zone 1 rank)'}
    for n in (9, 5, 3):
        lines.append('# ==== %s ====' % board_names[n])
        last = None
        for p, d, nodes, srcs, tier in rows:
            if p['board'] != n:
                continue
            if p is not last:
                lines.append('# %s' % p['label'])
                last = p
            lines.append('%s\t%d\t%d\t%s\t%s' % (p['sfen'], d, nodes, srcs, tier))
        if n == 9 and slow_out:
            lines.append('# slow tier (#[ignore]d): published anchors, recomputed')
            for r, srcs in slow_out:
                lines.append('%s\t%d\t%d\t%s\tslow' % (r['sfen'], r['depth'], r['anchor'], srcs))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')

    for n in (9, 5, 3):
        rs = [r for r in rows if r[0]['board'] == n]
        print('%dx%d: %d positions, %d rows, %d nodes' % (
            n, n, len({id(r[0]) for r in rs}), len(rs), sum(r[2] for r in rs)))
    print('fast total nodes: %d; slow rows: %d (%d nodes)' % (
        sum(r[2] for r in rows), len(slow_out), sum(r['anchor'] for r, _ in slow_out)))
    print('wrote %s in %.0fs' % (out, time.time() - t_start))
    return 0


if __name__ == '__main__':
    sys.exit(main())
