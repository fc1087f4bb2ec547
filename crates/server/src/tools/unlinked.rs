//! The `unlinked` tier of an answer about the uses of a symbol (contract §2, "Completeness
//! is never silent"): the mentions of its name that no edge links to it and no rule
//! excludes (`navmap_map::Map::mention_check`; the rule is in docs/answers.md), as rows
//! `<line>:<col> <snippet>` grouped by file and enclosing definition, ranked and cut like
//! any list, with their count.
//!
//! Shape, added to `data` only when something is unlinked (a complete answer does not
//! grow): `unlinked: [{file, in?, rows: ["12:5 s.refresh()"]}]`, `unlinkedTotal: n`,
//! `complete: false`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use navmap_envelope::{ListSpec, Payload};
use navmap_map::{EdgeKind, MentionCheck, MentionSite};
use serde_json::{Value, json};

use super::nav_common::snippet;
use crate::paths::resolve_under_root;

/// What the envelope calls the cut items.
pub const KIND: &str = "unlinked mentions";

/// One group: a file and the enclosing definition.
struct Group<'a> {
    file: &'a str,
    enclosing: Option<&'a str>,
    rows: Vec<String>,
}

/// The lines the unlinked mentions are on, by file and 1-based line (each file read once;
/// a file that cannot be read, or is not under the root, gives rows without snippets).
/// Only those lines are kept: a common name is mentioned in hundreds of files, and every
/// line of each as a string of its own was the largest thing a server ever allocated
/// (issue 19: the server's RSS after a query mix).
fn read_lines<'a>(
    root: &Path,
    mentions: &'a [MentionSite],
) -> HashMap<&'a str, HashMap<u32, String>> {
    let mut wanted: HashMap<&'a str, HashSet<u32>> = HashMap::new();
    for m in mentions {
        wanted.entry(m.file.as_str()).or_default().insert(m.line);
    }
    wanted
        .into_iter()
        .map(|(file, lines)| {
            let text = resolve_under_root(root, "file", file)
                .ok()
                .and_then(|rel| std::fs::read_to_string(root.join(rel)).ok())
                .unwrap_or_default();
            let kept = text
                .lines()
                .zip(1u32..)
                .filter(|(_, n)| lines.contains(n))
                .map(|(l, n)| (n, l.to_string()))
                .collect();
            (file, kept)
        })
        .collect()
}

/// The groups in rank order: a group sits where its best mention ranks.
fn groups<'a>(root: &Path, mentions: &'a [MentionSite]) -> Vec<Group<'a>> {
    let lines = read_lines(root, mentions);
    let mut order: Vec<Group<'a>> = Vec::new();
    let mut index: HashMap<(&str, Option<&str>), usize> = HashMap::new();
    for m in mentions {
        let key = (m.file.as_str(), m.enclosing.as_deref());
        let i = *index.entry(key).or_insert_with(|| {
            order.push(Group {
                file: &m.file,
                enclosing: m.enclosing.as_deref(),
                rows: Vec::new(),
            });
            order.len() - 1
        });
        let text = lines
            .get(m.file.as_str())
            .and_then(|l| l.get(&m.line))
            .map(|l| snippet(l))
            .unwrap_or_default();
        let row = if text.is_empty() {
            format!("{}:{}", m.line, m.col)
        } else {
            format!("{}:{} {text}", m.line, m.col)
        };
        order[i].rows.push(row);
    }
    order
}

/// Adds the unlinked tier to `data` (nothing when nothing is unlinked); whether it did.
pub fn add_tier(root: &Path, data: &mut Value, check: &MentionCheck) -> bool {
    if check.unlinked.is_empty() {
        return false;
    }
    data["unlinked"] = Value::Array(rows_json(root, &check.unlinked));
    data["unlinkedTotal"] = check.unlinked.len().into();
    data["complete"] = Value::Bool(false);
    true
}

/// Mention sites as `[{file, in?, rows: ["<line>:<col> <snippet>"]}]`, in their order.
pub fn rows_json(root: &Path, sites: &[MentionSite]) -> Vec<Value> {
    groups(root, sites)
        .into_iter()
        .map(|g| {
            let mut o = json!({"file": g.file});
            if let Some(e) = g.enclosing {
                // The ID's part after `#`: the file is already said.
                let name = e.split_once('#').map(|(_, n)| n).unwrap_or(e);
                o["in"] = name.into();
            }
            o["rows"] = g.rows.into();
            o
        })
        .collect()
}

/// Declares the tier's lists (the groups, and the rows inside each) to the envelope.
pub fn declare(payload: Payload, narrowing: &str) -> Payload {
    payload
        .list(ListSpec::new("/unlinked/*/rows", KIND).narrowing(narrowing))
        .list(ListSpec::new("/unlinked", KIND).narrowing(narrowing))
}

/// Whether a list of these edge kinds is about the uses of a symbol (`None` = every kind).
pub fn about_uses(kinds: Option<&[EdgeKind]>) -> bool {
    kinds.is_none_or(|ks| ks.iter().any(|k| !mention_kinds(*k).is_empty()))
}

/// The mention kinds (`MentionCheck` rows) that could be a use of each edge kind: a value
/// use may be a call or a reference (a callback, a type in a table).
fn mention_kinds(kind: EdgeKind) -> &'static [&'static str] {
    match kind {
        EdgeKind::Calls => &["call", "value"],
        EdgeKind::References => &["reference", "value"],
        EdgeKind::Extends | EdgeKind::Implements => &["base"],
        EdgeKind::Imports => &["import"],
        EdgeKind::Contains | EdgeKind::Exports => &[],
    }
}

/// Keeps the unlinked mentions that could be uses of the asked edge kinds.
pub fn for_kinds(mut check: MentionCheck, kinds: Option<&[EdgeKind]>) -> MentionCheck {
    if let Some(ks) = kinds {
        check
            .unlinked
            .retain(|u| ks.iter().any(|k| mention_kinds(*k).contains(&u.kind)));
    }
    check
}
