//! `include_path`: specifiers are file paths, searched the way a compiler searches include
//! directories. `"x"` (quotes already stripped) is tried in the importer's directory first,
//! then in the include directories; `<x>` (angle brackets kept by the query) only in the
//! include directories, and is otherwise an external header named by the whole specifier
//! (`<sys/types.h>` → `sys/types.h`). A quoted specifier found nowhere is `Unresolved` (a
//! generated header, or one the project gets from elsewhere).
//!
//! Include directories come from the flags files (`flags_files`: a compilation database,
//! JSON, whose entries give `directory` and `arguments`/`command`; or a plain file with one
//! flag per line, relative to its own directory), reading the flags named in
//! `include_flags` (`-Iinclude` or `-I include`); then the common layouts `include_dirs`
//! relative to the repository root. Directories outside the root are ignored.

use super::repo::{Repo, dirname, join, normalize};
use super::rules::Rules;
use crate::ImportTarget;

pub struct IncludePath {
    /// Root-relative directories, in search order, without duplicates.
    dirs: Vec<String>,
}

impl IncludePath {
    pub fn new(rules: &Rules, repo: &Repo, read: &dyn Fn(&str) -> Option<String>) -> IncludePath {
        let mut dirs: Vec<String> = Vec::new();
        let mut push = |d: Option<String>| {
            if let Some(d) = d
                && repo.is_dir(&d)
                && !dirs.contains(&d)
            {
                dirs.push(d);
            }
        };
        for file in repo.named(&rules.flags_files) {
            let Some(text) = read(file) else { continue };
            let base = dirname(file);
            if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) {
                for entry in json.as_array().into_iter().flatten() {
                    let dir = entry
                        .get("directory")
                        .and_then(|d| d.as_str())
                        .unwrap_or(".");
                    let Some(dir) = relative_dir(base, dir) else {
                        continue;
                    };
                    let args: Vec<String> = match entry.get("arguments").and_then(|a| a.as_array())
                    {
                        Some(a) => a
                            .iter()
                            .filter_map(|s| s.as_str().map(str::to_string))
                            .collect(),
                        None => entry
                            .get("command")
                            .and_then(|c| c.as_str())
                            .map(|c| c.split_whitespace().map(str::to_string).collect())
                            .unwrap_or_default(),
                    };
                    for d in include_args(&rules.include_flags, &args) {
                        push(relative_dir(&dir, &d));
                    }
                }
            } else {
                let args: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
                for d in include_args(&rules.include_flags, &args) {
                    push(relative_dir(base, &d));
                }
            }
        }
        for d in &rules.include_dirs {
            push(normalize(d));
        }
        IncludePath { dirs }
    }

    pub fn resolve(&self, rules: &Rules, repo: &Repo, from: &str, spec: &str) -> ImportTarget {
        let (system, path) = match spec.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
            Some(inner) => (true, inner.trim()),
            None => (false, spec),
        };
        if path.starts_with('/') {
            return ImportTarget::Unresolved;
        }
        let own = (!system).then(|| dirname(from).to_string());
        for dir in own.iter().chain(self.dirs.iter()) {
            if let Some(p) = normalize(&join(dir, path))
                && repo.is_file(&p)
            {
                return ImportTarget::Files(vec![p]);
            }
        }
        if system {
            ImportTarget::External(rules.external_package(path))
        } else {
            ImportTarget::Unresolved
        }
    }
}

/// The directories named by include flags: `-Idir` or `-I dir`.
fn include_args(flags: &[String], args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        for f in flags {
            if a == f {
                if let Some(next) = it.next() {
                    out.push(next.clone());
                }
                break;
            }
            if let Some(rest) = a.strip_prefix(f.as_str())
                && !rest.is_empty()
            {
                out.push(rest.to_string());
                break;
            }
        }
    }
    out
}

/// `dir` (absolute or relative to `base`) as a root-relative directory; `None` outside
/// the root. Absolute paths cannot be related to the root here, so they are left out.
fn relative_dir(base: &str, dir: &str) -> Option<String> {
    if dir.starts_with('/') {
        return None;
    }
    normalize(&join(base, dir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn rules() -> Rules {
        let table: toml::Table = toml::from_str(
            r#"
            strategy = "include_path"
            separator = "/"
            external = "whole"
            include_dirs = ["include"]
            flags_files = ["compile_commands.json", "compile_flags.txt"]
            include_flags = ["-I", "-isystem"]
            "#,
        )
        .unwrap();
        Rules::from_table(&table, vec!["c".into(), "h".into()])
    }

    #[test]
    fn quoted_then_flags_then_layouts_and_system_headers_are_external() {
        let files: BTreeSet<String> = [
            "compile_commands.json",
            "src/a.c",
            "src/a.h",
            "third/x/y.h",
            "include/z.h",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let repo = Repo::new(&files);
        let read = |p: &str| {
            (p == "compile_commands.json").then(|| {
                r#"[{"directory": ".", "arguments": ["cc", "-I", "third", "-I/usr/include", "-c", "src/a.c"]}]"#
                    .to_string()
            })
        };
        let r = rules();
        let ip = IncludePath::new(&r, &repo, &read);
        let files = |v: &[&str]| ImportTarget::Files(v.iter().map(|s| s.to_string()).collect());
        assert_eq!(ip.resolve(&r, &repo, "src/a.c", "a.h"), files(&["src/a.h"]));
        assert_eq!(
            ip.resolve(&r, &repo, "src/a.c", "x/y.h"),
            files(&["third/x/y.h"])
        );
        assert_eq!(
            ip.resolve(&r, &repo, "src/a.c", "<z.h>"),
            files(&["include/z.h"])
        );
        // `<a.h>` does not look next to the includer.
        assert_eq!(
            ip.resolve(&r, &repo, "src/a.c", "<a.h>"),
            ImportTarget::External("a.h".into())
        );
        assert_eq!(
            ip.resolve(&r, &repo, "src/a.c", "<sys/types.h>"),
            ImportTarget::External("sys/types.h".into())
        );
        assert_eq!(
            ip.resolve(&r, &repo, "src/a.c", "gen.h"),
            ImportTarget::Unresolved
        );
    }
}
