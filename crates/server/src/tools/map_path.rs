//! `map_path {from, to, edgeKinds?, maxLen = 6}`: a shortest chain of resolved edges from
//! one node to another. Every edge is followed in its own direction: calls, imports,
//! extends, implements, references, and `contains` only from a container down to a member
//! (never up: that "found" paths through any file). The path is never cut: a partial path
//! would mislead; long strings are shortened instead.
//!
//! The answer is `{found, path: [{id, kind, line, edgeToNext?: {kind, confidence}}]}`
//! (docs/answers.md): each step a compact node view, every edge forward.

use std::sync::Arc;

use navmap_envelope::Payload;
use serde_json::{Value, json};

use super::map_common::{EDGE_KINDS, FEW, before_answer, compact_node, stale_warning, with_map};
use super::map_neighbors::edge_kinds;
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct MapPath;

impl Tool for MapPath {
    fn name(&self) -> &'static str {
        "map_path"
    }

    fn description(&self) -> &'static str {
        "Orient: how node `from` reaches node `to`: a shortest chain of resolved map edges."
    }

    fn paged(&self) -> bool {
        false
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("from", "").required())
            .param(Param::string("to", "").required())
            .param(Param::strings_of("edgeKinds", "", EDGE_KINDS))
            .param(Param::integer("maxLen", "", 1, 10).default(6))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let from = args.str("from")?.to_string();
            let to = args.str("to")?.to_string();
            let kinds = edge_kinds(&args);
            let max = args.int("maxLen")? as u32;
            let notes = before_answer(ctx).await;
            // Which argument a bad/unknown ID came from.
            let from_ok = {
                let f = from.clone();
                with_map(ctx, "from", move |m| m.node(&f).map(|_| ())).await
            };
            from_ok?;
            let r = with_map(ctx, "to", move |m| {
                m.path(&from, &to, kinds.as_deref(), max)
            })
            .await?;
            let path: Vec<Value> = r
                .path
                .iter()
                .map(|s| {
                    let mut o = compact_node(&s.node, r.path.len() <= FEW);
                    if let Some(e) = &s.edge_to_next {
                        o.insert(
                            "edgeToNext".into(),
                            json!({
                                "kind": e.kind.as_str(),
                                "confidence": e.confidence.as_str(),
                            }),
                        );
                    }
                    Value::Object(o)
                })
                .collect();
            let mut data = json!({"found": r.found, "path": path});
            if !r.found {
                data["hint"] = "No path over resolved edges within maxLen. Raise maxLen, drop edgeKinds, or check map_neighbors for candidate edges.".into();
            }
            let mut payload = Payload::new(data);
            if let Some(w) = stale_warning(r.path.iter().map(|s| &s.node)) {
                payload = payload.warn(w);
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}
