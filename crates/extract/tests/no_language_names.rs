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

fn violations_in(text: &str, words: &BTreeSet<String>, crates: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for (line, lit) in string_literals(text) {
        let l = lit.trim().to_lowercase();
        let bare = l.strip_prefix('.').unwrap_or(&l);
        if words.contains(bare) {
            found.push(format!("line {line}: string literal {lit:?}"));
        }
    }
    for name in crates {
        for (i, _) in text.match_indices(name.as_str()) {
            let line = text[..i].matches('\n').count() + 1;
            found.push(format!("line {line}: grammar crate {name}"));
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
            for v in violations_in(production(&text), &words, &crates) {
                problems.push(format!("{}: {v}", file.display()));
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
}
