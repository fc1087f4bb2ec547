//! Live answers cross-checked against the map (contract §2; `nav_references`,
//! `nav_implementations`, incoming `nav_callHierarchy`): a language server's list of
//! uses that leaves out files where the map sees mentions of the name says so. Those
//! mentions come as `unverified` rows (`<line>:<col> <snippet>` grouped by file and
//! enclosing definition, like the `unlinked` tier), with `unverifiedTotal`,
//! `complete: false` and a warning naming the cause when navmap can tell it from the
//! language's `[[lsp.scope_causes]]` (the project's configuration excludes them, no
//! build information).
//!
//! Only when the target is a node of the map (a `nodeId`, or a position on a
//! definition's name): a position on a use has no map node to check against.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_language::Language;
use navmap_lsp::confine;
use navmap_map::MentionSite;
use serde_json::Value;

use super::nav_common::Target;
use super::unlinked::rows_json;
use crate::ServerContext;

/// What the envelope calls the cut items.
pub const KIND: &str = "unverified mentions";

/// The map node the target names: its `nodeId`, or the definition whose name is at the
/// position.
fn node_of(ctx: &ServerContext, t: &Target) -> Option<String> {
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

/// The map's mentions of the target's name (linked or not, none excluded) in files the
/// server's answer does not hold, by file and position; `kinds` keeps those mention kinds (`MentionSite::kind`;
/// empty = all), `keep` applies the call's own filters. Empty when the target is no map
/// node or the map is not built.
pub async fn unseen(
    ctx: &Arc<ServerContext>,
    t: &Target,
    answered: HashSet<String>,
    kinds: &'static [&'static str],
    keep: impl Fn(&str) -> bool + Send + 'static,
) -> Vec<MentionSite> {
    let Some(id) = node_of(ctx, t) else {
        return Vec::new();
    };
    let map = ctx.map.clone();
    let own = t.rel.clone();
    tokio::task::spawn_blocking(move || {
        let Ok(check) = map.mention_check(&id) else {
            return Vec::new();
        };
        let mut sites: Vec<MentionSite> = check
            .linked_sites
            .into_iter()
            .chain(check.unlinked)
            .filter(|s| {
                !answered.contains(&s.file)
                    && s.file != own
                    && (kinds.is_empty() || kinds.contains(&s.kind))
                    && keep(&s.file)
            })
            .collect();
        // By file and position, like the server's own locations.
        sites.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
        sites
    })
    .await
    .unwrap_or_default()
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
        (!c.absent.is_empty() && !c.absent.iter().any(|f| exists(f)))
            .then(|| c.reason.replace("{file}", ""))
    })
}

/// Adds the `unverified` rows to `data` and declares them; the payload unchanged when the
/// server's answer covered every file the map sees.
pub fn add(
    root: &Path,
    lang: &Language,
    mut payload: Payload,
    sites: &[MentionSite],
) -> (Payload, Option<String>) {
    if sites.is_empty() {
        return (payload, None);
    }
    let data = &mut payload.data;
    let files: HashSet<&str> = sites.iter().map(|s| s.file.as_str()).collect();
    data["unverified"] = Value::Array(rows_json(root, sites));
    data["unverifiedTotal"] = sites.len().into();
    data["complete"] = Value::Bool(false);
    let why = cause(root, lang)
        .map(|c| format!(" Likely cause: {c}."))
        .unwrap_or_default();
    let warning = format!(
        "The language server's answer leaves out {} file(s) where the map sees mentions of the name: listed as unverified.{why}",
        files.len()
    );
    let payload = payload
        .list(ListSpec::new("/unverified/*/rows", KIND).narrowing("Pass fileFilter to narrow"))
        .list(ListSpec::new("/unverified", KIND).narrowing("Pass fileFilter to narrow"));
    (payload, Some(warning))
}
