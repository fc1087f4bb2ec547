//! `nav_implementations {file, line, col = 1 | nodeId}`: implementations of the
//! interface / trait / abstract member at a position → `{target, locations: [{file, at}],
//! total, complete?}` (anchors grouped by file, docs/answers.md).
//! A server without `implementationProvider` is `LSP_FAILED` whose hint names the map's
//! `extends` / `implements` edges.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use serde_json::json;

use super::nav_common::{
    Anchors, Fallback, MapFallback, Target, by_place_file_line, content_generation, group_by_file,
    lsp_error, mark_incomplete, or_map_answer, symbol_not_found,
};
use super::{Args, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavImplementations;

const HINT: &str = "This server cannot list implementations: use map_neighbors on the type's node ID with direction: in, edgeKinds: [extends, implements].";

impl Tool for NavImplementations {
    fn name(&self) -> &'static str {
        "nav_implementations"
    }

    fn description(&self) -> &'static str {
        "Drill: implementations of interfaces, abstract members (live)."
    }

    fn params(&self) -> Params {
        super::nav_common::position_params()
            .into_iter()
            .fold(Params::new(), Params::param)
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let t = Target::from_args(ctx, &args).await?;
            if let Err(e) = t.require_word() {
                return Err(symbol_not_found(ctx, &t, e).await);
            }
            let answer = match ctx.lsp.implementation(&t.abs, t.pos).await {
                Ok(a) => a,
                Err(e @ navmap_lsp::LspError::CannotServe { .. }) => {
                    return or_map_answer(ctx, &t, e, MapFallback::Implementations).await;
                }
                Err(e) => return Err(lsp_error(e, t.lang.id(), Some(Fallback { hint: HINT }))),
            };
            let mut anchors = Anchors::new(ctx);
            let mut locations: Vec<_> = answer.value.iter().map(|l| anchors.location(l)).collect();
            locations.sort_by(by_place_file_line);
            let total = locations.len();
            // The map's base-class mentions of the name the server's answer does not hold
            // (an implementation's location is its name, on the line of its bases).
            let answered = super::crossing::Answered::from_anchors(&locations);
            let unseen = super::crossing::unseen(ctx, &t, answered, &["base"], |_| true).await;
            let mut data = json!({
                "target": t.json(),
                "locations": group_by_file(locations),
                "total": total,
            });
            super::nav_common::target::drop_null_target(&mut data);
            mark_incomplete(&mut data, answer.complete);
            let narrowing = "Pass the position of a more specific member";
            let payload = Payload::new(data.clone())
                .generation(content_generation(&data))
                .list(ListSpec::new("/locations", "files").narrowing(narrowing))
                .list(ListSpec::new("/locations/*/at", "implementations").narrowing(narrowing));
            let (payload, crossing_warnings) =
                super::crossing::add(&ctx.root, &t.lang, payload, &unseen);
            let warnings = t
                .warnings
                .iter()
                .cloned()
                .chain(answer.warnings)
                .chain(crossing_warnings);
            Ok(warnings.fold(payload, Payload::warn))
        })
    }
}
