#!/usr/bin/env bash
# Kalah solves with the defaults, run as a new user runs them: `granary solve` with no table flags.
#   scripts/bench-defaults.sh small [RUNS]  Kalah(6,4) under both capture rules from an empty table
#                                           directory (tables built by the planner's choice), and
#                                           Kalah(6,4) standard with 24-seed tables present;
#                                           median wall time of RUNS (default 3) each.
#   scripts/bench-defaults.sh large         Kalah(6,5) under both capture rules from an empty
#                                           directory, once each (about 20 min each here).
# Prints the plan line, each run's wall time and peak memory, and the medians. Table directories
# are made under ${BENCH_DIR:-/tmp/granary-bench}; the 24-seed one is kept for later runs.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-small}
runs=${2:-3}
root=${BENCH_DIR:-/tmp/granary-bench}
mkdir -p "$root"
cargo build --release -q -p granary-cli
bin=$PWD/target/release/granary

# run LABEL DIR ARGS...: one solve, its wall time and peak RSS; the wall time is echoed last.
run() {
  local label=$1 dir=$2
  shift 2
  local log
  log=$(mktemp)
  /usr/bin/time -f 'time %e %M' "$bin" solve kalah "$@" --dir "$dir" >"$log.out" 2>"$log"
  local plan value wall rss
  plan=$(grep '^tables:' "$log" | head -1)
  value=$(grep '^value' "$log.out")
  read -r wall rss < <(grep '^time ' "$log" | awk '{print $2, $3}')
  echo "$label: ${wall} s wall, peak $((rss / 1024)) MiB; $value" >&2
  echo "  $plan" >&2
  rm -f "$log" "$log.out"
  echo "$wall"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

case $mode in
  small)
    for rules in empty standard; do
      walls=$(for _ in $(seq "$runs"); do
        dir=$(mktemp -d "$root/k64.XXXXXX")
        run "Kalah(6,4) $rules, from scratch" "$dir" --rules "$rules"
        rm -rf "$dir"
      done)
      echo "Kalah(6,4) $rules from scratch: median $(echo "$walls" | median) s over $runs runs"
    done
    kept=$root/tables24
    if [ ! -f "$kept/kalah-6-standard-owner/layer-024.tbl" ]; then
      echo "building 24-seed standard tables into $kept (once; about 3.5 min)" >&2
      "$bin" build kalah --rules standard --max-seeds 24 --dir "$kept" --quiet
    fi
    walls=$(for _ in $(seq "$runs"); do
      run "Kalah(6,4) standard, 24-seed tables present" "$kept" --rules standard
    done)
    echo "Kalah(6,4) standard with 24-seed tables present: median $(echo "$walls" | median) s over $runs runs"
    ;;
  large)
    for rules in empty standard; do
      dir=$(mktemp -d "$root/k65.XXXXXX")
      wall=$(run "Kalah(6,5) $rules, from scratch" "$dir" --rules "$rules" --seeds 5)
      rm -rf "$dir"
      echo "Kalah(6,5) $rules from scratch: $wall s"
    done
    ;;
  *)
    echo "usage: $0 small [RUNS] | large" >&2
    exit 2
    ;;
esac
