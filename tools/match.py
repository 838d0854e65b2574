#!/usr/bin/env python3
"""Engine-vs-engine match over USI with a referee, for 9x9, 5x5 and 3x3.

    target/venv/bin/python tools/match.py ENGINE1 ENGINE2 --games 200 \
        --byoyomi 100 --openings tools/openings/9x9.sfen [--concurrency 2]

Time odds: --byoyomi2 MS gives ENGINE2 another byoyomi than ENGINE1's.
Equal nodes: --nodes N plays every move with `go nodes N` (no clock).

Every opening is played twice with colours swapped. Prints one line per game
to stderr and, at the end, W-L-D of ENGINE1, its score, the Elo difference
with a 95% interval and an SPRT log-likelihood ratio (elo0 0, elo1 10,
trinomial model) on stdout. Referee: cshogi on 9x9 (perpetual check aware),
tools/refshogi.py on the small boards (fourfold repetition: draw on 3x3,
sente loses on 5x5; perpetual check loses on every board). A move that is
illegal, a crash, a missing bestmove or a move later than byoyomi +
--grace ms loses the game; these are counted and printed.

Engine options: every engine gets USI_Hash (--hash), Threads 1 and, when it
declares them, NetworkDelay 0, NetworkDelay2 0, BookFile no_book; more with
--opt1 NAME=VALUE / --opt2 NAME=VALUE (repeatable).
"""

import argparse
import math
import os
import queue
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refshogi  # noqa: E402

MAX_PLIES = 320
# Time a `go nodes` move may take before it counts as lost on time.
NODES_TIMEOUT_MS = 30_000


class Engine:
    def __init__(self, path, options):
        self.path = path
        self.options = options
        self.start()

    def start(self):
        self.p = subprocess.Popen(
            [os.path.abspath(self.path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
            cwd=os.path.dirname(os.path.abspath(self.path)))
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()
        self.send("usi")
        declared = set()
        for line in self.until("usiok", 20):
            if line.startswith("option name "):
                declared.add(line.split()[2])
        opts = {"USI_Hash": str(self.options.get("hash", 64)), "Threads": "1",
                "NetworkDelay": "0", "NetworkDelay2": "0", "BookFile": "no_book",
                "USI_Ponder": "false"}
        opts.update(self.options.get("extra", {}))
        for k, v in opts.items():
            if k in declared or k.startswith("USI_") or k in self.options.get("extra", {}):
                self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.until("readyok", 60)

    def _reader(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, s):
        try:
            self.p.stdin.write(s + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def until(self, prefix, timeout):
        out = []
        end = time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                raise TimeoutError(prefix)
            if line is None:
                raise EOFError(prefix)
            out.append(line)
            if line.split()[:1] == [prefix]:
                return out

    def alive(self):
        return self.p.poll() is None

    def quit(self):
        self.send("quit")
        try:
            self.p.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.p.kill()


class Referee9:
    """9x9 via cshogi."""

    def __init__(self, sfen):
        import cshogi
        self.cshogi = cshogi
        self.b = cshogi.Board(sfen)
        self.start_ply = 0
        # Occurrences of each position (board, hands, side to move): the game
        # is drawn (or lost by perpetual check) only at the fourth.
        self.seen = {self.b.zobrist_hash(): 1}

    def side(self):
        return 0 if self.b.turn == self.cshogi.BLACK else 1

    def push(self, usi):
        try:
            m = self.b.move_from_usi(usi)
        except Exception:
            return False
        if not m or not self.b.is_legal(m):
            return False
        self.b.push(m)
        key = self.b.zobrist_hash()
        self.seen[key] = self.seen.get(key, 0) + 1
        return True

    def declare(self):
        return self.b.is_nyugyoku()

    def result(self):
        """None, or the winner colour (0 sente, 1 gote), or 'draw'."""
        if self.b.is_game_over():
            return 1 - self.side()
        # cshogi's is_draw reports a repetition at its second occurrence
        # (as a search wants); sennichite needs the fourth (a game of session
        # 17 was drawn after 9 plies by the second).
        if self.seen.get(self.b.zobrist_hash(), 0) < 4:
            return None
        d = self.b.is_draw(MAX_PLIES)
        if d == self.cshogi.REPETITION_DRAW:
            return "draw"
        if d == self.cshogi.REPETITION_WIN:
            return self.side()
        if d == self.cshogi.REPETITION_LOSE:
            return 1 - self.side()
        return None


class RefereeSmall:
    """5x5 and 3x3 via tools/refshogi.py; repetition handled here."""

    def __init__(self, sfen):
        self.p = refshogi.Position.from_sfen(sfen)
        self.n = self.p.n
        self.seen = {}
        self.history = []  # (key, gave_check)
        self._record(False)

    def _key(self):
        return " ".join(self.p.sfen().split()[:3])

    def _record(self, check):
        k = self._key()
        self.history.append((k, check))
        self.seen[k] = self.seen.get(k, 0) + 1

    def side(self):
        return 0 if self.p.side == 1 else 1

    def push(self, usi):
        for m in self.p.legal_moves():
            if self.p.move_usi(m) == usi:
                self.p.make(m)
                self._record(self.p.in_check(self.p.side))
                return True
        return False

    def declare(self):
        return False

    def result(self):
        if not self.p.legal_moves():
            return 1 - self.side()
        k = self.history[-1][0]
        if self.seen[k] >= 4:
            first = max(i for i, (kk, _) in enumerate(self.history[:-1]) if kk == k)
            cycle = self.history[first + 1:]
            # cycle[-1] was reached by the side that just moved.
            mover = 1 - self.side()
            by_mover = [c for j, (_, c) in enumerate(reversed(cycle)) if j % 2 == 0]
            by_other = [c for j, (_, c) in enumerate(reversed(cycle)) if j % 2 == 1]
            if all(by_mover):
                return 1 - mover
            if by_other and all(by_other):
                return mover
            if self.n == 5:
                return 1  # sente loses
            return "draw"
        return None


def referee(sfen):
    n = len(sfen.split()[0].split("/"))
    return Referee9(sfen) if n == 9 else RefereeSmall(sfen)


def play_game(engines, sfen, byoyomi, grace, moves, nodes=None):
    """engines[0] plays sente; the game's moves are appended to `moves`.
    `byoyomi` is a pair: the milliseconds of engines[0] and engines[1];
    with `nodes`, each move is `go nodes NODES` instead (no clock).
    Returns (winner 0/1/'draw', reason, plies)."""
    ref = referee(sfen)
    for e in engines:
        e.send("usinewgame")
    for ply in range(MAX_PLIES):
        r = ref.result()
        if r is not None:
            return r, "end", ply
        side = ref.side()
        e = engines[side]
        pos = f"position sfen {sfen}" + (" moves " + " ".join(moves) if moves else "")
        e.send(pos)
        t0 = time.time()
        byo = byoyomi[side]
        if nodes:
            e.send(f"go nodes {nodes}")
            byo = NODES_TIMEOUT_MS
        else:
            e.send(f"go btime 0 wtime 0 byoyomi {byo}")
        try:
            out = e.until("bestmove", (byo + grace) / 1000 + 10)
        except (TimeoutError, EOFError):
            return 1 - side, "crash/no bestmove", ply
        ms = (time.time() - t0) * 1000
        if ms > byo + grace:
            return 1 - side, f"time ({ms:.0f} ms)", ply
        mv = out[-1].split()[1]
        if mv == "resign":
            return 1 - side, "resign", ply
        if mv == "win":
            return (side, "declare", ply) if ref.declare() else (1 - side, "bad declare", ply)
        if not ref.push(mv):
            return 1 - side, f"illegal {mv}", ply
        moves.append(mv)
    return "draw", "max plies", MAX_PLIES


def play_logged(engines, sfen, byoyomi, grace, log, nodes=None, tag=""):
    """play_game, appending `result reason sfen moves tag` to `log` if
    given (`tag`: the game's number and engine 1's side, e.g. `7 E1
    sente`, since two games ending together may reach the log and the
    progress lines in different orders)."""
    moves = []
    result = play_game(engines, sfen, byoyomi, grace, moves, nodes)
    if log:
        with open(log, "a") as f:
            f.write(f"{result[0]}\t{result[1]}\t{sfen}\t{' '.join(moves)}\t{tag}\n")
    return result


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(w, l, d, elo0=0.0, elo1=10.0):
    n = w + l + d
    if n == 0:
        return "no games"
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = elo(s - 1.96 * se), elo(s + 1.96 * se)
    # Trinomial SPRT LLR (BayesElo-free approximation with logistic Elo).
    def prob(e):
        return 1 / (1 + 10 ** (-e / 400))
    s0, s1 = prob(elo0), prob(elo1)
    llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var) if var > 0 else 0.0
    return (f"W-L-D {w}-{l}-{d} ({n} games) score {100 * s:.1f}% "
            f"Elo {elo(s):+.1f} [{lo:+.1f}, {hi:+.1f}] (+-{(hi - lo) / 2:.1f}) "
            f"LLR({elo0:g},{elo1:g}) {llr:+.2f}")


def parse_opts(items):
    out = {}
    for it in items or []:
        k, _, v = it.partition("=")
        out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine1")
    ap.add_argument("engine2")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--byoyomi", type=int, default=100)
    ap.add_argument("--byoyomi2", type=int,
                    help="ENGINE2's byoyomi in ms, for time odds (default: --byoyomi)")
    ap.add_argument("--nodes", type=int,
                    help="play every move with `go nodes N` instead of byoyomi (search at equal nodes)")
    ap.add_argument("--grace", type=int, default=500, help="ms over byoyomi before a time loss")
    ap.add_argument("--openings", required=True)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--opt1", action="append")
    ap.add_argument("--opt2", action="append")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--offset", type=int, default=0, help="first opening index")
    ap.add_argument("--log", help="append each game (winner, reason, sfen, moves) to this file")
    args = ap.parse_args()

    openings = [l.strip() for l in open(args.openings) if l.strip() and not l.startswith("#")]
    jobs = queue.Queue()
    for g in range(args.games):
        jobs.put(g)
    lock = threading.Lock()
    tally = {"w": 0, "l": 0, "d": 0, "reasons": {}}

    def worker():
        e1 = Engine(args.engine1, {"hash": args.hash, "extra": parse_opts(args.opt1)})
        e2 = Engine(args.engine2, {"hash": args.hash, "extra": parse_opts(args.opt2)})
        while True:
            try:
                g = jobs.get_nowait()
            except queue.Empty:
                break
            sfen = openings[(args.offset + g // 2) % len(openings)]
            first_is_1 = g % 2 == 0
            pair = [e1, e2] if first_is_1 else [e2, e1]
            byo2 = args.byoyomi if args.byoyomi2 is None else args.byoyomi2
            byo = (args.byoyomi, byo2)
            byo = byo if first_is_1 else byo[::-1]
            tag = f"{g + 1} E1 {'sente' if first_is_1 else 'gote'}"
            winner, reason, plies = play_logged(pair, sfen, byo, args.grace, args.log, args.nodes,
                                                tag)
            if winner == "draw":
                res = "d"
            else:
                res = "w" if (winner == 0) == first_is_1 else "l"
            with lock:
                tally[res] += 1
                if reason not in ("end", "resign", "max plies"):
                    key = f"{'E1' if (res == 'l') else 'E2'} {reason.split()[0]}"
                    tally["reasons"][key] = tally["reasons"].get(key, 0) + 1
                n = tally["w"] + tally["l"] + tally["d"]
                print(f"game {g + 1}: E1 {'sente' if first_is_1 else 'gote'} -> {res} "
                      f"({reason}, {plies} plies)  [{tally['w']}-{tally['l']}-{tally['d']} of {n}]",
                      file=sys.stderr, flush=True)
            for e in (e1, e2):
                if not e.alive():
                    e.start()
        e1.quit()
        e2.quit()

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(summary(tally["w"], tally["l"], tally["d"]))
    if tally["reasons"]:
        print("abnormal endings:", tally["reasons"])


if __name__ == "__main__":
    main()
