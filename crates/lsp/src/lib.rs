//! Live navigation: language-server clients started on demand (contract §5).
//!
//! Owns the conversation with real language servers (pyright, typescript-language-server,
//! rust-analyzer, …): spawning them, JSON-RPC over their stdio, readiness, document sync,
//! deadlines, crashes and restarts, idle shutdown, a bounded stderr ring. Returns plain Rust
//! values with positions in LSP coordinates (0-based lines, UTF-16 columns) and absolute
//! paths. **Must not** know MCP, envelopes or the map, and names no language: commands,
//! install hints, `languageId`s and settings come from each language's manifest `[lsp]`
//! table (`grammars/<id>/language.toml`) through [`navmap_language::Registry`].
//!
//! ```no_run
//! # async fn demo(registry: navmap_language::Registry) -> Result<(), navmap_lsp::LspError> {
//! use navmap_lsp::{LspConfig, LspPool, Position};
//! let pool = LspPool::new("/path/to/repo", registry, LspConfig::from_env());
//! let defs = pool
//!     .definition("shop/api.py".as_ref(), Position::new(14, 32))
//!     .await?;
//! for loc in &defs.value {
//!     println!("{}:{}", loc.path.display(), loc.range.start.line + 1);
//! }
//! assert!(defs.complete || !defs.warnings.is_empty());
//! pool.shutdown_all().await;
//! # Ok(()) }
//! ```
//!
//! Key decisions (see each module):
//! - one process per server command line and root, so languages sharing a server share a
//!   process ([`pool`]);
//! - readiness = initialized, no `$/progress` active, not `quiescent: false`, and quiet for
//!   a settle time; an empty answer from a server that was not ready is retried, never
//!   returned as "no results" ([`query`]);
//! - servers run in their own process group, killed as a whole on shutdown and on drop
//!   ([`client`]).

pub mod api;
pub mod client;
pub mod config;
pub mod confine;
pub mod docs;
pub mod error;
pub mod framing;
pub mod health;
pub mod install;
pub mod locate;
pub mod pool;
pub mod prepare;
mod project_copy;
pub mod query;
pub mod stderr;
pub mod types;
pub mod uri;

pub use config::LspConfig;
pub use error::LspError;
pub use pool::{LspPool, ServerState, ServerStatus};
pub use query::Deadline;
pub use types::{
    Answer, Call, CallItem, DocumentSymbol, Hover, Location, Position, Range, SymbolKind,
    WorkspaceSymbol,
};

/// The lsp-types version the API is typed with.
pub use lsp_types;
