#!/usr/bin/env bash
# Builds a variant of HEAD with some constants changed, for a match:
#   tools/build_variant.sh NAME FILE 'sed-expression' [FILE 'sed-expression']...
# e.g. tools/build_variant.sh nmpcut src/search/search.rs \
#        's/^const NMP_CUT_NODES_ONLY: bool = false;/const NMP_CUT_NODES_ONLY: bool = true;/'
# The binary lands in target/bins/NAME; the source copy (one per NAME, so
# that two builds can run at once) and the build live in target/variant
# (ignored). Each expression must change its file; with
# none, HEAD itself is built. `--patch PATCH` in place of a FILE and its
# expression applies a unified diff against HEAD (`.diff`, with `patch -p1`)
# or runs a Python script on the path of src/mate/dfpn.rs (`.py`, editing
# it in place), e.g. the solver experiments of tools/mate_patches/:
#   tools/build_variant.sh stats --patch tools/mate_patches/stats.diff
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
shift
src=target/variant/src-$name
rm -rf "$src"
mkdir -p "$src" target/bins
git archive HEAD | tar -x -C "$src"
# The sources get the time of now: the build directory is shared by every
# variant, and cargo finds a build fresh when the files it was built from
# are older than it (a variant with no change, HEAD itself, then got the
# previous variant's binary).
find "$src" -type f -exec touch {} +
while [ $# -gt 0 ]; do
    file=$1 expr=$2
    shift 2
    if [ "$file" = --patch ]; then
        case $expr in
            *.diff) patch -s -p1 -d "$src" < "$expr" ;;
            *.py) python3 "$expr" "$src/src/mate/dfpn.rs" ;;
            *) echo "build_variant: $expr is neither .diff nor .py" >&2; exit 1 ;;
        esac
        continue
    fi
    before=$(md5sum "$src/$file")
    sed -i "$expr" "$src/$file"
    if [ "$(md5sum "$src/$file")" = "$before" ]; then
        echo "build_variant: '$expr' changed nothing in $file" >&2
        exit 1
    fi
done
CARGO_TARGET_DIR=$PWD/target/variant/build cargo build --release --manifest-path "$src/Cargo.toml" --quiet
cp target/variant/build/release/fukayomi "target/bins/$name"
echo "target/bins/$name: $("target/bins/$name" bench 2>&1 | tail -1)"
