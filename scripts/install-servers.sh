#!/usr/bin/env bash
# Installs the language servers used by the live tests into .tools/ (git-ignored), then
# prints which servers are available. pyright and typescript-language-server (+ typescript)
# are required: the script fails when npm cannot install them. rust-analyzer, gopls and
# clangd are best effort: their absence never fails the run, their tests then skip.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tools
bin=.tools/node_modules/.bin

if [ ! -x "$bin/pyright-langserver" ] || [ ! -x "$bin/typescript-language-server" ] || [ ! -x "$bin/tsserver" ]; then
  # typescript-language-server 5.x runs on node 20; 6.x needs node >= 22.
  npm install --prefix .tools --no-audit --no-fund --loglevel=error \
    pyright@1.1 typescript-language-server@5.3 typescript@5.9 >&2 || {
    echo "install-servers: npm install of pyright / typescript-language-server failed" >&2
    exit 1
  }
fi

# rust-analyzer: the rustup proxy exists even without the component, so ask it to run.
if ! rust-analyzer --version >/dev/null 2>&1; then
  if command -v rustup >/dev/null 2>&1; then
    timeout 300 rustup component add rust-analyzer >&2 ||
      echo "install-servers: rust-analyzer not installed (optional)" >&2
  fi
fi

# gopls / clangd: only when already present or NAVMAP_INSTALL_APT=1 asks for apt (large).
if [ "${NAVMAP_INSTALL_APT:-0}" = 1 ] && command -v apt-get >/dev/null 2>&1; then
  command -v gopls >/dev/null 2>&1 || timeout 600 apt-get install -y -q gopls golang-go >&2 ||
    echo "install-servers: gopls not installed (optional)" >&2
  command -v clangd >/dev/null 2>&1 || timeout 600 apt-get install -y -q clangd >&2 ||
    echo "install-servers: clangd not installed (optional)" >&2
fi

# Summary: what the live tests will run against.
export PATH="$PWD/$bin:$PATH"
for server in pyright-langserver typescript-language-server rust-analyzer gopls clangd; do
  if [ "$server" = rust-analyzer ]; then
    rust-analyzer --version >/dev/null 2>&1 && found=yes || found=no
  else
    command -v "$server" >/dev/null 2>&1 && found=yes || found=no
  fi
  echo "install-servers: $server: $([ $found = yes ] && echo available || echo missing)" >&2
done
exit 0
