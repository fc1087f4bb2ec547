//! Uses of names: the `refs.scm` query's matches → [`RefFact`]s. Capture conventions:
//! `grammars/README.md`.

use crate::arity::{Arguments, RawArg, named_kind, type_text};
use crate::defs::{Defs, excerpt};
use crate::facts::{ArgKind, EdgeKind, RefFact, TypeShape};
use crate::ids::{IdMap, IdSet};
use crate::locals::Locals;
use crate::matches::{Match, Matches};
use crate::text::{node_text, utf16_col};

struct Raw {
    pattern: usize,
    kind: EdgeKind,
    name: String,
    qualifier: Option<String>,
    owner: Option<String>,
    start: usize,
    end: usize,
    line: u32,
    col: u32,
    name_start: usize,
    args: Option<u16>,
    /// The call node's id (its arguments' kinds are looked up by it).
    call: Option<usize>,
}

/// `call` → calls, `extends`, `implements`; anything else (`type`, `decorator`, …) → references.
fn edge_kind(suffix: &str) -> EdgeKind {
    match suffix {
        "call" => EdgeKind::Calls,
        "extends" => EdgeKind::Extends,
        "implements" => EdgeKind::Implements,
        _ => EdgeKind::References,
    }
}

/// Which of two captures of the same name node is kept: calls and inheritance over plain
/// references, then the one with a qualifier, then the earlier pattern.
fn rank(raw: &Raw) -> (u8, bool, usize) {
    let kind = match raw.kind {
        EdgeKind::Calls => 0,
        EdgeKind::Extends | EdgeKind::Implements => 1,
        _ => 2,
    };
    (kind, raw.qualifier.is_none(), raw.pattern)
}

/// What stands before the name: `@qualifier`, or the text of `@qualifier.path` (a whole
/// qualified path, for grammars that nest a path to the right: `internal::Slots::Count`
/// read as `internal`, then `Slots::Count`) up to the name, without the
/// separator that ends it.
fn qualifier(m: Match, name: &tree_sitter::Node, source: &str) -> Option<String> {
    let text = match (m.get("qualifier"), m.get("qualifier.path")) {
        (Some(q), _) => excerpt(&q, source),
        (None, Some(path)) => {
            let before = source.get(path.start_byte()..name.start_byte())?;
            let before = before.trim_end_matches(|c: char| {
                !(c.is_alphanumeric() || matches!(c, '_' | '>' | ')' | ']'))
            });
            before.split_whitespace().collect::<Vec<_>>().join(" ")
        }
        (None, None) => return None,
    };
    (!text.is_empty()).then_some(text)
}

pub fn extract(matches: &Matches, source: &str, defs: &Defs, locals: &Locals) -> Vec<RefFact> {
    let mut by_name: IdMap<Raw> = IdMap::default();
    // Names a pattern marks `@reference.not`: no use, whatever else matches them (a
    // forward declaration `class Function;` names what it declares).
    let mut not_uses = IdSet::default();
    let mut arguments = Arguments::default();
    for m in matches {
        arguments.collect(m);
    }
    let args = arguments.counts();
    let raw_kinds = arguments.raw_kinds();
    for m in matches {
        let Some((suffix, node)) = m.with_prefix("reference.") else {
            continue;
        };
        let Some(name) = m.get("name") else { continue };
        if suffix == "not" {
            not_uses.insert(name.id());
            continue;
        }
        if defs.not_refs.contains(&name.id()) {
            continue;
        }
        let text = node_text(&name, source).trim();
        if text.is_empty() {
            continue;
        }
        let kind = edge_kind(suffix);
        let raw = Raw {
            args: match kind {
                EdgeKind::Calls => args.get(&node.id()).copied().flatten(),
                _ => None,
            },
            call: (kind == EdgeKind::Calls).then(|| node.id()),
            pattern: m.pattern,
            kind,
            name: text.to_string(),
            qualifier: qualifier(m, &name, source),
            owner: m.get("owner").map(|o| node_text(&o, source).to_string()),
            start: node.start_byte(),
            end: node.end_byte(),
            line: name.start_position().row as u32,
            col: utf16_col(source, name.start_byte(), name.start_position().column),
            name_start: name.start_byte(),
        };
        match by_name.get(&name.id()) {
            Some(old) if rank(old) <= rank(&raw) => {}
            _ => {
                by_name.insert(name.id(), raw);
            }
        }
    }
    by_name.retain(|id, _| !not_uses.contains(id));
    let mut raws: Vec<Raw> = by_name.into_values().collect();
    // Cached: sorts (key, index) pairs, then moves each (large) use once. The name's
    // start settles ties (`a.b().c()`: two calls start together), which the map's hash
    // order used to settle differently from run to run.
    raws.sort_by_cached_key(|r| (r.line, r.start, r.pattern, r.name_start));
    raws.into_iter()
        .map(|raw| {
            let enclosing = defs.innermost(raw.start, raw.end);
            // `impl Trait for Type`: the edge starts at the type, not at the file.
            let from = match &raw.owner {
                Some(owner) => defs.owner(enclosing, owner).or(enclosing),
                None => enclosing,
            };
            // A bare call of a parameter, local or closure parameter calls that local.
            let local = raw.kind == EdgeKind::Calls
                && raw.qualifier.is_none()
                && locals.shadows(&raw.name, raw.name_start);
            let arg_kinds = match raw.call.and_then(|c| raw_kinds.get(&c)) {
                Some(list) if raw.args.is_some() => {
                    arg_kinds(list, enclosing, defs, locals, source)
                }
                _ => Vec::new(),
            };
            RefFact {
                arg_kinds,
                local,
                from,
                kind: raw.kind,
                name: raw.name,
                qualifier: raw.qualifier,
                line: raw.line,
                col: raw.col,
                args: raw.args,
            }
        })
        .collect()
}

/// A call's arguments' kinds: literals as captured, a name as the enclosing function's
/// parameter of that name declares it — when that parameter is the only declaration of the
/// name in the function (no local or lambda parameter of the same name shadows it).
/// Empty when no argument's kind is known.
fn arg_kinds(
    list: &[RawArg],
    enclosing: Option<usize>,
    defs: &Defs,
    locals: &Locals,
    source: &str,
) -> Vec<ArgKind> {
    let kinds: Vec<ArgKind> = list
        .iter()
        .map(|a| match *a {
            RawArg::Unknown => ArgKind::Unknown,
            RawArg::Known(l) => l.kind(),
            RawArg::Name { name, address } => {
                let text = node_text(&name, source);
                let Some(def) = enclosing else {
                    return ArgKind::Unknown;
                };
                let Some(p) = defs.named_params[def].iter().find(|p| p.name == text) else {
                    return local_kind(text, name.start_byte(), def, defs, address);
                };
                if locals
                    .declared_at(text, name.start_byte())
                    .any(|at| at != p.start)
                {
                    return ArgKind::Unknown;
                }
                named_kind(p, address)
            }
            RawArg::Typed(ty) => ArgKind::Typed {
                shape: TypeShape::Value,
                base: type_text(node_text(&ty, source), &[], &[]),
                konst: false,
                lvalue: false,
            },
            RawArg::Call { receiver, method } => {
                call_kind(receiver, method, enclosing, defs, locals, source)
            }
        })
        .collect();
    if kinds.iter().all(|k| *k == ArgKind::Unknown) {
        return Vec::new();
    }
    kinds
}

/// What a name used at byte `at` in the definition `def` is, where a local declared in
/// `def` with a written type is visible there (Java: a local shadows a field, and no other
/// local or parameter of the name can be visible where it is). Several such locals (a
/// scope the captures do not model) must agree; none: unknown (a field, an untyped local).
fn local_kind(text: &str, at: usize, def: usize, defs: &Defs, address: bool) -> ArgKind {
    let (start, end) = defs.ranges[def];
    let mut visible = defs
        .typed_locals
        .iter()
        .filter(|l| l.local.name == text)
        .filter(|l| start <= l.local.start && l.local.start < end)
        .filter(|l| l.local.start <= at && at < l.end);
    match visible.next() {
        Some(first) if visible.all(|l| l.local.param == first.local.param) => {
            named_kind(&first.local, address)
        }
        _ => ArgKind::Unknown,
    }
}

/// What a call of a method of the enclosing class is (`other.Get()` where `other` is a
/// parameter of the class's own type, or `Get()` on `this`): the declared result of the
/// class's methods of that name in this file, when they all declare the same one.
/// Unknown otherwise (another class, an inherited method, a template's result).
fn call_kind(
    receiver: Option<tree_sitter::Node>,
    method: tree_sitter::Node,
    enclosing: Option<usize>,
    defs: &Defs,
    locals: &Locals,
    source: &str,
) -> ArgKind {
    use crate::facts::NodeKind;
    let Some(def) = enclosing else {
        return ArgKind::Unknown;
    };
    let Some(class) = defs.facts[def]
        .parent
        .filter(|&c| matches!(defs.facts[c].kind, NodeKind::Class | NodeKind::Struct))
    else {
        return ArgKind::Unknown;
    };
    let class_name = defs.facts[class].name.as_str();
    if let Some(r) = receiver {
        let text = node_text(&r, source);
        let Some(p) = defs.named_params[def].iter().find(|p| p.name == text) else {
            return ArgKind::Unknown;
        };
        if locals
            .declared_at(text, r.start_byte())
            .any(|at| at != p.start)
        {
            return ArgKind::Unknown;
        }
        let of_class = match p.param.shape {
            TypeShape::Value
            | TypeShape::Reference
            | TypeShape::ConstReference
            | TypeShape::RvalueReference => p.param.base == class_name,
            TypeShape::Pointer => p.param.base.trim_start_matches("const ") == class_name,
            _ => false,
        };
        if !of_class {
            return ArgKind::Unknown;
        }
    }
    let method = node_text(&method, source);
    let mut results = defs
        .facts
        .iter()
        .enumerate()
        .filter(|(_, d)| {
            d.parent == Some(class)
                && d.name == method
                && matches!(d.kind, NodeKind::Function | NodeKind::Method)
        })
        .map(|(i, _)| defs.results[i].as_ref());
    match results.next().flatten() {
        Some(first) if results.all(|r| r == Some(first)) => first.clone(),
        _ => ArgKind::Unknown,
    }
}
