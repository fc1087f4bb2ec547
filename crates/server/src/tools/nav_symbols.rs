//! `nav_symbols {file, depth 1–5 = 2, kind?, locals = false}`: the file's outline from the
//! live language server → `{symbols: [{name, kind, line, col, endLine?, detail?,
//! children?}], total, complete?}` (docs/answers.md).
//!
//! Hierarchical: members sit in their parent's `children`, so no entry repeats its
//! container's name. `depth` bounds the nesting shown (2: top level and members); the
//! variables, constants and type parameters inside functions and methods (parameters and
//! locals, most of some servers' outlines) are left out unless `locals: true`. `kind`
//! lists only the symbols of that kind at any depth, flat, each with `in` naming its
//! parent. Nested `children` lists are declared to the envelope, so a budget cut thins
//! the deepest members before it drops top-level symbols. `total` counts the symbols
//! shown before any budget cut.

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
        "Drill: outline of one file (classes, functions, members) from the live language server."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("file", "").required())
            .param(Param::integer("depth", "Nesting levels.", 1, MAX_DEPTH as i64).default(2))
            .param(Param::string(
                "kind",
                "Only this kind (class, method, …), flat.",
            ))
            .param(Param::boolean("locals", "Parameters and locals too.").default(false))
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
            let opts = Opts { depth, locals };
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

fn view(s: &DocumentSymbol) -> Value {
    let mut v = json!({
        "name": s.name,
        "kind": kind_name(s.kind),
        "line": s.selection_range.start.line + 1,
        "col": s.selection_range.start.character + 1,
    });
    if s.range.end.line > s.selection_range.start.line {
        v["endLine"] = Value::from(s.range.end.line + 1);
    }
    if let Some(d) = s.detail.as_deref().filter(|d| !d.is_empty()) {
        v["detail"] = Value::from(d);
    }
    v
}

fn kept<'s>(
    list: &'s [DocumentSymbol],
    parent: Option<&'s DocumentSymbol>,
    opts: &Opts,
) -> impl Iterator<Item = &'s DocumentSymbol> {
    let locals = opts.locals;
    list.iter().filter(move |s| locals || !is_local(parent, s))
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
            .map(|s| {
                *total += 1;
                let mut v = view(s);
                if level < opts.depth {
                    let children = walk(&s.children, Some(s), level + 1, opts, total);
                    if !children.is_empty() {
                        v["children"] = Value::from(children);
                    }
                }
                v
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
            let mut v = view(s);
            if let Some(p) = parent {
                v["in"] = Value::from(p.name.clone());
            }
            out.push(v);
        }
        if level < opts.depth {
            flat_of_kind(&s.children, kind, Some(s), level + 1, opts, out);
        }
    }
}
