#!/usr/bin/env bash
# Runs the screens listed in a file one after another, re-reading the list
# before each, so that names can be added or reordered while it runs:
#   tools/queue.sh LIST [SCREEN]   (SCREEN defaults to tools/n80k.sh)
# Each line of LIST is a binary name in target/bins, optionally followed by
# the screen to run it with (a line "stop" ends the queue). Names done are appended to LIST.done; results to LIST.results.
# Waits for any running match first (one match at a time on two cores).
set -uo pipefail
cd "$(dirname "$0")/.."
list=$1 screen=${2:-tools/n80k.sh}
touch "$list.done"
while true; do
    while pgrep -f 'tools/match.py' >/dev/null; do sleep 10; done
    name=$(grep -vxF -f "$list.done" "$list" | grep -v '^\s*$' | head -1)
    [ -z "$name" ] || [ "$name" = stop ] && break
    echo "$name" >> "$list.done"
    read -r bin script <<< "$name"
    echo "$(date +%T) $name $(${script:-$screen} "$bin")" >> "$list.results"
done
