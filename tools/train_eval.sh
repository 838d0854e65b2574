#!/usr/bin/env bash
# The learned evaluation's pipeline, one iteration per call:
#   1. self-play data with the previous iteration's weights (iteration 0: the
#      material evaluation), examples/gensfen.rs, on every board;
#   2. training from the previous weights on this iteration's and the
#      previous iteration's data, examples/train_eval.rs;
#   3. (by hand) a match against the previous weights with tools/match.py,
#      e.g. --opt1 EvalFile=$PWD/target/evaldata/weights-it1.bin; the kept
#      weights are copied to src/eval/weights.bin (built into the binary).
# Usage: tools/train_eval.sh ITER [NODES] [GAMES_9x9] [GAMES_5x5] [GAMES_3x3]
# Data, logs and weights go to target/evaldata/ (not in git).
# The figures of each kept iteration are in docs/eval.md.
set -euo pipefail
cd "$(dirname "$0")/.."
IT=${1:?iteration number}
NODES=${2:-3000}
declare -A GAMES=([9x9]=${3:-6000} [5x5]=${4:-6000} [3x3]=${5:-2000})
D=target/evaldata
mkdir -p "$D"
cargo build --release --example gensfen --example train_eval
PREV=$D/weights-it$((IT - 1)).bin
if [[ $IT == 0 ]]; then EVAL=(--material); INIT=material; else EVAL=(--eval-file "$PREV"); INIT=$PREV; fi
for B in 9x9 5x5 3x3; do
  [[ ${GAMES[$B]} == 0 ]] && continue
  OUT=$D/$B-it$IT.tsv
  [[ -s $OUT ]] || target/release/examples/gensfen --board "$B" --games "${GAMES[$B]}" \
    --nodes "$NODES" --threads "$(nproc)" --seed "$((IT * 100 + 1))" "${EVAL[@]}" --out "$OUT" \
    2> "$D/$B-it$IT.log"
done
FILES=$(ls $D/*-it"$IT".tsv $D/*-it$((IT - 1)).tsv 2>/dev/null || true)
# shellcheck disable=SC2086
target/release/examples/train_eval --init "$INIT" --out "$D/weights-it$IT.bin" $FILES \
  2>&1 | tee "$D/train-it$IT.log"
echo "weights: $D/weights-it$IT.bin"
