//! `nav_symbols {file}`: the file's outline from the live language server →
//! `{file, symbols: [{name, kind, line, col, endLine?, depth, container?, detail?}], total,
//! complete}`.
//!
//! The hierarchy is given flat (`depth`, `container`) so the envelope can cut it: the
//! list is ranked by depth then line, so a cut keeps the whole top level and drops the
//! deepest members first.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use serde_json::{Value, json};

use super::nav_common::{Target, content_generation, flatten, kind_name, lsp_error};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavSymbols;

impl Tool for NavSymbols {
    fn name(&self) -> &'static str {
        "nav_symbols"
    }

    fn description(&self) -> &'static str {
        "Drill: outline of one file (classes, functions, members) from the live language server."
    }

    fn params(&self) -> Params {
        Params::new().param(Param::string("file", "").required())
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let t = Target::file(ctx, "file", args.str("file")?)?;
            let answer = ctx
                .lsp
                .document_symbols(&t.abs)
                .await
                .map_err(|e| lsp_error(e, t.lang.id(), None))?;
            let symbols: Vec<Value> = flatten(&answer.value)
                .into_iter()
                .map(|f| {
                    let s = f.sym;
                    let mut v = json!({
                        "name": s.name,
                        "kind": kind_name(s.kind),
                        "line": s.selection_range.start.line + 1,
                        "col": s.selection_range.start.character + 1,
                        "depth": f.depth,
                    });
                    if s.range.end.line > s.selection_range.start.line {
                        v["endLine"] = Value::from(s.range.end.line + 1);
                    }
                    if let Some(c) = f.container {
                        v["container"] = Value::from(c);
                    }
                    if let Some(d) = &s.detail {
                        v["detail"] = Value::from(d.clone());
                    }
                    v
                })
                .collect();
            let total = symbols.len();
            let data = json!({
                "file": t.rel,
                "symbols": symbols,
                "total": total,
                "complete": answer.complete,
            });
            let payload = Payload::new(data.clone())
                .generation(content_generation(&data))
                .list(
                    ListSpec::new("/symbols", "symbols")
                        .ranked_by(|a, b| {
                            a["depth"]
                                .as_u64()
                                .cmp(&b["depth"].as_u64())
                                .then(a["line"].as_u64().cmp(&b["line"].as_u64()))
                        })
                        .narrowing("Deeper members were cut first; use nav_definition or map_search for one symbol"),
                );
            Ok(answer.warnings.into_iter().fold(payload, Payload::warn))
        })
    }
}
