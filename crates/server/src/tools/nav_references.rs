//! `nav_references {file, line, col = 1 | nodeId, includeDeclaration = false, fileFilter?}`:
//! every reference to the symbol at a position, from the live language server →
//! `{target?, locations: [{file, at: ["<line>:<col> <snippet>"]}], total, files?, leftOut?,
//! complete?}` (anchors grouped by file, docs/answers.md; `files` only when the answer is
//! not one file's, `leftOut` counts what the call's filters left out).
//!
//! Ranked by file then line, test code after the rest, externals last (by library file
//! name, never by path); a budget cut thins every file's references before it drops
//! files; `fileFilter` is a
//! glob (`src/**/*.py`; a glob without `/` also matches file names) or a path prefix
//! (`src/`), `excludeTests` leaves out test code (`nav_common::is_test_path`), and `total`
//! counts after both. `complete: false` says the server's list was not whole (absent when
//! it was): a filter is not incompleteness (the filtered list is whole for what was
//! asked), and a budget cut is `truncated`, never `complete: false`.

use std::sync::Arc;

use globset::{GlobBuilder, GlobMatcher};
use navmap_envelope::{ListSpec, Payload};
use serde_json::{Value, json};

use super::crossing;
use super::nav_common::{
    Anchors, MapFallback, Target, by_place_file_line, content_generation, group_by_file,
    is_external, is_test_item, mark_incomplete, nav_narrowing, or_map_answer, position_params,
    symbol_not_found, where_they_are,
};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavReferences;

/// A `fileFilter`: a glob or a path prefix.
pub enum FileFilter {
    Prefix(String),
    Glob {
        matcher: GlobMatcher,
        basename: bool,
    },
}

impl FileFilter {
    pub fn parse(args: &Args, raw: &str) -> Result<FileFilter, navmap_envelope::ToolError> {
        let raw = raw.trim().trim_start_matches("./");
        if raw.contains(['*', '?', '[', '{']) {
            let glob = GlobBuilder::new(raw)
                .literal_separator(true)
                .build()
                .map_err(|e| args.bad("fileFilter", &format!("not a valid glob: {e}")))?;
            Ok(FileFilter::Glob {
                matcher: glob.compile_matcher(),
                basename: !raw.contains('/'),
            })
        } else {
            Ok(FileFilter::Prefix(raw.to_string()))
        }
    }

    pub fn matches(&self, file: &str) -> bool {
        match self {
            FileFilter::Prefix(p) => file.starts_with(p.as_str()),
            FileFilter::Glob { matcher, basename } => {
                matcher.is_match(file)
                    || (*basename && matcher.is_match(file.rsplit('/').next().unwrap_or(file)))
            }
        }
    }
}

impl Tool for NavReferences {
    fn name(&self) -> &'static str {
        "nav_references"
    }

    fn deadline(&self) -> navmap_lsp::Deadline {
        navmap_lsp::Deadline::Long
    }

    fn description(&self) -> &'static str {
        "Drill: references (live), by file and line."
    }

    fn params(&self) -> Params {
        position_params()
            .into_iter()
            .fold(Params::new(), Params::param)
            .param(Param::boolean("includeDeclaration", "").default(false))
            .param(Param::string("fileFilter", "glob or path prefix"))
            .param(Param::boolean("excludeTests", "").default(false))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let t = Target::from_args(ctx, &args).await?;
            let filter = match args.opt_str("fileFilter").filter(|f| !f.trim().is_empty()) {
                Some(f) => Some(FileFilter::parse(&args, f)?),
                None => None,
            };
            if let Err(e) = t.require_word() {
                return Err(symbol_not_found(ctx, &t, e).await);
            }
            let include = args.opt_bool("includeDeclaration").unwrap_or(false);
            let exclude_tests = args.opt_bool("excludeTests").unwrap_or(false);
            let answer = match ctx.lsp.references(&t.abs, t.pos, include).await {
                Ok(a) => a,
                Err(e) => return or_map_answer(ctx, &t, e, MapFallback::References).await,
            };
            let mut anchors = Anchors::new(ctx);
            let before = answer.value.len();
            let all: Vec<Value> = answer.value.iter().map(|l| anchors.location(l)).collect();
            let mut locations: Vec<Value> = all
                .iter()
                .filter(|a| {
                    filter
                        .as_ref()
                        .is_none_or(|f| f.matches(a["file"].as_str().unwrap_or("")))
                })
                .filter(|a| !(exclude_tests && is_test_item(a)))
                .cloned()
                .collect();
            // Mentions of the name the server's answer does not hold (before the filters:
            // a reference the filter leaves out was still seen by the server).
            let answered = crossing::Answered::from_anchors(&all);
            let filter_for_map = args
                .opt_str("fileFilter")
                .filter(|f| !f.trim().is_empty())
                .map(|f| FileFilter::parse(&args, f))
                .transpose()?;
            let unseen = crossing::unseen(ctx, &t, answered, &[], move |file| {
                filter_for_map.as_ref().is_none_or(|f| f.matches(file))
                    && !(exclude_tests && super::nav_common::is_test_path(file))
            })
            .await;
            locations.sort_by(by_tests_last);
            let total = locations.len();
            let narrowing = nav_narrowing(&args, &locations, &[]);
            let groups = group_by_file(locations);
            let mut data = json!({
                "target": t.json(),
                "locations": groups,
                "total": total,
            });
            // One group is one file: the list says it (a cut that dropped it says so in
            // `dropped`), so the count is left off the wire.
            if groups.len() != 1 {
                data["files"] = groups.len().into();
            }
            // What the call's own filters left out is not a cut: a count, not a warning
            // (the sentence cost three times the rows it spoke of on a one-file answer).
            // A filter that kept nothing still says where the references are.
            let filtered_all = total == 0 && filter.is_some();
            if total < before && !filtered_all {
                data["leftOut"] = (before - total).into();
            }
            super::nav_common::target::drop_null_target(&mut data);
            mark_incomplete(&mut data, answer.complete);
            let mut payload = Payload::new(data.clone())
                .generation(content_generation(&data))
                .list(ListSpec::new("/locations", "files").narrowing(narrowing.clone()))
                .list(ListSpec::new("/locations/*/at", "references").narrowing(narrowing));
            if total < before && filtered_all {
                let by = if exclude_tests {
                    "fileFilter and excludeTests"
                } else {
                    "fileFilter"
                };
                // Name where they are, so the next filter names a prefix that exists.
                let files = all.iter().filter(|a| !is_external(a));
                payload = payload.warn(format!(
                    "{by} kept 0 of {before} references; they are in {}.",
                    where_they_are(files.filter_map(|a| a["file"].as_str()))
                ));
            }
            let (payload, crossing_warnings) = crossing::add(&ctx.root, &t.lang, payload, &unseen);
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

/// Non-test code first, then test code; each by place, file and line.
pub fn by_tests_last(a: &Value, b: &Value) -> std::cmp::Ordering {
    let ext = |v: &Value| v["external"].as_bool().unwrap_or(false);
    ext(a)
        .cmp(&ext(b))
        .then(is_test_item(a).cmp(&is_test_item(b)))
        .then_with(|| by_place_file_line(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> Args {
        Params::new()
            .param(Param::string("fileFilter", ""))
            .validate("nav_references", None)
            .unwrap()
    }

    #[test]
    fn globs_and_prefixes() {
        let f = |s: &str| FileFilter::parse(&args(), s).unwrap();
        assert!(f("src/").matches("src/a.ts"));
        assert!(!f("src/").matches("lib/src/a.ts"));
        assert!(f("./shop").matches("shop/api.py"));
        assert!(f("src/**/*.ts").matches("src/util/email.ts"));
        assert!(f("src/*.ts").matches("src/api.ts"));
        assert!(!f("src/*.ts").matches("src/util/email.ts"));
        assert!(f("*.py").matches("shop/util/token.py"));
        assert!(!f("*.py").matches("shop/util/token.ts"));
        assert!(FileFilter::parse(&args(), "src/[").is_err());
    }
}
