#!/usr/bin/env bash
# One match of issue 6: target/bins/NAME (on the material evaluation)
# against YaneuraOu's material build, from the balanced 9x9 openings,
# colours swapped, two games at a time. Logs go to
# target/matches/TAG-NAME-OFFSET.{log,out}; prints the result line.
#   tools/vs_yo.sh TAG "LIMIT" NAME GAMES OFFSET
# CONCURRENCY (default 2) games at a time: 1 leaves a core free. OPT1
# (NAME=VALUE) sets one more option of ours, e.g. AspirationDelta=150.
# LIMIT is match.py's limit for both sides, e.g. "--nodes 80000" or
# "--byoyomi 300". tools/n80k.sh and tools/s300.sh are the two settings.
set -euo pipefail
cd "$(dirname "$0")/.."
tag=$1 limit=$2 name=$3 games=$4 offset=$5
mkdir -p target/matches
# shellcheck disable=SC2086 # LIMIT is two words on purpose
target/venv/bin/python tools/match.py "target/bins/$name" target/sparring/yo-material \
    --opt1 Evaluation=Material ${OPT1:+--opt1 "$OPT1"} $limit --openings tools/openings/9x9.sfen \
    --games "$games" --concurrency "${CONCURRENCY:-2}" --offset "$offset" \
    --log "target/matches/$tag-$name-$offset.log" > "target/matches/$tag-$name-$offset.out" 2>&1
tail -1 "target/matches/$tag-$name-$offset.out"
