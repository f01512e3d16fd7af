#!/usr/bin/env bash
# Kalah(6,6) solved under one capture rule, every first move, over 32-seed tables (21.1 GB),
# resumable: the solve keeps what it proves in data/solves/kalah-6-6-RULES.journal, so the same
# command run again (after a stop, a reboot, on another machine with the repository's journal)
# continues where the journal ends; a finished journal answers in seconds with no tables.
#
#   scripts/solve-kalah66.sh empty|standard [extra solve flags]
#
# Tables go to $GRANARY_TABLES (else data/tables/); layers already there are used. Output
# of a long run is best sent to a log outside the repository, e.g.
#   nohup scripts/solve-kalah66.sh empty > ~/kalah66-empty.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
rules=${1:?usage: scripts/solve-kalah66.sh empty|standard [solve flags]}
shift
case $rules in empty | standard) ;; *) echo "rules: empty or standard, not $rules" >&2; exit 2 ;; esac
journal=data/solves/kalah-6-6-$rules.journal
bin=${GRANARY:-target/release/granary}
[ -x "$bin" ] || cargo build --release -p granary-cli
dir=${GRANARY_TABLES:-data/tables}
# A finished journal answers before any table is planned; otherwise the solve builds the layers
# it lacks (about 10-18 minutes on 2 cores) and resumes the search from the journal.
exec "$bin" solve kalah --seeds 6 --rules "$rules" --all-moves --table-seeds 32 --dir "$dir" \
  --journal "$journal" "$@"
