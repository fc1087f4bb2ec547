//! The seam between the map and extraction: the real one calls `navmap-extract`; unit
//! tests plug in synthetic facts (so the map's logic is tested without grammars).

use std::collections::BTreeSet;

use navmap_extract::facts::FileFacts;
use navmap_extract::{ImportResolver, ImportTarget};
use navmap_language::{Language, Registry};

pub(crate) trait Frontend: Send + Sync {
    /// `path` is root-relative; it picks the grammar and the manifest's file-name rules.
    fn extract(&self, lang: &Language, path: &str, source: &str) -> FileFacts;
    fn resolver(
        &self,
        registry: &Registry,
        files: &BTreeSet<String>,
        read_file: &dyn Fn(&str) -> Option<String>,
    ) -> Box<dyn ModuleResolver>;
    /// A file (by name) that configures import resolution.
    fn is_config_file(&self, path: &str) -> bool;
}

pub(crate) trait ModuleResolver: Send + Sync {
    fn resolve(&self, lang: &Language, from_file: &str, module: &str) -> ImportTarget;
    /// `name` imported from `module` when the name is itself a module; `Unresolved` when
    /// it is a symbol.
    fn resolve_member(
        &self,
        lang: &Language,
        from_file: &str,
        module: &str,
        name: &str,
    ) -> ImportTarget;
    /// Whether `module` was found only by the namespaces files declare, not by the
    /// project's configuration: names reached through it are `name`, not `import`.
    fn by_declaration(&self, _lang: &Language, _from_file: &str, _module: &str) -> bool {
        false
    }
}

/// Extraction by `navmap-extract`.
pub(crate) struct Extract {
    /// A resolver over no files: answers `is_config_file` from the manifests' rules.
    probe: ImportResolver,
}

impl Extract {
    pub fn new(registry: &Registry) -> Extract {
        Extract {
            probe: ImportResolver::new(registry, &BTreeSet::new(), &|_| None),
        }
    }
}

impl Frontend for Extract {
    fn extract(&self, lang: &Language, path: &str, source: &str) -> FileFacts {
        navmap_extract::extract_path(lang, path, source)
    }

    fn resolver(
        &self,
        registry: &Registry,
        files: &BTreeSet<String>,
        read_file: &dyn Fn(&str) -> Option<String>,
    ) -> Box<dyn ModuleResolver> {
        Box::new(ImportResolver::new(registry, files, read_file))
    }

    fn is_config_file(&self, path: &str) -> bool {
        self.probe.is_config_file(path)
    }
}

impl ModuleResolver for ImportResolver {
    fn resolve(&self, lang: &Language, from_file: &str, module: &str) -> ImportTarget {
        ImportResolver::resolve(self, lang, from_file, module)
    }

    fn resolve_member(
        &self,
        lang: &Language,
        from_file: &str,
        module: &str,
        name: &str,
    ) -> ImportTarget {
        ImportResolver::resolve_member(self, lang, from_file, module, name)
    }

    fn by_declaration(&self, lang: &Language, from_file: &str, module: &str) -> bool {
        ImportResolver::by_declaration(self, lang, from_file, module)
    }
}
