//! Language-server trouble as contract codes: a pool error → `LSP_*` ([`lsp_error`]), a
//! file no server handles → `BAD_ARGS` ([`unsupported_file`]), and the servers' states for
//! `map_status` ([`lsp_status`]).

use navmap_envelope::{ErrorCode, ToolError};
use navmap_lsp::LspError;
use serde_json::{Value, json};

use crate::ServerContext;

/// Lines of stderr passed on in `LSP_FAILED` and `map_status`.
pub const STDERR_LINES: usize = 10;

/// `BAD_ARGS` for a file no language server handles (its type is not a language navmap
/// knows, or the language has no server configured): nothing to install, the agent must
/// pass another file. The same answer from every nav tool and `resolve` (docs/lsp.md).
pub fn unsupported_file(ctx: &ServerContext, field: &str, rel: &str) -> ToolError {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let kind = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("*.{ext} files"),
        _ => format!("files like {name}"),
    };
    let mut handled: Vec<String> = ctx
        .languages
        .all()
        .iter()
        .filter(|l| l.manifest.lsp.is_some())
        .flat_map(|l| {
            l.manifest
                .extensions
                .iter()
                .map(|e| format!(".{}", e.trim_start_matches('.')))
        })
        .collect();
    handled.dedup();
    ToolError::bad_args(
        format!("{field}: no language server handles {kind} ({rel})"),
        format!(
            "Pass a source file ({}); map_search and map_neighbors cover what the map indexes.",
            handled.join(" ")
        ),
    )
    .with_extra("field", field)
    .with_extra("file", rel)
}

/// The last [`STDERR_LINES`] of a server's stderr tail, as passed on in `LSP_FAILED` and
/// `map_status`.
fn last_lines(tail: &[String]) -> Vec<String> {
    tail[tail.len().saturating_sub(STDERR_LINES)..].to_vec()
}

fn no_server(why: &str) -> ToolError {
    ToolError::new(
        ErrorCode::LspUnavailable,
        why.to_string(),
        "No language server navigates this file; map_search and map_neighbors still work.",
    )
}

/// What the caller should try when a capability is missing, per tool.
pub struct Fallback {
    pub hint: &'static str,
}

/// Maps a pool error to the contract's error codes.
pub fn lsp_error(err: LspError, lang: &str, fallback: Option<Fallback>) -> ToolError {
    match err {
        LspError::NoServer { what } => {
            no_server(&format!("no language server configured for {what}"))
        }
        LspError::Unavailable {
            command,
            install_hint,
        } => ToolError::new(
            ErrorCode::LspUnavailable,
            format!("the {lang} language server `{command}` is not installed"),
            format!("Install it with: {install_hint} (map_* tools work without it)."),
        )
        .with_extra("installCommand", install_hint)
        .with_extra("language", lang),
        LspError::NotReady { detail, waited } => ToolError::new(
            ErrorCode::LspNotReady,
            format!(
                "the {lang} language server is still {detail} after {:.1}s",
                waited.as_secs_f64()
            ),
            "Retry shortly; meanwhile map_search / map_neighbors answer from the map.",
        )
        .with_extra("language", lang),
        LspError::Failed {
            reason,
            stderr_tail,
        } => ToolError::new(
            ErrorCode::LspFailed,
            format!("the {lang} language server failed: {reason}"),
            "map_status shows its state and stderr; map_* tools still work.",
        )
        .with_extra("language", lang)
        .with_extra("stderrTail", last_lines(&stderr_tail)),
        LspError::CannotServe { reason, evidence } => ToolError::new(
            ErrorCode::LspFailed,
            format!("the {lang} language server cannot serve this project: {reason}"),
            "Fix what the message names, then ask again; until then map_* tools answer, and nav tools that can answer from the map do (source: fallback-map).",
        )
        .with_extra("language", lang)
        .with_extra("cannotServe", true)
        .with_extra("stderrTail", last_lines(&evidence)),
        LspError::Timeout { method, after } => ToolError::new(
            ErrorCode::LspTimeout,
            format!(
                "the {lang} language server did not answer {method} within {}s (cancelled)",
                after.as_secs()
            ),
            "Retry, narrow the question, or use map_neighbors / map_search.",
        )
        .with_extra("language", lang),
        LspError::NoCapability { capability } => ToolError::new(
            ErrorCode::LspFailed,
            format!("the {lang} language server does not support {capability}"),
            fallback
                .map(|f| f.hint)
                .unwrap_or("Use the map_* tools for this question."),
        )
        .with_extra("language", lang)
        .with_extra("capability", capability),
        LspError::Server { code, message } => ToolError::new(
            ErrorCode::LspFailed,
            format!("the {lang} language server answered error {code}: {message}"),
            "Retry; if it persists, map_status shows the server's state.",
        )
        .with_extra("language", lang),
        LspError::Io { context, source } => {
            if source.kind() == std::io::ErrorKind::NotFound {
                ToolError::new(
                    ErrorCode::FileDeleted,
                    format!("{context} does not exist"),
                    "Use map_search to find the symbol's current file.",
                )
            } else {
                ToolError::internal(format!("{context}: {source}"))
            }
        }
    }
}

/// `map_status.lsp`: `{<lang>: {state, command, pid?, uptime?, detail?, stderrTail?}}`
/// for every language with a server configured. Starts nothing: an unstarted server is
/// `unspawned`, or `unavailable` when its binary is not on the PATH.
pub fn lsp_status(ctx: &ServerContext) -> Value {
    let mut out = serde_json::Map::new();
    for s in ctx.lsp.status() {
        let mut v = json!({"state": s.state.as_str(), "command": s.command.join(" ")});
        if let Some(pid) = s.pid {
            v["pid"] = Value::from(pid);
        }
        if let Some(up) = s.uptime {
            v["uptime"] = Value::from(up.as_secs());
        }
        if let Some(d) = s.detail {
            v["detail"] = Value::from(d);
        }
        if !s.stderr_tail.is_empty() {
            v["stderrTail"] = Value::from(last_lines(&s.stderr_tail));
        }
        out.insert(s.language, v);
    }
    Value::Object(out)
}

/// The languages (with a server configured) that have files in the root: the map's,
/// once it is built (its walk honours the ignore rules and has no bound); before that, or
/// while a build holds the map, a bounded walk that skips hidden folders and
/// dependency/build folders, so that a nav tool never waits for the map.
pub fn root_languages(ctx: &ServerContext) -> Vec<String> {
    if let Some(langs) = ctx.map.languages_if_built() {
        return langs
            .into_iter()
            .filter(|l| {
                ctx.languages
                    .by_id(l)
                    .is_some_and(|lang| lang.manifest.lsp.is_some())
            })
            .collect();
    }
    walk_root_languages(ctx)
}

/// [`root_languages`] before the map is built: at most 20,000 entries looked at.
fn walk_root_languages(ctx: &ServerContext) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let wanted = ctx
        .languages
        .all()
        .iter()
        .filter(|l| l.manifest.lsp.is_some())
        .count();
    let mut queue = std::collections::VecDeque::from([ctx.root.clone()]);
    let mut seen = 0usize;
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > 20_000 || found.len() == wanted {
                return found;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.')
                || matches!(
                    name.as_ref(),
                    "node_modules" | "target" | "vendor" | "__pycache__"
                )
            {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                queue.push_back(entry.path());
            } else if let Some(lang) = ctx.languages.for_path(&name)
                && lang.manifest.lsp.is_some()
                && !found.iter().any(|f| f == lang.id())
            {
                found.push(lang.id().to_string());
            }
        }
    }
    found
}
