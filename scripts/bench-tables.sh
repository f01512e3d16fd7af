#!/usr/bin/env bash
# Builds Oware(6) awari layers 0..=MAX (default 24: 1.17e9 positions) from scratch and reports
# time, positions per second and peak memory (the build prints them; /usr/bin/time confirms RSS).
# Usage: scripts/bench-tables.sh [MAX] [DIR]      DIR defaults to a fresh directory under /tmp.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-24}
dir=${2:-$(mktemp -d /tmp/granary-bench.XXXXXX)}
cargo build --release -q -p granary-cli
rm -rf "$dir/oware-6-awari"
echo "building oware awari layers 0..=$max into $dir on $(nproc) cores"
if command -v /usr/bin/time >/dev/null; then
  /usr/bin/time -f "wall %e s, peak RSS %M KiB" target/release/granary build oware --rules awari --max-seeds "$max" --dir "$dir"
else
  target/release/granary build oware --rules awari --max-seeds "$max" --dir "$dir"
fi
