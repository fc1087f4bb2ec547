//! `map_status {}`: what the map and the language servers are doing.
//!
//! Answers before (and without) a map. Until the map crate is wired into the
//! [`ServerContext`] there is no map to report, so `built` is false and the counts are 0;
//! the map engineer replaces those fields with the map's own figures, and the LSP engineer
//! fills `lsp` with `{<lang>: {state, command, detail}}`.

use std::sync::Arc;

use navmap_envelope::Payload;
use serde_json::json;

use super::{Args, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct MapStatus;

impl Tool for MapStatus {
    fn name(&self) -> &'static str {
        "map_status"
    }

    fn description(&self) -> &'static str {
        "Is the map built and fresh, which languages and language servers are available. Cheap; call first."
    }

    fn params(&self) -> Params {
        Params::new()
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, _args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            Ok(Payload::new(json!({
                "built": false,
                "builtAt": null,
                "generation": 0,
                "root": ctx.root_display(),
                "version": ctx.version(),
                "files": 0,
                "symbols": 0,
                "edges": 0,
                "staleFiles": 0,
                "watching": false,
                "languages": ctx.languages.ids(),
                "lsp": {},
            })))
        })
    }
}
