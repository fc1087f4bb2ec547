//! `navmap servers` (list each language's server: where it is found, its version) and
//! `navmap servers install [LANG…]` (install the servers a package registry provides into
//! navmap's data directory). Finding and installing live in `navmap_lsp::{locate, install}`;
//! this module only prints. stdout carries the listing / summary, the package tools'
//! output goes to stderr.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::stdout::outln;
use navmap_lsp::install::{self, Machine};
use navmap_lsp::locate::{self, Search};

/// How long `--version` may take per server (some never answer it).
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

fn search(root: Option<PathBuf>) -> Search {
    let root = root
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    Search::new(root, locate::data_dir(), std::env::var_os("PATH"))
}

/// `navmap servers`: one line per language with a server.
pub fn list(root: Option<PathBuf>, json: bool) -> ExitCode {
    let registry = navmap_grammars::registry();
    let search = search(root);
    let child_path = search.child_path();
    let mut rows = Vec::new();
    for lang in registry.all() {
        let Some(lsp) = &lang.manifest.lsp else {
            continue;
        };
        let program = lsp.command.first().cloned().unwrap_or_default();
        let found = search.find(&program);
        let version = found
            .as_ref()
            .and_then(|f| install::version(&f.program, &child_path, VERSION_TIMEOUT));
        let installable = lsp.install.as_ref().is_some_and(install::has_packages);
        rows.push(serde_json::json!({
            "language": lang.id(),
            "command": lsp.command.join(" "),
            "found": found.as_ref().map(|f| f.program.display().to_string()),
            "origin": found.as_ref().map(|f| f.origin.as_str()),
            "version": version,
            "install": if installable {
                format!("navmap servers install {}", lang.id())
            } else {
                lsp.install_hint.clone()
            },
        }));
    }
    if json {
        let out = serde_json::json!({
            "dataDir": search.data_dir.as_ref().map(|d| d.display().to_string()),
            "servers": rows,
        });
        outln!("{out}");
        return ExitCode::SUCCESS;
    }
    match &search.data_dir {
        Some(d) => outln!("data dir: {}", d.display()),
        None => outln!("data dir: none (set NAVMAP_DATA_DIR or HOME)"),
    }
    // Columns as wide as their longest entry, so that a long id or command does not push
    // its row out of line.
    let width = |k: &str| {
        rows.iter()
            .map(|r| r[k].as_str().unwrap_or("").chars().count())
            .max()
            .unwrap_or(0)
    };
    let (lw, cw) = (width("language"), width("command"));
    for r in &rows {
        let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
        if r["found"].is_null() {
            outln!(
                "{:<lw$} {:<cw$} missing — install: {}",
                s("language"),
                s("command"),
                s("install")
            );
        } else {
            let version = r["version"].as_str().unwrap_or("version unknown");
            outln!(
                "{:<lw$} {:<cw$} {} ({}) · {version}",
                s("language"),
                s("command"),
                s("found"),
                s("origin")
            );
        }
    }
    ExitCode::SUCCESS
}

/// `navmap servers install [LANG…]`: every language with a recipe when none is named.
/// Exit 0 when each asked-for server is installed (or was already there), 1 when one
/// failed or has no usable registry here, 2 for an unknown language.
pub fn install_servers(langs: &[String]) -> ExitCode {
    let registry = navmap_grammars::registry();
    let Some(data) = locate::data_dir() else {
        eprintln!("navmap: no data dir: set NAVMAP_DATA_DIR (or HOME / XDG_DATA_HOME)");
        return ExitCode::from(2);
    };
    for l in langs {
        if registry.by_id(l).is_none() {
            eprintln!(
                "navmap: unknown language `{l}` (known: {})",
                registry.ids().join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let machine = Machine::detect();
    let search = Search::new(".", Some(data.clone()), std::env::var_os("PATH"));
    let mut failed = false;
    // Languages sharing a server and recipe are installed once.
    let mut done: Vec<Vec<Vec<String>>> = Vec::new();
    for lang in registry.all() {
        if !langs.is_empty() && !langs.iter().any(|l| l == lang.id()) {
            continue;
        }
        let Some(lsp) = &lang.manifest.lsp else {
            continue;
        };
        let id = lang.id();
        let Some(recipe) = lsp.install.as_ref().filter(|r| install::has_packages(r)) else {
            if !langs.is_empty() {
                outln!(
                    "{id}: no package registry provides this server; install: {}",
                    lsp.install_hint
                );
                failed = true;
            }
            continue;
        };
        let Some(plan) = install::plan(recipe, &data, &machine) else {
            let program = lsp.command.first().cloned().unwrap_or_default();
            if let Some(found) = search.find(&program) {
                // No registry usable here (apt without root), but the server is already
                // installed (by an administrator, an earlier run as root): nothing to do.
                outln!(
                    "{id}: {program} already installed ({})",
                    found.program.display()
                );
                continue;
            }
            let tools: Vec<&str> = [
                (!recipe.npm.is_empty(), "npm"),
                (!recipe.pip.is_empty(), "python3 (pip)"),
                (!recipe.go.is_empty(), "go"),
                (!recipe.cargo.is_empty(), "cargo"),
                (!recipe.rustup.is_empty(), "rustup"),
                (!recipe.apt.is_empty(), "apt-get as root"),
            ]
            .into_iter()
            .filter_map(|(listed, tool)| listed.then_some(tool))
            .collect();
            outln!(
                "{id}: no usable package tool here (its recipe needs {}); install: {}",
                tools.join(" or "),
                lsp.install_hint
            );
            failed = true;
            continue;
        };
        let program = lsp.command.first().cloned().unwrap_or_default();
        let runnable = |s: &Search| {
            s.find(&program).is_some_and(|f| {
                // A rustup proxy exists without its component: ask it to run.
                install::version(&f.program, &s.child_path(), Duration::from_secs(20)).is_some()
                    || plan.source != "rustup"
            })
        };
        if done.contains(&plan.commands) {
            continue;
        }
        done.push(plan.commands.clone());
        // Installs into the data dir always run (a re-run is quick: npm and pip find the
        // packages up to date, cargo its crate installed, go its build cached), so that a
        // recipe's new version replaces the old one.
        let into_data_dir = matches!(plan.source, "npm" | "pip" | "go" | "cargo");
        if runnable(&search) && !into_data_dir {
            // System packages already there: nothing to do.
            outln!("{id}: {program} already installed");
            continue;
        }
        let started = std::time::Instant::now();
        match install::run(&plan, &data) {
            Ok(()) if search.find(&program).is_some() => outln!(
                "{id}: installed {program} with {} in {:.0}s",
                plan.source,
                started.elapsed().as_secs_f64()
            ),
            Ok(()) => {
                outln!(
                    "{id}: {} finished but `{program}` is still not found",
                    plan.source
                );
                failed = true;
            }
            Err(e) => {
                outln!("{id}: install failed: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
