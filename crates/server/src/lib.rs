//! navmap's server: the MCP binding (rmcp over stdio or streamable HTTP), the tools, argument validation
//! and the CLI.
//!
//! Owns: the tool registry ([`tools`]), argument checking ([`tools::Params`]), the
//! [`Engine`] that turns one call into one envelope (budget, cursor, panic → `INTERNAL`),
//! the [`ServerContext`] tools share, the path rules for `file` arguments, and the MCP
//! surface ([`mcp`]). It is the only crate that knows MCP and JSON envelopes.
//!
//! Must not touch: tree-sitter or SQLite (the map crate answers in plain values), the LSP
//! wire protocol (the lsp crate), any language by name (the registry comes from
//! `navmap-grammars`), and stdout outside the MCP transport and `navmap call`/`status`
//! output (logs go to stderr through `tracing`).
//!
//! ```
//! use std::sync::Arc;
//! use navmap::{Engine, ServerContext};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let ctx = Arc::new(ServerContext::new(dir.path(), None).unwrap());
//! let engine = Engine::new(ctx);
//! let rt = tokio::runtime::Runtime::new().unwrap();
//! let out = rt.block_on(engine.call("map_status", None));
//! let env: serde_json::Value = serde_json::from_str(&out.text).unwrap();
//! assert_eq!(env["ok"], true);
//! assert_eq!(env["data"]["built"], false);
//! ```

pub mod cli;
pub mod client_config;
mod context;
mod engine;
mod frames;
pub mod freshness;
pub mod http;
pub mod map_folder;
pub mod mcp;
pub mod memory;
mod paths;
mod rebuild_cli;
mod servers_cli;
mod setup_cli;
pub mod startup;
mod stdout;
pub mod tools;

pub use context::{ContextError, DB_ENV, ServerContext};
pub use engine::{Engine, Registered};
