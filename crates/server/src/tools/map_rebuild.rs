//! `map_rebuild {paths?, full = false}`: bring the map up to date with the disk.
//!
//! Incremental (only files whose size/mtime and then content changed are re-indexed);
//! single-flight: a call while a build runs (e.g. the one `navmap serve` starts) joins it
//! and returns its summary. Progress goes to every caller that sent a progress token (see
//! `mcp.rs` and [`super::map_common::MapProgress`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use navmap_envelope::Payload;
use navmap_map::RebuildOptions;
use serde_json::json;

use super::map_common::with_map;
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct MapRebuild;

impl Tool for MapRebuild {
    fn name(&self) -> &'static str {
        "map_rebuild"
    }

    fn description(&self) -> &'static str {
        "Refresh the map from disk (incremental) when stale."
    }

    fn paged(&self) -> bool {
        false
    }

    fn read_only(&self) -> bool {
        false
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::strings("paths", "files or dirs"))
            .param(Param::boolean("full", "").default(false))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let paths = match args.opt_strings("paths") {
                Some(ps) if !ps.is_empty() => Some(
                    ps.iter()
                        .map(|p| match p.trim() {
                            "" | "." | "./" => Ok(".".to_string()),
                            p => ctx.resolve_file("paths", p.trim_end_matches('/')),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
                _ => None,
            };
            let full = args.bool("full")?;
            let hub = ctx.clone();
            let s = with_map(ctx, "paths", move |m| {
                m.rebuild(RebuildOptions { paths, full }, &|p| {
                    hub.map_progress.emit(p)
                })
            })
            .await?;
            Ok(Payload::new(summary_json(&s)))
        })
    }
}

/// The `map_rebuild` answer for a rebuild's summary (also `navmap rebuild`'s, when the map
/// could tell from SQLite alone that nothing changed).
pub(crate) fn summary_json(s: &navmap_map::RebuildSummary) -> serde_json::Value {
    let skipped: BTreeMap<&str, u64> = s
        .files_skipped
        .iter()
        .map(|(r, n)| (r.as_str(), *n))
        .collect();
    json!({
        "filesScanned": s.files_scanned,
        "filesIndexed": s.files_indexed,
        "filesDeleted": s.files_deleted,
        "filesResolved": s.files_resolved,
        "durationMs": s.duration_ms,
        "generation": s.generation,
        "files": s.files,
        "symbols": s.symbols,
        "edges": s.edges,
        "skipped": skipped,
    })
}
