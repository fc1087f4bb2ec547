#!/usr/bin/env bash
# Installs the language servers used by the live tests into .tools/ (git-ignored).
# pyright and typescript-language-server are required; the others are best effort.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tools
if [ ! -x .tools/node_modules/.bin/pyright-langserver ] || [ ! -x .tools/node_modules/.bin/typescript-language-server ]; then
  npm install --prefix .tools --no-audit --no-fund --loglevel=error \
    pyright@1.1 typescript-language-server@5.3 typescript@5.9 >&2 || {
    echo "install-servers: npm install failed" >&2; exit 1; }
fi
# rust-analyzer: best effort (a fresh machine may not reach it).
if ! rust-analyzer --version >/dev/null 2>&1; then
  timeout 300 rustup component add rust-analyzer >&2 || echo "install-servers: rust-analyzer not installed (optional)" >&2
fi
exit 0
