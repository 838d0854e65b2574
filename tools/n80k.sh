#!/usr/bin/env bash
# The cheap screen of issue 6 (session 19): BIN against YaneuraOu's
# material build at 80,000 nodes a move for both, 200 games from the
# balanced openings at offset 1000, two at a time. Node counts do not
# depend on the load. The base (4b8b9e0) scored 68-126-6, 35.5%; session
# 21's correction tables 82-116-2, 41.5%. It has twice failed to predict
# the 300 ms result between close builds: confirm with tools/s300.sh.
#   tools/n80k.sh NAME [GAMES] [OFFSET]   (binary target/bins/NAME)
set -euo pipefail
exec "$(dirname "$0")/vs_yo.sh" n80k "--nodes 80000" "$1" "${2:-200}" "${3:-1000}"
