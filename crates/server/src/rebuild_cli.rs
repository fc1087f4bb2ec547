//! `navmap rebuild [--full]` (the background build of `navmap serve` is in `freshness.rs`).
//!
//! The command runs the `map_rebuild` tool through the engine (same validation, same
//! summary), shows the build's progress as an indicatif bar on stderr (hidden when stderr
//! is not a terminal) and prints one summary line on stdout. When the map can tell from
//! SQLite alone that nothing changed (`navmap_map::Map::precheck`), the map
//! is not loaded at all and the line ends with `, up to date`.

use std::process::ExitCode;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use crate::Engine;
use crate::cli::RootArgs;
use crate::stdout::outln;

pub(crate) async fn rebuild(root: RootArgs, full: bool) -> Result<ExitCode, ExitCode> {
    // Nothing changed: said from SQLite without loading the map (issue 19's no-op re-index).
    // Otherwise the rebuild reads the walk that check made rather than walking again.
    let ctx = if full {
        crate::memory::for_a_build();
        root.full_rebuild_context()?
    } else {
        let pre = root.precheck();
        if let Some(summary) = pre.unchanged {
            outln!(
                "{}, up to date",
                summary_line(&crate::tools::map_rebuild::summary_json(&summary))
            );
            return Ok(ExitCode::SUCCESS);
        }
        crate::memory::for_a_build();
        root.rebuild_context(pre.walk)?
    };
    let bar = ProgressBar::new(100);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {bar:30} {percent:>3}% {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let out = {
        let b = bar.clone();
        let _progress = ctx.map_progress.subscribe(Arc::new(move |u| {
            b.set_position(u.progress.round() as u64);
            b.set_message(u.message);
        }));
        Engine::new(ctx.clone())
            .call("map_rebuild", json!({"full": full}).as_object().cloned())
            .await
    };
    bar.finish_and_clear();
    if !out.ok {
        outln!("{}", out.text);
        return Ok(ExitCode::from(1));
    }
    let env: Value = serde_json::from_str(&out.text).unwrap_or_default();
    outln!("{}", summary_line(&env["data"]));
    for w in env["warnings"].as_array().into_iter().flatten() {
        if let Some(w) = w.as_str() {
            eprintln!("navmap: warning: {w}");
        }
    }
    // The process ends next: freeing the whole in-memory map first was a fifth of a
    // small rebuild's time (issue 19's profile). Everything is committed to SQLite.
    std::mem::forget(ctx);
    Ok(ExitCode::SUCCESS)
}

/// `123 files (4 indexed, 1 deleted), 2345 symbols, 6789 edges, 2 skipped, 0.42 s`.
pub(crate) fn summary_line(d: &Value) -> String {
    let n = |k: &str| d[k].as_u64().unwrap_or(0);
    let skipped: u64 = d["skipped"]
        .as_object()
        .map(|m| m.values().filter_map(Value::as_u64).sum())
        .unwrap_or(0);
    format!(
        "{} files ({} indexed, {} deleted), {} symbols, {} edges, {} skipped, {:.2} s",
        n("files"),
        n("filesIndexed"),
        n("filesDeleted"),
        n("symbols"),
        n("edges"),
        skipped,
        n("durationMs") as f64 / 1000.0
    )
}
