#!/usr/bin/env bash
# The settings of a long Kalah search, measured: table horizon, tables in memory or mapped, hash
# size. Solves one position under each setting (2 threads) and prints the search's seconds and
# nodes, so that the cheapest settings for a larger search can be read off before it starts.
#
#   scripts/bench-horizon.sh DIR RULES SEEDS "H:MEMORY:HASH ..." [solve flags]
#
# DIR holds 6-pit tables of RULES (empty|standard) up to the largest H; MEMORY is true (copied
# into memory) or false (mapped); HASH in MiB. Example, Kalah(6,5) empty:
#   scripts/bench-horizon.sh /tables empty 5 "28:false:2048 30:false:2048 32:false:2048"
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?table directory}
rules=${2:?empty|standard}
seeds=${3:?seeds a pit}
settings=${4:?"H:MEMORY:HASH ..."}
shift 4
bin=${GRANARY:-target/release/granary}
[ -x "$bin" ] || cargo build --release -p granary-cli
printf '%-8s %-8s %-6s %10s %14s %12s %8s\n' horizon memory hash seconds nodes "M nodes/s" value
for s in $settings; do
  IFS=: read -r h mem hash <<<"$s"
  out=$("$bin" solve kalah --rules "$rules" --seeds "$seeds" --table-seeds "$h" \
    --tables-in-memory "$mem" --hash "$hash" --dir "$dir" --json "$@" 2>/dev/null)
  python3 - "$h" "$mem" "$hash" "$out" <<'PY'
import json, sys
h, mem, hash_, out = sys.argv[1:]
r = json.loads(out)
print(f"{h:<8} {mem:<8} {hash_:<6} {r['seconds']:>10.2f} {r['nodes']:>14} {r['nodes']/r['seconds']/1e6:>12.2f} {r['value']:>+8}")
PY
done
