//! `declared_package`: a file declares the package (namespace) it belongs to in its own
//! text (a line starting with one of `declaration_keywords`, e.g. `package a.b;`); an
//! import names a package (all its files: a glob or a namespace import) or a member of
//! one (`a.b.C`: the package's file named `C`, else all the package's files). Packages
//! need not match directories; when no file declares a package, the directory under a
//! source root (`<project root>/<source root>/a/b`) stands in for it. A package import
//! never names the importer itself.
//!
//! Limits, on purpose: declarations are found by a line scan when the resolver is built
//! (when the file set changes), so an edited declaration counts from the next such
//! rebuild; nested or chained declarations are read one by one, not joined; a line whose
//! name is followed by another word (`package object x`) declares no package.

use std::collections::{BTreeMap, BTreeSet};

use super::repo::{Repo, basename, dirname, join};
use super::rules::Rules;
use crate::ImportTarget;

pub struct DeclaredPackage {
    /// Package name → the files declaring it.
    declared: BTreeMap<String, Vec<String>>,
    /// Existing source-root directories, deepest first.
    roots: Vec<String>,
}

impl DeclaredPackage {
    pub fn new(
        rules: &Rules,
        repo: &Repo,
        read: &dyn Fn(&str) -> Option<String>,
    ) -> DeclaredPackage {
        let mut declared: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for file in repo.files.iter().filter(|f| rules.has_extension(f)) {
            let Some(text) = read(file) else { continue };
            for package in declarations(&text, &rules.declaration_keywords, &rules.separator) {
                declared.entry(package).or_default().push(file.clone());
            }
        }
        let mut projects: BTreeSet<String> = BTreeSet::from([String::new()]);
        projects.extend(
            repo.named(&rules.project_markers)
                .map(|m| dirname(m).to_string()),
        );
        let mut roots: Vec<String> = projects
            .iter()
            .flat_map(|p| rules.source_roots.iter().map(move |r| join(p, r)))
            .filter(|d| repo.is_dir(d))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        roots.sort_by_key(|d| {
            std::cmp::Reverse(d.matches('/').count() + usize::from(!d.is_empty()))
        });
        DeclaredPackage { declared, roots }
    }

    /// The files of package `name` (declared, else a directory under a source root).
    /// Borrowed: resolution runs for every import of every file when the file set
    /// changes, and a package can hold hundreds of files.
    fn package<'s>(&'s self, rules: &Rules, repo: &'s Repo, name: &str) -> Vec<&'s String> {
        if let Some(files) = self.declared.get(name) {
            return files.iter().collect();
        }
        let rel = name.replace(rules.separator.as_str(), "/");
        for root in &self.roots {
            let dir = join(root, &rel);
            let files: Vec<&String> = repo
                .files_in(&dir)
                .iter()
                .filter(|f| rules.has_extension(f))
                .collect();
            if !files.is_empty() {
                return files;
            }
        }
        Vec::new()
    }

    pub fn resolve(&self, rules: &Rules, repo: &Repo, from: &str, spec: &str) -> ImportTarget {
        let sep = rules.separator.as_str();
        let owned = |files: Vec<&String>| -> Vec<String> {
            files.into_iter().filter(|f| *f != from).cloned().collect()
        };
        let files = owned(self.package(rules, repo, spec));
        if !files.is_empty() {
            return ImportTarget::Files(files);
        }
        // `a.b.C` (a member's full path, a static import's module, or `a.b` + `C` joined),
        // also `a.b.C.D` (a nested type): the longest package prefix that has files; in it
        // the file named after the first member segment, else the package's files (one of
        // them defines it).
        let mut cut = if sep.is_empty() { 0 } else { spec.len() };
        while let Some(i) = spec[..cut].rfind(sep).filter(|_| cut > 0) {
            cut = i;
            let package = &spec[..i];
            let rest = &spec[i + sep.len()..];
            let member = rest.split(sep).next().unwrap_or(rest);
            let files = self.package(rules, repo, package);
            let named: Vec<String> = files
                .iter()
                .filter(|f| **f != from && stem(f) == member)
                .map(|f| f.to_string())
                .collect();
            if !named.is_empty() {
                return ImportTarget::Files(named);
            }
            let files = owned(files);
            if !files.is_empty() {
                return ImportTarget::Files(files);
            }
        }
        // A name inside the repository's package tree that matched nothing (a sibling of
        // a local package, or below one): unresolved, not external.
        let parent = spec.rsplit_once(sep).map(|(p, _)| p).unwrap_or(spec);
        let under = |a: &str, b: &str| {
            a.strip_prefix(b)
                .is_some_and(|r| r.is_empty() || r.starts_with(sep))
        };
        let local = self
            .declared
            .keys()
            .any(|p| under(p, spec) || under(spec, p) || under(p, parent));
        // (Or a package whose only file is the importer itself.)
        if local || !self.package(rules, repo, spec).is_empty() {
            return ImportTarget::Unresolved;
        }
        ImportTarget::External(rules.external_package(spec))
    }
}

fn stem(f: &str) -> &str {
    let b = basename(f);
    b.split_once('.').map(|(s, _)| s).unwrap_or(b)
}

/// The packages a source text declares: each line that starts with a keyword followed by
/// whitespace and a dotted name (`package a.b;`, `namespace A.B {`, `package a.b`), or one
/// joined by the language's separator (`namespace A\B;`).
fn declarations(text: &str, keywords: &[String], separator: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        for kw in keywords {
            let Some(rest) = line.strip_prefix(kw.as_str()) else {
                continue;
            };
            if !rest.starts_with(char::is_whitespace) {
                continue;
            }
            let rest = rest.trim_start();
            let len: usize = rest
                .chars()
                .take_while(|c| {
                    c.is_alphanumeric() || matches!(c, '_' | '.' | '`') || separator.contains(*c)
                })
                .map(char::len_utf8)
                .sum();
            let name: String = rest[..len].chars().filter(|c| *c != '`').collect();
            // Only a name followed by nothing, a terminator, a block or a comment: a word
            // after it (`package object x`) means the line declares something else.
            let after = rest[len..].trim_start();
            let ends = after.is_empty()
                || after.starts_with([';', '{', ':'])
                || after.starts_with("//")
                || after.starts_with("/*");
            if !name.is_empty() && ends && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_read_from_line_starts() {
        let kw = vec!["package".to_string(), "namespace".to_string()];
        assert_eq!(
            declarations("// package x;\npackage a.b.c;\nimport d;\n", &kw, "."),
            vec!["a.b.c"]
        );
        assert_eq!(
            declarations("namespace Shop.Store\n{\n", &kw, "."),
            vec!["Shop.Store"]
        );
        assert_eq!(
            declarations("packages x\npackage\n", &kw, "."),
            Vec::<String>::new()
        );
        assert_eq!(
            declarations(
                "package a.b\npackage object c {\npackage d: // x\n",
                &kw,
                "."
            ),
            vec!["a.b", "d"]
        );
        assert_eq!(
            declarations("<?php\nnamespace ShopPlugin\\Audit;\n", &kw, "\\"),
            vec!["ShopPlugin\\Audit"]
        );
    }
}
