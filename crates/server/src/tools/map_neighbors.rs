//! `map_neighbors {nodeId, direction = both, edgeKinds?, depth = 1, maxNodes = 50}`: what
//! a node calls, imports, extends… and what points at it, best-first (depth, then hub
//! score). Unresolved edges are listed once with `confidence: candidate` and not
//! expanded. `kind` keeps only neighbors of those node kinds ("the methods of X":
//! `direction: out, edgeKinds: [contains], kind: [method]`). `maxNodes` caps the list
//! (reported in `dropped`); `/neighbors` may be cut further by the budget (narrowing:
//! `edgeKinds`, `direction`, `kind`, `depth: 1`, never one the call set).
//!
//! The answer is `{file?, neighbors: [{id | name, kind, line,
//! edge?, direction?, depth?, via?, confidence?, edgeLine?, signature?, doc?} | row],
//! total}` (docs/answers.md): `edge`/`direction`/`depth` are left out when the request
//! fixed one value for them, `confidence` when it is `exact`, `edgeLine` when it is the
//! neighbor's own line, `kind` for a file (its ID has no `#`); `via` appears from depth
//! 2; when every neighbor is in one file, `file` names that file's ID once and each
//! neighbor carries `name` (its ID is `file#name`), and one with nothing more to say than
//! name, kind and line is the row `<line> <kind> <name>`. `signature`/`doc` come with
//! `detail: true`, or by default for a short list of call or reference edges (for
//! structural edges the identity is the answer).

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_map::{Direction, EdgeKind, NodeKind};
use serde_json::{Value, json};

use super::map_common::{
    EDGE_KINDS, FEW, before_answer, compact_node, parse_error_warning, stale_warning, with_map,
};
use super::map_search::KINDS;
use super::unlinked;
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct MapNeighbors;

/// The file ID (`<lang>:<path>`) all of `ids` share, when there are at least two and each
/// is a symbol in that file (`<lang>:<path>#…`).
fn one_file_prefix<'a>(mut ids: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let first = ids.next()?.split_once('#')?.0;
    let mut n = 1;
    for id in ids {
        if id.split_once('#').map(|(f, _)| f) != Some(first) {
            return None;
        }
        n += 1;
    }
    (n >= 2).then_some(first)
}

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
        "Orient: a node's callers, callees, imports, bases, members."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("nodeId", super::nav_common::target::NODE_ID))
            .param(super::symbol::symbol_param())
            .param(Param::one_of("direction", "in: to it", &["in", "out", "both"]).default("both"))
            .param(Param::strings_of("edgeKinds", "edge kinds", EDGE_KINDS).values_unshown())
            .param(Param::strings_of("kind", "node kinds", &KINDS[1..]).values_unshown())
            .param(Param::integer("depth", "", 1, 3).default(1))
            .param(Param::integer("maxNodes", "", 1, 200).default(50))
            .param(Param::boolean("detail", ""))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let id = args
                .opt_str("nodeId")
                .ok_or_else(|| args.bad("nodeId", "pass nodeId or symbol"))?
                .to_string();
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
            // For structural edges the neighbor's identity is the answer (which files
            // import it, what a class or file holds, what derives from it): signatures
            // and docs only when asked. Calls and references keep them for short lists.
            let structural = kinds.as_ref().is_some_and(|k| {
                k.iter().all(|e| {
                    matches!(
                        e,
                        EdgeKind::Contains
                            | EdgeKind::Imports
                            | EdgeKind::Exports
                            | EdgeKind::Extends
                            | EdgeKind::Implements
                    )
                })
            });
            let asked_detail = args.opt_bool("detail");
            // Uses of the node (edges in): the mentions of its name they did not link
            // come as the `unlinked` tier (contract §2).
            let reconcile = direction != Direction::Out && unlinked::about_uses(kinds.as_deref());
            // What the node calls (edges out): the calls in its text the map did not link.
            let reconcile_out = direction != Direction::In
                && kinds
                    .as_deref()
                    .is_none_or(|ks| ks.contains(&EdgeKind::Calls));
            let notes = before_answer(ctx).await;
            let (r, generation, check) = with_map(ctx, "nodeId", move |m| {
                let r = m.neighbors_of_kind(
                    &id,
                    direction,
                    kinds.as_deref(),
                    node_kinds.as_deref(),
                    depth,
                    max,
                )?;
                let mut check = match reconcile {
                    true => Some(unlinked::for_kinds(m.mention_check(&id)?, kinds.as_deref())),
                    false => None,
                };
                if reconcile_out {
                    let own = m.callee_check(&id)?;
                    let check = check.get_or_insert_with(Default::default);
                    check.unlinked.extend(own.unlinked);
                    // Either check unavailable: the answer cannot account for its tier.
                    if check.unavailable.is_none() {
                        check.unavailable = own.unavailable;
                    }
                }
                Ok((r, m.generation(), check))
            })
            .await?;
            let detail = asked_detail.unwrap_or(r.neighbors.len() <= FEW && !structural);
            // Every neighbor in one file: the file's ID once, each neighbor by `name` (its
            // ID's part after `#`) rather than the prefix repeated on every item.
            let one_file = one_file_prefix(r.neighbors.iter().map(|n| n.node.id.as_str()));
            // A structural list over several files (subclasses, implementers across a
            // package) is grouped by file, as the nav tools' anchors are: each file's ID
            // once, then its neighbors as rows (issue 18: the identity is the answer, and
            // the file prefix repeated on every row cost more than a grep line).
            let grouped = one_file.is_none()
                && structural
                && r.neighbors.len() >= 2
                && r.neighbors.iter().all(|n| n.node.id.contains('#'));
            let entry = |n: &navmap_map::Neighbor, prefix: Option<&str>| -> Value {
                let mut o = compact_node(&n.node, detail);
                if n.node.kind == NodeKind::File {
                    o.remove("kind");
                }
                if let Some(f) = prefix {
                    let id = o.remove("id").unwrap_or_default();
                    let name = id.as_str().unwrap_or("")[f.len() + 1..].to_string();
                    let mut named = serde_json::Map::new();
                    named.insert("name".into(), name.into());
                    named.extend(o);
                    o = named;
                }
                if !one_edge {
                    o.insert("edge".into(), n.edge.as_str().into());
                }
                if !one_direction {
                    o.insert("direction".into(), n.direction.as_str().into());
                }
                if depth > 1 {
                    o.insert("depth".into(), n.depth.into());
                }
                if !only_contains && n.confidence.as_str() != "exact" {
                    o.insert("confidence".into(), n.confidence.as_str().into());
                }
                if n.depth > 1 {
                    o.insert("via".into(), n.via.clone().into());
                }
                let own_line = n.direction == Direction::In && n.line == n.node.line;
                if let Some(l) = n.line.filter(|_| !own_line) {
                    o.insert("edgeLine".into(), l.into());
                }
                // A structural row may say its confidence: `1294 class Handler (import)`.
                let plain = o.keys().all(|k| {
                    matches!(k.as_str(), "name" | "kind" | "line")
                        || (structural && k == "confidence")
                });
                match (prefix, plain, o.get("line").and_then(Value::as_u64)) {
                    (Some(_), true, Some(line)) => {
                        let mut row = format!(
                            "{line} {} {}",
                            o["kind"].as_str().unwrap_or(""),
                            o["name"].as_str().unwrap_or("")
                        );
                        if let Some(c) = o.get("confidence").and_then(Value::as_str) {
                            row.push_str(&format!(" ({c})"));
                        }
                        Value::from(row)
                    }
                    _ => Value::Object(o),
                }
            };
            let neighbors: Vec<Value> = if grouped {
                let mut groups: Vec<(&str, Vec<Value>)> = vec![];
                for n in &r.neighbors {
                    let f = n.node.id.split_once('#').map_or("", |(f, _)| f);
                    let row = entry(n, Some(f));
                    match groups.iter_mut().find(|(g, _)| *g == f) {
                        Some((_, rows)) => rows.push(row),
                        None => groups.push((f, vec![row])),
                    }
                }
                groups
                    .into_iter()
                    .map(|(f, at)| json!({"file": f, "at": at}))
                    .collect()
            } else {
                r.neighbors.iter().map(|n| entry(n, one_file)).collect()
            };
            let mut data = json!({
                "neighbors": neighbors,
                "total": r.total,
            });
            if let Some(f) = one_file {
                data["file"] = f.into();
            }
            let has_unlinked = check
                .as_ref()
                .is_some_and(|c| unlinked::add_tier(&ctx.root, &mut data, c));
            let mut spec = ListSpec::new("/neighbors", "neighbors")
                .narrowing_param("edgeKinds", "edgeKinds")
                .narrowing_param("direction", "direction:'in'|'out'")
                .narrowing_param("kind", "kind");
            if depth > 1 {
                // Another value than the one in effect: suggested although depth was set.
                spec = spec.narrowing_always("depth:1");
            }
            let mut payload = Payload::new(data);
            if grouped {
                // Thinned evenly across files before whole files go (as nav anchors).
                payload = payload.list(
                    ListSpec::new("/neighbors/*/at", "neighbors")
                        .narrowing_param("edgeKinds", "edgeKinds")
                        .narrowing_param("kind", "kind"),
                );
                spec = ListSpec::new("/neighbors", "files")
                    .narrowing_param("edgeKinds", "edgeKinds")
                    .narrowing_param("kind", "kind");
            }
            let mut payload = payload.list(spec).generation(generation).capped(
                "neighbors",
                r.neighbors.len(),
                r.total,
                "maxNodes",
                max as i64,
                "Pass edgeKinds, direction or kind to narrow",
            );
            if has_unlinked {
                payload = unlinked::declare(payload, "Pass edgeKinds or direction to narrow");
            }
            if let Some(w) = check.as_ref().and_then(unlinked::warning) {
                payload = payload.warn(w);
            }
            if let Some(w) =
                stale_warning(std::iter::once(&r.node).chain(r.neighbors.iter().map(|n| &n.node)))
            {
                payload = payload.warn(w);
            }
            if let Some(w) = parse_error_warning(
                std::iter::once(&r.node).chain(r.neighbors.iter().map(|n| &n.node)),
            ) {
                payload = payload.warn(w);
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::one_file_prefix;

    #[test]
    fn one_file_prefix_needs_two_symbols_of_one_file() {
        let p = |ids: &[&'static str]| one_file_prefix(ids.iter().copied());
        assert_eq!(p(&["py:a.py#x", "py:a.py#C.y"]), Some("py:a.py"));
        assert_eq!(p(&["py:a.py#x"]), None, "one neighbor keeps its id");
        assert_eq!(p(&["py:a.py#x", "py:b.py#x"]), None);
        assert_eq!(
            p(&["py:a.py", "py:a.py#x"]),
            None,
            "a file is not in a file"
        );
        assert_eq!(p(&[]), None);
    }
}
