//! Live answers cross-checked against the map (contract §2; `nav_references`,
//! `nav_implementations`, incoming `nav_callHierarchy`): a language server's list of
//! uses that leaves out files where the map sees mentions of the name says so. Those
//! mentions come as `unverified` rows (`<line>:<col> <snippet>` grouped by file and
//! enclosing definition, like the `unlinked` tier), with `unverifiedTotal`,
//! `complete: false` and a warning naming the cause when navmap can tell it from the
//! language's `[[lsp.scope_causes]]` (the project's configuration excludes them, no
//! build information).
//!
//! In the files the server did answer for, the mentions at lines the answer does not hold
//! (a call on an untyped receiver, a reflective `getattr(obj, "name")`) come as the
//! `unlinked` tier (`unlinked.rs`'s shape, with `unlinkedTotal`): what the server did not
//! link, labelled apart from what it did.
//!
//! Only when the target is a node of the map (a `nodeId`, or a position on a
//! definition's name): a position on a use has no map node to check against.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use navmap_envelope::Payload;
use navmap_language::Language;
use navmap_lsp::confine;
use navmap_map::MentionSite;
use serde_json::Value;

use super::nav_common::Target;
use super::unlinked::{self, rows_json};
use crate::ServerContext;

/// What the envelope calls the cut items.
pub const KIND: &str = "unverified mentions";

/// The map node the target names: its `nodeId`, or the definition whose name is at the
/// position.
pub fn node_of(ctx: &ServerContext, t: &Target) -> Option<String> {
    if let Some(id) = &t.node_id {
        return Some(id.clone());
    }
    let word = t.word()?;
    let nodes = ctx.map.nodes_in_file(&t.rel).ok()?;
    nodes
        .into_iter()
        .find(|n| {
            n.name == word
                && n.line == Some(t.line)
                && n.col
                    .is_some_and(|c| c <= t.col && t.col <= c + word.len() as u32)
        })
        .map(|n| n.id)
}

/// Where a server's answer put the uses it found: (file, line) pairs, root-relative.
#[derive(Debug, Default)]
pub struct Answered {
    lines: HashSet<(String, u32)>,
    files: HashSet<String>,
}

impl Answered {
    /// One use the server listed.
    pub fn add(&mut self, file: &str, line: u32) {
        self.files.insert(file.to_string());
        self.lines.insert((file.to_string(), line));
    }

    /// The `{file, line}` anchors of an answer (anchors outside the root have no `file`).
    pub fn from_anchors<'a>(anchors: impl IntoIterator<Item = &'a Value>) -> Self {
        let mut out = Self::default();
        for a in anchors {
            if let (Some(f), Some(l)) = (a["file"].as_str(), a["line"].as_u64()) {
                out.add(f, l as u32);
            }
        }
        out
    }
}

/// What a live answer leaves out of the map's mentions of the target's name.
#[derive(Debug, Default)]
pub struct Unseen {
    /// Every mention (linked by the map or not, none excluded) in files the answer holds
    /// nothing of: the `unverified` rows.
    pub files: Vec<MentionSite>,
    /// Mentions (linked by the map or not, none excluded) in files the answer holds (and
    /// the target's own file), at lines it does not: the `unlinked` tier.
    pub lines: Vec<MentionSite>,
    /// Why the map's mentions could not be checked (`MentionCheck::unavailable`): the
    /// answer then cannot say what it leaves out (never "nothing left out").
    pub unavailable: Option<String>,
}

/// The map's mentions of the target's name that the server's answer does not hold (see
/// [`Unseen`]), by file and position; `kinds` keeps those mention kinds
/// (`MentionSite::kind`; empty = all), `keep` applies the call's own filters. Empty when
/// the target is no map node or the map is not built.
pub async fn unseen(
    ctx: &Arc<ServerContext>,
    t: &Target,
    answered: Answered,
    kinds: &'static [&'static str],
    keep: impl Fn(&str) -> bool + Send + 'static,
) -> Unseen {
    let Some(id) = node_of(ctx, t) else {
        return Unseen::default();
    };
    let map = ctx.map.clone();
    let own = t.rel.clone();
    let ctx = ctx.clone();
    tokio::task::spawn_blocking(move || {
        ctx.freshness.load_build_made_elsewhere();
        let Ok(check) = map.mention_check(&id) else {
            return Unseen::default();
        };
        if check.unavailable.is_some() {
            return Unseen {
                unavailable: check.unavailable,
                ..Default::default()
            };
        }
        let wanted =
            |s: &MentionSite| (kinds.is_empty() || kinds.contains(&s.kind)) && keep(&s.file);
        // The server has the target's own file open: it answered for it.
        let seen_file = |f: &str| answered.files.contains(f) || f == own;
        let mut files: Vec<MentionSite> = check
            .linked_sites
            .iter()
            .chain(&check.unlinked)
            .filter(|s| !seen_file(&s.file) && wanted(s))
            .cloned()
            .collect();
        // By file and position, like the server's own locations.
        files.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
        // Kept in the map's rank (the node's own directory first, calls first); the map's
        // own links too: the server did not confirm them (an untyped receiver the map
        // linked by name).
        let lines: Vec<MentionSite> = check
            .unlinked
            .into_iter()
            .chain(check.linked_sites)
            .filter(|s| {
                seen_file(&s.file)
                    && !answered.lines.contains(&(s.file.clone(), s.line))
                    && !base_of_listed(&map, s, &answered)
                    && wanted(s)
            })
            .collect();
        Unseen {
            files,
            lines,
            unavailable: None,
        }
    })
    .await
    .unwrap_or_default()
}

/// What the root's own text calls (`Map::callee_check`: calls and function values whose
/// names the map defines, linked by the map or not) at lines where none of the server's
/// callees was called from: the `unlinked` tier of an outgoing call hierarchy. Empty
/// when the target is no map node.
pub async fn unseen_callees(ctx: &Arc<ServerContext>, t: &Target, answered: Answered) -> Unseen {
    let Some(id) = node_of(ctx, t) else {
        return Unseen::default();
    };
    let map = ctx.map.clone();
    let ctx = ctx.clone();
    tokio::task::spawn_blocking(move || {
        ctx.freshness.load_build_made_elsewhere();
        let Ok(check) = map.callee_check(&id) else {
            return Unseen::default();
        };
        if check.unavailable.is_some() {
            return Unseen {
                unavailable: check.unavailable,
                ..Default::default()
            };
        }
        let mut lines: Vec<MentionSite> = check
            .unlinked
            .into_iter()
            .chain(check.linked_sites)
            .filter(|s| !answered.lines.contains(&(s.file.clone(), s.line)))
            .collect();
        lines.sort_by_key(|s| (s.line, s.col));
        Unseen {
            files: Vec::new(),
            lines,
            unavailable: None,
        }
    })
    .await
    .unwrap_or_default()
}

/// A base-class mention whose class the server listed (an implementation's location is
/// the class's name; its bases may sit on the lines below, `class A(\n    Base,\n)`).
fn base_of_listed(map: &navmap_map::Map, s: &MentionSite, answered: &Answered) -> bool {
    s.kind == "base"
        && s.enclosing
            .as_deref()
            .and_then(|id| map.node(id).ok())
            .and_then(|n| n.line)
            .is_some_and(|l| answered.lines.contains(&(s.file.clone(), l)))
}

/// The first `[[lsp.scope_causes]]` of the language that holds for this root.
pub fn cause(root: &Path, lang: &Language) -> Option<String> {
    let lsp = lang.manifest.lsp.as_ref()?;
    // Project files are read through the confinement rule: a `pyproject.toml` that is a
    // symlink out of the root is not the project's, and is never read.
    let exists = |f: &str| {
        matches!(
            confine::classify(root, Path::new(f)),
            confine::Place::Inside(_)
        ) && root.join(f).is_file()
    };
    lsp.scope_causes.iter().find_map(|c| {
        let by_file = c.files.iter().find(|f| {
            exists(f)
                && (c.patterns.is_empty()
                    || confine::read_inside(root, Path::new(f)).is_some_and(|bytes| {
                        let text = String::from_utf8_lossy(&bytes);
                        c.patterns.iter().any(|p| text.contains(p.as_str()))
                    }))
        });
        if let Some(f) = by_file {
            return Some(c.reason.replace("{file}", f));
        }
        (!c.absent.is_empty() && confine::find_inside(root, &c.absent).is_none())
            .then(|| c.reason.replace("{file}", ""))
    })
}

/// Adds the `unverified` rows and the `unlinked` tier to `data` and declares them, with
/// the warnings that say so; the payload unchanged when the server's answer accounts for
/// every mention the map sees. When the map's mentions could not be checked, the answer
/// says so (`unlinkedUnavailable`, `complete: false`, a warning).
pub fn add(
    root: &Path,
    lang: &Language,
    mut payload: Payload,
    unseen: &Unseen,
) -> (Payload, Vec<String>) {
    let mut warnings = Vec::new();
    let narrowing = "Pass fileFilter to narrow";
    if let Some(why) = &unseen.unavailable {
        warnings.push(unlinked::mark_unavailable(&mut payload.data, why));
        return (payload, warnings);
    }
    if !unseen.lines.is_empty() {
        let data = &mut payload.data;
        data["unlinked"] = Value::Array(rows_json(root, &unseen.lines));
        data["unlinkedTotal"] = unseen.lines.len().into();
        data["complete"] = Value::Bool(false);
        payload = unlinked::declare(payload, narrowing);
        warnings.push(format!(
            "{} mention(s) of the name at lines the language server's answer does not list (an untyped receiver, a reflective or dynamic use…): listed as unlinked.",
            unseen.lines.len()
        ));
    }
    let sites = &unseen.files;
    if sites.is_empty() {
        return (payload, warnings);
    }
    let data = &mut payload.data;
    let files: HashSet<&str> = sites.iter().map(|s| s.file.as_str()).collect();
    data["unverified"] = Value::Array(rows_json(root, sites));
    data["unverifiedTotal"] = sites.len().into();
    data["complete"] = Value::Bool(false);
    let why = cause(root, lang)
        .map(|c| format!(" Likely cause: {c}."))
        .unwrap_or_default();
    warnings.push(format!(
        "The language server's answer leaves out {} file(s) where the map sees mentions of the name: listed as unverified.{why}",
        files.len()
    ));
    let payload = unlinked::declare_tier(payload, "/unverified", KIND, narrowing);
    (payload, warnings)
}
