//! Mentions that are not uses with an edge kind: the `import.name` captures of
//! `imports.scm` and the `@mention` captures of `refs.scm` (names used as values, which
//! resolution does not link). With the refs they form the file's mention index: what an
//! answer about the uses of a symbol checks its links against. Capture conventions:
//! `grammars/README.md`.

use crate::defs::{Defs, excerpt};
use crate::facts::{MentionFact, MentionKind};
use crate::ids::{IdMap, IdSet};
use crate::locals::Locals;
use crate::matches::Match;
use crate::text::{node_text, unquote, utf16_col};

/// A name as a mention: an identifier-like word (a dotted path or a quoted phrase is not
/// one name).
fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

pub fn extract(
    refs: &[Match],
    imports: &[Match],
    source: &str,
    defs: &Defs,
    locals: &Locals,
) -> Vec<MentionFact> {
    // Name nodes that are refs already (they carry their own kind).
    let mut taken: IdSet = IdSet::default();
    for m in refs {
        if m.with_prefix("reference.").is_some()
            && let Some(name) = m.get("name")
        {
            taken.insert(name.id());
        }
    }
    let mut found: IdMap<MentionFact> = IdMap::default();
    let mut add = |kind: MentionKind, name: tree_sitter::Node, qualifier: Option<String>| {
        if taken.contains(&name.id())
            || defs.not_refs.contains(&name.id())
            || found.contains_key(&name.id())
        {
            return;
        }
        let text = unquote(node_text(&name, source).trim());
        if !is_word(text) {
            return;
        }
        let pos = name.start_position();
        found.insert(
            name.id(),
            MentionFact {
                from: defs.innermost(name.start_byte(), name.end_byte()),
                kind,
                name: text.to_string(),
                qualifier,
                line: pos.row as u32,
                col: utf16_col(source, name.start_byte(), pos.column),
            },
        );
    };
    for m in refs {
        if m.get("mention").is_none() {
            continue;
        }
        if let Some(name) = m.get("name") {
            let qualifier = m
                .get("qualifier")
                .map(|q| excerpt(&q, source))
                .filter(|q| !q.is_empty());
            // A bare local (a parameter passed on, `f(client)`) is not a mention of any
            // definition; a quoted name (`getattr(obj, "client")`) is not the local.
            if qualifier.is_none() && locals.shadows(node_text(&name, source), name.start_byte()) {
                continue;
            }
            add(MentionKind::Value, name, qualifier);
        }
    }
    for m in imports {
        for name in m.all("import.name") {
            add(MentionKind::Import, name, None);
        }
    }
    let mut out: Vec<MentionFact> = found.into_values().collect();
    out.sort_by_key(|m| (m.line, m.col));
    out
}
