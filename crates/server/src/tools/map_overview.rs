//! `map_overview {focus?, hubsPerCluster?}`: the repository at a glance — clusters of
//! files that belong together, each with its most central symbols.
//!
//! `/clusters/*/hubs` are trimmed evenly first, then `/clusters` (largest first) is cut to
//! the budget; narrowing: `focus` on a subtree or a smaller `hubsPerCluster`. Without
//! `hubsPerCluster` the answer fills the budget: up to 20 hubs per cluster are offered and
//! the envelope keeps as many as fit (with a cursor for the rest).
//!
//! Shape (docs/answers.md): `{builtAt, files, symbols, staleFiles, languages, clusters:
//! [{id, label, files, hubs: [{id, kind, line}]}], other?: {clusters, files}, hint?}`. A
//! cluster's `label` is the directory holding most of its hubs (so it never contradicts
//! them); clusters without hubs (mostly single files) are folded into `other`; `hint` says when
//! `focus` matched no file.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use serde_json::{Value, json};

use super::map_common::{
    before_answer, compact_node, rfc3339, stale_files_warning, stale_warning, with_map,
};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;
use navmap_envelope::busiest_dir;

pub struct MapOverview;

impl Tool for MapOverview {
    fn name(&self) -> &'static str {
        "map_overview"
    }

    fn description(&self) -> &'static str {
        "Orient: clusters of files by directory, with central symbols. Start here in unfamiliar code."
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
            // Unset: offer the most and let the budget decide how many are shown.
            let hubs = if args.given("hubsPerCluster") {
                args.int("hubsPerCluster")? as usize
            } else {
                20
            };
            let focused = focus.is_some();
            let notes = before_answer(ctx).await;
            let (o, generation) = with_map(ctx, "focus", move |m| {
                Ok((m.overview(focus.as_deref(), hubs)?, m.generation()))
            })
            .await?;
            let (mut other_clusters, mut other_files) = (0usize, 0usize);
            let mut clusters: Vec<Value> = Vec::new();
            for c in &o.clusters {
                // A cluster without hubs says nothing but its size: counted, not listed.
                if c.hubs.is_empty() {
                    other_clusters += 1;
                    other_files += c.files;
                    continue;
                }
                let files: Vec<&str> = c.hubs.iter().filter_map(|h| h.file.as_deref()).collect();
                // The directory of most hubs; one hub (or one file): its directory.
                let label = busiest_dir(files.iter().copied())
                    .map(|d| d.trim_end_matches('/').to_string())
                    .or_else(|| {
                        files
                            .first()
                            .map(|f| f.rsplit_once('/').map_or(".", |(d, _)| d).to_string())
                    })
                    .unwrap_or_else(|| c.label.clone());
                clusters.push(json!({
                    "id": c.id,
                    "label": label,
                    "files": c.files,
                    "hubs": c.hubs.iter().map(|h| Value::Object(compact_node(h, false))).collect::<Vec<_>>(),
                }));
            }
            let mut data = json!({
                "builtAt": o.built_at.map(rfc3339),
                "files": o.files,
                "symbols": o.symbols,
                "staleFiles": o.stale_files.len(),
                "languages": o.languages,
                "clusters": clusters,
            });
            if other_clusters > 0 {
                data["other"] = json!({"clusters": other_clusters, "files": other_files});
            }
            if focused && o.files == 0 {
                data["hint"] = "focus matched no indexed file. Pass a root-relative directory or file (map_status lists languages; map_search finds files by name).".into();
            }
            let mut payload = Payload::new(data)
                .list(
                    ListSpec::new("/clusters", "clusters")
                        .narrowing_param("focus", "focus:'<dir>'")
                        .narrowing_param("hubsPerCluster", "a smaller hubsPerCluster"),
                )
                // Hubs come best first; trimmed evenly per cluster before clusters go.
                .list(
                    ListSpec::new("/clusters/*/hubs", "hubs")
                        .narrowing_param("hubsPerCluster", "a smaller hubsPerCluster")
                        .narrowing_param("focus", "focus:'<dir>'"),
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
