#!/usr/bin/env bash
# Drives the release binary through the match runners and analysis clients
# people use (shogiarena and cshogi from PyPI), as their users run them, and
# fails on any timeout, error game, illegal move, time loss or error line.
# Not part of `cargo test` (it needs PyPI and takes about 10 minutes).
#
#   tools/clients.sh            # installs into target/venv, builds, checks
#
# Results and logs: target/clients/.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
SHOGIARENA_VERSION="${SHOGIARENA_VERSION:-1.3.2}"
CSHOGI_VERSION="${CSHOGI_VERSION:-1.1.0}"
if [ ! -x target/venv/bin/python ]; then
    mkdir -p target
    "$PY" -m venv target/venv
fi
target/venv/bin/python -m pip install --quiet \
    "shogiarena==$SHOGIARENA_VERSION" "cshogi==$CSHOGI_VERSION"
cargo build --release --quiet
OUT=target/clients
rm -rf "$OUT"
mkdir -p "$OUT"
# A private copy: a rebuild during the checks must not swap the binary.
cp target/release/fukayomi "$OUT/fukayomi"
exec target/venv/bin/python tools/clients.py "$OUT"
