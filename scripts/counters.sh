#!/usr/bin/env bash
# Instructions, branch mispredictions and cache misses a position of the awari builder and a
# node of the Kalah search, counted by valgrind's cachegrind: the virtual machines this project
# runs on expose no hardware counters to `perf`. Instruction and branch counts are exact; the
# mispredictions are those of cachegrind's simple predictor (an upper bound for a modern core's)
# and the misses those of the caches it simulates.
#
#   scripts/counters.sh build [LAYER] [LL]    awari layer LAYER (default 17) built on one thread
#                                             over layers 0..LAYER-1 (built first, natively),
#                                             with a last-level cache of LL bytes (default
#                                             1 MiB: about layer 17's work and value bytes to
#                                             it as awari layer 26's to a 32 MiB L3)
#   scripts/counters.sh search [SEEDS] [LL]   Kalah(6,4) standard over SEEDS-seed tables
#                                             (default 20, built first, natively), one thread,
#                                             the plan's 128 MiB hash; LL default 32 MiB
#
# Each prints the counts a position (a node), then the functions by instructions a position (a
# node), inlined code under the function it is inlined into. BIN=<granary binary> counts another
# binary (an older commit's) over the same tables. Table directories go under
# ${BENCH_DIR:-/tmp/granary-bench}. Under cachegrind a run takes 50-100 times its native time:
# about 5 minutes for layer 17, 1 to 2 minutes for the search. LL is a power of two (cachegrind
# simulates it 16-way, with 64-byte lines).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-build}
root=${BENCH_DIR:-/tmp/granary-bench}
mkdir -p "$root"
command -v valgrind >/dev/null || {
  echo "counters.sh: valgrind not found (apt-get install valgrind)" >&2
  exit 2
}
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p granary-cli
  BIN=$PWD/target/release/granary
fi

# counts OUT UNIT N: the totals of cachegrind's file OUT divided by N (positions or nodes), then
# the instructions by source file and function.
counts() {
  local out=$1 unit=$2 n=$3
  awk -v n="$n" -v unit="$unit" '
    /^events:/ { for (i = 2; i <= NF; i++) name[i - 1] = $i }
    /^summary:/ {
      for (i = 2; i <= NF; i++) v[name[i - 1]] = $i
      printf "a %s: %.0f instructions, %.1f branches, %.2f mispredicted; ", unit, v["Ir"] / n, (v["Bc"] + v["Bi"]) / n, (v["Bcm"] + v["Bim"]) / n
      printf "%.0f data references, %.2f D1 misses, %.3f LL misses\n", (v["Dr"] + v["Dw"]) / n, (v["D1mr"] + v["D1mw"]) / n, (v["DLmr"] + v["DLmw"]) / n
    }' "$out"
  echo "instructions a $unit by source file, in the function its code is inlined into:"
  cg_annotate --show=Ir --sort=Ir --auto=no "$out" 2>/dev/null |
    awk -v n="$n" '/^ *[0-9,]+ \( *[0-9.]+%\)  / && !/PROGRAM TOTALS/ {
      count = $1; gsub(",", "", count)
      where = $0; sub(/^ *[0-9,]+ \( *[0-9.]+%\)  /, "", where); sub(/ \[[^]]*\]$/, "", where)
      file = substr(where, 1, index(where, ":") - 1)
      k = split(file, part, "/"); if (k >= 3) file = part[k - 2] "/" part[k - 1] "/" part[k]
      function_ = substr(where, index(where, ":") + 1); sub(/.*::/, "", function_)
      if (shown++ < 15) printf "  %7.1f  %s in %s\n", count / n, file, function_
    }'
}

case $mode in
  build)
    layer=${2:-17}
    ll=${3:-1048576}
    lower="$root/counters-awari"
    if [ ! -f "$lower/oware-6-awari/layer-$(printf %03d $((layer - 1))).tbl" ]; then
      "$BIN" build oware --rules awari --max-seeds $((layer - 1)) --dir "$lower" --quiet
    fi
    run="$root/counters-awari-$layer"
    rm -rf "$run"
    mkdir -p "$run/oware-6-awari"
    ln -s "$lower"/oware-6-awari/layer-*.tbl "$run/oware-6-awari/"
    out="$root/counters-build-$layer.out"
    valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --LL="$ll",16,64 \
      --cachegrind-out-file="$out" "$BIN" build oware --rules awari --max-seeds "$layer" \
      --dir "$run" --no-checkpoints --threads 1 --progress-every 1000000 2>"$run.log"
    positions=$(sed -n "s/.* layer $layer: *\([0-9]*\) positions.*/\1/p" "$run.log" | head -1)
    rm -rf "$run"
    echo "awari layer $layer, one thread, LL $ll bytes: $positions positions"
    counts "$out" position "$positions"
    ;;
  search)
    seeds=${2:-20}
    ll=${3:-33554432}
    tables="$root/tables-$seeds"
    if [ ! -f "$tables/kalah-6-standard-owner/layer-$(printf %03d "$seeds").tbl" ]; then
      "$BIN" build kalah --rules standard --max-seeds "$seeds" --dir "$tables" --quiet
    fi
    out="$root/counters-search-$seeds.out"
    log="$root/counters-search-$seeds.log"
    valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --LL="$ll",16,64 \
      --cachegrind-out-file="$out" "$BIN" solve kalah --rules standard --table-seeds "$seeds" \
      --threads 1 --dir "$tables" >"$log" 2>&1
    nodes=$(sed -n 's/^search .* s, \([0-9]*\) nodes.*/\1/p' "$log")
    echo "Kalah(6,4) standard over $seeds-seed tables, one thread, LL $ll bytes: $nodes nodes"
    counts "$out" node "$nodes"
    ;;
  *)
    echo "usage: scripts/counters.sh build [LAYER] [LL] | search [SEEDS] [LL]" >&2
    exit 2
    ;;
esac
