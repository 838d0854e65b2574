#!/usr/bin/env python3
"""Times `go perft` on the two benchmark positions of issue 2 (or given ones).

usage: tools/perft_bench.py [ENGINE] ; prints depth, nodes and seconds per position.
"""
import subprocess
import sys
import time

CASES = [
    ("startpos", 6, 547581517),
    ("sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", 4, 516925165),
]


def main() -> int:
    engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/fukayomi"
    ok = True
    for position, depth, expected in CASES:
        p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write(f"position {position}\n")
        p.stdin.flush()
        start = time.perf_counter()
        p.stdin.write(f"go perft {depth}\n")
        p.stdin.flush()
        nodes = None
        for line in p.stdout:
            if line.startswith("Nodes searched:"):
                nodes = int(line.split(":")[1])
                break
        elapsed = time.perf_counter() - start
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait()
        status = "ok" if nodes == expected else f"MISMATCH (expected {expected})"
        ok &= nodes == expected
        print(f"{position[:40]:40} d{depth} {nodes:>12} {elapsed:7.3f} s {nodes / elapsed / 1e6:7.1f} Mnps {status}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
