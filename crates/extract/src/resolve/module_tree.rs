//! `module_tree`: a tree of modules rooted at a crate root file. A path starts at the root
//! keyword (`crate`), the current module (`self`), its parent (`super`), a child module of
//! the current one, or another crate of the repository by name; each further segment is a
//! child module, found as a file by `module_files` (`{}.rs`, `{}/mod.rs`) in the directory
//! that holds the current module's children. Anything else is an external crate.

use super::repo::{Repo, basename, dirname, join};
use super::rules::Rules;
use crate::ImportTarget;

struct Crate {
    name: String,
    dir: String,
    root: Option<String>,
}

pub struct ModuleTree {
    crates: Vec<Crate>,
}

impl ModuleTree {
    pub fn new(rules: &Rules, repo: &Repo, read: &dyn Fn(&str) -> Option<String>) -> ModuleTree {
        let mut crates = Vec::new();
        let Some(manifest) = &rules.package_manifest else {
            return ModuleTree { crates };
        };
        for file in repo.named(std::slice::from_ref(manifest)) {
            let Some(table) = read(file).and_then(|t| t.parse::<toml::Table>().ok()) else {
                continue;
            };
            let name = table
                .get("lib")
                .and_then(|l| l.get("name"))
                .or_else(|| table.get("package").and_then(|p| p.get("name")))
                .and_then(|n| n.as_str());
            let Some(name) = name else { continue };
            let name = match &rules.name_replace {
                Some((from, to)) => name.replace(from.as_str(), to),
                None => name.to_string(),
            };
            let dir = dirname(file).to_string();
            let root = rules
                .crate_roots
                .iter()
                .map(|r| join(&dir, r))
                .find(|r| repo.is_file(r));
            crates.push(Crate { name, dir, root });
        }
        // Deepest first, so a file belongs to its innermost crate.
        crates.sort_by_key(|c| std::cmp::Reverse(c.dir.len()));
        ModuleTree { crates }
    }

    fn crate_of(&self, file: &str) -> Option<&Crate> {
        // `file` starts with `<dir>/`, compared in place: this runs for every module path
        // resolved and every crate of the repository (no string built per crate).
        self.crates.iter().find(|c| {
            c.dir.is_empty()
                || file
                    .strip_prefix(c.dir.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })
    }

    /// Resolves a module path. Every segment must name a module: `crate::store` is a file,
    /// `crate::store::SessionStore` is not (the caller splits items from modules).
    pub fn resolve(&self, rules: &Rules, repo: &Repo, from: &str, module: &str) -> ImportTarget {
        let sep = rules.separator.as_str();
        let mut segs = module.split(sep).filter(|s| !s.is_empty());
        let Some(first) = segs.next() else {
            return ImportTarget::Unresolved;
        };
        let is = |kw: &Option<String>, s: &str| kw.as_deref() == Some(s);
        let krate = self.crate_of(from);
        let mut cur: Option<String> = if is(&rules.root_keyword, first) {
            krate.and_then(|c| c.root.clone())
        } else if is(&rules.self_keyword, first) {
            Some(from.to_string())
        } else if is(&rules.parent_keyword, first) {
            self.parent(rules, repo, from)
        } else if let Some(child) = self.child(rules, repo, from, first) {
            Some(child)
        } else if let Some(other) = self.crates.iter().find(|c| c.name == first) {
            other.root.clone()
        } else {
            return ImportTarget::External(rules.external_package(module));
        };
        for seg in segs {
            let Some(at) = cur else { break };
            cur = if is(&rules.self_keyword, seg) {
                Some(at)
            } else if is(&rules.parent_keyword, seg) {
                self.parent(rules, repo, &at)
            } else {
                self.child(rules, repo, &at, seg)
            };
        }
        match cur {
            Some(file) => ImportTarget::Files(vec![file]),
            None => ImportTarget::Unresolved,
        }
    }

    /// Whether a file holds its children in its own directory (`mod.rs`, crate roots).
    fn is_dir_module(&self, rules: &Rules, file: &str) -> bool {
        rules.dir_module_files.iter().any(|n| n == basename(file))
            || self.crates.iter().any(|c| c.root.as_deref() == Some(file))
    }

    /// The directory a module's child module files live in.
    fn children_dir(&self, rules: &Rules, file: &str) -> String {
        if self.is_dir_module(rules, file) {
            return dirname(file).to_string();
        }
        let stem = basename(file)
            .rsplit_once('.')
            .map(|(s, _)| s)
            .unwrap_or(basename(file));
        join(dirname(file), stem)
    }

    fn child(&self, rules: &Rules, repo: &Repo, module: &str, name: &str) -> Option<String> {
        let dir = self.children_dir(rules, module);
        rules
            .module_files
            .iter()
            .map(|p| join(&dir, &p.replace("{}", name)))
            .find(|p| repo.is_file(p))
    }

    fn parent(&self, rules: &Rules, repo: &Repo, file: &str) -> Option<String> {
        let krate = self.crate_of(file);
        if krate.is_some_and(|c| c.root.as_deref() == Some(file)) {
            return None;
        }
        let own_dir = if self.is_dir_module(rules, file) {
            dirname(file)
        } else {
            return self.module_of_dir(rules, repo, krate, dirname(file));
        };
        self.module_of_dir(rules, repo, krate, dirname(own_dir))
    }

    /// The module whose children live in `dir`: the crate root of that directory, or the
    /// module file named after the directory.
    fn module_of_dir(
        &self,
        rules: &Rules,
        repo: &Repo,
        krate: Option<&Crate>,
        dir: &str,
    ) -> Option<String> {
        if let Some(root) = krate.and_then(|c| c.root.as_ref())
            && dirname(root) == dir
        {
            return Some(root.clone());
        }
        let (parent, name) = (dirname(dir), basename(dir));
        if name.is_empty() {
            return None;
        }
        rules
            .module_files
            .iter()
            .map(|p| join(parent, &p.replace("{}", name)))
            .find(|p| repo.is_file(p))
    }
}
