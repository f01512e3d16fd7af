#!/usr/bin/env bash
# The builder's thread scaling: awari layer LAYER built over layers 0..LAYER-1 (built once with
# every core, kept) with each thread count in turn, the layer removed before each run. Prints,
# a run a line, the wall and CPU time (user + system), the rate, the CPU a position, the
# speed-up and efficiency against the first count given (1 by default) and the builder's peak
# memory; then checks that every run wrote the same file, byte for byte (the builder's output
# does not depend on its threads).
#
#   scripts/bench-threads.sh [LAYER] [THREADS...]
#       LAYER    default 26
#       THREADS  default: 1, 2, 4, ... up to the machine's cores
#
# BIN=<granary binary> runs a binary already built (on a machine with no toolchain: carry it
# there). Tables go under ${BENCH_DIR:-/tmp/granary-bench}/threads (kept between runs).
set -euo pipefail
cd "$(dirname "$0")/.."
layer=${1:-26}
shift $(($# > 0 ? 1 : 0))
threads=("$@")
if [ ${#threads[@]} -eq 0 ]; then
  t=1
  while [ "$t" -le "$(nproc)" ]; do
    threads+=("$t")
    t=$((t * 2))
  done
fi
if [ -z "${BIN:-}" ]; then
  cargo build --release -q -p granary-cli
  BIN=$PWD/target/release/granary
fi
root=${BENCH_DIR:-/tmp/granary-bench}/threads
dir="$root/oware-6-awari"
file="$dir/layer-$(printf %03d "$layer").tbl"
mkdir -p "$root"
echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
if [ "$layer" -gt 0 ] && [ ! -f "$dir/layer-$(printf %03d $((layer - 1))).tbl" ]; then
  start=$SECONDS
  "$BIN" build oware --rules awari --max-seeds $((layer - 1)) --dir "$root" --quiet
  echo "layers 0..=$((layer - 1)) built in $((SECONDS - start)) s"
fi
positions=
first_wall=
sums=()
for t in "${threads[@]}"; do
  rm -rf "$file" "$file.work"
  log=$(mktemp)
  TIMEFORMAT='%R %U %S'
  { time "$BIN" build oware --rules awari --max-seeds "$layer" --threads "$t" \
    --no-checkpoints --dir "$root" --progress-every 1000000 2>"$log"; } 2>"$log.time"
  [ -n "$positions" ] ||
    positions=$(sed -n "s/.* layer $layer: *\([0-9]*\) positions.*/\1/p" "$log" | head -1)
  read -r wall user sys <"$log.time"
  peak=$(sed -n 's/.*, peak memory \([0-9.]* [KMGT]iB\).*/\1/p' "$log" | tail -1)
  [ -n "$first_wall" ] || first_wall=$wall
  sums+=("$(cksum <"$file" | cut -d' ' -f1)")
  awk -v t="$t" -v w="$wall" -v u="$user" -v s="$sys" -v p="$positions" -v f="$first_wall" \
    -v base="${threads[0]}" -v peak="$peak" 'BEGIN {
      speedup = f / w
      printf "threads %3d: wall %8.1f s, CPU %8.1f s, %6.2f M/s, %.3f CPU-us a position, speed-up %5.2f, efficiency %3.0f%%, peak memory %s\n",
        t, w, u + s, p / w / 1e6, (u + s) / p * 1e6, speedup, 100 * speedup * base / t, peak
    }'
  rm -f "$log" "$log.time"
done
if [ "$(printf '%s\n' "${sums[@]}" | sort -u | wc -l)" -ne 1 ]; then
  echo "bench-threads: layer $layer differs between thread counts: ${sums[*]}" >&2
  exit 1
fi
echo "layer $layer ($positions positions): the same file on every thread count (cksum ${sums[0]})"
