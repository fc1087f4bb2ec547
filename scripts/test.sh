#!/usr/bin/env bash
# The whole test suite from a fresh clone: installs the language servers the tests need
# with `navmap servers install` into the git-ignored .tools/ folder (NAVMAP_DATA_DIR), then
# runs every test of the workspace. The tests find the servers there themselves (no PATH
# edits); with CI set, a missing required server fails its tests instead of skipping them.
set -euo pipefail
cd "$(dirname "$0")/.."
export NAVMAP_DATA_DIR="$PWD/.tools"
if [ -n "${CI:-}" ]; then
  bash scripts/install-servers.sh
else
  bash scripts/install-servers.sh || echo "test.sh: some servers are missing; their live tests skip" >&2
fi
# README: "adding a language touches only its directory, Cargo and one registry line".
bash scripts/check-language-change.sh --self-test
cargo test --workspace --all-targets
# --all-targets leaves out doctests: the crate-doc examples are tests too.
cargo test --workspace --doc
