//! `nav_workspaceSymbols {query (≥ 3 chars), limit ≤ 200 = 50}`: live symbol search
//! across every language server available for the root's languages →
//! `{results: [{name, kind, container?, file, line, col, language?}], total, complete?,
//! languages}` (docs/answers.md): `language` per result unless every result is of the
//! one language in `languages`; a symbol outside the root is `{external: true, lib, …}`, never by path.
//! `complete: false` is the servers' word (absent when their lists were whole); a `limit` cut shows in `total` and a warning.
//!
//! Exact-name matches first, then case-insensitive exact, prefix, substring, the rest;
//! inside the root before external. A server that is missing or fails is a warning
//! naming it (its symbols are absent), never silence; only when no server could answer at
//! all is it an error. A root with no file of a language that has a server is a miss
//! (`ok`, no results, a `hint` and a warning), not an error.
//!
//! Cross-checked against the map (contract §2): definitions the map has of exactly the
//! query's name, in a language whose server answered, that no result holds (a file the
//! project's configuration hides from the server) come as `unverified` rows `{file, name,
//! kind, line, col, language}` with `unverifiedTotal`, `complete: false` and a warning
//! naming the likely cause.

use std::sync::Arc;

use navmap_envelope::{ListSpec, Payload};
use navmap_lsp::LspError;
use serde_json::{Value, json};

use super::nav_common::{
    Anchors, Place, content_generation, kind_name, lsp_error, mark_incomplete, root_languages,
};
use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

pub struct NavWorkspaceSymbols;

/// The map's definitions of the query's exact name looked at per language, for the
/// cross-check.
const MAX_UNVERIFIED: usize = 100;

fn match_rank(name: &str, query: &str) -> u8 {
    let (n, q) = (name.to_lowercase(), query.to_lowercase());
    if name == query {
        0
    } else if n == q {
        1
    } else if n.starts_with(&q) {
        2
    } else if n.contains(&q) {
        3
    } else {
        4
    }
}

impl Tool for NavWorkspaceSymbols {
    fn name(&self) -> &'static str {
        "nav_workspaceSymbols"
    }

    fn deadline(&self) -> navmap_lsp::Deadline {
        navmap_lsp::Deadline::Long
    }

    fn description(&self) -> &'static str {
        "Drill: live symbol search; slower than map_search, current."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(Param::string("query", "name part").min_len(3).required())
            .param(Param::integer("limit", "", 1, 200).default(50))
    }

    fn call<'a>(&'a self, ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            let query = args.str("query")?.to_string();
            let limit = args.int("limit")? as usize;
            let langs = root_languages(ctx);
            let lang_refs: Vec<&str> = langs.iter().map(String::as_str).collect();
            let answers = ctx.lsp.workspace_symbols_all(&lang_refs, &query).await;

            let anchors = Anchors::new(ctx);
            let mut results: Vec<(u8, Value)> = Vec::new();
            let mut warnings = Vec::new();
            let mut complete = true;
            let mut answered = Vec::new();
            let mut first_error = None;
            for (lang, answer) in answers {
                match answer {
                    Ok(a) => {
                        answered.push(lang.clone());
                        complete &= a.complete;
                        warnings.extend(a.warnings.into_iter().map(|w| format!("{lang}: {w}")));
                        for s in a.value {
                            let pos = s.range.map(|r| r.start).unwrap_or_default();
                            let mut v = match anchors.place(&s.path) {
                                Place::Root(rel) => json!({"file": rel}),
                                Place::External(lib) => json!({"external": true, "lib": lib}),
                            };
                            v["name"] = Value::from(s.name.clone());
                            v["kind"] = Value::from(kind_name(s.kind));
                            if let Some(c) = &s.container {
                                v["container"] = Value::from(c.clone());
                            }
                            v["line"] = Value::from(pos.line + 1);
                            v["col"] = Value::from(pos.character + 1);
                            // One server may answer for several languages (ts and js
                            // share one): the file's own language labels the result.
                            let file_lang = ctx
                                .languages
                                .for_path(&s.path.to_string_lossy())
                                .map_or(lang.as_str(), |l| l.id());
                            v["language"] = Value::from(file_lang);
                            results.push((match_rank(&s.name, &query), v));
                        }
                    }
                    Err(LspError::CannotServe { reason, .. }) => {
                        // The server cannot serve this project: the map's symbols of
                        // its language stand in, marked (`source: "fallback-map"`).
                        complete = false;
                        let hits = map_symbols(ctx, &query, &lang, limit).await;
                        warnings.push(format!(
                            "{lang}: the language server cannot serve this project: {reason} — {} of its symbols come from the map instead (fallback-map; map_search).",
                            hits.len()
                        ));
                        if !hits.is_empty() {
                            answered.push(lang.clone());
                        }
                        for v in hits {
                            let rank = match_rank(v["name"].as_str().unwrap_or(""), &query);
                            results.push((rank, v));
                        }
                    }
                    Err(e) => {
                        complete = false;
                        let why = match &e {
                            LspError::Unavailable {
                                command,
                                install_hint,
                            } => format!(
                                "{lang}: language server `{command}` is not installed ({install_hint}); its symbols are missing."
                            ),
                            other => format!(
                                "{lang}: no workspace symbols ({other}); its symbols are missing."
                            ),
                        };
                        warnings.push(why);
                        first_error.get_or_insert((lang, e));
                    }
                }
            }
            if langs.is_empty() {
                // A miss, not an error: nothing in the root for a language server to search.
                let data = json!({
                    "results": [],
                    "total": 0,
                    "languages": [],
                    "hint": "No file of a language with a language server is in the root; map_search searches the map.",
                });
                return Ok(Payload::new(data).warn(
                    "No language server applies to this root (no file of a language navmap navigates live); nothing was searched.",
                ));
            }
            if answered.is_empty() {
                return Err(match first_error {
                    Some((lang, e)) => lsp_error(e, &lang, None),
                    None => navmap_envelope::ToolError::internal("no language server answered"),
                });
            }
            results.sort_by(|(ra, a), (rb, b)| {
                let ext = |v: &Value| v["external"].as_bool().unwrap_or(false);
                // Among equal matches, declarations of types and functions before
                // variables (re-exports are often reported as variables).
                let minor = |v: &Value| {
                    matches!(
                        v["kind"].as_str(),
                        Some("variable" | "constant" | "module" | "field" | "property")
                    )
                };
                ra.cmp(rb)
                    .then(ext(a).cmp(&ext(b)))
                    .then(minor(a).cmp(&minor(b)))
                    .then_with(|| a["file"].as_str().cmp(&b["file"].as_str()))
                    .then_with(|| a["line"].as_u64().cmp(&b["line"].as_u64()))
            });
            // The map's definitions of exactly that name that a server that answered left
            // out (a file its project configuration excludes): `unverified`, not silence.
            let live: Vec<String> = answered
                .iter()
                .filter(|l| {
                    !results
                        .iter()
                        .any(|(_, v)| v["source"] == "fallback-map" && v["language"] == l.as_str())
                })
                .cloned()
                .collect();
            let mut unverified = Vec::new();
            for lang in &live {
                let listed = |v: &Value| {
                    // By file and name: the server's line may be the name's, the map's
                    // a decorator's.
                    results
                        .iter()
                        .any(|(_, r)| r["file"] == v["file"] && r["name"] == v["name"])
                };
                let missing: Vec<Value> = map_symbols(ctx, &query, lang, MAX_UNVERIFIED)
                    .await
                    .into_iter()
                    .filter(|v| v["name"] == query.as_str() && !listed(v))
                    .map(|mut v| {
                        if let Some(o) = v.as_object_mut() {
                            o.remove("source");
                        }
                        v
                    })
                    .collect();
                if missing.is_empty() {
                    continue;
                }
                let why = ctx
                    .languages
                    .by_id(lang)
                    .and_then(|l| super::crossing::cause(&ctx.root, l))
                    .map(|c| format!(" Likely cause: {c}."))
                    .unwrap_or_default();
                warnings.push(format!(
                    "{lang}: the language server's symbols leave out {} definition(s) named {query} that the map has: listed as unverified.{why}",
                    missing.len()
                ));
                unverified.extend(missing);
            }
            let total = results.len();
            let mut results: Vec<Value> = results.into_iter().take(limit).map(|(_, v)| v).collect();
            // Every result of the one language that answered: `languages` says it once.
            if let [only] = answered.as_slice()
                && results.iter().all(|v| v["language"] == only.as_str())
            {
                for v in &mut results {
                    if let Some(o) = v.as_object_mut() {
                        o.remove("language");
                    }
                }
            }
            if total > limit {
                warnings.push(format!(
                    "Showing {limit} of {total} matches; pass a longer query or raise limit."
                ));
            }
            // `complete`: the servers' lists were whole; the `limit` cut is counted by
            // `total` and a warning, not passed off as the servers' incompleteness.
            let mut data = json!({
                "results": results,
                "total": total,
                "languages": answered,
            });
            mark_incomplete(&mut data, complete && unverified.is_empty());
            if !unverified.is_empty() {
                data["unverifiedTotal"] = unverified.len().into();
                data["unverified"] = Value::from(unverified);
            }
            let payload = Payload::new(data.clone())
                .generation(content_generation(&data))
                .list(ListSpec::new("/results", "symbols").narrowing("Pass a longer query"))
                .list(
                    ListSpec::new("/unverified", super::crossing::KIND)
                        .narrowing("Pass a longer query"),
                );
            Ok(warnings.into_iter().fold(payload, Payload::warn))
        })
    }
}

/// The map's definitions matching `query` in files of language `lang`, shaped like the
/// live results and marked `source: "fallback-map"`. Empty when the map cannot answer.
async fn map_symbols(
    ctx: &Arc<ServerContext>,
    query: &str,
    lang: &str,
    limit: usize,
) -> Vec<Value> {
    let q = query.to_string();
    let found =
        super::map_common::with_map(ctx, "query", move |map| map.search(&q, None, 100)).await;
    let Ok(found) = found else {
        return Vec::new();
    };
    found
        .results
        .into_iter()
        .filter(|h| h.node.kind != navmap_map::NodeKind::File)
        .filter_map(|h| {
            let file = h.node.file.clone()?;
            let of_lang = ctx
                .languages
                .for_path(&file)
                .is_some_and(|l| l.id() == lang);
            of_lang.then(|| {
                json!({
                    "file": file,
                    "name": h.node.name,
                    "kind": h.node.kind.as_str(),
                    "line": h.node.line.unwrap_or(1),
                    "col": h.node.col.unwrap_or(1),
                    "language": lang,
                    "source": "fallback-map",
                })
            })
        })
        .take(limit)
        .collect()
}
