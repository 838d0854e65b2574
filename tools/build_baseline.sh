#!/usr/bin/env bash
# Builds the baseline engine of issue 6 (the search as of commit 86aad38)
# into target/baseline/fukayomi-base, for self-play with tools/match.py.
# Usage: tools/build_baseline.sh [commit]
set -euo pipefail
cd "$(dirname "$0")/.."
COMMIT="${1:-86aad38}"
SRC=target/baseline/src-$COMMIT
rm -rf "$SRC"
mkdir -p "$SRC"
git archive "$COMMIT" | tar -x -C "$SRC"
CARGO_TARGET_DIR=target/baseline/build cargo build --release --manifest-path "$SRC/Cargo.toml"
cp target/baseline/build/release/fukayomi target/baseline/fukayomi-base
echo "built target/baseline/fukayomi-base from $COMMIT"
