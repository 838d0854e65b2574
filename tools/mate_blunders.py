#!/usr/bin/env python3
"""Lost games that were lost by letting the opponent mate.

For every game of a match log (tools/match.py --log) that engine 1 lost,
each of engine 1's moves is followed by a `go mate MS` of the solver (a
Fukayomi binary) on the position after it, the opponent to move. The first
move after which the opponent has a proven mate is printed with its
position, the mate's length, and (with --judge) the judge's verdict on
the position before the move: its best move and score at --nodes, i.e.
whether a move that holds was there to be found.

    target/venv/bin/python tools/mate_blunders.py LOG --solver target/release/fukayomi \
        [--ms 300] [--judge target/sparring/yo-material --nodes 2000000] [--games 0:40]

`--loser 2` looks at engine 2's lost games instead. `--escapes` also
plays every legal move of the position before the fatal move and counts
those after which the solver proves no mate within MS (a move that may
hold, not one proven to). The summary counts the lost games, those with
such a move, and the mates' lengths. A mate the solver does not prove
within MS is not counted.
"""
import argparse
import os
import sys

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine  # noqa: E402

GO_TIMEOUT = 600


def lost_games(log, games, loser):
    lo, hi = games
    out = []
    with open(log) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            winner, sfen, moves, tag = fields[0], fields[2], fields[3].split(), fields[4]
            num = int(tag.split()[0])
            if not lo <= num < hi or winner not in ("0", "1"):
                continue
            ours = 0 if tag.split()[2] == "sente" else 1
            if loser == 2:
                ours = 1 - ours
            if int(winner) != ours:
                out.append((num, sfen, moves, ours))
    return sorted(out)


def mate_after(solver, sfen, moves, ms):
    solver.send(f"position sfen {sfen} moves {' '.join(moves)}")
    solver.send(f"go mate {ms}")
    line = solver.until("checkmate", GO_TIMEOUT)[-1]
    t = line.split()
    if len(t) < 2 or t[1] in ("nomate", "timeout", "notimplemented"):
        return None
    return len(t) - 1


def judge(engine, sfen, moves, nodes):
    engine.send("usinewgame")
    engine.send(f"position sfen {sfen} moves {' '.join(moves)}")
    engine.send(f"go nodes {nodes}")
    out = engine.until("bestmove", GO_TIMEOUT)
    verdict = "?"
    for line in out:
        t = line.split()
        if line.startswith("info") and "score" in t:
            i = t.index("score")
            verdict = f"{t[i + 1]} {t[i + 2]}"
    return out[-1].split()[1], verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--solver", required=True)
    ap.add_argument("--ms", type=int, default=300)
    ap.add_argument("--judge")
    ap.add_argument("--nodes", type=int, default=2000000)
    ap.add_argument("--games", default="0:100000")
    ap.add_argument("--loser", type=int, default=1, choices=(1, 2),
                    help="whose lost games: engine 1's (default) or engine 2's")
    ap.add_argument("--escapes", action="store_true",
                    help="also try every legal move of the position before the move "
                         "and count those after which no mate is proved within MS")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.games.split(":"))
    solver = Engine(a.solver, {"hash": 256, "extra": {}})
    judge_engine = None
    if a.judge:
        yaneuraou = "yo" in a.judge.rsplit("/", 1)[-1]
        judge_engine = Engine(a.judge, {"hash": 256,
                                        "extra": {} if yaneuraou else {"Evaluation": "Material"}})
    games = lost_games(a.log, (lo, hi), a.loser)
    lengths = []
    escapes = []
    for num, sfen, moves, ours in games:
        start = 0 if " b " in sfen else 1
        for ply in range(len(moves)):
            if (start + ply) % 2 != ours:
                continue
            n = mate_after(solver, sfen, moves[:ply + 1], a.ms)
            if n is None:
                continue
            lengths.append(n)
            extra = ""
            if a.escapes:
                board = cshogi.Board(sfen)
                for m in moves[:ply]:
                    board.push_usi(m)
                legal = [cshogi.move_to_usi(m) for m in board.legal_moves]
                safe = [m for m in legal
                        if mate_after(solver, sfen, moves[:ply] + [m], a.ms) is None]
                escapes.append(len(safe))
                extra += f"  escapes {len(safe)} of {len(legal)} {' '.join(safe[:6])}"
            if judge_engine:
                best, verdict = judge(judge_engine, sfen, moves[:ply], a.nodes)
                extra = f"  judge: {best} ({verdict})"
            print(f"game {num} ply {ply + 1}: {moves[ply]} allows mate {n} of "
                  f"{len(moves) - ply - 1} plies left{extra}  position sfen {sfen} moves "
                  f"{' '.join(moves[:ply])}", flush=True)
            break
    lengths.sort()
    if a.escapes:
        print(f"positions with an escape: {sum(1 for e in escapes if e)} of {len(escapes)}")
    print(f"{len(games)} lost games, {len(lengths)} with a move that allowed a mate "
          f"proved within {a.ms} ms; mate lengths {lengths}")
    solver.quit()
    if judge_engine:
        judge_engine.quit()


if __name__ == "__main__":
    main()
