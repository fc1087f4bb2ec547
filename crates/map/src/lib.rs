//! The map: a structural index of one repository kept in SQLite.
//!
//! Owns the build (walking the root, running `navmap-extract` on changed files in
//! parallel), resolution (names → edges with a confidence), storage (SQLite, incremental
//! rebuild, generations), ranking (hub scores) and clustering, and the read queries behind
//! the `map_*` tools. Returns plain Rust values.
//!
//! Must not touch: MCP, JSON envelopes or token budgets (the server crate shapes answers),
//! language servers (the lsp crate), tree-sitter (the extract crate), or any language by
//! name (languages are data, from `navmap-language`).
//!
//! ```no_run
//! use std::sync::Arc;
//! use navmap_map::{Map, MapConfig, RebuildOptions};
//! # fn registry() -> navmap_language::Registry { unimplemented!() }
//! let (map, warnings) = Map::open(MapConfig::new("/path/to/repo"), Arc::new(registry()))?;
//! let summary = map.rebuild(RebuildOptions::default(), &|_progress| {})?;
//! println!("{} files, {} symbols", summary.files, summary.symbols);
//! let hits = map.search("SessionStore", None, 20)?;
//! let callers = map.neighbors(&hits.results[0].node.id, navmap_map::Direction::In, None, 1, 50)?;
//! # let _ = (warnings, callers);
//! # Ok::<(), navmap_map::MapError>(())
//! ```
//!
//! # Design
//! - **The model lives in memory; SQLite persists it** (`model.rs`, `db.rs`). Queries and
//!   resolution never touch SQLite — but for each file's references and mentions in a map
//!   that answers ([`MapConfig::uses_on_demand`]: the answers about uses read them from the
//!   file's row, a rebuild loads them for the files it touches); a rebuild writes only the
//!   rows it changed. Each file's nodes, facts (references, imports, bindings, import
//!   targets) and resolved edges are compact blobs in its rows (`codec.rs`), so a cold
//!   build writes thousands of rows, not hundreds of thousands. Node indexes are stored
//!   and stable.
//! - **Compact in memory** (`model.rs`, issue 19): names and qualifiers are interned (one
//!   string of every name, a hash table of symbols), and so are a node's texts (qualified
//!   name, signature, doc) and a binding's, apart (`Model::texts`); a node ID is not kept
//!   but derived from the node's file, qualified name and duplicate number, and found
//!   through them (`Model::node_id`, `Model::find_id`); blobs are decoded from SQLite's row
//!   without a copy; the edges, a name's definitions, users and mentioners and a node's
//!   children are compressed sparse rows (`adjacency.rs`: one array per table, an overlay
//!   for the lists a rebuild edits); a file's references and mentions are packed
//!   variable-length integers (`packed.rs`); the tables and lists are sized exactly after a
//!   load, and SQLite's page cache is freed then.
//! - **Incremental by construction** (`build.rs`, `apply.rs`): size+mtime decide what to
//!   read, a blake3 hash decides what to re-extract; definitions keep their index when
//!   their node ID survives, so other files' edges into them stay valid. Re-resolved are
//!   the changed files, files whose edges pointed at removed definitions, and files that
//!   use a name whose definitions changed (added, removed, or changed kind, visibility or
//!   signature) or that a changed re-export may now lead elsewhere — never the whole
//!   repository for a one-file edit. A changed file set or resolver config file
//!   (`tsconfig.json`, `go.mod`, …, found by the walk) re-targets every import (cheap) and
//!   re-resolves references only in files whose targets moved.
//! - **Crash safety**: a file's rows are written in one transaction; a `dirty` flag spans
//!   a build, and a map opened dirty counts as not built until the next rebuild
//!   re-resolves everything.
//!   Every build ends by emptying SQLite's write-ahead log (`Db::checkpoint`): a CLI
//!   process ends without closing SQLite, and a log left behind is read whole by the next.
//! - **Opened to rebuild only** ([`MapConfig::rebuild_only`], `navmap rebuild` and
//!   `rebuild --full`): what only answers read — each file's mentions — stays encoded and
//!   is written back unchanged; a fresh build holds no file's uses past its row's writing
//!   (`build.rs`, `LeftUses`);
//!   and only the files its change reaches are loaded (`partial.rs`, with the index
//!   tables of `index.rs`): resolution's reads of what is not loaded are recorded and the
//!   pass runs again once they are, so the edges are those of the whole model.
//! - **Resolution** (`resolve.rs`, `infer.rs`): see the module docs for the order of
//!   rules and what is deliberately left unlinked. Receivers are typed from extraction's
//!   binding facts (`store: SessionStore`, `s = new SessionStore()`, `self.x = …`) and,
//!   failing those, from the one-line signatures.
//! - **Ranking** (`rank.rs`): PageRank mixed with degree, per generation, warm-started;
//!   skipped when a rebuild changed no edge or node.
//! - **Clusters** (`cluster.rs`): Louvain on the file graph, deterministic.
//! - **Search** (`search.rs`): an in-memory name index, updated per changed node; no
//!   allocation per name (names in one shared string); qualified names and paths read
//!   from the model and lower-cased as they are compared.
//! - **Concurrency**: `Map` is `Send + Sync`; queries take a read lock on the model;
//!   a rebuild is single-flight (a concurrent call joins the running one and gets its
//!   result when that one started after the call and covers it, else runs next) and
//!   holds the write lock only while applying an incremental change or swapping in a
//!   fresh build. Calls block: use `spawn_blocking` from async code.
//! - Figures and how to measure them: `docs/performance.md` (`navmap-bench`).
//!
//! # Known limits
//! - Inheritance changes propagate to other files' member lookups on their next
//!   re-resolution, not at once (a base class edited elsewhere does not re-resolve
//!   `obj.inherited()` calls in untouched files).
//! - A config file created where none existed is noticed by the walk, but only config
//!   files the resolver declares (by name) count.
//! - Unknown receivers (`x.method()` with `x` untyped) link only to top-level definitions
//!   of modules the file imports (else to methods of that name of their types), as
//!   candidates: recall is traded for precision.

mod adjacency;
mod apply;
mod build;
mod callees;
mod cluster;
mod codec;
mod db;
mod error;
mod fingerprint;
mod fresh;
mod frontend;
mod id;
mod index;
mod infer;
mod mentions;
mod model;
mod names;
mod packed;
mod partial;
mod precheck;
mod query;
mod query_analyses;
mod rank;
mod resolve;
mod search;
mod shapes;
mod types;
mod walk;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, RwLock};

use navmap_language::Registry;

pub use db::IN_MEMORY;
pub use error::MapError;
pub use id::{NodeIdParts, parse_node_id};
pub use navmap_extract::facts::{Confidence, EdgeKind, NodeKind};
/// Drops the resident pages of the program's own code and read-only data (the next access
/// faults them back from the file): between a build's phases, and after `serve`'s open.
pub use navmap_extract::release_code_pages;
pub use precheck::Precheck;
pub use types::*;

use crate::build::BuilderState;
use crate::db::{Db, Meta};
use crate::frontend::Frontend;
use crate::model::Model;

/// Everything derived from the model per generation: ranks, clusters, the search index.
/// Computed when first needed (a query), or at once when the map derives eagerly
/// ([`MapConfig::derive_eagerly`]: `serve`, in its background open); `navmap rebuild` never
/// needs it.
#[derive(Default)]
pub(crate) struct Derived {
    pub pagerank: Vec<f64>,
    pub score: Vec<f32>,
    pub clustering: cluster::Clustering,
    pub search: search::SearchIndex,
}

impl Derived {
    fn compute(model: &Model) -> Derived {
        let mut d = Derived::default();
        d.update(model, None);
        d
    }

    /// All of it (`None`), or what a change needs (ranks and clusters only when the graph
    /// changed, warm-started; search entries only for the changed nodes).
    fn update(&mut self, model: &Model, delta: Option<&build::Finished>) {
        let t = std::time::Instant::now();
        let graph = delta.is_none_or(|d| d.graph_changed);
        let previous_rank = match delta {
            Some(_) if graph => std::mem::take(&mut self.pagerank),
            _ => Vec::new(),
        };
        let previous_clusters = match delta {
            Some(_) if graph => std::mem::take(&mut self.clustering),
            _ => Default::default(),
        };
        let search = &mut self.search;
        // Independent of one another: on two cores, run them side by side.
        let (ranked, (clustered, ())) = rayon::join(
            || graph.then(|| rank::rank(model, &previous_rank)),
            || {
                rayon::join(
                    || graph.then(|| cluster::cluster(model, previous_clusters)),
                    || match delta {
                        None => *search = search::SearchIndex::build(model),
                        Some(d) => {
                            search.update(model, d.changed_nodes.iter().copied());
                            if search.needs_compaction() {
                                *search = search::SearchIndex::build(model);
                            }
                        }
                    },
                )
            },
        );
        if let Some(r) = ranked {
            self.pagerank = r.pagerank;
            self.score = r.score;
        }
        if let Some(c) = clustered {
            self.clustering = c;
        }
        tracing::debug!(
            ms = t.elapsed().as_secs_f64() * 1e3,
            graph,
            "ranks, clusters, search index"
        );
    }
}

pub(crate) struct State {
    pub model: Model,
    pub meta: Meta,
    /// A complete, consistent build is loaded.
    pub built: bool,
    /// Set on first use (readers share the one computation under the read lock).
    derived: std::sync::OnceLock<Derived>,
}

impl State {
    pub(crate) fn new(model: Model, meta: Meta, built: bool) -> State {
        State {
            model,
            meta,
            built,
            derived: std::sync::OnceLock::new(),
        }
    }

    /// Ranks, clusters and the search index of the current model, computed now if no one
    /// has needed them since the model last changed wholesale.
    pub(crate) fn derived(&self) -> &Derived {
        self.derived.get_or_init(|| Derived::compute(&self.model))
    }

    /// After the model changed: updates what was derived when it was (`delta`: an
    /// incremental change), else drops it, to be computed on first use — or now, when
    /// `eager`.
    pub(crate) fn refresh_derived(&mut self, delta: Option<&build::Finished>, eager: bool) {
        self.model.settle_edges();
        match (delta, self.derived.get_mut()) {
            (Some(d), Some(derived)) => derived.update(&self.model, Some(d)),
            _ => {
                self.derived = std::sync::OnceLock::new();
                if eager {
                    self.derived();
                }
            }
        }
    }
}

struct Flight {
    /// Flights are numbered in the order they start; a call joins only one that started
    /// after the call did (its walk sees what the caller wrote before calling).
    number: u64,
    /// The whole root, at least as deep as a joiner asks (`full` covers incremental).
    whole_root: bool,
    full: bool,
    result: Mutex<Option<Result<RebuildSummary, MapError>>>,
    done: Condvar,
}

impl Flight {
    /// A call with `opts`, made when flight `first` was the next to start, may take this
    /// flight's result as its own: the flight started after the call, covers the whole
    /// root, and re-reads everything if the call asks for that.
    fn serves(&self, first: u64, opts: &RebuildOptions) -> bool {
        self.number >= first && self.whole_root && (self.full || !opts.full)
    }
}

/// The running rebuild, if any, and the number the next one gets.
#[derive(Default)]
struct FlightSlot {
    running: Option<Arc<Flight>>,
    next: u64,
    /// The latest whole-root rebuild that succeeded (its result is set).
    last_whole_root: Option<Arc<Flight>>,
}

pub(crate) struct Inner {
    pub root: PathBuf,
    pub db_path: PathBuf,
    pub max_file_bytes: u64,
    pub derive_eagerly: bool,
    pub rebuild_only: bool,
    /// Set when files' references and mentions stay in the database
    /// ([`MapConfig::uses_on_demand`]): answers about uses read them with it.
    pub uses: Option<db::UsesReader>,
    pub registry: Arc<Registry>,
    /// The registry's extraction fingerprint (`fingerprint.rs`), written with every build.
    pub extraction: String,
    pub frontend: Arc<dyn Frontend>,
    pub state: RwLock<State>,
    pub db: Mutex<Db>,
    pub builder: Mutex<BuilderState>,
    /// [`MapConfig::walked`], until the first rebuild takes it.
    pub prior_walk: Mutex<Option<Arc<walk::Walked>>>,
    flight: Mutex<FlightSlot>,
}

/// The map of one repository. Cheap to clone (shared).
#[derive(Clone)]
pub struct Map {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Map")
            .field("root", &self.inner.root)
            .finish()
    }
}

fn poisoned<T>(_: T) -> MapError {
    MapError::Internal("a map lock was poisoned by an earlier panic".into())
}

impl Inner {
    /// Clears what a panic inside `rebuild_once` left poisoned, so the next rebuild runs
    /// instead of failing on the lock forever. The builder's state is dropped (its module
    /// resolver is made again); the database's open transaction was rolled back when the
    /// panic unwound through it; the model is replaced whole at the end of a build, so
    /// the one readers see is the last build's.
    fn recover_from_panic(&self) {
        if self.builder.is_poisoned() {
            *self
                .builder
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = BuilderState::default();
            self.builder.clear_poison();
        }
        self.db.clear_poison();
        self.state.clear_poison();
    }
}

impl Map {
    /// Opens (or creates) the map of `config.root`. Loads a previous build if there is one;
    /// the warnings say when the database had to be recreated or the last build was cut
    /// short. Does not build: call [`Map::rebuild`].
    pub fn open(
        config: MapConfig,
        registry: Arc<Registry>,
    ) -> Result<(Map, Vec<String>), MapError> {
        let frontend = Arc::new(frontend::Extract::new(&registry));
        Self::open_with(config, registry, frontend)
    }

    pub(crate) fn open_with(
        config: MapConfig,
        registry: Arc<Registry>,
        frontend: Arc<dyn Frontend>,
    ) -> Result<(Map, Vec<String>), MapError> {
        let root = config
            .root
            .canonicalize()
            .map_err(|e| MapError::bad_args("root", format!("{}: {e}", config.root.display())))?;
        if !root.is_dir() {
            return Err(MapError::bad_args(
                "root",
                format!("{} is not a directory", root.display()),
            ));
        }
        let db_path = config
            .db_path
            .clone()
            .unwrap_or_else(|| root.join(".navmap").join("map.db"));
        // navmap's own folder in the root ignores itself.
        let own_dir = root.join(".navmap");
        if db_path.starts_with(&own_dir) {
            std::fs::create_dir_all(&own_dir)
                .map_err(|e| MapError::internal(format!("creating {}: {e}", own_dir.display())))?;
            let ignore = own_dir.join(".gitignore");
            // Not `exists()`: a dangling symlink planted there must not be written through.
            if std::fs::symlink_metadata(&ignore).is_err() {
                std::fs::write(&ignore, "*\n").map_err(|e| {
                    MapError::internal(format!("writing {}: {e}", ignore.display()))
                })?;
            }
        }
        let mut warnings = Vec::new();
        let mut db = Db::open(&db_path, &mut warnings)?;
        let uses_on_demand =
            config.uses_on_demand && !config.rebuild_only && !db::is_in_memory(&db_path);
        let mut model = Model::default();
        // Not loaded for a full rebuild: it would be freed only after the new build is
        // made, doubling the peak (`MapConfig::load_previous`).
        // `navmap rebuild` loads only what its change reaches (`partial.rs`).
        let read = db.read_meta().and_then(|meta| {
            if !config.load_previous {
                return Ok(meta);
            }
            if config.rebuild_only && !meta.dirty && db.load_partial(&mut model, meta.counts)? {
                return Ok(meta);
            }
            model = Model::default();
            db.load(&mut model, config.rebuild_only, uses_on_demand)
                .map(|()| meta)
        });
        let mut meta = read.as_ref().cloned().unwrap_or_default();
        let extraction = fingerprint::extraction_fingerprint(&registry);
        let why_from_scratch = match &read {
            Err(e) => Some(format!("{e}; rebuilding the map from scratch")),
            // A build's facts were extracted with its navmap's queries and rules: another
            // navmap's would answer with facts this one no longer extracts (or lacks
            // facts it does), every unchanged file for ever.
            Ok(meta) if meta.generation > 0 && meta.extraction.as_deref() != Some(&extraction) => {
                Some(
                    "the map was built by a navmap with other grammars or extraction rules; \
                     rebuilding it from scratch"
                        .to_string(),
                )
            }
            Ok(_) => None,
        };
        if let Some(why) = why_from_scratch {
            warnings.push(why);
            db.recreate()?;
            model = Model::default();
            meta = Meta::default();
        }
        // Before anything is extracted: queries compiled from here on are built from the
        // analyses earlier builds kept (`query_analyses.rs`).
        navmap_extract::offer_query_analyses(std::mem::take(&mut meta.query_analyses));
        let has_build = meta.generation > 0 && meta.built_at.is_some();
        if meta.dirty && has_build {
            warnings
                .push("the last build was interrupted; the next rebuild repairs the map".into());
        }
        let built = has_build && !meta.dirty && config.load_previous;
        // What SQLite cached while the model was read is not read again (issue 19).
        db.release_memory();
        let state = State::new(model, meta, built);
        if built && config.derive_eagerly {
            state.derived();
        }
        for w in &warnings {
            tracing::warn!("{w}");
        }
        // A walk of another root (or of this one before it was made canonical) is not this
        // root's.
        let prior_walk = config.walked.filter(|w| w.root == root).map(|w| w.walked);
        let uses = uses_on_demand.then(|| db::UsesReader::new(&db_path));
        let inner = Inner {
            root,
            db_path,
            max_file_bytes: config.max_file_bytes,
            derive_eagerly: config.derive_eagerly,
            rebuild_only: config.rebuild_only,
            uses,
            registry,
            extraction,
            frontend,
            state: RwLock::new(state),
            db: Mutex::new(db),
            builder: Mutex::new(BuilderState::default()),
            prior_walk: Mutex::new(prior_walk),
            flight: Mutex::new(FlightSlot::default()),
        };
        Ok((
            Map {
                inner: Arc::new(inner),
            },
            warnings,
        ))
    }

    pub fn root(&self) -> &Path {
        &self.inner.root
    }

    pub fn db_path(&self) -> &Path {
        &self.inner.db_path
    }

    /// Brings the map up to date with the disk. Single-flight: a call made while a
    /// rebuild runs joins it and returns its summary when that rebuild started after the
    /// call did and covers what the call asks (the whole root, `full` if asked); otherwise
    /// it waits for the running one to end and starts (or joins) the next. So a caller that
    /// wrote a file and then calls `rebuild` always gets a map that has read it. `progress`
    /// is called on this thread, by the caller that started the build only.
    pub fn rebuild(
        &self,
        opts: RebuildOptions,
        progress: &dyn Fn(Progress),
    ) -> Result<RebuildSummary, MapError> {
        let first = self.inner.flight.lock().map_err(poisoned)?.next;
        self.rebuild_since(first, opts, progress)
    }

    /// A rebuild of the map as it was on disk when the map was opened, at least: any
    /// whole-root rebuild since then serves (joined if running, its result if finished).
    /// What `navmap serve`'s start-up build and a first call's build want: an agent's
    /// `map_rebuild` that got there first has done their work (they must not run a second
    /// build behind it, whose walk could overtake the agent's next edit).
    pub fn rebuild_since_open(
        &self,
        opts: RebuildOptions,
        progress: &dyn Fn(Progress),
    ) -> Result<RebuildSummary, MapError> {
        self.rebuild_since(0, opts, progress)
    }

    /// [`Map::rebuild`] for a call that any rebuild numbered `first` or later serves.
    fn rebuild_since(
        &self,
        first: u64,
        opts: RebuildOptions,
        progress: &dyn Fn(Progress),
    ) -> Result<RebuildSummary, MapError> {
        let flight = loop {
            let running = {
                let mut slot = self.inner.flight.lock().map_err(poisoned)?;
                if slot.running.is_none()
                    && let Some(done) = &slot.last_whole_root
                    && done.serves(first, &opts)
                    && let Some(result) = done.result.lock().map_err(poisoned)?.clone()
                {
                    return result;
                }
                match &slot.running {
                    Some(f) => f.clone(),
                    None => {
                        let f = Arc::new(Flight {
                            number: slot.next,
                            whole_root: opts.paths.is_none(),
                            full: opts.full,
                            result: Mutex::new(None),
                            done: Condvar::new(),
                        });
                        slot.next += 1;
                        slot.running = Some(f.clone());
                        break f;
                    }
                }
            };
            let mut r = running.result.lock().map_err(poisoned)?;
            while r.is_none() {
                r = running.done.wait(r).map_err(poisoned)?;
            }
            if running.serves(first, &opts) {
                return r.clone().expect("set");
            }
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.inner.rebuild_once(&opts, progress)
        }))
        .unwrap_or_else(|p| {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            self.inner.recover_from_panic();
            Err(MapError::Internal(format!("rebuild panicked: {msg}")))
        });
        // The result first, then free the slot, then wake the joiners: one that this
        // flight does not serve starts the next at once. A failed build serves no later
        // call (the start-up build tries again).
        *flight.result.lock().map_err(poisoned)? = Some(result.clone());
        {
            let mut slot = self.inner.flight.lock().map_err(poisoned)?;
            slot.running = None;
            if flight.whole_root && result.is_ok() {
                slot.last_whole_root = Some(flight.clone());
            }
        }
        flight.done.notify_all();
        result
    }

    /// The generation of a whole build that another process wrote into the map's database
    /// since this map last built or loaded one (a shell `navmap rebuild` beside `serve`),
    /// when the map reads its uses from there ([`MapConfig::uses_on_demand`]): until it
    /// loads that build, its answers about uses cannot be checked
    /// (`MentionCheck::unavailable`). `serve` asks before an answer and rebuilds, which
    /// loads that build (`build.rs`, `rewritten_elsewhere`). `None` when the database
    /// holds this map's build, is being rebuilt (or was left unfinished), cannot be read,
    /// or the map keeps its uses itself. One read of two `meta` rows.
    pub fn rebuilt_elsewhere(&self) -> Option<u64> {
        let reader = self.inner.uses.as_ref()?;
        let ours = self.read().ok()?.meta.generation;
        match reader.build_held() {
            Ok((theirs, false)) if theirs != ours => Some(theirs),
            _ => None,
        }
    }

    /// True while a rebuild runs.
    pub fn is_building(&self) -> bool {
        self.inner
            .flight
            .lock()
            .map(|f| f.running.is_some())
            .unwrap_or(false)
    }

    fn read(&self) -> Result<std::sync::RwLockReadGuard<'_, State>, MapError> {
        self.inner.state.read().map_err(poisoned)
    }

    /// How many indexed files' contents (nodes, edges, facts) the model holds, of how many:
    /// a map opened to rebuild only loads what its rebuilds reach (issue 19). For tests
    /// and the bench.
    #[doc(hidden)]
    pub fn files_loaded(&self) -> Result<(usize, usize), MapError> {
        let st = self.read()?;
        let m = &st.model;
        let indexed: Vec<_> = m
            .files
            .iter()
            .flatten()
            .filter(|f| f.node.is_some())
            .collect();
        Ok((indexed.iter().filter(|f| f.loaded).count(), indexed.len()))
    }

    pub fn is_built(&self) -> bool {
        self.read().map(|s| s.built).unwrap_or(false)
    }

    /// The languages of the files the map holds (skipped files aside), once it is built;
    /// `None` before, or while a build holds the model (callers that must not wait fall
    /// back to a look of their own).
    pub fn languages_if_built(&self) -> Option<std::collections::BTreeSet<String>> {
        let st = self.inner.state.try_read().ok()?;
        if !st.built {
            return None;
        }
        let m = &st.model;
        Some(
            m.file_ixs()
                .map(|f| m.f(f))
                .filter(|r| r.skipped.is_none())
                .map(|r| m.lang(r.lang).to_string())
                .collect(),
        )
    }

    /// The current generation (0 before the first build).
    pub fn generation(&self) -> u64 {
        self.read().map(|s| s.meta.generation).unwrap_or(0)
    }

    pub fn status(&self) -> Result<Status, MapError> {
        let building = self.is_building();
        Ok(self
            .read()?
            .status(&self.inner.root, &self.inner.db_path, building))
    }

    /// `map_overview`: clusters with their hubs, optionally within a subtree.
    pub fn overview(
        &self,
        focus: Option<&str>,
        hubs_per_cluster: usize,
    ) -> Result<Overview, MapError> {
        self.read()?.overview(focus, hubs_per_cluster)
    }

    /// `map_search`: `query` of 2+ characters, optional kind filter, `limit` 1–100.
    pub fn search(
        &self,
        query: &str,
        kind: Option<NodeKind>,
        limit: usize,
    ) -> Result<SearchResults, MapError> {
        self.read()?.search(&self.root_name(), query, kind, limit)
    }

    /// The nodes a name as an agent writes it stands for (`Session.get_adapter`,
    /// `requests.get`, `sessions.py#Session`, a full node ID), best first, at most
    /// `limit`; when none, the nearest names (contract §3, "Addressing by name").
    pub fn find_symbol(&self, name: &str, limit: usize) -> Result<SymbolMatches, MapError> {
        self.read()?.find_symbol(&self.root_name(), name, limit)
    }

    /// The root directory's name: the first part of every symbol's chain (`gin` of
    /// `gin.Context`).
    fn root_name(&self) -> String {
        self.inner
            .root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// `map_neighbors`: best-first (depth, then hub score); candidates are listed once and
    /// not expanded. `depth` 1–3, `max_nodes` 1–200; `edge_kinds` `None` = all.
    pub fn neighbors(
        &self,
        id: &str,
        direction: Direction,
        edge_kinds: Option<&[EdgeKind]>,
        depth: u32,
        max_nodes: usize,
    ) -> Result<NeighborsResult, MapError> {
        self.read()?
            .neighbors(id, direction, edge_kinds, None, depth, max_nodes)
    }

    /// [`Map::neighbors`] reporting only neighbors of `node_kinds` ("the methods of X");
    /// nodes of other kinds are still walked through at depth > 1. `total` counts the
    /// neighbors of those kinds.
    pub fn neighbors_of_kind(
        &self,
        id: &str,
        direction: Direction,
        edge_kinds: Option<&[EdgeKind]>,
        node_kinds: Option<&[NodeKind]>,
        depth: u32,
        max_nodes: usize,
    ) -> Result<NeighborsResult, MapError> {
        self.read()?
            .neighbors(id, direction, edge_kinds, node_kinds, depth, max_nodes)
    }

    /// The mentions of a node's name that the map did not link to it, after the
    /// exclusion rule of `mentions.rs` (docs/answers.md): what an answer about the node's
    /// uses must account for. Empty for files and modules.
    ///
    /// When the references and mentions it reads from the database are not this map's
    /// build there ([`MapConfig::uses_on_demand`]), the check is
    /// [`MentionCheck::unavailable`] with the reason, not an error: the answer's edges
    /// still hold. Other errors (an unknown node …) stay errors.
    pub fn mention_check(&self, id: &str) -> Result<MentionCheck, MapError> {
        self.require_mentions()?;
        let registry = &self.inner.registry;
        let structural = |lang: &str| {
            registry
                .by_id(lang)
                .is_some_and(|l| l.manifest.structural_interfaces)
        };
        unavailable_when_unreadable(self.read()?.mention_check(
            id,
            self.inner.uses.as_ref(),
            &structural,
        ))
    }

    /// The calls (and value uses of functions) in a node's own text whose names the map
    /// defines: `linked_sites` those a `calls` edge from it links, `unlinked` the rest
    /// (`callees.rs`): what an answer about what the node calls must account for.
    /// Unavailable like [`Map::mention_check`] when the database cannot give them.
    pub fn callee_check(&self, id: &str) -> Result<MentionCheck, MapError> {
        self.require_mentions()?;
        unavailable_when_unreadable(self.read()?.callee_check(id, self.inner.uses.as_ref()))
    }

    /// A map opened to rebuild only keeps mentions encoded ([`MapConfig::rebuild_only`]).
    fn require_mentions(&self) -> Result<(), MapError> {
        if self.inner.rebuild_only {
            return Err(MapError::Internal(
                "the map was opened to rebuild only: mentions are not loaded".into(),
            ));
        }
        Ok(())
    }

    /// `map_path`: a shortest path over resolved edges, each followed in its own direction
    /// (`contains` only from a container to its member, never back up),
    /// `max_len` 1–10 edges.
    pub fn path(
        &self,
        from: &str,
        to: &str,
        edge_kinds: Option<&[EdgeKind]>,
        max_len: u32,
    ) -> Result<PathResult, MapError> {
        self.read()?.path(from, to, edge_kinds, max_len)
    }

    /// One node's view.
    pub fn node(&self, id: &str) -> Result<NodeView, MapError> {
        let st = self.read()?;
        st.require_built()?;
        let ix = st.lookup(id)?;
        Ok(st.view(ix))
    }

    /// The file node and every definition of a file, in source order; empty when the
    /// file is not in the map.
    pub fn nodes_in_file(&self, file: &str) -> Result<Vec<NodeView>, MapError> {
        self.read()?.nodes_in_file(file)
    }

    /// The language of a root-relative file as the map decides it, other languages'
    /// `[[claims]]` included (a `.h` holding C++ is C++): the one it was indexed with, else
    /// decided now from its directory and its text (a file the map has not seen yet).
    /// Reads nothing outside the root: a path that resolves outside it (through a symlink)
    /// is decided by its extension alone.
    pub fn language_of(&self, file: &str) -> Option<Arc<navmap_language::Language>> {
        if let Ok(st) = self.read()
            && let Some(&f) = st.model.file_by_path.get(file)
        {
            let id = st.model.lang(st.model.f(f).lang);
            return self.inner.registry.by_id(id).cloned();
        }
        let abs = self.inner.root.join(file);
        let inside = match (abs.canonicalize(), self.inner.root.canonicalize()) {
            (Ok(real), Ok(root)) => real.starts_with(root),
            _ => false,
        };
        if !inside || id::check_path(file).is_err() {
            return self.inner.registry.for_path(file).cloned();
        }
        walk::language_of(&self.inner.registry, file, &abs, &mut Default::default()).cloned()
    }

    /// Every indexed file (root-relative), sorted.
    pub fn files(&self) -> Result<Vec<String>, MapError> {
        let st = self.read()?;
        let m = &st.model;
        let mut v: Vec<String> = m
            .indexed_file_ixs()
            .map(|f| m.f(f).path.to_string())
            .collect();
        v.sort();
        Ok(v)
    }

    /// Flags files as changed on disk since indexing (until a rebuild looks at them).
    /// Returns how many map files were newly flagged; unknown paths are ignored.
    pub fn mark_stale(&self, files: &[String]) -> Result<usize, MapError> {
        let mut st = self.inner.state.write().map_err(poisoned)?;
        let mut n = 0;
        for p in files {
            if let Some(&f) = st.model.file_by_path.get(p.as_str()) {
                let rec = st.model.f_mut(f);
                if !rec.stale {
                    rec.stale = true;
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// Files currently flagged stale.
    pub fn stale_files(&self) -> Result<Vec<String>, MapError> {
        Ok(self.read()?.stale_files(|_| true))
    }
}

/// A check whose uses the database cannot give ([`MapError::Unreadable`]) is an
/// unavailable check, with the reason; any other error stays one.
fn unavailable_when_unreadable(
    check: Result<MentionCheck, MapError>,
) -> Result<MentionCheck, MapError> {
    match check {
        Err(MapError::Unreadable(why)) => Ok(MentionCheck::unavailable(why)),
        other => other,
    }
}
