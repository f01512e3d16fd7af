#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser of user input and files (libFuzzer, `cargo fuzz`).
#   scripts/fuzz.sh [SECONDS] [TARGET...]   each target for SECONDS (default 60); default: all
# Needs the nightly toolchain (`rustup toolchain list`) and cargo-fuzz (installed if missing).
# Starts from the small committed corpus fuzz/corpus/TARGET (copied: what the run finds stays in
# a temporary directory); a crash is saved under fuzz/artifacts/TARGET and fails the run: make it
# a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(position bao_position setup_moves header family)
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in "${targets[@]}"; do
  corpus=$(mktemp -d)
  cp -r "fuzz/corpus/$target/." "$corpus/"
  log=$(mktemp)
  cargo +nightly fuzz run "$target" "$corpus" -- \
    -max_total_time="$seconds" -max_len=512 -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
    2>"$log" || { tail -40 "$log" >&2; echo "fuzz: $target failed" >&2; exit 1; }
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  echo "$target: $runs executions in $seconds s, no crash"
  rm -rf "$log" "$corpus"
done
