//! `map_neighbors {nodeId, direction = both, edgeKinds?, depth = 1, maxNodes = 50}`: what
//! a node calls, imports, extends… and what points at it, best-first (depth, then hub
//! score). Unresolved edges are listed once with `confidence: candidate` and not
//! expanded. `/neighbors` may be cut (narrowing: `edgeKinds`, `direction`, `depth: 1`).

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_map::{Direction, EdgeKind};
use serde_json::{Value, json};

use super::map_common::{EDGE_KINDS, before_answer, node_json, stale_warning, with_map};
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
            let notes = before_answer(ctx).await;
            let (r, generation) = with_map(ctx, "nodeId", move |m| {
                Ok((
                    m.neighbors(&id, direction, kinds.as_deref(), depth, max)?,
                    m.generation(),
                ))
            })
            .await?;
            let neighbors: Vec<Value> = r
                .neighbors
                .iter()
                .map(|n| {
                    let mut o = node_json(&n.node);
                    o.insert("edge".into(), n.edge.as_str().into());
                    o.insert("direction".into(), n.direction.as_str().into());
                    o.insert("depth".into(), n.depth.into());
                    o.insert("resolved".into(), n.resolved.into());
                    o.insert("confidence".into(), n.confidence.as_str().into());
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
            let data = json!({
                "node": Value::Object(node_json(&r.node)),
                "neighbors": neighbors,
                "total": r.total,
            });
            let mut payload = Payload::new(data)
                .list(
                    ListSpec::new("/neighbors", "neighbors")
                        .narrowing("Pass edgeKinds or direction to narrow, or depth: 1"),
                )
                .generation(generation);
            if let Some(w) =
                stale_warning(std::iter::once(&r.node).chain(r.neighbors.iter().map(|n| &n.node)))
            {
                payload = payload.warn(w);
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}
