//! The position argument of the nav tools: `{file, line, col}` or `{nodeId}` → a
//! [`Target`], and the identifier under a UTF-16 column ([`word_at`]).
//!
//! Positions on the MCP surface are 1-based lines and 1-based UTF-16 columns; the LSP pool
//! speaks 0-based lines and 0-based UTF-16 columns. The conversion is `-1` / `+1` on both,
//! done here (and in [`super::anchors`] for answers) and nowhere else.
//!
//! A `nodeId` in place of a position goes through the bridge (`tools::resolve`): the live
//! position of the symbol's name, found in the server's outline (or the map's position,
//! unverified, when no server can be asked). Exactly one of `nodeId` and `file`+`line` is
//! accepted ([`Target::from_args`]); the resolution's warnings travel in [`Target::warnings`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use navmap_envelope::{ErrorCode, ToolError};
use navmap_language::Language;
use navmap_lsp::Position;
use serde_json::{Value, json};

use super::anchors::read_root_file;
use super::errors::unsupported_file;
use crate::ServerContext;
use crate::tools::{Args, Param};

/// The short descriptions of a position and a node ID (the instructions define them).
pub const FILE: &str = "from root";
pub const LINE: &str = "1-based";
pub const COL: &str = "1-based UTF-16";
pub const NODE_ID: &str = "node ID";

/// The arguments of every position tool.
pub fn position_params() -> [Param; 5] {
    [
        // What a position and a node ID are is said once, in the server's instructions.
        Param::string("file", FILE),
        Param::integer("line", LINE, 1, 10_000_000),
        Param::integer("col", COL, 1, 1_000_000).default_unshown(1),
        Param::string("nodeId", NODE_ID),
        crate::tools::symbol::symbol_param(),
    ]
}

/// Prefixes the warnings of a `nodeId`'s resolution, so that an agent tells them from the
/// warnings about the tool's own answer.
pub const RESOLVING: &str = "resolving nodeId: ";

/// Why the map skips this file (binary, too large, not UTF-8), by its rule
/// (`navmap_map::SkipReason::of`): such a file is never sent to a language server, which
/// would only time out on it.
fn skipped_file(abs: &Path) -> Option<navmap_map::SkipReason> {
    let max = navmap_map::MapConfig::DEFAULT_MAX_FILE_BYTES;
    let len = std::fs::metadata(abs).ok()?.len();
    if len > max {
        return navmap_map::SkipReason::of(len, None, max);
    }
    let bytes = std::fs::read(abs).ok()?;
    navmap_map::SkipReason::of(len, Some(&bytes), max)
}

/// A validated position in a file of the root.
pub struct Target {
    /// Root-relative, `/`-separated.
    pub rel: String,
    pub abs: PathBuf,
    /// The root (canonical), for reads through the confinement rule.
    root: PathBuf,
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
            let r = crate::tools::resolve::resolve_node(ctx, id, "nodeId").await?;
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
            return Err(args.bad("file", "pass file and line (or nodeId, or symbol)"));
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
        self.line_text = read_root_file(&self.root, &self.abs).and_then(|text| {
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
            return Err(crate::tools::resolve::missing_file(ctx, field, &rel));
        }
        // The map's decision (a `.h` holding C++ is C++), not the extension's alone.
        let lang = match ctx.map.language_of(&rel) {
            Some(l) if l.manifest.lsp.is_some() => l,
            _ => return Err(unsupported_file(ctx, field, &rel)),
        };
        if let Some(why) = skipped_file(&abs) {
            return Err(ToolError::bad_args(
                format!(
                    "{field}: {rel} is {}: the map skips it and no language server is asked about it",
                    why.describe()
                ),
                "Pass a source file; map_status lists what the map skipped.",
            )
            .with_extra("field", field)
            .with_extra("file", rel)
            .with_extra("skipped", why.as_str()));
        }
        Ok(Target {
            rel,
            abs,
            root: ctx.root.clone(),
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
    ///
    /// A `nodeId` (or `symbol`) call already named the symbol: a server-verified target
    /// says nothing more and is `null` ([`drop_null_target`] leaves it off the wire,
    /// issue 18: no echo of the request); a target the map alone placed says where it
    /// was placed, with `verified: false`.
    pub fn json(&self) -> Value {
        if self.node_id.is_some() {
            if self.verified {
                return Value::Null;
            }
            let mut v = json!({"file": self.rel, "line": self.line, "col": self.col});
            v["verified"] = Value::from(false);
            if let Some(w) = self.word() {
                v["name"] = Value::from(w);
            }
            return v;
        }
        let mut v = json!({});
        if let Some(w) = self.word() {
            v["name"] = Value::from(w);
        }
        v
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Removes `data.target` when [`Target::json`] had nothing to say (`null`).
pub fn drop_null_target(data: &mut Value) {
    if let Some(o) = data.as_object_mut()
        && o.get("target").is_some_and(Value::is_null)
    {
        o.remove("target");
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
