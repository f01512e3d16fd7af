#!/usr/bin/env bash
# Figures for table format version 2 (docs/table-format.md): builds Awari tables up to N seeds
# (default 21) and Kalah(6) standard-capture tables up to 18 seeds into DIR (default
# /tmp/granary-bench-compress; never the tables you use), then prints, for the largest layers,
# each block size (4K..1M) and compressor (zstd at levels 1, 3, 9; lz4_flex): the ratio, the
# compression speed, and the median time of one random lookup on a cold block and a warm one.
#
#   scripts/bench-compress.sh [N] [DIR]     (PROFILE=ci for the test profile; default release)
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-21}
dir=${2:-/tmp/granary-bench-compress}
profile=${PROFILE:-release}
nice cargo build --profile "$profile" -p granary-cli -p granary-tables --example bench_compress
bin=target/$profile
"$bin/granary" build oware --rules awari --max-seeds "$max" --dir "$dir" --quiet
"$bin/granary" build kalah --rules standard --max-seeds 18 --dir "$dir" --quiet
layers=()
for n in $((max - 5)) $((max - 1)) "$max"; do
  layers+=("$(printf '%s/oware-6-awari/layer-%03d.tbl' "$dir" "$n")")
done
layers+=("$dir/kalah-6-standard-owner/layer-018.tbl")
"$bin/examples/bench_compress" "${layers[@]}"
