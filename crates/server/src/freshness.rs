//! Keeping the map fresh while `navmap serve` runs (contract §4; `docs/freshness.md`).
//!
//! - **Start-up** ([`start`]): a persisted map is checked against the disk (size + mtime,
//!   a `stat` per file) and the files that changed are marked stale at once; then the
//!   background build runs (unless `--no-build`).
//! - **Watcher** (navmap-watch, the build's own ignore rules): `changed` marks the files
//!   stale at once (and tells running language servers); `settled` (300 ms of quiet, at
//!   most 2 s after the first change) queues the burst for one worker thread, which folds
//!   everything queued while it was busy into a single incremental rebuild (`rescan`: the
//!   whole root, still incremental). The map's single-flight rebuild never hands the worker
//!   a build whose walk predates its call, so no burst is lost.
//! - **Re-check**: a rebuild clears the stale flag of every file it walked, even one that
//!   changed after the walk. After each rebuild run here, the files changed since the
//!   last check are compared with the disk again (`Map::changed_on_disk`) and re-marked.
//! - **Read-through** ([`Freshness::read_through`]): before a map answer, when at most
//!   [`READ_THROUGH_MAX_FILES`] files are stale, they are re-indexed first, waiting at most
//!   [`READ_THROUGH_CAP`]; a slower refresh finishes in the background and the answer
//!   warns about what is still stale.
//! - **Status** ([`Freshness::watching`]): `map_status.watching`, and a warning when the
//!   watcher is polling or stopped.
//!
//! Tuning (tests, slow file systems): `NAVMAP_WATCH_QUIET_MS`, `NAVMAP_WATCH_MAX_WAIT_MS`,
//! `NAVMAP_WATCH_POLL=1` (poll instead of OS notifications), `NAVMAP_WATCH_POLL_MS`.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use navmap_lsp::LspPool;
use navmap_map::{Map, MapError, RebuildOptions, RebuildSummary};
use navmap_watch::{Changes, Mode, Options, Watcher, sink_fn};
use serde_json::{Value, json};

use crate::ServerContext;
use crate::startup::env_ms;

/// Read-through refresh re-indexes at most this many stale files before an answer.
pub const READ_THROUGH_MAX_FILES: usize = 20;
/// ... and waits at most this long for it.
pub const READ_THROUGH_CAP: Duration = Duration::from_millis(50);
/// A map older than this, with no watcher keeping it fresh, earns a gentle warning.
pub const AGE_WARNING: Duration = Duration::from_secs(3 * 3600);
/// Paths queued for the next rebuild; past it, the rebuild covers the whole root.
const MAX_QUEUED: usize = 100_000;
/// Paths remembered for the re-check; past it, the re-check covers every file.
const MAX_RECENT: usize = 50_000;
/// Paths passed to the language servers in one notification.
const MAX_LSP_NOTIFY: usize = 5_000;
/// How long the cached `builtAt` is trusted.
const BUILT_AT_TTL: Duration = Duration::from_secs(60);

/// What `navmap serve` starts.
#[derive(Debug, Clone, Copy)]
pub struct StartOptions {
    /// Build the map in the background (`--no-build` clears it).
    pub build: bool,
    /// Start the file watcher (`--no-watch` clears it).
    pub watch: bool,
}

/// The freshness machinery of one served root. Inert until [`start`].
pub struct Freshness {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Freshness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Freshness")
    }
}

struct Shared {
    map: Map,
    lsp: LspPool,
    root: PathBuf,
    /// The map database's path relative to the root, when it lives inside it outside
    /// `.navmap/`: its own writes are not code changes.
    db_rel: Option<String>,
    watch: Mutex<Watch>,
    work: Mutex<Work>,
    wake: Condvar,
    /// Rebuilds run by the watcher's worker.
    rebuilds: AtomicU64,
    /// Read-through refreshes started.
    refreshes: AtomicU64,
    built_at: Mutex<Option<(Instant, Option<u64>)>>,
    /// The generation of the last build another process wrote that a read-through loaded
    /// (or tried to): tried once per build, not before every answer.
    loaded_elsewhere: AtomicU64,
}

enum Watch {
    Off(String),
    Starting,
    On(Watcher),
    Failed(String),
}

#[derive(Default)]
struct Work {
    /// Settled paths waiting for the worker.
    queue: BTreeSet<String>,
    rescan: bool,
    stop: bool,
    worker_started: bool,
    /// The worker is rebuilding.
    busy: bool,
    /// Paths changed since the last re-check.
    recent: HashSet<String>,
    /// Too many (or unknown) changes to list: re-check every file.
    recheck_all: bool,
    last: Option<Value>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Freshness {
    pub fn new(map: Map, lsp: LspPool, root: &Path, db_path: &Path) -> Freshness {
        // The root is canonical; the database path may not be (its file may not exist yet).
        let db_path = match (db_path.parent(), db_path.file_name()) {
            (Some(dir), Some(name)) => dir
                .canonicalize()
                .map(|d| d.join(name))
                .unwrap_or_else(|_| db_path.to_path_buf()),
            _ => db_path.to_path_buf(),
        };
        let db_rel = db_path
            .strip_prefix(root)
            .ok()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .filter(|p| !p.is_empty());
        Freshness {
            shared: Arc::new(Shared {
                map,
                lsp,
                root: root.to_path_buf(),
                db_rel,
                watch: Mutex::new(Watch::Off("not serving (navmap call/status)".into())),
                work: Mutex::new(Work::default()),
                wake: Condvar::new(),
                rebuilds: AtomicU64::new(0),
                refreshes: AtomicU64::new(0),
                built_at: Mutex::new(None),
                loaded_elsewhere: AtomicU64::new(0),
            }),
        }
    }

    /// A rebuild of the whole root followed by the re-check of changed files: what the
    /// start-up build and a first call's build run. Any whole-root rebuild since the map
    /// opened serves them (`Map::rebuild_since_open`): an agent's `map_rebuild` that came
    /// first is not followed by a second build.
    pub fn rebuild_checked(
        &self,
        opts: RebuildOptions,
        progress: &dyn Fn(navmap_map::Progress),
    ) -> Result<RebuildSummary, MapError> {
        let r = self.shared.map.rebuild_since_open(opts, progress);
        self.shared.recheck();
        r
    }

    /// Read-through refresh: when a few files (at most [`READ_THROUGH_MAX_FILES`]) are
    /// stale, re-index them before a map answer, waiting at most [`READ_THROUGH_CAP`]. Also
    /// refreshes the cached `builtAt` behind [`Freshness::age_warning`].
    pub async fn read_through(&self) {
        let shared = self.shared.clone();
        let task = tokio::task::spawn_blocking(move || shared.refresh_few());
        // Past the cap the refresh carries on; the answer warns about what is still stale.
        let _ = tokio::time::timeout(READ_THROUGH_CAP, task).await;
    }

    /// Loads a build another process wrote into the map's database, when there is one
    /// (what the read-through does first; see `Shared::load_build_made_elsewhere`). For
    /// answers that read the map's uses without a read-through (the `nav_*` tools'
    /// crossing with the map's mentions). Blocking; one read of the database's `meta`
    /// rows when there is nothing to load.
    pub fn load_build_made_elsewhere(&self) {
        if self.shared.map.is_built() {
            self.shared.load_build_made_elsewhere();
        }
    }

    /// What one-shot commands (`navmap call`, `navmap status`) do instead of [`start`]:
    /// the start-up check against the disk (changed files marked stale), then the
    /// read-through refresh of those files when they are few, waited for in full (there is
    /// no background to finish it). Blocking. Whatever is still stale afterwards is
    /// flagged and warned about by the answer as usual.
    pub fn check_now(&self) {
        self.shared.mark_changed_on_disk();
        self.shared.refresh_few();
    }

    /// The gentle warning for an old map with no watcher keeping it fresh, from the
    /// `builtAt` cached by [`Freshness::read_through`] (or given).
    pub fn age_warning(&self, built_at: Option<u64>) -> Option<String> {
        if self.is_watching() {
            return None;
        }
        let built_at = built_at.or_else(|| (*lock(&self.shared.built_at)).and_then(|(_, b)| b))?;
        let age = unix_now().saturating_sub(built_at);
        (age > AGE_WARNING.as_secs()).then(|| {
            format!(
                "The map was last rebuilt {} h ago and no file watcher keeps it fresh; call map_rebuild if the code changed since.",
                age / 3600
            )
        })
    }

    fn is_watching(&self) -> bool {
        match &*lock(&self.shared.watch) {
            Watch::On(w) => w.status().mode != Mode::Stopped,
            Watch::Starting => true,
            _ => false,
        }
    }

    /// `map_status.watching`: `{mode, detail, rebuilds, refreshes, queued, rebuilding,
    /// lastRebuild?}` (`mode`: native, polling, stopped, starting or off), and a warning
    /// when the watcher is degraded (polling) or has stopped.
    pub fn watching(&self) -> (Value, Option<String>) {
        let (mode, detail) = match &*lock(&self.shared.watch) {
            Watch::Off(why) => ("off".to_string(), why.clone()),
            Watch::Starting => ("starting".into(), "adding watches for the root".into()),
            Watch::On(w) => {
                let s = w.status();
                (s.mode.as_str().to_string(), s.detail)
            }
            Watch::Failed(why) => ("stopped".into(), why.clone()),
        };
        let warning = match mode.as_str() {
            "polling" => Some(format!(
                "The file watcher is degraded to polling ({detail}): changes reach the map a few seconds late."
            )),
            "stopped" => Some(format!(
                "The file watcher is not running ({detail}): the map is refreshed only by map_rebuild."
            )),
            _ => None,
        };
        let w = lock(&self.shared.work);
        let mut v = json!({
            "mode": mode,
            "detail": detail,
            "rebuilds": self.shared.rebuilds.load(Ordering::Relaxed),
            "refreshes": self.shared.refreshes.load(Ordering::Relaxed),
            "queued": w.queue.len(),
            "rebuilding": w.busy,
        });
        if w.rescan {
            v["queuedRescan"] = true.into();
        }
        if let Some(last) = &w.last {
            v["lastRebuild"] = last.clone();
        }
        (v, warning)
    }
}

impl Drop for Freshness {
    fn drop(&mut self) {
        lock(&self.shared.work).stop = true;
        self.shared.wake.notify_all();
        // Dropping the watcher stops and joins its thread.
        let watch = std::mem::replace(&mut *lock(&self.shared.watch), Watch::Off("stopped".into()));
        drop(watch);
    }
}

/// Starts what `navmap serve` keeps running: the start-up check, the background build and
/// the watcher (see the module docs). Returns at once.
pub fn start(ctx: &Arc<ServerContext>, opts: StartOptions) {
    let shared = ctx.freshness.shared.clone();
    if opts.watch {
        *lock(&shared.watch) = Watch::Starting;
        start_watcher(&shared);
    } else {
        *lock(&shared.watch) = Watch::Off("disabled by --no-watch".into());
    }
    let ctx = ctx.clone();
    let spawned = std::thread::Builder::new()
        .name("navmap-startup".into())
        .spawn(move || {
            ctx.freshness.shared.mark_changed_on_disk();
            if !opts.build {
                return;
            }
            let r = ctx
                .freshness
                .rebuild_checked(RebuildOptions::default(), &|p| ctx.map_progress.emit(p));
            match r {
                Ok(s) => tracing::info!(
                    files = s.files,
                    indexed = s.files_indexed,
                    symbols = s.symbols,
                    edges = s.edges,
                    ms = s.duration_ms,
                    "map built"
                ),
                Err(e) => tracing::warn!("map build failed: {e}"),
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("cannot start the start-up thread: {e}");
    }
}

fn watch_options() -> Options {
    let mut o = Options::default();
    if let Some(d) = env_ms("NAVMAP_WATCH_QUIET_MS") {
        o.quiet = d;
    }
    if let Some(d) = env_ms("NAVMAP_WATCH_MAX_WAIT_MS") {
        o.max_wait = d.max(o.quiet);
    }
    if let Some(d) = env_ms("NAVMAP_WATCH_POLL_MS") {
        o.poll_interval = d;
    }
    o.force_polling =
        std::env::var("NAVMAP_WATCH_POLL").is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes"));
    o
}

/// Adds the watches on a thread of its own (a large tree takes a while) and starts the
/// rebuild worker.
fn start_watcher(shared: &Arc<Shared>) {
    {
        let mut w = lock(&shared.work);
        if !w.worker_started {
            w.worker_started = true;
            let s = shared.clone();
            if let Err(e) = std::thread::Builder::new()
                .name("navmap-refresh".into())
                .spawn(move || s.worker())
            {
                tracing::warn!("cannot start the refresh worker: {e}");
            }
        }
    }
    let weak = Arc::downgrade(shared);
    let root = shared.root.clone();
    let spawned = std::thread::Builder::new()
        .name("navmap-watch-start".into())
        .spawn(move || {
            let (w1, w2) = (weak.clone(), weak.clone());
            let sink = sink_fn(
                move |c: &Changes| {
                    if let Some(s) = w1.upgrade() {
                        s.on_changed(c);
                    }
                },
                move |c: Changes| {
                    if let Some(s) = w2.upgrade() {
                        s.on_settled(c);
                    }
                },
            );
            let started = Watcher::start(&root, watch_options(), sink);
            let Some(shared) = weak.upgrade() else { return };
            let mut slot = lock(&shared.watch);
            match started {
                Ok(w) => {
                    let st = w.status();
                    tracing::info!(mode = st.mode.as_str(), detail = %st.detail, "watching");
                    if matches!(*slot, Watch::Starting) {
                        *slot = Watch::On(w);
                    }
                }
                Err(e) => {
                    tracing::warn!("the file watcher could not start: {e}");
                    *slot = Watch::Failed(format!("could not start: {e}"));
                }
            }
        });
    if let Err(e) = spawned {
        *lock(&shared.watch) = Watch::Failed(format!("could not start a thread: {e}"));
    }
}

impl Shared {
    /// The start-up check: files changed on disk since they were indexed are marked stale.
    fn mark_changed_on_disk(&self) {
        if !self.map.is_built() {
            return;
        }
        match self.map.changed_on_disk(None) {
            Ok(changed) if !changed.is_empty() => {
                tracing::info!(
                    files = changed.len(),
                    "changed since the last index; marked stale"
                );
                let _ = self.map.mark_stale(&changed);
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("start-up check failed: {e}"),
        }
    }

    /// The body of the read-through refresh: load a build another process made, then
    /// re-index the stale files when they are few.
    fn refresh_few(&self) {
        self.refresh_built_at();
        if !self.map.is_built() {
            return;
        }
        self.load_build_made_elsewhere();
        let Ok(stale) = self.map.stale_files() else {
            return;
        };
        if stale.is_empty() || stale.len() > READ_THROUGH_MAX_FILES {
            return;
        }
        self.refreshes.fetch_add(1, Ordering::Relaxed);
        let opts = RebuildOptions {
            paths: Some(stale),
            full: false,
        };
        if let Err(e) = self.map.rebuild(opts, &|_| {}) {
            tracing::warn!("read-through refresh failed: {e}");
        }
        self.recheck();
    }

    /// A shell `navmap rebuild` beside `serve` leaves the database holding another build:
    /// answers about uses, which read it, could not be checked until the server's next
    /// rebuild, and the watcher sees no code change to start one. So before an answer a
    /// rebuild runs here, which loads that build in place of the model (milliseconds,
    /// `Map::rebuilt_elsewhere`) and re-indexes what changed since. Once per such build;
    /// not while a rebuild of the server's own runs (it checks the database itself).
    fn load_build_made_elsewhere(&self) {
        if self.map.is_building() {
            return;
        }
        let Some(theirs) = self.map.rebuilt_elsewhere() else {
            return;
        };
        if self.loaded_elsewhere.swap(theirs, Ordering::Relaxed) == theirs {
            return;
        }
        tracing::info!(
            generation = theirs,
            "the map database holds a build made elsewhere: loading it"
        );
        self.refreshes.fetch_add(1, Ordering::Relaxed);
        let opts = RebuildOptions {
            paths: None,
            full: false,
        };
        if let Err(e) = self.map.rebuild(opts, &|_| {}) {
            tracing::warn!("loading the build made elsewhere failed: {e}");
        }
        self.recheck();
    }

    /// Drops the map database's own files (when it lives in the root outside `.navmap/`).
    fn code_paths(&self, paths: &[String]) -> Vec<String> {
        paths
            .iter()
            .filter(|p| match &self.db_rel {
                Some(db) => !(p.as_str() == db || p.starts_with(&format!("{db}-"))),
                None => true,
            })
            .cloned()
            .collect()
    }

    /// The watcher's immediate signal: mark stale, remember for the re-check, tell the
    /// language servers.
    fn on_changed(&self, changes: &Changes) {
        let paths = self.code_paths(&changes.paths);
        {
            let mut w = lock(&self.work);
            if changes.rescan || w.recent.len() + paths.len() > MAX_RECENT {
                w.recent.clear();
                w.recheck_all = true;
            } else {
                w.recent.extend(paths.iter().cloned());
            }
        }
        if paths.is_empty() {
            return;
        }
        // A path that is gone may have been a directory: its files are stale too.
        let mut files = paths.clone();
        let gone: Vec<String> = paths
            .iter()
            .filter(|p| !self.root.join(p).exists())
            .map(|p| format!("{p}/"))
            .collect();
        if !gone.is_empty()
            && let Ok(all) = self.map.files()
        {
            files.extend(
                all.into_iter()
                    .filter(|f| gone.iter().any(|d| f.starts_with(d.as_str()))),
            );
        }
        match self.map.mark_stale(&files) {
            Ok(n) if n > 0 => tracing::debug!(files = n, "marked stale"),
            Ok(_) => {}
            Err(e) => tracing::warn!("marking files stale failed: {e}"),
        }
        if paths.len() <= MAX_LSP_NOTIFY {
            let abs: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
            self.lsp.notify_files_changed(&abs);
        }
    }

    /// The watcher's debounced signal: queue the burst for the worker.
    fn on_settled(&self, changes: Changes) {
        let paths = self.code_paths(&changes.paths);
        let mut w = lock(&self.work);
        if changes.rescan {
            w.rescan = true;
            w.queue.clear();
        } else if !w.rescan {
            w.queue.extend(paths);
            if w.queue.len() > MAX_QUEUED {
                w.queue.clear();
                w.rescan = true;
            }
        }
        drop(w);
        self.wake.notify_all();
    }

    /// Takes everything queued, rebuilds once, re-checks; until told to stop.
    fn worker(self: Arc<Self>) {
        loop {
            let (paths, rescan) = {
                let mut w = lock(&self.work);
                while !w.stop && w.queue.is_empty() && !w.rescan {
                    w = self.wake.wait(w).unwrap_or_else(PoisonError::into_inner);
                }
                if w.stop {
                    return;
                }
                w.busy = true;
                (std::mem::take(&mut w.queue), std::mem::take(&mut w.rescan))
            };
            let scope = if rescan {
                "everything".to_string()
            } else {
                format!("{} path(s)", paths.len())
            };
            let opts = RebuildOptions {
                paths: (!rescan).then(|| paths.into_iter().collect()),
                full: false,
            };
            let started = Instant::now();
            if let Some(r) = self.rebuild_own(opts) {
                self.rebuilds.fetch_add(1, Ordering::Relaxed);
                let mut last = json!({
                    "at": crate::tools::map_common::rfc3339(unix_now()),
                    "scope": scope,
                    "durationMs": started.elapsed().as_millis() as u64,
                });
                match r {
                    Ok(s) => {
                        tracing::debug!(
                            scope,
                            indexed = s.files_indexed,
                            deleted = s.files_deleted,
                            "watcher rebuild"
                        );
                        last["filesIndexed"] = s.files_indexed.into();
                        last["filesDeleted"] = s.files_deleted.into();
                        last["generation"] = s.generation.into();
                    }
                    Err(e) => {
                        tracing::warn!("watcher rebuild failed: {e}");
                        last["error"] = e.to_string().into();
                    }
                }
                lock(&self.work).last = Some(last);
                self.recheck();
            }
            lock(&self.work).busy = false;
        }
    }

    /// Runs a rebuild that has seen the burst (`Map::rebuild` never hands back one whose
    /// walk predates the call). `None` when there is no map to refresh (never built, e.g.
    /// `--no-build`: the first build will see everything); a first build under way is
    /// waited for, since its walk may predate the burst.
    fn rebuild_own(&self, opts: RebuildOptions) -> Option<Result<RebuildSummary, MapError>> {
        while self.map.is_building() && !self.map.is_built() {
            std::thread::sleep(Duration::from_millis(20));
        }
        if !self.map.is_built() {
            return None;
        }
        Some(self.map.rebuild(opts, &|_| {}))
    }

    /// Re-marks as stale the recently changed files that the map does not match.
    fn recheck(&self) {
        let (paths, all) = {
            let mut w = lock(&self.work);
            let all = std::mem::take(&mut w.recheck_all);
            (w.recent.drain().collect::<Vec<String>>(), all)
        };
        if paths.is_empty() && !all {
            return;
        }
        let changed = if all {
            self.map.changed_on_disk(None)
        } else {
            self.map.changed_on_disk(Some(&paths))
        };
        match changed {
            Ok(changed) if !changed.is_empty() => {
                let _ = self.map.mark_stale(&changed);
                lock(&self.work).recent.extend(changed);
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("re-check failed: {e}"),
        }
    }

    fn refresh_built_at(&self) {
        let fresh = lock(&self.built_at).is_some_and(|(at, _)| at.elapsed() < BUILT_AT_TTL);
        if fresh {
            return;
        }
        if let Ok(st) = self.map.status() {
            *lock(&self.built_at) = Some((Instant::now(), st.built_at));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_map_without_a_watcher_earns_a_gentle_warning() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = ServerContext::new(dir.path(), None).unwrap();
        let f = &ctx.freshness;
        let hours_ago = |h: u64| Some(unix_now() - h * 3600);
        let w = f.age_warning(hours_ago(5)).expect("a 5 h old map warns");
        assert!(w.contains("5 h ago") && w.contains("map_rebuild"), "{w}");
        assert_eq!(f.age_warning(hours_ago(1)), None);
        assert_eq!(f.age_warning(None), None, "no build, no age");
        // With a watcher keeping the map fresh, age says nothing.
        *lock(&f.shared.watch) = Watch::Starting;
        assert_eq!(f.age_warning(hours_ago(5)), None);
    }

    #[test]
    fn the_map_database_is_not_a_code_change() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("map.db");
        let ctx = ServerContext::new(dir.path(), Some(db)).unwrap();
        let paths: Vec<String> = ["map.db", "map.db-wal", "map.db.py", "src/a.py"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(
            ctx.freshness.shared.code_paths(&paths),
            ["map.db.py", "src/a.py"]
        );
        let (watching, warning) = ctx.freshness.watching();
        assert_eq!(watching["mode"], "off");
        assert_eq!(warning, None);
    }
}
