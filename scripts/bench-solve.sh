#!/usr/bin/env bash
# Kalah(6,4) from scratch under both capture rules, tables included: each run builds its tables
# into a fresh directory, then solves. Prints every run and the median of the wall times.
# Usage: scripts/bench-solve.sh [RUNS] [TABLE_SEEDS]   (defaults: 3 runs, the solver's default)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
seeds=${2:-}
cargo build --release -q -p granary-cli
bin=target/release/granary
for rules in empty standard; do
  walls=()
  for _ in $(seq "$runs"); do
    dir=$(mktemp -d /tmp/granary-solve.XXXXXX)
    args=(solve kalah --rules "$rules" --dir "$dir")
    [ -n "$seeds" ] && args+=(--table-seeds "$seeds")
    start=$(date +%s.%N)
    line=$("$bin" "${args[@]}" 2>/dev/null | grep '^search')
    end=$(date +%s.%N)
    rm -rf "$dir"
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    walls+=("$wall")
    echo "$rules: wall $wall s; $line"
  done
  median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$rules: median wall $median s over $runs runs (tables included)"
done
