#!/usr/bin/env bash
# The retrograde builder's throughput and memory: layers 0..=MAX built from scratch RUNS times;
# each run prints every layer's positions/s and peak anonymous memory (RssAnon, sampled by the
# binary every 10 ms: the table files' pages do not count), then the median over the runs of the
# whole build's positions/s.
#
#   scripts/bench-build.sh [MAX] [RUNS] [MEMORY] [GAME ARGS...]
#       MAX     highest layer (default 22)
#       RUNS    runs (default 3)
#       MEMORY  --memory budget, e.g. 64M, or `-` for the default (default `-`)
#       GAME    default `oware --rules awari`; e.g. `kalah --rules standard`
#
# Tables go under ${BENCH_DIR:-/tmp/granary-bench}/build.* and are removed after each run.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-22}
runs=${2:-3}
memory=${3:--}
shift $(($# < 3 ? $# : 3))
game=("$@")
[ ${#game[@]} -eq 0 ] && game=(oware --rules awari)
root=${BENCH_DIR:-/tmp/granary-bench}
mkdir -p "$root"
cargo build --release -q -p granary-cli
budget=()
[ "$memory" != - ] && budget=(--memory "$memory")
rates=()
for run in $(seq "$runs"); do
  dir=$(mktemp -d "$root/build.XXXXXX")
  log=$(mktemp)
  echo "run $run: granary build ${game[*]} --max-seeds $max ${budget[*]} (${nproc:-$(nproc)} cores)"
  target/release/granary build "${game[@]}" --max-seeds "$max" --dir "$dir" "${budget[@]}" 2>"$log"
  grep -E 'layer +[0-9]+:' "$log" | sed 's/^/  /'
  summary=$(grep -E 'built [0-9]+ positions in' "$log")
  echo "  $summary"
  rates+=("$(echo "$summary" | sed -E 's/.*s \(([0-9.]+) M\/s\).*/\1/')")
  rm -rf "$dir" "$log"
done
median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "median over $runs runs: $median M positions/s (runs: ${rates[*]})"
