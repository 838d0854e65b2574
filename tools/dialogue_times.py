"""Reads engine dialogues logged with RUST_LOG=fukayomi=debug (millisecond
timestamps, `<<` for input, `>>` for output) and measures how long each move
took: from `go` (not `go ponder`) or `ponderhit` to the `bestmove`.

    python tools/dialogue_times.py 'target/selfplay/engine-*.log' BYOYOMI_MS

prints the move times (median, p99, max, how many over the byoyomi) and the
number of `info string error` lines. tools/clients.py imports `read`.
"""

import datetime
import glob
import re
import sys

STAMP = re.compile(r"^\[(\S+) +\w+ [^\]]*\] (<<|>>) (.*)$")


def read(pattern):
    """Returns (move times in ms, number of error lines) over the logs matching pattern."""
    times, errors = [], 0
    for path in glob.glob(pattern):
        start = None
        for line in open(path, errors="replace"):
            m = STAMP.match(line)
            if not m:
                continue
            t = datetime.datetime.fromisoformat(m.group(1).replace("Z", "+00:00"))
            direction, text = m.group(2), m.group(3)
            words = text.split()
            if direction == "<<" and (words[:1] == ["go"] and "ponder" not in words or text == "ponderhit"):
                start = t
            elif direction == ">>" and text.startswith("bestmove") and start is not None:
                times.append((t - start).total_seconds() * 1000)
                start = None
            elif direction == ">>" and text.startswith("info string error"):
                errors += 1
    return times, errors


def summary(times, byoyomi):
    times = sorted(times)
    if not times:
        return "moves timed: 0"
    n = len(times)
    return (f"moves timed: {n}; go->bestmove ms: median {times[n // 2]:.0f}, "
            f"p99 {times[min(n - 1, n * 99 // 100)]:.0f}, max {times[-1]:.0f}; "
            f"over {byoyomi} ms: {sum(t > byoyomi for t in times)}")


if __name__ == "__main__":
    times, errors = read(sys.argv[1])
    print(summary(times, int(sys.argv[2])))
    print(f"error lines from the engines: {errors}")
