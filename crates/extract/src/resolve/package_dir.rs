//! `package_dir`: a directory is a package (all its files with the language's extensions,
//! minus `exclude_suffixes` such as tests), named by the module path declared in a module
//! manifest (`module example.com/shop` in `go.mod`) plus the directory's path below it.
//! `./x` is relative to the importer. Anything else is an external package.

use super::repo::{Repo, dirname, join, normalize};
use super::rules::Rules;
use crate::ImportTarget;

pub struct PackageDir {
    /// (module path, directory), longest module path first.
    modules: Vec<(String, String)>,
}

impl PackageDir {
    pub fn new(rules: &Rules, repo: &Repo, read: &dyn Fn(&str) -> Option<String>) -> PackageDir {
        let mut modules = Vec::new();
        if let (Some(manifest), Some(directive)) = (&rules.module_manifest, &rules.module_directive)
        {
            for file in repo.named(std::slice::from_ref(manifest)) {
                let Some(text) = read(file) else { continue };
                let path = text.lines().find_map(|line| {
                    let rest = line.trim().strip_prefix(directive.as_str())?;
                    if !rest.starts_with(char::is_whitespace) {
                        return None;
                    }
                    let rest = rest.split("//").next().unwrap_or("").trim();
                    Some(rest.trim_matches(['"', '`']).to_string())
                });
                if let Some(path) = path.filter(|p| !p.is_empty()) {
                    modules.push((path, dirname(file).to_string()));
                }
            }
        }
        modules.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        PackageDir { modules }
    }

    pub fn resolve(&self, rules: &Rules, repo: &Repo, from: &str, spec: &str) -> ImportTarget {
        let dir = if spec.starts_with("./") || spec.starts_with("../") {
            normalize(&join(dirname(from), spec))
        } else {
            self.modules.iter().find_map(|(path, dir)| {
                let rest = if spec == path {
                    ""
                } else {
                    spec.strip_prefix(path.as_str())?.strip_prefix('/')?
                };
                normalize(&join(dir, rest))
            })
        };
        let Some(dir) = dir else {
            return ImportTarget::External(rules.external_package(spec));
        };
        let files: Vec<String> = rules
            .source_files_in(repo, &dir)
            .into_iter()
            .filter(|f| {
                !rules
                    .exclude_suffixes
                    .iter()
                    .any(|s| f.ends_with(s.as_str()))
            })
            .collect();
        if files.is_empty() {
            ImportTarget::Unresolved
        } else {
            ImportTarget::Files(files)
        }
    }
}
