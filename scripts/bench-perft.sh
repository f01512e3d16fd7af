#!/usr/bin/env bash
# Perft speed of the packed engine on one core: leaves/s (bulk counted) and moves played/s,
# medians of 5 runs, for Kalah(6,4) and Oware(6,4).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench -q -p granary-rules --bench perft
