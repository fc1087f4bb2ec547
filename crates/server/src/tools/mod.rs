//! The tools: one file per tool, one registry list ([`all`]).
//!
//! A tool declares its name, a short description (the agent pays for every word of
//! `tools/list`), its parameters ([`Params`], which give both the JSON schema and the
//! validation), whether it is read-only, and an async `call`. The engine does the rest for
//! every tool alike: `BAD_ARGS` for invalid arguments, `tokenBudget` and `cursor`, paging,
//! truncation to the budget, catching panics (→ `INTERNAL`), and the envelope.
//!
//! # Adding a tool
//! Create `src/tools/map_example.rs`, then add `mod map_example;` and one line to [`all`]:
//!
//! ```
//! use std::sync::Arc;
//! use navmap::tools::{Args, Param, Params, Tool, ToolFuture};
//! use navmap::ServerContext;
//! use navmap_envelope::{ListSpec, Payload, ToolError};
//! use serde_json::json;
//!
//! pub struct MapExample;
//!
//! impl Tool for MapExample {
//!     fn name(&self) -> &'static str { "map_example" }
//!     fn description(&self) -> &'static str { "Lists the known languages whose id starts with prefix." }
//!     fn params(&self) -> Params {
//!         Params::new()
//!             .param(Param::string("prefix", "Language id prefix").required())
//!             .param(Param::integer("limit", "Max languages", 1, 50).default(10))
//!     }
//!     fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
//!         Box::pin(async move {
//!             let prefix = args.str("prefix")?;
//!             let limit = args.int("limit")? as usize;
//!             if prefix.contains('/') {
//!                 return Err(args.bad("prefix", "must not contain '/'"));
//!             }
//!             let ids: Vec<&str> = ctx.languages.ids().into_iter()
//!                 .filter(|id| id.starts_with(prefix)).take(limit).collect();
//!             Ok(Payload::new(json!({"languages": ids, "total": ids.len()}))
//!                 // The envelope may cut this list to fit tokenBudget, and says so.
//!                 .list(ListSpec::new("/languages", "languages")
//!                     .narrowing("Pass a longer prefix to narrow")))
//!         })
//!     }
//! }
//!
//! # let ctx = Arc::new(ServerContext::new(std::path::Path::new("."), None).unwrap());
//! # let engine = navmap::Engine::with_tools(ctx, vec![Arc::new(MapExample)]);
//! # let rt = tokio::runtime::Runtime::new().unwrap();
//! # let out = rt.block_on(engine.call("map_example", json!({"prefix": "py"}).as_object().cloned()));
//! # assert!(out.ok, "{}", out.text);
//! # assert!(out.text.contains(r#""languages":["py"]"#), "{}", out.text);
//! # let bad = rt.block_on(engine.call("map_example", json!({"limit": 5}).as_object().cloned()));
//! # assert!(bad.text.contains("BAD_ARGS") && bad.text.contains("prefix"), "{}", bad.text);
//! ```
//!
//! Errors are `Err(ToolError::new(ErrorCode::…, message, hint))`; lists a budget may cut
//! are declared with [`ListSpec`](navmap_envelope::ListSpec) (a ranker if the list is not
//! already best-first); cursors are bound to [`Payload::generation`](navmap_envelope::Payload)
//! (the map generation for map tools). Blocking work (SQLite) belongs on
//! `tokio::task::spawn_blocking` with a clone of the context `Arc`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use navmap_envelope::{Payload, ToolError};

use crate::ServerContext;

mod args;
mod crossing;
mod debug_panic;
pub mod map_common;
mod map_neighbors;
mod map_overview;
mod map_path;
pub(crate) mod map_rebuild;
pub(crate) mod map_search;
mod map_status;
mod nav_call_hierarchy;
mod nav_common;
mod nav_definition;
mod nav_implementations;
mod nav_references;
mod nav_symbols;
mod nav_type;
mod nav_workspace_symbols;
mod resolve;
pub(crate) mod symbol;
mod unlinked;

pub use args::{Args, Param, Params};

/// What a tool's `call` returns: its answer before it meets the budget, or a domain error.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<Payload, ToolError>> + Send + 'a>>;

/// One MCP tool. See the module docs for an example.
pub trait Tool: Send + Sync + 'static {
    /// The MCP tool name (`map_search`).
    fn name(&self) -> &'static str;
    /// One or two sentences that teach when to use it.
    fn description(&self) -> &'static str;
    /// Declared parameters; `tokenBudget` and `cursor` are added for every tool.
    fn params(&self) -> Params;
    /// Does the answer hold a list a budget can cut? Only then does `tools/list` show
    /// `cursor` (every tool accepts it).
    fn paged(&self) -> bool {
        true
    }
    /// `readOnlyHint`; only `map_rebuild` writes (its map folder).
    fn read_only(&self) -> bool {
        true
    }
    /// The deadline of the whole call for the language servers it asks (docs/lsp.md):
    /// every request of the call shares it (`LspPool::within`). References, workspace
    /// symbols and call hierarchy have the long one.
    fn deadline(&self) -> navmap_lsp::Deadline {
        navmap_lsp::Deadline::Normal
    }
    /// Answers one validated call. Panics are caught and become `INTERNAL`.
    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a>;
}

/// Every tool navmap serves, in `tools/list` order. One line per tool.
pub fn all() -> Vec<Arc<dyn Tool>> {
    let mut tools: Vec<Arc<dyn Tool>> = vec![
        Arc::new(map_status::MapStatus),
        Arc::new(map_overview::MapOverview),
        Arc::new(map_search::MapSearch),
        Arc::new(map_neighbors::MapNeighbors),
        Arc::new(map_path::MapPath),
        Arc::new(map_rebuild::MapRebuild),
        Arc::new(nav_definition::NavDefinition),
        Arc::new(nav_references::NavReferences),
        Arc::new(nav_implementations::NavImplementations),
        Arc::new(nav_type::NavType),
        Arc::new(nav_symbols::NavSymbols),
        Arc::new(nav_workspace_symbols::NavWorkspaceSymbols),
        Arc::new(nav_call_hierarchy::NavCallHierarchy),
        Arc::new(resolve::Resolve),
    ];
    if debug_panic::enabled() {
        tools.push(Arc::new(debug_panic::DebugPanic));
    }
    tools
}
