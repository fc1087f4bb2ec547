//! `nav_type {file, line, col = 1 | nodeId}`: the hover of the symbol at a position (its
//! resolved type and docs) → `{target, contents, language, format}`.

use std::sync::Arc;

use navmap_envelope::Payload;
use serde_json::{Value, json};

use super::nav_common::{Target, lsp_error, symbol_not_found};
use super::{Args, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavType;

impl Tool for NavType {
    fn name(&self) -> &'static str {
        "nav_type"
    }

    fn description(&self) -> &'static str {
        "Drill: type, signature, docs (live hover)."
    }

    fn paged(&self) -> bool {
        false
    }

    fn params(&self) -> Params {
        super::nav_common::position_params()
            .into_iter()
            .fold(Params::new(), Params::param)
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let t = Target::from_args(ctx, &args).await?;
            let name = match t.require_word() {
                Ok(n) => n,
                Err(e) => return Err(symbol_not_found(ctx, &t, e).await),
            };
            let answer = ctx
                .lsp
                .hover(&t.abs, t.pos)
                .await
                .map_err(|e| lsp_error(e, t.lang.id(), None))?;
            let (contents, format) = match &answer.value {
                Some(h) => (Value::from(h.contents.clone()), Value::from(h.format)),
                None => (Value::Null, Value::Null),
            };
            let mut data = json!({
                "target": t.json(),
                "contents": contents,
                "format": format,
                "language": t.lang.id(),
            });
            super::nav_common::target::drop_null_target(&mut data);
            let mut payload =
                Payload::new(data).narrowing("Pass the position of a narrower expression");
            let withheld = answer
                .warnings
                .iter()
                .any(|w| w.starts_with(navmap_lsp::confine::HOVER_LEFT_OUT));
            if answer.value.is_none() && !withheld {
                payload = payload.warn(format!(
                    "The language server has no type information for `{name}` here."
                ));
            }
            let warnings = t.warnings.iter().cloned().chain(answer.warnings);
            Ok(warnings.fold(payload, Payload::warn))
        })
    }
}
