#!/usr/bin/env bash
# Labelling rate of the Python package, the old per-position path against the batch path, side
# by side on the same positions and tables:
#
#   scripts/bench-python.sh [COUNT] [DIR]     # default 200000 positions, tables in data/tables
#
# - old: the package as it was at BASE (a git revision; default: the revision before the batch
#   API came, or HEAD while it is not committed), labelling positions written in the notation
#   with `Tablebase.values`, one library query each (what crates/python/examples/label_kalah.py
#   did);
# - new: this working tree's package, `Tablebase.values` on an (N, 12) numpy array of pit counts
#   and a side to move a row, on every core with the GIL released;
# - query: this working tree's package, `Tablebase.query` of the first QUERIES positions (default
#   2000) one `Game` each: what one call costs from Python, the answer handed over included.
#
# Both packages are built in release (maturin; target/bench-python/cargo-old and cargo-new, kept
# between runs: one target directory each, as cargo names a workspace's crates by their path
# within it, and the old package's would pass for the new one's) and installed in venvs of their
# own under target/bench-python. COUNT random Kalah(6) positions of
# 0..20 seeds (pits drawn uniformly, either side to move) are labelled from 20-seed Kalah(6)
# tables (empty capture, 226 MB; built into DIR if missing). Each path runs 3 times after a warm-up;
# the best run counts. The answers must agree position by position. Prints positions/s of each
# path and the ratio, and queries/s.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-200000}
dir=${2:-data/tables}
queries=${QUERIES:-2000}
work=$PWD/target/bench-python

if [ -z "${BASE:-}" ]; then
    # The commit that brought best_moves into the package; its parent is the old package.
    came=$(git log --format=%H -S'def best_moves' -- crates/python/python/granary/__init__.py | tail -1)
    BASE=${came:+$came^}
    BASE=${BASE:-HEAD}
fi

venv() { # venv NAME: a venv with maturin and numpy
    [ -x "$work/$1/bin/python" ] || python3 -m venv "$work/$1"
    "$work/$1/bin/python" -m pip install -q --disable-pip-version-check maturin numpy
}

wheel() { # wheel VENV CRATE_DIR: builds the package in release and installs it into VENV
    rm -rf "$work/wheels-$1"
    CARGO_TARGET_DIR="$work/cargo-$1" "$work/$1/bin/maturin" build --release --quiet \
        -m "$2/Cargo.toml" -o "$work/wheels-$1" >&2
    "$work/$1/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall \
        --no-deps "$work/wheels-$1"/*.whl
}

mkdir -p "$work"
echo "old: the package at $(git rev-parse --short "$BASE") ($BASE); new: this working tree" >&2
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$BASE" Cargo.toml Cargo.lock crates | tar -x -C "$src"
venv old
wheel old "$src/crates/python"
venv new
wheel new crates/python

"$work/new/bin/python" - "$count" "$dir" "$work/positions" <<'EOF'
import sys, time
import numpy as np
import granary

count, directory, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
started = time.perf_counter()
report = granary.Tablebase(directory, create=True).build(granary.Game("kalah"), 20)
print(f"tables {report.tables} 0..=20 in {directory}: {report.built} positions built in "
      f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
rng = np.random.default_rng(2026)
seeds = rng.integers(0, 21, size=count)
pits = np.stack([rng.multinomial(s, [1 / 12] * 12) for s in seeds]).astype(np.uint8)
to_move = rng.integers(0, 2, size=count).astype(np.uint8)
np.save(out + ".pits.npy", pits)
np.save(out + ".to_move.npy", to_move)
with open(out + ".txt", "w") as f:
    for row, side in zip(pits, to_move):
        f.write(f"{','.join(map(str, row[:6]))}/{','.join(map(str, row[6:]))} 0-0 {'SN'[side]}\n")
EOF

"$work/old/bin/python" - "$dir" "$work/positions" <<'EOF' > "$work/old.txt"
import sys, time
import granary

directory, positions = sys.argv[1], sys.argv[2]
texts = open(positions + ".txt").read().split("\n")[:-1]
tb = granary.Tablebase(directory)
tb.values("kalah", texts[:10000])  # warm-up: the layers mapped and paged in
best = None
for _ in range(3):
    started = time.perf_counter()
    values = tb.values("kalah", texts)
    took = time.perf_counter() - started
    best = took if best is None else min(best, took)
print(len(texts) / best)
print(" ".join(map(str, values)))
EOF

"$work/new/bin/python" - "$dir" "$work/positions" "$queries" <<'EOF' > "$work/new.txt"
import sys, time
import numpy as np
import granary

directory, positions, queries = sys.argv[1], sys.argv[2], int(sys.argv[3])
pits = np.load(positions + ".pits.npy")
to_move = np.load(positions + ".to_move.npy")
tb = granary.Tablebase(directory)
tb.values("kalah", pits, to_move=to_move)  # warm-up
best = None
for _ in range(3):
    started = time.perf_counter()
    labels = tb.values("kalah", pits, to_move=to_move)
    took = time.perf_counter() - started
    best = took if best is None else min(best, took)
assert labels.covered.all()
print(len(pits) / best)
print(" ".join(map(str, labels.value.tolist())))
# One query a position, from Python: the game made first, each answer handed over.
texts = open(positions + ".txt").read().split("\n")[:queries]
games = [granary.Game("kalah", position=text) for text in texts]
tb.query(games[0])  # warm-up
best = None
for _ in range(3):
    started = time.perf_counter()
    answers = [tb.query(game) for game in games]
    took = time.perf_counter() - started
    best = took if best is None else min(best, took)
assert [a.value for a in answers] == labels.value[: len(games)].tolist()
print(len(games) / best)
EOF

old_rate=$(sed -n 1p "$work/old.txt")
new_rate=$(sed -n 1p "$work/new.txt")
query_rate=$(sed -n 3p "$work/new.txt")
if [ "$(sed -n 2p "$work/old.txt")" != "$(sed -n 2p "$work/new.txt")" ]; then
    echo "the old and new paths disagree on some position" >&2
    exit 1
fi
python3 - "$count" "$old_rate" "$new_rate" "$(nproc)" "$query_rate" "$queries" <<'EOF'
import sys
count, old, new, cores = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
query, queries = float(sys.argv[5]), int(sys.argv[6])
print(f"{count} Kalah(6) positions of 0..20 seeds, {cores} cores; values agree")
print(f"old per-position path (notation, Tablebase.values): {old:12,.0f} positions/s")
print(f"new batch path (numpy, Tablebase.values):           {new:12,.0f} positions/s")
print(f"ratio: {new / old:.1f}x")
print(f"query path ({queries} positions, Tablebase.query):   {query:12,.0f} queries/s")
EOF
