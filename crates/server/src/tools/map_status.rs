//! `map_status {}`: what the map and the language servers are doing.
//!
//! Answers before (and without) a map: `built` false and zero counts until the first
//! build lands. `languages` lists the repository's languages once the map is built (every
//! language navmap knows before that); `filesByLanguage` what the map holds; `lsp` is `{<lang>: {state, command, detail}}` for the languages the
//! repository contains (every known language until the first build says which); `watching` is the file
//! watcher's `{mode, detail, rebuilds, …}` (`crate::freshness`), with a warning when it is
//! polling or stopped. `filesWithErrors` counts the files that had syntax errors when
//! indexed and `errorFiles` names the first of them, with a warning.

use std::sync::Arc;

use std::collections::BTreeMap;

use navmap_envelope::Payload;
use serde_json::json;

use super::map_common::{rfc3339, with_map};
use super::{Args, Params, Tool, ToolFuture};
use crate::ServerContext;

/// How many files with syntax errors `errorFiles` names (the count is `filesWithErrors`).
const ERROR_FILES_LISTED: usize = 20;

pub struct MapStatus;

impl Tool for MapStatus {
    fn name(&self) -> &'static str {
        "map_status"
    }

    fn description(&self) -> &'static str {
        "Orient: map freshness, languages, servers."
    }

    fn paged(&self) -> bool {
        false
    }

    fn params(&self) -> Params {
        Params::new()
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, _args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let st = with_map(ctx, "map", |m| m.status()).await?;
            let (watching, watch_warning) = ctx.freshness.watching();
            let skipped: BTreeMap<&str, usize> =
                st.skipped.iter().map(|(r, n)| (r.as_str(), *n)).collect();
            let by_conf: BTreeMap<&str, usize> = st
                .edges_by_confidence
                .iter()
                .map(|(c, n)| (c.as_str(), *n))
                .collect();
            // Servers only for languages the repository holds (once the map knows), and
            // any that is running anyway.
            let mut lsp = super::nav_common::lsp_status(ctx);
            if st.built
                && let Some(obj) = lsp.as_object_mut()
            {
                obj.retain(|lang, v| {
                    st.languages.contains_key(lang.as_str())
                        || !matches!(v["state"].as_str(), Some("unspawned" | "unavailable"))
                });
            }
            // The repository's languages, not every grammar navmap carries (an agent asks
            // "what is this repository written in").
            let languages: Vec<String> = if st.built {
                st.languages.keys().map(|k| k.to_string()).collect()
            } else {
                ctx.languages.ids().iter().map(|k| k.to_string()).collect()
            };
            let mut payload = Payload::new(json!({
                "built": st.built,
                "building": st.building,
                "builtAt": st.built_at.map(rfc3339),
                "generation": st.generation,
                "root": ctx.root_display(),
                "version": ctx.version(),
                "files": st.files,
                "symbols": st.symbols,
                "edges": st.edges,
                "edgesByConfidence": by_conf,
                "staleFiles": st.stale_files.len(),
                "skipped": skipped,
                "filesWithErrors": st.files_with_errors,
                "errorFiles": st.error_files.iter().take(ERROR_FILES_LISTED).collect::<Vec<_>>(),
                "watching": watching,
                "languages": languages,
                "filesByLanguage": st.languages,
                "lsp": lsp,
            }));
            for w in &ctx.map_warnings {
                payload = payload.warn(w.clone());
            }
            if !st.stale_files.is_empty() {
                payload =
                    payload.warn(super::map_common::stale_files_warning(st.stale_files.len()));
            }
            if st.files_with_errors > 0 {
                let listed = st.files_with_errors.min(ERROR_FILES_LISTED);
                payload = payload.warn(format!(
                    "{} file(s) had syntax errors when indexed (errorFiles lists {listed}): the map holds what the parser recovered from them; answers that touch them say so.",
                    st.files_with_errors
                ));
            }
            if let Some(w) = watch_warning {
                payload = payload.warn(w);
            }
            if let Some(w) = ctx.freshness.age_warning(st.built_at) {
                payload = payload.warn(w);
            }
            Ok(payload)
        })
    }
}
