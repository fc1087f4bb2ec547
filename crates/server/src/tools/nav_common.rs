//! What the seven `nav_*` tools share: the position argument, anchors, and the mapping of
//! language-server errors to contract codes.
//!
//! Positions on the MCP surface are 1-based lines and 1-based UTF-16 columns; the LSP pool
//! speaks 0-based lines and 0-based UTF-16 columns. The conversion is `-1` / `+1` on both,
//! done here and nowhere else. Paths the servers return are made root-relative; results
//! outside the root (library code) are kept, marked `external: true` and named by their
//! file's name alone (`lib`), never by path, without a snippet (navmap reads nothing
//! outside the root), and ranked last. Anchor lists are grouped by file
//! ([`group_by_file`]); the shapes are written up in `docs/answers.md`.
//!
//! Also here: the generic test-code path rules ([`is_test_path`]), the notes' narrowing
//! sentence built from the call's own arguments ([`nav_narrowing`]), and `complete`
//! ([`mark_incomplete`]: only the server's word, absent when its list was whole).
//!
//! A `nodeId` in place of a position goes through the bridge ([`super::resolve`]): the live
//! position of the symbol's name, found in the server's outline (or the map's position,
//! unverified, when no server can be asked). Exactly one of `nodeId` and `file`+`line` is
//! accepted ([`Target::from_args`]); the resolution's warnings travel in [`Target::warnings`].

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use navmap_envelope::{ErrorCode, ToolError};
use navmap_language::Language;
use navmap_lsp::{DocumentSymbol, Location, LspError, Position, SymbolKind};
use serde_json::{Value, json};

use super::{Args, Param};
use crate::ServerContext;

/// The arguments of every position tool.
pub fn position_params() -> [Param; 4] {
    [
        // file/line/col are explained once, in the server's instructions.
        Param::string("file", ""),
        Param::integer("line", "", 1, 10_000_000),
        Param::integer("col", "", 1, 1_000_000).default(1),
        Param::string("nodeId", ""),
    ]
}

/// Prefixes the warnings of a `nodeId`'s resolution, so that an agent tells them from the
/// warnings about the tool's own answer.
pub const RESOLVING: &str = "resolving nodeId: ";

/// Lines of stderr passed on in `LSP_FAILED` and `map_status`.
pub const STDERR_LINES: usize = 10;

/// A validated position in a file of the root.
pub struct Target {
    /// Root-relative, `/`-separated.
    pub rel: String,
    pub abs: PathBuf,
    pub lang: Arc<Language>,
    /// 1-based, as the caller gave it.
    pub line: u32,
    pub col: u32,
    /// The LSP position (0-based, UTF-16).
    pub pos: Position,
    /// The source line, if it exists.
    pub line_text: Option<String>,
    /// The node ID the position was resolved from (`nodeId` argument).
    pub node_id: Option<String>,
    /// False when a `nodeId` was placed by the map alone (no server to verify it).
    pub verified: bool,
    /// What the resolution of a `nodeId` had to say (map stale, unverified, ...).
    pub warnings: Vec<String>,
}

impl Target {
    /// `{file, line, col}` or `{nodeId}` → a target. `BAD_ARGS` for both or neither, or a
    /// missing or escaping path, a directory or a file the map never knew; `FILE_DELETED`
    /// for a file the map knew that is gone; `LSP_UNAVAILABLE`
    /// for a language without a server; a `nodeId` fails as `resolve` does
    /// (`SYMBOL_NOT_FOUND`, `BAD_NODE_ID`, ...).
    pub async fn from_args(ctx: &Arc<ServerContext>, args: &Args) -> Result<Target, ToolError> {
        if let Some(id) = args.opt_str("nodeId") {
            if args.opt_str("file").is_some() || args.opt_int("line").is_some() {
                return Err(args.bad("nodeId", "pass either nodeId or file+line (+col), not both"));
            }
            let r = super::resolve::resolve_node(ctx, id, "nodeId").await?;
            let mut t = Target::file(ctx, "nodeId", &r.rel)?.at(r.line, r.col);
            t.node_id = Some(id.to_string());
            t.verified = r.verified;
            // Said about locating the nodeId, not about the tool's own answer.
            t.warnings = r
                .warnings
                .into_iter()
                .map(|w| format!("{RESOLVING}{w}"))
                .collect();
            return Ok(t);
        }
        let Some(file) = args.opt_str("file") else {
            return Err(args.bad("file", "pass file and line (or nodeId)"));
        };
        let Some(line) = args.opt_int("line") else {
            return Err(args.bad("line", "pass line with file"));
        };
        let col = args.opt_int("col").unwrap_or(1);
        Ok(Target::file(ctx, "file", file)?.at(line as u32, col as u32))
    }

    /// The same file at another 1-based position.
    fn at(mut self, line: u32, col: u32) -> Target {
        self.line = line.max(1);
        self.col = col.max(1);
        self.pos = Position::new(self.line - 1, self.col - 1);
        self.line_text = read_root_file(&self.abs).and_then(|text| {
            text.lines()
                .nth(self.line as usize - 1)
                .map(|l| l.trim_end_matches('\r').to_string())
        });
        self
    }

    /// A whole file (nav_symbols), checked the same way.
    pub fn file(ctx: &ServerContext, field: &str, file: &str) -> Result<Target, ToolError> {
        let rel = ctx.resolve_file(field, file)?;
        let abs = ctx.root.join(&rel);
        if !abs.is_file() {
            return Err(super::resolve::missing_file(ctx, field, &rel));
        }
        let lang = match ctx.languages.for_path(&rel) {
            Some(l) if l.manifest.lsp.is_some() => l.clone(),
            _ => return Err(unsupported_file(ctx, field, &rel)),
        };
        Ok(Target {
            rel,
            abs,
            lang,
            line: 1,
            col: 1,
            pos: Position::new(0, 0),
            line_text: None,
            node_id: None,
            verified: true,
            warnings: Vec::new(),
        })
    }

    /// The identifier at (or just before) the column, if any.
    pub fn word(&self) -> Option<String> {
        let text = self.line_text.as_ref()?;
        word_at(text, self.col as usize - 1)
    }

    /// `SYMBOL_NOT_FOUND` unless an identifier is at (or just before) the column: a
    /// position on whitespace, punctuation or past the end of the line or file.
    pub fn require_word(&self) -> Result<String, ToolError> {
        self.word().ok_or_else(|| {
            let why = match &self.line_text {
                None => format!("{} has no line {}", self.rel, self.line),
                Some(_) => format!(
                    "no symbol at {}:{}:{} (whitespace or punctuation)",
                    self.rel, self.line, self.col
                ),
            };
            ToolError::new(
                ErrorCode::SymbolNotFound,
                why,
                "Point line/col at an identifier; nav_symbols lists this file's symbols with positions.",
            )
            .with_extra("file", self.rel.clone())
        })
    }

    /// The symbol asked about, without what the request already says: `{name}` for a
    /// position (its file, line and column are the request's), `{file, line, col, name,
    /// verified?: false}` for a `nodeId` (where the bridge placed it; `verified: false`
    /// when no server confirmed it).
    pub fn json(&self) -> Value {
        let mut v = json!({});
        if self.node_id.is_some() {
            v = json!({"file": self.rel, "line": self.line, "col": self.col});
            if !self.verified {
                v["verified"] = Value::from(false);
            }
        }
        if let Some(w) = self.word() {
            v["name"] = Value::from(w);
        }
        v
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier covering UTF-16 column `col0` (0-based), or ending right before it.
pub fn word_at(line: &str, col0: usize) -> Option<String> {
    let chars: Vec<(usize, char)> = {
        let mut unit = 0;
        line.chars()
            .map(|c| {
                let at = unit;
                unit += c.len_utf16();
                (at, c)
            })
            .collect()
    };
    // The char whose UTF-16 span covers col0; else the one just before (cursor at a word's end).
    let idx = chars
        .iter()
        .position(|(at, c)| *at <= col0 && col0 < at + c.len_utf16());
    let idx = match idx {
        Some(i) if is_ident(chars[i].1) => i,
        Some(i) if i > 0 && is_ident(chars[i - 1].1) && chars[i].0 == col0 => i - 1,
        None if !chars.is_empty()
            && is_ident(chars[chars.len() - 1].1)
            && col0 == line.encode_utf16().count() =>
        {
            chars.len() - 1
        }
        _ => return None,
    };
    let mut start = idx;
    while start > 0 && is_ident(chars[start - 1].1) {
        start -= 1;
    }
    let mut end = idx;
    while end + 1 < chars.len() && is_ident(chars[end + 1].1) {
        end += 1;
    }
    Some(chars[start..=end].iter().map(|(_, c)| c).collect())
}

/// The trimmed source line, at most 160 characters.
pub fn snippet(line: &str) -> String {
    let t = line.trim();
    if t.chars().count() > 160 {
        let mut s: String = t.chars().take(159).collect();
        s.push('…');
        s
    } else {
        t.to_string()
    }
}

/// Reads a file of the root as text (lossy), `None` when unreadable.
pub fn read_root_file(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Turns the servers' absolute paths into anchors, reading each root file once.
pub struct Anchors<'a> {
    ctx: &'a ServerContext,
    files: HashMap<PathBuf, Option<Arc<Vec<String>>>>,
}

/// Where a path lies.
pub enum Place {
    /// Root-relative, `/`-separated.
    Root(String),
    /// Outside the root: only the file's name ([`lib_name`]), never its path.
    External(String),
}

/// What an answer says about a file outside the root: its name alone (`posixpath.pyi`,
/// `lib.es5.d.ts`), never its path (contract §1: nothing outside the root is reported).
pub fn lib_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl<'a> Anchors<'a> {
    pub fn new(ctx: &'a ServerContext) -> Self {
        Anchors {
            ctx,
            files: HashMap::new(),
        }
    }

    /// Root-relative when inside the root (also through the canonical form), else external.
    pub fn place(&self, path: &Path) -> Place {
        if let Ok(rel) = path.strip_prefix(&self.ctx.root) {
            return Place::Root(rel.to_string_lossy().replace('\\', "/"));
        }
        if let Ok(real) = path.canonicalize()
            && let Ok(rel) = real.strip_prefix(&self.ctx.root)
        {
            return Place::Root(rel.to_string_lossy().replace('\\', "/"));
        }
        Place::External(lib_name(path))
    }

    fn line(&mut self, rel: &str, line0: u32) -> Option<String> {
        let abs = self.ctx.root.join(rel);
        let lines = self
            .files
            .entry(abs.clone())
            .or_insert_with(|| {
                read_root_file(&abs).map(|t| {
                    Arc::new(
                        t.lines()
                            .map(|l| l.trim_end_matches('\r').to_string())
                            .collect(),
                    )
                })
            })
            .clone()?;
        lines.get(line0 as usize).cloned()
    }

    /// An anchor `{file, line, col, endLine?, snippet?}` for a range start in `path`
    /// (outside the root: `{external: true, lib, line, col}`, no path, no snippet);
    /// `end_line0` adds `endLine` when the construct spans lines.
    pub fn anchor(&mut self, path: &Path, start: Position, end_line0: Option<u32>) -> Value {
        let mut v = match self.place(path) {
            Place::Root(rel) => {
                let mut v =
                    json!({"file": rel, "line": start.line + 1, "col": start.character + 1});
                if let Some(text) = self.line(&rel, start.line) {
                    v["snippet"] = Value::from(snippet(&text));
                }
                v
            }
            Place::External(lib) => json!({
                "external": true, "lib": lib, "line": start.line + 1, "col": start.character + 1
            }),
        };
        if let Some(end) = end_line0.filter(|e| *e > start.line) {
            v["endLine"] = Value::from(end + 1);
        }
        v
    }

    /// The anchor of a server location: the name's position, `endLine` of the whole
    /// construct when the server gave it.
    pub fn location(&mut self, loc: &Location) -> Value {
        self.anchor(
            &loc.path,
            loc.range.start,
            loc.full_range.map(|r| r.end.line),
        )
    }
}

/// Anchors grouped by file, the one shape of every nav anchor list (docs/answers.md):
/// `[{file, at: ["<line>:<col>[-<endLine>][ <snippet>]"]}]` (see [`anchor_row`]), outside the root
/// `{external: true, lib, at}`. Groups keep the order in which their file first appears
/// in `ranked` (so a list ranked by file keeps its ranking), anchors their order inside.
/// Declare `/<list>` (files) and `/<list>/*/at` to the envelope: a cut thins every file's
/// anchors before it drops files.
pub fn group_by_file(ranked: Vec<Value>) -> Vec<Value> {
    let mut groups: Vec<Value> = Vec::new();
    let mut index: HashMap<(bool, String), usize> = HashMap::new();
    for mut a in ranked {
        let external = a["external"].as_bool().unwrap_or(false);
        let key_field = if external { "lib" } else { "file" };
        let Some(o) = a.as_object_mut() else {
            continue;
        };
        let name = o
            .remove(key_field)
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        o.remove("external");
        let i = *index.entry((external, name.clone())).or_insert_with(|| {
            groups.push(if external {
                json!({"external": true, "lib": name, "at": []})
            } else {
                json!({"file": name, "at": []})
            });
            groups.len() - 1
        });
        if let Some(at) = groups[i]["at"].as_array_mut() {
            at.push(anchor_row(a));
        }
    }
    groups
}

/// An anchor inside its file's group as one row, `<line>:<col>[-<endLine>][ <snippet>]`
/// (`13:27 def handle_refresh(store: SessionStore, key: str) -> str:`): what a grep line
/// says, without an object's keys and quotes. An anchor with any other field stays an
/// object.
fn anchor_row(a: Value) -> Value {
    let plain = a.as_object().is_some_and(|o| {
        o.keys()
            .all(|k| matches!(k.as_str(), "line" | "col" | "endLine" | "snippet"))
    });
    let (Some(line), Some(col), true) = (a["line"].as_u64(), a["col"].as_u64(), plain) else {
        return a;
    };
    let mut row = format!("{line}:{col}");
    if let Some(end) = a["endLine"].as_u64() {
        row.push_str(&format!("-{end}"));
    }
    if let Some(s) = a["snippet"].as_str() {
        row.push(' ');
        row.push_str(s);
    }
    Value::from(row)
}

/// Best first: inside the root before external, then by file, then by line and column.
pub fn by_place_file_line(a: &Value, b: &Value) -> std::cmp::Ordering {
    let ext = |v: &Value| v["external"].as_bool().unwrap_or(false);
    ext(a)
        .cmp(&ext(b))
        .then_with(|| a["file"].as_str().cmp(&b["file"].as_str()))
        .then_with(|| a["line"].as_u64().cmp(&b["line"].as_u64()))
        .then_with(|| a["col"].as_u64().cmp(&b["col"].as_u64()))
}

/// Externals last, order otherwise kept (a stable sort).
pub fn externals_last(items: &mut [Value]) {
    items.sort_by_key(|v| v["external"].as_bool().unwrap_or(false));
}

/// Path rules that make a file "test code" (docs/answers.md). Generic on purpose: no
/// language's conventions by name, only the common shapes of test paths.
/// Directory names anywhere in the path.
pub const TEST_DIRS: &[&str] = &["test", "tests", "__tests__"];
/// File-name shapes: `prefix*`, `*suffix` (before the extension), `*.infix.*`.
pub const TEST_NAME_PREFIXES: &[&str] = &["test_"];
pub const TEST_NAME_SUFFIXES: &[&str] = &["_test"];
pub const TEST_NAME_INFIXES: &[&str] = &["test", "spec"];

/// Is this root-relative path test code by [`TEST_DIRS`] and the file-name rules?
pub fn is_test_path(rel: &str) -> bool {
    let mut parts: Vec<&str> = rel.split('/').collect();
    let name = parts.pop().unwrap_or("");
    if parts.iter().any(|d| TEST_DIRS.contains(d)) {
        return true;
    }
    let pieces: Vec<&str> = name.split('.').collect();
    let stem = pieces[0];
    if pieces.len() < 2 {
        return false;
    }
    TEST_NAME_PREFIXES.iter().any(|p| stem.starts_with(p))
        || TEST_NAME_SUFFIXES.iter().any(|x| stem.ends_with(x))
        || pieces[1..pieces.len() - 1]
            .iter()
            .any(|i| TEST_NAME_INFIXES.contains(i))
}

/// Is an anchor-like item outside the root (`external: true`)?
pub fn is_external(v: &Value) -> bool {
    v["external"].as_bool().unwrap_or(false)
}

/// Is an anchor-like item (`{file, external?}`) test code?
pub fn is_test_item(v: &Value) -> bool {
    !v["external"].as_bool().unwrap_or(false) && v["file"].as_str().is_some_and(is_test_path)
}

/// The directory (`dir/`) holding most of these root-relative files, when the files are
/// in more than one directory (else a filter on it would narrow nothing). A `fileFilter`
/// suggestion names a prefix that exists in the answer, never a guessed `src/`.
pub fn busiest_dir<'f>(files: impl IntoIterator<Item = &'f str>) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for f in files {
        let dir = match f.rsplit_once('/') {
            // The first segment: the widest prefix that still splits the answer.
            Some(_) => format!("{}/", f.split('/').next().unwrap_or("")),
            None => String::new(),
        };
        match counts.iter_mut().find(|(d, _)| *d == dir) {
            Some(c) => c.1 += 1,
            None => counts.push((dir, 1)),
        }
    }
    if counts.len() < 2 {
        return None;
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts.into_iter().map(|(d, _)| d).find(|d| !d.is_empty())
}

/// Where these root-relative files are, by first path segment, the busiest first (at most
/// three): `shop/ (3), tests/ (1), main.py (1)`. Told when a `fileFilter` kept nothing,
/// so the next filter names a prefix that exists.
pub fn where_they_are<'f>(files: impl IntoIterator<Item = &'f str>) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for f in files {
        let head = match f.split_once('/') {
            Some((dir, _)) => format!("{dir}/"),
            None => f.to_string(),
        };
        match counts.iter_mut().find(|(h, _)| *h == head) {
            Some(c) => c.1 += 1,
            None => counts.push((head, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts
        .iter()
        .take(3)
        .map(|(h, n)| format!("{h} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The narrowing sentence of a nav answer's note, built from the call's own arguments so
/// that it never suggests a parameter already set: `fileFilter` (on the directory holding
/// most hits) when none was passed, `excludeTests` when the answer holds test code and it
/// was not passed, then `extra` (tool-specific, already checked by the caller).
pub fn nav_narrowing(args: &Args, items: &[Value], extra: &[String]) -> String {
    let mut ways: Vec<String> = extra.to_vec();
    if args
        .opt_str("fileFilter")
        .is_none_or(|f| f.trim().is_empty())
        && let Some(dir) = busiest_dir(
            items
                .iter()
                .filter(|v| !v["external"].as_bool().unwrap_or(false))
                .filter_map(|v| v["file"].as_str()),
        )
    {
        ways.push(format!("fileFilter:'{dir}'"));
    }
    if args.opt_bool("excludeTests") == Some(false) && items.iter().any(is_test_item) {
        ways.push("excludeTests:true".to_string());
    }
    if ways.is_empty() {
        String::new()
    } else {
        format!("Pass {} to scope", ways.join(" or "))
    }
}

/// `complete: false` when the server's list was not whole (a server still indexing, a
/// call hierarchy not followed to the end); nothing when it was. Only the server's word
/// counts: a filter is not incompleteness and a budget cut is the envelope's `truncated`,
/// so an answer never says `complete: true` next to `truncated: true` (docs/answers.md).
pub fn mark_incomplete(data: &mut Value, complete: bool) {
    if !complete {
        data["complete"] = Value::Bool(false);
    }
}

/// The cursor generation of a nav answer: a hash of its content, so a cursor from an
/// answer that has since changed is `CURSOR_STALE`, never a wrong page.
pub fn content_generation(data: &Value) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    data.to_string().hash(&mut h);
    h.finish() | 1
}

/// The contract's LSP symbol-kind names (lowercase, LSP spelling).
pub fn kind_name(kind: SymbolKind) -> &'static str {
    match kind {
        SymbolKind::FILE => "file",
        SymbolKind::MODULE => "module",
        SymbolKind::NAMESPACE => "namespace",
        SymbolKind::PACKAGE => "package",
        SymbolKind::CLASS => "class",
        SymbolKind::METHOD => "method",
        SymbolKind::PROPERTY => "property",
        SymbolKind::FIELD => "field",
        SymbolKind::CONSTRUCTOR => "constructor",
        SymbolKind::ENUM => "enum",
        SymbolKind::INTERFACE => "interface",
        SymbolKind::FUNCTION => "function",
        SymbolKind::VARIABLE => "variable",
        SymbolKind::CONSTANT => "constant",
        SymbolKind::STRING => "string",
        SymbolKind::NUMBER => "number",
        SymbolKind::BOOLEAN => "boolean",
        SymbolKind::ARRAY => "array",
        SymbolKind::OBJECT => "object",
        SymbolKind::KEY => "key",
        SymbolKind::NULL => "null",
        SymbolKind::ENUM_MEMBER => "enum_member",
        SymbolKind::STRUCT => "struct",
        SymbolKind::EVENT => "event",
        SymbolKind::OPERATOR => "operator",
        SymbolKind::TYPE_PARAMETER => "type_parameter",
        _ => "unknown",
    }
}

/// `BAD_ARGS` for a file no language server handles (its type is not a language navmap
/// knows, or the language has no server configured): nothing to install, the agent must
/// pass another file. The same answer from every nav tool and `resolve` (docs/lsp.md).
pub fn unsupported_file(ctx: &ServerContext, field: &str, rel: &str) -> ToolError {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let kind = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("*.{ext} files"),
        _ => format!("files like {name}"),
    };
    let mut handled: Vec<String> = ctx
        .languages
        .all()
        .iter()
        .filter(|l| l.manifest.lsp.is_some())
        .flat_map(|l| {
            l.manifest
                .extensions
                .iter()
                .map(|e| format!(".{}", e.trim_start_matches('.')))
        })
        .collect();
    handled.dedup();
    ToolError::bad_args(
        format!("{field}: no language server handles {kind} ({rel})"),
        format!(
            "Pass a source file ({}); map_search and map_neighbors cover what the map indexes.",
            handled.join(" ")
        ),
    )
    .with_extra("field", field)
    .with_extra("file", rel)
}

fn no_server(why: &str) -> ToolError {
    ToolError::new(
        ErrorCode::LspUnavailable,
        why.to_string(),
        "No language server navigates this file; map_search and map_neighbors still work.",
    )
}

/// What the caller should try when a capability is missing, per tool.
pub struct Fallback {
    pub hint: &'static str,
}

/// Maps a pool error to the contract's error codes.
pub fn lsp_error(err: LspError, lang: &str, fallback: Option<Fallback>) -> ToolError {
    match err {
        LspError::NoServer { what } => {
            no_server(&format!("no language server configured for {what}"))
        }
        LspError::Unavailable {
            command,
            install_hint,
        } => ToolError::new(
            ErrorCode::LspUnavailable,
            format!("the {lang} language server `{command}` is not installed"),
            format!("Install it with: {install_hint} (map_* tools work without it)."),
        )
        .with_extra("installCommand", install_hint)
        .with_extra("language", lang),
        LspError::NotReady { detail, waited } => ToolError::new(
            ErrorCode::LspNotReady,
            format!(
                "the {lang} language server is still {detail} after {:.1}s",
                waited.as_secs_f64()
            ),
            "Retry shortly; meanwhile map_search / map_neighbors answer from the map.",
        )
        .with_extra("language", lang),
        LspError::Failed {
            reason,
            stderr_tail,
        } => {
            let tail: Vec<String> = stderr_tail
                .iter()
                .rev()
                .take(STDERR_LINES)
                .rev()
                .cloned()
                .collect();
            ToolError::new(
                ErrorCode::LspFailed,
                format!("the {lang} language server failed: {reason}"),
                "map_status shows its state and stderr; map_* tools still work.",
            )
            .with_extra("language", lang)
            .with_extra("stderrTail", tail)
        }
        LspError::Timeout { method, after } => ToolError::new(
            ErrorCode::LspTimeout,
            format!(
                "the {lang} language server did not answer {method} within {}s (cancelled)",
                after.as_secs()
            ),
            "Retry, narrow the question, or use map_neighbors / map_search.",
        )
        .with_extra("language", lang),
        LspError::NoCapability { capability } => ToolError::new(
            ErrorCode::LspFailed,
            format!("the {lang} language server does not support {capability}"),
            fallback
                .map(|f| f.hint)
                .unwrap_or("Use the map_* tools for this question."),
        )
        .with_extra("language", lang)
        .with_extra("capability", capability),
        LspError::Server { code, message } => ToolError::new(
            ErrorCode::LspFailed,
            format!("the {lang} language server answered error {code}: {message}"),
            "Retry; if it persists, map_status shows the server's state.",
        )
        .with_extra("language", lang),
        LspError::Io { context, source } => {
            if source.kind() == std::io::ErrorKind::NotFound {
                ToolError::new(
                    ErrorCode::FileDeleted,
                    format!("{context} does not exist"),
                    "Use map_search to find the symbol's current file.",
                )
            } else {
                ToolError::internal(format!("{context}: {source}"))
            }
        }
    }
}

/// A flattened outline entry (pre-order).
pub struct FlatSymbol<'a> {
    pub sym: &'a DocumentSymbol,
}

pub fn flatten(symbols: &[DocumentSymbol]) -> Vec<FlatSymbol<'_>> {
    fn walk<'a>(list: &'a [DocumentSymbol], out: &mut Vec<FlatSymbol<'a>>) {
        for s in list {
            out.push(FlatSymbol { sym: s });
            walk(&s.children, out);
        }
    }
    let mut out = Vec::new();
    walk(symbols, &mut out);
    out
}

/// The innermost symbol whose range contains `pos` (for snapping).
pub fn enclosing(symbols: &[DocumentSymbol], pos: Position) -> Option<&DocumentSymbol> {
    let mut best: Option<&DocumentSymbol> = None;
    for f in flatten(symbols) {
        let r = f.sym.range;
        if r.start <= pos && pos <= r.end {
            let smaller = best.is_none_or(|b| {
                (r.end.line - r.start.line) <= (b.range.end.line - b.range.start.line)
            });
            if smaller {
                best = Some(f.sym);
            }
        }
    }
    best
}

/// Up to five outline entries nearest to `line0`, for `SYMBOL_NOT_FOUND` extras.
pub fn nearby(symbols: &[DocumentSymbol], line0: u32) -> Vec<Value> {
    let mut flat = flatten(symbols);
    flat.sort_by_key(|f| f.sym.selection_range.start.line.abs_diff(line0));
    flat.into_iter()
        .take(5)
        .map(|f| {
            json!({
                "name": f.sym.name,
                "kind": kind_name(f.sym.kind),
                "line": f.sym.selection_range.start.line + 1,
                "col": f.sym.selection_range.start.character + 1,
            })
        })
        .collect()
}

/// `SYMBOL_NOT_FOUND` with the file's nearby symbols (asked of the server; left out when
/// it cannot say).
pub async fn symbol_not_found(ctx: &ServerContext, t: &Target, err: ToolError) -> ToolError {
    match ctx.lsp.document_symbols(&t.abs).await {
        Ok(outline) if !outline.value.is_empty() => {
            err.with_extra("nearbySymbols", nearby(&outline.value, t.pos.line))
        }
        _ => err,
    }
}

/// `map_status.lsp`: `{<lang>: {state, command, pid?, uptime?, detail?, stderrTail?}}`
/// for every language with a server configured. Starts nothing: an unstarted server is
/// `unspawned`, or `unavailable` when its binary is not on the PATH.
pub fn lsp_status(ctx: &ServerContext) -> Value {
    let mut out = serde_json::Map::new();
    for s in ctx.lsp.status() {
        let mut v = json!({"state": s.state.as_str(), "command": s.command.join(" ")});
        if let Some(pid) = s.pid {
            v["pid"] = Value::from(pid);
        }
        if let Some(up) = s.uptime {
            v["uptime"] = Value::from(up.as_secs());
        }
        if let Some(d) = s.detail {
            v["detail"] = Value::from(d);
        }
        if !s.stderr_tail.is_empty() {
            let tail: Vec<String> = s
                .stderr_tail
                .iter()
                .rev()
                .take(STDERR_LINES)
                .rev()
                .cloned()
                .collect();
            v["stderrTail"] = Value::from(tail);
        }
        out.insert(s.language, v);
    }
    Value::Object(out)
}

/// The languages (with a server configured) that have files in the root, found by a
/// bounded walk that skips hidden folders and dependency/build folders. The map knows
/// this better; this keeps the nav tools independent of it.
pub fn root_languages(ctx: &ServerContext) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let wanted = ctx
        .languages
        .all()
        .iter()
        .filter(|l| l.manifest.lsp.is_some())
        .count();
    let mut queue = std::collections::VecDeque::from([ctx.root.clone()]);
    let mut seen = 0usize;
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > 20_000 || found.len() == wanted {
                return found;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.')
                || matches!(
                    name.as_ref(),
                    "node_modules" | "target" | "vendor" | "__pycache__"
                )
            {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                queue.push_back(entry.path());
            } else if let Some(lang) = ctx.languages.for_path(&name)
                && lang.manifest.lsp.is_some()
                && !found.iter().any(|f| f == lang.id())
            {
                found.push(lang.id().to_string());
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_become_rows_in_their_file_group() {
        let groups = group_by_file(vec![
            json!({"file": "a.py", "line": 3, "col": 5, "snippet": "x = f(y)"}),
            json!({"file": "a.py", "line": 9, "col": 1, "endLine": 12, "snippet": "def g():"}),
            json!({"external": true, "lib": "os.pyi", "line": 7, "col": 2}),
        ]);
        assert_eq!(
            groups,
            vec![
                json!({"file": "a.py", "at": ["3:5 x = f(y)", "9:1-12 def g():"]}),
                json!({"external": true, "lib": "os.pyi", "at": ["7:2"]}),
            ]
        );
        // Anything else an anchor says keeps it an object.
        let odd = json!({"line": 1, "col": 1, "stale": true});
        assert_eq!(anchor_row(odd.clone()), odd);
    }

    #[test]
    fn words_by_utf16_column() {
        let line = r#"    note, ok = "🚀 café", store.refresh(key)"#;
        // `refresh` starts at 1-based UTF-16 column 33 (the emoji is two units).
        assert_eq!(word_at(line, 32).as_deref(), Some("refresh"));
        assert_eq!(word_at(line, 38).as_deref(), Some("refresh"));
        // Right after the word (a cursor at its end) still names it.
        assert_eq!(word_at(line, 39).as_deref(), Some("refresh"));
        assert_eq!(word_at(line, 0), None);
        assert_eq!(word_at(line, 19).as_deref(), Some("café"));
        // Inside the emoji (between its two UTF-16 units) and on the space after it.
        assert_eq!(word_at(line, 17), None);
        assert_eq!(word_at(line, 18), None);
        assert_eq!(word_at("x", 1).as_deref(), Some("x"));
        assert_eq!(word_at("x", 5), None);
    }

    #[test]
    fn test_paths_by_generic_rules() {
        for t in [
            "tests/a.py",
            "pkg/test/x.go",
            "src/__tests__/a.ts",
            "store_test.go",
            "shop/test_api.py",
            "src/api.test.ts",
            "src/api.spec.js",
        ] {
            assert!(is_test_path(t), "{t}");
        }
        for t in [
            "src/api.ts",
            "testing/x.py",
            "contest.py",
            "shop/latest.py",
            "attest_x.rs",
        ] {
            assert!(!is_test_path(t), "{t}");
        }
    }

    #[test]
    fn busiest_dir_names_a_prefix_of_the_answer() {
        let files = ["shop/a.py", "shop/b.py", "tests/t.py", "main.py"];
        assert_eq!(busiest_dir(files).as_deref(), Some("shop/"));
        // All in one place: a filter would narrow nothing.
        assert_eq!(busiest_dir(["shop/a.py", "shop/b.py"]), None);
    }

    #[test]
    fn where_they_are_by_first_segment() {
        let files = [
            "shop/a.py",
            "shop/b/c.py",
            "tests/t.py",
            "main.py",
            "shop/d.py",
        ];
        assert_eq!(where_they_are(files), "shop/ (3), main.py (1), tests/ (1)");
    }

    #[test]
    fn snippets_are_trimmed_and_capped() {
        assert_eq!(snippet("   a = 1  "), "a = 1");
        let long = "x".repeat(300);
        assert_eq!(snippet(&long).chars().count(), 160);
    }
}
