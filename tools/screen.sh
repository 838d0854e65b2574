#!/usr/bin/env bash
# Screens several builds against one opponent on the same openings, one
# match after another (results in target/matches/screen-NAME.out):
#   tools/screen.sh OPPONENT GAMES BYOYOMI_MS OFFSET CONCURRENCY BIN... [-- MATCH_ARGS...]
# e.g. tools/screen.sh target/sparring/yo-material 60 100 500 2 \
#        target/bins/base target/bins/nmpcut -- --opt1 Evaluation=Material
set -euo pipefail
cd "$(dirname "$0")/.."
opp=$1 games=$2 byo=$3 offset=$4 conc=$5
shift 5
bins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do bins+=("$1"); shift; done
[ $# -gt 0 ] && shift
mkdir -p target/matches
for bin in "${bins[@]}"; do
    name=$(basename "$bin")
    target/venv/bin/python tools/match.py "$bin" "$opp" --games "$games" --byoyomi "$byo" \
        --openings tools/openings/9x9.sfen --concurrency "$conc" --offset "$offset" \
        --log "target/matches/screen-$name.log" "$@" > "target/matches/screen-$name.out" 2>&1
    echo "$name: $(tail -1 "target/matches/screen-$name.out")"
done
