//! `map_overview {focus?, hubsPerCluster = 5}`: the repository at a glance — clusters of
//! files that belong together, each with its most central symbols.
//!
//! `/clusters/*/hubs` are trimmed evenly first, then `/clusters` (largest first) is cut to
//! the budget; narrowing: `focus` on a subtree or a smaller `hubsPerCluster`.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use serde_json::{Value, json};

use super::map_common::{
    before_answer, node_json, rfc3339, stale_files_warning, stale_warning, with_map,
};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct MapOverview;

impl Tool for MapOverview {
    fn name(&self) -> &'static str {
        "map_overview"
    }

    fn description(&self) -> &'static str {
        "Orient: clusters of files (by directory) with their central symbols. Start here in unfamiliar code."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("focus", "Only this directory or file."))
            .param(Param::integer("hubsPerCluster", "", 1, 20).default(5))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let focus = match args.opt_str("focus") {
                Some(f) if !matches!(f.trim(), "" | "." | "./") => {
                    Some(ctx.resolve_file("focus", f.trim().trim_end_matches('/'))?)
                }
                _ => None,
            };
            let hubs = args.int("hubsPerCluster")? as usize;
            let notes = before_answer(ctx).await;
            let (o, generation) = with_map(ctx, "focus", move |m| {
                Ok((m.overview(focus.as_deref(), hubs)?, m.generation()))
            })
            .await?;
            let clusters: Vec<Value> = o
                .clusters
                .iter()
                .map(|c| {
                    json!({
                        "id": c.id,
                        "label": c.label,
                        "files": c.files,
                        "hubs": c.hubs.iter().map(|h| Value::Object(node_json(h))).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let data = json!({
                "builtAt": o.built_at.map(rfc3339),
                "files": o.files,
                "symbols": o.symbols,
                "staleFiles": o.stale_files.len(),
                "languages": o.languages,
                "clusters": clusters,
            });
            let mut payload = Payload::new(data)
                .list(
                    ListSpec::new("/clusters", "clusters")
                        .narrowing("Pass focus:'<dir>' to scope or a smaller hubsPerCluster"),
                )
                // Hubs come best first; trimmed evenly per cluster before clusters go.
                .list(
                    ListSpec::new("/clusters/*/hubs", "hubs")
                        .narrowing("Pass a smaller hubsPerCluster or focus:'<dir>'"),
                )
                .generation(generation);
            if let Some(w) = stale_warning(o.clusters.iter().flat_map(|c| &c.hubs)) {
                payload = payload.warn(w);
            } else if !o.stale_files.is_empty() {
                payload = payload.warn(stale_files_warning(o.stale_files.len()));
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}
