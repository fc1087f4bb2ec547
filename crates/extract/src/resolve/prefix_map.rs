//! `prefix_map`: namespaced names mapped to directories by prefix, as declared in a JSON
//! config file (`prefix_map_file`, at the keys `prefix_map_keys`, each an object
//! `{"Prefix\\": "dir/" | ["dir/", …]}`; PHP's PSR-4 in `composer.json`). `A\B\C` under the
//! prefix `A\` mapped to `src/` is the file `src/B/C.<ext>`, or the directory `src/B/C`
//! (a namespace: its files). Specifiers that look like paths (a `/` or a file extension)
//! are files: relative to the importer when they start with one of `relative_prefixes`,
//! else tried beside the importer and then at the root. A name under no prefix is looked up
//! among the namespaces the files declare (`declaration_keywords`: `namespace A\B;`, as
//! `declared_package` does) — a project without a PSR-4 map, or a namespace it does not map
//! (a WordPress plugin's own classes) — and is external only when no file declares it.
//! The map labels what it finds so a tier lower (`PrefixMap::by_declaration`).

use super::declared_package::DeclaredPackage;
use super::jsonc;
use super::repo::{Repo, dirname, join, normalize};
use super::rules::Rules;
use crate::ImportTarget;

pub struct PrefixMap {
    /// (prefix without trailing separator, directory), longest prefix first.
    prefixes: Vec<(String, String)>,
    /// The namespaces files declare, when the language says how (`declaration_keywords`).
    declared: Option<DeclaredPackage>,
}

impl PrefixMap {
    pub fn new(rules: &Rules, repo: &Repo, read: &dyn Fn(&str) -> Option<String>) -> PrefixMap {
        let mut prefixes = Vec::new();
        let sep = rules.separator.as_str();
        if let Some(config) = &rules.prefix_map_file {
            for file in repo.named(std::slice::from_ref(config)) {
                let Some(value) = read(file).as_deref().and_then(jsonc::parse) else {
                    continue;
                };
                let base = dirname(file);
                for key in &rules.prefix_map_keys {
                    let mut v = Some(&value);
                    for part in key.split('.') {
                        v = v.and_then(|x| x.get(part));
                    }
                    let Some(map) = v.and_then(|x| x.as_object()) else {
                        continue;
                    };
                    for (prefix, dirs) in map {
                        let prefix = prefix.trim_end_matches(sep).to_string();
                        let dirs: Vec<&str> = match dirs {
                            serde_json::Value::String(s) => vec![s.as_str()],
                            serde_json::Value::Array(a) => {
                                a.iter().filter_map(|d| d.as_str()).collect()
                            }
                            _ => Vec::new(),
                        };
                        for d in dirs {
                            if let Some(dir) = normalize(&join(base, d.trim_end_matches('/'))) {
                                prefixes.push((prefix.clone(), dir));
                            }
                        }
                    }
                }
            }
        }
        // Longest prefix first; an empty prefix (the global namespace) last.
        prefixes.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        let declared = (!rules.declaration_keywords.is_empty())
            .then(|| DeclaredPackage::new(rules, repo, read));
        PrefixMap { prefixes, declared }
    }

    /// Whether `spec` is a name no configured prefix maps (so that what `resolve` found
    /// for it, if anything, came from the namespaces the files declare).
    pub fn by_declaration(&self, rules: &Rules, spec: &str) -> bool {
        let sep = rules.separator.as_str();
        if self.declared.is_none()
            || sep.is_empty()
            || spec.contains('/')
            || rules.has_extension(spec)
        {
            return false;
        }
        let name = spec.trim_start_matches(sep);
        !self.prefixes.iter().any(|(prefix, _)| {
            prefix.is_empty()
                || name == prefix
                || name
                    .strip_prefix(prefix.as_str())
                    .is_some_and(|r| r.starts_with(sep))
        })
    }

    pub fn resolve(&self, rules: &Rules, repo: &Repo, from: &str, spec: &str) -> ImportTarget {
        let is_path = spec.contains('/') || rules.has_extension(spec);
        if is_path {
            return resolve_path(rules, repo, from, spec);
        }
        let sep = rules.separator.as_str();
        if sep.is_empty() {
            return ImportTarget::Unresolved;
        }
        let name = spec.trim_start_matches(sep);
        let mut matched = false;
        for (prefix, dir) in &self.prefixes {
            let rest = if prefix.is_empty() {
                name
            } else if name == prefix {
                ""
            } else if let Some(r) = name
                .strip_prefix(prefix.as_str())
                .and_then(|r| r.strip_prefix(sep))
            {
                r
            } else {
                continue;
            };
            matched = true;
            let path = join(dir, &rest.split(sep).collect::<Vec<_>>().join("/"));
            for e in &rules.extensions {
                let file = format!("{path}.{e}");
                if repo.is_file(&file) {
                    return ImportTarget::Files(vec![file]);
                }
            }
            let files = rules.source_files_in(repo, &path);
            if !files.is_empty() {
                return ImportTarget::Files(files);
            }
        }
        if matched {
            return ImportTarget::Unresolved;
        }
        if let Some(declared) = &self.declared
            && let found @ ImportTarget::Files(_) = declared.resolve(rules, repo, from, name)
        {
            return found;
        }
        ImportTarget::External(rules.external_package(name))
    }
}

/// A file path: relative to the importer (`relative_prefixes`), else beside it, else from
/// the root. Never external: a path that is not in the repository is unresolved.
fn resolve_path(rules: &Rules, repo: &Repo, from: &str, spec: &str) -> ImportTarget {
    let own = dirname(from);
    let relative = rules
        .relative_prefixes
        .iter()
        .any(|p| spec.starts_with(p.as_str()));
    let rel = spec.trim_start_matches('/');
    let bases: &[&str] = if relative { &[own] } else { &[own, ""] };
    for base in bases {
        if let Some(p) = normalize(&join(base, rel))
            && repo.is_file(&p)
        {
            return ImportTarget::Files(vec![p]);
        }
    }
    ImportTarget::Unresolved
}
