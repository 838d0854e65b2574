#!/usr/bin/env python3
"""Find the moves that lost a game: for each move of ENGINE's side in the
games of a match log (tools/match.py --log), the judge engine scores the
position before and after the move (from the mover's side, at a fixed node
count); a drop of more than --drop centipawns is printed with the mover's
move and the judge's best move.

    target/venv/bin/python tools/blunders.py LOG --judge target/sparring/yo-material \
        --nodes 300000 [--games 0,3,5] [--opt NAME=VALUE]

Every decided game's loser is examined (the log does not say which engine
played which side). A winning mate score before a move and a large finite
one after it is not counted (a slower win, not a blunder).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine  # noqa: E402


def score(engine, sfen, moves, nodes):
    engine.send(f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else ""))
    engine.send(f"go nodes {nodes}")
    out = engine.until("bestmove", 120)
    cp, best = None, out[-1].split()[1]
    for line in out:
        t = line.split()
        if "score" in t:
            i = t.index("score")
            if t[i + 1] == "cp":
                cp = int(t[i + 2])
            elif t[i + 1] == "mate":
                m = t[i + 2]
                cp = 30000 if not m.startswith("-") else -30000
    return cp, best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--judge", required=True)
    ap.add_argument("--nodes", type=int, default=300000)
    ap.add_argument("--drop", type=int, default=300)
    ap.add_argument("--games", help="comma-separated line numbers of the log, from 0 (default: all)")
    ap.add_argument("--opt", action="append", default=[])
    args = ap.parse_args()
    judge = Engine(args.judge, {"extra": dict(o.split("=", 1) for o in args.opt)})
    games = [l.rstrip("\n").split("\t") for l in open(args.log)]
    pick = set(int(x) for x in args.games.split(",")) if args.games else None
    for gi, (winner, reason, sfen, moves, *_) in enumerate(games):
        if pick is not None and gi not in pick:
            continue
        moves = moves.split()
        # winner: 0 = sente, 1 = gote (match.py's log).
        if winner == "draw":
            continue
        loser = 1 - int(winner)
        side0 = 0 if sfen.split()[1] == "b" else 1
        print(f"game {gi}: loser plays {'sente' if loser == 0 else 'gote'} ({reason})", flush=True)
        for ply in range(len(moves)):
            mover = (side0 + ply) % 2
            if mover != loser:
                continue
            before, best = score(judge, sfen, moves[:ply], args.nodes)
            after, reply = score(judge, sfen, moves[:ply + 1], args.nodes)
            if before is None or after is None:
                continue
            after = -after
            if before - after >= args.drop and -2000 < before < 30000:
                print(f"  ply {ply}: {moves[ply]} {before} -> {after} (judge: {best}; reply {reply})"
                      f"  position sfen {sfen} moves {' '.join(moves[:ply])}", flush=True)
    judge.quit()


if __name__ == "__main__":
    main()
