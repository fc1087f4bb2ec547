//! Test helpers: fixture files, and facts rendered as short lines that read like a spec.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use navmap_extract::facts::{FileFacts, ImportFact};

pub fn fixture_root(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(lang)
}

pub fn read_fixture(lang: &str, rel: &str) -> String {
    let path = fixture_root(lang).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file of a fixture, root-relative, `/`-separated.
pub fn fixture_files(lang: &str) -> BTreeSet<String> {
    let root = fixture_root(lang);
    let mut out = BTreeSet::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with('.')
                || name == "target"
                || name == "node_modules"
                || name == "__pycache__"
            {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel);
            }
        }
    }
    out
}

pub fn extract_fixture(lang: &str, rel: &str) -> FileFacts {
    let registry = navmap_grammars::registry();
    let language = registry
        .by_id(lang)
        .unwrap_or_else(|| panic!("no language {lang}"));
    navmap_extract::extract_path(language, rel, &read_fixture(lang, rel))
}

pub fn extract_source(lang: &str, rel: &str, source: &str) -> FileFacts {
    let registry = navmap_grammars::registry();
    let language = registry
        .by_id(lang)
        .unwrap_or_else(|| panic!("no language {lang}"));
    navmap_extract::extract_path(language, rel, source)
}

/// `def <kind> <qualified> @<line>:<col> [pub] [parent=<qualified>]` (0-based positions).
pub fn defs(f: &FileFacts) -> Vec<String> {
    f.defs
        .iter()
        .map(|d| {
            let mut s = format!(
                "def {} {} @{}:{}",
                d.kind.as_str(),
                d.qualified_name,
                d.name_line,
                d.name_col
            );
            if d.exported {
                s.push_str(" pub");
            }
            if let Some(p) = d.parent {
                s.push_str(&format!(" parent={}", f.defs[p].qualified_name));
            }
            s
        })
        .collect()
}

/// `<kind> <qualifier>.<name> from=<qualified or <file>> @<line>` (qualifier omitted when none).
pub fn refs(f: &FileFacts) -> Vec<String> {
    f.refs
        .iter()
        .map(|r| {
            let from = r
                .from
                .map(|i| f.defs[i].qualified_name.as_str())
                .unwrap_or("<file>");
            let target = match &r.qualifier {
                Some(q) => format!("{q}|{}", r.name),
                None => r.name.clone(),
            };
            format!("{} {target} from={from} @{}", r.kind.as_str(), r.line)
        })
        .collect()
}

/// `mention <qualifier>|<name> from=<qualified or <file>> @<line>:<col>` (0-based).
pub fn mentions(f: &FileFacts) -> Vec<String> {
    f.mentions
        .iter()
        .map(|m| {
            let from = m
                .from
                .map(|i| f.defs[i].qualified_name.as_str())
                .unwrap_or("<file>");
            let target = match &m.qualifier {
                Some(q) => format!("{q}|{}", m.name),
                None => m.name.clone(),
            };
            format!("mention {target} from={from} @{}:{}", m.line, m.col)
        })
        .collect()
}

/// `import <module> [a, b as c] [as alias] [reexport] @<line>`.
pub fn imports(f: &FileFacts) -> Vec<String> {
    f.imports.iter().map(import_line).collect()
}

pub fn import_line(i: &ImportFact) -> String {
    let names: Vec<String> = i
        .names
        .iter()
        .map(|n| match &n.alias {
            Some(a) => format!("{} as {a}", n.name),
            None => n.name.clone(),
        })
        .collect();
    let mut s = format!("import {} [{}]", i.module, names.join(", "));
    if let Some(a) = &i.alias {
        s.push_str(&format!(" as {a}"));
    }
    if i.reexport {
        s.push_str(" reexport");
    }
    s.push_str(&format!(" @{}", i.line));
    s
}

/// Asserts every expected line is present, printing all lines when one is missing.
#[track_caller]
pub fn assert_has(lines: &[String], expected: &[&str]) {
    let missing: Vec<&&str> = expected
        .iter()
        .filter(|e| !lines.iter().any(|l| l == **e))
        .collect();
    assert!(missing.is_empty(), "missing {missing:#?}\nin {lines:#?}");
}

/// Asserts no line starts with any of the given prefixes.
#[track_caller]
pub fn assert_none_starts(lines: &[String], prefixes: &[&str]) {
    let found: Vec<&String> = lines
        .iter()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .collect();
    assert!(found.is_empty(), "unexpected {found:#?}");
}

/// The language of a fixture file as the map's walker decides it: by extension, with the
/// other languages' `[[claims]]` (a C++ `.h`) decided from its directory and its text.
pub fn fixture_language<'r>(
    registry: &'r navmap_language::Registry,
    lang: &str,
    file: &str,
) -> Option<&'r std::sync::Arc<navmap_language::Language>> {
    let path = fixture_root(lang).join(file);
    let dir = path.parent().unwrap().to_path_buf();
    registry.for_file(
        file,
        &|| {
            std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect()
        },
        &|| std::fs::read_to_string(&path).ok(),
    )
}
