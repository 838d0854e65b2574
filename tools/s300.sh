#!/usr/bin/env bash
# Issue 6's acceptance setting: BIN against YaneuraOu's material build at
# 300 ms byoyomi, ours on the material evaluation, 200 games from the
# balanced openings at offset 0 (colours swapped), two at a time. Needs a
# quiet machine (times, unlike node counts, depend on the load).
#   tools/s300.sh NAME [GAMES] [OFFSET]   (binary target/bins/NAME)
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 games=${2:-200} offset=${3:-0}
mkdir -p target/matches
target/venv/bin/python tools/match.py "target/bins/$name" target/sparring/yo-material \
    --opt1 Evaluation=Material --byoyomi 300 --openings tools/openings/9x9.sfen \
    --games "$games" --concurrency 2 --offset "$offset" \
    --log "target/matches/s300-$name-$offset.log" > "target/matches/s300-$name-$offset.out" 2>&1
tail -1 "target/matches/s300-$name-$offset.out"
