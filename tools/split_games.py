#!/usr/bin/env python3
"""Splits a self-play data file of examples/gensfen.rs into held-out and
training games: the first N games go to VALID, the rest to TRAIN (a game
starts where the SFEN's move number does not follow the line before).

Usage: tools/split_games.py DATA.tsv N VALID.tsv TRAIN.tsv
"""
import sys


def move_number(line):
    return int(line.split("\t", 1)[0].rsplit(" ", 1)[1])


def main():
    data, n, valid, train = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    games, last = 0, None
    with open(data) as f, open(valid, "w") as v, open(train, "w") as t:
        for line in f:
            if not line.endswith("\n"):
                break  # a game cut off by a stopped generator
            ply = move_number(line)
            if last is None or ply != last + 1:
                games += 1
            last = ply
            (v if games <= n else t).write(line)
    print(f"{games} games: {min(games, n)} held out", file=sys.stderr)


if __name__ == "__main__":
    main()
