#!/usr/bin/env bash
# Issue 6's safety run: 1,000 games at 50 ms byoyomi, `Threads 2` on one
# side (E1) against the same binary with 1 thread, one game at a time (the
# 2-thread side needs both cores: run it on a quiet machine, about 100
# minutes). Every game's result and reason go to the log; match.py's last
# lines give W-L-D and the abnormal endings (time losses, illegal moves,
# crashes or missing bestmove), which must be none.
#   tools/safety_run.sh BINARY [GAMES [OFFSET]]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?binary}
games=${2:-1000}
offset=${3:-0}
mkdir -p target/matches
log=target/matches/safety-$(date +%Y%m%d-%H%M).log
target/venv/bin/python tools/match.py "$bin" "$bin" --opt1 Threads=2 \
    --games "$games" --byoyomi 50 --grace 200 --openings tools/openings/9x9.sfen \
    --concurrency 1 --offset "$offset" --log "$log"
echo "games logged in $log; reasons:"
cut -f2 "$log" | sed 's/ (.*//' | sort | uniq -c
