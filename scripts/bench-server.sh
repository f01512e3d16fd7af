#!/usr/bin/env bash
# Load test of `granary serve`: builds awari 6-pit tables to 16 seeds (once, kept under
# ${BENCH_DIR:-/tmp/granary-bench}/awari16), serves them on loopback, and sends QUERIES requests from
# CLIENTS concurrent clients (crates/server/examples/load.rs); prints errors, requests/s and
# latency percentiles, and fails if any request was not answered 200.
#   scripts/bench-server.sh [CLIENTS] [QUERIES]   (defaults 200, 2000)
# PROFILE=ci builds with the test profile (a load test with debug assertions, no release build);
# figures worth recording come from the default, release.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-200}
queries=${2:-2000}
root=${BENCH_DIR:-/tmp/granary-bench}
dir=$root/awari16
profile=${PROFILE:-release}
if [ "$profile" = ci ]; then
  # What the README's tests built, with nothing compiled again.
  scripts/build-tests.sh ci -q
else
  cargo build --profile "$profile" -q -p granary-cli
  cargo build --profile "$profile" -q -p granary-server --example load
fi
bin=target/$profile/granary
"$bin" build oware --rules awari --max-seeds 16 --dir "$dir" --quiet
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --bind "127.0.0.1:$port" --dir "$dir" --prepare 0 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.1
done
"target/$profile/examples/load" "http://127.0.0.1:$port" "$clients" "$queries"
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
echo "server peak memory $((peak / 1024)) MiB"
