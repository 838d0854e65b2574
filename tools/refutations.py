#!/usr/bin/env python3
"""A tactical test set from lost games, and a runner for it.

`collect` reads the output of tools/blunders.py (lines "ply N: MOVE a -> b
(judge: BEST; reply REPLY)  position sfen ... moves ...") and writes two
lines per blunder, tab-separated: "refute", the position after the losing
move and the judge's reply to it (the refutation); "avoid", the position
before it, the losing move and the judge's choice. `run` searches each
position with every ENGINE at a fixed node count and counts how often it
plays the refutation, and how often it avoids the losing move (and plays
the judge's choice). A search that misses refutations at the node count of a match
loses games that way; the count is a quick screen for a pruning that hides
tactics, never a substitute for a match.

    target/venv/bin/python tools/refutations.py collect BLUNDERS.txt... > target/refutations.tsv
    target/venv/bin/python tools/refutations.py run target/refutations.tsv --nodes 80000 \
        ENGINE... [--opt NAME=VALUE]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine  # noqa: E402

LINE = re.compile(r"ply \d+: (\S+) .*\(judge: \S+; reply (\S+)\)\s+(position sfen .*)$")


def collect(files):
    seen = set()
    for f in files:
        for line in open(f):
            m = LINE.search(line.strip())
            if not m:
                continue
            move, reply, pos = m.groups()
            best = re.search(r"\(judge: (\S+);", line).group(1)
            after = f"{pos} {move}" if " moves " in pos else f"{pos} moves {move}"
            if after in seen:
                continue
            seen.add(after)
            if reply != "resign":
                print(f"refute\t{after}\t{reply}")
            print(f"avoid\t{pos}\t{move}\t{best}")


def best_move(engine, pos, nodes):
    engine.send(pos)
    engine.send(f"go nodes {nodes}")
    return engine.until("bestmove", 120)[-1].split()[1]


def run(args):
    cases = [l.rstrip("\n").split("\t") for l in open(args.tsv) if l.strip()]
    extra = dict(o.split("=", 1) for o in args.opt)
    for path in args.engines:
        engine = Engine(path, {"extra": extra})
        refute = [c for c in cases if c[0] == "refute"]
        avoid = [c for c in cases if c[0] == "avoid"]
        found = avoided = agreed = 0
        for _, pos, reply in refute:
            engine.send("usinewgame")
            found += best_move(engine, pos, args.nodes) == reply
        for _, pos, losing, best in avoid:
            engine.send("usinewgame")
            m = best_move(engine, pos, args.nodes)
            avoided += m != losing
            agreed += m == best
        engine.quit()
        print(f"{path} at {args.nodes} nodes: refutations found {found}/{len(refute)}, "
              f"losing moves avoided {avoided}/{len(avoid)} (the judge's move {agreed})",
              flush=True)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("files", nargs="+")
    r = sub.add_parser("run")
    r.add_argument("tsv")
    r.add_argument("engines", nargs="+")
    r.add_argument("--nodes", type=int, default=80000)
    r.add_argument("--opt", action="append", default=[])
    args = ap.parse_args()
    if args.cmd == "collect":
        collect(args.files)
    else:
        run(args)


if __name__ == "__main__":
    main()
