//! `map_overview {focus?, hubsPerCluster?}`: the repository at a glance — clusters of
//! files that belong together, each with its most central symbols.
//!
//! `/clusters/*/hubs` are trimmed evenly first, then `/clusters` (largest first) is cut to
//! the budget; narrowing: `focus` on a subtree or a smaller `hubsPerCluster`. Without
//! `hubsPerCluster` the answer fills the budget: up to 20 hubs per cluster are offered and
//! the envelope keeps as many as fit (with a cursor for the rest).
//!
//! Shape (docs/answers.md): `{builtAt, files, symbols, staleFiles, languages, clusters:
//! [{id, label, files, hubs: [{id, kind, line}], tests?}], packages?, other?: {clusters,
//! files}, hint?}`. A cluster's `label` is the directory holding most of its hubs (so it
//! never contradicts them), made distinct when two would read alike; clusters without
//! hubs (mostly single files) are folded into `other`; test code is apart (clusters of
//! test files last, `tests: true`; test helpers are no library cluster's hubs);
//! `packages` names every top-level package directory, listed cluster or not; `hint`
//! says when `focus` matched no file. A call that sets neither `hubsPerCluster` nor
//! `tokenBudget` gets a few hubs of the largest clusters (about 1,000 tokens).

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use serde_json::{Value, json};

use super::map_common::{
    before_answer, compact_node, parse_error_warning, rfc3339, stale_files_warning, stale_warning,
    with_map,
};
use super::nav_common::is_test_path;
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;
use navmap_envelope::busiest_dir;

pub struct MapOverview;

/// Hubs per cluster and clusters listed when the call set neither `hubsPerCluster` nor
/// `tokenBudget`: about 1,000 tokens on any repository.
const SIZED_HUBS: usize = 4;
const SIZED_CLUSTERS: usize = 10;
/// More package directories than this: only the top-level ones.
const MAX_PACKAGES: usize = 40;

/// Makes every cluster's `label` distinct: a repeated label gets the stem of its first
/// hub's file (`scripts (build)`), then the cluster id if that is not enough.
fn distinct_labels(clusters: &mut [Value]) {
    for pass in 0..2 {
        // Every cluster of a repeated label is renamed, not all but the last.
        let labels: Vec<String> = clusters
            .iter()
            .map(|c| c["label"].as_str().unwrap_or("").to_string())
            .collect();
        for i in 0..clusters.len() {
            let label = labels[i].clone();
            if labels.iter().filter(|l| **l == label).count() < 2 {
                continue;
            }
            let extra = if pass == 0 {
                clusters[i]["hubs"][0]["id"]
                    .as_str()
                    .and_then(|id| id.split_once(':').map(|(_, r)| r))
                    .map(|r| r.split('#').next().unwrap_or(r))
                    .map(|p| p.rsplit('/').next().unwrap_or(p))
                    .map(|f| f.split('.').next().unwrap_or(f).to_string())
                    .unwrap_or_default()
            } else {
                format!("#{}", clusters[i]["id"])
            };
            clusters[i]["label"] = format!("{label} ({extra})").into();
        }
    }
}

/// The repository's packages: its top-level directories holding indexed files, and the
/// subdirectories of a top-level directory that only groups others (`crates/map`,
/// `packages/web`), so that every one is named even when its files sit in a cluster the
/// answer does not list.
fn packages<'a>(files: impl Iterator<Item = &'a str>, total: usize) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut tops: BTreeMap<&str, (usize, BTreeSet<&str>)> = BTreeMap::new();
    for f in files {
        let mut parts = f.splitn(3, '/');
        let (Some(top), Some(second)) = (parts.next(), parts.next()) else {
            continue;
        };
        let e = tops.entry(top).or_default();
        match parts.next() {
            Some(_) => {
                e.1.insert(second);
            }
            None => e.0 += 1,
        }
    }
    if total == 0 {
        return vec![];
    }
    let mut out: Vec<String> = Vec::new();
    for (top, (direct, subs)) in &tops {
        if *direct == 0 && subs.len() >= 2 {
            out.extend(subs.iter().map(|s| format!("{top}/{s}")));
        } else {
            out.push(top.to_string());
        }
    }
    if out.len() > MAX_PACKAGES {
        out = tops.keys().map(|t| t.to_string()).collect();
    }
    out
}

impl Tool for MapOverview {
    fn name(&self) -> &'static str {
        "map_overview"
    }

    fn description(&self) -> &'static str {
        "Orient: directory clusters, central symbols. Start here."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("focus", "a dir or file"))
            .param(Param::integer("hubsPerCluster", "", 1, 20).default(5))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let focus = match args.opt_str("focus") {
                Some(f) if !matches!(f.trim(), "" | "." | "./") => {
                    Some(ctx.resolve_file("focus", f.trim().trim_end_matches('/'))?)
                }
                _ => None,
            };
            // Unset, and no tokenBudget either: an answer sized to "what is here" (a few
            // hubs, the largest clusters; ≤ 1,000 tokens). With a tokenBudget: offer the
            // most and let the budget decide how many are shown.
            let sized = !args.given("hubsPerCluster") && !args.given("tokenBudget");
            let hubs = if args.given("hubsPerCluster") {
                args.int("hubsPerCluster")? as usize
            } else if sized {
                SIZED_HUBS
            } else {
                20
            };
            let focused = focus.is_some();
            let notes = before_answer(ctx).await;
            let (o, files, generation) = with_map(ctx, "focus", move |m| {
                let o = m.overview(focus.as_deref(), hubs)?;
                let files = m.files()?;
                Ok((o, files, m.generation()))
            })
            .await?;
            let (mut other_clusters, mut other_files) = (0usize, 0usize);
            let mut library: Vec<Value> = Vec::new();
            let mut tests: Vec<Value> = Vec::new();
            for c in &o.clusters {
                // Test code apart: a cluster whose hubs are all in test files is listed
                // after the library, marked; test helpers are no library cluster's hubs.
                let is_tests = !c.hubs.is_empty()
                    && c.hubs
                        .iter()
                        .all(|h| h.file.as_deref().is_some_and(is_test_path));
                let shown: Vec<&navmap_map::NodeView> = c
                    .hubs
                    .iter()
                    .filter(|h| is_tests || !h.file.as_deref().is_some_and(is_test_path))
                    .collect();
                // A cluster without hubs says nothing but its size: counted, not listed.
                if shown.is_empty() {
                    other_clusters += 1;
                    other_files += c.files;
                    continue;
                }
                let files: Vec<&str> = shown.iter().filter_map(|h| h.file.as_deref()).collect();
                // The directory of most hubs; one hub (or one file): its directory.
                let label = busiest_dir(files.iter().copied())
                    .map(|d| d.trim_end_matches('/').to_string())
                    .or_else(|| {
                        files
                            .first()
                            .map(|f| f.rsplit_once('/').map_or(".", |(d, _)| d).to_string())
                    })
                    .unwrap_or_else(|| c.label.clone());
                let mut v = json!({
                    "id": c.id,
                    "label": label,
                    "files": c.files,
                    "hubs": shown.iter().map(|h| Value::Object(compact_node(h, false))).collect::<Vec<_>>(),
                });
                if is_tests {
                    v["tests"] = true.into();
                    tests.push(v);
                } else {
                    library.push(v);
                }
            }
            if sized && library.len() > SIZED_CLUSTERS {
                for c in library.drain(SIZED_CLUSTERS..) {
                    other_clusters += 1;
                    other_files += c["files"].as_u64().unwrap_or(0) as usize;
                }
            }
            let mut clusters = library;
            clusters.extend(tests);
            distinct_labels(&mut clusters);
            let mut data = json!({
                "builtAt": o.built_at.map(rfc3339),
                "files": o.files,
                "symbols": o.symbols,
                "staleFiles": o.stale_files.len(),
                "languages": o.languages,
                "clusters": clusters,
            });
            // Within a focus the clusters are the subtree's: no package list.
            let packages = if focused {
                vec![]
            } else {
                packages(files.iter().map(String::as_str), o.files)
            };
            if !packages.is_empty() {
                data["packages"] = packages.into();
            }
            if other_clusters > 0 {
                data["other"] = json!({"clusters": other_clusters, "files": other_files});
            }
            if focused && o.files == 0 {
                data["hint"] = "focus matched no indexed file. Pass a root-relative directory or file (map_status lists languages; map_search finds files by name).".into();
            }
            let mut payload = Payload::new(data)
                .list(
                    ListSpec::new("/clusters", "clusters")
                        .narrowing_param("focus", "focus:'<dir>'")
                        .narrowing_param("hubsPerCluster", "a smaller hubsPerCluster"),
                )
                // Hubs come best first; trimmed evenly per cluster before clusters go.
                .list(
                    ListSpec::new("/clusters/*/hubs", "hubs")
                        .narrowing_param("hubsPerCluster", "a smaller hubsPerCluster")
                        .narrowing_param("focus", "focus:'<dir>'"),
                )
                .generation(generation);
            if let Some(w) = stale_warning(o.clusters.iter().flat_map(|c| &c.hubs)) {
                payload = payload.warn(w);
            } else if !o.stale_files.is_empty() {
                payload = payload.warn(stale_files_warning(o.stale_files.len()));
            }
            if let Some(w) = parse_error_warning(o.clusters.iter().flat_map(|c| &c.hubs)) {
                payload = payload.warn(w);
            }
            Ok(notes.into_iter().fold(payload, Payload::warn))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_labels_become_distinct() {
        let mut cs = vec![
            json!({"id": 0, "label": "scripts", "hubs": [{"id": "py:scripts/build.py#main"}]}),
            json!({"id": 1, "label": "scripts", "hubs": [{"id": "py:scripts/release.py#run"}]}),
            json!({"id": 2, "label": "src", "hubs": [{"id": "py:src/a.py#A"}]}),
            json!({"id": 3, "label": "lib", "hubs": [{"id": "py:lib/x.py#f"}]}),
            json!({"id": 4, "label": "lib", "hubs": [{"id": "py:lib/x.py#g"}]}),
        ];
        distinct_labels(&mut cs);
        let labels: Vec<&str> = cs.iter().map(|c| c["label"].as_str().unwrap()).collect();
        assert_eq!(labels[0], "scripts (build)");
        assert_eq!(labels[1], "scripts (release)");
        assert_eq!(labels[2], "src");
        let mut unique = labels.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), labels.len(), "{labels:?}");
    }

    #[test]
    fn packages_name_every_top_level_directory() {
        let files = [
            "crates/map/src/lib.rs",
            "crates/server/src/main.rs",
            "src/app.py",
            "src/util/x.py",
            "tests/test_app.py",
            "setup.py",
        ];
        assert_eq!(
            packages(files.into_iter(), files.len()),
            ["crates/map", "crates/server", "src", "tests"]
        );
    }
}
