#!/usr/bin/env bash
# Installs the language servers the live tests use with `navmap servers install`, into the
# git-ignored .tools/ folder of this checkout (NAVMAP_DATA_DIR=.tools: npm packages in
# .tools/npm, pip packages in the venv .tools/venv, Go programs built from the module proxy
# in .tools/go, crates built by cargo in .tools/cargo, apt packages system-wide when root,
# rustup components in the toolchain), then prints `navmap servers`.
#
# The servers the test command runs live: pyright (py), typescript-language-server (ts),
# rust-analyzer (rs), gopls (go, built with the machine's Go), clangd (c, cpp), jdtls
# (java), intelephense (php), bash-language-server (sh) and emmylua_ls (lua, built with
# cargo); and the MCP Python SDK (PyPI `mcp`, in the venv .tools/mcp-sdk) for the HTTP
# test. A language not in this
# build's registry is left out; an install that fails is reported and makes the script
# exit 1, so that CI stops before running tests against a missing server.
#
# With language ids as arguments (`bash scripts/install-servers.sh java`) only those are
# installed, and not the MCP Python SDK: to check one server's install from scratch.
set -uo pipefail
cd "$(dirname "$0")/.."
export NAVMAP_DATA_DIR="$PWD/.tools"
mkdir -p "$NAVMAP_DATA_DIR"
cargo build -q -p navmap || exit 1
navmap="${CARGO_TARGET_DIR:-target}/debug/navmap"

want=(py ts rs go c cpp java php sh lua)
only=("$@")
if (( ${#only[@]} )); then want=("${only[@]}"); fi
known=$("$navmap" servers --json | python3 -c 'import json,sys; print(" ".join(s["language"] for s in json.load(sys.stdin)["servers"]))')
langs=()
for l in "${want[@]}"; do
  if [[ " $known " == *" $l "* ]]; then langs+=("$l"); fi
done
echo "install-servers: installing ${langs[*]} into $NAVMAP_DATA_DIR" >&2
start=$(date +%s)
"$navmap" servers install "${langs[@]}"
rc=$?
# The official MCP Python SDK, the client of the streamable HTTP test
# (crates/server/tests/http.rs), in a venv of its own: never installed globally.
sdk="$NAVMAP_DATA_DIR/mcp-sdk"
if (( ${#only[@]} == 0 )) && ! "$sdk/bin/python" -c 'import mcp.client.streamable_http' 2>/dev/null; then
  echo "install-servers: installing the MCP Python SDK into $sdk" >&2
  { python3 -m venv "$sdk" && "$sdk/bin/pip" install -q 'mcp==2.3.0'; } || rc=1
fi
echo "install-servers: took $(( $(date +%s) - start ))s" >&2
"$navmap" servers >&2
exit $rc
