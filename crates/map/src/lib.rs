//! The map: a structural index of one repository, built with tree-sitter and kept in SQLite.
//!
//! Owns extraction (tree-sitter queries from the language directories → [`facts`]),
//! resolution (names → edges with a confidence), storage (SQLite, incremental rebuild,
//! generations), ranking (hub scores) and clustering, and the read queries behind the
//! `map_*` tools. Returns plain Rust values.
//!
//! Must not touch: MCP, JSON envelopes or token budgets (the server crate shapes answers),
//! language servers (the lsp crate), or any language by name (languages are data, from
//! `navmap-language`).

pub mod facts;
