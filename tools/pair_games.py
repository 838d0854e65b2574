#!/usr/bin/env python3
"""Two builds' scores on the games both played, from two match logs.

tools/match.py plays game N of a run from the same opening with the same
colours whenever the offset is the same, so two logs of one offset can be
compared game by game (`--log` lines end with the tag `N E1 sente|gote`).
Prints engine 1's score in each log over the games both hold, and how many
of them ended the same way for engine 1.

    python3 tools/pair_games.py LOG_A LOG_B
"""
import sys

from by_opening import game_result

SCORE = (1.0, 0.0, 0.5)  # by game_result's result


def load(path):
    scores = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 5:
            continue
        game, result = game_result(f)
        scores[game] = SCORE[result]
    return scores


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = load(sys.argv[1]), load(sys.argv[2])
    common = sorted(set(a) & set(b))
    if not common:
        sys.exit("no game in both logs")
    n = len(common)
    sa, sb = sum(a[g] for g in common), sum(b[g] for g in common)
    print(f"{n} games in both: A {sa}/{n} ({100 * sa / n:.1f}%), B {sb}/{n} ({100 * sb / n:.1f}%); "
          f"same result in {sum(a[g] == b[g] for g in common)}")


if __name__ == "__main__":
    main()
