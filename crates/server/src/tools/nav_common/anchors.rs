//! Anchors: the servers' absolute paths and LSP positions made into answer rows.
//!
//! Paths the servers return are made root-relative; results outside the root (library
//! code) are kept, marked `external: true` and named by their file's name alone (`lib`),
//! never by path, without a snippet (navmap reads nothing outside the root), and ranked
//! last. Anchor lists are grouped by file ([`group_by_file`]); the shapes are written up in
//! `docs/answers.md`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use navmap_lsp::{Location, Position};
use serde_json::{Value, json};

use crate::ServerContext;

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

/// Reads a file of the root as text (lossy), `None` when unreadable or when it is not
/// inside the root after resolving symlinks (the confinement rule,
/// `navmap_lsp::confine`).
pub fn read_root_file(root: &Path, path: &Path) -> Option<String> {
    let bytes = navmap_lsp::confine::read_inside(root, path)?;
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
    navmap_lsp::confine::lib_name(path)
}

impl<'a> Anchors<'a> {
    pub fn new(ctx: &'a ServerContext) -> Self {
        Anchors {
            ctx,
            files: HashMap::new(),
        }
    }

    /// Root-relative when inside the root (also through the canonical form), else external.
    /// The confinement rule decides (`navmap_lsp::confine::classify`); the language
    /// layer already left out what escapes the root, so an escaping path here (a map
    /// path, say) is shown as external: its name in the root, no snippet, nothing read.
    pub fn place(&self, path: &Path) -> Place {
        use navmap_lsp::confine::{self, Place as Confined};
        match confine::classify(&self.ctx.root, path) {
            Confined::Inside(rel) => Place::Root(rel),
            Confined::Library(lib) => Place::External(lib),
            Confined::Escapes => Place::External(lib_name(path)),
        }
    }

    fn line(&mut self, rel: &str, line0: u32) -> Option<String> {
        let abs = self.ctx.root.join(rel);
        let lines = self
            .files
            .entry(abs.clone())
            .or_insert_with(|| {
                read_root_file(&self.ctx.root, &abs).map(|t| {
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

/// Is an anchor-like item outside the root (`external: true`)?
pub fn is_external(v: &Value) -> bool {
    v["external"].as_bool().unwrap_or(false)
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
    fn snippets_are_trimmed_and_capped() {
        assert_eq!(snippet("   a = 1  "), "a = 1");
        let long = "x".repeat(300);
        assert_eq!(snippet(&long).chars().count(), 160);
    }
}
