#!/usr/bin/env bash
# The distributed build under MPI (`--features mpi`, Debian's OpenMPI) against one process:
#
# 1. Identical bytes: Oware awari and abapa and Kalah 6-pit (both capture rules), each built by
#    the ordinary binary and by `mpirun -np N` for N = 1, 2, 3 (oversubscribed on 2 cores), and
#    by 3 ranks with a 1 MiB budget each (several blocks a rank, messages spilled to files);
#    every file compared byte for byte, nothing but tables left behind. On the default budget the
#    ranks look the exits up from the ranks that hold the lower layers; in 1 MiB each rank reads
#    them in tiles (checked from the layer lines).
# 2. Faults: a rank killed mid-build ends the job (no hang, mpirun names the rank, exit code not
#    0), and the same command with another rank count resumes after the last finished layer, to
#    the same bytes; with the same ranks, after the layer's checkpoints, it resumes the layer at
#    their phase, to the same bytes; ranks that see different table directories stop with exit
#    code 2 and a message that says so.
#
# Usage: scripts/test-mpi.sh [PROFILE]   (cargo profile, default `ci`). Prints what it checks;
# exits 1 on the first difference. No timing is checked.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-ci}
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
command -v mpirun >/dev/null || { echo "test-mpi: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The ordinary binary first (the reference), then the MPI one over it.
scripts/build-tests.sh "$profile"
cp "target/$profile/granary" "$work/granary-solo"
scripts/build-tests.sh "$profile" --features granary-cli/mpi
cp "target/$profile/granary" "$work/granary-mpi"
solo="$work/granary-solo"
mpi="$work/granary-mpi"
run() { timeout 600 mpirun --oversubscribe -np "$1" "$mpi" build "${@:2}" --threads 1 --quiet; }

fail() { echo "test-mpi: FAIL: $*" >&2; exit 1; }

# Every file of $1 is in $2 with the same bytes, and $2 holds nothing else but the lock.
same() {
  local a=$1 b=$2 f
  for f in "$a"/*/*; do
    cmp -s "$f" "$b/${f#"$a"/}" || fail "$b/${f#"$a"/} differs from $f"
  done
  for f in "$b"/*/* "$b"/*/.[!.]*; do
    [ -e "$f" ] || continue
    case $f in */.lock) ;; *) [ -e "$a/${f#"$b"/}" ] || fail "left behind: $f" ;; esac
  done
}

cases=(
  "oware --rules awari:14"
  "oware --rules abapa:13"
  "kalah --rules standard:14"
  "kalah --rules empty:14"
)
for c in "${cases[@]}"; do
  read -r -a game <<<"${c%%:*}"
  max=${c##*:}
  ref="$work/ref"
  rm -rf "$ref"
  "$solo" build "${game[@]}" --max-seeds "$max" --dir "$ref" --quiet
  for n in 1 2 3; do
    rm -rf "$work/n"
    run "$n" "${game[@]}" --max-seeds "$max" --dir "$work/n"
    same "$ref" "$work/n"
    echo "test-mpi: ${game[*]} 0..=$max: $n rank(s): identical"
  done
  rm -rf "$work/n"
  run 3 "${game[@]}" --max-seeds "$max" --dir "$work/n" --memory 1M
  same "$ref" "$work/n"
  echo "test-mpi: ${game[*]} 0..=$max: 3 ranks in 1 MiB each: identical"
done

# The runs above on the default budget look exits up from the ranks that hold them; with 1 MiB each
# rank reads every lower layer in tiles. Both show in the layer lines.
rm -rf "$work/n"
out=$(timeout 600 mpirun --oversubscribe -np 3 "$mpi" build oware --rules awari --max-seeds 12 --dir "$work/n" --threads 1 2>&1)
grep -q "ranks looked up [1-9][0-9]* lower-layer entries of each other" <<<"$out" ||
  fail "3 ranks on the default budget did not look exits up from their owners: $(tail -1 <<<"$out")"
rm -rf "$work/n"
out=$(timeout 600 mpirun --oversubscribe -np 3 "$mpi" build oware --rules awari --max-seeds 12 --dir "$work/n" --threads 1 --memory 1M 2>&1)
grep -q "lower layers read in [0-9]* tiles" <<<"$out" ||
  fail "3 ranks in 1 MiB did not read the lower layers in tiles: $(tail -1 <<<"$out")"
echo "test-mpi: 3 ranks look exits up from the ranks that hold them; in 1 MiB each, tiles"

# A rank killed mid-build: the job ends, and a rerun on 2 ranks resumes to the same bytes.
ref="$work/ref"
rm -rf "$ref" "$work/k"
"$solo" build oware --rules awari --max-seeds 17 --dir "$ref" --quiet
log="$work/killed.log"
(set +e; timeout 300 mpirun --oversubscribe -np 3 "$mpi" build oware --rules awari --max-seeds 17 \
  --dir "$work/k" --threads 1 --quiet >"$log" 2>&1; echo "exit $?" >>"$log") &
waiter=$!
dir="$work/k/oware-6-awari"
# Patience for a loaded machine: the wait is for a state, not a time.
for _ in $(seq 3000); do [ -e "$dir/layer-016.tbl.tmp" ] && break; sleep 0.1; done
[ -e "$dir/layer-016.tbl.tmp" ] || fail "the build never reached layer 16"
victim=$(pgrep -f "^$mpi build oware" | sed -n 2p)
[ -n "$victim" ] || fail "no rank to kill"
kill -9 "$victim"
wait "$waiter" || true
grep -q "exited on signal 9" "$log" || fail "mpirun did not report the killed rank: $(cat "$log")"
grep -q "^exit 0$" "$log" && fail "a job with a killed rank exited 0"
grep -q "^exit 124$" "$log" && fail "a job with a killed rank hung"
[ -e "$dir/layer-016.tbl" ] && fail "layer 16 finished although a rank was killed in it"
echo "test-mpi: a rank killed in layer 16 ended the job: $(grep -m1 "exited on signal" "$log" | sed 's/^ *//')"
run 2 oware --rules awari --max-seeds 17 --dir "$work/k"
same "$ref" "$work/k"
echo "test-mpi: resumed on 2 ranks after the kill: identical"

# A rank killed after its layer's checkpoints: the same command resumes the layer from them (every
# rank at the same phase) and writes the same bytes.
rm -rf "$work/c"
log="$work/checkpointed.log"
args=(oware --rules awari --max-seeds 17 --dir "$work/c" --threads 1 --memory 1G --checkpoint-every 0)
(set +e; timeout 300 mpirun --oversubscribe -np 3 "$mpi" build "${args[@]}" --quiet >"$log" 2>&1
  echo "exit $?" >>"$log") &
waiter=$!
work17="$work/c/oware-6-awari/layer-017.tbl.work"
checkpoints() { find "$work17" -maxdepth 1 -name 'r*.resume' 2>/dev/null | wc -l; }
saving() { find "$work17" -maxdepth 1 -name '*.resume.tmp' 2>/dev/null | wc -l; }
for _ in $(seq 3000); do [ "$(checkpoints)" = 3 ] && [ "$(saving)" = 0 ] && break; sleep 0.05; done
[ "$(checkpoints)" = 3 ] || fail "the ranks never checkpointed layer 17"
victim=$(pgrep -f "^$mpi build oware" | sed -n 3p)
[ -n "$victim" ] || fail "no rank to kill"
kill -9 "$victim"
wait "$waiter" || true
[ -e "$work/c/oware-6-awari/layer-017.tbl" ] && fail "layer 17 finished although a rank was killed in it"
out=$(timeout 600 mpirun --oversubscribe -np 3 "$mpi" build "${args[@]}" 2>&1)
grep -q "layer 17: .*resumed from its checkpoint at phase" <<<"$out" ||
  fail "3 ranks did not resume layer 17 from their checkpoints: $(grep 'layer 17' <<<"$out")"
same "$ref" "$work/c"
echo "test-mpi: a rank killed in layer 17 after its checkpoints: resumed at phase $(grep -o 'layer 17: .*resumed from its checkpoint at phase [0-9]*' <<<"$out" | grep -o '[0-9]*$'), identical"

# Ranks that see different directories: a clear error, exit code 2, no hang.
set +e
out=$(timeout 120 mpirun --oversubscribe -np 1 "$mpi" build oware --max-seeds 4 --dir "$work/a" --quiet \
  : -np 1 "$mpi" build oware --max-seeds 4 --dir "$work/b" --quiet 2>&1)
code=$?
set -e
[ "$code" = 2 ] || fail "ranks on different directories: exit $code, not 2: $out"
grep -q "granary: error: rank 1: .*shared filesystem" <<<"$out" || fail "no clear message: $out"
echo "test-mpi: ranks on different directories: exit 2, $(grep -m1 'granary: error' <<<"$out")"
echo "test-mpi: all passed"
