#!/usr/bin/env bash
# Kalah speed: table builds and searches, medians of RUNS runs. Set BASE to another granary
# binary (e.g. one built from an older commit) to run it interleaved with this one, so that both
# are measured side by side on the same noisy machine.
#
#   scripts/bench-kalah.sh tables [MAX] [RUNS]       6-pit standard-capture tables 0..=MAX
#                                                    (default 24) from scratch: wall time,
#                                                    positions/s, peak RSS
#   scripts/bench-kalah.sh search [SEEDS] [RUNS]     Kalah(6,4) standard over SEEDS-seed tables
#                                                    (default 20; built once into
#                                                    $BENCH_DIR/tables-SEEDS): wall and CPU
#                                                    (user + sys) time at 1 and 2 threads
#   BASE=<bin> scripts/bench-kalah.sh side [SEEDS] [RUNS]
#                                                    the same search at one thread, this binary
#                                                    and BASE started together each run, so
#                                                    both meet the same noise (this machine's
#                                                    runs wander +-25% one after another): the
#                                                    ratio of their CPU times, and its median
#   scripts/bench-kalah.sh k65 [RUNS]                Kalah(6,5) over 28-seed tables, both capture
#                                                    rules (built once into
#                                                    $BENCH_DIR/tables28-RULES, about 2.5 min
#                                                    each), two threads: search time and nodes
#
# Table directories go under ${BENCH_DIR:-/tmp/granary-bench}.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-tables}
root=${BENCH_DIR:-/tmp/granary-bench}
mkdir -p "$root"
cargo build --release -q -p granary-cli
bins=("$PWD/target/release/granary")
[ -n "${BASE:-}" ] && bins+=("$BASE")

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

case $mode in
  tables)
    max=${2:-24}
    runs=${3:-3}
    declare -A walls
    for _ in $(seq "$runs"); do
      for bin in "${bins[@]}"; do
        dir=$(mktemp -d "$root/tables.XXXXXX")
        log=$(mktemp)
        /usr/bin/time -f 'time %e %M' "$bin" build kalah --rules standard --max-seeds "$max" \
          --dir "$dir" --quiet 2>"$log" >/dev/null
        read -r wall rss < <(grep '^time ' "$log" | awk '{print $2, $3}')
        rm -rf "$dir" "$log"
        positions=$(python3 -c "from math import comb; print(sum(comb(n + 11, 11) for n in range($max + 1)))")
        rate=$(awk -v p="$positions" -v w="$wall" 'BEGIN { printf "%.2f", p / w / 1e6 }')
        echo "$bin: layers 0..=$max, $positions positions in $wall s ($rate M/s), peak RSS $((rss / 1024)) MiB"
        walls[$bin]+="$wall "
      done
    done
    for bin in "${bins[@]}"; do
      echo "$bin: median $(echo "${walls[$bin]}" | tr ' ' '\n' | grep . | median) s over $runs runs"
    done
    ;;
  search)
    seeds=${2:-20}
    runs=${3:-3}
    dir=$root/tables-$seeds
    if [ ! -f "$dir/kalah-6-standard-owner/layer-$(printf %03d "$seeds").tbl" ]; then
      echo "building 6-pit standard tables 0..=$seeds into $dir (once)" >&2
      "${bins[0]}" build kalah --rules standard --max-seeds "$seeds" --dir "$dir" --quiet
    fi
    declare -A walls cpus
    for _ in $(seq "$runs"); do
      for threads in 1 2; do
        for bin in "${bins[@]}"; do
          log=$(mktemp)
          /usr/bin/time -f 'time %e %U %S' "$bin" solve kalah --rules standard --table-seeds "$seeds" \
            --threads "$threads" --dir "$dir" >"$log.out" 2>"$log"
          read -r wall user sys < <(grep '^time ' "$log" | awk '{print $2, $3, $4}')
          cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
          echo "$bin, $threads thread(s): $(grep '^value' "$log.out"); wall $wall s, CPU $cpu s; $(grep '^search' "$log.out")"
          rm -f "$log" "$log.out"
          walls[$bin-$threads]+="$wall "
          cpus[$bin-$threads]+="$cpu "
        done
      done
    done
    for threads in 1 2; do
      for bin in "${bins[@]}"; do
        w=$(echo "${walls[$bin-$threads]}" | tr ' ' '\n' | grep . | median)
        c=$(echo "${cpus[$bin-$threads]}" | tr ' ' '\n' | grep . | median)
        echo "$bin, $threads thread(s): median wall $w s, median CPU $c s over $runs runs"
      done
    done
    ;;
  side)
    seeds=${2:-20}
    runs=${3:-3}
    [ -n "${BASE:-}" ] || { echo "side needs BASE=<another granary binary>" >&2; exit 2; }
    dir=$root/tables-$seeds
    if [ ! -f "$dir/kalah-6-standard-owner/layer-$(printf %03d "$seeds").tbl" ]; then
      echo "building 6-pit standard tables 0..=$seeds into $dir (once)" >&2
      "${bins[0]}" build kalah --rules standard --max-seeds "$seeds" --dir "$dir" --quiet
    fi
    ratios=""
    for _ in $(seq "$runs"); do
      logs=()
      for bin in "${bins[@]}"; do
        log=$(mktemp)
        logs+=("$log")
        /usr/bin/time -f 'time %e %U %S' "$bin" solve kalah --rules standard --table-seeds "$seeds" \
          --threads 1 --dir "$dir" >"$log.out" 2>"$log" &
      done
      wait
      cpus=()
      for log in "${logs[@]}"; do
        cpus+=("$(grep '^time ' "$log" | awk '{printf "%.2f", $3 + $4}')")
        rm -f "$log" "$log.out"
      done
      ratio=$(awk -v a="${cpus[0]}" -v b="${cpus[1]}" 'BEGIN { printf "%.3f", a / b }')
      echo "side by side, 1 thread: this ${cpus[0]} s CPU, BASE ${cpus[1]} s CPU, ratio $ratio"
      ratios+="$ratio "
    done
    echo "median ratio (this / BASE) $(echo "$ratios" | tr ' ' '\n' | grep . | median) over $runs runs"
    ;;
  k65)
    runs=${2:-3}
    declare -A searches
    for rules in standard empty; do
      dir=$root/tables28-$rules
      if [ ! -f "$dir/kalah-6-$rules-owner/layer-028.tbl" ]; then
        echo "building 6-pit $rules tables 0..=28 into $dir (once)" >&2
        "${bins[0]}" build kalah --rules "$rules" --max-seeds 28 --dir "$dir" --quiet
      fi
    done
    for _ in $(seq "$runs"); do
      for rules in standard empty; do
        for bin in "${bins[@]}"; do
          log=$(mktemp)
          # Progress lines go to the log; on a failure, its end says why.
          out=$("$bin" solve kalah --rules "$rules" --seeds 5 --table-seeds 28 \
            --dir "$root/tables28-$rules" 2>"$log") || { tail -3 "$log" >&2; rm -f "$log"; exit 1; }
          rm -f "$log"
          search=$(echo "$out" | awk '/^search/ {print $2}')
          echo "$bin, Kalah(6,5) $rules: $(echo "$out" | grep '^value'); $(echo "$out" | grep '^search')"
          searches[$bin-$rules]+="$search "
        done
      done
    done
    for rules in standard empty; do
      for bin in "${bins[@]}"; do
        echo "$bin, Kalah(6,5) $rules: median search $(echo "${searches[$bin-$rules]}" | tr ' ' '\n' | grep . | median) s over $runs runs"
      done
    done
    ;;
  *)
    echo "usage: $0 tables [MAX] [RUNS] | search [SEEDS] [RUNS] | side [SEEDS] [RUNS] | k65 [RUNS]" >&2
    exit 2
    ;;
esac
