//! `nav_symbols {file, depth 1–5 = 2, kind?, locals = false}`: the file's outline from the
//! live language server → `{symbols: [row | {symbol: row, children}], total, complete?}`
//! (docs/answers.md), each symbol one row `<line>:<col>[-<endLine>] <kind> <name>[ —
//! <detail>]` (an object only when it has children).
//!
//! Hierarchical: members sit in their parent's `children`, so no entry repeats its
//! container's name. `depth` bounds the nesting shown (2: top level and members); the
//! variables, constants and type parameters inside functions and methods (parameters and
//! locals, most of some servers' outlines) and the attributes first set inside a method
//! (`set_in_method`) are left out unless `locals: true`; `leftOut` counts them. `kind`
//! lists only the symbols of that kind at any depth, flat, each row ending in `(in
//! <parent>)` when it has one. Nested `children` lists are declared to the envelope, so a
//! budget cut thins the deepest members before it drops top-level symbols. `total` counts
//! the symbols shown before any budget cut.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_lsp::{DocumentSymbol, SymbolKind};
use serde_json::{Value, json};

use super::nav_common::{
    Target, content_generation, flatten, kind_name, lsp_error, mark_incomplete,
};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavSymbols;

/// Deepest `depth` accepted.
const MAX_DEPTH: usize = 5;

impl Tool for NavSymbols {
    fn name(&self) -> &'static str {
        "nav_symbols"
    }

    fn description(&self) -> &'static str {
        "Drill: a file's live outline: line:col[-endLine] kind name."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("file", super::nav_common::target::FILE).required())
            .param(Param::integer("depth", "nesting levels", 1, MAX_DEPTH as i64).default(2))
            .param(Param::string("kind", "only this kind, flat"))
            .param(Param::boolean("locals", "params, locals, attributes").default(false))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let t = Target::file(ctx, "file", args.str("file")?)?;
            let depth = args
                .opt_int("depth")
                .unwrap_or(2)
                .clamp(1, MAX_DEPTH as i64) as usize;
            let locals = args.opt_bool("locals").unwrap_or(false);
            let kind = args
                .opt_str("kind")
                .map(|k| k.trim().to_lowercase())
                .filter(|k| !k.is_empty());
            let answer = ctx
                .lsp
                .document_symbols(&t.abs)
                .await
                .map_err(|e| lsp_error(e, t.lang.id(), None))?;
            let opts = Opts {
                depth,
                locals,
                left_out: Default::default(),
            };
            let mut total = 0;
            let (symbols, nested) = match &kind {
                Some(k) => {
                    let mut out = Vec::new();
                    flat_of_kind(&answer.value, k, None, 1, &opts, &mut out);
                    total = out.len();
                    (out, 0)
                }
                None => (tree(&answer.value, 1, &opts, &mut total), depth - 1),
            };
            let mut data = json!({
                "symbols": symbols,
                "total": total,
            });
            if opts.left_out.get() > 0 {
                // Said, so that an outline without them is not taken for the whole file.
                data["leftOut"] = opts.left_out.get().into();
            }
            mark_incomplete(&mut data, answer.complete);
            // Only what the call did not set already (docs/answers.md).
            let mut ways = Vec::new();
            if depth > 1 {
                ways.push("depth:1");
            }
            if kind.is_none() {
                ways.push("kind");
            }
            let narrowing = if ways.is_empty() {
                String::new()
            } else {
                format!("Pass {} to narrow", ways.join(" or "))
            };
            let mut payload = Payload::new(data.clone())
                .generation(content_generation(&data))
                .list(ListSpec::new("/symbols", "symbols").narrowing(narrowing.clone()));
            let mut path = String::from("/symbols");
            for _ in 0..nested {
                path.push_str("/*/children");
                payload = payload
                    .list(ListSpec::new(path.clone(), "members").narrowing(narrowing.clone()));
            }
            if let Some(k) = kind.as_deref().filter(|_| total == 0) {
                // A kind this file does not have (or a spelling the server does not use):
                // say which kinds there are rather than a bare empty list.
                let mut kinds: Vec<&str> = flatten(&answer.value)
                    .iter()
                    .map(|f| kind_name(f.sym.kind))
                    .collect();
                kinds.sort();
                kinds.dedup();
                payload = payload.warn(format!(
                    "No symbol of kind `{k}` in {}; its kinds: {}.",
                    t.rel,
                    kinds.join(", ")
                ));
            }
            Ok(answer.warnings.into_iter().fold(payload, Payload::warn))
        })
    }
}

struct Opts {
    depth: usize,
    locals: bool,
    /// How many symbols the `locals` rule left out, at the levels shown.
    left_out: std::cell::Cell<usize>,
}

fn is_callable(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::FUNCTION | SymbolKind::METHOD | SymbolKind::CONSTRUCTOR
    )
}

/// Parameters and locals: the value-like children of a function or method.
fn is_local(parent: Option<&DocumentSymbol>, s: &DocumentSymbol) -> bool {
    parent.is_some_and(|p| is_callable(p.kind))
        && matches!(
            s.kind,
            SymbolKind::VARIABLE | SymbolKind::CONSTANT | SymbolKind::TYPE_PARAMETER
        )
}

/// An attribute first set inside a method (`self.x = …` under the class in some servers'
/// outlines): a value-like symbol that lies inside a callable sibling's range. Shown with
/// the locals: it belongs to the method's body, and an outline of a large class would
/// otherwise be mostly these.
fn set_in_method(siblings: &[DocumentSymbol], s: &DocumentSymbol) -> bool {
    let value_like = matches!(
        s.kind,
        SymbolKind::VARIABLE | SymbolKind::CONSTANT | SymbolKind::FIELD | SymbolKind::PROPERTY
    );
    let at = s.selection_range.start;
    value_like
        && siblings.iter().any(|m| {
            is_callable(m.kind) && !std::ptr::eq(m, s) && m.range.start < at && at < m.range.end
        })
}

/// One symbol as a row, `<line>:<col>[-<endLine>] <kind> <name>[ — <detail>]`: what a
/// grep line says (where, what, which name) at a third of an object's keys and quotes.
fn row(s: &DocumentSymbol) -> String {
    let line = s.selection_range.start.line + 1;
    let mut r = format!("{line}:{}", s.selection_range.start.character + 1);
    if s.range.end.line > s.selection_range.start.line {
        r.push_str(&format!("-{}", s.range.end.line + 1));
    }
    r.push_str(&format!(" {} {}", kind_name(s.kind), s.name));
    if let Some(d) = s.detail.as_deref().filter(|d| !d.is_empty()) {
        r.push_str(&format!(" — {d}"));
    }
    r
}

/// The symbols of `list` shown: all with `locals`, else without parameters, locals and
/// attributes set in methods (counted in `left_out`).
fn kept<'s>(
    list: &'s [DocumentSymbol],
    parent: Option<&'s DocumentSymbol>,
    opts: &Opts,
) -> Vec<&'s DocumentSymbol> {
    let locals = opts.locals;
    let (shown, hidden): (Vec<_>, Vec<_>) = list
        .iter()
        .partition(|s| locals || !(is_local(parent, s) || set_in_method(list, s)));
    opts.left_out.set(opts.left_out.get() + hidden.len());
    shown
}

/// The outline to `opts.depth` levels, children in place; counts what it shows.
fn tree(list: &[DocumentSymbol], level: usize, opts: &Opts, total: &mut usize) -> Vec<Value> {
    fn walk(
        list: &[DocumentSymbol],
        parent: Option<&DocumentSymbol>,
        level: usize,
        opts: &Opts,
        total: &mut usize,
    ) -> Vec<Value> {
        kept(list, parent, opts)
            .into_iter()
            .map(|s| {
                *total += 1;
                let children = if level < opts.depth {
                    walk(&s.children, Some(s), level + 1, opts, total)
                } else {
                    Vec::new()
                };
                // A leaf is its row; a parent is `{symbol: row, children}`.
                if children.is_empty() {
                    Value::from(row(s))
                } else {
                    json!({"symbol": row(s), "children": children})
                }
            })
            .collect()
    }
    walk(list, None, level, opts, total)
}

/// Every symbol of `kind` to `opts.depth` levels, flat, each with `in` (its parent).
fn flat_of_kind(
    list: &[DocumentSymbol],
    kind: &str,
    parent: Option<&DocumentSymbol>,
    level: usize,
    opts: &Opts,
    out: &mut Vec<Value>,
) {
    for s in kept(list, parent, opts) {
        if kind_name(s.kind) == kind {
            let mut r = row(s);
            if let Some(p) = parent {
                r.push_str(&format!(" (in {})", p.name));
            }
            out.push(Value::from(r));
        }
        if level < opts.depth {
            flat_of_kind(&s.children, kind, Some(s), level + 1, opts, out);
        }
    }
}
