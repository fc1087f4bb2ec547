//! Extraction: one file's source → [`facts::FileFacts`] (definitions, uses, imports), with
//! the tree-sitter grammars and queries of its language directory; and import resolution
//! (a module specifier → the repository files it names, or an external package).
//!
//! Pure and per file: no database, no I/O but what the caller hands in, safe to run in
//! parallel. Never fails: a file that does not parse yields what tree-sitter recovered,
//! with `had_errors` set. Must not name a language: everything language-specific comes
//! from `navmap-language` (queries and manifest rules in `grammars/<id>/`).

pub mod facts;
