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
import re
import subprocess
import time

import cshogi

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
    eng = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(s):
        eng.stdin.write(s + "\n")
        eng.stdin.flush()

    send(f"setoption name MateHash value {args.hash}")
    send("isready")
    while True:
        out = eng.stdout.readline()
        if not out:
            raise SystemExit("the engine exited")
        if out.startswith("readyok"):
            break
    for k in args.plies:
        if k % 2:
            raise SystemExit(f"K = {k} leaves the defender to move: give even K")
        send(f"position sfen {args.sfen} moves {' '.join(line[:k])}" if k else f"position sfen {args.sfen}")
        start = time.time()
        send(f"go mate {args.ms}")
        infos = []
        while True:
            out = eng.stdout.readline()
            if not out:
                raise SystemExit("the engine exited")
            out = out.strip()
            if out.startswith("info string"):
                infos.append(out[len("info string "):])
            if out.startswith("checkmate"):
                break
        words = out.split()[1:]
        got = words[0] if words[0] in ("timeout", "nomate") else len(words)
        print(f"{k}\tpublished {len(line) - k}\tengine {got}\t{time.time() - start:.1f} s\t"
              + " | ".join(infos), flush=True)
    send("quit")


if __name__ == "__main__":
    main()
