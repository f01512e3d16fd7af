#!/usr/bin/env bash
# Oware(6) tables of one rule set (awari or abapa) to MAX seeds (36: the Oware(6,3) start), each
# layer compressed as soon as it is built, resumable: layers already built are kept, so the same
# command run again (after a stop, on another machine) continues with the first missing layer.
#
#   scripts/build-oware.sh RULES MAX [extra build flags, e.g. --memory 13G]
#   scripts/build-awari.sh MAX [...]     (the same as RULES = awari)
#
# Tables go to $GRANARY_TABLES (else data/tables/). What the build has proven stays in the
# repository: data/builds/oware-6-RULES.txt, one line a finished layer (its entries and the
# CRC-32 of its values, from the table header), rewritten every minute while the build runs.
# A layer built again anywhere must have the same CRC (the builder writes the same bytes for
# any thread count and budget); the script says so when one does not. Send the output of a
# long run to a log outside the repository:
#   nohup scripts/build-oware.sh abapa 34 --memory 18G > ~/abapa.log 2>&1 &
# With 24 GiB, `--memory 18G` builds layer 36 in one block (13.3 GiB of work bytes). On a disk of
# about 80 GB, layers 35 and 36 fit only without checkpoints (each takes two bytes a position,
# twice while one replaces the last): add `--no-checkpoints`, and start them at the beginning of
# a working period. From nothing to 36 on 2 cores (docs/scale.md: 2 h 17 min, measured):
#   GRANARY_TABLES=<dir> nohup nice -n 10 scripts/build-awari.sh 36 --memory 18G --no-checkpoints > ~/awari.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/build-oware.sh awari|abapa MAX [build flags]"
rules=${1:?$usage}
max=${2:?$usage}
case $rules in
  awari | abapa) ;;
  *) echo "build-oware: unknown rules '$rules' (awari or abapa)" >&2; exit 2 ;;
esac
shift 2
bin=${GRANARY:-target/release/granary}
[ -x "$bin" ] || cargo build --release -p granary-cli
dir=${GRANARY_TABLES:-data/tables}
record=data/builds/oware-6-$rules.txt
mkdir -p "$(dirname "$record")"
touch "$record"

# "layer N entries E crc32 C bytes B" for every finished layer file (header fields at 16, 20, 28:
# docs/table-format.md), checked against the record's line for that layer if it has one.
record_layers() {
  local out tmp f seeds entries crc bytes old
  tmp=$(mktemp)
  for f in "$dir"/oware-6-$rules/layer-*.tbl; do
    [ -f "$f" ] || continue
    seeds=$(od -An -tu2 -j16 -N2 "$f" | tr -d ' ')
    entries=$(od -An -tu8 -j20 -N8 "$f" | tr -d ' ')
    crc=$(od -An -tx4 -j28 -N4 "$f" | tr -d ' ')
    bytes=$(stat -c %s "$f")
    old=$(grep -E "^layer $seeds " "$record" || true)
    if [ -n "$old" ] && [ "$(echo "$old" | cut -d' ' -f3-6)" != "entries $entries crc32 $crc" ]; then
      echo "build-oware: $f differs from the record ($old): a builder that is not deterministic, or a damaged file" >&2
      exit 1
    fi
    echo "layer $seeds entries $entries crc32 $crc bytes $bytes" >> "$tmp"
  done
  # Layers in the record but not on this disk stay recorded.
  out=$(cat "$tmp" "$record" | awk 'NF && !seen[$2]++' | sort -k2,2n)
  echo "$out" > "$record"
  rm -f "$tmp"
}

record_layers
"$bin" build oware --rules "$rules" --max-seeds "$max" --compress --dir "$dir" "$@" &
build=$!
trap 'kill $build 2>/dev/null || true' INT TERM
while kill -0 "$build" 2>/dev/null; do
  sleep 60
  record_layers
done
status=0
wait "$build" || status=$?
record_layers
exit "$status"
