#!/usr/bin/env bash
# The first pass over lower layers larger than memory: awari layer MAX built over layers
# 0..MAX-1 (built once, kept) in three ways, RUNS times each, in turn:
#   memory  no budget: the lower layers read at random, from the page cache;
#   budget  --memory MEMORY: the lower layers read in tiles of MEMORY/4 (crates/retrograde/src/sweep.rs);
#   capped  the same inside a memory cgroup of CGROUP bytes (page cache included), the page cache
#           dropped first: the lower layers cannot stay in memory, as on a machine too small
#           for them. Needs root and cgroup v1 or v2; skipped otherwise.
# Prints each run's layer line and the medians; a second binary OTHER (e.g. an older build) runs
# the same ways after this one, for a comparison on the same tables.
#
#   scripts/bench-sweep.sh [MAX] [MEMORY] [CGROUP] [RUNS] [OTHER]
#       defaults: 22 384M 480M 3
#
# Tables go to ${BENCH_DIR:-/tmp/granary-bench}/sweep (kept between runs of the script).
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-22}
memory=${2:-384M}
limit=${3:-480M}
runs=${4:-3}
other=${5:-}
root=${BENCH_DIR:-/tmp/granary-bench}/sweep
mkdir -p "$root"
cargo build --release -q -p granary-cli
bin=target/release/granary
"$bin" build oware --rules awari --max-seeds $((max - 1)) --dir "$root" --quiet
layer=$(printf '%s/oware-6-awari/layer-%03d.tbl' "$root" "$max")
rm -rf "$layer" "$layer".*
lower=$(du -cb "$root"/oware-6-awari/layer-*.tbl | tail -1 | cut -f1)
echo "awari layer $max over lower layers of $lower bytes; budget $memory, cgroup $limit; $(nproc) cores"

bytes() { numfmt --from=iec "$1"; }
cgroup=
if [ "$(id -u)" = 0 ]; then
  if [ -d /sys/fs/cgroup/memory ] && mkdir -p /sys/fs/cgroup/memory/granary-sweep 2>/dev/null; then
    cgroup=/sys/fs/cgroup/memory/granary-sweep
    bytes "$limit" > $cgroup/memory.limit_in_bytes
  elif [ -f /sys/fs/cgroup/cgroup.controllers ] && mkdir -p /sys/fs/cgroup/granary-sweep 2>/dev/null; then
    cgroup=/sys/fs/cgroup/granary-sweep
    bytes "$limit" > $cgroup/memory.max
  fi
fi
[ -z "$cgroup" ] && echo "no memory cgroup (needs root): the capped runs are skipped"

# One build of the layer; prints its line and appends its M/s to the array named $2.
run() {
  local way=$1 out=$2 b=$3 log
  log=$(mktemp)
  rm -rf "$layer" "$layer".*
  case $way in
    memory) "$b" build oware --rules awari --max-seeds "$max" --dir "$root" 2>"$log" ;;
    budget) "$b" build oware --rules awari --max-seeds "$max" --dir "$root" --memory "$memory" 2>"$log" ;;
    capped)
      sync
      echo 1 > /proc/sys/vm/drop_caches
      sh -c "echo \$\$ > $cgroup/cgroup.procs && exec $b build oware --rules awari --max-seeds $max --dir $root --memory $memory" 2>"$log"
      ;;
  esac
  local line
  line=$(grep -E "layer +$max:" "$log")
  echo "  $way: ${line#*: }"
  eval "$out+=(\"$(echo "$line" | sed -E 's/.*s \(([0-9.]+) M\/s\).*/\1/')\")"
  rm -f "$log"
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for b in "$bin" $other; do
  echo "$b:"
  m=() g=() c=()
  for r in $(seq "$runs"); do
    run memory m "$b"
    run budget g "$b"
    [ -n "$cgroup" ] && run capped c "$b"
  done
  echo "  medians (M positions/s): memory $(median "${m[@]}"), budget $(median "${g[@]}")$([ -n "$cgroup" ] && echo ", capped $(median "${c[@]}")")"
done
[ -n "$cgroup" ] && rmdir "$cgroup" 2>/dev/null || true
