//! [`ServerContext`]: everything a tool may consult, shared by all calls of one process.
//!
//! # Extending it
//! The map engineer adds the map handle and the LSP engineer the language-server pool as
//! new fields here, initialised in [`ServerContext::new`] (or lazily, on first use, behind
//! a `tokio::sync::OnceCell`, when starting them is expensive or async). Tools receive
//! `&Arc<ServerContext>`: clone the `Arc` to move work onto `spawn_blocking`.
//! Fields are public and read-only in practice (the context is shared behind an `Arc`);
//! anything that changes over time needs its own interior synchronisation.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use navmap_envelope::ToolError;
use navmap_language::Registry;

use crate::paths;

/// Overrides the map database location (like `--db`).
pub const DB_ENV: &str = "NAVMAP_DB";

/// Shared, read-mostly state of one navmap process serving one root.
#[derive(Debug)]
pub struct ServerContext {
    /// The repository root, canonicalised (symlinks resolved, absolute).
    pub root: PathBuf,
    /// The map's SQLite file: `--db`, else `NAVMAP_DB`, else `<root>/.navmap/map.db`.
    pub db_path: PathBuf,
    /// Every language navmap knows (from `navmap_grammars::registry()`).
    pub languages: Arc<Registry>,
    /// Language servers for the root, started on the first nav_* call that needs one
    /// (configured by `NAVMAP_LSP_*`, see `navmap_lsp::LspConfig::from_env`). Shut down
    /// with `lsp.shutdown_all()` on exit.
    pub lsp: navmap_lsp::LspPool,
    /// The map of the root (SQLite at `db_path`). Opened here, built by `navmap serve` in
    /// the background, `navmap rebuild` or `map_rebuild`; map tools answer
    /// `MAP_NOT_BUILT` until a build lands.
    pub map: navmap_map::Map,
    /// Warnings from opening the map (a recreated database, an interrupted build).
    pub map_warnings: Vec<String>,
    /// Progress of the running rebuild, fanned out to whoever asked for it.
    pub map_progress: crate::tools::map_common::MapProgress,
    /// Stale marking, the watcher, read-through refresh (`crate::freshness`); inert until
    /// `navmap serve` calls `freshness::start`.
    pub freshness: crate::freshness::Freshness,
}

/// Why a context could not be created: a one-line message for stderr (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextError(pub String);

impl std::fmt::Display for ContextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ContextError {}

impl ServerContext {
    /// A context for `root`; `db` overrides the map location (relative paths are taken
    /// from the current directory). `None` falls back to `NAVMAP_DB`, then the default.
    pub fn new(root: &Path, db: Option<PathBuf>) -> Result<Self, ContextError> {
        let db = db.or_else(|| {
            std::env::var_os(DB_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        ServerContext::with_registry(root, db, navmap_grammars::registry())
    }

    /// [`ServerContext::new`] with an explicit registry and no environment lookup.
    pub fn with_registry(
        root: &Path,
        db: Option<PathBuf>,
        languages: Registry,
    ) -> Result<Self, ContextError> {
        let shown = root.display();
        let meta = std::fs::metadata(root)
            .map_err(|_| ContextError(format!("root {shown} does not exist")))?;
        if !meta.is_dir() {
            return Err(ContextError(format!("root {shown} is not a directory")));
        }
        let root = root
            .canonicalize()
            .map_err(|e| ContextError(format!("root {shown} cannot be resolved: {e}")))?;
        let db_path = match db {
            Some(p) if p.is_absolute() => p,
            Some(p) => std::env::current_dir().map(|cwd| cwd.join(&p)).unwrap_or(p),
            None => root.join(".navmap").join("map.db"),
        };
        let lsp = navmap_lsp::LspPool::new(
            root.clone(),
            languages.clone(),
            navmap_lsp::LspConfig::from_env(),
        );
        let languages = Arc::new(languages);
        let mut map_config = navmap_map::MapConfig::new(&root);
        map_config.db_path = Some(db_path.clone());
        let (map, map_warnings) = navmap_map::Map::open(map_config, languages.clone())
            .map_err(|e| ContextError(format!("map database {}: {e}", db_path.display())))?;
        let freshness = crate::freshness::Freshness::new(map.clone(), lsp.clone(), &root, &db_path);
        Ok(ServerContext {
            root,
            db_path,
            languages,
            lsp,
            map,
            map_warnings,
            map_progress: Default::default(),
            freshness,
        })
    }

    /// The root as tools report it (absolute, `/`-separated on Unix).
    pub fn root_display(&self) -> String {
        self.root.display().to_string()
    }

    /// The navmap version (`serverInfo.version`, `map_status.version`).
    pub fn version(&self) -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    /// Checks a `file` argument (named `field` in errors) and returns it root-relative and
    /// `/`-separated. Absolute paths, `..` that climbs out of the root, and paths that
    /// resolve through symlinks to outside the root are `BAD_ARGS`. The file need not
    /// exist (a deleted file is the tool's `FILE_DELETED`, not a bad argument).
    pub fn resolve_file(&self, field: &str, file: &str) -> Result<String, ToolError> {
        paths::resolve_under_root(&self.root, field, file)
    }
}
