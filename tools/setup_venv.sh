#!/usr/bin/env bash
# Sets up the perft oracles used by tools/gen_perft_fixtures.py:
#   * target/venv       virtualenv with cshogi and pyffish (from PyPI)
#   * target/fsf_perft  a small perft driver compiled from the Fairy-Stockfish
#                       sources in the pyffish sdist (PyPI) + tools/fsf_perft.cpp
# Needs python3 (with venv), g++ (C++17) and PyPI access.  Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
CSHOGI_VERSION="${CSHOGI_VERSION:-1.1.0}"
PYFFISH_VERSION="${PYFFISH_VERSION:-0.0.90}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

if [ ! -x target/venv/bin/python ]; then
    mkdir -p target
    "$PY" -m venv target/venv
fi
target/venv/bin/python -m pip install --quiet --upgrade pip
target/venv/bin/python -m pip install --quiet "cshogi==$CSHOGI_VERSION" "pyffish==$PYFFISH_VERSION"
target/venv/bin/python -c 'import cshogi, pyffish; print("venv ok: pyffish", pyffish.version())'

# --- Fairy-Stockfish perft driver -------------------------------------------
BUILD=target/fsf-build
BIN=target/fsf_perft
STAMP="$BUILD/stamp-$PYFFISH_VERSION-$(cksum < tools/fsf_perft.cpp | cut -d' ' -f1)"
if [ -x "$BIN" ] && [ -f "$STAMP" ]; then
    echo "fsf_perft up to date"
    exit 0
fi
rm -rf "$BUILD"
mkdir -p "$BUILD"
target/venv/bin/python -m pip download --quiet --no-deps --no-binary :all: \
    --dest "$BUILD" "pyffish==$PYFFISH_VERSION"
tar -xzf "$BUILD/pyffish-$PYFFISH_VERSION.tar.gz" -C "$BUILD"
SRC="$BUILD/pyffish-$PYFFISH_VERSION/src"
# Same defines as pyffish's setup.py (LARGEBOARDS is needed for 9x9).
FLAGS="-std=c++17 -O2 -DNDEBUG -DLARGEBOARDS -DALLVARS -DPRECOMPUTED_MAGICS -DNNUE_EMBEDDING_OFF -DIS_64BIT -w"
mkdir -p "$BUILD/obj"
{ ls "$SRC"/*.cpp "$SRC"/syzygy/*.cpp "$SRC"/nnue/*.cpp "$SRC"/nnue/features/*.cpp \
    | grep -v -E '/(main|pyffish|ffishjs)\.cpp$'; echo "$PWD/tools/fsf_perft.cpp"; } \
  | xargs -P "$JOBS" -I{} sh -c 'o="'"$BUILD"'/obj/$(echo "{}" | tr / _).o"; g++ '"$FLAGS"' -I"'"$SRC"'" -c "{}" -o "$o"'
g++ -O2 -o "$BIN" "$BUILD"/obj/*.o -lpthread
touch "$STAMP"
echo "built $BIN"
