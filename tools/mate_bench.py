#!/usr/bin/env python3
"""Tsume benchmark: runs USI engines' `go mate` on a problem file and checks
every answer independently with cshogi.

Problem files are TSV: name, published length in plies ('-' = unknown) and
SFEN; '#' starts a comment line. Each engine runs in one process for the
whole file (`position sfen` + `go mate <ms>`); an engine that does not answer
within the limit plus a grace gets `stop`.

An answer is
- `mate`: a `checkmate` line that cshogi accepts move by move, every attacker
  move a check, ending with the defender without a legal move or with only
  useless interpositions (drops that a capture answers with mate at once,
  not counted by composers);
- `WRONG-line`: any other `checkmate` line;
- `nomate`: `checkmate nomate` (`WRONG-nomate` when another engine's line,
  checked by cshogi, mates);
- `timeout`: `checkmate timeout` or anything else.

Each row also gives the node count of the engine's last `info ... nodes`
line before its answer (0 when it sent none); the summary sums them, a
measure that does not depend on the machine's load.

Usage:
  target/venv/bin/python tools/mate_bench.py tests/data/tsume-classics.tsv \
      --ms 5000 --engine fukayomi=target/release/fukayomi \
      --engine yo-mate=/path/yo-mate --engine kh=/path/komoring-heights

Long problems, one engine at a time, a few by name:
  target/venv/bin/python tools/mate_bench.py tests/data/tsume-classics.tsv \
      --ms 60000 --hash 2048 --names microcosmos,setsugekka \
      --engine fukayomi=target/release/fukayomi

Engine options: --setoption 'NAME=Option:value' (repeatable); every engine
gets Threads 1 and the --hash size as USI_Hash (and as MateHash where the
engine declares that option, as Fukayomi does).
"""

import argparse
import subprocess
import sys
import threading
import time
import queue

import cshogi

GRACE_S = 2.0


class Engine:
    def __init__(self, name, path, options):
        self.name, self.path, self.options = name, path, options
        self.crashes = 0
        self.infos = []
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("usi")
        declared = set()
        end = time.time() + 30
        while True:
            line = self.until("", max(0.01, end - time.time()))
            if line is None or line == "usiok":
                break
            words = line.split()
            if words[:2] == ["option", "name"] and len(words) > 2:
                declared.add(words[2])
        for k, v in self.options:
            # MateHash (Fukayomi's mate table) only where the engine has it.
            if k != "MateHash" or k in declared:
                self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.until("readyok", 120)

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, s):
        self.proc.stdin.write(s + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, timeout):
        """The first line starting with `prefix`; the node count of the last
        `info` line with one before it is kept in `self.nodes`, the `info
        string` lines before it in `self.infos`."""
        end = time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                return None
            if line is None:
                return None
            if line.startswith(prefix):
                return line
            if line.startswith("info string "):
                self.infos.append(line[len("info string "):])
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words[:-1]:
                try:
                    self.nodes = int(words[words.index("nodes") + 1])
                except ValueError:
                    pass

    def mate(self, sfen, ms):
        """The `checkmate` line and the seconds it took; a crash restarts
        the engine and counts as a timeout."""
        start = time.time()
        self.nodes = 0
        self.infos = []
        try:
            self.send(f"position sfen {sfen}")
            self.send(f"go mate {ms}")
            line = self.until("checkmate", ms / 1000 + GRACE_S)
            if line is None and self.proc.poll() is None:
                self.send("stop")
                line = self.until("checkmate", 10)
        except BrokenPipeError:
            line = None
        if line is None and self.proc.poll() is not None:
            self.crashes += 1
            print(f"{self.name} crashed on {sfen}; restarted", file=sys.stderr)
            self.start()
        return line or "checkmate timeout", time.time() - start

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(5)
        except Exception:
            self.proc.kill()


def only_useless_drops(board):
    """Whether the defender has legal moves, every one a drop that a capture
    of the dropped piece answers with mate at once (無駄合い: composers count
    the position as mated)."""
    replies = [cshogi.move_to_usi(m) for m in board.legal_moves]
    if not replies:
        return False
    for d in replies:
        if "*" not in d:
            return False
        board.push_usi(d)
        mated = False
        for r in [cshogi.move_to_usi(m) for m in board.legal_moves]:
            if "*" in r or r[2:4] != d[2:4]:
                continue
            board.push_usi(r)
            mated = board.is_check() and not any(True for _ in board.legal_moves)
            board.pop()
            if mated:
                break
        board.pop()
        if not mated:
            return False
    return True


def check_line(sfen, moves):
    """How `moves` from `sfen` ends: "mate" (a legal tsume line ending in
    mate), "useless" (ending in a check answered only by useless
    interpositions) or None (not a tsume line)."""
    board = cshogi.Board(sfen)
    if len(moves) % 2 == 0:
        return None
    for i, usi in enumerate(moves):
        legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
        if usi not in legal:
            return None
        board.push_usi(usi)
        if i % 2 == 0 and not board.is_check():
            return None
    if len(list(board.legal_moves)) == 0:
        return "mate"
    return "useless" if only_useless_drops(board) else None


def classify(sfen, line):
    """(kind, plies sent, plies with a last useless interposition counted)."""
    words = line.split()
    if len(words) >= 2 and words[1] == "nomate":
        return "nomate", None, None
    if len(words) < 2 or words[1] in ("timeout", "none", "notimplemented"):
        return "timeout", None, None
    moves = words[1:]
    end = check_line(sfen, moves)
    if end is None:
        return "WRONG-line", len(moves), None
    return "mate", len(moves), len(moves) + (2 if end == "useless" else 0)


def read_problems(path):
    problems = []
    for raw in open(path, encoding="utf-8"):
        raw = raw.rstrip("\n")
        if not raw or raw.startswith("#"):
            continue
        name, plies, sfen = raw.split("\t")
        problems.append((name, None if plies == "-" else int(plies), sfen))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("problems")
    ap.add_argument("--ms", type=int, default=5000)
    ap.add_argument("--hash", type=int, default=1024, help="MiB for every engine")
    ap.add_argument("--engine", action="append", required=True, help="name=path")
    ap.add_argument("--setoption", action="append", default=[], help="engine=Name:value")
    ap.add_argument("--limit", type=int, default=0, help="first N problems only")
    ap.add_argument("--names", default="", help="only these problems (comma-separated), in this order")
    ap.add_argument("--infos", action="store_true",
                    help="print each answer's info strings (e.g. when the mate was proven) under its row")
    args = ap.parse_args()

    problems = read_problems(args.problems)
    if args.names:
        by_name = {p[0]: p for p in problems}
        problems = [by_name[n] for n in args.names.split(",")]
    if args.limit:
        problems = problems[: args.limit]
    results = {}
    for spec in args.engine:
        name, path = spec.split("=", 1)
        opts = [("Threads", 1), ("USI_Hash", args.hash), ("MateHash", args.hash)]
        for s in args.setoption:
            e, rest = s.split("=", 1)
            if e == name:
                k, v = rest.split(":", 1)
                opts.append((k, v))
        engine = Engine(name, path, opts)
        rows = []
        for pname, plies, sfen in problems:
            line, secs = engine.mate(sfen, args.ms)
            kind, length, counted = classify(sfen, line)
            rows.append((kind, length, secs, engine.nodes, counted))
            print(f"{name}\t{pname}\t{kind}\t{length if length else '-'}\t{secs:.2f}\t{engine.nodes}",
                  flush=True)
            if args.infos:
                for info in engine.infos:
                    print(f"#\t{name}\t{pname}\t{info}", flush=True)
        engine.quit()
        results[name] = rows

    # A nomate is wrong when any engine's checked line mates.
    mated = [any(results[e][i][0] == "mate" for e in results) for i in range(len(problems))]
    print()
    print("engine\tmate\tnomate\ttimeout\twrong\tpublished-length\ttotal-s\tnodes")
    for name, rows in results.items():
        n = {k: 0 for k in ("mate", "nomate", "timeout", "wrong")}
        published = 0
        for i, (kind, length, _, _, counted) in enumerate(rows):
            if kind == "nomate" and mated[i]:
                kind = "wrong"
            if kind.startswith("WRONG"):
                kind = "wrong"
            n[kind] += 1
            # Composers leave out a last useless interposition, engines
            # (and the generated files' lengths) count it: either matches.
            if kind == "mate" and problems[i][1] in (length, counted):
                published += 1
        total = sum(r[2] for r in rows)
        nodes = sum(r[3] for r in rows)
        with_len = sum(1 for p in problems if p[1])
        print(f"{name}\t{n['mate']}\t{n['nomate']}\t{n['timeout']}\t{n['wrong']}\t{published}/{with_len}"
              f"\t{total:.1f}\t{nodes}")
    # Problems some engine solved and another did not.
    names = list(results)
    for i, (pname, _, _) in enumerate(problems):
        kinds = [results[e][i][0] for e in names]
        if len(set(kinds)) > 1:
            print("differs\t" + pname + "\t" + "\t".join(f"{e}:{k}" for e, k in zip(names, kinds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
