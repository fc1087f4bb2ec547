//! What the map tools share: node views as JSON, map errors as envelope errors, running
//! map queries off the async runtime, stale warnings, and the rebuild progress hub.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use navmap_envelope::{ErrorCode, ToolError};
use navmap_map::{Map, MapError, NodeKind, NodeView, Phase, Progress};
use serde_json::{Map as JsonMap, Value, json};

use crate::ServerContext;

/// `map_*` argument names of the edge kinds, for `edgeKinds`.
pub const EDGE_KINDS: &[&str] = &[
    "contains",
    "imports",
    "exports",
    "calls",
    "extends",
    "implements",
    "references",
];

/// The hint of `MAP_NOT_BUILT`, honest about a build under way.
fn not_built(map: &Map) -> ToolError {
    let (message, hint) = if map.is_building() {
        (
            "The map is being built.",
            "Call map_rebuild to wait for the build under way (it joins it); nav_* tools work meanwhile.",
        )
    } else {
        (
            "The map has not been built yet.",
            "Call map_rebuild to build it; nav_* tools work without the map.",
        )
    };
    ToolError::new(ErrorCode::MapNotBuilt, message, hint)
}

/// A map error as the envelope error; `field` names the argument a node ID came from.
pub fn map_error(map: &Map, e: MapError, field: &str) -> ToolError {
    match e {
        MapError::NotBuilt => not_built(map),
        MapError::NodeNotFound(id) => ToolError::new(
            ErrorCode::NodeNotFound,
            format!("{field}: no node {id:?} in the map"),
            "Get node IDs from map_search or map_overview; if the code changed, map_rebuild first.",
        )
        .with_extra("field", field)
        .with_extra("nodeId", id),
        MapError::BadNodeId { id, reason } => ToolError::new(
            ErrorCode::BadNodeId,
            format!("{field}: {id:?} is not a node ID: {reason}"),
            "A node ID is <lang>:<path>[#<qualifiedName>[~<n>]], e.g. py:src/app.py#Cart.add or py:src/app.py (a file); map_search returns them.",
        )
        .with_extra("field", field),
        MapError::BadArgs { field, message } => {
            ToolError::bad_args(format!("{field}: {message}"), "See the tool's parameters in tools/list.")
                .with_extra("field", field)
        }
        MapError::Unreadable(m) => ToolError::new(
            ErrorCode::MapNotBuilt,
            format!("{m}."),
            "Call map_rebuild: it brings the map and its database together again; nav_* tools work meanwhile.",
        ),
        MapError::Refused(m) => ToolError::internal(m),
        MapError::Internal(m) => ToolError::internal(m),
    }
}

/// Runs a blocking map call on the blocking pool.
pub async fn with_map<T: Send + 'static>(
    ctx: &Arc<ServerContext>,
    field: &'static str,
    f: impl FnOnce(&Map) -> Result<T, MapError> + Send + 'static,
) -> Result<T, ToolError> {
    let map = ctx.map.clone();
    let out = tokio::task::spawn_blocking(move || {
        let r = f(&map);
        r.map_err(|e| map_error(&map, e, field))
    })
    .await;
    match out {
        Ok(r) => r,
        Err(e) => Err(ToolError::internal(format!("map task failed: {e}"))),
    }
}

/// The full node view: `{id, kind, name, file, line, signature?, doc?, score, cluster?,
/// stale?}` (absent rather than null; `stale` only when true). Map answers use the compact
/// [`compact_node`] instead (docs/answers.md); this one is for answers that describe one
/// node in full.
pub fn node_json(n: &NodeView) -> JsonMap<String, Value> {
    let mut o = JsonMap::new();
    o.insert("id".into(), n.id.clone().into());
    o.insert("kind".into(), n.kind.as_str().into());
    o.insert("name".into(), n.name.clone().into());
    if let Some(f) = &n.file {
        o.insert("file".into(), f.clone().into());
    }
    if let Some(l) = n.line {
        o.insert("line".into(), l.into());
    }
    if let Some(s) = &n.signature {
        o.insert("signature".into(), s.clone().into());
    }
    if let Some(d) = &n.doc {
        o.insert("doc".into(), d.clone().into());
    }
    o.insert("score".into(), json!(n.score));
    if let Some(c) = n.cluster {
        o.insert("cluster".into(), c.into());
    }
    if n.stale {
        o.insert("stale".into(), true.into());
    }
    o
}

/// Lists of at most this many nodes carry `signature` and `doc` in their compact views.
pub const FEW: usize = 5;

/// The compact node view of map answers (docs/answers.md): `{id, kind, line, signature?,
/// doc?, stale?}`. `file` and `name` are left out because the ID says them
/// (`<lang>:<file>#<qualified.name>`); `signature`/`doc` only when `detail` (the list is
/// short, or the node is the answer itself); `stale` only when true. A file's `line` (always
/// 1) is left out too.
pub fn compact_node(n: &NodeView, detail: bool) -> JsonMap<String, Value> {
    let mut o = JsonMap::new();
    o.insert("id".into(), n.id.clone().into());
    o.insert("kind".into(), n.kind.as_str().into());
    if let Some(l) = n.line.filter(|_| n.kind != NodeKind::File) {
        o.insert("line".into(), l.into());
    }
    if detail {
        if let Some(s) = &n.signature {
            o.insert("signature".into(), s.clone().into());
        }
        if let Some(d) = &n.doc {
            o.insert("doc".into(), d.clone().into());
        }
    }
    if n.stale {
        o.insert("stale".into(), true.into());
    }
    o
}

/// The warning for answers that touch stale files, if any: how many, and what to do.
pub fn stale_warning<'a>(nodes: impl IntoIterator<Item = &'a NodeView>) -> Option<String> {
    let files: BTreeSet<&str> = nodes
        .into_iter()
        .filter(|n| n.stale)
        .filter_map(|n| n.file.as_deref())
        .collect();
    (!files.is_empty()).then(|| stale_files_warning(files.len()))
}

/// The warning for answers that touch files with syntax errors, if any: which files (a
/// few), and that the map holds only what the parser recovered from them.
pub fn parse_error_warning<'a>(nodes: impl IntoIterator<Item = &'a NodeView>) -> Option<String> {
    let files: BTreeSet<&str> = nodes
        .into_iter()
        .filter(|n| n.parse_errors)
        .filter_map(|n| n.file.as_deref())
        .collect();
    if files.is_empty() {
        return None;
    }
    const NAMED: usize = 3;
    let mut named: Vec<&str> = files.iter().copied().take(NAMED).collect();
    let more = files.len().saturating_sub(NAMED);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    named.sort();
    Some(format!(
        "{}{more} had syntax errors when indexed: the map holds what the parser recovered from them (a definition or a use may be missing); nav_* tools ask the language server.",
        named.join(", ")
    ))
}

/// `n` files touched by an answer changed since they were indexed.
pub fn stale_files_warning(n: usize) -> String {
    format!(
        "{n} file(s) changed since the last index; their nodes carry stale:true. Lines may be off: resolve gives live positions; map_rebuild re-indexes now (the watcher does shortly)."
    )
}

/// What every map answer does first: the first build when the map was never built
/// (`crate::startup::first_build`), else the read-through refresh of a few stale files
/// (`crate::freshness`); returns the warnings every map answer carries (a noticeable wait
/// for the first build, the map's age).
pub async fn before_answer(ctx: &Arc<ServerContext>) -> Vec<String> {
    let mut warnings: Vec<String> = crate::startup::first_build(ctx).await.into_iter().collect();
    ctx.freshness.read_through().await;
    warnings.extend(ctx.freshness.age_warning(None));
    warnings
}

/// `builtAt` as RFC 3339 UTC (`2026-11-05T14:03:00Z`).
pub fn rfc3339(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// A progress report for MCP: monotonic `progress` out of `total`, and a message.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressUpdate {
    pub progress: f64,
    pub total: f64,
    pub message: String,
}

pub type ProgressSink = Arc<dyn Fn(ProgressUpdate) + Send + Sync>;

/// Fans the progress of whichever rebuild is running out to everyone who asked for it:
/// the `map_rebuild` calls that carried a progress token (joiners of a running build
/// included) and `navmap rebuild`'s progress bar.
#[derive(Default)]
pub struct MapProgress {
    subscribers: Mutex<Vec<(u64, ProgressSink)>>,
    next: Mutex<u64>,
}

impl std::fmt::Debug for MapProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MapProgress")
    }
}

/// Unsubscribes when dropped.
pub struct Subscription<'a> {
    hub: &'a MapProgress,
    id: u64,
}

impl Drop for Subscription<'_> {
    fn drop(&mut self) {
        if let Ok(mut s) = self.hub.subscribers.lock() {
            s.retain(|(id, _)| *id != self.id);
        }
    }
}

impl MapProgress {
    pub fn subscribe(&self, sink: ProgressSink) -> Subscription<'_> {
        let id = {
            let mut n = self.next.lock().unwrap_or_else(|p| p.into_inner());
            *n += 1;
            *n
        };
        if let Ok(mut s) = self.subscribers.lock() {
            s.push((id, sink));
        }
        Subscription { hub: self, id }
    }

    /// Called by the builder (on its thread) for every progress step.
    pub fn emit(&self, p: Progress) {
        let update = to_update(p);
        let sinks: Vec<ProgressSink> = match self.subscribers.lock() {
            Ok(s) => s.iter().map(|(_, f)| f.clone()).collect(),
            Err(_) => return,
        };
        for s in sinks {
            s(update.clone());
        }
    }
}

/// Phases as spans of one 0–100 scale: scanning 0–5, indexing 5–85, resolving 85–95,
/// ranking 95–100.
fn to_update(p: Progress) -> ProgressUpdate {
    let frac = if p.total > 0 {
        (p.done as f64 / p.total as f64).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (start, span) = match p.phase {
        Phase::Scanning => (0.0, 5.0),
        Phase::Indexing => (5.0, 80.0),
        Phase::Resolving => (85.0, 10.0),
        Phase::Ranking => (95.0, 5.0),
    };
    let message = if p.total > 0 {
        format!("{} {}/{}", p.phase.as_str(), p.done, p.total)
    } else {
        p.phase.as_str().to_string()
    };
    ProgressUpdate {
        progress: start + span * frac,
        total: 100.0,
        message,
    }
}

/// Subscribes an MCP progress-token holder to the map's progress: notifications go out in
/// order, each with a progress value above the last (MCP requires it to increase).
pub fn forward_progress<'a>(
    ctx: &'a Arc<ServerContext>,
    peer: rmcp::Peer<rmcp::RoleServer>,
    token: rmcp::model::ProgressToken,
) -> Subscription<'a> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<ProgressUpdate>();
    tokio::spawn(async move {
        let mut last = -1.0f64;
        while let Some(u) = rx.recv().await {
            if u.progress <= last {
                continue;
            }
            last = u.progress;
            let mut p = rmcp::model::ProgressNotificationParam::new(token.clone(), u.progress)
                .with_total(u.total);
            p.message = Some(u.message);
            if peer.notify_progress(p).await.is_err() {
                break;
            }
        }
    });
    ctx.map_progress.subscribe(Arc::new(move |u| {
        let _ = tx.send(u);
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn progress_fans_out_and_unsubscribes() {
        let hub = MapProgress::default();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s2 = seen.clone();
        {
            let _sub = hub.subscribe(Arc::new(move |u| s2.lock().unwrap().push(u.progress)));
            hub.emit(Progress {
                phase: Phase::Indexing,
                done: 1,
                total: 2,
            });
        }
        hub.emit(Progress {
            phase: Phase::Ranking,
            done: 0,
            total: 1,
        });
        assert_eq!(*seen.lock().unwrap(), vec![45.0]);
    }
}
