//! The seam between the map and extraction: the real one calls `navmap-extract`; unit
//! tests plug in synthetic facts (so the map's logic is tested without grammars).

use std::collections::BTreeSet;

use navmap_extract::facts::FileFacts;
use navmap_extract::{ImportResolver, ImportTarget};
use navmap_language::{Language, Registry};

pub(crate) trait Frontend: Send + Sync {
    fn extract(&self, lang: &Language, ext: &str, source: &str) -> FileFacts;
    fn resolver(
        &self,
        registry: &Registry,
        files: &BTreeSet<String>,
        read_file: &dyn Fn(&str) -> Option<String>,
    ) -> Box<dyn ModuleResolver>;
}

pub(crate) trait ModuleResolver: Send + Sync {
    fn resolve(&self, lang: &Language, from_file: &str, module: &str) -> ImportTarget;
    fn config_files(&self) -> Vec<String>;
}

/// Extraction by `navmap-extract`.
pub(crate) struct Extract;

impl Frontend for Extract {
    fn extract(&self, lang: &Language, ext: &str, source: &str) -> FileFacts {
        navmap_extract::extract(lang, ext, source)
    }

    fn resolver(
        &self,
        registry: &Registry,
        files: &BTreeSet<String>,
        read_file: &dyn Fn(&str) -> Option<String>,
    ) -> Box<dyn ModuleResolver> {
        Box::new(ImportResolver::new(registry, files, read_file))
    }
}

impl ModuleResolver for ImportResolver {
    fn resolve(&self, lang: &Language, from_file: &str, module: &str) -> ImportTarget {
        ImportResolver::resolve(self, lang, from_file, module)
    }

    fn config_files(&self) -> Vec<String> {
        ImportResolver::config_files(self)
    }
}
