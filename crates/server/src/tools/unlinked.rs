//! The `unlinked` tier of an answer about the uses of a symbol (contract §2, "Completeness
//! is never silent"): the mentions of its name that no edge links to it and no rule
//! excludes (`navmap_map::Map::mention_check`; the rule is in docs/answers.md), as rows
//! `<line>:<col> <snippet>` grouped by file and enclosing definition, ranked and cut like
//! any list, with their count.
//!
//! Shape, added to `data` only when something is unlinked (a complete answer does not
//! grow): `unlinked: [{file, in?, rows: ["12:5 s.refresh()"]}]`, `unlinkedTotal: n`,
//! `complete: false`. A file whose mentions sit in several definitions is one group too,
//! `{file, groups: [{in?, rows}]}`: the file is said once, not once a definition (a
//! class's twenty methods each calling its base were twenty copies of the path).
//!
//! A check the map could not make (its references and mentions are read from the
//! database, which no longer holds this map's build: `MentionCheck::unavailable`) is
//! never "nothing unlinked": the answer keeps the map's edges and says
//! `unlinkedUnavailable: "<why>"`, `complete: false`, with a warning that
//! `map_rebuild {full: true}` restores the check (docs/freshness.md, "Answers that read the database").

use std::collections::{HashMap, HashSet};
use std::path::Path;

use navmap_envelope::{ListSpec, Payload};
use navmap_map::{EdgeKind, MentionCheck, MentionSite};
use serde_json::{Value, json};

use super::nav_common::snippet;
use crate::paths::resolve_under_root;

/// What the envelope calls the cut items.
pub const KIND: &str = "unlinked mentions";

/// The mentions in one definition of a file (or outside any).
struct Group<'a> {
    enclosing: Option<&'a str>,
    rows: Vec<String>,
}

/// One file's groups, in rank order.
struct FileGroups<'a> {
    file: &'a str,
    groups: Vec<Group<'a>>,
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

/// The files in rank order, each with its definitions in rank order: a file sits where
/// its best mention ranks, and so does a definition inside it.
fn groups<'a>(root: &Path, mentions: &'a [MentionSite]) -> Vec<FileGroups<'a>> {
    let lines = read_lines(root, mentions);
    let mut order: Vec<FileGroups<'a>> = Vec::new();
    let mut file_index: HashMap<&str, usize> = HashMap::new();
    let mut group_index: HashMap<(&str, Option<&str>), usize> = HashMap::new();
    for m in mentions {
        let f = *file_index.entry(m.file.as_str()).or_insert_with(|| {
            order.push(FileGroups {
                file: &m.file,
                groups: Vec::new(),
            });
            order.len() - 1
        });
        let groups = &mut order[f].groups;
        let g = *group_index
            .entry((m.file.as_str(), m.enclosing.as_deref()))
            .or_insert_with(|| {
                groups.push(Group {
                    enclosing: m.enclosing.as_deref(),
                    rows: Vec::new(),
                });
                groups.len() - 1
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
        groups[g].rows.push(row);
    }
    order
}

/// The field that says why an answer's unlinked mentions could not be checked.
pub const UNAVAILABLE: &str = "unlinkedUnavailable";

/// The warning of an answer whose unlinked mentions could not be checked.
pub const UNAVAILABLE_WARNING: &str = "The mentions the map did not link could not be checked (unlinkedUnavailable says why): the answer holds the map's links only. map_rebuild with full: true restores the check.";

/// Marks `data` as not accounting for the unlinked mentions, and why: `complete: false`
/// and [`UNAVAILABLE`]. Returns the warning to add.
pub fn mark_unavailable(data: &mut Value, why: &str) -> String {
    data[UNAVAILABLE] = why.into();
    data["complete"] = Value::Bool(false);
    UNAVAILABLE_WARNING.to_string()
}

/// The warning of an answer whose check could not be made ([`add_tier`] marked it).
pub fn warning(check: &MentionCheck) -> Option<String> {
    check
        .unavailable
        .as_ref()
        .map(|_| UNAVAILABLE_WARNING.to_string())
}

/// Adds the unlinked tier to `data` (nothing when nothing is unlinked); whether it did.
/// A check that could not be made marks `data` so ([`mark_unavailable`]; the caller adds
/// [`warning`]) and adds no tier.
pub fn add_tier(root: &Path, data: &mut Value, check: &MentionCheck) -> bool {
    if let Some(why) = &check.unavailable {
        mark_unavailable(data, why);
        return false;
    }
    if check.unlinked.is_empty() {
        return false;
    }
    data["unlinked"] = Value::Array(rows_json(root, &check.unlinked));
    data["unlinkedTotal"] = check.unlinked.len().into();
    data["complete"] = Value::Bool(false);
    true
}

/// Mention sites as `[{file, in?, rows}]`, a file with mentions in several definitions
/// as `{file, groups: [{in?, rows}]}`, in their order.
pub fn rows_json(root: &Path, sites: &[MentionSite]) -> Vec<Value> {
    groups(root, sites)
        .into_iter()
        .map(|fg| {
            let mut inner: Vec<Value> = fg.groups.into_iter().map(group_json).collect();
            if inner.len() == 1 {
                let mut o = json!({"file": fg.file});
                o.as_object_mut()
                    .expect("an object")
                    .append(inner[0].as_object_mut().expect("an object"));
                o
            } else {
                json!({"file": fg.file, "groups": inner})
            }
        })
        .collect()
}

/// `{in?, rows}`: the enclosing definition as the ID's part after `#` (the file is said
/// by the group that holds it).
fn group_json(g: Group<'_>) -> Value {
    let mut o = json!({});
    if let Some(e) = g.enclosing {
        let name = e.split_once('#').map(|(_, n)| n).unwrap_or(e);
        o["in"] = name.into();
    }
    o["rows"] = g.rows.into();
    o
}

/// Declares the tier's lists (the unlinked tier's, under `/unlinked`) to the envelope.
pub fn declare(payload: Payload, narrowing: &str) -> Payload {
    declare_tier(payload, "/unlinked", KIND, narrowing)
}

/// Declares a mention tier's lists at `path` to the envelope: the rows inside each group,
/// the groups of a file with several definitions, and the files.
pub fn declare_tier(payload: Payload, path: &str, kind: &str, narrowing: &str) -> Payload {
    payload
        .list(ListSpec::new(format!("{path}/*/groups/*/rows"), kind).narrowing(narrowing))
        .list(ListSpec::new(format!("{path}/*/groups"), kind).narrowing(narrowing))
        .list(ListSpec::new(format!("{path}/*/rows"), kind).narrowing(narrowing))
        .list(ListSpec::new(path, kind).narrowing(narrowing))
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

#[cfg(test)]
mod tests {
    use super::*;
    use navmap_envelope::{Budget, Cursor, Request, render};

    fn site(file: &str, line: u32, enclosing: Option<&str>) -> MentionSite {
        MentionSite {
            file: file.into(),
            line,
            col: 5,
            kind: "call",
            enclosing: enclosing.map(Into::into),
        }
    }

    /// A file's mentions in several definitions name the file once; a file with one
    /// definition (or none) keeps the flat `{file, in?, rows}`; files rank by their best
    /// mention and definitions inside a file by theirs.
    #[test]
    fn a_file_is_said_once_however_many_definitions_hold_its_mentions() {
        let sites = [
            site("h.py", 10, Some("py:h.py#A.__init__")),
            site("c.py", 3, Some("py:c.py#conf")),
            site("h.py", 20, Some("py:h.py#B.__init__")),
            site("h.py", 11, Some("py:h.py#A.__init__")),
            site("m.py", 1, None),
        ];
        let root = Path::new("/nonexistent-root");
        let got = Value::Array(rows_json(root, &sites));
        assert_eq!(
            got,
            json!([
                {"file": "h.py", "groups": [
                    {"in": "A.__init__", "rows": ["10:5", "11:5"]},
                    {"in": "B.__init__", "rows": ["20:5"]}
                ]},
                {"file": "c.py", "in": "conf", "rows": ["3:5"]},
                {"file": "m.py", "rows": ["1:5"]}
            ])
        );
    }

    /// Both shapes are lists the envelope cuts and accounts for: under a small budget the
    /// tier is cut, the answer fits, and `dropped` counts mentions.
    #[test]
    fn both_shapes_are_cut_to_fit() {
        let sites: Vec<MentionSite> = (1..=60)
            .map(|i| {
                site(
                    if i % 2 == 0 { "a.py" } else { "b.py" },
                    i,
                    Some(&format!("py:a.py#f{}", i % 7)),
                )
            })
            .chain((1..=40).map(|i| site(&format!("f{i}.py"), i, None)))
            .collect();
        let mut data = json!({"neighbors": []});
        data["unlinked"] = Value::Array(rows_json(Path::new("/nonexistent-root"), &sites));
        data["unlinkedTotal"] = sites.len().into();
        let payload = declare(Payload::new(data), "Pass edgeKinds to narrow");
        let out = render(
            Ok(payload),
            &Request {
                budget: Budget::new(300),
                cursor: None,
                args_hash: 1,
            },
        );
        assert!(out.tokens <= 300, "{}", out.text);
        let env: Value = serde_json::from_str(&out.text).unwrap();
        assert_eq!(env["truncated"], true, "{env}");
        assert_eq!(env["dropped"]["kind"], KIND, "{env}");
        assert!(
            env["data"]["unlinked"]
                .as_array()
                .is_some_and(|g| !g.is_empty()),
            "{env}"
        );
    }

    /// Following the cursor pages through every row of both shapes, each once, while the
    /// files themselves fit (the envelope's nested-list paging, here three levels deep).
    #[test]
    fn the_cursor_pages_through_every_row_of_both_shapes() {
        let mut sites: Vec<MentionSite> = (1..=40)
            .map(|i| {
                site(
                    "h.py",
                    i,
                    Some(["py:h.py#A.f", "py:h.py#B.g"][i as usize % 2]),
                )
            })
            .collect();
        sites.extend((100..=139).map(|i| site("c.py", i, Some("py:c.py#conf"))));
        let mut data = json!({});
        data["unlinked"] = Value::Array(rows_json(Path::new("/nonexistent-root"), &sites));
        let payload = declare(Payload::new(data), "");
        let mut cursor: Option<Cursor> = None;
        let mut seen: Vec<(String, String, String)> = Vec::new();
        let mut pages = 0;
        for _ in 0..40 {
            pages += 1;
            let out = render(
                Ok(payload.clone()),
                &Request {
                    budget: Budget::new(160),
                    cursor: cursor.as_ref(),
                    args_hash: 1,
                },
            );
            let env: Value = serde_json::from_str(&out.text).unwrap();
            let files = env["data"]["unlinked"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert_eq!(files.len(), 2, "the files fit: {env}");
            for f in &files {
                let groups = f["groups"]
                    .as_array()
                    .cloned()
                    .unwrap_or_else(|| vec![f.clone()]);
                for g in groups {
                    for r in g["rows"].as_array().into_iter().flatten() {
                        seen.push((
                            f["file"].to_string(),
                            g["in"].to_string(),
                            r.as_str().unwrap().to_string(),
                        ));
                    }
                }
            }
            match env.get("cursor") {
                Some(c) => cursor = Some(Cursor::decode(c.as_str().unwrap()).unwrap()),
                None => break,
            }
        }
        assert!(pages > 2, "the budget cut the rows: {pages} page(s)");
        seen.sort();
        let before = seen.len();
        seen.dedup();
        assert_eq!(before, seen.len(), "a row shown twice: {seen:?}");
        assert_eq!(seen.len(), sites.len(), "{seen:?}");
    }
}
