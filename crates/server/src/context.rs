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

/// `db`, else `NAVMAP_DB` when set and not empty.
fn db_or_env(db: Option<PathBuf>) -> Option<PathBuf> {
    db.or_else(|| {
        std::env::var_os(DB_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// Shared, read-mostly state of one navmap process serving one root.
#[derive(Debug)]
pub struct ServerContext {
    /// The repository root, canonicalised (symlinks resolved, absolute).
    pub root: PathBuf,
    /// The map's SQLite file: `--db`, else `NAVMAP_DB`, else `<root>/.navmap/map.db`
    /// (`navmap_map::IN_MEMORY` when `navmap serve` refused the map folder).
    pub db_path: PathBuf,
    /// Every language navmap knows (from `navmap_grammars::registry()`).
    pub languages: Arc<Registry>,
    /// Language servers for the root, started on the first nav_* call that needs one
    /// (configured by `NAVMAP_LSP_*`, see `navmap_lsp::LspConfig::from_env`). Shut down
    /// with `lsp.shutdown_all()` on exit.
    pub lsp: navmap_lsp::LspPool,
    /// The map of the root (SQLite at `db_path`). Opened here, built by `navmap serve` in
    /// the background, `navmap rebuild`, `map_rebuild` or the first map call
    /// ([`ServerContext::build_on_first_call`]).
    pub map: navmap_map::Map,
    /// Warnings from opening the map (a recreated database, an interrupted build).
    pub map_warnings: Vec<String>,
    /// Progress of the running rebuild, fanned out to whoever asked for it.
    pub map_progress: crate::tools::map_common::MapProgress,
    /// Stale marking, the watcher, read-through refresh (`crate::freshness`); inert until
    /// `navmap serve` calls `freshness::start`.
    pub freshness: crate::freshness::Freshness,
    /// A map call on a map never built builds it first, waiting a bounded time
    /// (`crate::startup::first_build`). `navmap serve --no-build` clears it.
    pub build_on_first_call: std::sync::atomic::AtomicBool,
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

/// The cheap checks of a root (it exists and is a directory), made before serving.
pub(crate) fn check_root(root: &Path) -> Result<(), ContextError> {
    let shown = root.display();
    let meta = std::fs::metadata(root)
        .map_err(|_| ContextError(format!("root {shown} does not exist")))?;
    if !meta.is_dir() {
        return Err(ContextError(format!("root {shown} is not a directory")));
    }
    Ok(())
}

/// The canonical root, the map database's path and whether that path was given
/// (`--db` / `NAVMAP_DB`) rather than the default `<root>/.navmap/map.db`.
fn map_location(
    root: &Path,
    db: Option<PathBuf>,
) -> Result<(PathBuf, PathBuf, bool), ContextError> {
    check_root(root)?;
    let shown = root.display();
    let root = root
        .canonicalize()
        .map_err(|e| ContextError(format!("root {shown} cannot be resolved: {e}")))?;
    let explicit = db.is_some();
    let db_path = match db {
        Some(p) if p.is_absolute() => p,
        Some(p) => std::env::current_dir().map(|cwd| cwd.join(&p)).unwrap_or(p),
        None => root.join(".navmap").join("map.db"),
    };
    Ok((root, db_path, explicit))
}

/// What a context is opened for: how the map is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// `navmap serve`.
    Serve,
    /// `navmap call`, `status`, and tests.
    Command,
    /// `navmap rebuild` (incremental): nothing is asked of the map but the rebuild.
    Rebuild,
    /// `navmap rebuild --full`.
    FullRebuild,
}

impl ServerContext {
    /// A context for `root`; `db` overrides the map location (relative paths are taken
    /// from the current directory). `None` falls back to `NAVMAP_DB`, then the default.
    /// A refused map folder ([`crate::map_folder`]) is an error (the CLI exits 2).
    pub fn new(root: &Path, db: Option<PathBuf>) -> Result<Self, ContextError> {
        ServerContext::open(
            root,
            db_or_env(db),
            navmap_grammars::registry(),
            Purpose::Command,
        )
    }

    /// [`ServerContext::new`] for `navmap rebuild --full`: the previous build is not
    /// loaded (the full rebuild replaces it; holding both would double the peak memory),
    /// and the map is opened to rebuild only, as for [`ServerContext::for_rebuild`].
    pub fn for_full_rebuild(root: &Path, db: Option<PathBuf>) -> Result<Self, ContextError> {
        ServerContext::open(
            root,
            db_or_env(db),
            navmap_grammars::registry(),
            Purpose::FullRebuild,
        )
    }

    /// [`ServerContext::new`] for `navmap rebuild`: the map is opened to rebuild only
    /// (`navmap_map::MapConfig::rebuild_only`: what only answers read stays encoded).
    pub fn for_rebuild(root: &Path, db: Option<PathBuf>) -> Result<Self, ContextError> {
        ServerContext::for_rebuild_walked(root, db, None)
    }

    /// [`ServerContext::for_rebuild`] with the walk of the root the no-op check just made
    /// ([`ServerContext::precheck`]): the rebuild does not walk the root again.
    pub(crate) fn for_rebuild_walked(
        root: &Path,
        db: Option<PathBuf>,
        walked: Option<navmap_map::PriorWalk>,
    ) -> Result<Self, ContextError> {
        ServerContext::open_walked(
            root,
            db_or_env(db),
            navmap_grammars::registry(),
            Purpose::Rebuild,
            walked,
        )
    }

    /// [`ServerContext::new`] for `navmap serve`: a refused map folder, or a file at the
    /// map path that is not navmap's map, keeps the map in memory (nothing written) and
    /// warns with the stable code [`crate::map_folder::REFUSED`] in `map_status`.
    pub fn for_serve(root: &Path, db: Option<PathBuf>) -> Result<Self, ContextError> {
        ServerContext::open(
            root,
            db_or_env(db),
            navmap_grammars::registry(),
            Purpose::Serve,
        )
    }

    /// [`ServerContext::new`] with an explicit registry and no environment lookup.
    pub fn with_registry(
        root: &Path,
        db: Option<PathBuf>,
        languages: Registry,
    ) -> Result<Self, ContextError> {
        ServerContext::open(root, db, languages, Purpose::Command)
    }

    /// The summary of `navmap rebuild` when the map on disk can tell, without being
    /// loaded, that nothing changed ([`navmap_map::Map::precheck`]; `unchanged: None`
    /// when there may be work, or the root or map folder has a problem that opening the
    /// context reports), and the walk of the root it made, for the rebuild.
    pub(crate) fn precheck(root: &Path, db: Option<PathBuf>) -> navmap_map::Precheck {
        let Ok((root, db_path, explicit)) = map_location(root, db_or_env(db)) else {
            return Default::default();
        };
        if !explicit && crate::map_folder::check(&root).is_err() {
            return Default::default();
        }
        let mut config = navmap_map::MapConfig::new(&root);
        config.db_path = Some(db_path);
        navmap_map::Map::precheck(&config, &navmap_grammars::registry()).unwrap_or_default()
    }

    fn open(
        root: &Path,
        db: Option<PathBuf>,
        languages: Registry,
        purpose: Purpose,
    ) -> Result<Self, ContextError> {
        ServerContext::open_walked(root, db, languages, purpose, None)
    }

    fn open_walked(
        root: &Path,
        db: Option<PathBuf>,
        languages: Registry,
        purpose: Purpose,
        walked: Option<navmap_map::PriorWalk>,
    ) -> Result<Self, ContextError> {
        // `serve` keeps a refused map in memory rather than exiting (the agent would have
        // nothing); commands exit 2.
        let in_memory_when_refused = purpose == Purpose::Serve;
        let (root, mut db_path, explicit) = map_location(root, db)?;
        let mut refused: Vec<String> = Vec::new();
        if !explicit && let Err(why) = crate::map_folder::check(&root) {
            if !in_memory_when_refused {
                return Err(ContextError(why));
            }
            refused.push(why);
            db_path = PathBuf::from(navmap_map::IN_MEMORY);
        }
        let lsp = navmap_lsp::LspPool::new(
            root.clone(),
            languages.clone(),
            navmap_lsp::LspConfig::from_env(),
        );
        let languages = Arc::new(languages);
        let open_map = |db_path: &Path| {
            let mut map_config = navmap_map::MapConfig::new(&root);
            map_config.db_path = Some(db_path.to_path_buf());
            // `serve` opens the map in the background and has ranks, clusters and the
            // search index ready for the first query; a command (`rebuild`, `call`,
            // `status`) computes them only if it queries.
            map_config.derive_eagerly = purpose == Purpose::Serve;
            map_config.load_previous = purpose != Purpose::FullRebuild;
            // `rebuild --full` too: nothing but the rebuild is asked of it, so its fresh
            // build leaves each file's uses in the database as the cold one does (issue
            // 19: its peak no higher than a cold build's).
            map_config.rebuild_only = matches!(purpose, Purpose::Rebuild | Purpose::FullRebuild);
            map_config.walked = walked.clone();
            // `serve` and a one-shot command (`call`) keep each file's references and
            // mentions in the database and read them when an answer about uses needs them
            // (issue 19: −7.8 MB of serve's RSS, a load that decodes less). While the
            // database does not hold the map's build (a full rebuild is rewriting it,
            // another process rebuilt it), such an answer keeps the map's edges and says
            // its unlinked mentions could not be checked (`unlinkedUnavailable`,
            // `complete: false`) until the map's own rebuild (docs/freshness.md, "Answers
            // that read the database"). A rebuild opens with its own partial load.
            map_config.uses_on_demand = matches!(purpose, Purpose::Command | Purpose::Serve);
            navmap_map::Map::open(map_config, languages.clone())
        };
        let (map, mut map_warnings) = match open_map(&db_path) {
            Ok(opened) => opened,
            Err(navmap_map::MapError::Refused(why)) if in_memory_when_refused => {
                refused.push(format!("{}: {why}", crate::map_folder::REFUSED));
                db_path = PathBuf::from(navmap_map::IN_MEMORY);
                open_map(&db_path).map_err(|e| ContextError(format!("in-memory map: {e}")))?
            }
            Err(navmap_map::MapError::Refused(why)) => {
                return Err(ContextError(format!(
                    "{}: {why}",
                    crate::map_folder::REFUSED
                )));
            }
            Err(e) => {
                return Err(ContextError(format!(
                    "map database {}: {e}",
                    db_path.display()
                )));
            }
        };
        for why in refused.into_iter().rev() {
            tracing::warn!("{why}");
            map_warnings.insert(0, format!("{why} (the map is kept in memory only)"));
        }
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
            build_on_first_call: std::sync::atomic::AtomicBool::new(true),
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
