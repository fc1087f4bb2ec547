//! `dotted`: module paths like `shop.store` searched in source roots (the repository root,
//! `src/`-style roots under each project marker); leading separators are relative
//! (`.store` = beside the importer, `..` = the parent package); specifiers starting with one
//! of `relative_prefixes` (`./x`, `../x`) are paths from the importer's directory.

use super::repo::{Repo, dirname, join, normalize};
use super::rules::Rules;
use crate::ImportTarget;

pub struct Dotted {
    /// Directories absolute module paths are searched in, most specific first.
    roots: Vec<String>,
}

impl Dotted {
    pub fn new(rules: &Rules, repo: &Repo) -> Dotted {
        let mut projects: Vec<String> = vec![String::new()];
        for marker in repo.named(&rules.project_markers) {
            projects.push(dirname(marker).to_string());
        }
        let mut roots: Vec<String> = Vec::new();
        for p in &projects {
            for s in &rules.source_roots {
                let r = join(p, s);
                if repo.is_dir(&r) && !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        // Deeper roots first: `src/` wins over the root it lies in.
        roots.sort_by_key(|r| {
            std::cmp::Reverse(r.matches('/').count() + usize::from(!r.is_empty()))
        });
        Dotted { roots }
    }

    pub fn resolve(&self, rules: &Rules, repo: &Repo, from: &str, module: &str) -> ImportTarget {
        let sep = rules.separator.as_str();
        if sep.is_empty() {
            return ImportTarget::Unresolved;
        }
        // Paths relative to the importer (`./x`, `../x`), where the language has them.
        if rules
            .relative_prefixes
            .iter()
            .any(|p| module.starts_with(p.as_str()))
        {
            return normalize(&join(dirname(from), module))
                .and_then(|path| self.module_at(rules, repo, &path))
                .unwrap_or(ImportTarget::Unresolved);
        }
        let rest = module.trim_start_matches(sep);
        let dots = (module.len() - rest.len()) / sep.len();
        let path = rest.split(sep).collect::<Vec<_>>().join("/");
        if dots > 0 {
            let mut base = dirname(from);
            for _ in 1..dots {
                if base.is_empty() {
                    return ImportTarget::Unresolved;
                }
                base = dirname(base);
            }
            return self
                .module_at(rules, repo, &join(base, &path))
                .unwrap_or(ImportTarget::Unresolved);
        }
        if path.is_empty() {
            return ImportTarget::Unresolved;
        }
        // Roots holding the importer first, then the others, then the importer's own
        // directory (scripts import their neighbours).
        let mut order: Vec<&str> = self
            .roots
            .iter()
            .filter(|r| r.is_empty() || from.starts_with(&format!("{r}/")))
            .map(String::as_str)
            .collect();
        for r in &self.roots {
            if !order.contains(&r.as_str()) {
                order.push(r);
            }
        }
        let own = dirname(from);
        if !order.contains(&own) {
            order.push(own);
        }
        for root in &order {
            if let Some(target) = self.module_at(rules, repo, &join(root, &path)) {
                return target;
            }
        }
        // A local top-level package with a missing submodule is not an external package.
        let top = rest.split(sep).next().unwrap_or(rest);
        let local = order.iter().any(|root| {
            let p = join(root, top);
            repo.is_dir(&p) && self.module_at(rules, repo, &p).is_some()
        });
        if local {
            ImportTarget::Unresolved
        } else {
            ImportTarget::External(rules.external_package(rest))
        }
    }

    /// The module file at a path (without extension), or a namespace package's files.
    fn module_at(&self, rules: &Rules, repo: &Repo, path: &str) -> Option<ImportTarget> {
        if path.is_empty() {
            return None;
        }
        for pattern in &rules.module_files {
            let candidate = pattern.replace("{}", path);
            if repo.is_file(&candidate) {
                return Some(ImportTarget::Files(vec![candidate]));
            }
        }
        // A directory without an init file: a namespace package of its module files.
        let files = rules.source_files_in(repo, path);
        (!files.is_empty()).then_some(ImportTarget::Files(files))
    }
}
