#!/usr/bin/env bash
# The solve under MPI (`--features mpi`, Debian's OpenMPI) against one process:
#
# 1. Same answers: the value and every first move's value of Kalah(6,3) under both capture
#    rules over 12-seed tables and an Oware board (4 pits, 3 seeds, awari), for 1, 2 and 3 ranks
#    (oversubscribed on 2 cores), equal to the ordinary binary's. With `full`, Kalah(6,4) under
#    both capture rules over 20-seed tables as well, and Kalah(6,5) under both rules over
#    28-seed tables (about 2 GB of tables and an hour on 2 cores). Kalah(6,4) is solved across
#    ranks in the default run too, by the fault test below.
# 2. Faults: a rank killed in the middle of a solve with a journal ends the job (no hang, exit
#    code not 0), and the same command on 2 ranks resumes from the journal to the same answer.
#
# Usage: scripts/test-mpi-solve.sh [PROFILE] [full]   (cargo profile, default `ci`). Prints
# what it checks; exits 1 on the first difference. No timing is checked.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-ci}
full=${2:-}
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
command -v mpirun >/dev/null || { echo "test-mpi-solve: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scripts/build-tests.sh "$profile" -q
cp "target/$profile/granary" "$work/granary-solo"
scripts/build-tests.sh "$profile" -q --features granary-cli/mpi
cp "target/$profile/granary" "$work/granary-mpi"
solo="$work/granary-solo"
mpi="$work/granary-mpi"

fail() { echo "test-mpi-solve: FAIL: $*" >&2; exit 1; }

# The value and the root moves of a solve's JSON report, one line.
answer() { python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["value"], [(m["move"], m.get("value"), m.get("upper")) for m in r["moves"]])'; }

every=--all-moves
cases=(
  "kalah --seeds 3 --rules standard --table-seeds 12 $every"
  "kalah --seeds 3 --rules empty --table-seeds 12 $every"
  "oware --pits 4 --seeds 3 --rules awari $every"
)
if [ "$full" = full ]; then
  cases+=("kalah --rules standard --table-seeds 20 $every"
    "kalah --rules empty --table-seeds 20 $every"
    "kalah --seeds 5 --rules standard --table-seeds 28 $every"
    "kalah --seeds 5 --rules empty --table-seeds 28 $every")
fi
for c in "${cases[@]}"; do
  read -r -a game <<<"$c"
  tables="$work/tables"
  want=$("$solo" solve "${game[@]}" --dir "$tables" --json 2>/dev/null | answer)
  for n in 1 2 3; do
    got=$(timeout 3600 mpirun --oversubscribe -np "$n" "$mpi" solve "${game[@]}" \
      --threads 1 --dir "$tables" --json 2>/dev/null | answer)
    [ "$got" = "$want" ] || fail "$c on $n rank(s): $got, one process: $want"
    echo "test-mpi-solve: $c: $n rank(s): $got"
  done
done

# A rank killed in the middle of a journaled solve; the same command resumes on 2 ranks.
journal="$work/k64.journal"
game=(kalah --rules standard --table-seeds 18)
want=$("$solo" solve "${game[@]}" --all-moves --dir "$work/tables" --json 2>/dev/null | answer)
log="$work/killed.log"
(set +e; timeout 600 mpirun --oversubscribe -np 3 "$mpi" solve "${game[@]}" --all-moves --threads 1 \
  --dir "$work/tables" --journal "$journal" --journal-min-nodes 16384 --progress-every 1 \
  --json >"$log" 2>&1; echo "exit $?" >>"$log") &
waiter=$!
# Wait for some proven bounds in the journal (a 128-byte header, 32 bytes a record).
for _ in $(seq 3000); do
  [ -e "$journal" ] && [ "$(stat -c %s "$journal")" -ge $((128 + 32 * 40)) ] && break
  sleep 0.1
done
[ "$(stat -c %s "$journal" 2>/dev/null || echo 0)" -ge $((128 + 32 * 40)) ] || fail "the journal never grew: $(cat "$log")"
victim=$(pgrep -f "^$mpi solve kalah" | sed -n 2p)
[ -n "$victim" ] || fail "no rank to kill"
kill -9 "$victim"
wait "$waiter" || true
grep -q "^exit 0$" "$log" && fail "a job with a killed rank exited 0"
grep -q "^exit 124$" "$log" && fail "a job with a killed rank hung"
echo "test-mpi-solve: a rank killed mid-solve ended the job: $(grep -m1 "exited on signal" "$log" | sed 's/^ *//')"
report=$(timeout 1200 mpirun --oversubscribe -np 2 "$mpi" solve "${game[@]}" --all-moves --threads 1 \
  --dir "$work/tables" --journal "$journal" --journal-min-nodes 16384 --json 2>/dev/null)
got=$(answer <<<"$report")
[ "$got" = "$want" ] || fail "resumed on 2 ranks: $got, one process: $want"
loaded=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["journal"]["loaded"])' <<<"$report")
[ "$loaded" -gt 0 ] || fail "the resumed solve loaded nothing from the journal"
echo "test-mpi-solve: resumed on 2 ranks from $loaded journal positions: $got"
echo "test-mpi-solve: all passed"
