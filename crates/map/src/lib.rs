//! The map: a structural index of one repository kept in SQLite.
//!
//! Owns the build (walking the root, running `navmap-extract` on changed files in
//! parallel), resolution (names → edges with a confidence), storage (SQLite, incremental
//! rebuild, generations), ranking (hub scores) and clustering, and the read queries behind
//! the `map_*` tools. Returns plain Rust values.
//!
//! Must not touch: MCP, JSON envelopes or token budgets (the server crate shapes answers),
//! language servers (the lsp crate), tree-sitter (the extract crate), or any language by
//! name (languages are data, from `navmap-language`).

pub use navmap_extract::facts::{Confidence, EdgeKind, NodeKind};
