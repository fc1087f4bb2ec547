//! `map_search {query, kind = any, limit = 20}`: find nodes by name.
//!
//! Ranked by the map (exact > prefix > substring > qualified name > path > fuzzy, each
//! weighted by hub score). `/results` may be cut to the budget (narrowing: `kind` or a
//! longer `query`); `total` counts every match before `limit`.
//!
//! "Where is X": when the query names symbols exactly and the call did not set `limit`,
//! the answer is those exact hits alone, with `others` (how many other matches there are)
//! and a hint to pass `limit` for them. Results are compact node views (docs/answers.md):
//! `{id, kind, line, match, signature?, doc?}`, `signature`/`doc` with `detail: true`;
//! without it, `signature` only where overloads (`f`, `f~2`) need telling apart.
//!
//! The query may be a name as an agent writes it (`requests.get`, `sessions.Session`,
//! `sessions.py#Session`, a node ID): what it names comes first, as exact hits (the map's
//! `find_symbol`).

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_map::NodeKind;
use serde_json::{Value, json};

use super::map_common::{
    before_answer, compact_node, parse_error_warning, stale_warning, with_map,
};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;
use navmap_map::MatchKind;

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
        "Orient: symbols, files by name → nodeIds (exact hits alone unless limit set)."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(
                Param::string("query", "name or path part")
                    .min_len(2)
                    .required(),
            )
            .param(
                Param::one_of("kind", "node kind", KINDS)
                    .default("any")
                    .values_unshown(),
            )
            .param(Param::integer("limit", "", 1, 100).default(20))
            .param(Param::boolean("detail", ""))
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
            let exact = found
                .results
                .iter()
                .take_while(|h| h.matched == MatchKind::Exact)
                .count();
            let alone = !args.given("limit") && exact > 0;
            let hits = if alone {
                &found.results[..exact]
            } else {
                &found.results[..]
            };
            // The ID is the answer to "where is X": signatures and docs only when asked,
            // or (signatures) to tell overloads apart (`f`, `f~2`: same ID but the `~n`).
            let detail = args.opt_bool("detail");
            let group = |id: &str| id.split_once('~').map_or(id, |(g, _)| g).to_string();
            let overloaded = |id: &str| {
                let g = group(id);
                hits.iter().filter(|h| group(&h.node.id) == g).count() > 1
            };
            let results: Vec<Value> = hits
                .iter()
                .map(|h| {
                    let mut o = compact_node(&h.node, detail.unwrap_or(false));
                    if detail.is_none()
                        && overloaded(&h.node.id)
                        && let Some(sig) = &h.node.signature
                    {
                        o.insert("signature".into(), sig.clone().into());
                    }
                    o.insert("match".into(), h.matched.as_str().into());
                    Value::Object(o)
                })
                .collect();
            let mut data = json!({"results": results, "total": found.total});
            if found.results.is_empty() {
                data["hint"] = "No match. Try a shorter or differently cased query, kind:'any', or map_overview to browse.".into();
            } else if alone && found.total > exact {
                let others = found.total - exact;
                data["others"] = others.into();
                data["hint"] = format!(
                    "Exact match(es) only; {others} more (ranked: exact, prefix, substring, fuzzy): pass limit to list them."
                )
                .into();
            }
            // `query` is always set, yet a longer one still narrows.
            let spec = ListSpec::new("/results", "results")
                .narrowing_param("kind", "kind")
                .narrowing_always("a longer query");
            let mut payload = Payload::new(data).list(spec).generation(generation);
            if !alone {
                payload = payload.capped(
                    "results",
                    found.results.len(),
                    found.total,
                    "limit",
                    limit as i64,
                    "Pass kind or a longer query to narrow",
                );
            }
            if let Some(w) = stale_warning(hits.iter().map(|h| &h.node)) {
                payload = payload.warn(w);
            }
            if let Some(w) = parse_error_warning(hits.iter().map(|h| &h.node)) {
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
