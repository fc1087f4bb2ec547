//! The `[imports]` table of a manifest, read into typed rules. The vocabulary is documented
//! in `grammars/README.md`; unknown keys are ignored so a manifest can carry notes.

use std::collections::BTreeMap;

use navmap_language::Language;

use super::repo::Repo;

/// How a language's module specifiers map to files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Dotted module paths searched in source roots; leading dots are relative.
    Dotted,
    /// File paths relative to the importer, or mapped by a path config; else packages.
    Path,
    /// A tree of modules: a root keyword, a parent keyword, child modules as files.
    ModuleTree,
    /// Directories are packages, named by a module path declared in a manifest file.
    PackageDir,
    /// Packages declared in the files themselves (or directories under source roots).
    DeclaredPackage,
    /// File paths searched in the importer's directory and include directories.
    IncludePath,
    /// A module is a directory under a source root, with every file below it.
    ModuleDir,
    /// Namespaced names mapped to directories by prefix (a JSON config's prefix map).
    PrefixMap,
    /// No resolution: everything is unresolved.
    None,
}

/// How the name of an external package is cut from a specifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExternalName {
    /// `os.path` → `os`, `std::fmt` → `std`, `lodash/fp` → `lodash`.
    FirstSegment,
    /// Like `FirstSegment`, but `@scope/name/x` → `@scope/name`.
    Scoped,
    /// A first segment with a dot is a host: `github.com/a/b/c` → `github.com/a/b`;
    /// otherwise the first segment (`net/http` → `net`).
    HostPath,
    /// The whole specifier (`sys/types.h`): each header is its own external module.
    Whole,
}

#[derive(Debug, Clone)]
pub struct Rules {
    pub strategy: Strategy,
    pub separator: String,
    pub external: ExternalName,
    pub strip_prefixes: Vec<String>,
    pub config_files: Vec<String>,
    /// The language's own file extensions (from the manifest).
    pub extensions: Vec<String>,
    // dotted
    pub module_files: Vec<String>,
    pub source_roots: Vec<String>,
    pub project_markers: Vec<String>,
    // path
    pub try_extensions: Vec<String>,
    pub index_files: Vec<String>,
    pub substitute_extensions: BTreeMap<String, Vec<String>>,
    pub path_config: Vec<String>,
    pub package_manifest: Option<String>,
    // module tree
    pub root_keyword: Option<String>,
    pub self_keyword: Option<String>,
    pub parent_keyword: Option<String>,
    pub dir_module_files: Vec<String>,
    pub crate_roots: Vec<String>,
    pub name_replace: Option<(String, String)>,
    // package dir
    pub module_manifest: Option<String>,
    pub module_directive: Option<String>,
    pub exclude_suffixes: Vec<String>,
    // declared package
    pub declaration_keywords: Vec<String>,
    // include path
    pub include_dirs: Vec<String>,
    pub flags_files: Vec<String>,
    pub include_flags: Vec<String>,
    // prefix map
    pub prefix_map_file: Option<String>,
    pub prefix_map_keys: Vec<String>,
    pub relative_prefixes: Vec<String>,
}

impl Rules {
    pub fn of(lang: &Language) -> Rules {
        Rules::from_table(&lang.manifest.imports, lang.manifest.extensions.clone())
    }

    /// The rules of an `[imports]` table, for a language with these extensions.
    pub fn from_table(t: &toml::Table, extensions: Vec<String>) -> Rules {
        let s = |k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let list = |k: &str| -> Vec<String> {
            t.get(k)
                .and_then(|v| v.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let strategy = match s("strategy").as_deref() {
            Some("dotted") => Strategy::Dotted,
            Some("path") => Strategy::Path,
            Some("module_tree") => Strategy::ModuleTree,
            Some("package_dir") => Strategy::PackageDir,
            Some("declared_package") => Strategy::DeclaredPackage,
            Some("include_path") => Strategy::IncludePath,
            Some("module_dir") => Strategy::ModuleDir,
            Some("prefix_map") => Strategy::PrefixMap,
            _ => Strategy::None,
        };
        let external = match s("external").as_deref() {
            Some("scoped") => ExternalName::Scoped,
            Some("host_path") => ExternalName::HostPath,
            Some("whole") => ExternalName::Whole,
            _ => ExternalName::FirstSegment,
        };
        let substitute_extensions = t
            .get("substitute_extensions")
            .and_then(|v| v.as_table())
            .map(|tab| {
                tab.iter()
                    .map(|(k, v)| {
                        let subs = v
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .filter_map(|x| x.as_str().map(str::to_string))
                                    .collect()
                            })
                            .unwrap_or_default();
                        (k.clone(), subs)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let name_replace = match list("name_replace").as_slice() {
            [from, to] => Some((from.clone(), to.clone())),
            _ => None,
        };
        Rules {
            strategy,
            separator: s("separator").unwrap_or_else(|| ".".into()),
            external,
            strip_prefixes: list("strip_prefixes"),
            config_files: list("config_files"),
            extensions,
            module_files: list("module_files"),
            source_roots: list("source_roots"),
            project_markers: list("project_markers"),
            try_extensions: list("extensions"),
            index_files: list("index_files"),
            substitute_extensions,
            path_config: list("path_config"),
            package_manifest: s("package_manifest"),
            root_keyword: s("root_keyword"),
            self_keyword: s("self_keyword"),
            parent_keyword: s("parent_keyword"),
            dir_module_files: list("dir_module_files"),
            crate_roots: list("crate_roots"),
            name_replace,
            module_manifest: s("module_manifest"),
            module_directive: s("module_directive"),
            exclude_suffixes: list("exclude_suffixes"),
            declaration_keywords: list("declaration_keywords"),
            include_dirs: list("include_dirs"),
            flags_files: list("flags_files"),
            include_flags: list("include_flags"),
            prefix_map_file: s("prefix_map_file"),
            prefix_map_keys: list("prefix_map_keys"),
            relative_prefixes: list("relative_prefixes"),
        }
    }

    /// Whether `path` ends with `.` and one of the language's own extensions.
    pub fn has_extension(&self, path: &str) -> bool {
        self.extensions.iter().any(|e| {
            path.strip_suffix(e.as_str())
                .is_some_and(|stem| stem.ends_with('.'))
        })
    }

    /// The files directly in `dir` with one of the language's own extensions: a directory
    /// as a package or a namespace of modules.
    pub fn source_files_in(&self, repo: &Repo, dir: &str) -> Vec<String> {
        repo.files_in(dir)
            .iter()
            .filter(|f| self.has_extension(f))
            .cloned()
            .collect()
    }

    /// The package an external specifier names.
    pub fn external_package(&self, spec: &str) -> String {
        let mut spec = spec;
        for p in &self.strip_prefixes {
            if let Some(rest) = spec.strip_prefix(p.as_str()) {
                spec = rest;
            }
        }
        if self.external == ExternalName::Whole {
            return spec.to_string();
        }
        let sep = self.separator.as_str();
        let segs: Vec<&str> = spec.split(sep).filter(|s| !s.is_empty()).collect();
        let take = match self.external {
            ExternalName::FirstSegment => 1,
            ExternalName::Scoped if segs.first().is_some_and(|s| s.starts_with('@')) => 2,
            ExternalName::Scoped => 1,
            ExternalName::HostPath if segs.first().is_some_and(|s| s.contains('.')) => 3,
            ExternalName::HostPath => 1,
            ExternalName::Whole => usize::MAX,
        };
        segs.iter()
            .take(take)
            .copied()
            .collect::<Vec<_>>()
            .join(sep)
    }
}
