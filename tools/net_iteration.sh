#!/usr/bin/env bash
# One iteration of the 9x9 network's reinforcement loop (docs/eval-network.md,
# sessions 12 and 16): self-play data with the built-in network, the first
# games held out, the built-in network fine-tuned on the rest together with
# the earlier iterations' data files given as EXTRA. Everything lands in
# target/ (data never go into git). Generation needs both cores (about 45
# minutes per 3,000 games); training takes seconds. Then test the result:
#   tools/match.py B B --opt1 EvalFile=$PWD/target/nn/NAME.bin --games 200 \
#     --byoyomi 100 --openings tools/openings/9x9.sfen --concurrency 2 --offset N
# and copy a network that wins to src/eval/network.bin.
# Usage: tools/net_iteration.sh NAME SEED [GAMES [HELD_OUT_GAMES]] [-- EXTRA.tsv...]
# e.g. session 16's n17 (data of sessions 12 and 15, seeds 1201 and 1501):
#   tools/net_iteration.sh s16 1501 3328 0 -- target/evaldata/train-s15.tsv
# (with held-out games taken from target/evaldata/valid-s15.tsv when
# HELD_OUT_GAMES is 0).
set -euo pipefail
cd "$(dirname "$0")/.."
pos=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  pos+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
name=${pos[0]:?name, e.g. n18}
seed=${pos[1]:?seed}
games=${pos[2]:-6000}
held_out=${pos[3]:-300}
for n in "$seed" "$games" "$held_out"; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "net_iteration.sh: '$n' is not a number" >&2; exit 2; }
done
if [ "$held_out" -eq 0 ] && [ "$name" = s15 ]; then
  echo "net_iteration.sh: s15 holds the held-out games; give HELD_OUT_GAMES" >&2
  exit 2
fi
data=target/evaldata
mkdir -p "$data" target/nn
cargo build --release --example gensfen --example train_nn
# An existing data file of this name is reused (whatever seed made it).
if [ ! -s "$data/9x9-$name.tsv" ]; then
  target/release/examples/gensfen --board 9x9 --games "$games" --nodes 10000 --threads 2 \
    --seed "$seed" --out "$data/9x9-$name.tsv" > "$data/$name-gensfen.log" 2>&1
fi
if [ "$held_out" -gt 0 ]; then
  tools/split_games.py "$data/9x9-$name.tsv" "$held_out" "$data/valid-$name.tsv" "$data/train-$name.tsv"
  valid=$data/valid-$name.tsv train=$data/train-$name.tsv
else
  valid=$data/valid-s15.tsv train=$data/9x9-$name.tsv
fi
target/release/examples/train_nn --resume builtin --epochs 2 --lr 0.03 --nlr 0.0001 \
  --out "target/nn/$name.bin" --float-out "target/nn/$name-f32.bin" \
  --valid "$valid" "$train" "$@" 2>&1 | tee "target/nn/$name.log"
