#!/usr/bin/env bash
# The workspace's binaries and examples, built as the README's test command builds them: every
# package at once, so the features are those `cargo test --workspace` unifies (dependencies and
# dev-dependencies of every package). After the README's tests, with the same profile, nothing is
# compiled again; `cargo build -p granary-cli` alone unifies fewer features and compiles the
# granary crates a second time. The scripts that test what the README's tests built use it.
#
#   scripts/build-tests.sh PROFILE [CARGO_BUILD_ARGS...]   (e.g. ci -q --features granary-cli/mpi)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:?usage: scripts/build-tests.sh PROFILE [CARGO_BUILD_ARGS...]}
exec cargo build --profile "$profile" --locked --workspace --bins --examples "${@:2}"
