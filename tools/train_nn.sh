#!/usr/bin/env bash
# The 9x9 network's training step (docs/eval-network.md): examples/train_nn.rs
# with its defaults (16 hidden values a side over the relative features, 2
# epochs, the linear part at lr 0.1), from the built-in linear weights, on
# self-play data of examples/gensfen.rs (which plays with the built-in
# network unless given --eval-file), measuring the loss on held-out games.
# Usage: tools/train_nn.sh OUT.bin VALID.tsv DATA.tsv...
#   e.g. tools/train_nn.sh target/nn/net.bin target/evaldata/valid-s12.tsv \
#          target/evaldata/9x9-s{8,9,10,11,13}.tsv target/evaldata/train-s12.tsv
# Then: a match against the built-in network (tools/match.py B B --opt1
# EvalFile=$PWD/OUT.bin ...); a kept network is copied to src/eval/network.bin.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?output network file}
VALID=${2:?held-out data file}
shift 2
mkdir -p "$(dirname "$OUT")"
cargo build --release --example train_nn
target/release/examples/train_nn --init builtin --out "$OUT" --float-out "${OUT%.bin}-f32.bin" \
  --valid "$VALID" "$@" 2>&1 | tee "${OUT%.bin}.log"
