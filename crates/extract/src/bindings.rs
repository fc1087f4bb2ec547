//! Names bound to types: the `bindings.scm` query's matches → [`BindingFact`]s. Capture
//! conventions: `grammars/README.md`.

use tree_sitter::Node;

use crate::defs::{Defs, excerpt};
use crate::facts::BindingFact;
use crate::ids::IdSet;
use crate::matches::{Match, Matches};
use crate::text::node_text;

pub fn extract(matches: &Matches, source: &str, defs: &Defs) -> Vec<BindingFact> {
    let mut seen = IdSet::default();
    let mut out = Vec::new();
    for m in matches {
        let Some(name) = m.get("binding.name") else {
            continue;
        };
        let Some((type_name, type_qualifier)) = bound_to(m, source) else {
            continue;
        };
        // One binding per name node: the first pattern that matched it.
        if !seen.insert(name.id()) {
            continue;
        }
        let at = m.get("binding").unwrap_or(name);
        if type_name.is_empty() || node_text(&name, source) == "_" {
            continue;
        }
        // A binding that *is* a definition (a typed field, a module-level variable) belongs
        // to the scope around that definition, not to itself.
        let mut scope = defs.innermost(at.start_byte(), at.end_byte());
        if let Some(i) = scope
            && defs.ranges[i] == (at.start_byte(), at.end_byte())
        {
            scope = defs.enclosing[i];
        }
        out.push(BindingFact {
            scope,
            name: excerpt(&name, source),
            type_name,
            type_qualifier,
            line: name.start_position().row as u32,
            until: m.get("binding.region").map(|r| r.end_position().row as u32),
        });
    }
    out.sort_by_key(|b| b.line);
    out
}

/// What a match binds its name to: (type or part, qualifier). An element of a value
/// (`@binding.of`) is `[]` with the value as the qualifier; a field of what a pattern's
/// constructor takes apart is `Ctor[field]` (`@binding.field`) or `Ctor[i/n]`, `i` the
/// position of `@binding.position` among the pattern's `n` elements.
fn bound_to(m: Match, source: &str) -> Option<(String, Option<String>)> {
    if let Some(of) = m.get("binding.of") {
        return Some(("[]".to_string(), Some(excerpt(&of, source))));
    }
    let ty = m.get("binding.type")?;
    let base = node_text(&ty, source).trim();
    let part = if let Some(field) = m.get("binding.field") {
        Some(node_text(&field, source).trim().to_string())
    } else {
        m.get("binding.position").and_then(|el| position(el, ty))
    };
    let type_name = match part {
        Some(p) => format!("{base}[{p}]"),
        None if m.get("binding.position").is_some() => return None,
        None => base.to_string(),
    };
    Some((
        type_name,
        m.get("binding.qualifier").map(|q| excerpt(&q, source)),
    ))
}

/// The index of `el` among its parent's elements: the named children that are neither
/// extras (comments) nor the constructor (the child holding `ty`).
/// Written `i/n`, `n` the number of elements: the map checks it against the fields the
/// constructor declares, so an element after a rest pattern (`Foo(a, .., z)`, where
/// `..` stands for any number of fields) is typed only when the counts agree.
fn position(el: Node, ty: Node) -> Option<String> {
    // The constructor itself is no element (`(identifier)` matches it too).
    if el.start_byte() <= ty.start_byte() && ty.end_byte() <= el.end_byte() {
        return None;
    }
    let parent = el.parent()?;
    let mut cursor = parent.walk();
    let (mut n, mut at) = (0, None);
    for c in parent.named_children(&mut cursor) {
        if c.id() == el.id() {
            at = Some(n);
        }
        let holds_ty = c.start_byte() <= ty.start_byte() && ty.end_byte() <= c.end_byte();
        if !c.is_extra() && !holds_ty {
            n += 1;
        }
    }
    at.map(|i| format!("{i}/{n}"))
}
