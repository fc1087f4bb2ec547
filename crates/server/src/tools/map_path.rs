//! `map_path {from, to, edgeKinds?, maxLen = 6}`: how one node reaches another. `from` and
//! `to` are node IDs or names as an agent writes them (`tools::symbol`).
//!
//! Without `edgeKinds` the question is "how does A call its way to B": a shortest chain of
//! resolved `calls` edges, a call to one overload going on from any of its group. Only when
//! there is none is a structural path looked for (imports, extends, implements,
//! references, `contains` from a container down to a member, never up: that "found" paths
//! through any file), and the answer says it is not a call chain (`hint`). `edgeKinds`
//! says which kinds the path uses. The path is never cut: a partial path would mislead;
//! long strings are shortened instead.
//!
//! When no chain of the asked kinds (calls by default) exists, the mentions of `to`'s name
//! the map did not link may be the missing step: `unlinkedTotal` counts them, the `hint`
//! points to `map_neighbors`, and `complete: false` says the "no path" is the map's.
//!
//! The answer is `{found, path: [{id, kind, line, edgeToNext?: {kind, confidence}}],
//! edgeKinds?, hint?, unlinkedTotal?, complete?, from?, to?}` (docs/answers.md): each step a compact node view,
//! every edge forward; `from`/`to` name the node a name was resolved to.

use std::sync::Arc;

use navmap_envelope::Payload;
use serde_json::{Value, json};

use super::map_common::{
    EDGE_KINDS, FEW, before_answer, compact_node, parse_error_warning, stale_warning, with_map,
};
use super::map_neighbors::edge_kinds;
use super::symbol::resolve_name;
use super::unlinked;
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;
use navmap_map::{EdgeKind, MentionCheck};

pub struct MapPath;

impl Tool for MapPath {
    fn name(&self) -> &'static str {
        "map_path"
    }

    fn description(&self) -> &'static str {
        "Orient: how from reaches to: call chain, else structural path."
    }

    fn paged(&self) -> bool {
        false
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("from", "nodeId or name").required())
            .param(Param::string("to", "nodeId or name").required())
            .param(Param::strings_of("edgeKinds", "edge kinds", EDGE_KINDS).values_unshown())
            .param(Param::integer("maxLen", "", 1, 10).default(6))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let from_arg = args.str("from")?.to_string();
            let to_arg = args.str("to")?.to_string();
            let kinds = edge_kinds(&args);
            let max = args.int("maxLen")? as u32;
            let notes = before_answer(ctx).await;
            // Node IDs or names, each resolved in the call (which argument a miss came from).
            let from = resolve_name(ctx, "from", &from_arg).await?;
            let to = resolve_name(ctx, "to", &to_arg).await?;
            let (a, b) = (from.id.clone(), to.id.clone());
            // "How does A reach B" asks for calls: a structural path (a type in a
            // signature, a member, an import) is looked for only when no call chain
            // exists, and then said to be one.
            let calls_first = kinds.is_none();
            let r = with_map(ctx, "to", move |m| {
                if calls_first {
                    let r = m.path(&a, &b, Some(&[EdgeKind::Calls]), max)?;
                    if r.found {
                        return Ok((r, true, MentionCheck::default()));
                    }
                }
                let r = m.path(&a, &b, kinds.as_deref(), max)?;
                // No chain of the asked kinds: the uses of `to` the map did not link may
                // be the missing step (contract §2: a miss is never silent).
                let asked: Option<&[EdgeKind]> = match calls_first {
                    true => Some(&[EdgeKind::Calls]),
                    false => kinds.as_deref(),
                };
                let check = unlinked::for_kinds(m.mention_check(&b)?, asked);
                Ok((r, false, check))
            })
            .await;
            let (r, by_calls, check) = r?;
            let unlinked_total = check.unlinked.len();
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
            let mut uses: Vec<&str> = Vec::new();
            for e in r.path.iter().filter_map(|s| s.edge_to_next.as_ref()) {
                if !uses.contains(&e.kind.as_str()) {
                    uses.push(e.kind.as_str());
                }
            }
            let mut data = json!({"found": r.found, "path": path});
            if r.found && r.path.len() > 1 {
                data["edgeKinds"] = uses.clone().into();
            }
            if !r.found {
                data["hint"] = "No path over resolved edges within maxLen. Raise maxLen, drop edgeKinds, or check map_neighbors for candidate edges.".into();
            } else if calls_first && !by_calls && uses.iter().any(|k| *k != "calls") {
                data["hint"] = format!(
                    "No call chain within maxLen: this path goes through {}, not calls only.",
                    uses.join(", ")
                )
                .into();
            }
            if unlinked_total > 0 {
                let what = if calls_first { "call" } else { "use" };
                let said = data["hint"]
                    .as_str()
                    .map(|h| format!("{h} "))
                    .unwrap_or_default();
                data["hint"] = format!(
                    "{said}`to` has {unlinked_total} {what} mention(s) the map could not link: a {what} chain may go through one; map_neighbors on `to` with direction: 'in' lists them (unlinked)."
                )
                .into();
                data["unlinkedTotal"] = unlinked_total.into();
                data["complete"] = false.into();
            }
            // The uses of `to` could not be checked: a miss (or a structural path
            // instead of calls) is not proven.
            let unchecked = check
                .unavailable
                .as_deref()
                .map(|why| unlinked::mark_unavailable(&mut data, why));
            for (chosen, given, key) in [(&from, &from_arg, "from"), (&to, &to_arg, "to")] {
                if chosen.id != *given || !chosen.alternatives.is_empty() {
                    chosen.annotate(&mut data, key);
                }
            }
            let mut payload = Payload::new(data);
            if let Some(w) = unchecked {
                payload = payload.warn(w);
            }
            if let Some(w) = stale_warning(r.path.iter().map(|s| &s.node)) {
                payload = payload.warn(w);
            }
            if let Some(w) = parse_error_warning(r.path.iter().map(|s| &s.node)) {
                payload = payload.warn(w);
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}
