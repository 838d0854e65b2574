#!/usr/bin/env python3
"""Go mate along a published solution: for positions K plies into the
solution (the attacker to move, K even), the engine's `go mate` line length
against the published rest (published length - K). Shows where a solver's
line gets longer than a composer's main line, on problems too long to
shorten whole.

The published solution of ミクロコスモス (1525 plies) is read from a clone
of KomoringHeights (its node benchmark spells it out), fetched with the
library's `fetch github:komori-n/KomoringHeights`:

  target/venv/bin/python tools/along_line.py --engine target/release/fukayomi \\
      --ms 60000 1464 1460 1440 1400

Other problems: --sfen SFEN --line FILE (the solution's USI moves).
"""

import argparse
import os
import re
import subprocess
import sys

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mate_bench import Engine  # noqa: E402

KH = "/work/.mirror/komori-n+KomoringHeights/repo"
MICROCOSMOS = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"


def microcosmos_line(repo):
    src = subprocess.run(
        ["git", "-C", repo, "show",
         "HEAD:source/engine/user-engine/benchmark/node_benchmark.cpp"],
        capture_output=True, text=True, check=True).stdout
    m = re.search(r'kMicroCosmosAnsMoves =\s*((?:"[^"]*"\s*)+);', src)
    return " ".join(re.findall(r'"([^"]*)"', m.group(1))).split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plies", type=int, nargs="+", help="K: plies of the solution played first")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--ms", type=int, default=60000)
    ap.add_argument("--hash", type=int, default=1024, help="MateHash MiB")
    ap.add_argument("--sfen", default=MICROCOSMOS)
    ap.add_argument("--line", help="file of the solution's moves (default: microcosmos from KomoringHeights)")
    ap.add_argument("--kh", default=KH, help="KomoringHeights clone (git directory)")
    args = ap.parse_args()
    line = open(args.line).read().split() if args.line else microcosmos_line(args.kh)
    board = cshogi.Board(args.sfen)
    for m in line:
        board.push_usi(m)
    assert board.is_game_over(), "the solution does not mate"
    engine = Engine("engine", args.engine,
                    [("Threads", 1), ("USI_Hash", args.hash), ("MateHash", args.hash)])
    for k in args.plies:
        if k % 2:
            raise SystemExit(f"K = {k} leaves the defender to move: give even K")
        # The played plies go with the position, as a GUI sends them (the
        # engine sees their repetitions).
        played = f"{args.sfen} moves {' '.join(line[:k])}" if k else args.sfen
        answer, seconds = engine.mate(played, args.ms)
        words = answer.split()[1:]
        got = words[0] if words[0] in ("timeout", "nomate") else len(words)
        print(f"{k}\tpublished {len(line) - k}\tengine {got}\t{seconds:.1f} s\t"
              + " | ".join(engine.infos), flush=True)
    engine.quit()


if __name__ == "__main__":
    main()
