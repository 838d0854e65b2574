#!/usr/bin/env python3
"""Generates tsume problems for tools/mate_bench.py: random positions around
a defender's king (gote, in the top three ranks), sente to move with a few
pieces on the board and in hand, gote holding every remaining piece (the
tsume convention), no sente king. A position is kept only when two solvers
agree on it (YaneuraOu's mate build and KomoringHeights at --ms each): both
mate with lines that cshogi checks, or both answer nomate (written as length 0). The length written is the
shorter of the two lines (YaneuraOu's is not always a shortest mate); most
1-ply mates are skipped (--one-ply-share).

With --games LOG the positions come instead from the games of a match log
(tools/match.py --log: index, reason, start SFEN, moves per line): positions
of the last --tail plies of each game with the side to move not in check,
either side to move, both kings on the board (mates from real play).

Usage:
  target/venv/bin/python tools/gen_tsume.py --count 200 --out tests/data/tsume-generated.tsv \
      --yo /path/yo-mate --kh /path/komoring-heights
  target/venv/bin/python tools/gen_tsume.py --count 150 --games target/matches/x.log \
      --prefix game --out tests/data/tsume-games.tsv --yo /path/yo-mate --kh /path/komoring-heights
"""

import argparse
import random
import sys

import cshogi

from mate_bench import Engine, classify

# Pieces by SFEN letter with the number of each in a full set.
FULL = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2}
BOARD_PIECES = ["p", "l", "n", "s", "g", "b", "r", "+p", "+s", "+r", "+b"]
HAND_PIECES = ["p", "l", "n", "s", "g", "b", "r"]


def base(letter):
    return letter[-1].lower()


def sfen_of(board, sente_hand, gote_hand):
    rows = []
    for rank in range(9):
        row, empty = "", 0
        for file in range(9, 0, -1):
            piece = board.get((file, rank))
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece
        if empty:
            row += str(empty)
        rows.append(row)

    def hand_text(hand, upper):
        text = ""
        for p in "rbgsnlp":
            n = hand.get(p, 0)
            if n:
                text += (str(n) if n > 1 else "") + (p.upper() if upper else p)
        return text

    hands = hand_text(sente_hand, True) + hand_text(gote_hand, False)
    return "/".join(rows) + " b " + (hands or "-") + " 1"


def dead(letter, rank, sente):
    """Whether an unpromoted pawn/lance/knight could never move again."""
    p = letter.lower()
    far = rank if sente else 8 - rank
    return (p in ("p", "l") and far == 0) or (p == "n" and far <= 1)


def random_position(rng):
    board = {}
    kf, kr = rng.randint(1, 9), rng.randint(0, 2)
    board[(kf, kr)] = "k"
    used = {}
    near = [(f, r) for f in range(kf - 3, kf + 4) for r in range(0, 6)
            if 1 <= f <= 9 and (f, r) != (kf, kr)]
    rng.shuffle(near)
    sente_n, gote_n = rng.randint(1, 4), rng.randint(1, 5)
    pawn_files = {True: set(), False: set()}
    for i, sq in enumerate(near[: sente_n + gote_n]):
        sente = i < sente_n
        letter = rng.choice(BOARD_PIECES)
        b = base(letter)
        if used.get(b, 0) >= FULL[b] or dead(letter, sq[1], sente):
            continue
        if letter == "p":
            if sq[0] in pawn_files[sente]:
                continue
            pawn_files[sente].add(sq[0])
        used[b] = used.get(b, 0) + 1
        board[sq] = letter.upper() if sente else letter
    sente_hand = {}
    for _ in range(rng.randint(1, 3)):
        p = rng.choice(HAND_PIECES)
        if used.get(p, 0) < FULL[p]:
            sente_hand[p] = sente_hand.get(p, 0) + 1
            used[p] = used.get(p, 0) + 1
    gote_hand = {p: FULL[p] - used.get(p, 0) for p in FULL}
    return sfen_of(board, sente_hand, gote_hand)


def valid(sfen):
    """Sente to move must not already be giving check (gote not in check)."""
    try:
        b = cshogi.Board(sfen)
    except Exception:
        return False
    gote_view = cshogi.Board(sfen.replace(" b ", " w "))
    return not gote_view.is_check() and len(list(b.legal_moves)) > 0


def game_positions(path, tail, rng):
    """Positions of the last `tail` plies of every game in the log, shuffled."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 4:
                continue
            board = cshogi.Board(cols[2])
            moves = cols[3].split()
            for i, m in enumerate(moves):
                if i >= len(moves) - tail and not board.is_check() and not board.is_game_over():
                    out.append(board.sfen())
                board.push_usi(m)
    rng.shuffle(out)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--nomate-share", type=float, default=0.2)
    ap.add_argument("--ms", type=int, default=1000)
    ap.add_argument("--one-ply-share", type=float, default=0.2, help="share of 1-ply mates kept")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--yo", required=True)
    ap.add_argument("--kh", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--games", help="take positions from this match log instead of random ones")
    ap.add_argument("--tail", type=int, default=30, help="with --games: plies from each game's end")
    ap.add_argument("--prefix", default="gen", help="problem names: PREFIX-NNN")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    source = iter(game_positions(args.games, args.tail, rng)) if args.games else None
    opts = [("Threads", 1), ("USI_Hash", 256)]
    yo, kh = Engine("yo", args.yo, opts), Engine("kh", args.kh, opts)
    kept, nomates, tried = [], 0, 0
    max_nomates = int(args.count * args.nomate_share)
    while len(kept) < args.count:
        tried += 1
        if source is None:
            sfen = random_position(rng)
            if not valid(sfen):
                continue
        else:
            sfen = next(source, None)
            if sfen is None:
                print("the log ran out of positions", file=sys.stderr)
                break
        a, _ = yo.mate(sfen, args.ms)
        ka, _, la = classify(sfen, a)
        if ka == "nomate" and nomates >= max_nomates:
            continue
        if ka not in ("mate", "nomate"):
            continue
        b, _ = kh.mate(sfen, args.ms)
        kb, _, lb = classify(sfen, b)
        if ka != kb:
            print(f"disagree {sfen}: yo {ka} {la} kh {kb} {lb}", file=sys.stderr)
            continue
        plies = min(la, lb) if ka == "mate" else 0
        if plies == 1 and rng.random() > args.one_ply_share:
            continue
        nomates += ka == "nomate"
        kept.append((plies, sfen))
        print(f"{len(kept)}/{tried}\t{plies}\t{sfen}", file=sys.stderr)
    yo.quit()
    kh.quit()
    with open(args.out, "w", encoding="utf-8") as f:
        origin = f" --games {args.games} --tail {args.tail}" if args.games else ""
        f.write("# generated by tools/gen_tsume.py --seed %d --ms %d%s; length agreed by yo-mate "
                "and KomoringHeights (0 = both nomate)\n" % (args.seed, args.ms, origin))
        for i, (plies, sfen) in enumerate(sorted(kept)):
            f.write(f"{args.prefix}-{i:03d}\t{plies}\t{sfen}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
