#!/usr/bin/env bash
# The cheap screen of issue 6 (session 19): BIN against YaneuraOu's
# material build at 80,000 nodes a move for both, 200 games from the
# balanced openings at offset 1000, two at a time. Node counts do not
# depend on the load. The base (4b8b9e0) scored 68-126-6, 35.5%.
#   tools/n80k.sh NAME [GAMES] [OFFSET]   (binary target/bins/NAME)
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 games=${2:-200} offset=${3:-1000}
mkdir -p target/matches
target/venv/bin/python tools/match.py "target/bins/$name" target/sparring/yo-material \
    --opt1 Evaluation=Material --nodes 80000 --openings tools/openings/9x9.sfen \
    --games "$games" --concurrency 2 --offset "$offset" \
    --log "target/matches/n80k-$name-$offset.log" > "target/matches/n80k-$name-$offset.out" 2>&1
tail -1 "target/matches/n80k-$name-$offset.out"
