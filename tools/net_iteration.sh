#!/usr/bin/env bash
# One iteration of the 9x9 network's reinforcement loop (docs/eval-network.md,
# session 12): self-play data with the built-in network, the first games held
# out, the built-in network fine-tuned on the rest. Everything lands in
# target/ (data never go into git). Run it at the start of a session (it
# needs both cores for GAMES / 100 minutes or so), then test the result:
#   tools/match.py B B --opt1 EvalFile=$PWD/target/nn/NAME.bin --games 200 \
#     --byoyomi 100 --openings tools/openings/9x9.sfen --concurrency 2 --offset N
# and copy a network that wins to src/eval/network.bin.
# Usage: tools/net_iteration.sh NAME SEED [GAMES [HELD_OUT_GAMES]]
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?name, e.g. n16}
seed=${2:?seed}
games=${3:-6000}
held_out=${4:-300}
data=target/evaldata
mkdir -p "$data" target/nn
cargo build --release --example gensfen --example train_nn
target/release/examples/gensfen --board 9x9 --games "$games" --nodes 10000 --threads 2 \
  --seed "$seed" --out "$data/9x9-$name.tsv" > "$data/$name-gensfen.log" 2>&1
tools/split_games.py "$data/9x9-$name.tsv" "$held_out" "$data/valid-$name.tsv" "$data/train-$name.tsv"
target/release/examples/train_nn --resume builtin --epochs 3 --lr 0.01 --nlr 0.0001 \
  --out "target/nn/$name.bin" --float-out "target/nn/$name-f32.bin" \
  --valid "$data/valid-$name.tsv" "$data/train-$name.tsv" 2>&1 | tee "target/nn/$name.log"
