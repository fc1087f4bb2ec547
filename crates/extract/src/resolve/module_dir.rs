//! `module_dir`: a module is a directory named after it directly under a source root
//! (`source_roots`: `Sources/<Module>/`), and every file below that directory, at any depth,
//! belongs to it. `import M` (or `import M.Sub`, `import struct M.T`: the first segment)
//! gives all of `M`'s files; several packages in one repository may each have a module of
//! that name: the one whose package (the source root's parent) shares the longest path with
//! the importer wins. A name no directory carries is an external module.

use std::collections::HashMap;

use super::repo::Repo;
use super::rules::Rules;
use crate::ImportTarget;

pub struct ModuleDir {
    /// Module name → (package directory, the module's files), per package.
    modules: HashMap<String, Vec<(String, Vec<String>)>>,
}

impl ModuleDir {
    pub fn new(rules: &Rules, repo: &Repo) -> ModuleDir {
        let mut modules: HashMap<String, Vec<(String, Vec<String>)>> = HashMap::new();
        for file in &repo.files {
            if !rules.has_extension(file) {
                continue;
            }
            let segs: Vec<&str> = file.split('/').collect();
            // The last source root with a module directory and something in it below.
            let Some(i) = (0..segs.len().saturating_sub(2))
                .rev()
                .find(|&i| rules.source_roots.iter().any(|r| r == segs[i]))
            else {
                continue;
            };
            let package = segs[..i].join("/");
            let per_package = modules.entry(segs[i + 1].to_string()).or_default();
            match per_package.iter_mut().find(|(p, _)| *p == package) {
                Some((_, files)) => files.push(file.clone()),
                None => per_package.push((package, vec![file.clone()])),
            }
        }
        ModuleDir { modules }
    }

    pub fn resolve(&self, rules: &Rules, from: &str, spec: &str) -> ImportTarget {
        let name = spec.split(rules.separator.as_str()).next().unwrap_or(spec);
        let Some(packages) = self.modules.get(name) else {
            return ImportTarget::External(rules.external_package(spec));
        };
        let shared = |package: &str| {
            if package.is_empty() {
                return 0;
            }
            let prefix = format!("{package}/");
            if from.starts_with(&prefix) {
                prefix.len()
            } else {
                0
            }
        };
        match packages
            .iter()
            .max_by_key(|(p, _)| (shared(p), std::cmp::Reverse(p.len())))
        {
            Some((_, files)) => ImportTarget::Files(files.clone()),
            None => ImportTarget::Unresolved,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn modules_are_directories_under_source_roots() {
        let table: toml::Table = toml::from_str(
            r#"
            strategy = "module_dir"
            separator = "."
            source_roots = ["Sources", "Tests"]
            "#,
        )
        .unwrap();
        let rules = Rules::from_table(&table, vec!["swift".into()]);
        let files: BTreeSet<String> = [
            "Package.swift",
            "Sources/App/main.swift",
            "Sources/Core/A.swift",
            "Sources/Core/Deep/B.swift",
            "Sources/Core/notes.md",
            "Tools/Sub/Sources/Core/C.swift",
            "Tests/CoreTests/ATests.swift",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let repo = Repo::new(&files);
        let md = ModuleDir::new(&rules, &repo);
        let files = |v: &[&str]| ImportTarget::Files(v.iter().map(|s| s.to_string()).collect());
        assert_eq!(
            md.resolve(&rules, "Sources/App/main.swift", "Core"),
            files(&["Sources/Core/A.swift", "Sources/Core/Deep/B.swift"])
        );
        // The nested package's own module of the same name.
        assert_eq!(
            md.resolve(&rules, "Tools/Sub/Sources/App/x.swift", "Core"),
            files(&["Tools/Sub/Sources/Core/C.swift"])
        );
        assert_eq!(
            md.resolve(&rules, "Sources/App/main.swift", "Core.Deep"),
            files(&["Sources/Core/A.swift", "Sources/Core/Deep/B.swift"])
        );
        assert_eq!(
            md.resolve(&rules, "Sources/App/main.swift", "Foundation.NSString"),
            ImportTarget::External("Foundation".into())
        );
    }
}
