#!/usr/bin/env bash
# Oware(6) awari tables to MAX seeds: `scripts/build-oware.sh awari MAX [build flags]`.
exec "$(dirname "$0")/build-oware.sh" awari "$@"
