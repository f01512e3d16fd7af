#!/usr/bin/env bash
# Fits the engine's learned evaluation on the exact values of the tables and writes its
# weights to crates/search/src/engine/weights.rs, with each fit's figures (the error against
# the seed difference on boards it was not fitted on).
#
#   scripts/fit-evaluation.sh OWARE_DIR KALAH_DIR [LAYERS] [PER_LAYER]
#
# OWARE_DIR holds the awari tables of 6 pits, KALAH_DIR the Kalah(6) tables of both capture
# rules, every layer of LAYERS (default 17..=24: the top of the 24-seed tables) present;
# PER_LAYER random boards a layer (default 20000). The same tables give the same file.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 OWARE_DIR KALAH_DIR [LAYERS] [PER_LAYER]" >&2; exit 2; }
oware=$1 kalah=$2 layers=${3:-17..=24} per_layer=${4:-20000}
cargo build --profile ci --locked -q -p granary-search --example fit_evaluation
fit=target/ci/examples/fit_evaluation
out=crates/search/src/engine/weights.rs
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
    echo "//! The learned evaluation's weights ([\`super::learned\`]), one constant per table kind, written"
    echo "//! by \`scripts/fit-evaluation.sh OWARE_DIR KALAH_DIR $layers $per_layer\` over tables of each kind"
    echo "//! that hold those layers; do not edit by hand."
    for spec in "$oware awari OWARE_6" "$kalah kalah-empty KALAH_6_EMPTY" "$kalah kalah-standard KALAH_6_STANDARD"; do
        read -r dir tables name <<<"$spec"
        echo
        "$fit" "$dir" "$tables" "$layers" "$per_layer" "$name" | sed -n '/^\/\/\/ /,$p'
    done
} >"$tmp"
mv "$tmp" "$out"
trap - EXIT
cargo fmt -p granary-search
echo "wrote $out"
