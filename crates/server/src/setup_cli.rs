//! `navmap setup <client> [--scope project|user] [--root DIR] [--dry-run]`: writes navmap's
//! entry into an MCP client's own configuration file ([`crate::client_config`] knows the
//! files and formats), then prints what it wrote.
//!
//! The entry runs this very binary (`std::env::current_exe`) with `serve`. It carries
//! `NAVMAP_DATA_DIR` when the servers live somewhere else than the default data dir (the
//! variable is set now and differs from the default), because the client starts navmap
//! with its own environment. Without `--root` the entry has no `--root` either, so navmap
//! serves the directory the client starts it in (the client's working directory: the
//! project, for a client started there); VS Code gets `--root ${workspaceFolder}`, which
//! it expands itself.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::client_config::{Client, Entry, Scope, merge};
use crate::stdout::outln;

/// The parsed command line of `navmap setup`.
#[derive(Debug, Clone)]
pub struct SetupArgs {
    pub client: String,
    pub scope: Option<String>,
    pub root: Option<PathBuf>,
    pub dry_run: bool,
}

pub fn setup(args: &SetupArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("navmap setup: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &SetupArgs) -> Result<(), String> {
    let known = || {
        Client::ALL
            .iter()
            .map(|c| c.id())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let client = Client::from_id(&args.client)
        .ok_or_else(|| format!("unknown client `{}` (known: {})", args.client, known()))?;
    let scope = match args.scope.as_deref() {
        None => client.default_scope(),
        Some("project") => Scope::Project,
        Some("user") => Scope::User,
        Some(other) => return Err(format!("unknown scope `{other}` (project or user)")),
    };
    let cwd = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
    let project = match &args.root {
        Some(r) => absolute(&cwd, r),
        None => cwd.clone(),
    };
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or("HOME is not set: the user's configuration files are found from it")?;
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let path = client.path(scope, &project, &home, codex_home.as_deref())?;
    let entry = entry_for(client, args.root.as_ref().map(|_| project.as_path()))?;

    let existing = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let merged = merge(client, existing.as_deref(), &entry)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let verb = if args.dry_run {
        "would write"
    } else if merged.unchanged {
        "already has"
    } else {
        "wrote"
    };
    outln!(
        "{} ({} scope): {verb} {}",
        client.title(),
        scope_name(scope),
        path.display()
    );
    outln!("{}", merged.entry_text);
    if args.root.is_none() {
        outln!(
            "{}",
            if client == Client::VsCode {
                "navmap serves the workspace folder (${workspaceFolder})."
            } else {
                "No --root: navmap serves the directory the client starts it in (its working directory, the project you open it in)."
            }
        );
    }
    if !args.dry_run && !merged.unchanged {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        // Written beside the file, then renamed over it: a client never reads half a file.
        let tmp = path.with_extension("navmap-tmp");
        std::fs::write(&tmp, &merged.text)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn scope_name(s: Scope) -> &'static str {
    match s {
        Scope::Project => "project",
        Scope::User => "user",
    }
}

fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    };
    p.canonicalize().unwrap_or(p)
}

/// The entry: this binary, `serve`, the root when one was given (VS Code: its workspace
/// folder otherwise), and `NAVMAP_DATA_DIR` when it is not the default.
fn entry_for(client: Client, root: Option<&Path>) -> Result<Entry, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot tell where this navmap binary is: {e}"))?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let mut args = vec!["serve".to_string()];
    match root {
        Some(r) => args.extend(["--root".to_string(), r.display().to_string()]),
        None if client == Client::VsCode => {
            args.extend(["--root".to_string(), "${workspaceFolder}".to_string()])
        }
        None => {}
    }
    let mut env = Vec::new();
    if let Some(data) = non_default_data_dir() {
        env.push(("NAVMAP_DATA_DIR".to_string(), data.display().to_string()));
    }
    Ok(Entry {
        command: exe.display().to_string(),
        args,
        env,
    })
}

/// `NAVMAP_DATA_DIR` (made absolute) when it is set and differs from the data dir navmap
/// would use without it.
fn non_default_data_dir() -> Option<PathBuf> {
    let set = std::env::var_os("NAVMAP_DATA_DIR").filter(|v| !v.is_empty())?;
    let cwd = std::env::current_dir().ok()?;
    let set = absolute(&cwd, Path::new(&set));
    let vars: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k != "NAVMAP_DATA_DIR")
        .collect();
    let default = navmap_lsp::locate::data_dir_from_vars(|k| {
        vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
    });
    (default.as_deref() != Some(set.as_path())).then_some(set)
}
