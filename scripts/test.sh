#!/usr/bin/env bash
# The whole test suite from a fresh clone: installs the language servers the tests need
# into the git-ignored .tools/ folder, then runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-servers.sh
export PATH="$PWD/.tools/node_modules/.bin:$PATH"
cargo test --workspace --all-targets
# --all-targets leaves out doctests: the crate-doc examples are tests too.
cargo test --workspace --doc
