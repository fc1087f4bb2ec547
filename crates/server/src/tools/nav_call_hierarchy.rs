//! `nav_callHierarchy {file, line, col = 1 | nodeId, direction, depth 1–3 = 1, maxSites = 3,
//! fileFilter?, excludeTests = false, includeExternal = false}`: who calls the symbol at a
//! position (incoming) or what it calls (outgoing), to `depth` levels → `{root,
//! direction?: "outgoing", source, calls: [{name, kind, file, line, col, endLine?,
//! detail?, depth?, via?, sites: [{line, col, snippet?}], moreSites?, seen?}], total,
//! leftOut?, complete?, snapped?}` (docs/answers.md; `complete: false` only when the servers' answer
//! was not whole).
//!
//! - `depth` and `via` only when `depth > 1` (at depth 1 they repeat the request); sites
//!   name no `file` when they are in the caller's file (incoming: the item's, outgoing: the
//!   root's); at most `maxSites` per call, `moreSites` counts the rest.
//! - Ranked: depth, then non-test before test code (generic path rules,
//!   `nav_common::is_test_path`), then file and line. `fileFilter` and `excludeTests`
//!   leave calls out (`leftOut` counts them; not incompleteness, not a warning). Callees outside the root
//!   are left out with a count unless `includeExternal`, then `{name, kind, external:
//!   true}` without any path. Overload declarations of one function are one item.
//! - The sites are declared as a nested list (`/calls/*/sites`): a budget cut thins them
//!   before it drops callers, and a cut of callers leaves a cursor.
//!
//! - `source: "lsp"`: the server's call hierarchy. A position just off an identifier (in a
//!   body, on whitespace) snaps to the innermost enclosing symbol and retries once; the
//!   answer says so (`snapped` and a warning).
//! - `source: "fallback-references"` (incoming, server without call hierarchy): the
//!   references of the symbol, each attributed to the innermost symbol of the server's
//!   outline that encloses it. References outside the root are counted, not followed.
//! - `source: "fallback-map"` (outgoing, server without call hierarchy): the map's
//!   `calls` edges from the innermost map definition around the position (with their
//!   `confidence` and `nodeId`); a map that is not built is a warning, never an error.
//!   With no server installed at all, both directions come from the map's `calls` edges
//!   (incoming: the edges into the definition), with a warning naming the missing server
//!   and its install command: never `LSP_UNAVAILABLE`.
//!
//! - Incoming (`lsp` or `fallback-references`): the map's call mentions of the name in
//!   files without a direct caller in the server's answer come as `unverified` rows
//!   (`crossing.rs`, docs/answers.md "Live answers cross-checked").
//!
//! `via` names the item one level up (the root for depth 1); `sites` are the call sites
//! (in the caller's file). An item reached twice is listed again with `seen: true` and not
//! expanded again (recursion and cycles).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use navmap_envelope::{ErrorCode, ListSpec, Payload, ToolError};
use navmap_lsp::{CallItem, DocumentSymbol, LspError, Position};
use navmap_map::{Direction, EdgeKind, MentionCheck, NodeKind};
use serde_json::{Value, json};

use super::crossing;
use super::map_common::with_map;
use super::nav_common::{
    Anchors, Place, Target, content_generation, enclosing, is_test_item, is_test_path, kind_name,
    lsp_error, mark_incomplete, nav_narrowing, nearby, position_params, where_they_are,
};
use super::nav_references::FileFilter;
use super::unlinked;
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavCallHierarchy;

/// Callers found by the references fallback: (file, name position), the caller's item,
/// its call sites, and its name when it can be followed further.
type Group = ((PathBuf, Position), Value, Vec<Value>, Option<String>);

/// Items listed at most, whatever the depth.
const MAX_CALLS: usize = 200;

impl Tool for NavCallHierarchy {
    fn name(&self) -> &'static str {
        "nav_callHierarchy"
    }

    fn deadline(&self) -> navmap_lsp::Deadline {
        navmap_lsp::Deadline::Long
    }

    fn description(&self) -> &'static str {
        "Drill: callers or callees (live, else marked fallback)."
    }

    fn params(&self) -> Params {
        position_params()
            .into_iter()
            .fold(Params::new(), Params::param)
            .param(
                Param::one_of("direction", "callers or callees", &["incoming", "outgoing"])
                    .required(),
            )
            .param(Param::integer("depth", "", 1, 3).default(1))
            .param(Param::integer("maxSites", "sites per call", 1, 100).default(3))
            .param(Param::string("fileFilter", "glob or path prefix"))
            .param(Param::boolean("excludeTests", "").default(false))
            .param(Param::boolean("includeExternal", "").default(false))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let t = Target::from_args(ctx, &args).await?;
            let incoming = args.str("direction")? == "incoming";
            let depth = args.int("depth")? as usize;
            let filter = match args.opt_str("fileFilter").filter(|f| !f.trim().is_empty()) {
                Some(f) => Some(FileFilter::parse(&args, f)?),
                None => None,
            };
            let lang = t.lang.id().to_string();
            let mut run = Run {
                ctx,
                args: &args,
                filter,
                lang: lang.clone(),
                anchors: Anchors::new(ctx),
                outlines: HashMap::new(),
                warnings: t.warnings.clone(),
                complete: true,
                map_unlinked: None,
            };

            // Prepare at the position; once more at the enclosing symbol if that finds nothing.
            let mut snapped = None;
            let first = if t.word().is_some() {
                Some(ctx.lsp.prepare_call_hierarchy(&t.abs, t.pos).await)
            } else {
                None
            };
            let root = match first {
                Some(Err(LspError::NoCapability { .. })) => {
                    return run.fallback(&t, incoming, depth).await;
                }
                Some(Err(e @ (LspError::Unavailable { .. } | LspError::CannotServe { .. }))) => {
                    let why = lsp_error(e, &lang, None);
                    return Ok(run.without_server(&t, incoming, depth, why).await);
                }
                Some(Err(e)) => return Err(lsp_error(e, &lang, None)),
                Some(Ok(a)) if !a.value.is_empty() => {
                    run.complete &= a.complete;
                    a.value.into_iter().next()
                }
                _ => None,
            };
            let root = match root {
                Some(r) => r,
                None => {
                    let sym = match run.snap_target(&t).await {
                        Ok(sym) => sym,
                        Err(why) if why.code == ErrorCode::LspUnavailable => {
                            return Ok(run.without_server(&t, incoming, depth, why).await);
                        }
                        Err(e) => return Err(e),
                    };
                    let at = sym.selection_range.start;
                    match ctx.lsp.prepare_call_hierarchy(&t.abs, at).await {
                        Err(LspError::NoCapability { .. }) => {
                            return run.fallback(&t, incoming, depth).await;
                        }
                        Err(e) => return Err(lsp_error(e, &lang, None)),
                        Ok(a) if !a.value.is_empty() => {
                            run.complete &= a.complete;
                            snapped = Some(run.snap_note(&t, &sym));
                            a.value.into_iter().next().expect("non-empty")
                        }
                        Ok(_) => return Err(run.not_found(&t).await),
                    }
                }
            };

            let root_json = run.item_json(
                &root.path,
                root.selection_range.start,
                root.range.end.line,
                &root.name,
                kind_name(root.kind),
                root.detail.as_deref(),
            );
            let mut calls: Vec<Value> = Vec::new();
            let mut seen: HashSet<(PathBuf, Position)> = HashSet::new();
            seen.insert((root.path.clone(), root.selection_range.start));
            let mut frontier: Vec<CallItem> = vec![root];
            // (level, via, item) → index in `calls`, to merge repeated answers.
            let mut merged: HashMap<(usize, ItemKey, SameItem), usize> = HashMap::new();
            'levels: for level in 1..=depth {
                let mut next = Vec::new();
                for item in frontier {
                    let answer = if incoming {
                        ctx.lsp.incoming_calls(&item).await
                    } else {
                        ctx.lsp.outgoing_calls(&item).await
                    };
                    let answer = match answer {
                        Ok(a) => a,
                        Err(e) if level == 1 => return Err(lsp_error(e, &lang, None)),
                        Err(e) => {
                            run.complete = false;
                            run.warnings.push(format!(
                                "Calls of {} (depth {level}) are missing: {e}",
                                item.name
                            ));
                            continue;
                        }
                    };
                    run.complete &= answer.complete;
                    run.warnings.extend(answer.warnings);
                    for call in answer.value {
                        if calls.len() >= MAX_CALLS {
                            run.complete = false;
                            let narrower = if depth > 1 {
                                "pass depth: 1 or a more specific symbol"
                            } else {
                                "pass a more specific symbol"
                            };
                            run.warnings
                                .push(format!("Stopped at {MAX_CALLS} calls; {narrower}."));
                            break 'levels;
                        }
                        // Incoming: sites are in the caller's file; outgoing: in the item's.
                        let site_file = if incoming {
                            &call.item.path
                        } else {
                            &item.path
                        };
                        let sites: Vec<Value> = call
                            .ranges
                            .iter()
                            .map(|r| run.anchors.anchor(site_file, r.start, None))
                            .collect();
                        let key = (call.item.path.clone(), call.item.selection_range.start);
                        // Servers repeat themselves (pyright lists a site twice; tsserver
                        // lists an outgoing callee once per site, each with every site,
                        // and once per overload declaration): one entry per item and
                        // level (same file, name and detail), each site once.
                        let same = (
                            call.item.path.clone(),
                            call.item.name.clone(),
                            call.item.detail.clone(),
                        );
                        if let Some(&i) = merged.get(&(level, item_key(&item), same.clone())) {
                            let mut all = calls[i]["sites"].as_array().cloned().unwrap_or_default();
                            all.extend(sites);
                            calls[i]["sites"] = Value::from(dedupe_sites(all));
                            continue;
                        }
                        let sites = dedupe_sites(sites);
                        let mut v = run.item_json(
                            &call.item.path,
                            call.item.selection_range.start,
                            call.item.range.end.line,
                            &call.item.name,
                            kind_name(call.item.kind),
                            call.item.detail.as_deref(),
                        );
                        v["depth"] = Value::from(level);
                        v["via"] = Value::from(item.name.clone());
                        v["sites"] = Value::from(sites);
                        merged.insert((level, item_key(&item), same), calls.len());
                        if seen.insert(key) {
                            if level < depth {
                                next.push(call.item);
                            }
                        } else {
                            v["seen"] = Value::Bool(true);
                        }
                        calls.push(v);
                    }
                }
                frontier = next;
            }
            let unseen = unseen_callers(ctx, &t, &args, incoming, &calls).await?;
            let payload = run.finish(root_json, incoming, depth, "lsp", calls, snapped);
            Ok(with_unseen(ctx, &t, payload, &unseen))
        })
    }
}

/// Outgoing: the calls in the root's own text (`Map::callee_check`) at lines none of
/// the server's direct callees was called from, as the `unlinked` tier.
/// Incoming: the map's call mentions (calls and value uses: a callback, a reflective
/// `getattr`) of the target's name that the server's direct callers do not hold — every
/// one in files without such a caller, the unlinked ones at other lines of the files
/// with one (docs/answers.md "Live answers cross-checked") —, the call's `fileFilter` and
/// `excludeTests` applied; none for outgoing.
async fn unseen_callers(
    ctx: &Arc<ServerContext>,
    t: &Target,
    args: &Args,
    incoming: bool,
    calls: &[Value],
) -> Result<crossing::Unseen, ToolError> {
    if !incoming {
        // The calls in the root's own text the server's callees do not hold.
        let mut answered = crossing::Answered::default();
        for c in calls
            .iter()
            .filter(|c| c["depth"].as_u64().unwrap_or(1) == 1)
        {
            for s in c["sites"].as_array().into_iter().flatten() {
                if let (Some(f), Some(l)) = (s["file"].as_str(), s["line"].as_u64()) {
                    answered.add(f, l as u32);
                }
            }
        }
        return Ok(crossing::unseen_callees(ctx, t, answered).await);
    }
    // Before the filters: a caller the filter leaves out was still seen by the server.
    let mut answered = crossing::Answered::default();
    for c in calls
        .iter()
        .filter(|c| c["depth"].as_u64().unwrap_or(1) == 1)
    {
        let Some(file) = c["file"].as_str() else {
            continue;
        };
        if let Some(line) = c["line"].as_u64() {
            answered.add(file, line as u32);
        }
        for s in c["sites"].as_array().into_iter().flatten() {
            if let Some(line) = s["line"].as_u64() {
                answered.add(s["file"].as_str().unwrap_or(file), line as u32);
            }
        }
    }
    let filter = match args.opt_str("fileFilter").filter(|f| !f.trim().is_empty()) {
        Some(f) => Some(FileFilter::parse(args, f)?),
        None => None,
    };
    let exclude_tests = args.opt_bool("excludeTests").unwrap_or(false);
    Ok(
        crossing::unseen(ctx, t, answered, &["call", "value"], move |file| {
            filter.as_ref().is_none_or(|f| f.matches(file))
                && !(exclude_tests && is_test_path(file))
        })
        .await,
    )
}

/// The answer with the unseen callers as `unverified` rows and the warning naming them.
fn with_unseen(
    ctx: &Arc<ServerContext>,
    t: &Target,
    payload: Payload,
    unseen: &crossing::Unseen,
) -> Payload {
    let (payload, warnings) = crossing::add(&ctx.root, &t.lang, payload, unseen);
    warnings.into_iter().fold(payload, Payload::warn)
}

/// Where an item's name is: identifies it across answers.
type ItemKey = (PathBuf, Position);

/// File, name and detail: overload declarations of one function are one item.
type SameItem = (PathBuf, String, Option<String>);

fn item_key(item: &CallItem) -> ItemKey {
    (item.path.clone(), item.selection_range.start)
}

/// Is this item detail only the item's file (`(store.py)`, `store.py`, `store`)? Some
/// servers put the module there; the item's `file` already says it.
fn names_only_the_file(detail: &str, path: &Path) -> bool {
    let d = detail
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let stem = path
        .file_stem()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    !d.is_empty() && (d == name || d == stem)
}

/// Call sites in their order, each `(file, line, col)` once.
fn dedupe_sites(sites: Vec<Value>) -> Vec<Value> {
    let mut seen = HashSet::new();
    sites
        .into_iter()
        .filter(|s| {
            seen.insert((
                s["file"].as_str().map(str::to_string),
                s["line"].as_u64(),
                s["col"].as_u64(),
            ))
        })
        .collect()
}

struct Run<'a> {
    ctx: &'a Arc<ServerContext>,
    args: &'a Args,
    filter: Option<FileFilter>,
    lang: String,
    anchors: Anchors<'a>,
    outlines: HashMap<PathBuf, Vec<DocumentSymbol>>,
    warnings: Vec<String>,
    complete: bool,
    /// From the map (`fallback-map`): the calls the map did not link (incoming: mentions
    /// of the root's name; outgoing: calls in its text), for the `unlinked` tier.
    map_unlinked: Option<MentionCheck>,
}

impl<'a> Run<'a> {
    fn item_json(
        &mut self,
        path: &Path,
        at: Position,
        end_line0: u32,
        name: &str,
        kind: &str,
        detail: Option<&str>,
    ) -> Value {
        let mut v = self.anchors.anchor(path, at, Some(end_line0));
        // The item's own line is its declaration: name and kind say it; the sites carry
        // the lines worth reading.
        if let Some(o) = v.as_object_mut() {
            o.remove("snippet");
        }
        v["name"] = Value::from(name);
        v["kind"] = Value::from(kind);
        if let Some(d) = detail.filter(|d| !names_only_the_file(d, path)) {
            v["detail"] = Value::from(d);
        }
        v
    }

    async fn outline(&mut self, path: &Path) -> Result<&[DocumentSymbol], ToolError> {
        if !self.outlines.contains_key(path) {
            let answer = self
                .ctx
                .lsp
                .document_symbols(path)
                .await
                .map_err(|e| lsp_error(e, &self.lang, None))?;
            self.complete &= answer.complete;
            self.outlines.insert(path.to_path_buf(), answer.value);
        }
        Ok(&self.outlines[path])
    }

    /// No language server installed for the file (`why`: its `LSP_UNAVAILABLE`): both
    /// directions from the map's `calls` edges (`fallback-map`), with a warning naming the
    /// missing server and its install command. Never an error (contract §3).
    async fn without_server(
        mut self,
        t: &Target,
        incoming: bool,
        depth: usize,
        why: ToolError,
    ) -> Payload {
        let install = why
            .extras
            .get("installCommand")
            .and_then(Value::as_str)
            .map(|c| format!(" (install it with: {c})"))
            .unwrap_or_default();
        let mut reason = format!("{}{install}", why.message);
        if let Some(first) = reason.get(..1) {
            reason.replace_range(..1, &first.to_uppercase());
        }
        let (root, calls) = self.map_calls(t, t.pos, depth, incoming, &reason).await;
        let root = root.unwrap_or_else(|| {
            let name = t.word().unwrap_or_default();
            self.item_json(&t.abs, t.pos, t.pos.line, &name, "unknown", None)
        });
        self.finish_from_map(root, incoming, depth, calls, None)
    }

    /// [`finish`](Self::finish) for an answer from the map's `calls` edges, with the
    /// calls the map did not link as the `unlinked` tier, like map_neighbors (incoming:
    /// the call mentions of the root's name; outgoing: the calls in its own text; the
    /// call's filters hold for them too).
    fn finish_from_map(
        mut self,
        root: Value,
        incoming: bool,
        depth: usize,
        calls: Vec<Value>,
        snapped: Option<Value>,
    ) -> Payload {
        let check = self.map_unlinked.take().map(|mut c| {
            let exclude_tests = self.args.opt_bool("excludeTests").unwrap_or(false);
            c.unlinked.retain(|m| {
                self.filter.as_ref().is_none_or(|f| f.matches(&m.file))
                    && !(exclude_tests && is_test_path(&m.file))
            });
            c
        });
        let ctx = self.ctx;
        let mut payload = self.finish(root, incoming, depth, "fallback-map", calls, snapped);
        if let Some(c) = check {
            if unlinked::add_tier(&ctx.root, &mut payload.data, &c) {
                payload = unlinked::declare(payload, "Pass fileFilter or excludeTests to narrow");
            }
            if let Some(w) = unlinked::warning(&c) {
                payload = payload.warn(w);
            }
        }
        payload
    }

    /// Outgoing calls from the map's `calls` edges (fallback-map) when the server has no
    /// call hierarchy.
    async fn map_callees(&mut self, t: &Target, at: Position, depth: usize) -> Vec<Value> {
        let reason = format!("The {} language server has no call hierarchy", self.lang);
        self.map_calls(t, at, depth, false, &reason).await.1
    }

    /// Calls from the map's `calls` edges (fallback-map): the innermost map definition
    /// around the position (returned as the root item), then its callees (outgoing) or
    /// callers (incoming) to `depth`. `reason` says why the map answers. Never an error: a
    /// map that is not built, or knows no definition there, is a warning and no calls.
    async fn map_calls(
        &mut self,
        t: &Target,
        at: Position,
        depth: usize,
        incoming: bool,
        reason: &str,
    ) -> (Option<Value>, Vec<Value>) {
        self.complete = false;
        let rel = t.rel.clone();
        let line = at.line + 1;
        let (direction, what) = if incoming {
            (Direction::In, "callers")
        } else {
            (Direction::Out, "callees")
        };
        let found = with_map(self.ctx, "file", move |map| {
            let nodes = map.nodes_in_file(&rel)?;
            // The innermost definition whose lines hold the position.
            let Some(node) = nodes
                .iter()
                .filter(|n| n.kind != NodeKind::File)
                .filter(|n| {
                    n.line.is_some_and(|l| l <= line) && n.end_line.is_some_and(|e| e >= line)
                })
                .min_by_key(|n| n.end_line.unwrap_or(0) - n.line.unwrap_or(0))
            else {
                return Ok(None);
            };
            let r = map.neighbors(
                &node.id,
                direction,
                Some(&[EdgeKind::Calls]),
                depth as u32,
                MAX_CALLS,
            )?;
            let check = match incoming {
                true => unlinked::for_kinds(map.mention_check(&node.id)?, Some(&[EdgeKind::Calls])),
                false => map.callee_check(&node.id)?,
            };
            let check = Some(check);
            Ok(Some((r, check)))
        })
        .await;
        let result = match found {
            Ok(Some((r, check))) => {
                self.map_unlinked = check;
                r
            }
            Ok(None) => {
                self.warnings.push(format!(
                    "{reason}, and the map knows no definition at {}:{line} (fallback-map); {what} unknown.",
                    t.rel
                ));
                return (None, Vec::new());
            }
            Err(e) => {
                self.warnings.push(format!(
                    "{reason}, and the map cannot answer (fallback-map): {} map_rebuild builds it.",
                    e.message
                ));
                return (None, Vec::new());
            }
        };
        self.warnings.push(format!(
            "{reason}; {what} derived via fallback-map (the map's calls edges); approximate."
        ));
        let r = &result.node;
        let mut root = match &r.file {
            Some(f) => json!({"file": f, "line": r.line.unwrap_or(1), "col": r.col.unwrap_or(1)}),
            None => json!({"file": r.id}),
        };
        root["name"] = Value::from(r.name.clone());
        root["kind"] = Value::from(r.kind.as_str());
        root["nodeId"] = Value::from(r.id.clone());
        let all: Vec<&navmap_map::NodeView> = std::iter::once(&result.node)
            .chain(result.neighbors.iter().map(|n| &n.node))
            .collect();
        let calls = result
            .neighbors
            .iter()
            .map(|n| {
                let v = &n.node;
                let mut item = match &v.file {
                    Some(f) => {
                        json!({"file": f, "line": v.line.unwrap_or(1), "col": v.col.unwrap_or(1)})
                    }
                    None => json!({"file": v.id, "external": true}),
                };
                if let (Some(end), Some(l)) = (v.end_line, v.line)
                    && end > l
                {
                    item["endLine"] = Value::from(end);
                }
                item["name"] = Value::from(v.name.clone());
                item["kind"] = Value::from(v.kind.as_str());
                item["nodeId"] = Value::from(v.id.clone());
                item["depth"] = Value::from(n.depth);
                let via = all.iter().find(|m| m.id == n.via);
                item["via"] =
                    Value::from(via.map(|m| m.name.clone()).unwrap_or_else(|| n.via.clone()));
                item["confidence"] = Value::from(n.confidence.as_str());
                // The call site: a line of the caller's file (outgoing: the item one level
                // up; incoming: this one).
                let caller = if incoming {
                    v.file.clone()
                } else {
                    via.and_then(|m| m.file.clone())
                };
                item["sites"] = match (caller, n.line) {
                    (Some(f), Some(l)) => json!([{"file": f, "line": l}]),
                    _ => json!([]),
                };
                item
            })
            .collect();
        (Some(root), calls)
    }

    /// Where a symbol's name is. Servers that answer with flat `SymbolInformation` give
    /// only the whole range: find the name on its first line.
    fn name_position(&mut self, path: &Path, sym: &DocumentSymbol) -> Position {
        let start = sym.selection_range.start;
        if sym.selection_range != sym.range {
            return start;
        }
        let Some(line) = super::nav_common::read_root_file(&self.ctx.root, path)
            .and_then(|t| t.lines().nth(start.line as usize).map(str::to_string))
        else {
            return start;
        };
        let units: Vec<u16> = line.encode_utf16().collect();
        let name: Vec<u16> = sym.name.encode_utf16().collect();
        let from = start.character as usize;
        (from..units.len().saturating_sub(name.len()) + 1)
            .find(|&i| units.get(i..i + name.len()) == Some(&name[..]))
            .map(|i| Position::new(start.line, i as u32))
            .unwrap_or(start)
    }

    /// The innermost symbol enclosing the position, or `SYMBOL_NOT_FOUND`.
    async fn snap_target(&mut self, t: &Target) -> Result<DocumentSymbol, ToolError> {
        let outline = self.outline(&t.abs).await?;
        match enclosing(outline, t.pos) {
            Some(sym) => Ok(sym.clone()),
            None => Err(self.not_found(t).await),
        }
    }

    fn snap_note(&mut self, t: &Target, sym: &DocumentSymbol) -> Value {
        let at = sym.selection_range.start;
        self.warnings.push(format!(
            "No callable at {}:{}:{}; snapped to the enclosing symbol `{}` at line {}.",
            t.rel,
            t.line,
            t.col,
            sym.name,
            at.line + 1
        ));
        json!({"name": sym.name, "line": at.line + 1, "col": at.character + 1})
    }

    async fn not_found(&mut self, t: &Target) -> ToolError {
        let mut err = ToolError::new(
            ErrorCode::SymbolNotFound,
            format!(
                "no function or method at or around {}:{}:{}",
                t.rel, t.line, t.col
            ),
            "Point line/col at a function's name; nav_symbols lists this file's symbols.",
        )
        .with_extra("file", t.rel.clone());
        if let Some(outline) = self.outlines.get(&t.abs)
            && !outline.is_empty()
        {
            err = err.with_extra("nearbySymbols", nearby(outline, t.pos.line));
        }
        err
    }

    /// Without server support: references for incoming, the map (pending) for outgoing.
    async fn fallback(
        mut self,
        t: &Target,
        incoming: bool,
        depth: usize,
    ) -> Result<Payload, ToolError> {
        let outline = self.outline(&t.abs).await?.to_vec();
        // The root: the identifier asked about, else the enclosing symbol (snap).
        let mut snapped = None;
        let enclosing_sym = enclosing(&outline, t.pos).cloned();
        // `at`: where the name is, to ask for references (an identifier position).
        let (at, name, kind, end_line) = match (t.word(), &enclosing_sym) {
            (Some(word), Some(sym)) if sym.name == word => {
                (t.pos, word, kind_name(sym.kind), sym.range.end.line)
            }
            (Some(word), _) => (t.pos, word, "unknown", t.pos.line),
            (None, Some(sym)) => {
                snapped = Some(self.snap_note(t, sym));
                (
                    self.name_position(&t.abs, sym),
                    sym.name.clone(),
                    kind_name(sym.kind),
                    sym.range.end.line,
                )
            }
            (None, None) => return Err(self.not_found(t).await),
        };
        let root_json = self.item_json(&t.abs, at, end_line, &name, kind, None);
        if !incoming {
            let calls = self.map_callees(t, at, depth).await;
            return Ok(self.finish_from_map(root_json, incoming, depth, calls, snapped));
        }
        self.warnings.push(format!(
            "The {} language server has no call hierarchy; callers derived via fallback-references (each reference attributed to its enclosing symbol); approximate.",
            self.lang
        ));

        let mut calls: Vec<Value> = Vec::new();
        let mut seen: HashSet<(PathBuf, Position)> = HashSet::new();
        seen.insert((t.abs.clone(), at));
        let mut frontier = vec![(t.abs.clone(), at, name)];
        let mut external = 0usize;
        for level in 1..=depth {
            let mut next = Vec::new();
            for (path, pos, via) in frontier {
                let refs = match self.ctx.lsp.references(&path, pos, false).await {
                    Ok(a) => a,
                    Err(e) if level == 1 => return Err(lsp_error(e, &self.lang, None)),
                    Err(e) => {
                        self.complete = false;
                        self.warnings
                            .push(format!("Callers of {via} (depth {level}) are missing: {e}"));
                        continue;
                    }
                };
                self.complete &= refs.complete;
                // Group the references by their enclosing symbol.
                let mut groups: Vec<Group> = Vec::new();
                for loc in refs.value {
                    // Servers may list the declaration itself despite includeDeclaration.
                    if loc.path == path && loc.range.start == pos {
                        continue;
                    }
                    if matches!(self.anchors.place(&loc.path), Place::External(_)) {
                        external += 1;
                        continue;
                    }
                    let outline = self.outline(&loc.path).await?.to_vec();
                    let site = self.anchors.anchor(&loc.path, loc.range.start, None);
                    let (key, item, expand) = match enclosing(&outline, loc.range.start) {
                        Some(sym) => {
                            let a = self.name_position(&loc.path, sym);
                            let item = self.item_json(
                                &loc.path,
                                a,
                                sym.range.end.line,
                                &sym.name,
                                kind_name(sym.kind),
                                sym.detail.as_deref(),
                            );
                            ((loc.path.clone(), a), item, Some(sym.name.clone()))
                        }
                        None => {
                            // Top-level code: the file itself calls it.
                            let mut item =
                                self.anchors.anchor(&loc.path, Position::new(0, 0), None);
                            if let Some(o) = item.as_object_mut() {
                                o.remove("snippet");
                            }
                            item["name"] = Value::from("<module>");
                            item["kind"] = Value::from("module");
                            ((loc.path.clone(), Position::new(0, 0)), item, None)
                        }
                    };
                    match groups.iter_mut().find(|g| g.0 == key) {
                        Some(g) => g.2.push(site),
                        None => groups.push((key, item, vec![site], expand)),
                    }
                }
                for (key, mut item, sites, expand) in groups {
                    if calls.len() >= MAX_CALLS {
                        self.complete = false;
                        break;
                    }
                    item["depth"] = Value::from(level);
                    item["via"] = Value::from(via.clone());
                    item["sites"] = Value::from(dedupe_sites(sites));
                    if seen.insert(key.clone()) {
                        if level < depth
                            && let Some(n) = expand
                        {
                            next.push((key.0, key.1, n));
                        }
                    } else {
                        item["seen"] = Value::Bool(true);
                    }
                    calls.push(item);
                }
            }
            frontier = next;
        }
        if external > 0 {
            self.warnings.push(format!(
                "{external} reference(s) outside the root were not attributed to callers."
            ));
        }
        let unseen = unseen_callers(self.ctx, t, self.args, incoming, &calls).await?;
        let ctx = self.ctx;
        let payload = self.finish(
            root_json,
            incoming,
            depth,
            "fallback-references",
            calls,
            snapped,
        );
        Ok(with_unseen(ctx, t, payload, &unseen))
    }

    /// The answer: calls filtered (`fileFilter`, `excludeTests`, callees outside the root
    /// unless `includeExternal`), each call's sites capped at `maxSites` with the count of
    /// the rest (`moreSites`), test code ranked after the rest, and the sites declared as a
    /// nested list so a budget cut thins them before it drops callers.
    fn finish(
        mut self,
        root: Value,
        incoming: bool,
        depth: usize,
        source: &str,
        calls: Vec<Value>,
        snapped: Option<Value>,
    ) -> Payload {
        let max_sites = self.args.opt_int("maxSites").unwrap_or(3).max(1) as usize;
        let exclude_tests = self.args.opt_bool("excludeTests").unwrap_or(false);
        let include_external = self.args.opt_bool("includeExternal").unwrap_or(false);
        let found = calls.len();
        let (mut external, mut filtered, mut tests) = (0usize, 0usize, 0usize);
        let mut filtered_files: Vec<String> = Vec::new();
        let mut kept: Vec<Value> = Vec::new();
        for mut call in calls {
            let is_external = call["external"].as_bool().unwrap_or(false);
            if is_external {
                if !include_external {
                    external += 1;
                    continue;
                }
                // Outside the root: named, never placed by path (contract §1).
                let mut v = json!({"name": call["name"], "kind": call["kind"], "external": true});
                for k in ["depth", "via", "seen"] {
                    if let Some(x) = call.get(k) {
                        v[k] = x.clone();
                    }
                }
                kept.push(v);
                continue;
            }
            let file = call["file"].as_str().unwrap_or("");
            if self.filter.as_ref().is_some_and(|f| !f.matches(file)) {
                filtered += 1;
                filtered_files.push(file.to_string());
                continue;
            }
            if exclude_tests && is_test_item(&call) {
                tests += 1;
                continue;
            }
            if depth == 1 {
                // One level: every call is depth 1 and via the root; saying so repeats the
                // request.
                if let Some(o) = call.as_object_mut() {
                    o.remove("depth");
                    o.remove("via");
                }
            }
            // Sites are in the caller's file (incoming: this item's, outgoing: the
            // root's): they name a file only when it is another one.
            let caller_file = if incoming {
                &call["file"]
            } else {
                &root["file"]
            }
            .clone();
            let mut sites = call["sites"].as_array().cloned().unwrap_or_default();
            for site in &mut sites {
                if site["file"] == caller_file
                    && let Some(o) = site.as_object_mut()
                {
                    o.remove("file");
                }
            }
            call["sites"] = Value::from(sites.clone());
            if sites.len() > max_sites {
                call["sites"] = Value::from(sites[..max_sites].to_vec());
                call["moreSites"] = Value::from(sites.len() - max_sites);
            }
            kept.push(call);
        }
        if external > 0 {
            self.warnings.push(format!(
                "Left out {external} callee(s) outside the root (library code); pass includeExternal:true to list them."
            ));
        }
        // What the call's own filters left out is not a cut: a count in `data` (as
        // nav_references's `leftOut`), not a warning. A fileFilter that kept nothing still
        // says where the calls are, so the next filter names a prefix that exists.
        let left_out = filtered + tests;
        let filtered_all = filtered > 0 && found - filtered - external == 0;
        if filtered_all {
            self.warnings.push(format!(
                "fileFilter kept 0 of {found} calls; they are in {}.",
                where_they_are(filtered_files.iter().map(String::as_str))
            ));
        }
        let mut extra = Vec::new();
        if depth > 1 {
            extra.push("depth:1".to_string());
        }
        let narrowing = nav_narrowing(self.args, &kept, &extra);
        let total = kept.len();
        let mut data = json!({
            "root": root,
            "source": source,
            "calls": kept,
            "total": total,
        });
        if left_out > 0 && !filtered_all {
            data["leftOut"] = left_out.into();
        }
        mark_incomplete(&mut data, self.complete);
        if !incoming {
            // Kept for readers of the answer alone; incoming is the common case.
            data["direction"] = Value::from("outgoing");
        }
        if let Some(s) = snapped {
            data["snapped"] = s;
        }
        let payload = Payload::new(data.clone())
            .generation(content_generation(&data))
            .list(
                ListSpec::new("/calls", "calls")
                    .ranked_by(|a, b| {
                        let ext = |v: &Value| v["external"].as_bool().unwrap_or(false);
                        a["depth"]
                            .as_u64()
                            .unwrap_or(1)
                            .cmp(&b["depth"].as_u64().unwrap_or(1))
                            .then(ext(a).cmp(&ext(b)))
                            .then(is_test_item(a).cmp(&is_test_item(b)))
                            .then_with(|| a["file"].as_str().cmp(&b["file"].as_str()))
                            .then_with(|| a["line"].as_u64().cmp(&b["line"].as_u64()))
                    })
                    .narrowing(narrowing.clone()),
            )
            .list(ListSpec::new("/calls/*/sites", "call sites").narrowing(narrowing));
        self.warnings.into_iter().fold(payload, Payload::warn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detail_naming_the_file_is_dropped() {
        let p = Path::new("/r/shop/store.py");
        assert!(names_only_the_file("(store.py)", p));
        assert!(names_only_the_file("store", p));
        assert!(!names_only_the_file("fn(ttl: u64) -> Self", p));
        assert!(!names_only_the_file("", p));
    }

    #[test]
    fn sites_are_listed_once() {
        let site = |l: u64, c: u64| json!({"file": "a.py", "line": l, "col": c, "snippet": "x"});
        let got = dedupe_sites(vec![site(15, 33), site(15, 33), site(16, 1), site(15, 33)]);
        assert_eq!(got, vec![site(15, 33), site(16, 1)]);
        let other = json!({"file": "b.py", "line": 15, "col": 33});
        assert_eq!(dedupe_sites(vec![site(15, 33), other.clone()]).len(), 2);
    }
}
