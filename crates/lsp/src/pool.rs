//! The pool: one server per command line per root, and each server's life cycle.
//!
//! A *slot* is keyed by the server's command line, so languages that share a server
//! (JavaScript and TypeScript both name typescript-language-server) share one process;
//! the first language to start it lends it its settings. A slot goes through
//! unspawned → starting → running (indexing / ready) and, when things go wrong, crashed
//! (restarted on the next query after an exponential backoff, open documents replayed),
//! failed (too many crashes in the window: for the rest of the session) or unavailable
//! (binary missing: looked for again after `unavailable_retry`). An idle server is shut
//! down and restarted on demand.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use navmap_language::{Language, Registry};
use serde_json::{Value, json};

use crate::client::{Client, Readiness, ServerContext};
use crate::config::LspConfig;
use crate::docs::{DocTable, SyncAction};
use crate::error::{LspError, Result};
use crate::health::{MethodHealth, Unservable};
use crate::uri;

/// The word of a manifest's `[lsp] command` that stands for the server's own state folder
/// ([`LspConfig::state_dir`]); `{cache}` is its folder shared across projects
/// ([`crate::prepare`]).
pub use crate::prepare::{CACHE_WORD, STATE_WORD};

/// Where servers keep per-project state when [`LspConfig::state_dir`] is unset:
/// `<data dir>/state/<hash of the root>` (else the same under the system's temp folder),
/// outside the project because jdtls (Eclipse) refuses a workspace that overlaps it.
/// The hash is FNV-1a of the root's bytes: stable across builds and toolchains, so a
/// project finds its saved state again after navmap is upgraded.
pub fn default_state_dir(
    root: &std::path::Path,
    data_dir: Option<std::path::PathBuf>,
) -> std::path::PathBuf {
    let hash = root_hash(root);
    base_dir(data_dir)
        .join("state")
        .join(format!("{hash:016x}"))
}

/// Where a server keeps what its starts share across projects (the `{cache}` word):
/// `<data dir>/cache` (else the same under the system's temp folder); the language id is
/// appended per server.
pub fn cache_dir(data_dir: Option<std::path::PathBuf>) -> std::path::PathBuf {
    base_dir(data_dir).join("cache")
}

fn base_dir(data_dir: Option<std::path::PathBuf>) -> std::path::PathBuf {
    data_dir
        .or_else(crate::locate::data_dir)
        .unwrap_or_else(|| std::env::temp_dir().join("navmap"))
}

fn root_hash(root: &std::path::Path) -> u64 {
    use std::os::unix::ffi::OsStrExt;
    root.as_os_str()
        .as_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// Lines of stderr shown in errors and status.
pub const STDERR_TAIL: usize = 20;

/// A server's state as `map_status` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerState {
    Unspawned,
    Starting,
    Indexing,
    Ready,
    Crashed,
    Failed,
    Unavailable,
}

impl ServerState {
    pub fn as_str(self) -> &'static str {
        match self {
            ServerState::Unspawned => "unspawned",
            ServerState::Starting => "starting",
            ServerState::Indexing => "indexing",
            ServerState::Ready => "ready",
            ServerState::Crashed => "crashed",
            ServerState::Failed => "failed",
            ServerState::Unavailable => "unavailable",
        }
    }
}

/// One language's server, for `map_status`.
#[derive(Debug, Clone)]
pub struct ServerStatus {
    pub language: String,
    pub state: ServerState,
    pub command: Vec<String>,
    pub pid: Option<u32>,
    pub uptime: Option<Duration>,
    pub detail: Option<String>,
    /// The last lines of stderr (bounded by the ring, then by [`STDERR_TAIL`]).
    pub stderr_tail: Vec<String>,
}

/// What the status shows when no client is running.
#[derive(Debug, Clone)]
enum Phase {
    Unspawned(Option<String>),
    Starting,
    Running,
    Crashed(String),
    Failed(String),
    Unavailable(String),
}

#[derive(Default)]
struct Life {
    client: Option<Arc<Client>>,
    crashes: VecDeque<Instant>,
    failed: Option<(String, Vec<String>)>,
    unavailable_since: Option<Instant>,
    last_exit: Option<String>,
    idle_watch: bool,
    /// Starts that failed in a row (spawned, but `initialize` failed).
    start_failures: usize,
    /// Two starts failed in a row: why, the stderr tail, since when ([`crate::health`]).
    cannot_start: Option<(String, Vec<String>, Instant)>,
}

pub(crate) struct Slot {
    pub command: Vec<String>,
    /// The language that created the slot: settings, initialization options, install hint.
    pub language: Arc<Language>,
    life: Arc<tokio::sync::Mutex<Life>>,
    pub docs: Mutex<DocTable>,
    current: Mutex<Option<Arc<Client>>>,
    phase: Mutex<Phase>,
    pub(crate) stderr_tail: Mutex<Vec<String>>,
    last_used: Mutex<Instant>,
    /// Per-method answers of the current process ([`crate::health`]).
    pub(crate) methods: Mutex<MethodHealth>,
    /// The current process said it cannot serve this project.
    pub(crate) unservable: Mutex<Option<Unservable>>,
}

impl Slot {
    fn set_phase(&self, phase: Phase) {
        *lock(&self.phase) = phase;
    }

    pub fn current(&self) -> Option<Arc<Client>> {
        lock(&self.current).clone()
    }

    pub fn touch(&self) {
        *lock(&self.last_used) = Instant::now();
    }

    fn install_hint(&self) -> String {
        install_hint(&self.language)
    }

    fn unavailable(&self) -> LspError {
        LspError::Unavailable {
            command: self.command.join(" "),
            install_hint: self.install_hint(),
        }
    }
}

/// What a user runs to install a language's server: `navmap servers install <id>` when the
/// manifest has an `[lsp.install]` recipe, else the manifest's own hint.
pub fn install_hint(lang: &Language) -> String {
    let Some(lsp) = lang.manifest.lsp.as_ref() else {
        return String::new();
    };
    match &lsp.install {
        Some(r) if crate::install::has_packages(r) => {
            format!("navmap servers install {}", lang.id())
        }
        _ => lsp.install_hint.clone(),
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) struct PoolInner {
    pub root: PathBuf,
    pub root_uri: String,
    pub registry: Registry,
    pub config: LspConfig,
    slots: Mutex<HashMap<Vec<String>, Arc<Slot>>>,
    closed: AtomicBool,
}

impl PoolInner {
    /// Where this root's servers are looked for: the data dir, the project's
    /// `node_modules/.bin` (when trusted), then the `PATH` servers inherit (a configured `PATH` wins over
    /// navmap's own).
    pub(crate) fn search(&self) -> crate::locate::Search {
        let path = self
            .config
            .env
            .iter()
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| std::ffi::OsString::from(v))
            .or_else(|| std::env::var_os("PATH"));
        crate::locate::Search::new(&self.root, self.config.data_dir.clone(), path)
    }
}

impl std::fmt::Debug for LspPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LspPool")
            .field("root", &self.inner.root)
            .field("servers", &lock(&self.inner.slots).len())
            .finish()
    }
}

/// Language-server clients for one root. Cheap to clone (a handle).
///
/// Must be created and used inside a Tokio runtime. Call [`LspPool::shutdown_all`] before
/// exiting; dropping the last handle kills any server still running.
#[derive(Clone)]
pub struct LspPool {
    pub(crate) inner: Arc<PoolInner>,
}

impl LspPool {
    /// A pool for `root` (made absolute and canonical when possible).
    pub fn new(root: impl Into<PathBuf>, registry: Registry, config: LspConfig) -> LspPool {
        let root: PathBuf = root.into();
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        let root_uri = uri::from_path(&root)
            .map(|u| u.as_str().to_string())
            .unwrap_or_else(|| format!("file://{}", root.display()));
        LspPool {
            inner: Arc::new(PoolInner {
                root,
                root_uri,
                registry,
                config,
                slots: Mutex::new(HashMap::new()),
                closed: AtomicBool::new(false),
            }),
        }
    }

    pub fn root(&self) -> &Path {
        &self.inner.root
    }

    pub fn config(&self) -> &LspConfig {
        &self.inner.config
    }

    /// The language of a file, if it has a server configured. Other languages'
    /// `[[claims]]` on its extension (a `.h` holding C++) are decided as the map decides
    /// them, from its directory and its start, read only when the file is inside the root.
    pub fn language_for(&self, path: &Path) -> Result<Arc<Language>> {
        let name = path.to_string_lossy();
        let inside = || {
            matches!(
                crate::confine::classify(&self.inner.root, path),
                crate::confine::Place::Inside(_)
            )
        };
        let lang = self
            .inner
            .registry
            .for_file(
                &name,
                &|| {
                    let dir = path.parent().filter(|_| inside());
                    dir.and_then(|d| std::fs::read_dir(d).ok())
                        .map(|rd| {
                            rd.flatten()
                                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default()
                },
                &|| {
                    use std::io::Read;
                    if !inside() {
                        return None;
                    }
                    let mut buf = Vec::new();
                    std::fs::File::open(path)
                        .ok()?
                        .take(64 * 1024)
                        .read_to_end(&mut buf)
                        .ok()?;
                    Some(String::from_utf8_lossy(&buf).into_owned())
                },
            )
            .ok_or_else(|| LspError::NoServer {
                what: format!("{name} (no language claims this file)"),
            })?;
        if lang.manifest.lsp.is_none() {
            return Err(LspError::NoServer {
                what: format!("language `{}`", lang.id()),
            });
        }
        Ok(lang.clone())
    }

    /// The command line that serves a language: the override, else the manifest's.
    pub fn command_for(&self, lang: &Language) -> Option<Vec<String>> {
        if let Some(cmd) = self.inner.config.commands.get(lang.id()) {
            return Some(cmd.clone());
        }
        lang.manifest.lsp.as_ref().map(|l| l.command.clone())
    }

    pub(crate) fn slot(&self, lang: &Arc<Language>) -> Result<Arc<Slot>> {
        let command = self.command_for(lang).ok_or_else(|| LspError::NoServer {
            what: format!("language `{}`", lang.id()),
        })?;
        let mut slots = lock(&self.inner.slots);
        Ok(slots
            .entry(command.clone())
            .or_insert_with(|| {
                Arc::new(Slot {
                    command,
                    language: lang.clone(),
                    life: Arc::new(tokio::sync::Mutex::new(Life::default())),
                    docs: Mutex::new(DocTable::default()),
                    current: Mutex::new(None),
                    phase: Mutex::new(Phase::Unspawned(None)),
                    stderr_tail: Mutex::new(Vec::new()),
                    last_used: Mutex::new(Instant::now()),
                    methods: Mutex::new(MethodHealth::default()),
                    unservable: Mutex::new(None),
                })
            })
            .clone())
    }

    /// A running, initialized client for the slot, starting (or restarting) it if needed.
    /// The start runs in its own task: a caller whose deadline passes gets `NotReady`
    /// while the start carries on for the next caller.
    pub(crate) async fn ensure(
        &self,
        slot: &Arc<Slot>,
        deadline: tokio::time::Instant,
        waited_since: Instant,
    ) -> Result<Arc<Client>> {
        if self.inner.closed.load(Ordering::SeqCst) {
            return Err(LspError::Failed {
                reason: "navmap is shutting down".into(),
                stderr_tail: Vec::new(),
            });
        }
        if let Some(c) = slot.current()
            && c.alive()
        {
            return Ok(c);
        }
        let starting = || LspError::NotReady {
            detail: "starting".into(),
            waited: waited_since.elapsed(),
        };
        let guard = tokio::time::timeout_at(deadline, slot.life.clone().lock_owned())
            .await
            .map_err(|_| starting())?;
        let task = tokio::spawn(start(self.inner.clone(), slot.clone(), guard));
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(result)) => result,
            Ok(Err(join)) => Err(LspError::Failed {
                reason: format!("server start aborted: {join}"),
                stderr_tail: Vec::new(),
            }),
            Err(_) => Err(starting()),
        }
    }

    /// Stops `client` because it is alive but no longer of use (wedged on a method, or
    /// it said it cannot serve the project and that was long ago): counted as a crash, so
    /// a server that keeps wedging ends failed like one that keeps crashing. The next
    /// query starts a fresh process, with the open documents replayed. Nothing happens
    /// when the slot has moved on to another process already.
    pub(crate) async fn restart(&self, slot: &Arc<Slot>, client: &Arc<Client>, reason: &str) {
        let Ok(mut life) =
            tokio::time::timeout(Duration::from_secs(2), slot.life.clone().lock_owned()).await
        else {
            return;
        };
        if !life.client.as_ref().is_some_and(|c| Arc::ptr_eq(c, client)) {
            return;
        }
        life.client = None;
        life.crashes.push_back(Instant::now());
        life.last_exit = Some(format!("restarted: {reason}"));
        *lock(&slot.current) = None;
        *lock(&slot.stderr_tail) = client.stderr_tail(STDERR_TAIL);
        *lock(&slot.unservable) = None;
        slot.set_phase(Phase::Crashed(format!(
            "restarted by navmap: {reason}; starts again on next use"
        )));
        tracing::warn!(command = ?slot.command, %reason, "restarting a language server");
        drop(life);
        client.kill().await;
    }

    /// Brings the server's copy of `path` in step with the disk.
    pub(crate) fn sync_document(&self, slot: &Slot, client: &Client, path: &Path) -> Result<()> {
        // The confinement rule (crate::confine): a file that resolves outside the root is
        // never read, never opened.
        if crate::confine::escapes(self.root(), path) {
            return Err(LspError::io(
                path.display().to_string(),
                std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    "resolves (through a symlink) outside the root",
                ),
            ));
        }
        let lang = self.language_for(path)?;
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let language_id = lang.lsp_language_id(ext).unwrap_or("plaintext").to_string();
        let uri = uri::from_path(path).ok_or_else(|| {
            LspError::io(
                path.display().to_string(),
                std::io::Error::new(std::io::ErrorKind::InvalidInput, "not an absolute path"),
            )
        })?;
        let synced =
            lock(&slot.docs).sync(path, &language_id, self.inner.config.max_open_documents);
        let (action, evicted) = match synced {
            Ok(x) => x,
            Err(e) => {
                if lock(&slot.docs).remove(path) {
                    client.notify(
                        "textDocument/didClose",
                        Some(json!({"textDocument": {"uri": uri.as_str()}})),
                    );
                }
                return Err(LspError::io(path.display().to_string(), e));
            }
        };
        for old in evicted {
            if let Some(old_uri) = uri::from_path(&old) {
                client.notify(
                    "textDocument/didClose",
                    Some(json!({"textDocument": {"uri": old_uri.as_str()}})),
                );
            }
        }
        match action {
            SyncAction::None => {}
            SyncAction::Open {
                language_id,
                version,
                text,
            } => client.notify(
                "textDocument/didOpen",
                Some(json!({"textDocument": {
                    "uri": uri.as_str(), "languageId": language_id, "version": version, "text": text
                }})),
            ),
            SyncAction::Change { version, text } => client.notify(
                "textDocument/didChange",
                Some(json!({
                    "textDocument": {"uri": uri.as_str(), "version": version},
                    "contentChanges": [{"text": text}]
                })),
            ),
        }
        Ok(())
    }

    /// Re-syncs every open document other than `except`: an open document is the server's
    /// truth for that file, so an edit on disk must reach it before any query (a
    /// definition asked from another file may land in it). Costs a `stat` per document
    /// when nothing changed; a vanished file is closed.
    pub(crate) fn sync_open_documents(&self, slot: &Slot, client: &Client, except: Option<&Path>) {
        let paths = lock(&slot.docs).paths();
        for path in paths {
            if Some(path.as_path()) != except {
                let _ = self.sync_document(slot, client, &path);
            }
        }
    }

    /// Some servers (typescript-language-server) answer workspace queries only once a
    /// project is loaded, i.e. once a document is open: open one of the slot's files.
    /// Returns whether it opened one (the server may now be loading a project).
    pub(crate) fn open_any_document(&self, slot: &Slot, client: &Client) -> bool {
        if !lock(&slot.docs).is_empty() {
            return false;
        }
        let exts: Vec<String> = self
            .inner
            .registry
            .all()
            .iter()
            .filter(|l| self.command_for(l).as_ref() == Some(&slot.command))
            .flat_map(|l| l.manifest.extensions.clone())
            .collect();
        find_file(&self.inner.root, &exts)
            .is_some_and(|path| self.sync_document(slot, client, &path).is_ok())
    }

    /// Tells running servers that files changed on disk (the watcher calls this), so
    /// they re-read files that are not open; open documents are re-synced on next use
    /// anyway. `paths` are root-relative or absolute. An existing file is reported as
    /// *created*, a missing one as *deleted*: pyright ignores `changed` for a file it has
    /// not seen, and treats `created` of a known file as a change.
    pub fn notify_files_changed(&self, paths: &[PathBuf]) {
        let changes: Vec<Value> = paths
            .iter()
            .filter_map(|p| {
                let abs = self.inner.root.join(p);
                let uri = uri::from_path(&abs)?;
                let kind = if abs.exists() { 1 } else { 3 };
                Some(json!({"uri": uri.as_str(), "type": kind}))
            })
            .collect();
        if changes.is_empty() {
            return;
        }
        let slots: Vec<_> = lock(&self.inner.slots).values().cloned().collect();
        for slot in slots {
            if let Some(c) = slot.current()
                && c.alive()
            {
                c.notify(
                    "workspace/didChangeWatchedFiles",
                    Some(json!({"changes": changes})),
                );
                // Servers digest these asynchronously and silently (pyright): give the
                // next query a settle time.
                c.mark_activity();
            }
        }
    }

    /// The state of every language that has a server configured.
    pub fn status(&self) -> Vec<ServerStatus> {
        let slots = lock(&self.inner.slots).clone();
        let settle = self.inner.config.settle;
        self.inner
            .registry
            .all()
            .iter()
            .filter(|l| l.manifest.lsp.is_some())
            .map(|lang| {
                let command = self.command_for(lang).unwrap_or_default();
                let Some(slot) = slots.get(&command) else {
                    // Not started yet: a cheap PATH probe tells unavailable from unspawned
                    // without starting anything.
                    let (state, detail) = if self.installed(&command) {
                        (ServerState::Unspawned, None)
                    } else {
                        (
                            ServerState::Unavailable,
                            Some(format!(
                                "`{}` not found; install: {}",
                                command.first().cloned().unwrap_or_default(),
                                install_hint(lang)
                            )),
                        )
                    };
                    return ServerStatus {
                        language: lang.id().to_string(),
                        state,
                        command,
                        pid: None,
                        uptime: None,
                        detail,
                        stderr_tail: Vec::new(),
                    };
                };
                let client = slot.current();
                let phase = lock(&slot.phase).clone();
                let (state, detail) = match (&phase, &client) {
                    (Phase::Running, Some(c)) => match c.health().readiness(Instant::now(), settle)
                    {
                        Readiness::Dead => (
                            ServerState::Crashed,
                            Some(format!(
                                "{}; restarts on next use",
                                c.health().exit.unwrap_or_else(|| "exited".into())
                            )),
                        ),
                        Readiness::Starting => (ServerState::Starting, None),
                        Readiness::Indexing(what) => (ServerState::Indexing, Some(what)),
                        Readiness::Settling(_) => {
                            (ServerState::Indexing, Some("settling after startup".into()))
                        }
                        Readiness::Ready => (ServerState::Ready, None),
                    },
                    (Phase::Running, None) | (Phase::Unspawned(None), _) => {
                        (ServerState::Unspawned, None)
                    }
                    (Phase::Unspawned(d), _) => (ServerState::Unspawned, d.clone()),
                    (Phase::Starting, _) => (ServerState::Starting, None),
                    (Phase::Crashed(d), _) => (ServerState::Crashed, Some(d.clone())),
                    (Phase::Failed(d), _) => (ServerState::Failed, Some(d.clone())),
                    (Phase::Unavailable(d), _) => (ServerState::Unavailable, Some(d.clone())),
                };
                let unservable = lock(&slot.unservable)
                    .clone()
                    .filter(|u| client.as_ref().is_some_and(|c| c.pid == u.pid));
                let (state, detail) = match unservable {
                    Some(u) => (
                        ServerState::Failed,
                        Some(format!("cannot serve this project: {}", u.reason)),
                    ),
                    None => (state, detail),
                };
                let live = client.as_ref().filter(|_| matches!(phase, Phase::Running));
                let stderr_tail = match live {
                    Some(c) => c.stderr_tail(STDERR_TAIL),
                    None => lock(&slot.stderr_tail).clone(),
                };
                ServerStatus {
                    language: lang.id().to_string(),
                    state,
                    command: slot.command.clone(),
                    pid: live.map(|c| c.pid),
                    uptime: live.map(|c| c.started.elapsed()),
                    detail,
                    stderr_tail,
                }
            })
            .collect()
    }

    /// Whether the command's program can be found (in the data dir, the project's
    /// `node_modules/.bin` or on `PATH`, see [`crate::locate`]). A probe, not a promise: the
    /// binary may still fail to run.
    pub fn installed(&self, command: &[String]) -> bool {
        command
            .first()
            .is_some_and(|p| self.inner.search().find(p).is_some())
    }

    /// Stops every server: `shutdown`, `exit`, then kill. Later queries fail. navmap
    /// calls this on exit.
    pub async fn shutdown_all(&self) {
        self.inner.closed.store(true, Ordering::SeqCst);
        let slots: Vec<_> = lock(&self.inner.slots).values().cloned().collect();
        let mut stops = Vec::new();
        for slot in slots {
            stops.push(tokio::spawn(async move {
                // A start under way holds the lock; it ends by its own deadline.
                let client =
                    match tokio::time::timeout(Duration::from_secs(5), slot.life.lock()).await {
                        Ok(mut life) => life.client.take(),
                        Err(_) => slot.current(),
                    };
                *lock(&slot.current) = None;
                slot.set_phase(Phase::Unspawned(Some("shut down".into())));
                if let Some(c) = client {
                    c.shutdown(Duration::from_secs(2)).await;
                }
            }));
        }
        for stop in stops {
            let _ = stop.await;
        }
    }
}

fn crash_reason(exit: &Option<String>) -> String {
    exit.clone().unwrap_or_else(|| "exited".to_string())
}

/// The body of a start: notice a dead client, apply the crash policy and backoff, spawn,
/// initialize, replay open documents.
async fn start(
    pool: Arc<PoolInner>,
    slot: Arc<Slot>,
    mut life: tokio::sync::OwnedMutexGuard<Life>,
) -> Result<Arc<Client>> {
    let config = &pool.config;
    if let Some(c) = life.client.clone() {
        if c.alive() {
            return Ok(c);
        }
        // It died: a crash (intentional stops clear `client` first).
        let exit = c.health().exit;
        c.kill().await;
        *lock(&slot.stderr_tail) = c.final_stderr_tail(STDERR_TAIL).await;
        life.client = None;
        life.crashes.push_back(Instant::now());
        life.last_exit = exit.clone();
        *lock(&slot.current) = None;
        slot.set_phase(Phase::Crashed(crash_reason(&exit)));
        tracing::warn!(command = ?slot.command, exit = ?exit, "language server crashed");
    }
    if let Some((reason, tail)) = &life.failed {
        return Err(LspError::Failed {
            reason: reason.clone(),
            stderr_tail: tail.clone(),
        });
    }
    if let Some((reason, tail, since)) = &life.cannot_start {
        if since.elapsed() < config.unservable_retry {
            return Err(LspError::CannotServe {
                reason: reason.clone(),
                evidence: tail.clone(),
            });
        }
        life.cannot_start = None;
        life.start_failures = 0;
    }
    let now = Instant::now();
    while life
        .crashes
        .front()
        .is_some_and(|t| now.duration_since(*t) > config.crash_window)
    {
        life.crashes.pop_front();
    }
    if life.crashes.len() >= config.max_crashes.max(1) {
        let reason = format!(
            "crashed {} times within {}s (last: {}); not restarted this session",
            life.crashes.len(),
            config.crash_window.as_secs(),
            crash_reason(&life.last_exit)
        );
        let tail = lock(&slot.stderr_tail).clone();
        life.failed = Some((reason.clone(), tail.clone()));
        slot.set_phase(Phase::Failed(reason.clone()));
        return Err(LspError::Failed {
            reason,
            stderr_tail: tail,
        });
    }
    if let Some(since) = life.unavailable_since {
        if since.elapsed() < config.unavailable_retry {
            return Err(slot.unavailable());
        }
        life.unavailable_since = None;
    }
    if let Some(last) = life.crashes.back() {
        let n = life.crashes.len() as u32;
        let delay = config
            .backoff_base
            .saturating_mul(1u32 << (n - 1).min(16))
            .min(config.backoff_max);
        let at = *last + delay;
        if at > Instant::now() {
            tokio::time::sleep_until(at.into()).await;
        }
    }

    slot.set_phase(Phase::Starting);
    let lsp = slot.language.manifest.lsp.clone();
    // navmap's own folders for this server, outside the project: `{state}` for this
    // project, `{cache}` shared across projects (crate::prepare).
    let folders = crate::prepare::Folders::new(
        config
            .state_dir
            .clone()
            .unwrap_or_else(|| default_state_dir(&pool.root, config.data_dir.clone()))
            .join(slot.language.id()),
        cache_dir(config.data_dir.clone()).join(slot.language.id()),
    );
    let json_of = |t: Option<&toml::Table>| {
        t.and_then(|t| serde_json::to_value(t).ok()).map(|mut v| {
            folders.expand_json(&mut v);
            v
        })
    };
    let settings = json_of(lsp.as_ref().and_then(|l| l.settings.as_ref())).unwrap_or(Value::Null);
    let init_options = json_of(lsp.as_ref().and_then(|l| l.initialization_options.as_ref()));
    let root_name = pool
        .root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into());
    let context = ServerContext {
        settings,
        root_uri: pool.root_uri.clone(),
        root_name: root_name.clone(),
        setup_failures: lsp
            .as_ref()
            .map(|l| l.setup_failures.clone())
            .unwrap_or_default(),
        progress_notifications: lsp
            .as_ref()
            .map(|l| l.progress_notifications.clone())
            .unwrap_or_default(),
    };
    // The program by its full path, and a PATH that holds the data dir's and the project's
    // bin directories, so that servers start (and find their helpers) without PATH edits.
    let search = pool.search();
    let mut command: Vec<String> = slot.command.iter().map(|w| folders.expand(w)).collect();
    if let Some(found) = command.first().and_then(|p| search.find(p)) {
        command[0] = found.program.to_string_lossy().into_owned();
    }
    // What the project holds may add arguments (clangd: where its compilation database
    // is, and a background index of it).
    for extra in lsp.as_ref().map_or(&[][..], |l| &l.project_args[..]) {
        let mut found = crate::confine::find_inside(&pool.root, &extra.find);
        if extra.copy {
            // The server gets a confined copy in the state folder: what it writes beside
            // the file stays out of the project (`project_copy.rs`).
            found = found.and_then(|rel| {
                crate::project_copy::copy_into_state(&pool.root, &rel, folders.state())
                    .map(|copy| copy.to_string_lossy().into_owned())
            });
        }
        command = extra.apply(&command, &pool.root, found.as_deref());
    }
    let mut env = config.env.clone();
    env.retain(|(k, _)| k != "PATH");
    // The manifest's additions follow the value navmap's own environment (or the pool's
    // configured one) gives the variable.
    let additions = folders.env(
        lsp.as_ref().map_or(&[][..], |l| &l.env[..]),
        |name| {
            config
                .env
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .or_else(|| std::env::var(name).ok())
        },
        |p| p.is_file(),
    );
    for (name, value) in additions {
        env.retain(|(k, _)| *k != name);
        env.push((name, value));
    }
    env.push((
        "PATH".into(),
        search
            .child_path_with(lsp.as_ref().map_or(&[][..], |l| &l.data_path[..]))
            .to_string_lossy()
            .into_owned(),
    ));
    // The server's own configuration files in those folders. One that cannot be written
    // is a start failure: the server would run without the configuration it needs.
    let written = folders.write_files(lsp.as_ref().map_or(&[][..], |l| &l.files[..]));
    folders.create_used();
    drop(folders);
    if let Err(e) = written {
        slot.set_phase(Phase::Crashed(format!("could not start: {e}")));
        return Err(LspError::io(
            format!("preparing {}", slot.command.join(" ")),
            std::io::Error::other(e),
        ));
    }
    // Variables the manifest keeps from the server; the pool's own `env` may still set them.
    let env_remove = lsp.as_ref().map_or(&[][..], |l| &l.env_remove[..]);
    let client = match Client::spawn(
        &command,
        &env,
        env_remove,
        &pool.root,
        context,
        (config.stderr_lines, config.stderr_line_chars),
    ) {
        Ok(c) => Arc::new(c),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied
            ) =>
        {
            life.unavailable_since = Some(Instant::now());
            slot.set_phase(Phase::Unavailable(format!(
                "`{}` not found; install: {}",
                slot.command.first().cloned().unwrap_or_default(),
                slot.install_hint()
            )));
            return Err(slot.unavailable());
        }
        Err(e) => {
            slot.set_phase(Phase::Crashed(format!("could not start: {e}")));
            return Err(LspError::io(
                format!("starting {}", slot.command.join(" ")),
                e,
            ));
        }
    };

    let params = initialize_params(&pool, &root_name, init_options);
    // The start is detached from any one query's deadline, but not unbounded.
    let init_deadline =
        tokio::time::Instant::now() + config.long_deadline.max(Duration::from_secs(60));
    if let Err(e) = client.initialize(params, init_deadline).await {
        client.kill().await;
        let tail = client.final_stderr_tail(STDERR_TAIL).await;
        life.crashes.push_back(Instant::now());
        let exit = client.health().exit;
        life.last_exit = exit
            .clone()
            .or_else(|| Some(format!("initialize failed: {e:?}")));
        *lock(&slot.stderr_tail) = tail.clone();
        let reason = format!("initialize failed: {}", crash_reason(&life.last_exit));
        life.start_failures += 1;
        if life.start_failures >= 2 {
            // Twice in a row: this server cannot start on this project (a broken
            // install, a project file it chokes on). Say so at once for a while.
            let reason = format!(
                "it failed to start twice in a row (last: {reason}); its stderr tail says why (map_status)"
            );
            life.cannot_start = Some((reason.clone(), tail.clone(), Instant::now()));
            slot.set_phase(Phase::Failed(reason.clone()));
            return Err(LspError::CannotServe {
                reason,
                evidence: tail,
            });
        }
        slot.set_phase(Phase::Crashed(reason.clone()));
        return Err(LspError::Failed {
            reason,
            stderr_tail: tail,
        });
    }
    life.start_failures = 0;

    life.client = Some(client.clone());
    *lock(&slot.current) = Some(client.clone());
    slot.set_phase(Phase::Running);
    slot.touch();
    tracing::info!(command = ?slot.command, pid = client.pid, "language server started");

    // A restarted server gets the documents its predecessor had open.
    let replay = lock(&slot.docs).take_for_replay();
    let facade = LspPool {
        inner: pool.clone(),
    };
    for (path, _) in replay {
        let _ = facade.sync_document(&slot, &client, &path);
    }

    if !life.idle_watch
        && let Some(idle) = config.idle_timeout
    {
        life.idle_watch = true;
        tokio::spawn(idle_watch(Arc::downgrade(&slot), idle));
    }
    Ok(client)
}

/// Shuts the slot's server down after `idle` without a query.
async fn idle_watch(slot: Weak<Slot>, idle: Duration) {
    let tick = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30));
    loop {
        tokio::time::sleep(tick).await;
        let Some(slot) = slot.upgrade() else { return };
        if lock(&slot.last_used).elapsed() < idle || slot.current().is_none() {
            continue;
        }
        let Ok(mut life) = slot.life.clone().try_lock_owned() else {
            continue;
        };
        let Some(client) = life.client.take() else {
            continue;
        };
        *lock(&slot.current) = None;
        lock(&slot.docs).take_for_replay();
        slot.set_phase(Phase::Unspawned(Some(format!(
            "stopped after {}s idle; restarts on demand",
            idle.as_secs()
        ))));
        drop(life);
        tracing::info!(command = ?slot.command, "stopping idle language server");
        client.shutdown(Duration::from_secs(2)).await;
    }
}

fn initialize_params(pool: &PoolInner, root_name: &str, init_options: Option<Value>) -> Value {
    let symbol_kinds: Vec<u32> = (1..=26).collect();
    let mut params = json!({
        "processId": std::process::id(),
        "clientInfo": {"name": "navmap", "version": env!("CARGO_PKG_VERSION")},
        "rootPath": pool.root.to_string_lossy(),
        "rootUri": pool.root_uri,
        "workspaceFolders": [{"uri": pool.root_uri, "name": root_name}],
        "capabilities": {
            "general": {"positionEncodings": ["utf-16"]},
            "window": {"workDoneProgress": true},
            "workspace": {
                "configuration": true,
                "workspaceFolders": true,
                "didChangeWatchedFiles": {"dynamicRegistration": true},
                "symbol": {"symbolKind": {"valueSet": symbol_kinds}},
            },
            "textDocument": {
                "synchronization": {"didSave": false, "dynamicRegistration": false},
                "definition": {"linkSupport": true},
                "typeDefinition": {"linkSupport": true},
                "implementation": {"linkSupport": true},
                "references": {},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "documentSymbol": {
                    "hierarchicalDocumentSymbolSupport": true,
                    "symbolKind": {"valueSet": symbol_kinds},
                },
                "callHierarchy": {"dynamicRegistration": false},
                "publishDiagnostics": {"relatedInformation": false},
            },
            // rust-analyzer reports `quiescent` only to clients that ask.
            "experimental": {"serverStatusNotification": true},
        },
    });
    if let Some(opts) = init_options {
        params["initializationOptions"] = opts;
    }
    params
}

/// A file with one of `exts` under `root`, found by a small breadth-first walk that skips
/// hidden and dependency folders.
fn find_file(root: &Path, exts: &[String]) -> Option<PathBuf> {
    let mut queue = VecDeque::from([root.to_path_buf()]);
    let mut seen = 0usize;
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            seen += 1;
            if seen > 5000 {
                return None;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || name == "node_modules" || name == "target" {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                queue.push_back(entry.path());
            } else if kind.is_file()
                && let Some((_, ext)) = name.rsplit_once('.')
                && exts.iter().any(|e| e == ext)
            {
                return Some(entry.path());
            }
        }
    }
    None
}
