//! `map_search {query, kind = any, limit = 20}`: find nodes by name.
//!
//! Ranked by the map (exact > prefix > substring > qualified name > path > fuzzy, each
//! weighted by hub score). `/results` may be cut to the budget (narrowing: `kind` or a
//! longer `query`); `total` counts every match before `limit`.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_map::NodeKind;
use serde_json::{Value, json};

use super::map_common::{before_answer, node_json, stale_warning, with_map};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

/// `any` plus every node kind of contract §3.
pub const KINDS: &[&str] = &[
    "any",
    "file",
    "module",
    "class",
    "interface",
    "trait",
    "struct",
    "enum",
    "function",
    "method",
    "variable",
    "constant",
    "type_alias",
    "property",
];

pub struct MapSearch;

impl Tool for MapSearch {
    fn name(&self) -> &'static str {
        "map_search"
    }

    fn description(&self) -> &'static str {
        "Orient: find symbols and files by name (exact first), ranked by importance; gives node IDs for the other tools."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(
                Param::string("query", "Name, qualified name or path part.")
                    .min_len(2)
                    .required(),
            )
            .param(Param::one_of("kind", "", KINDS).default("any"))
            .param(Param::integer("limit", "", 1, 100).default(20))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let query = args.str("query")?.to_string();
            let kind = match args.str("kind")? {
                "any" => None,
                k => Some(NodeKind::parse(k).ok_or_else(|| args.bad("kind", "unknown kind"))?),
            };
            let limit = args.int("limit")? as usize;
            let notes = before_answer(ctx).await;
            let (found, generation) = with_map(ctx, "query", move |m| {
                Ok((m.search(&query, kind, limit)?, m.generation()))
            })
            .await?;
            let results: Vec<Value> = found
                .results
                .iter()
                .map(|h| {
                    let mut o = node_json(&h.node);
                    o.insert("match".into(), h.matched.as_str().into());
                    Value::Object(o)
                })
                .collect();
            let hint = found.results.is_empty().then_some(
                "No match. Try a shorter or differently cased query, kind:'any', or map_overview to browse.",
            );
            let mut data = json!({"results": results, "total": found.total});
            if let Some(h) = hint {
                data["hint"] = h.into();
            }
            let mut payload = Payload::new(data)
                .list(
                    ListSpec::new("/results", "results")
                        .narrowing("Pass kind or a longer query to narrow"),
                )
                .generation(generation);
            if let Some(w) = stale_warning(found.results.iter().map(|h| &h.node)) {
                payload = payload.warn(w);
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navmap_map::NodeKind;

    #[test]
    fn kinds_are_any_plus_the_node_kinds() {
        let expected: Vec<&str> = std::iter::once("any")
            .chain(NodeKind::ALL.iter().map(|k| k.as_str()))
            .collect();
        assert_eq!(KINDS, expected.as_slice());
    }
}
