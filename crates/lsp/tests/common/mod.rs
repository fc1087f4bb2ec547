//! Shared helpers of the live tests: finding servers, copying fixtures, pools.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use navmap_lsp::{LspConfig, LspPool, SymbolKind};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The git-ignored folder `scripts/install-servers.sh` installs servers into
/// (`navmap servers install` with `NAVMAP_DATA_DIR=.tools`): the pools' data dir.
pub fn data_dir() -> PathBuf {
    let d = repo().join(".tools");
    d.canonicalize().unwrap_or(d)
}

/// PATH with the data dir's bin folders first (`navmap_lsp::locate::data_bin_dirs`: npm's
/// `node_modules/.bin`, the venv's `bin`), for [`which`].
pub fn tools_path() -> String {
    let mut dirs: Vec<String> = navmap_lsp::locate::data_bin_dirs(&data_dir())
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    dirs.push(std::env::var("PATH").unwrap_or_default());
    dirs.join(":")
}

pub fn which(program: &str) -> Option<PathBuf> {
    tools_path()
        .split(':')
        .map(|d| Path::new(d).join(program))
        .find(|p| p.is_file())
}

/// Whether a server is there to test against. Missing with `CI` set is a failure (these
/// tests must run in CI); missing otherwise prints a clear skip line.
pub fn require(program: &str, required_in_ci: bool) -> bool {
    if which(program).is_some() {
        eprintln!("server ran: {program}");
        return true;
    }
    if required_in_ci && std::env::var_os("CI").is_some() {
        panic!("{program} is not installed but CI is set: run scripts/install-servers.sh");
    }
    eprintln!("skipped: {program} not installed");
    false
}

/// A copy of `fixtures/<name>` in a temp dir (servers may write caches; tests edit files).
pub fn fixture(name: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("navmap-lsp-")
        .tempdir()
        .unwrap();
    copy_dir(&repo().join("fixtures").join(name), dir.path());
    dir
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

pub fn config() -> LspConfig {
    LspConfig {
        // The pool finds servers in the data dir itself (as `serve` does); PATH stays the
        // test's own.
        data_dir: Some(data_dir()),
        deadline: Duration::from_secs(60),
        long_deadline: Duration::from_secs(90),
        ..LspConfig::default()
    }
}

pub fn pool(root: &Path, config: LspConfig) -> LspPool {
    LspPool::new(root, navmap_grammars::registry(), config)
}

/// Processes whose process group is `pgid` and that are not zombies.
pub fn live_group_members(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in entries.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            out.push(pid);
        }
    }
    out
}

/// Waits up to `limit` for the group to be gone.
pub async fn group_gone(pgid: u32, limit: Duration) -> bool {
    let end = std::time::Instant::now() + limit;
    loop {
        if live_group_members(pgid).is_empty() {
            return true;
        }
        if std::time::Instant::now() > end {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The fake language server binary (`tests/fake-lsp`), built on first use.
pub fn fake_lsp() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            // target/<profile>/deps/<test> → target/<profile>/fake-lsp
            let exe = std::env::current_exe().unwrap();
            let bin = exe.parent().unwrap().parent().unwrap().join("fake-lsp");
            let release = exe.parent().unwrap().parent().unwrap().ends_with("release");
            let mut args = vec!["build", "--quiet", "-p", "fake-lsp"];
            if release {
                args.push("--release");
            }
            let status = std::process::Command::new(env!("CARGO"))
                .args(args)
                .current_dir(repo())
                .status()
                .expect("cargo build -p fake-lsp");
            assert!(status.success(), "building fake-lsp failed");
            assert!(bin.is_file(), "{} missing", bin.display());
            bin
        })
        .clone()
}

/// `p` relative to `root` (both as the server sees them: canonical), or `p` whole.
pub fn rel(root: &Path, p: &Path) -> String {
    let root = root.canonicalize().unwrap();
    p.strip_prefix(&root)
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_else(|_| p.display().to_string())
}

/// The outline of `file` holds `class` of `kind`, with `members` among its children
/// (none asked: the outline need not be hierarchical).
pub async fn assert_outline_has(
    pool: &LspPool,
    file: &Path,
    class: &str,
    kind: SymbolKind,
    members: &[&str],
) {
    let syms = pool.document_symbols(file).await.unwrap();
    let found = syms
        .value
        .iter()
        .find(|s| s.name == class && s.kind == kind)
        .unwrap_or_else(|| panic!("{class} ({kind:?}) not in the outline: {:?}", syms.value));
    let children: Vec<&str> = found.children.iter().map(|c| c.name.as_str()).collect();
    for m in members {
        assert!(children.contains(m), "{m} not among {children:?}");
    }
}

/// A workspace-symbol search for `name` in `lang` finds it (in `file`, when given).
pub async fn assert_workspace_symbol(
    pool: &LspPool,
    root: &Path,
    lang: &str,
    name: &str,
    file: Option<&str>,
) {
    let ws = pool.workspace_symbols(lang, name).await.unwrap();
    assert!(
        ws.value
            .iter()
            .any(|s| s.name == name && file.is_none_or(|f| rel(root, &s.path) == f)),
        "{:?}",
        ws.value
    );
}
