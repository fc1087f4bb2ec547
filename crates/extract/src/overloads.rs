//! Overload groups: the signatures a query marks `@overload` (declarations without a body
//! that the language lets stand before one implementation, or alone in an interface) and
//! the definition they declare are **one** symbol, as the language server sees them.
//!
//! Without this, every signature was a node of its own (`h`, `h~2` … `h~24`): calls went
//! to the first, a search listed each, and the implementation's callers were split.
//!
//! A group is the definitions with the same parent and qualified name of which at least one
//! is an `@overload`. It becomes the first definition of the group without `@overload` (the
//! implementation, with its body), else the first signature. The kept definition starts
//! where the group's first signature starts (reading it shows every signature), keeps the
//! implementation's name position, takes the first signature's text with the count of the
//! others (`function h(a: string): string (+2 overloads)`, tsserver's wording), a doc from
//! the first signature that has one when it has none, and is exported when any member is.
//! Every fact that pointed at a folded signature (uses in its parameter types, its
//! children) points at the kept definition.
//!
//! The parts of a type a query marks `@partial` (C#'s `partial class`, declared more than
//! once in a file) fold the same way into the first part: one class, every member under it.

use crate::facts::{DefFact, FileFacts};
use crate::text::CAP;

/// Folds the overload groups of `facts` (whose definitions carry `overload` flags, one per
/// definition in order) and the parts of split types (`partial` flags: C#'s `partial
/// class Item` declared twice is one class, all members under it, not `Item` and `Item~2`)
/// into one definition each, and renumbers every index into `defs`.
pub fn fold(facts: &mut FileFacts, overload: &[bool], partial: &[bool]) {
    let flagged = |flags: &[bool], i: usize| flags.get(i).copied().unwrap_or(false);
    if !overload.iter().chain(partial).any(|&o| o) {
        return;
    }
    let n = facts.defs.len();
    // For each definition, the index of the definition it folds into (itself if kept).
    let mut into: Vec<usize> = (0..n).collect();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut seen = std::collections::HashMap::new();
    for (i, def) in facts.defs.iter().enumerate() {
        // Keyed by the parent it folds into: the parts of a nested partial type sit in
        // different parts of the outer one.
        let parent = def.parent.map(|p| into[p]);
        let key = (parent, def.qualified_name.as_str());
        let first = *seen.entry(key).or_insert(i);
        members[first].push(i);
        if first != i && (flagged(partial, first) || flagged(partial, i)) {
            into[i] = first;
        }
    }
    for group in members.iter().filter(|g| g.len() > 1) {
        if group.iter().any(|&i| flagged(partial, i)) {
            merge_parts(&mut facts.defs, group);
            continue;
        }
        if !group.iter().any(|&i| flagged(overload, i)) {
            continue;
        }
        let keep = group
            .iter()
            .copied()
            .find(|&i| !flagged(overload, i))
            .unwrap_or(group[0]);
        for &i in group {
            into[i] = keep;
        }
        merge(&mut facts.defs, keep, group, overload);
    }
    // Parents come before their children, so a kept definition's new index is known when a
    // later one asks for it.
    let mut new_index = vec![usize::MAX; n];
    let mut kept = 0;
    for i in 0..n {
        if into[i] == i {
            new_index[i] = kept;
            kept += 1;
        }
    }
    let remap = |i: usize| new_index[into[i]];
    let mut i = 0;
    facts.defs.retain(|_| {
        let keep = into[i] == i;
        i += 1;
        keep
    });
    for def in &mut facts.defs {
        def.parent = def.parent.map(remap);
    }
    for r in &mut facts.refs {
        r.from = r.from.map(remap);
    }
    for m in &mut facts.mentions {
        m.from = m.from.map(remap);
    }
    for b in &mut facts.bindings {
        b.scope = b.scope.map(remap);
    }
}

/// Makes the first part of a split type stand for all of its parts: exported when any is,
/// the first doc any part has. Its lines stay the first part's (the others are elsewhere
/// in the file; their members say where).
fn merge_parts(defs: &mut [DefFact], group: &[usize]) {
    let keep = group[0];
    let exported = group.iter().any(|&i| defs[i].exported);
    let doc = group.iter().find_map(|&i| defs[i].doc.clone());
    let kept = &mut defs[keep];
    kept.exported = exported;
    kept.doc = doc;
}

/// Makes `defs[keep]` stand for the whole group.
fn merge(defs: &mut [DefFact], keep: usize, group: &[usize], overload: &[bool]) {
    let signatures: Vec<usize> = group
        .iter()
        .copied()
        .filter(|&i| overload.get(i).copied().unwrap_or(false))
        .collect();
    let first = signatures[0];
    let start_line = group.iter().map(|&i| defs[i].start_line).min();
    let exported = group.iter().any(|&i| defs[i].exported);
    let doc = defs[keep]
        .doc
        .clone()
        .or_else(|| group.iter().find_map(|&i| defs[i].doc.clone()));
    let others = signatures.len() - 1;
    let signature = defs[first].signature.clone().map(|s| with_count(s, others));
    let kept = &mut defs[keep];
    kept.start_line = start_line.unwrap_or(kept.start_line);
    kept.exported = exported;
    kept.doc = doc;
    kept.signature = signature.or(kept.signature.take());
}

/// `s` with the count of the other signatures, the count kept whole within the cap.
fn with_count(s: String, others: usize) -> String {
    let suffix = match others {
        0 => return s,
        1 => " (+1 overload)".to_string(),
        k => format!(" (+{k} overloads)"),
    };
    let room = CAP - suffix.chars().count();
    let base = if s.chars().count() > room {
        let mut b: String = s.chars().take(room - 1).collect();
        b.push('…');
        b
    } else {
        s
    };
    base + &suffix
}
