#!/usr/bin/env python3
"""Paired move-quality test of two or more builds, judged by a stronger
search. Measured in session 24 (docs/search-results.md): it did not tell
two builds about 60 Elo apart in 840 positions, so it is no cheaper than a
match; it is a tool for looking at single positions.

The positions are one side's positions of logged games (`tools/match.py
--log`, with its `.out` progress file to know which side engine 1 played).
Every build replays each game from a fresh state (`isready`), searching
each of those positions in order with `go nodes N` while the game's own
moves are played, so the tables and histories carry from move to move as
in a game. The judge (by default YaneuraOu's material build) then scores
the position after each distinct move chosen, with a fresh table, at
`--jnodes`; a move's value is minus the judge's score for the side to
move after it (mates as +-30,000 minus the distance; clipped to
+-2,000 for the means).

Prints, for each build after the first, the mean of (build - first) over
all positions with its standard error, and how often it chose a move the
judge rates at least 150 cp better or worse. Most positions get the same
move from both builds (difference 0): the comparison is paired.

  target/venv/bin/python tools/judge_moves.py target/matches/X.log \\
      target/matches/X.out --games 0:10 --nodes 400000 \\
      --engine base=target/bins/A --engine new=target/bins/B \\
      [--judge target/sparring/yo-material --jnodes 2000000] \\
      [--opt Evaluation=Material] [--dump FILE]

Games are given as a range of the log's lines (0-based, end excluded).
Two instances on different ranges use the two cores; `--dump` writes one
line per position (game, ply, each build's move and value) for pooling.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine  # noqa: E402

MATE = 30000
CLIP = 2000
# Seconds a `go nodes` search may take before the engine counts as hung.
GO_TIMEOUT = 600


def ready(engine):
    """`isready` (which clears the engine's tables) and its answer."""
    engine.send("isready")
    engine.until("readyok", 60)


def go(engine, sfen, moves, nodes):
    """(best move, score for the side to move or None) of `go nodes`."""
    engine.send(f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else ""))
    engine.send(f"go nodes {nodes}")
    out = engine.until("bestmove", GO_TIMEOUT)
    score = None
    for line in out:
        if not line.startswith("info") or " score " not in line or line.startswith("info string"):
            continue
        t = line.split()
        i = t.index("score")
        try:
            v = int(t[i + 2])
        except (IndexError, ValueError):
            continue
        if t[i + 1] == "cp":
            score = v
        else:
            score = (MATE - abs(v)) * (1 if v > 0 or t[i + 2] == "+0" else -1)
    return out[-1].split()[1], score


def games_of(log, out, lo, hi):
    """(index, sfen, moves, engine 1 plays sente) of the log's lines lo..hi.
    Engine 1's side comes from the log line's fifth field when match.py
    wrote one, else from the progress line of the same rank, if their ply
    counts agree (two games ending together may be in different orders in
    the two files; with equal lengths that is not caught: use logs with the
    fifth field)."""
    progress = [l for l in open(out) if l.startswith("game ")]
    games = [l.rstrip("\n").split("\t") for l in open(log)]
    for i in range(lo, min(hi, len(games))):
        g = games[i]
        if len(g) < 4 or not g[3]:
            continue
        if len(g) >= 5 and g[4]:
            yield i, g[2], g[3].split(), g[4].endswith("sente")
            continue
        if i >= len(progress):
            break
        plies = int(progress[i].split("(", 1)[1].split(",")[1].split()[0])
        if plies != len(g[3].split()):
            print(f"warning: game {i}: log and progress differ, skipped", file=sys.stderr)
            continue
        yield i, g[2], g[3].split(), "E1 sente" in progress[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("out")
    ap.add_argument("--engine", action="append", required=True, help="NAME=PATH (first: the reference)")
    ap.add_argument("--judge", default="target/sparring/yo-material")
    ap.add_argument("--nodes", type=int, default=400000)
    ap.add_argument("--jnodes", type=int, default=2000000)
    ap.add_argument("--games", default="0:10")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--opt", action="append", default=["Evaluation=Material"], help="NAME=VALUE for every build")
    ap.add_argument("--dump")
    a = ap.parse_args()
    builds = [e.split("=", 1) for e in a.engine]
    opts = {"hash": a.hash, "extra": dict(o.split("=", 1) for o in a.opt)}
    judge = Engine(a.judge, {"hash": 256})
    lo, hi = map(int, a.games.split(":"))
    diffs = {name: [] for name, _ in builds[1:]}
    dump = open(a.dump, "a") if a.dump else None
    for gi, sfen, moves, sente in games_of(a.log, a.out, lo, hi):
        black_first = sfen.split()[1] == "b"
        ours = [p for p in range(len(moves)) if (black_first == (p % 2 == 0)) == sente]
        chosen = {}
        for name, path in builds:
            e = Engine(path, opts)
            e.send("usinewgame")
            chosen[name] = [go(e, sfen, moves[:p], a.nodes)[0] for p in ours]
            e.quit()
        for j, p in enumerate(ours):
            values = {}
            for m in {chosen[name][j] for name, _ in builds}:
                if m in ("resign", "win"):
                    values[m] = -MATE if m == "resign" else MATE
                    continue
                ready(judge)
                s = go(judge, sfen, moves[:p] + [m], a.jnodes)[1]
                if s is None:
                    print(f"warning: game {gi} ply {p}: no score from the judge for {m}",
                          file=sys.stderr)
                values[m] = -(s or 0)
            ref = values[chosen[builds[0][0]][j]]
            for name, _ in builds[1:]:
                d = values[chosen[name][j]] - ref
                diffs[name].append(max(-CLIP, min(CLIP, d)))
            if dump:
                cells = " ".join(f"{n}={chosen[n][j]}:{values[chosen[n][j]]}" for n, _ in builds)
                dump.write(f"{gi}\t{p}\t{cells}\n")
                dump.flush()
        for name, v in diffs.items():
            n = len(v)
            if n == 0:
                continue
            mean = sum(v) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in v) / max(1, n - 1))
            better = sum(1 for x in v if x >= 150)
            worse = sum(1 for x in v if x <= -150)
            same = sum(1 for x in v if x == 0)
            print(f"after game {gi}: {name} - {builds[0][0]}: {n} positions, mean {mean:+.1f} "
                  f"+- {1.96 * sd / math.sqrt(n):.1f} cp, 150+ better {better}, worse {worse}, "
                  f"equal {same}", flush=True)
    judge.quit()


if __name__ == "__main__":
    main()
