#!/usr/bin/env python3
"""Scores of match logs by opening: blocks of the openings file, and the
openings with the lowest and highest scores.

Each log is one of tools/match.py's (`--log`), named as tools/vs_yo.sh
names them, `TAG-NAME-OFFSET.log` (a `-stopped...` suffix allowed): the
offset gives each game's opening, `(offset + (game - 1) // 2) % count`, as
match.py picks it. Scores are engine 1's (ours in tools/vs_yo.sh).

    python3 tools/by_opening.py target/matches/s300-s33-head-1100.log ...
    python3 tools/by_opening.py --block 50 --worst 10 LOGS...
"""
import argparse
import collections
import os
import re

OPENINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "openings", "9x9.sfen")


def read_openings(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def game_result(fields):
    """The game number and engine 1's result (0 win, 1 loss, 2 draw) of a
    log line split at its tabs."""
    game, _, side = fields[4].split()
    if fields[0] not in ("0", "1"):
        return int(game), 2
    return int(game), 0 if (fields[0] == "0") == (side == "sente") else 1


def results(paths, count):
    """{opening index: [wins, losses, draws]} of engine 1 over all logs."""
    out = collections.defaultdict(lambda: [0, 0, 0])
    for path in paths:
        m = re.search(r"-(\d+)(-stopped[^/]*)?\.log$", path)
        if not m:
            raise SystemExit(f"{path}: no offset in the name (TAG-NAME-OFFSET.log)")
        offset = int(m.group(1))
        with open(path) as f:
            for line in f:
                game, result = game_result(line.rstrip("\n").split("\t"))
                out[(offset + (game - 1) // 2) % count][result] += 1
    return out


def line(label, w, l, d):
    n = w + l + d
    return f"{label}: {w}-{l}-{d} of {n} ({100 * (w + d / 2) / n:.1f}%)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--openings", default=OPENINGS)
    ap.add_argument("--block", type=int, default=25, help="openings per block")
    ap.add_argument("--worst", type=int, default=0, help="list this many lowest and highest")
    ap.add_argument("--min-games", type=int, default=6, help="for --worst")
    args = ap.parse_args()
    openings = read_openings(args.openings)
    res = results(args.logs, len(openings))
    blocks = collections.defaultdict(lambda: [0, 0, 0])
    for op, wld in res.items():
        for i in range(3):
            blocks[op // args.block][i] += wld[i]
    for b in sorted(blocks):
        lo, hi = b * args.block, b * args.block + args.block - 1
        print(line(f"openings {lo:3d}-{hi:3d}", *blocks[b]))
    if args.worst:
        rows = sorted(
            ((w + d / 2) / (w + l + d), op, w, l, d)
            for op, (w, l, d) in res.items()
            if w + l + d >= args.min_games
        )
        for s, op, w, l, d in rows[: args.worst] + rows[-args.worst:]:
            print(line(f"opening {op:3d} {openings[op]}", w, l, d))


if __name__ == "__main__":
    main()
