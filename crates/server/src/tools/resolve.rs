//! `resolve {nodeId} | {file, line, col?}`: the bridge between the map and the live layer
//! (contract §3 "Bridge"; the policy is written up in `docs/freshness.md`).
//!
//! - **From a node ID**: the file is opened by its language server and the symbol is looked
//!   up in the live outline by its qualified-name chain ([`outline`] strips the servers'
//!   decorations). The answer is the live position of the symbol's *name*, `verified: true`.
//!   The map's own position is taken *before* anything else, so `mapStale` honestly says
//!   whether the map (as it stood when asked) disagreed: its line differs, or its file is
//!   marked stale. Found only under another parent (its name unique in the file):
//!   `relocated: true`. Not found: `SYMBOL_NOT_FOUND` with up to 10 of the file's top-level
//!   names (and the members of its parent, when that is still there). A file that is gone:
//!   `FILE_DELETED`. No server (not installed, failed, still starting past the deadline):
//!   the map's position with `verified: false` and a warning naming why; an error only when
//!   the map has no position either.
//! - **From a position**: the chain of enclosing symbols (live outline, else the map's
//!   definitions with `verified: false`), the node ID of the innermost one when the map has
//!   it (`inMap: true`), else `nodeId: null` and the `nearestNodeId` of the map; outside
//!   every symbol, the file node.
//!
//! The language server wins, and says so: whenever it disagrees with the map, the answer
//! carries the live position and a warning naming the map's.
//!
//! Every `nav_*` position tool goes through [`resolve_node`] for its `nodeId` argument
//! (`nav_common::Target::from_args`).

mod outline;

use std::path::PathBuf;
use std::sync::Arc;

use navmap_envelope::{ErrorCode, Payload, ToolError};
use navmap_lsp::{DocumentSymbol, LspError, Position};
use navmap_map::{MapError, NodeIdParts, NodeKind, NodeView, parse_node_id};
use serde_json::{Value, json};

use super::map_common::map_error;
use super::nav_common::{Anchors, kind_name, lsp_error, read_root_file, target};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

/// Names listed in `SYMBOL_NOT_FOUND` extras.
const MAX_HINT_NAMES: usize = 10;

pub struct Resolve;

impl Tool for Resolve {
    fn name(&self) -> &'static str {
        "resolve"
    }

    fn description(&self) -> &'static str {
        "Cross map ⇄ live: nodeId → live position; file/line → enclosing nodeIds."
    }

    fn paged(&self) -> bool {
        false
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("nodeId", target::NODE_ID))
            .param(super::symbol::symbol_param())
            .param(Param::string("file", target::FILE))
            .param(Param::integer("line", target::LINE, 1, 10_000_000))
            .param(Param::integer("col", target::COL, 1, 1_000_000))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let id = args.opt_str("nodeId");
            let file = args.opt_str("file");
            let line = args.opt_int("line");
            match (id, file, line) {
                (Some(id), None, None) => {
                    let r = resolve_node(ctx, id, "nodeId").await?;
                    Ok(r.payload(&ctx.root))
                }
                (Some(_), _, _) => {
                    Err(args.bad("nodeId", "pass either nodeId or file+line (+col), not both"))
                }
                (None, Some(file), Some(line)) => {
                    let col = args.opt_int("col").unwrap_or(1);
                    resolve_position(ctx, file, line as u32, col as u32).await
                }
                (None, Some(_), None) => Err(args.bad("line", "pass line with file")),
                (None, None, _) => {
                    Err(args.bad("nodeId", "pass nodeId or symbol, or file and line"))
                }
            }
        })
    }
}

/// A node ID resolved to a position (1-based line, 1-based UTF-16 column of its name).
#[derive(Debug, Clone)]
pub struct Resolved {
    /// Root-relative, `/`-separated.
    pub rel: String,
    pub abs: PathBuf,
    pub line: u32,
    pub col: u32,
    /// Last line of the construct, when known.
    pub end_line: Option<u32>,
    /// The language server confirmed the position.
    pub verified: bool,
    /// The map's position differed, or its file is marked stale.
    pub map_stale: bool,
    pub in_map: bool,
    /// Found only under another parent.
    pub relocated: bool,
    /// `{name, kind, qualifiedName, detail?}`.
    pub symbol: Value,
    /// The map's (line, col) when it differs from the live one.
    pub map_position: Option<(u32, u32)>,
    pub warnings: Vec<String>,
}

impl Resolved {
    fn payload(&self, root: &std::path::Path) -> Payload {
        let mut location = json!({"file": self.rel, "line": self.line, "col": self.col});
        if let Some(end) = self.end_line.filter(|e| *e > self.line) {
            location["endLine"] = end.into();
        }
        if let Some(s) = line_of(root, &self.abs, self.line) {
            location["snippet"] = super::nav_common::snippet(&s).into();
        }
        // The node ID is the request: not echoed.
        let mut data = json!({
            "location": location,
            "verified": self.verified,
            "mapStale": self.map_stale,
            "inMap": self.in_map,
            "symbol": self.symbol,
        });
        if self.relocated {
            data["relocated"] = true.into();
        }
        if let Some((line, col)) = self.map_position {
            data["mapLocation"] = json!({"line": line, "col": col});
        }
        self.warnings
            .iter()
            .cloned()
            .fold(Payload::new(data), Payload::warn)
    }
}

fn line_of(root: &std::path::Path, abs: &std::path::Path, line: u32) -> Option<String> {
    read_root_file(root, abs)?
        .lines()
        .nth(line.checked_sub(1)? as usize)
        .map(|l| l.trim_end_matches('\r').to_string())
}

/// What the map said about a node, taken before asking the server.
async fn map_view(ctx: &Arc<ServerContext>, id: &str, field: &str) -> Result<MapSaid, ToolError> {
    let map = ctx.map.clone();
    let key = id.to_string();
    let looked = tokio::task::spawn_blocking(move || map.node(&key))
        .await
        .map_err(|e| ToolError::internal(format!("map task failed: {e}")))?;
    match looked {
        Ok(v) => Ok(MapSaid::Node(Box::new(v))),
        Err(MapError::NodeNotFound(_)) => Ok(MapSaid::Absent),
        Err(MapError::NotBuilt) => Ok(MapSaid::NotBuilt),
        Err(e) => Err(map_error(&ctx.map, e, field)),
    }
}

enum MapSaid {
    Node(Box<NodeView>),
    Absent,
    NotBuilt,
}

impl MapSaid {
    fn node(&self) -> Option<&NodeView> {
        match self {
            MapSaid::Node(v) => Some(v),
            _ => None,
        }
    }
}

/// Is this server failure one the map's position may stand in for (no server to ask)?
fn no_server_now(e: &LspError) -> bool {
    matches!(
        e,
        LspError::NoServer { .. }
            | LspError::Unavailable { .. }
            | LspError::NotReady { .. }
            | LspError::Failed { .. }
            | LspError::CannotServe { .. }
            | LspError::Timeout { .. }
            | LspError::NoCapability { .. }
    )
}

/// Resolves a node ID to the live position of its name. `field` names the argument in
/// errors. See the module docs for the policy.
pub async fn resolve_node(
    ctx: &Arc<ServerContext>,
    id: &str,
    field: &'static str,
) -> Result<Resolved, ToolError> {
    let parts = parse_node_id(id).map_err(|e| map_error(&ctx.map, e, field))?;
    let lang_of_id = match &parts {
        NodeIdParts::File { lang, .. }
        | NodeIdParts::Symbol { lang, .. }
        | NodeIdParts::External { lang, .. } => lang.clone(),
    };
    // An ID whose language navmap does not have cannot name anything: it is malformed,
    // not merely absent (`zz:shop/api.py#check`).
    if ctx.languages.by_id(&lang_of_id).is_none() {
        let known: Vec<&str> = ctx.languages.all().iter().map(|l| l.id()).collect();
        return Err(map_error(
            &ctx.map,
            MapError::BadNodeId {
                id: id.to_string(),
                reason: format!(
                    "unknown language `{lang_of_id}` (known: {})",
                    known.join(", ")
                ),
            },
            field,
        ));
    }
    let (path, qualified, dup) = match parts {
        NodeIdParts::External { package, .. } => {
            return Err(ToolError::new(
                ErrorCode::BadArgs,
                format!("{field}: {id:?} is an external module ({package}); it has no position in the root"),
                "Pass a file or symbol node ID; map_neighbors on the module lists who imports it.",
            )
            .with_extra("field", field));
        }
        NodeIdParts::File { path, .. } => (path, None, 1),
        NodeIdParts::Symbol {
            path,
            qualified_name,
            dup,
            ..
        } => (path, Some(qualified_name), dup),
    };
    let rel = ctx.resolve_file(field, &path)?;
    let abs = ctx.root.join(&rel);
    // What the map says now: `mapStale` compares the server's answer with this.
    let said = map_view(ctx, id, field).await?;
    let in_map = said.node().is_some();
    let file_stale = said.node().is_some_and(|v| v.stale);
    if !abs.is_file() {
        // FILE_DELETED is for a file the map knew; a path that never existed (a typo) or
        // a directory is the caller's mistake: BAD_ARGS.
        let file_id = format!("{lang_of_id}:{rel}");
        let knew = in_map || matches!(map_view(ctx, &file_id, field).await, Ok(MapSaid::Node(_)));
        if abs.is_dir() || !knew {
            return Err(not_a_known_file(field, &rel, abs.is_dir()).with_extra("nodeId", id));
        }
        return Err(ToolError::new(
            ErrorCode::FileDeleted,
            format!("{rel} no longer exists (node {id})"),
            "The file was deleted or moved: map_search for the symbol's new home (the map drops the file at its next rebuild).",
        )
        .with_extra("nodeId", id)
        .with_extra("file", rel)
        .with_extra("inMap", in_map));
    }
    let mut base = Resolved {
        rel: rel.clone(),
        abs: abs.clone(),
        line: 1,
        col: 1,
        end_line: None,
        verified: true,
        map_stale: file_stale,
        in_map,
        relocated: false,
        symbol: Value::Null,
        map_position: None,
        warnings: Vec::new(),
    };
    if let MapSaid::NotBuilt = said {
        base.warnings.push(
            "The map is not built yet: the ID was checked against the live outline only.".into(),
        );
    }
    let Some(qualified) = qualified else {
        // A file node: the file's start; it exists, so it is verified.
        let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
        base.symbol = json!({"name": name, "kind": "file", "qualifiedName": rel});
        if file_stale {
            base.warnings.push(stale_file_note(&rel));
        }
        return Ok(base);
    };
    // A symbol the built map does not have, in a file the map holds as fresh: the ID is
    // wrong (a `~3` that does not exist, a wrong parent), not new. Only a file changed
    // since the last index may hold symbols the map has not seen yet.
    if matches!(said, MapSaid::Absent) {
        let file_id = format!("{lang_of_id}:{rel}");
        let file_fresh = match map_view(ctx, &file_id, field).await? {
            MapSaid::Node(f) => !f.stale,
            _ => false,
        };
        if file_fresh {
            let err = map_error(&ctx.map, MapError::NodeNotFound(id.to_string()), field);
            return Err(with_map_names(ctx, err, &rel, &qualified).await);
        }
    }
    let chain: Vec<String> = qualified.split('.').map(str::to_string).collect();
    // The map's decision (a `.h` holding C++ is C++), not the extension's alone.
    let lang = ctx.map.language_of(&rel);
    let lang_id = lang
        .as_ref()
        .map(|l| l.id().to_string())
        .unwrap_or_default();
    let outline = match &lang {
        Some(l) if l.manifest.lsp.is_some() => ctx.lsp.document_symbols(&abs).await,
        _ => Err(LspError::NoServer {
            what: format!("{rel} (no language server configured)"),
        }),
    };
    let answer = match outline {
        Ok(a) => a,
        Err(e) if no_server_now(&e) => {
            let err = lsp_error(e, &lang_id, None);
            return from_map_only(base, &said, err);
        }
        Err(e) => return Err(lsp_error(e, &lang_id, None)),
    };
    // The outline's own caveats ("still indexing") matter only when the symbol is not in
    // it: a symbol found in a file's outline is found, whatever the workspace index says.
    let entries = outline::entries(&answer.value);
    let live = outline::same_chain(&entries, &chain);
    let map_count = if in_map && !live.is_empty() {
        map_duplicates(ctx, &rel, &qualified).await
    } else {
        0
    };
    let merged = !live.is_empty() && (live.len() < map_count || dup as usize > live.len());
    let picked = if merged {
        let counts = (live.len(), map_count.max(dup as usize));
        match pick_merged(
            &live,
            said.node(),
            dup,
            file_stale,
            &qualified,
            &rel,
            counts,
        ) {
            Pick::Live(e, note) => {
                base.warnings.extend(note);
                Some(e)
            }
            Pick::Map(note) => {
                if let Some(v) = said.node() {
                    return Ok(at_map_position(base, v, note));
                }
                None
            }
        }
    } else if let Some(line) = said.node().and_then(|v| v.line)
        && live.len() > map_count.max(1)
    {
        // The map folds what the server lists apart (an overload group: its signatures and
        // the implementation are one node, at the implementation's name): the server's
        // entry on the map's line is that node.
        live.iter()
            .find(|e| e.sym.selection_range.start.line + 1 == line)
            .copied()
    } else {
        None
    };
    let found = match picked {
        Some(e) => outline::Found::Exact(e),
        None => outline::find(&entries, &chain, dup),
    };
    let (entry, relocated) = match found {
        outline::Found::Exact(e) => (e, false),
        outline::Found::Relocated(e) => (e, true),
        outline::Found::Missing => {
            // "Renamed, moved or deleted" only when the map shows it: a map that is up to
            // date for this file and still has the symbol says the server is the one
            // that does not see it (jdtls after a failed import answers an empty outline).
            // Asked of the map as it is *now*, after the disk check: a rebuild may have
            // re-indexed the file since `said` was read (a rename the watcher just saw),
            // and then the symbol is gone, not unseen.
            let map = ctx.map.clone();
            let file = rel.clone();
            let node_id = said.node().map(|v| v.id.clone());
            let current = match node_id.filter(|_| !file_stale) {
                Some(node_id) => tokio::task::spawn_blocking(move || {
                    let unchanged = map
                        .changed_on_disk(Some(&[file]))
                        .is_ok_and(|changed| changed.is_empty());
                    if unchanged {
                        map.node(&node_id).ok()
                    } else {
                        None
                    }
                })
                .await
                .ok()
                .flatten(),
                None => None,
            };
            if let Some(v) = current.as_ref() {
                let mut why = String::new();
                if !answer.warnings.is_empty() {
                    why = format!(" (it said: {})", answer.warnings.join("; "));
                }
                let note = format!(
                    "The language server's outline of {rel} lacks {qualified}, but the map, up to date for this file, has it at line {}: the server does not see it{why}. The map's position is used.",
                    v.line.unwrap_or(1)
                );
                return Ok(at_map_position(base, v, note));
            }
            let mut e = symbol_missing(id, &rel, &qualified, &entries, &chain, in_map);
            if !answer.warnings.is_empty() {
                e = e.with_extra("serverWarnings", answer.warnings.clone());
            }
            return Err(e);
        }
    };
    let sym: &DocumentSymbol = entry.sym;
    // The name itself, not where the server's selection range starts (an overload's
    // starts at `export`): nav tools by nodeId ask about this position.
    let at = match read_root_file(&ctx.root, &abs) {
        Some(text) => outline::name_position(&text, sym, entry.name()),
        None => sym.selection_range.start,
    };
    base.line = at.line + 1;
    base.col = at.character + 1;
    base.end_line = Some(sym.range.end.line + 1);
    base.relocated = relocated;
    // Found under another parent: a live symbol, but not the one the ID names; the
    // answer never claims to have verified the ID as asked.
    if relocated {
        base.verified = false;
    }
    let mut symbol = json!({
        "name": entry.name(),
        "kind": kind_name(sym.kind),
        "qualifiedName": entry.qualified(),
    });
    if let Some(d) = sym.detail.as_deref().filter(|d| !d.is_empty()) {
        symbol["detail"] = d.into();
    }
    base.symbol = symbol;
    match said.node() {
        Some(v) => {
            let map_at = (v.line.unwrap_or(0), v.col.unwrap_or(0));
            if map_at.0 != base.line {
                base.map_stale = true;
                base.map_position = Some(map_at);
                let why = if file_stale {
                    " (the file changed since it was indexed)"
                } else {
                    ""
                };
                base.warnings.push(format!(
                    "The map places {qualified} at line {}; the language server finds it at line {}{why}. The live position is used.",
                    map_at.0, base.line
                ));
            } else if file_stale {
                base.warnings.push(stale_file_note(&rel));
            }
        }
        None => {
            if matches!(said, MapSaid::Absent) {
                base.map_stale = true;
                base.warnings.push(format!(
                    "{id} is not in the map (added since the last index?); found live."
                ));
            }
        }
    }
    if relocated {
        base.warnings.push(format!(
            "{qualified} is not under its parent any more; the only `{}` in {rel} is {} (relocated).",
            entry.name(),
            entry.qualified()
        ));
    }
    Ok(base)
}

/// The error for a root path that is not a file: `FILE_DELETED` when the map knew the file
/// (it was deleted or moved), else `BAD_ARGS` (a typo or a directory). Asks the map
/// directly (one indexed lookup).
pub fn missing_file(ctx: &ServerContext, field: &str, rel: &str) -> ToolError {
    let abs = ctx.root.join(rel);
    let knew = !abs.is_dir()
        && ctx
            .map
            .language_of(rel)
            .is_some_and(|l| ctx.map.node(&format!("{}:{rel}", l.id())).is_ok());
    if !knew {
        return not_a_known_file(field, rel, abs.is_dir());
    }
    ToolError::new(
        ErrorCode::FileDeleted,
        format!("{rel} does not exist"),
        "Use map_search to find the symbol's current file.",
    )
    .with_extra("file", rel.to_string())
}

/// `BAD_ARGS` for a path that is a directory or that no index ever held (contract: a
/// typo is not a deleted file). Shared by every nav tool and `resolve`.
pub fn not_a_known_file(field: &str, rel: &str, is_dir: bool) -> ToolError {
    let what = if is_dir {
        "is a directory, not a file"
    } else {
        "does not exist (and the map never knew it)"
    };
    ToolError::bad_args(
        format!("{field}: {rel} {what}"),
        "Pass a source file relative to the root; map_search finds files and symbols.",
    )
    .with_extra("field", field)
    .with_extra("file", rel)
}

/// How many definitions the map has under this qualified name in the file (`~n` duplicates).
async fn map_duplicates(ctx: &Arc<ServerContext>, rel: &str, qualified: &str) -> usize {
    let map = ctx.map.clone();
    let (rel, qualified) = (rel.to_string(), qualified.to_string());
    tokio::task::spawn_blocking(move || map.nodes_in_file(&rel))
        .await
        .ok()
        .and_then(Result::ok)
        .map(|ns| {
            ns.iter()
                .filter(|n| n.kind != NodeKind::File && n.qualified_name == qualified)
                .count()
        })
        .unwrap_or(0)
}

/// The choice for a node whose server lists fewer same-name definitions than the map.
enum Pick<'e, 'a> {
    /// This live definition, with a note when it is a guess.
    Live(&'e outline::Entry<'a>, Option<String>),
    /// The map's position, unverified, with this note.
    Map(String),
}

/// A server that merges same-name definitions (pyright lists only the last of a
/// redefined function) cannot be matched by ordinal. When the file is fresh the map's
/// line is right, so a live definition there is the one; without one, the map's position
/// stands, unverified. When the file changed (the map's line may be off), the only live
/// definition, or else the map's position. Never a staleness verdict on a fresh file, and
/// never `SYMBOL_NOT_FOUND` while the name is there. `counts`: (live, map).
fn pick_merged<'e, 'a>(
    live: &[&'e outline::Entry<'a>],
    node: Option<&NodeView>,
    dup: u32,
    file_stale: bool,
    qualified: &str,
    rel: &str,
    counts: (usize, usize),
) -> Pick<'e, 'a> {
    let map_line = node.and_then(|v| v.line);
    if !file_stale
        && let Some(line) = map_line
        && let Some(e) = live
            .iter()
            .find(|e| e.sym.range.start.line < line && line <= e.sym.range.end.line + 1)
    {
        return Pick::Live(e, None);
    }
    let fewer = format!(
        "The language server lists {} definition(s) of {qualified} in {rel}, the map {} (a redefinition shadows the earlier ones for the server), so ~{} cannot be matched live",
        counts.0,
        counts.1,
        dup.max(1)
    );
    match (node, live) {
        (Some(_), _) if !file_stale => Pick::Map(format!("{fewer}; the location is the map's.")),
        (_, [only]) => Pick::Live(only, Some(format!("{fewer}; the one it lists is used."))),
        (Some(_), _) => Pick::Map(format!(
            "{fewer}; the location is the map's (the file changed since it was indexed, so it may be off)."
        )),
        (None, [.., last]) => Pick::Live(
            last,
            Some(format!("{fewer}; the last one it lists is used.")),
        ),
        (None, []) => Pick::Map(fewer),
    }
}

/// The map's position of `v`, unverified, with `note`.
fn at_map_position(mut base: Resolved, v: &NodeView, note: String) -> Resolved {
    base.verified = false;
    base.line = v.line.unwrap_or(1);
    base.col = v.col.unwrap_or(1);
    base.end_line = v.end_line;
    base.symbol = json!({
        "name": v.name,
        "kind": v.kind.as_str(),
        "qualifiedName": v.qualified_name,
    });
    base.warnings.push(note);
    base
}

fn stale_file_note(rel: &str) -> String {
    format!("{rel} changed since the map indexed it; it is being re-indexed.")
}

/// No server to ask: the map's position, unverified; an error only without one.
fn from_map_only(base: Resolved, said: &MapSaid, err: ToolError) -> Result<Resolved, ToolError> {
    let Some(v) = said.node() else {
        return Err(err);
    };
    let caveat = if v.stale {
        "; the file changed since it was indexed, so it may be off"
    } else {
        ""
    };
    let note = format!(
        "Not verified by a language server ({}: {}); location is the map's{caveat}.",
        err.code.as_str(),
        err.message
    );
    Ok(at_map_position(base, v, note))
}

fn symbol_missing(
    id: &str,
    rel: &str,
    qualified: &str,
    entries: &[outline::Entry<'_>],
    chain: &[String],
    in_map: bool,
) -> ToolError {
    let names = outline::top_level_names(entries, MAX_HINT_NAMES);
    let parent = &chain[..chain.len().saturating_sub(1)];
    let members = outline::members_of(entries, parent, MAX_HINT_NAMES);
    let mut e = ToolError::new(
        ErrorCode::SymbolNotFound,
        format!("{qualified} is not in {rel} any more (renamed, moved or deleted?)"),
        "names lists the file's top-level symbols (members: its parent's); map_search finds the new home once the map has re-indexed the file.",
    )
    .with_extra("nodeId", id)
    .with_extra("file", rel)
    .with_extra("inMap", in_map)
    .with_extra("names", names);
    if !members.is_empty() {
        e = e.with_extra("members", members);
    }
    e
}

/// `NODE_NOT_FOUND` for a symbol of a file the map holds, with what the map does have
/// there (as `SYMBOL_NOT_FOUND` gives from the live outline): `names`, the file's top-level
/// symbols, and `members`, the names under the ID's parent when that exists (a renamed
/// method shows up here), at most [`MAX_HINT_NAMES`] each.
async fn with_map_names(
    ctx: &Arc<ServerContext>,
    err: ToolError,
    rel: &str,
    qualified: &str,
) -> ToolError {
    let map = ctx.map.clone();
    let r = rel.to_string();
    let Ok(Ok(nodes)) = tokio::task::spawn_blocking(move || map.nodes_in_file(&r)).await else {
        return err;
    };
    let parent = qualified.rsplit_once('.').map(|(p, _)| p);
    let mut names: Vec<&str> = Vec::new();
    let mut members: Vec<&str> = Vec::new();
    for n in nodes.iter().filter(|n| n.kind != NodeKind::File) {
        let q = n.qualified_name.as_str();
        match q.rsplit_once('.') {
            None if names.len() < MAX_HINT_NAMES && !names.contains(&q) => names.push(q),
            Some((p, name))
                if Some(p) == parent
                    && members.len() < MAX_HINT_NAMES
                    && !members.contains(&name) =>
            {
                members.push(name)
            }
            _ => {}
        }
    }
    let mut err = err.with_extra("file", rel).with_extra("names", names);
    if !members.is_empty() {
        err = err.with_extra("members", members);
    }
    err
}

/// `{file, line, col}` → the enclosing symbols and the map node of the innermost one.
async fn resolve_position(
    ctx: &Arc<ServerContext>,
    file: &str,
    line: u32,
    col: u32,
) -> Result<Payload, ToolError> {
    let rel = ctx.resolve_file("file", file)?;
    let abs = ctx.root.join(&rel);
    if !abs.is_file() {
        return Err(missing_file(ctx, "file", &rel));
    }
    let Some(lang) = ctx.map.language_of(&rel) else {
        return Err(super::nav_common::unsupported_file(ctx, "file", &rel));
    };
    let text = read_root_file(&ctx.root, &abs).unwrap_or_default();
    // Lines as an editor counts them: the empty line after a final newline exists.
    if text.split('\n').count() < line as usize {
        return Err(ToolError::new(
            ErrorCode::SymbolNotFound,
            format!("{rel} has no line {line}"),
            "Pass a line inside the file; nav_symbols lists its symbols with positions.",
        )
        .with_extra("file", rel));
    }
    let file_id = format!("{}:{rel}", lang.id());
    let pos = Position::new(line - 1, col - 1);
    let map_nodes: Option<Vec<NodeView>> = {
        let map = ctx.map.clone();
        let r = rel.clone();
        match tokio::task::spawn_blocking(move || map.nodes_in_file(&r)).await {
            Ok(Ok(v)) => Some(v),
            _ => None,
        }
    };
    let map_stale = map_nodes
        .as_ref()
        .is_some_and(|ns| ns.iter().any(|n| n.stale));
    let in_map = |id: &str| {
        map_nodes
            .as_ref()
            .is_some_and(|ns| ns.iter().any(|n| n.id == id))
    };
    let mut anchors = Anchors::new(ctx);
    let mut warnings: Vec<String> = Vec::new();
    if map_nodes.is_none() {
        warnings.push("The map is not built yet: no node IDs to match.".into());
    } else if map_stale {
        warnings.push(format!(
            "{rel} changed since the map indexed it: its node IDs may be behind (it is being re-indexed)."
        ));
    }

    let outline = match lang.manifest.lsp.is_some() {
        true => ctx.lsp.document_symbols(&abs).await,
        false => Err(LspError::NoServer {
            what: format!("{rel} (no language server configured)"),
        }),
    };
    let answer = match outline {
        Ok(a) => a,
        Err(e) if no_server_now(&e) => {
            let err = lsp_error(e, lang.id(), None);
            let Some(nodes) = map_nodes.as_ref() else {
                return Err(err);
            };
            warnings.push(format!(
                "Not verified by a language server ({}: {}); the enclosing symbols are the map's.",
                err.code.as_str(),
                err.message
            ));
            return Ok(from_map_nodes(
                &mut anchors,
                &abs,
                &file_id,
                nodes,
                line,
                col,
                map_stale,
                warnings,
            ));
        }
        Err(e) => return Err(lsp_error(e, lang.id(), None)),
    };
    warnings.extend(answer.warnings.iter().cloned());
    let entries = outline::entries(&answer.value);
    let chain: Vec<&outline::Entry> = outline::enclosing(&entries, pos)
        .into_iter()
        .filter(|e| !e.container_only)
        .collect();
    let enclosing: Vec<Value> = chain
        .iter()
        .map(|e| {
            let at = e.sym.selection_range.start;
            json!({
                "name": e.name(),
                "qualifiedName": e.qualified(),
                "kind": kind_name(e.sym.kind),
                "line": at.line + 1,
                "col": at.character + 1,
                "endLine": e.sym.range.end.line + 1,
            })
        })
        .collect();
    let (node_id, nearest, location) = match chain.last() {
        None => {
            let id = in_map(&file_id).then(|| file_id.clone());
            (id, None, anchors.anchor(&abs, pos, None))
        }
        Some(inner) => {
            let mut candidate = format!("{file_id}#{}", inner.qualified());
            let n = outline::dup_index(&entries, inner);
            if n > 1 {
                candidate.push_str(&format!("~{n}"));
            }
            let live_lines = (inner.sym.range.start.line + 1, inner.sym.range.end.line + 1);
            let found = if in_map(&candidate) {
                Some(candidate)
            } else {
                // The map may qualify it differently: the same name defined inside the
                // live symbol's range is the same definition.
                map_nodes.as_ref().and_then(|ns| {
                    ns.iter()
                        .find(|n| {
                            n.kind != NodeKind::File
                                && n.name == inner.name()
                                && n.line
                                    .is_some_and(|l| live_lines.0 <= l && l <= live_lines.1)
                        })
                        .map(|n| n.id.clone())
                })
            };
            let nearest = match &found {
                Some(_) => None,
                None => map_nodes
                    .as_ref()
                    .and_then(|ns| innermost_map_def(ns, line))
                    .map(|n| n.id.clone())
                    .or_else(|| in_map(&file_id).then(|| file_id.clone())),
            };
            let at = inner.sym.selection_range.start;
            (
                found,
                nearest,
                anchors.anchor(&abs, at, Some(inner.sym.range.end.line)),
            )
        }
    };
    let mut data = json!({
        "nodeId": node_id,
        "inMap": node_id.is_some(),
        "enclosingSymbols": enclosing,
        "location": location,
        "verified": true,
        "mapStale": map_stale,
    });
    if let Some(n) = nearest {
        data["nearestNodeId"] = n.into();
    }
    Ok(warnings.into_iter().fold(Payload::new(data), Payload::warn))
}

/// The innermost map definition whose lines contain `line` (1-based).
fn innermost_map_def(nodes: &[NodeView], line: u32) -> Option<&NodeView> {
    nodes
        .iter()
        .filter(|n| n.kind != NodeKind::File)
        .filter(|n| {
            let (Some(l), Some(e)) = (n.line, n.end_line) else {
                return false;
            };
            l <= line && line <= e.max(l)
        })
        .min_by_key(|n| n.end_line.unwrap_or(0).saturating_sub(n.line.unwrap_or(0)))
}

/// The position answer from the map alone (no server): unverified.
#[allow(clippy::too_many_arguments)]
fn from_map_nodes(
    anchors: &mut Anchors<'_>,
    abs: &std::path::Path,
    file_id: &str,
    nodes: &[NodeView],
    line: u32,
    col: u32,
    map_stale: bool,
    warnings: Vec<String>,
) -> Payload {
    let mut chain: Vec<&NodeView> = nodes
        .iter()
        .filter(|n| n.kind != NodeKind::File)
        .filter(|n| match (n.line, n.end_line) {
            (Some(l), Some(e)) => l <= line && line <= e.max(l),
            _ => false,
        })
        .collect();
    chain.sort_by_key(|n| {
        std::cmp::Reverse(n.end_line.unwrap_or(0).saturating_sub(n.line.unwrap_or(0)))
    });
    let enclosing: Vec<Value> = chain
        .iter()
        .map(|n| {
            json!({
                "name": n.name,
                "qualifiedName": n.qualified_name,
                "kind": n.kind.as_str(),
                "line": n.line,
                "col": n.col,
                "endLine": n.end_line,
                "nodeId": n.id,
            })
        })
        .collect();
    let file_in_map = nodes.iter().any(|n| n.id == file_id);
    let (node_id, location) = match chain.last() {
        Some(n) => {
            let at = Position::new(
                n.line.unwrap_or(1).saturating_sub(1),
                n.col.unwrap_or(1).saturating_sub(1),
            );
            (
                Some(n.id.clone()),
                anchors.anchor(abs, at, n.end_line.map(|e| e - 1)),
            )
        }
        None => (
            file_in_map.then(|| file_id.to_string()),
            anchors.anchor(abs, Position::new(line - 1, col - 1), None),
        ),
    };
    let data = json!({
        "nodeId": node_id,
        "inMap": node_id.is_some(),
        "enclosingSymbols": enclosing,
        "location": location,
        "verified": false,
        "mapStale": map_stale,
    });
    warnings.into_iter().fold(Payload::new(data), Payload::warn)
}
