//! The watcher thread: collects OS events (or polls), filters them, signals at once, and
//! settles bursts.
//!
//! Threads: notify's own event thread only drops paths into a bounded [`Inbox`] and wakes the
//! worker; the worker (one thread per [`Watcher`]) does everything else, including calling
//! the [`Sink`]. The worker never blocks on notify's thread and vice versa, so adding a watch
//! from the worker cannot deadlock against an event being delivered.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _, WatcherKind};

use crate::filter::{IgnoreFilter, relative, stays_inside};
use crate::pending::Pending;
use crate::scan::{Snapshot, walk};
use crate::{Changes, Mode, Options, Sink, Status};

/// The shortest polling period honoured: a zero interval would spin.
const MIN_POLL_INTERVAL: Duration = Duration::from_millis(10);

/// A running watcher over one root. Dropping it stops the watching and joins its thread;
/// changes still pending at that moment are not signalled.
pub struct Watcher {
    root: PathBuf,
    shared: Arc<Shared>,
    wake: SyncSender<()>,
    thread: Option<JoinHandle<()>>,
}

/// State shared by the handle, the worker and notify's event thread.
struct Shared {
    status: Mutex<Status>,
    stop: AtomicBool,
    inbox: Mutex<Inbox>,
}

/// Raw paths delivered by notify and not yet seen by the worker: a set, so a file written in
/// many small chunks costs one entry; bounded, so a flood costs a flag instead of memory.
struct Inbox {
    paths: HashSet<PathBuf>,
    rescan: bool,
    error: Option<String>,
    cap: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Watcher {
    /// Starts watching `root` (a directory) recursively, calling `sink` from a background
    /// thread. Uses the OS watcher unless `options.force_polling`; when the OS watcher
    /// cannot start or cannot cover the tree, falls back to polling and says so in
    /// [`Watcher::status`]. Every directory is watched before this returns, so any change
    /// made after it returns is reported.
    ///
    /// Errors only when `root` is not a readable directory or the thread cannot start.
    pub fn start(root: impl AsRef<Path>, options: Options, sink: impl Sink) -> io::Result<Watcher> {
        let root = fs::canonicalize(root.as_ref())?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not a directory: {}", root.display()),
            ));
        }
        let options = Options {
            poll_interval: options.poll_interval.max(MIN_POLL_INTERVAL),
            max_pending: options.max_pending.max(1),
            ..options
        };
        let (wake, wake_rx) = sync_channel(1);
        let shared = Arc::new(Shared {
            status: Mutex::new(Status {
                mode: Mode::Stopped,
                detail: "starting".into(),
            }),
            stop: AtomicBool::new(false),
            inbox: Mutex::new(Inbox {
                paths: HashSet::new(),
                rescan: false,
                error: None,
                cap: options.max_pending,
            }),
        });
        let mut filter = IgnoreFilter::new(&root);
        let polling = |filter: &mut IgnoreFilter| Polling {
            snapshot: Snapshot::take(filter),
            next: Instant::now() + options.poll_interval,
        };
        let backend = if options.force_polling {
            let detail = format!(
                "polling every {:?} (forced by options)",
                options.poll_interval
            );
            *lock(&shared.status) = Status {
                mode: Mode::Polling,
                detail,
            };
            Backend::Polling(polling(&mut filter))
        } else {
            match Native::start(&root, &mut filter, &options, &shared, &wake) {
                Ok(native) => {
                    *lock(&shared.status) = native.status();
                    Backend::Native(native)
                }
                Err(reason) => {
                    let detail = fallback_detail(&reason, &options);
                    tracing::warn!(root = %root.display(), "{detail}");
                    *lock(&shared.status) = Status {
                        mode: Mode::Polling,
                        detail,
                    };
                    Backend::Polling(polling(&mut filter))
                }
            }
        };
        let worker = Worker {
            root: root.clone(),
            pending: Pending::new(options.max_pending),
            options,
            filter,
            sink: Box::new(sink),
            shared: Arc::clone(&shared),
            wake_rx,
            backend,
        };
        let thread = std::thread::Builder::new()
            .name("navmap-watch".into())
            .spawn(move || worker.run())?;
        Ok(Watcher {
            root,
            shared,
            wake,
            thread: Some(thread),
        })
    }

    /// How changes are being observed right now, and why.
    pub fn status(&self) -> Status {
        lock(&self.shared.status).clone()
    }

    /// The canonical root being watched.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // A full channel means a wake-up is already queued: the worker will see the flag.
        let _ = self.wake.try_send(());
        if let Some(thread) = self.thread.take() {
            // Dropped from inside the sink: the worker ends by itself after the callback.
            if thread.thread().id() != std::thread::current().id() {
                let _ = thread.join();
            }
        }
    }
}

fn fallback_detail(reason: &str, options: &Options) -> String {
    format!(
        "{reason}; polling every {:?} instead (changes are seen later)",
        options.poll_interval
    )
}

/// Events that can change a file's content or existence. Opening or reading a file (the map
/// build does it for every file) must not look like a change.
fn matters(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(access) => *access == AccessKind::Close(AccessMode::Write),
        _ => true,
    }
}

enum Backend {
    Native(Native),
    Polling(Polling),
}

struct Polling {
    snapshot: Snapshot,
    next: Instant,
}

/// The OS watcher and, when it watches one directory at a time (inotify), the set of
/// directories it covers.
struct Native {
    watcher: RecommendedWatcher,
    /// inotify watches are per directory and a limited, per-user resource: watch only the
    /// directories the filter keeps, never `node_modules` and friends. Other backends watch
    /// the root recursively at no such cost, and events are filtered afterwards.
    per_dir: bool,
    watched: HashSet<PathBuf>,
    max_dirs: usize,
}

impl Native {
    fn start(
        root: &Path,
        filter: &mut IgnoreFilter,
        options: &Options,
        shared: &Arc<Shared>,
        wake: &SyncSender<()>,
    ) -> Result<Native, String> {
        let (shared, wake) = (Arc::clone(shared), wake.clone());
        let handler = move |event: notify::Result<notify::Event>| {
            {
                let mut inbox = lock(&shared.inbox);
                match event {
                    Ok(event) => {
                        inbox.rescan |= event.need_rescan();
                        if matters(&event.kind) {
                            for path in event.paths {
                                if inbox.paths.len() >= inbox.cap {
                                    inbox.rescan = true;
                                    break;
                                }
                                inbox.paths.insert(path);
                            }
                        }
                    }
                    Err(err) => {
                        inbox.error.get_or_insert_with(|| describe(&err));
                    }
                }
            }
            match wake.try_send(()) {
                Ok(()) | Err(TrySendError::Full(())) | Err(TrySendError::Disconnected(())) => {}
            }
        };
        let config = notify::Config::default().with_follow_symlinks(false);
        let watcher = RecommendedWatcher::new(handler, config)
            .map_err(|err| format!("the OS file watcher cannot start: {}", describe(&err)))?;
        let mut native = Native {
            watcher,
            per_dir: RecommendedWatcher::kind() == WatcherKind::Inotify,
            watched: HashSet::new(),
            max_dirs: options.max_watched_dirs,
        };
        if native.per_dir {
            native.watch_tree(filter, root, &mut |_| {})?;
        } else {
            native
                .watcher
                .watch(root, RecursiveMode::Recursive)
                .map_err(|err| format!("the OS file watcher failed: {}", describe(&err)))?;
        }
        Ok(native)
    }

    fn status(&self) -> Status {
        let detail = if self.per_dir {
            format!(
                "{:?}: {} directories watched",
                RecommendedWatcher::kind(),
                self.watched.len()
            )
        } else {
            format!("{:?}: root watched recursively", RecommendedWatcher::kind())
        };
        Status {
            mode: Mode::Native,
            detail,
        }
    }

    /// Watches `start` and every kept directory below it not watched yet, reporting the
    /// files found (they may have been written before their directory was watched).
    fn watch_tree(
        &mut self,
        filter: &mut IgnoreFilter,
        start: &Path,
        on_file: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        let (watcher, watched, max_dirs) = (&mut self.watcher, &mut self.watched, self.max_dirs);
        walk(
            filter,
            start,
            &mut |dir| {
                if watched.contains(dir) {
                    return Ok(());
                }
                if watched.len() >= max_dirs {
                    return Err(format!(
                        "more than {max_dirs} directories to watch (Options::max_watched_dirs)"
                    ));
                }
                match watcher.watch(dir, RecursiveMode::NonRecursive) {
                    Ok(()) => {
                        watched.insert(dir.to_path_buf());
                        Ok(())
                    }
                    Err(err) if matches!(err.kind, notify::ErrorKind::MaxFilesWatch) => {
                        Err(format!(
                            "the OS watch limit was reached after {} directories \
                         (raise fs.inotify.max_user_watches)",
                            watched.len()
                        ))
                    }
                    // Gone between listing and watching: nothing left to watch.
                    Err(_) if !dir.is_dir() => Ok(()),
                    Err(err) => Err(format!(
                        "cannot watch {}: {}",
                        dir.display(),
                        describe(&err)
                    )),
                }
            },
            &mut |text, _| on_file(text),
        )
    }
}

fn describe(err: &notify::Error) -> String {
    match &err.kind {
        notify::ErrorKind::MaxFilesWatch => "the OS watch limit was reached".into(),
        _ => err.to_string(),
    }
}

struct Worker {
    root: PathBuf,
    options: Options,
    filter: IgnoreFilter,
    sink: Box<dyn Sink>,
    shared: Arc<Shared>,
    wake_rx: Receiver<()>,
    backend: Backend,
    pending: Pending,
}

impl Worker {
    fn run(mut self) {
        let shared = Arc::clone(&self.shared);
        let ended = catch_unwind(AssertUnwindSafe(|| self.event_loop()));
        let detail = match ended {
            Ok(()) => "stopped".to_string(),
            Err(_) => {
                tracing::error!("the change sink panicked; file changes are no longer reported");
                "the change sink panicked; file changes are no longer reported".to_string()
            }
        };
        *lock(&shared.status) = Status {
            mode: Mode::Stopped,
            detail,
        };
    }

    fn event_loop(&mut self) {
        loop {
            let mut wake_at = self
                .pending
                .deadline(self.options.quiet, self.options.max_wait);
            if let Backend::Polling(p) = &self.backend {
                wake_at = Some(wake_at.map_or(p.next, |t| t.min(p.next)));
            }
            let woke = match wake_at {
                Some(t) => self
                    .wake_rx
                    .recv_timeout(t.saturating_duration_since(Instant::now())),
                None => self
                    .wake_rx
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            if self.shared.stop.load(Ordering::SeqCst)
                || woke == Err(RecvTimeoutError::Disconnected)
            {
                return;
            }
            match &self.backend {
                Backend::Native(_) if woke.is_ok() => self.drain_inbox(),
                Backend::Polling(p) if Instant::now() >= p.next => self.poll(),
                _ => {}
            }
            self.settle_if_due();
        }
    }

    /// Turns the raw paths notify delivered since the last wake-up into one `changed` signal.
    fn drain_inbox(&mut self) {
        let (raw, rescan, error) = {
            let mut inbox = lock(&self.shared.inbox);
            (
                std::mem::take(&mut inbox.paths),
                std::mem::take(&mut inbox.rescan),
                inbox.error.take(),
            )
        };
        if let Some(reason) = error {
            self.degrade(&reason);
            return;
        }
        let Backend::Native(native) = &mut self.backend else {
            return;
        };
        let mut changes = Changes {
            paths: Vec::new(),
            rescan,
        };
        let (mut new_dirs, mut rules_changed) = (Vec::new(), false);
        for abs in raw {
            let Some((rel, text)) = relative(&self.root, &abs) else {
                continue;
            };
            let meta = fs::symlink_metadata(&abs).ok();
            let was_dir = native.watched.contains(&abs);
            let is_dir = meta.as_ref().map_or(was_dir, |m| m.is_dir());
            if self.filter.is_ignored(&rel, is_dir) {
                continue;
            }
            match &meta {
                // A directory has no content of its own; a new one is walked below.
                Some(m) if m.is_dir() => {
                    if native.per_dir && !was_dir {
                        new_dirs.push(abs);
                    }
                    continue;
                }
                Some(m) if !m.is_file() => continue,
                Some(_) => {}
                // Deleted or moved away. notify drops the watches of a directory it saw go;
                // forget them here too (the path is reported: consumers treat it as a prefix).
                None if was_dir => native.watched.retain(|w| !w.starts_with(&abs)),
                None => {}
            }
            if !stays_inside(&self.root, &abs) {
                continue;
            }
            if IgnoreFilter::is_rule_file(&rel) {
                self.filter
                    .invalidate(rel.parent().unwrap_or_else(|| Path::new("")));
                rules_changed = true;
            }
            changes.paths.push(text);
        }
        let mut failure = None;
        for dir in new_dirs {
            let found = &mut changes.paths;
            if let Err(reason) = native.watch_tree(&mut self.filter, &dir, &mut |t| found.push(t)) {
                failure = Some(reason);
                break;
            }
        }
        if rules_changed && failure.is_none() {
            // Which files exist changed wholesale; a newly kept directory needs a watch.
            changes.rescan = true;
            if native.per_dir {
                let root = self.root.clone();
                failure = native
                    .watch_tree(&mut self.filter, &root, &mut |_| {})
                    .err();
            }
        }
        if failure.is_none() {
            *lock(&self.shared.status) = native.status();
        }
        self.emit(changes);
        if let Some(reason) = failure {
            self.degrade(&reason);
        }
    }

    /// Switches to polling after the OS watcher failed. What happened in between is unknown,
    /// hence a rescan.
    fn degrade(&mut self, reason: &str) {
        let detail = fallback_detail(reason, &self.options);
        tracing::warn!(root = %self.root.display(), "{detail}");
        self.backend = Backend::Polling(Polling {
            snapshot: Snapshot::take(&mut self.filter),
            next: Instant::now() + self.options.poll_interval,
        });
        *lock(&self.shared.status) = Status {
            mode: Mode::Polling,
            detail,
        };
        self.emit(Changes {
            paths: Vec::new(),
            rescan: true,
        });
    }

    fn poll(&mut self) {
        let Backend::Polling(polling) = &mut self.backend else {
            return;
        };
        let newer = Snapshot::take(&mut self.filter);
        let paths = polling.snapshot.diff(&newer);
        polling.snapshot = newer;
        polling.next = Instant::now() + self.options.poll_interval;
        let mut rescan = false;
        for p in paths.iter().map(Path::new) {
            if IgnoreFilter::is_rule_file(p) {
                self.filter
                    .invalidate(p.parent().unwrap_or_else(|| Path::new("")));
                rescan = true;
            }
        }
        self.emit(Changes { paths, rescan });
    }

    /// Signals `changed` now and adds the batch to the burst.
    fn emit(&mut self, mut changes: Changes) {
        changes.paths.sort_unstable();
        changes.paths.dedup();
        if changes.paths.len() > self.options.max_pending {
            changes.paths = Vec::new();
            changes.rescan = true;
        }
        if changes.paths.is_empty() && !changes.rescan {
            return;
        }
        self.sink.changed(&changes);
        self.pending.add(&changes, Instant::now());
    }

    fn settle_if_due(&mut self) {
        let due = self
            .pending
            .deadline(self.options.quiet, self.options.max_wait)
            .is_some_and(|t| Instant::now() >= t);
        if due {
            self.sink.settled(self.pending.take());
        }
    }
}
