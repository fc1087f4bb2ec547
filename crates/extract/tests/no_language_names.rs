//! The guard: a core crate names no language. Everything language-specific lives in
//! `grammars/` (the registry crate and the language directories).
//!
//! The rule, checked over the production sources of every crate under `crates/`
//! (`src/**/*.rs` and `build.rs`, up to a file's `#[cfg(test)]` module; test-module files
//! `tests.rs`/`test.rs` and `src/**/tests/` are test data) and the
//! `[dependencies]` of their `Cargo.toml`:
//! - no string literal that *is* a language's id, name, grammar name, LSP language id or
//!   file extension, with or without a leading dot, in any case (`"py"`, `".ts"`,
//!   `"Python"`, `"typescriptreact"`);
//! - no grammar crate (`tree_sitter_python`, `tree-sitter-go`, …), anywhere in the text.
//!
//! - no string literal that *is* a language's receiver or keyword word (`"self"`,
//!   `"this"`, `"cls"`, `"Self"`, `"impl"`, `"crate"`, …: the manifests' `receivers` and
//!   keyword values of `[imports]`, plus [`KEYWORDS`]);
//! - no string literal that *contains* an ecosystem's file or folder name (`"go.mod"`,
//!   `"Cargo.toml"`, `"__init__"`, `"node_modules"`, …: the file names of the manifests'
//!   `[imports]`, plus [`ECOSYSTEM_WORDS`]),
//!
//! except the uses in [`ALLOWED`], each with its reason.
//!
//! The words come from the registry itself, so a new language is guarded without editing
//! this test. Comments may mention languages (they explain; they don't branch), and tests,
//! fixtures and examples may use them as data: those are not scanned. A literal that merely
//! *contains* a word (`"gopls"`, `"rust-analyzer"`) is fine: only whole literals count,
//! because a whole literal is what code would compare against.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn forbidden_words() -> BTreeSet<String> {
    let registry = navmap_grammars::registry();
    let mut words = BTreeSet::new();
    for lang in registry.all() {
        let m = &lang.manifest;
        words.insert(m.id.to_lowercase());
        words.insert(m.name.to_lowercase());
        for e in &m.extensions {
            words.insert(e.to_lowercase());
        }
        for (g, _) in &lang.grammars {
            words.insert(g.to_lowercase());
        }
        for g in m.grammar_for_extension.values() {
            words.insert(g.to_lowercase());
        }
        if let Some(lsp) = &m.lsp {
            words.insert(lsp.language_id.to_lowercase());
            words.extend(
                lsp.language_id_for_extension
                    .values()
                    .map(|v| v.to_lowercase()),
            );
        }
    }
    words
}

/// Whole literals that are language keywords or receiver words, beyond what the manifests
/// list (a language added later may not list them).
const KEYWORDS: &[&str] = &[
    "self", "this", "cls", "Self", "impl", "crate", "super", "__init__",
];

/// Substrings that name one ecosystem's files or folders.
const ECOSYSTEM_WORDS: &[&str] = &[
    "node_modules",
    "__init__",
    "__main__",
    "site-packages",
    "Cargo.toml",
    "go.mod",
    "package.json",
    "tsconfig",
    "pyproject",
    "setup.py",
    "composer.json",
    "pom.xml",
    "build.gradle",
    "CMakeLists",
    "compile_commands",
    "Gemfile",
    "Package.swift",
];

/// Generic uses that remain: (path suffix under `crates/`, word, why it is not language
/// knowledge).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "lsp/src/install.rs",
        "go",
        "`go` is the program of a package registry (`go install` from the Go module proxy), \
         like `npm` and `pip`: it installs whichever server a manifest's `[lsp.install] go` \
         names, and the data dir's `go/` folder holds what it writes",
    ),
    (
        "server/src/servers_cli.rs",
        "go",
        "the name of the `go install` registry in `navmap servers install`'s messages, as \
         `npm` and `pip` are",
    ),
    (
        "bench/src/tokens.rs",
        "node_modules",
        "the token bench reads a corpus (TypeScript's declaration files) from the npm packages \
         the install script put in `.tools`, and skips dependency folders when copying corpora",
    ),
    (
        "lsp/src/locate.rs",
        "node_modules",
        "the project's `node_modules/.bin` is where any project keeps its npm-installed tools; \
         servers of every language ship through npm, and issue 10 asks for this search place",
    ),
    (
        "lsp/src/pool.rs",
        "node_modules",
        "finding one source file to open for a server skips dependency folders; \
         `node_modules` is the one vendored-dependency folder a walk cannot otherwise know",
    ),
    (
        "server/src/tools/nav_common/errors.rs",
        "node_modules",
        "the same skip list of vendored-dependency folders, for a bounded file search",
    ),
    (
        "watch/src/filter.rs",
        "node_modules",
        "directories never walked or watched whatever the language: dependency caches",
    ),
    (
        "map/src/walk.rs",
        "node_modules",
        "directories never indexed whatever the language: dependency caches",
    ),
    (
        "map/src/infer.rs",
        "impl",
        "UNFINISHED: type-decoration prefixes stripped from declared types (`impl `, `dyn `, \
         `readonly `) are language words; they belong in the manifests like `receivers`",
    ),
    (
        "extract/src/alloc.rs",
        "c",
        "`extern \"C\"`: the calling convention of the allocator functions tree-sitter's \
         library calls (tree-sitter's `Allocator` type requires it), not the C language",
    ),
    (
        "bench/src/accuracy.rs",
        "c",
        "the accuracy bench asks clangd (a C/C++ server) which regions it does not analyse; the \
         files it asks about are the map's C and C++ files",
    ),
    (
        "bench/src/accuracy.rs",
        "cpp",
        "the same: the map's C++ files, for clangd's inactive regions",
    ),
    (
        "bench/src/typeshed.rs",
        "*",
        "the accuracy bench gives pyright a copy of its typeshed stubs (`.pyi`) without the \
         corpus's own packages: a measuring tool, not navmap's runtime",
    ),
    (
        "bench/src/main.rs",
        "*",
        "the bench is a measuring tool, not navmap's runtime: its corpus presets name real \
         ecosystems' config files and folders (a Python stdlib's site-packages, Cargo.toml)",
    ),
];

fn keywords() -> BTreeSet<String> {
    let mut words: BTreeSet<String> = KEYWORDS.iter().map(|w| w.to_string()).collect();
    for lang in navmap_grammars::registry().all() {
        let m = &lang.manifest;
        words.extend(m.receivers.iter().cloned());
        for (k, v) in &m.imports {
            if k.ends_with("_keyword")
                && let Some(w) = v.as_str()
            {
                words.insert(w.to_string());
            }
        }
    }
    words
}

/// Ecosystem file names: [`ECOSYSTEM_WORDS`] plus every file name (`name.ext`, no
/// placeholder) in the manifests' `[imports]`.
fn ecosystem_words() -> BTreeSet<String> {
    fn strings(v: &toml::Value, out: &mut Vec<String>) {
        match v {
            toml::Value::String(s) => out.push(s.clone()),
            toml::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            toml::Value::Table(t) => t.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    let mut words: BTreeSet<String> = ECOSYSTEM_WORDS.iter().map(|w| w.to_string()).collect();
    for lang in navmap_grammars::registry().all() {
        let mut all = Vec::new();
        for v in lang.manifest.imports.values() {
            strings(v, &mut all);
        }
        for s in all {
            let file_name = !s.contains(['{', '/', ' '])
                && s.split_once('.')
                    .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty());
            if file_name {
                words.insert(s);
            }
        }
    }
    words
}

fn allowed(file: &Path, word: &str) -> bool {
    let f = file.to_string_lossy();
    ALLOWED
        .iter()
        .any(|(suffix, w, _)| (*w == word || *w == "*") && f.ends_with(suffix))
}

fn grammar_crates() -> BTreeSet<String> {
    let registry = navmap_grammars::registry();
    let mut names = BTreeSet::new();
    for lang in registry.all() {
        for (g, _) in &lang.grammars {
            names.insert(format!("tree_sitter_{g}"));
            names.insert(format!("tree-sitter-{g}"));
        }
    }
    names
}

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !is_test_module(&path) {
            out.push(path);
        }
    }
}

/// `#[cfg(test)] mod tests;` lives in `tests.rs` (or `tests/…`): test data, not scanned.
fn is_test_module(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // Only components below the crates directory count (the checkout may live anywhere).
    let rel = path.strip_prefix(crates_dir()).unwrap_or(path);
    name == "tests.rs" || name == "test.rs" || rel.components().any(|c| c.as_os_str() == "tests")
}

/// The production part of a source file: everything before its `#[cfg(test)]` module.
fn production(text: &str) -> &str {
    match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// String literals of Rust source (plain and raw), skipping comments and char literals.
fn string_literals(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let line_of = |i: usize| src[..i].matches('\n').count() + 1;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'\'' => {
                // A char literal ('"', '\'') or a lifetime ('a): step over either.
                if b.get(i + 2) == Some(&b'\'') {
                    i += 3;
                } else if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') {
                    i += 4;
                } else {
                    i += 1;
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'#') | Some(b'"'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let mut j = i + 1;
                while b.get(j) == Some(&b'#') {
                    j += 1;
                }
                let hashes = j - i - 1;
                if b.get(j) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let start = j + 1;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = src[start..]
                    .find(&close)
                    .map(|e| start + e)
                    .unwrap_or(b.len());
                out.push((line_of(i), src[start..end].to_string()));
                i = end + close.len();
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                out.push((line_of(i), src[start..j.min(b.len())].to_string()));
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Violations as (message, the word that matched).
fn violations_in(text: &str, words: &BTreeSet<String>, crates: &BTreeSet<String>) -> Vec<String> {
    violations_with_words(text, words, crates)
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

fn violations_with_words(
    text: &str,
    words: &BTreeSet<String>,
    crates: &BTreeSet<String>,
) -> Vec<(String, String)> {
    let keywords = keywords();
    let ecosystem = ecosystem_words();
    let mut found = Vec::new();
    for (line, lit) in string_literals(text) {
        let l = lit.trim().to_lowercase();
        let bare = l.strip_prefix('.').unwrap_or(&l);
        if words.contains(bare) {
            found.push((
                format!("line {line}: string literal {lit:?}"),
                bare.to_string(),
            ));
        }
        // `"impl"`, and a prefix a parser strips (`"impl "`, `"self."`).
        let trimmed = lit.trim().trim_end_matches(['.', ':']);
        if keywords.contains(trimmed) {
            found.push((
                format!("line {line}: keyword literal {lit:?}"),
                trimmed.to_string(),
            ));
        }
        for w in &ecosystem {
            if lit.contains(w.as_str()) {
                found.push((
                    format!("line {line}: ecosystem name {w:?} in {lit:?}"),
                    w.clone(),
                ));
            }
        }
    }
    for name in crates {
        for (i, _) in text.match_indices(name.as_str()) {
            let line = text[..i].matches('\n').count() + 1;
            found.push((format!("line {line}: grammar crate {name}"), name.clone()));
        }
    }
    found
}

#[test]
fn no_core_crate_names_a_language() {
    let words = forbidden_words();
    let crates = grammar_crates();
    assert!(words.contains("py") && words.contains("go") && crates.contains("tree_sitter_python"));
    let mut problems = Vec::new();
    let mut scanned = 0;
    for entry in std::fs::read_dir(crates_dir()).unwrap().flatten() {
        let dir = entry.path();
        if !dir.join("Cargo.toml").is_file() {
            continue;
        }
        let mut files = Vec::new();
        rust_sources(&dir.join("src"), &mut files);
        if dir.join("build.rs").is_file() {
            files.push(dir.join("build.rs"));
        }
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            scanned += 1;
            for (v, word) in violations_with_words(production(&text), &words, &crates) {
                if !allowed(&file, &word) {
                    problems.push(format!("{}: {v}", file.display()));
                }
            }
        }
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
        let deps = manifest
            .split("\n[")
            .filter(|section| {
                section.starts_with("dependencies") || section.starts_with("[dependencies")
            })
            .collect::<Vec<_>>()
            .join("\n");
        for name in &crates {
            if deps.contains(name.as_str()) {
                problems.push(format!(
                    "{}: depends on {name}",
                    dir.join("Cargo.toml").display()
                ));
            }
        }
    }
    assert!(
        scanned > 10,
        "found only {scanned} source files: is the crates directory right?"
    );
    assert!(
        problems.is_empty(),
        "core crates name languages:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_guard_catches_what_it_should_and_nothing_else() {
    let words = forbidden_words();
    let crates = grammar_crates();
    let bad = r##"
        let a = "py"; let b = ".TS"; let c = r#"python"#; let d = tree_sitter_go::LANGUAGE;
    "##;
    assert_eq!(
        violations_in(bad, &words, &crates).len(),
        4,
        "{:?}",
        violations_in(bad, &words, &crates)
    );
    let fine = r#"
        // Python and Go are mentioned in comments: fine.
        /* "py" in a block comment */
        let a = "gopls"; let b = "rust-analyzer"; let c = 'r'; let d = "a \" py";
        fn f<'a>(x: &'a str) -> &'a str { x }
    "#;
    assert_eq!(violations_in(fine, &words, &crates), Vec::<String>::new());
    // Receiver words, keywords and ecosystem file names, as whole literals or inside one.
    let quirks = r#"
        if q == "self" { } if s.starts_with("impl ") { } let m = "go.mod";
        let d = "x/node_modules/.bin"; let i = "__init__.py"; let c = "Cargo.toml";
    "#;
    let v = violations_in(quirks, &words, &crates);
    for needle in [
        "\"self\"",
        "\"impl \"",
        "go.mod",
        "node_modules",
        "__init__",
        "Cargo.toml",
    ] {
        assert!(
            v.iter().any(|m| m.contains(needle)),
            "{needle} not caught: {v:?}"
        );
    }
    // Generic words that merely resemble them are fine.
    let generic = r#" let a = "selfish"; let b = "implementation"; let c = "module"; "#;
    assert_eq!(
        violations_in(generic, &words, &crates),
        Vec::<String>::new()
    );
    // Every allowance names a reason and a file that exists and still needs it.
    for (suffix, word, why) in ALLOWED {
        assert!(why.len() > 20, "{suffix}: give a reason");
        let text = std::fs::read_to_string(crates_dir().join(suffix))
            .unwrap_or_else(|_| panic!("ALLOWED names a missing file {suffix}"));
        assert!(
            violations_with_words(production(&text), &words, &crates)
                .iter()
                .any(|(_, w)| w == word || *word == "*"),
            "ALLOWED entry ({suffix}, {word}) is no longer needed: remove it"
        );
    }
}
