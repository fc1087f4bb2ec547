//! `nav_definition {file, line, col = 1 | nodeId}`: where the symbol at a position is
//! defined, from the live language server → `{target, locations: [{file, at: [
//! "<line>:<col>[-<endLine>] <snippet>"]}], complete?}` (anchors grouped by file, docs/answers.md;
//! a definition outside the root is `{external: true, lib, at}`).

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use serde_json::json;

use super::nav_common::{
    Anchors, MapFallback, Target, content_generation, externals_last, group_by_file,
    mark_incomplete, or_map_answer, symbol_not_found,
};
use super::{Args, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavDefinition;

impl Tool for NavDefinition {
    fn name(&self) -> &'static str {
        "nav_definition"
    }

    fn description(&self) -> &'static str {
        "Drill: definition (live); libraries marked external."
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
            let answer = match ctx.lsp.definition(&t.abs, t.pos).await {
                Ok(a) => a,
                Err(e) => return or_map_answer(ctx, &t, e, MapFallback::Definition).await,
            };
            let mut anchors = Anchors::new(ctx);
            let mut locations: Vec<_> = answer.value.iter().map(|l| anchors.location(l)).collect();
            externals_last(&mut locations);
            let empty = locations.is_empty();
            let mut data = json!({
                "target": t.json(),
                "locations": group_by_file(locations),
            });
            super::nav_common::target::drop_null_target(&mut data);
            mark_incomplete(&mut data, answer.complete);
            let narrowing = "Pass a more specific position";
            let mut payload = Payload::new(data.clone())
                .generation(content_generation(&data))
                .list(ListSpec::new("/locations", "files").narrowing(narrowing))
                .list(ListSpec::new("/locations/*/at", "locations").narrowing(narrowing));
            let left_out = answer
                .warnings
                .iter()
                .any(|w| w.contains(navmap_lsp::confine::LEFT_OUT));
            if empty && !left_out {
                payload = payload.warn(format!(
                    "The language server knows no definition of `{name}` (a builtin, a dynamic name, or code it cannot see)."
                ));
            }
            let warnings = t.warnings.iter().cloned().chain(answer.warnings);
            Ok(warnings.fold(payload, Payload::warn))
        })
    }
}
