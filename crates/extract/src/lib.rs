//! Extraction: one file's source → [`facts::FileFacts`] (definitions, uses, imports), with
//! the tree-sitter grammars and queries of its language directory; and import resolution
//! (a module specifier → the repository files it names, or an external package).
//!
//! Pure and per file: no database, no I/O but what the caller hands in, safe to run in
//! parallel. Never fails: a file that does not parse yields what tree-sitter recovered,
//! with `had_errors` set. Must not name a language: everything language-specific comes
//! from `navmap-language` (queries and manifest rules in `grammars/<id>/`).

pub mod facts;

// ---------------------------------------------------------------------------------------
// The public API the map crate builds on. Signatures are fixed; bodies are being written.
// ---------------------------------------------------------------------------------------

use std::collections::BTreeSet;

use navmap_language::{Language, Registry};

/// Extracts the facts of one file. `ext` picks the grammar (e.g. `tsx`). Never fails.
pub fn extract(lang: &Language, ext: &str, source: &str) -> facts::FileFacts {
    let _ = (lang, ext, source);
    unimplemented!("navmap-extract::extract is being written")
}

/// Where an import's module specifier leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportTarget {
    /// Repository files (root-relative, `/`-separated): one module file, or the files of a
    /// package/directory module (Go packages, Python packages via `__init__.py` first).
    Files(Vec<String>),
    /// A package outside the repository: becomes the node `<lang>:ext:<package>`.
    External(String),
    /// Looked like a local path but nothing matched.
    Unresolved,
}

/// Resolves module specifiers to files, with each language's rules from its manifest
/// (`[imports]` in `grammars/<id>/language.toml`) and the project's own configuration
/// (tsconfig.json paths, go.mod module path, Cargo workspace members, src/ layouts).
pub struct ImportResolver {
    _private: (),
}

impl ImportResolver {
    /// `files`: every indexed file of the repository (root-relative). `read_file` reads a
    /// root-relative file (config files such as `tsconfig.json`, `go.mod`, `Cargo.toml`);
    /// it returns `None` for a missing or unreadable file.
    pub fn new(
        registry: &Registry,
        files: &BTreeSet<String>,
        read_file: &dyn Fn(&str) -> Option<String>,
    ) -> Self {
        let _ = (registry, files, read_file);
        unimplemented!("navmap-extract::ImportResolver is being written")
    }

    /// Resolves `module` as written in an import of `from_file` (root-relative).
    pub fn resolve(&self, lang: &Language, from_file: &str, module: &str) -> ImportTarget {
        let _ = (lang, from_file, module);
        unimplemented!("navmap-extract::ImportResolver is being written")
    }

    /// Config files whose change invalidates resolution (so the map can re-resolve):
    /// e.g. `tsconfig.json`, `go.mod`, `Cargo.toml`, `pyproject.toml`.
    pub fn config_files(&self) -> Vec<String> {
        unimplemented!("navmap-extract::ImportResolver is being written")
    }
}
