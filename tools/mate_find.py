#!/usr/bin/env python3
"""How soon the normal search (not `go mate`) sees a known mate.

Each engine searches every mate of a tsume file (tools/gen_tsume.py's
format: name, length, sfen; rows of length 0 are skipped) with
`go nodes N` from a fresh state (`usinewgame`), and the first `info` line
with a winning `score mate` gives the nodes it took. Prints, per engine,
how many mates it saw within N nodes and the median nodes of those, then
the rows where the engines differ.

    target/venv/bin/python tools/mate_find.py tests/data/tsume-games.tsv \
        --nodes 250000 BIN1 BIN2 ...

Engines are driven as in tools/speed.py (1 thread, 64 MiB, NetworkDelay
0; Fukayomi on `Evaluation Material`; a path containing "yo" is driven as
YaneuraOu). Node counts of two engines are not the same unit.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine  # noqa: E402

# Seconds a `go nodes` search may take before the engine counts as hung.
GO_TIMEOUT = 600


def problems(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, length, sfen = line.rstrip("\n").split("\t")[:3]
            if int(length) > 0:
                out.append((name, int(length), sfen))
    return out


def first_mate(lines):
    """Nodes of the first info line with a winning mate score, or None."""
    for line in lines:
        t = line.split()
        if not line.startswith("info") or "mate" not in t or "nodes" not in t:
            continue
        v = t[t.index("mate") + 1]
        if v.lstrip("+").isdigit() and int(v.lstrip("+")) > 0:
            return int(t[t.index("nodes") + 1])
    return None


def run(engine, rows, nodes):
    yaneuraou = "yo" in engine.rsplit("/", 1)[-1]
    e = Engine(engine, {"hash": 64, "extra": {} if yaneuraou else {"Evaluation": "Material"}})
    found = []
    for _, _, sfen in rows:
        e.send("usinewgame")
        e.send(f"position sfen {sfen}")
        e.send(f"go nodes {nodes}")
        found.append(first_mate(e.until("bestmove", GO_TIMEOUT)))
    e.quit()
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--nodes", type=int, default=250000)
    a = ap.parse_args()
    rows = problems(a.file)
    results = {eng: run(eng, rows, a.nodes) for eng in a.engines}
    for eng, found in results.items():
        seen = [n for n in found if n is not None]
        med = statistics.median(seen) if seen else 0
        print(f"{eng}: {len(seen)} of {len(rows)} mates seen, median {med:.0f} nodes")
    for i, (name, length, _) in enumerate(rows):
        cells = [results[eng][i] for eng in a.engines]
        if len({c is None for c in cells}) > 1:
            shown = " ".join("-" if c is None else str(c) for c in cells)
            print(f"  {name} ({length}): {shown}")


if __name__ == "__main__":
    main()
