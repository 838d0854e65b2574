#!/usr/bin/env bash
# Creates target/venv with the perft oracles (cshogi, pyffish) used by
# tools/gen_perft_fixtures.py. Only PyPI is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x target/venv/bin/python ]; then
    mkdir -p target
    "$PY" -m venv target/venv
fi
target/venv/bin/python -m pip install --quiet --upgrade pip
target/venv/bin/python -m pip install --quiet cshogi pyffish
target/venv/bin/python -c 'import cshogi, pyffish; print("cshogi", getattr(cshogi, "__version__", "?"), "pyffish", pyffish.version())'
