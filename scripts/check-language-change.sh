#!/usr/bin/env bash
# Checks that the changes since <base> (a commit, default origin/main or main) only *add
# languages*: "a language is one directory". Allowed:
#   - anything under grammars/<id>/ (the language's manifest and queries);
#   - fixtures/<id>/ and fixtures/README.md (its test data and known answers);
#   - in Cargo.toml and grammars/Cargo.toml: added lines `tree-sitter-<x> = …` only
#     (the grammar crate, in the workspace's list and the registry crate's);
#   - Cargo.lock;
#   - in grammars/src/lib.rs: added lines only (the registry entry);
#   - in crates/*/tests/ and docs: added lines only (test table rows, doc table rows).
# Anything else (production code of a core crate, a removed or changed line) fails, listed.
# Usage: scripts/check-language-change.sh [base]   (exit 0 = only language additions)
#        scripts/check-language-change.sh --self-test
#   --self-test (run by scripts/test.sh, so by CI): in a scratch clone of this checkout's
#   HEAD, adds a language the way the README says (a copy of an existing one under a new
#   id: its directory, its fixture, its grammar crate in both Cargo.toml files, one registry
#   entry) and checks that this passes; then changes a core crate and checks that it fails.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--self-test" ]; then
  from=lua new=zz
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  git clone -q . "$scratch/repo"
  cd "$scratch/repo"
  commit() { git -c user.name=self-test -c user.email=self-test@localhost commit -qam "$1"; }
  cp -r "grammars/$from" "grammars/$new"
  sed -i "s/^id = \"$from\"/id = \"$new\"/" "grammars/$new/language.toml"
  cp -r "fixtures/$from" "fixtures/$new"
  sed -i "/^tree-sitter-$from = /a tree-sitter-$new = \"0.1\"" Cargo.toml
  sed -i "/^tree-sitter-$from = /a tree-sitter-$new = { workspace = true }" grammars/Cargo.toml
  # One registry entry, as the last element of the registry's vec![…].
  awk -v id="$new" '/^    \];/ && !done {
      print "        language_dir!("; print "            \"" id "\",";
      print "            [(\"" id "\", tree_sitter_" id "::LANGUAGE)],";
      print "            [\"defs\", \"refs\", \"imports\", \"bindings\"]"; print "        ),";
      done = 1 } { print }' grammars/src/lib.rs > lib.rs.new
  mv lib.rs.new grammars/src/lib.rs
  git add -A && commit "add language $new"
  if ! bash scripts/check-language-change.sh HEAD~1; then
    echo "self-test: adding language $new was not judged language-only" >&2; exit 1
  fi
  echo "// a core change" >> crates/map/src/lib.rs
  commit "touch a core crate"
  if bash scripts/check-language-change.sh HEAD~2 2>/dev/null; then
    echo "self-test: a core-crate change passed as language-only" >&2; exit 1
  fi
  echo "self-test ok: a language addition passes, a core change fails"
  exit 0
fi
base=${1:-$(git rev-parse --verify -q origin/main || git rev-parse --verify main)}
fail=0
bad() { echo "not a language-only change: $*" >&2; fail=1; }

# Lines removed (-) or added (+) in one file, without diff headers.
removed() { git diff -U0 "$base" -- "$1" | grep -E '^-' | grep -vE '^---' || true; }
added() { git diff -U0 "$base" -- "$1" | grep -E '^\+' | grep -vE '^\+\+\+' || true; }

while IFS= read -r file; do
  case "$file" in
    grammars/src/*|grammars/Cargo.toml|Cargo.toml) ;;
    grammars/*/*) continue ;;             # a language directory
    fixtures/README.md) continue ;;
    fixtures/*/*) continue ;;             # a language's fixture
    Cargo.lock) continue ;;
    crates/*/tests/*|docs/*|README.md) ;;
    *) bad "$file changed"; continue ;;
  esac
  if [ -n "$(removed "$file")" ]; then
    bad "$file: lines removed or changed:"; removed "$file" | head -5 >&2
    continue
  fi
  case "$file" in
    Cargo.toml|grammars/Cargo.toml)
      if added "$file" | grep -vqE '^\+\s*(tree-sitter-[a-z0-9_-]+\s*=.*)?$'; then
        bad "$file: added lines other than a tree-sitter grammar crate:"
        added "$file" | grep -vE '^\+\s*(tree-sitter-[a-z0-9_-]+\s*=.*)?$' | head -5 >&2
      fi ;;
    grammars/src/lib.rs)
      # Only inside the registry's vec![…]: language_dir!(…) entries.
      if added "$file" | grep -qE '^\+\s*(fn |use |pub |impl |mod |macro_rules)'; then
        bad "grammars/src/lib.rs: added code beside registry entries"
      fi ;;
  esac
done < <(git diff --name-only "$base")

if [ $fail = 0 ]; then
  echo "ok: only language additions since $(git rev-parse --short "$base")"
fi
exit $fail
