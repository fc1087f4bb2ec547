//! Import resolution: a module specifier → repository files or an external package, by the
//! strategy and parameters of each language's `[imports]` table (see `grammars/README.md`).

mod declared_package;
mod dotted;
mod include_path;
mod jsonc;
mod module_dir;
mod module_tree;
mod package_dir;
mod path;
mod prefix_map;
mod repo;
mod rules;

use std::collections::{BTreeSet, HashMap};

use navmap_language::{Language, Registry};

use crate::ImportTarget;
use repo::{Repo, basename};
use rules::{Rules, Strategy};

enum Index {
    Dotted(dotted::Dotted),
    Path(path::PathIndex),
    ModuleTree(module_tree::ModuleTree),
    PackageDir(package_dir::PackageDir),
    DeclaredPackage(declared_package::DeclaredPackage),
    IncludePath(include_path::IncludePath),
    ModuleDir(module_dir::ModuleDir),
    PrefixMap(prefix_map::PrefixMap),
    None,
}

struct PerLanguage {
    rules: Rules,
    index: Index,
}

pub struct Resolver {
    repo: Repo,
    languages: HashMap<String, PerLanguage>,
    config_names: BTreeSet<String>,
}

impl Resolver {
    pub fn new(
        registry: &Registry,
        files: &BTreeSet<String>,
        read: &dyn Fn(&str) -> Option<String>,
    ) -> Resolver {
        let repo = Repo::new(files);
        let mut languages = HashMap::new();
        let mut config_names = BTreeSet::new();
        for lang in registry.all() {
            let rules = Rules::of(lang);
            config_names.extend(rules.config_files.iter().cloned());
            let index = build(&rules, &repo, read);
            languages.insert(lang.id().to_string(), PerLanguage { rules, index });
        }
        Resolver {
            repo,
            languages,
            config_names,
        }
    }

    pub fn resolve(&self, lang: &Language, from: &str, module: &str) -> ImportTarget {
        let module = module.trim();
        match self.languages.get(lang.id()) {
            Some(pl) => resolve_with(pl, &self.repo, from, module),
            // A language the registry did not hold at construction: its rules, no config.
            None => {
                let rules = Rules::of(lang);
                let index = build(&rules, &self.repo, &|_| None);
                resolve_with(&PerLanguage { rules, index }, &self.repo, from, module)
            }
        }
    }

    pub fn resolve_member(
        &self,
        lang: &Language,
        from: &str,
        module: &str,
        name: &str,
    ) -> ImportTarget {
        let separator = self
            .languages
            .get(lang.id())
            .map(|pl| pl.rules.separator.clone())
            .unwrap_or_else(|| Rules::of(lang).separator);
        let joined = if module.is_empty()
            || (!separator.is_empty() && module.ends_with(separator.as_str()))
        {
            format!("{module}{name}")
        } else {
            format!("{module}{separator}{name}")
        };
        match self.resolve(lang, from, &joined) {
            found @ ImportTarget::Files(_) => found,
            _ => ImportTarget::Unresolved,
        }
    }

    /// Whether `module` (as imported by `from`) was found only among the namespaces the
    /// files declare, not through the project's configuration (`prefix_map` without a
    /// prefix for it).
    pub fn by_declaration(&self, lang: &Language, from: &str, module: &str) -> bool {
        let Some(pl) = self.languages.get(lang.id()) else {
            return false;
        };
        match &pl.index {
            Index::PrefixMap(p) => {
                p.by_declaration(&pl.rules, module.trim())
                    && matches!(self.resolve(lang, from, module), ImportTarget::Files(_))
            }
            _ => false,
        }
    }

    pub fn config_files(&self) -> Vec<String> {
        self.repo
            .files
            .iter()
            .filter(|f| self.config_names.contains(basename(f)))
            .cloned()
            .collect()
    }

    pub fn is_config_file(&self, path: &str) -> bool {
        self.config_names.contains(basename(path))
    }
}

fn build(rules: &Rules, repo: &Repo, read: &dyn Fn(&str) -> Option<String>) -> Index {
    match rules.strategy {
        Strategy::Dotted => Index::Dotted(dotted::Dotted::new(rules, repo)),
        Strategy::Path => Index::Path(path::PathIndex::new(rules, repo, read)),
        Strategy::ModuleTree => Index::ModuleTree(module_tree::ModuleTree::new(rules, repo, read)),
        Strategy::PackageDir => Index::PackageDir(package_dir::PackageDir::new(rules, repo, read)),
        Strategy::DeclaredPackage => {
            Index::DeclaredPackage(declared_package::DeclaredPackage::new(rules, repo, read))
        }
        Strategy::IncludePath => {
            Index::IncludePath(include_path::IncludePath::new(rules, repo, read))
        }
        Strategy::ModuleDir => Index::ModuleDir(module_dir::ModuleDir::new(rules, repo)),
        Strategy::PrefixMap => Index::PrefixMap(prefix_map::PrefixMap::new(rules, repo, read)),
        Strategy::None => Index::None,
    }
}

fn resolve_with(pl: &PerLanguage, repo: &Repo, from: &str, module: &str) -> ImportTarget {
    if module.is_empty() {
        return ImportTarget::Unresolved;
    }
    match &pl.index {
        Index::Dotted(d) => d.resolve(&pl.rules, repo, from, module),
        Index::Path(p) => p.resolve(&pl.rules, repo, from, module),
        Index::ModuleTree(t) => t.resolve(&pl.rules, repo, from, module),
        Index::PackageDir(p) => p.resolve(&pl.rules, repo, from, module),
        Index::DeclaredPackage(d) => d.resolve(&pl.rules, repo, from, module),
        Index::IncludePath(p) => p.resolve(&pl.rules, repo, from, module),
        Index::ModuleDir(d) => d.resolve(&pl.rules, from, module),
        Index::PrefixMap(p) => p.resolve(&pl.rules, repo, from, module),
        Index::None => ImportTarget::Unresolved,
    }
}
