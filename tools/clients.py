"""The checks of tools/clients.sh: real clients drive the engine in OUT.

Each check prints one PASS/FAIL line with what it saw; the exit status is the
number of failed checks (0 = all passed).
"""

import glob
import json
import os
import re
import sqlite3
import subprocess
import sys

import dialogue_times

OUT = os.path.abspath(sys.argv[1])
ENGINE = os.path.join(OUT, "fukayomi")
VENV_BIN = os.path.dirname(sys.executable)
SHOGIARENA = [os.path.join(VENV_BIN, "shogiarena"), "--output-dir", os.path.join(OUT, "arena")]
# usi-scripts/mate.usi: a 3-ply tsume whose answer is known.
MATE_SFEN = "sfen 3sks3/9/4S4/9/9/9/9/9/4K4 b 2G 1"
MATE_LINE = "G*5b 4a5b G*4b"
failures = []


def report(name, ok, detail):
    print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)
    if not ok:
        failures.append(name)


def run(name, args, timeout):
    """Runs a client; returns (exit code, output) or (None, output) on a timeout."""
    log = os.path.join(OUT, name + ".log")
    try:
        p = subprocess.run(args, cwd=OUT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout)
        code, text = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        code, text = None, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
    with open(log, "w") as f:
        f.write(text)
    return code, text


def bestmove_of(text):
    m = re.search(r"^bestmove (\S+)", text, re.M)
    return m.group(1) if m else None


def analyze(name, extra, allowed):
    code, text = run(name, SHOGIARENA + ["run", "analyze", ENGINE, "startpos", "--movetime", "300",
                                         "--timeout", "10", "--quiet"] + extra, 60)
    move = bestmove_of(text)
    ok = code == 0 and move is not None and (allowed is None or move in allowed)
    ok = ok and "error" not in text.lower().replace("settings.yaml", "")
    report(name, ok, f"exit {code}, bestmove {move}" + (f" (allowed {allowed})" if allowed else ""))


def mate():
    code, text = run("shogiarena-mate", SHOGIARENA + ["run", "mate", ENGINE, MATE_SFEN, "--timeout", "30"], 60)
    m = re.search(r"^moves (.*)$", text, re.M)
    line = m.group(1).strip() if m else None
    report("shogiarena-mate", code == 0 and line == MATE_LINE, f"exit {code}, moves {line!r} (expected {MATE_LINE!r})")


def sprt(games=4):
    code, text = run("shogiarena-sprt", SHOGIARENA + [
        "run", "sprt", "--games", str(games),
        "--engine", "name=fukayomi-a", f"path={ENGINE}", "tested=true",
        "--engine", "name=fukayomi-b", f"path={ENGINE}",
        "--rules", "time_control.time_ms=5000", "time_control.increment_ms=100"], 1800)
    runs = sorted(glob.glob(os.path.join(OUT, "arena", "tournament", "runs", "*", "*")))
    detail, ok = f"exit {code}", code == 0 and bool(runs)
    if runs:
        status = json.load(open(os.path.join(runs[-1], "completion_status.json")))
        results = [r for (r,) in sqlite3.connect(os.path.join(runs[-1], "game.db")).execute(
            "select game_result from game")]
        bad = [r for r in results if not re.fullmatch(r"(BLACK_WIN|WHITE_WIN|DRAW\w*)", r)]
        ok = ok and status.get("status") == "clean" and status.get("error_games") == 0 \
            and not status.get("timeouts_by_origin") and status.get("completed") == games and not bad
        detail += (f", status {status.get('status')}, completed {status.get('completed')}/{games}, "
                   f"error games {status.get('error_games')}, timeouts {status.get('timeouts_by_origin')}, "
                   f"results {results}")
    report("shogiarena-sprt", ok, detail)


def cshogi_match(name, games, byoyomi, extra):
    """Games through cshogi.cli with every dialogue logged, then the logs are
    read: go -> bestmove times against the byoyomi, and error lines."""
    wrapper = os.path.join(OUT, "engine-logged.sh")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\nexec env RUST_LOG=fukayomi=debug "{ENGINE}" 2>>"{OUT}/{name}-$$.stderr"\n')
    os.chmod(wrapper, 0o755)
    code, text = run(name, [sys.executable, "-m", "cshogi.cli", wrapper, wrapper, "--name1", "fukayomi-a",
                            "--name2", "fukayomi-b", "--games", str(games), "--byoyomi", str(byoyomi),
                            "--draw", "320"] + extra, 3600)
    ends = [l for l in text.splitlines() if l.startswith("まで")]
    illegal = sum("反則" in l for l in ends)
    timeup = sum("切れ負け" in l for l in ends)
    times, errors = dialogue_times.read(os.path.join(OUT, f"{name}-*.stderr"))
    over = sum(t > byoyomi for t in times)
    ok = code == 0 and len(ends) == games and illegal == 0 and timeup == 0 and errors == 0 and over == 0
    worst = max(times) if times else None
    report(name, ok, f"exit {code}, games {len(ends)}/{games}, illegal {illegal}, time losses {timeup}, "
                     f"error lines {errors}, moves timed {len(times)}, worst go->bestmove {worst} ms, "
                     f"over {byoyomi} ms: {over}")


analyze("shogiarena-analyze", [], None)
analyze("shogiarena-analyze-searchmoves", ["--searchmoves", "2g2f", "5i4h"], {"2g2f", "5i4h"})
mate()
sprt()
cshogi_match("cshogi", 4, 200, [])
cshogi_match("cshogi-ponder", 4, 200, ["--ponder"])
print(f"{len(failures)} failed: {', '.join(failures) or 'none'}")
sys.exit(len(failures))
