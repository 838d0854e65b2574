#!/usr/bin/env python3
"""Replays the games a match lost with an engine's analysis, to see where
they were lost. Reads the two files of one `tools/match.py --log LOG` run
(LOG and the .out file with match.py's progress lines: they list the games
in the same order) and, for each game engine 1 lost, searches positions
where engine 1 was to move with `go movetime MS`.

  --back: the score N plies before the end, for each N (default 40,24,12,6)
  --trace GAMES: for these game numbers (as in the .out file), every
      position of engine 1 from the start until the score falls below
      --collapse centipawns, with the move played and the engine's choice.

Usage:
  target/venv/bin/python tools/replay_losses.py target/matches/X.log target/matches/X.out \
      --engine target/release/fukayomi [--ms 1000] [--trace 27,51]
"""
import argparse
import subprocess
import sys


class Engine:
    def __init__(self, path, hash_mb):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.send(f"setoption name USI_Hash value {hash_mb}")
        self.send("isready")
        while not self.p.stdout.readline().startswith("readyok"):
            pass

    def send(self, s):
        self.p.stdin.write(s + "\n")

    def analyse(self, sfen, moves, ms):
        """(score text, depth, best move) of `go movetime ms`."""
        self.send(f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {ms}")
        last = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the engine exited")
            if line.startswith("info") and " score " in line:
                last = line.split()
            if line.startswith("bestmove"):
                best = line.split()[1]
                break
        if last is None:
            return "-", "-", best
        i = last.index("score")
        return f"{last[i + 1]} {last[i + 2]}", last[last.index("depth") + 1], best


def losses(log, out):
    """(game number, engine 1 plays sente, start sfen, moves) of each lost game.
    The log and the progress lines are paired in order (match.py writes
    both as each game ends); a pair whose ply counts differ (two games that
    ended together, written in the other order) is checked against its
    neighbour, else skipped with a warning. Give a log of one run only."""
    progress = [l for l in open(out) if l.startswith("game ")]
    games = [l.rstrip("\n").split("\t") for l in open(log)]
    if len(progress) != len(games):
        print(f"warning: {len(progress)} progress lines, {len(games)} logged games", file=sys.stderr)

    def plies(p):
        return int(p.split("(", 1)[1].split(",")[1].split()[0])

    for i, p in enumerate(progress):
        if "-> l" not in p:
            continue
        cands = [g for g in games[max(0, i - 1):i + 2] if len(g) > 3 and len(g[3].split()) == plies(p)]
        g = games[i] if i < len(games) and games[i] in cands else (cands[0] if len(cands) == 1 else None)
        if g is None:
            print(f"warning: {p.strip()}: no logged game pairs with it, skipped", file=sys.stderr)
            continue
        yield p.split(":")[0].split()[1], p.split()[3] == "sente", g[2], g[3].split()


def ours(k, start, e1_sente):
    """Whether engine 1 is to move after `k` plies from `start`."""
    sente_first = start.split()[1] == "b"
    return ((k % 2 == 0) == sente_first) == e1_sente


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("out")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--ms", type=int, default=1000)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--back", default="40,24,12,6")
    ap.add_argument("--trace", default="")
    ap.add_argument("--collapse", type=int, default=-800)
    args = ap.parse_args()
    e = Engine(args.engine, args.hash)
    trace = set(args.trace.split(",")) - {""}
    for gid, e1_sente, start, moves in losses(args.log, args.out):
        if trace and gid not in trace:
            continue
        if not trace:
            row = []
            for back in map(int, args.back.split(",")):
                k = len(moves) - back
                k -= 0 if ours(k, start, e1_sente) else 1
                if k >= 0:
                    score, depth, _ = e.analyse(start, moves[:k], args.ms)
                    row.append(f"-{len(moves) - k}: {score} d{depth}")
            print(f"game {gid} ({len(moves)} plies) " + " | ".join(row), flush=True)
            continue
        print(f"game {gid}: engine 1 {'sente' if e1_sente else 'gote'}, {start}")
        for k in range(len(moves)):
            if not ours(k, start, e1_sente):
                continue
            score, depth, best = e.analyse(start, moves[:k], args.ms)
            reply = moves[k + 1] if k + 1 < len(moves) else ""
            print(f"  ply {k}: played {moves[k]} (reply {reply}); analysis {score} d{depth} best {best}",
                  flush=True)
            if score.startswith("mate -") or (score.startswith("cp") and int(score.split()[1]) < args.collapse):
                break


if __name__ == "__main__":
    main()
