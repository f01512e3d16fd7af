#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser of user input and files (libFuzzer, `cargo fuzz`).
#   scripts/fuzz.sh [SECONDS] [TARGET...]   each target for SECONDS (default 60); default: all
# Needs the nightly toolchain (`rustup toolchain list`) and cargo-fuzz (installed if missing).
# Built with debug assertions and overflow checks, as the `ci` profile tests.
# Starts from the small committed corpus fuzz/corpus/TARGET (copied: what the run finds stays in
# a temporary directory); a crash is saved under fuzz/artifacts/TARGET and fails the run: make it
# a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(position bao_position setup_moves record header family journal resume compressed cost_model)
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in "${targets[@]}"; do
  corpus=$(mktemp -d)
  cp -r "fuzz/corpus/$target/." "$corpus/"
  # Inputs of up to 512 bytes, or as long as the longest seed (a compressed layer of several blocks).
  max_len=$(find "$corpus" -type f -printf '%s\n' | sort -n | tail -1)
  max_len=$((${max_len:-0} > 512 ? max_len : 512))
  log=$(mktemp)
  cargo +nightly fuzz run --debug-assertions "$target" "$corpus" -- \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
    2>"$log" || { tail -40 "$log" >&2; echo "fuzz: $target failed" >&2; exit 1; }
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  echo "$target: $runs executions in $seconds s ($((runs / seconds))/s), $cov, no crash"
  rm -rf "$log" "$corpus"
done
