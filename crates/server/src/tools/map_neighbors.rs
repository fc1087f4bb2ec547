//! `map_neighbors {nodeId, direction = both, edgeKinds?, depth = 1, maxNodes = 50}`: what
//! a node calls, imports, extends… and what points at it, best-first (depth, then hub
//! score). Unresolved edges are listed once with `confidence: candidate` and not
//! expanded. `kind` keeps only neighbors of those node kinds ("the methods of X":
//! `direction: out, edgeKinds: [contains], kind: [method]`). `maxNodes` caps the list
//! (reported in `dropped`); `/neighbors` may be cut further by the budget (narrowing:
//! `edgeKinds`, `direction`, `kind`, `depth: 1`, never one the call set).
//!
//! The answer is `{node: {id, kind, line}, neighbors: [{id, kind, line, edge?, direction?,
//! depth?, via?, confidence, edgeLine?, signature?, doc?}], total}` (docs/answers.md):
//! `edge`/`direction`/`depth` are left out when the request fixed one value for them
//! (`confidence` when it asked for `contains` edges only: always exact),
//! `via` appears from depth 2, `signature`/`doc` only when the list is short.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_map::{Direction, EdgeKind, NodeKind};
use serde_json::{Value, json};

use super::map_common::{EDGE_KINDS, FEW, before_answer, compact_node, stale_warning, with_map};
use super::map_search::KINDS;
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct MapNeighbors;

/// `edgeKinds` as map edge kinds (`None` = all).
pub fn edge_kinds(args: &Args) -> Option<Vec<EdgeKind>> {
    args.opt_strings("edgeKinds")
        .filter(|v| !v.is_empty())
        .map(|v| v.iter().filter_map(|k| EdgeKind::parse(k)).collect())
}

impl Tool for MapNeighbors {
    fn name(&self) -> &'static str {
        "map_neighbors"
    }

    fn description(&self) -> &'static str {
        "Orient: callers, callees, imports, bases and members of a node (map; each edge with its confidence). Cheap; nav_references is authoritative."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("nodeId", "").required())
            .param(
                Param::one_of(
                    "direction",
                    "in: edges to it; out: from it.",
                    &["in", "out", "both"],
                )
                .default("both"),
            )
            .param(Param::strings_of("edgeKinds", "", EDGE_KINDS))
            .param(Param::strings_of("kind", "Node kinds.", &KINDS[1..]))
            .param(Param::integer("depth", "", 1, 3).default(1))
            .param(Param::integer("maxNodes", "", 1, 200).default(50))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let id = args.str("nodeId")?.to_string();
            let direction = Direction::parse(args.str("direction")?)
                .ok_or_else(|| args.bad("direction", "in, out or both"))?;
            let kinds = edge_kinds(&args);
            let depth = args.int("depth")? as u32;
            let max = args.int("maxNodes")? as usize;
            let node_kinds: Option<Vec<NodeKind>> = args
                .opt_strings("kind")
                .filter(|v| !v.is_empty())
                .map(|v| v.iter().filter_map(|k| NodeKind::parse(k)).collect());
            // What the request fixed need not be repeated on every item.
            let one_edge = kinds.as_ref().is_some_and(|k| k.len() == 1);
            // `contains` edges are exact by construction: asking for them alone makes
            // `confidence` a constant.
            let only_contains = kinds
                .as_ref()
                .is_some_and(|k| k.iter().all(|e| *e == EdgeKind::Contains));
            let one_direction = direction != Direction::Both;
            let notes = before_answer(ctx).await;
            let (r, generation) = with_map(ctx, "nodeId", move |m| {
                Ok((
                    m.neighbors_of_kind(
                        &id,
                        direction,
                        kinds.as_deref(),
                        node_kinds.as_deref(),
                        depth,
                        max,
                    )?,
                    m.generation(),
                ))
            })
            .await?;
            let detail = r.neighbors.len() <= FEW;
            let neighbors: Vec<Value> = r
                .neighbors
                .iter()
                .map(|n| {
                    let mut o = compact_node(&n.node, detail);
                    if !one_edge {
                        o.insert("edge".into(), n.edge.as_str().into());
                    }
                    if !one_direction {
                        o.insert("direction".into(), n.direction.as_str().into());
                    }
                    if depth > 1 {
                        o.insert("depth".into(), n.depth.into());
                    }
                    // `resolved` is `confidence != candidate`: not repeated.
                    if !only_contains {
                        o.insert("confidence".into(), n.confidence.as_str().into());
                    }
                    if n.depth > 1 {
                        o.insert("via".into(), n.via.clone().into());
                    }
                    if let Some(l) = n.line {
                        // The line of the use, in the file of the edge's source.
                        o.insert("edgeLine".into(), l.into());
                    }
                    Value::Object(o)
                })
                .collect();
            let node = compact_node(&r.node, false);
            let data = json!({
                "node": Value::Object(node),
                "neighbors": neighbors,
                "total": r.total,
            });
            let mut spec = ListSpec::new("/neighbors", "neighbors")
                .narrowing_param("edgeKinds", "edgeKinds")
                .narrowing_param("direction", "direction:'in'|'out'")
                .narrowing_param("kind", "kind");
            if depth > 1 {
                // Another value than the one in effect: suggested although depth was set.
                spec = spec.narrowing_always("depth:1");
            }
            let mut payload = Payload::new(data).list(spec).generation(generation).capped(
                "neighbors",
                r.neighbors.len(),
                r.total,
                "maxNodes",
                max as i64,
                "Pass edgeKinds, direction or kind to narrow",
            );
            if let Some(w) =
                stale_warning(std::iter::once(&r.node).chain(r.neighbors.iter().map(|n| &n.node)))
            {
                payload = payload.warn(w);
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}
