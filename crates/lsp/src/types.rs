//! Plain result values. Positions are LSP coordinates: 0-based lines, 0-based columns in
//! UTF-16 code units (`lsp_types::Position`/`Range`); the server converts them to the
//! 1-based MCP surface. Paths are absolute (decoded from `file://` URIs) and may lie
//! outside the root (library code): the caller decides how to show them.

use std::path::PathBuf;

pub use lsp_types::{Position, Range, SymbolKind};

/// An answer and how much to trust it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<T> {
    pub value: T,
    /// False when the list is a lower bound: the server was still indexing when it
    /// answered (a non-empty partial answer; an empty one is an error instead).
    pub complete: bool,
    /// Things the caller should pass on ("server still indexing", "2 results with a
    /// non-file URI were dropped").
    pub warnings: Vec<String>,
    /// How long the server took to answer the final request (the rest of the call's
    /// time is navmap's: sync, readiness check, decoding).
    pub server_time: std::time::Duration,
}

/// A place in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    pub path: PathBuf,
    /// The name (for a `LocationLink`, its `targetSelectionRange`).
    pub range: Range,
    /// The whole construct when the server said (`LocationLink.targetRange`).
    pub full_range: Option<Range>,
}

/// Hover text, flattened to one markdown string.
#[derive(Debug, Clone, PartialEq)]
pub struct Hover {
    pub contents: String,
    /// `markdown` or `plaintext`: what the server sent.
    pub format: &'static str,
    pub range: Option<Range>,
}

/// One node of a file's outline.
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub range: Range,
    /// The name.
    pub selection_range: Range,
    pub children: Vec<DocumentSymbol>,
}

/// A workspace-symbol match.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceSymbol {
    pub name: String,
    pub kind: SymbolKind,
    pub container: Option<String>,
    pub path: PathBuf,
    /// `None` when the server gave only the file (`WorkspaceSymbol` with a bare URI).
    pub range: Option<Range>,
}

/// A call-hierarchy item. Keeps the server's own item to ask for its calls later, and the
/// language whose server produced it (so the pool asks the same server).
#[derive(Debug, Clone, PartialEq)]
pub struct CallItem {
    pub name: String,
    pub kind: SymbolKind,
    pub detail: Option<String>,
    pub path: PathBuf,
    pub range: Range,
    pub selection_range: Range,
    pub language: String,
    pub raw: lsp_types::CallHierarchyItem,
}

/// A call edge: `item` is the caller (incoming) or the callee (outgoing); `ranges` are
/// the call sites, in the caller's file.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub item: CallItem,
    pub ranges: Vec<Range>,
}
