#!/usr/bin/env python3
"""Search speed of engines on the material evaluation, at a fixed node count.

Each engine searches the same game positions (plies 20, 24, ... of the
first games of a match log from tools/match.py) with `go nodes N`, its
table and histories carried from move to move as in a game. The engines
take turns, round after round, so the machine's drifts hit them alike;
prints each round's seconds and each engine's median nodes a second.

    target/venv/bin/python tools/speed.py --log target/matches/X.log \
        --nodes 200000 --rounds 5 BIN1 BIN2 ...

The engines are driven by match.py's `Engine` (1 thread, 64 MiB,
NetworkDelay 0, no book); Fukayomi binaries also get `Evaluation
Material` (a path containing "yo" is taken for YaneuraOu).
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine  # noqa: E402

# Seconds a `go nodes` search may take before the engine counts as hung.
GO_TIMEOUT = 600


def positions(log, games):
    out = []
    with open(log) as f:
        for g, line in enumerate(f):
            if g >= games:
                break
            fields = line.rstrip("\n").split("\t")
            sfen, moves = fields[2], fields[3].split()
            out.append([(sfen, moves[:k]) for k in range(20, min(len(moves), 100), 4)])
    return out


def run(engine, games, nodes):
    """(nodes searched, seconds) of one engine over `games`."""
    yaneuraou = "yo" in engine.rsplit("/", 1)[-1]
    e = Engine(engine, {"hash": 64, "extra": {} if yaneuraou else {"Evaluation": "Material"}})
    total_nodes = 0
    t0 = time.perf_counter()
    for game in games:
        e.send("usinewgame")
        for sfen, moves in game:
            e.send(f"position sfen {sfen} moves {' '.join(moves)}")
            e.send(f"go nodes {nodes}")
            counted = [line for line in e.until("bestmove", GO_TIMEOUT)
                       if line.startswith("info") and " nodes " in line]
            if counted:
                f = counted[-1].split()
                total_nodes += int(f[f.index("nodes") + 1])
    secs = time.perf_counter() - t0
    e.quit()
    return total_nodes, secs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--log", required=True)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    games = positions(a.log, a.games)
    rates = {e: [] for e in a.engines}
    for r in range(a.rounds):
        row = []
        for e in a.engines:
            n, s = run(e, games, a.nodes)
            rates[e].append(n / s)
            row.append(f"{e.rsplit('/', 1)[-1]} {n} nodes {s:.2f} s")
        print(f"round {r + 1}: " + "; ".join(row), flush=True)
    for e in a.engines:
        print(f"{e}: median {statistics.median(rates[e]) / 1e3:.0f} k nodes/s "
              f"(min {min(rates[e]) / 1e3:.0f}, max {max(rates[e]) / 1e3:.0f})")


if __name__ == "__main__":
    main()
