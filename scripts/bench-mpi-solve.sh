#!/usr/bin/env bash
# The solve under MPI, measured: one process, then `mpirun -np N` for N = 2..MAX ranks of
# THREADS threads (oversubscribed beyond the cores), on one position; prints each run's wall
# time, its nodes against the single process's (the work the ranks' separate transposition
# tables repeat) and every rank's jobs, nodes, busy and idle time.
#
#   scripts/bench-mpi-solve.sh [MAX] [THREADS] [solve flags]
#   scripts/bench-mpi-solve.sh 4 1 kalah --rules standard --table-seeds 16 --job-margin 24
#
# Default: 4 ranks of 1 thread, Kalah(6,4) standard over 16-seed tables (built into
# data/tables if missing). Needs `--features mpi` (built here) and OpenMPI.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-4}
threads=${2:-1}
shift 2 2>/dev/null || shift $#
flags=("$@")
[ ${#flags[@]} -gt 0 ] || flags=(kalah --rules standard --table-seeds 16)
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
cargo build --release --locked -q -p granary-cli --features mpi
bin=$(mktemp -d)/granary
cp target/release/granary "$bin"
summary() {
  python3 -c '
import json, sys
r = json.load(sys.stdin)
value, seconds, nodes = r["value"], r["seconds"], r["nodes"]
base = float(sys.argv[1]) if len(sys.argv) > 1 else nodes
print("value %+d: %.1f s search, %.3e nodes (%.2fx one process)" % (value, seconds, nodes, nodes / base))
for k in r.get("ranks", []):
    print("  rank %d: %d jobs (%d given up), %.3e nodes, busy %.1f s, idle %.1f s" % (
        k["rank"], k["jobs"], k["given_up"], k["nodes"], k["busy_seconds"], k["idle_seconds"]))
' "$@"
}
echo "== $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; ${flags[*]}"
one=$("$bin" solve "${flags[@]}" --threads "$((threads > 1 ? threads : $(nproc)))" --json 2>/dev/null)
echo "1 process of $((threads > 1 ? threads : $(nproc))) threads: $(summary <<<"$one")"
base=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["nodes"])' <<<"$one")
for n in $(seq 2 "$max"); do
  out=$(mpirun --oversubscribe --bind-to none -np "$n" "$bin" solve "${flags[@]}" --threads "$threads" --json 2>/dev/null)
  echo "$n ranks of $threads thread(s): $(summary "$base" <<<"$out")"
done
