#!/usr/bin/env bash
# Builds a variant of HEAD's mate solver for an experiment:
#   tools/mate_variant.sh NAME PATCH [PATCH]...
# Each PATCH is a unified diff against HEAD (applied with `patch -p1` in the
# source copy) or a Python script given the path of src/mate/dfpn.rs (it
# edits the file in place; some read settings from the environment, see
# their first lines). The binary lands in target/bins/NAME; the source copy
# in target/variant/src-NAME, the build in target/variant/build (both
# ignored). The patches of session 38 are in tools/mate_patches/ (README
# "Session 38" gives what each measured), e.g.
#   tools/mate_variant.sh stats tools/mate_patches/stats.diff
#   HIST_WRITE=/tmp/pset target/bins/stats "position sfen ..." "go mate 100000"
#   HIST_READ=/tmp/pset target/bins/stats "position sfen ..." "go mate 100000"
# (stats: per-status counts of the expanded nodes; with HIST_WRITE the ids
# of the proof tree are written after the proof, and a second, identical
# run with HIST_READ attributes every expansion outside that tree to the
# deepest proof-tree node above it, and prints the 25 largest subtrees
# hanging off it with their SFEN.)
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
shift
src=target/variant/src-$name
rm -rf "$src"
mkdir -p "$src" target/bins
git archive HEAD | tar -x -C "$src"
# Fresh times: the build directory is shared by every variant.
find "$src" -type f -exec touch {} +
for p in "$@"; do
    case $p in
        *.diff) patch -s -p1 -d "$src" < "$p" ;;
        *.py) python3 "$p" "$src/src/mate/dfpn.rs" ;;
        *) echo "mate_variant: $p is neither .diff nor .py" >&2; exit 1 ;;
    esac
done
CARGO_TARGET_DIR=$PWD/target/variant/build cargo build --release --manifest-path "$src/Cargo.toml" --quiet
cp target/variant/build/release/fukayomi "target/bins/$name"
echo "target/bins/$name built"
