#!/usr/bin/env bash
# Issue 6's acceptance setting: BIN against YaneuraOu's material build at
# 300 ms byoyomi, 200 games from the balanced openings at offset 0, two at
# a time. Needs a quiet machine (times, unlike node counts, depend on the
# load).
#   tools/s300.sh NAME [GAMES] [OFFSET]   (binary target/bins/NAME)
set -euo pipefail
exec "$(dirname "$0")/vs_yo.sh" s300 "--byoyomi 300" "$1" "${2:-200}" "${3:-0}"
