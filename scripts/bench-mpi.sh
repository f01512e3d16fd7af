#!/usr/bin/env bash
# Communication of the distributed build, measured: for each rank count, builds a game's layers
# 0..MAX from scratch under `mpirun -np N` (oversubscribed past the cores: times then measure
# the machine's sharing, volumes stay exact) and prints, per layer of the top few, its positions,
# wall time, messages and bytes that crossed between ranks, exchange rounds, and the time rank 0
# spent in exchanges (waiting for the others included); then the whole build's wall time.
#
# Usage: scripts/bench-mpi.sh [MAX] [RANKS...] [-- GAME OPTIONS]
#   scripts/bench-mpi.sh 20 1 2 3 4 -- oware --rules awari     (the default)
#   scripts/bench-mpi.sh 22 1 2 4 -- kalah --rules standard
# Threads a rank: 2 / N rounded up (GRANARY_THREADS overrides); ranks are not bound to cores
# (OpenMPI binds each of up to 2 ranks to one core, which starves a rank of 2 threads). Needs `--features mpi`
# (built here into target/release).
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-20}
shift || true
ranks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do ranks+=("$1"); shift; done
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 3 4)
[ "${1:-}" = "--" ] && shift
game=("$@")
[ ${#game[@]} -gt 0 ] || game=(oware --rules awari)
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
cargo build --release --locked -p granary-cli --features mpi >/dev/null 2>&1
bin=target/release/granary
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in "${ranks[@]}"; do
  threads=${GRANARY_THREADS:-$(((2 + n - 1) / n))}
  rm -rf "$work/t"
  start=$(date +%s.%N)
  mpirun --oversubscribe --bind-to none -np "$n" "$bin" build "${game[@]}" --max-seeds "$max" --dir "$work/t" \
    --threads "$threads" 2>"$work/log"
  end=$(date +%s.%N)
  echo "== ${game[*]} 0..=$max on $n rank(s), $threads thread(s) each: $(echo "$end - $start" | bc) s wall"
  grep " layer " "$work/log" | tail -4 | sed -E 's/, peak anonymous memory [^;]*//; s/^/   /'
done
