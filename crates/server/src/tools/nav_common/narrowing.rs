//! What a nav answer says about its own list: which items are test code (generic path
//! rules, [`is_test_path`]), the notes' narrowing sentence built from the call's own
//! arguments ([`nav_narrowing`]), `complete` ([`mark_incomplete`]: only the server's word,
//! absent when its list was whole) and the cursor generation.

use std::hash::{Hash, Hasher};

use serde_json::Value;

use crate::tools::Args;

/// Path rules that make a file "test code" (docs/answers.md). Generic on purpose: no
/// language's conventions by name, only the common shapes of test paths.
/// Directory names anywhere in the path.
pub const TEST_DIRS: &[&str] = &["test", "tests", "__tests__"];
/// File-name shapes: `prefix*`, `*suffix` (before the extension), `*.infix.*`.
pub const TEST_NAME_PREFIXES: &[&str] = &["test_"];
pub const TEST_NAME_SUFFIXES: &[&str] = &["_test"];
pub const TEST_NAME_INFIXES: &[&str] = &["test", "spec"];

/// Is this root-relative path test code by [`TEST_DIRS`] and the file-name rules?
pub fn is_test_path(rel: &str) -> bool {
    let mut parts: Vec<&str> = rel.split('/').collect();
    let name = parts.pop().unwrap_or("");
    if parts.iter().any(|d| TEST_DIRS.contains(d)) {
        return true;
    }
    let pieces: Vec<&str> = name.split('.').collect();
    let stem = pieces[0];
    if pieces.len() < 2 {
        return false;
    }
    TEST_NAME_PREFIXES.iter().any(|p| stem.starts_with(p))
        || TEST_NAME_SUFFIXES.iter().any(|x| stem.ends_with(x))
        || pieces[1..pieces.len() - 1]
            .iter()
            .any(|i| TEST_NAME_INFIXES.contains(i))
}

/// Is an anchor-like item (`{file, external?}`) test code?
pub fn is_test_item(v: &Value) -> bool {
    !v["external"].as_bool().unwrap_or(false) && v["file"].as_str().is_some_and(is_test_path)
}

/// The directory (`dir/`) holding most of these root-relative files, when the files are
/// in more than one directory (else a filter on it would narrow nothing). A `fileFilter`
/// suggestion names a prefix that exists in the answer, never a guessed `src/`.
pub fn busiest_dir<'f>(files: impl IntoIterator<Item = &'f str>) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for f in files {
        let dir = match f.rsplit_once('/') {
            // The first segment: the widest prefix that still splits the answer.
            Some(_) => format!("{}/", f.split('/').next().unwrap_or("")),
            None => String::new(),
        };
        match counts.iter_mut().find(|(d, _)| *d == dir) {
            Some(c) => c.1 += 1,
            None => counts.push((dir, 1)),
        }
    }
    if counts.len() < 2 {
        return None;
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts.into_iter().map(|(d, _)| d).find(|d| !d.is_empty())
}

/// Where these root-relative files are, by first path segment, the busiest first (at most
/// three): `shop/ (3), tests/ (1), main.py (1)`. Told when a `fileFilter` kept nothing,
/// so the next filter names a prefix that exists.
pub fn where_they_are<'f>(files: impl IntoIterator<Item = &'f str>) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for f in files {
        let head = match f.split_once('/') {
            Some((dir, _)) => format!("{dir}/"),
            None => f.to_string(),
        };
        match counts.iter_mut().find(|(h, _)| *h == head) {
            Some(c) => c.1 += 1,
            None => counts.push((head, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts
        .iter()
        .take(3)
        .map(|(h, n)| format!("{h} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The narrowing sentence of a nav answer's note, built from the call's own arguments so
/// that it never suggests a parameter already set: `fileFilter` (on the directory holding
/// most hits) when none was passed, `excludeTests` when the answer holds test code and it
/// was not passed, then `extra` (tool-specific, already checked by the caller).
pub fn nav_narrowing(args: &Args, items: &[Value], extra: &[String]) -> String {
    let mut ways: Vec<String> = extra.to_vec();
    if args
        .opt_str("fileFilter")
        .is_none_or(|f| f.trim().is_empty())
        && let Some(dir) = busiest_dir(
            items
                .iter()
                .filter(|v| !v["external"].as_bool().unwrap_or(false))
                .filter_map(|v| v["file"].as_str()),
        )
    {
        ways.push(format!("fileFilter:'{dir}'"));
    }
    if args.opt_bool("excludeTests") == Some(false) && items.iter().any(is_test_item) {
        ways.push("excludeTests:true".to_string());
    }
    if ways.is_empty() {
        String::new()
    } else {
        format!("Pass {} to scope", ways.join(" or "))
    }
}

/// `complete: false` when the server's list was not whole (a server still indexing, a
/// call hierarchy not followed to the end); nothing when it was. Only the server's word
/// counts: a filter is not incompleteness and a budget cut is the envelope's `truncated`,
/// so an answer never says `complete: true` next to `truncated: true` (docs/answers.md).
pub fn mark_incomplete(data: &mut Value, complete: bool) {
    if !complete {
        data["complete"] = Value::Bool(false);
    }
}

/// The cursor generation of a nav answer: a hash of its content, so a cursor from an
/// answer that has since changed is `CURSOR_STALE`, never a wrong page.
pub fn content_generation(data: &Value) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    data.to_string().hash(&mut h);
    h.finish() | 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths_by_generic_rules() {
        for t in [
            "tests/a.py",
            "pkg/test/x.go",
            "src/__tests__/a.ts",
            "store_test.go",
            "shop/test_api.py",
            "src/api.test.ts",
            "src/api.spec.js",
        ] {
            assert!(is_test_path(t), "{t}");
        }
        for t in [
            "src/api.ts",
            "testing/x.py",
            "contest.py",
            "shop/latest.py",
            "attest_x.rs",
        ] {
            assert!(!is_test_path(t), "{t}");
        }
    }

    #[test]
    fn busiest_dir_names_a_prefix_of_the_answer() {
        let files = ["shop/a.py", "shop/b.py", "tests/t.py", "main.py"];
        assert_eq!(busiest_dir(files).as_deref(), Some("shop/"));
        // All in one place: a filter would narrow nothing.
        assert_eq!(busiest_dir(["shop/a.py", "shop/b.py"]), None);
    }

    #[test]
    fn where_they_are_by_first_segment() {
        let files = [
            "shop/a.py",
            "shop/b/c.py",
            "tests/t.py",
            "main.py",
            "shop/d.py",
        ];
        assert_eq!(where_they_are(files), "shop/ (3), main.py (1), tests/ (1)");
    }
}
