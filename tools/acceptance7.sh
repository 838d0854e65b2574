#!/usr/bin/env bash
# Issue 7's acceptance matches for one binary (the built-in evaluation),
# two games at a time, each match alone on the machine (about 45 minutes
# for 200 games at 300 ms; 5x5 games are shorter):
#   tools/acceptance7.sh BINARY yo [GAMES [OFFSET]]    # 9x9 vs YaneuraOu's material build, 300 ms
#   tools/acceptance7.sh BINARY odds [GAMES [OFFSET]]  # the same, YaneuraOu at 1,200 ms
#   tools/acceptance7.sh BINARY 5x5 [GAMES [OFFSET]]   # 5x5 vs Fairy-Stockfish (minishogi), 300 ms
#   tools/acceptance7.sh BINARY material [GAMES [OFFSET]]  # vs its own `Evaluation Material`, 100 ms
# Both sides 1 thread, USI_Hash 64 and no time kept back for lag (match.py
# sets NetworkDelay 0 and YaneuraOu's BookFile no_book). Sparring binaries:
# ../shared/tools/build-sparring.sh. The summary is on the last lines of
# target/matches/acc7-WHAT-*.out, every game's ending in the .log beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?binary}
what=${2:?yo, odds, 5x5 or material}
games=${3:-200}
offset=${4:-0}
mkdir -p target/matches
name=target/matches/acc7-$what-$(date +%Y%m%d-%H%M)
case $what in
yo) args=(target/sparring/yo-material --byoyomi 300 --openings tools/openings/9x9.sfen) ;;
odds) args=(target/sparring/yo-material --byoyomi 300 --byoyomi2 1200 --openings tools/openings/9x9.sfen) ;;
5x5) args=(target/sparring/fairy-stockfish --opt2 USI_Variant=minishogi --byoyomi 300
           --openings tools/openings/5x5.sfen) ;;
material) args=("$bin" --opt2 Evaluation=Material --byoyomi 100 --openings tools/openings/9x9.sfen) ;;
*) echo "acceptance7.sh: no match '$what'" >&2; exit 2 ;;
esac
target/venv/bin/python tools/match.py "$bin" "${args[@]}" --games "$games" \
    --concurrency 2 --offset "$offset" --log "$name.log" > "$name.out" 2>&1
tail -2 "$name.out"
echo "reasons:"
cut -f2 "$name.log" | sed 's/ (.*//' | sort | uniq -c
