#!/usr/bin/env bash
# The Python package as a new user installs it: a fresh virtual environment, the README's
# `pip install ./crates/python` (maturin comes from PyPI as the build backend) beside OpenSpiel
# (`open_spiel`, for granary.openspiel and its tests), then the pytest suite (crates/python/tests,
# against the `granary` command and OpenSpiel) and the labelling example.
#
#   scripts/test-python.sh            # venv in target/python-venv (recreated)
#
# The native module is built with the test profile (`MATURIN_PEP517_ARGS=--profile ci`: what
# the README's tests built is reused, no release build); a user's `pip install` builds release.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/python-venv
rm -rf "$venv"
python3 -m venv "$venv"
MATURIN_PEP517_ARGS="--profile ci" "$venv/bin/python" -m pip install -q --disable-pip-version-check pytest open_spiel ./crates/python
scripts/build-tests.sh ci -q
GRANARY_BIN="$PWD/target/ci/granary" "$venv/bin/python" -m pytest -q crates/python/tests
tables=$(mktemp -d)
trap 'rm -rf "$tables"' EXIT
"$venv/bin/python" crates/python/examples/label_kalah.py 10000 "$tables"
