//! The map's answer, marked as such, when the language server cannot serve this project
//! (`LspError::CannotServe`: gopls on a module that needs a newer Go, a server that
//! failed to start twice). The agent gets at once what the map knows — definitions from
//! the map's nodes, references from its incoming edges (the use lines), implementations
//! from its `extends`/`implements` edges, each with the mentions of the name it did not
//! link as the `unlinked` tier (contract §2) — with `source: "fallback-map"`,
//! `complete: false`, and the server's failure in `lspError` (code `LSP_FAILED`, the reason
//! and what would fix it). `nav_callHierarchy` and `nav_workspaceSymbols` have their own
//! map fallbacks (the map's `calls` edges, `map_search`).

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload, ToolError};
use navmap_lsp::{LspError, Position};
use navmap_map::{Direction, EdgeKind, MentionCheck, NodeKind, NodeView};
use serde_json::{Value, json};

use super::anchors::{Anchors, by_place_file_line, group_by_file, read_root_file};
use super::errors::lsp_error;
use super::narrowing::content_generation;
use super::target::Target;
use crate::ServerContext;
use crate::tools::map_common::with_map;
use crate::tools::unlinked;

/// What the map is asked in place of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapFallback {
    /// The map's definitions of the name.
    Definition,
    /// The use lines of the map's incoming edges to those definitions.
    References,
    /// The definitions that extend or implement them.
    Implementations,
}

/// Definitions of the target's name the map has: the one at the target's own position
/// when there is one, else every definition of that name (at most this many).
const MAX_CANDIDATES: usize = 10;
/// Incoming edges read per definition.
const MAX_EDGES: usize = 200;

/// `err` when it is not "this server cannot serve this project"; else the map's answer
/// to the tool's question, marked (see the module docs). A map that cannot answer (not
/// built, the name unknown) leaves the `LSP_FAILED` error as it is.
pub async fn or_map_answer(
    ctx: &Arc<ServerContext>,
    t: &Target,
    err: LspError,
    what: MapFallback,
) -> Result<Payload, ToolError> {
    let cannot_serve = matches!(err, LspError::CannotServe { .. });
    let failed = lsp_error(err, t.lang.id(), None);
    if !cannot_serve {
        return Err(failed);
    }
    let Some(word) = t.word() else {
        return Err(failed);
    };
    let (rel, line) = (t.rel.clone(), t.line);
    let found = with_map(ctx, "file", move |map| {
        let hits = map.search(&word, None, 100)?;
        let named: Vec<NodeView> = hits
            .results
            .into_iter()
            .map(|h| h.node)
            .filter(|n| n.name == word && n.kind != NodeKind::File && n.file.is_some())
            .collect();
        let here: Vec<NodeView> = named
            .iter()
            .filter(|n| n.file.as_deref() == Some(rel.as_str()) && n.line == Some(line))
            .cloned()
            .collect();
        let targets: Vec<NodeView> = if here.is_empty() {
            named.into_iter().take(MAX_CANDIDATES).collect()
        } else {
            here
        };
        let kinds: &[EdgeKind] = match what {
            MapFallback::Definition => return Ok((targets, Vec::new(), MentionCheck::default())),
            MapFallback::References => &[],
            MapFallback::Implementations => &[EdgeKind::Extends, EdgeKind::Implements],
        };
        let edges = (!kinds.is_empty()).then_some(kinds);
        let mut related = Vec::new();
        // The mentions of the name that no edge links to any of the targets (contract §2:
        // the map's uses come with what it did not link).
        let mut unlinked: Option<MentionCheck> = None;
        for n in &targets {
            let r = map.neighbors(&n.id, Direction::In, edges, 1, MAX_EDGES)?;
            related.extend(
                r.neighbors
                    .into_iter()
                    .filter(|nb| nb.edge != EdgeKind::Contains),
            );
            let check = unlinked::for_kinds(map.mention_check(&n.id)?, edges);
            unlinked = Some(match unlinked {
                None => check,
                // A target whose check could not be made: what no edge links to any of
                // them cannot be told (never the others' rows as if it were).
                Some(so_far) if so_far.unavailable.is_some() => so_far,
                Some(_) if check.unavailable.is_some() => check,
                Some(mut so_far) => {
                    so_far.unlinked.retain(|m| check.unlinked.contains(m));
                    so_far
                }
            });
        }
        Ok((targets, related, unlinked.unwrap_or_default()))
    })
    .await;
    let Ok((targets, related, unlinked_check)) = found else {
        return Err(failed);
    };
    if targets.is_empty() {
        return Err(failed.with_extra(
            "mapFallback",
            "the map has no definition of this name either",
        ));
    }
    let mut anchors = Anchors::new(ctx);
    let mut at = |file: &str, line: u32, col: Option<u32>, end: Option<u32>| {
        let col = col.unwrap_or_else(|| {
            // The name's column on the use line, when it is there.
            let text = read_root_file(&ctx.root, &ctx.root.join(file)).unwrap_or_default();
            text.lines()
                .nth(line.saturating_sub(1) as usize)
                .and_then(|l| {
                    let w = t.word().unwrap_or_default();
                    l.find(w.as_str())
                        .map(|b| l[..b].encode_utf16().count() as u32 + 1)
                })
                .unwrap_or(1)
        });
        let start = Position::new(line.saturating_sub(1), col.saturating_sub(1));
        anchors.anchor(
            &ctx.root.join(file),
            start,
            end.map(|e| e.saturating_sub(1)),
        )
    };
    let mut locations: Vec<Value> = match what {
        MapFallback::Definition => targets
            .iter()
            .filter_map(|n| Some(at(n.file.as_deref()?, n.line?, n.col, n.end_line)))
            .collect(),
        MapFallback::References => related
            .iter()
            .filter_map(|nb| Some(at(nb.node.file.as_deref()?, nb.line?, None, None)))
            .collect(),
        MapFallback::Implementations => related
            .iter()
            .filter_map(|nb| {
                let n = &nb.node;
                Some(at(n.file.as_deref()?, n.line?, n.col, n.end_line))
            })
            .collect(),
    };
    locations.sort_by(by_place_file_line);
    locations.dedup();
    let total = locations.len();
    let groups = group_by_file(locations);
    let mut lsp = json!({"code": failed.code.as_str(), "message": failed.message});
    if !failed.hint.is_empty() {
        lsp["hint"] = Value::from(failed.hint.clone());
    }
    let mut data = json!({
        "target": t.json(),
        "locations": groups,
        "total": total,
        "source": "fallback-map",
        "complete": false,
        "lspError": lsp,
    });
    super::target::drop_null_target(&mut data);
    if targets.len() > 1 {
        data["candidates"] = Value::from(targets.iter().map(|n| n.id.clone()).collect::<Vec<_>>());
    }
    let said = match what {
        MapFallback::Definition => "the map's definitions of the name",
        MapFallback::References => "the uses the map linked to the name (its incoming edges)",
        MapFallback::Implementations => "the map's extends/implements edges",
    };
    let has_unlinked = unlinked::add_tier(&ctx.root, &mut data, &unlinked_check);
    let misses = match (has_unlinked, &unlinked_check.unavailable) {
        (true, _) => "the mentions of the name it did not link are listed as unlinked",
        (false, Some(_)) => "the mentions of the name it did not link could not be checked",
        (false, None) => "may miss uses the map did not link",
    };
    let narrowing = "Pass nodeId to pick one definition";
    let mut payload = Payload::new(data.clone())
        .generation(content_generation(&data))
        .list(ListSpec::new("/locations", "files").narrowing(narrowing))
        .list(ListSpec::new("/locations/*/at", "locations").narrowing(narrowing))
        .warn(format!(
            "{} — answered from the map instead (fallback-map: {said}; approximate, {misses}).",
            failed.message
        ));
    if has_unlinked {
        payload = unlinked::declare(payload, narrowing);
    }
    if let Some(w) = unlinked::warning(&unlinked_check) {
        payload = payload.warn(w);
    }
    Ok(t.warnings.iter().cloned().fold(payload, Payload::warn))
}
