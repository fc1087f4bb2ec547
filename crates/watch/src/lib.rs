//! A gitignore-aware file watcher for one repository root: it reports changed paths at once
//! (so a map can mark them stale) and again as a debounced, coalesced burst (so it can
//! rebuild once), and degrades to polling — visibly — when the OS watcher fails.
//!
//! **Owns**: watching a root recursively (notify; on Linux one inotify watch per *kept*
//! directory, so `node_modules` never costs watches), the ignore rules the map build shares
//! ([`walk_builder`], [`IgnoreFilter`], [`SKIPPED_DIRS`]), debouncing (quiet period plus
//! max-wait), the bounded pending set, the polling fallback and its [`Status`].
//!
//! **Must not touch**: the map, SQLite, MCP, language servers, or any language name. It reads
//! only inside the root (directory listings, metadata, ignore files), never file contents,
//! and writes nothing. Paths it reports are root-relative, `/`-separated, and never resolve
//! outside the root (symlinks are neither followed nor reported).
//!
//! Signals, both on the watcher's own thread, in order:
//! - [`Sink::changed`] after every raw batch of OS events (or every poll that found changes);
//! - [`Sink::settled`] once the burst has been quiet for [`Options::quiet`] (300 ms), or
//!   [`Options::max_wait`] (2 s) after its first change, with the union of the burst's paths.
//!
//! In both, `rescan: true` means the list is incomplete (too many changes, an OS queue
//! overflow, ignore rules edited, a switch to polling): treat every file as possibly changed.
//! A reported path may name a deleted or moved-away *directory*; treat it as a prefix.
//!
//! ```no_run
//! use navmap_watch::{Changes, Options, Watcher, sink_fn};
//!
//! let watcher = Watcher::start(
//!     "/path/to/repo",
//!     Options::default(),
//!     sink_fn(
//!         |now: &Changes| eprintln!("stale: {:?}", now.paths),
//!         |burst: Changes| eprintln!("rebuild: {} files, rescan={}", burst.paths.len(), burst.rescan),
//!     ),
//! )?;
//! eprintln!("{:?}", watcher.status()); // mode Native or Polling, with the reason
//! drop(watcher); // stops and joins the thread
//! # Ok::<(), std::io::Error>(())
//! ```

mod filter;
mod pending;
mod scan;
mod watcher;

use std::fmt;
use std::time::Duration;

pub use filter::{IgnoreFilter, SKIPPED_DIRS, is_skipped_name, walk_builder};
pub use watcher::Watcher;

/// Tuning of a [`Watcher`]. `Options::default()` is what navmap uses.
#[derive(Debug, Clone)]
pub struct Options {
    /// Quiet time after the last change before a burst settles (default 300 ms).
    pub quiet: Duration,
    /// Longest time from a burst's first change to its `settled` signal (default 2 s), so a
    /// steady trickle of writes cannot postpone a rebuild forever.
    pub max_wait: Duration,
    /// Most distinct paths kept for one burst (default 100 000); past it the burst collapses
    /// to `rescan: true`.
    pub max_pending: usize,
    /// Period of the size/mtime scan in polling mode (default 2 s).
    pub poll_interval: Duration,
    /// Poll even when the OS watcher would work (tests, network file systems).
    pub force_polling: bool,
    /// Most directories given an OS watch of their own (default 65 536). inotify watches are
    /// shared by every process of the user; past this, poll rather than starve the others.
    pub max_watched_dirs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            quiet: Duration::from_millis(300),
            max_wait: Duration::from_secs(2),
            max_pending: 100_000,
            poll_interval: Duration::from_secs(2),
            force_polling: false,
            max_watched_dirs: 65_536,
        }
    }
}

/// A set of changed files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Root-relative, `/`-separated, sorted, without duplicates. A path may name a file that
    /// no longer exists, or a directory that was deleted or moved away.
    pub paths: Vec<String>,
    /// The list is incomplete: treat every file as possibly changed. In a `settled` burst,
    /// `paths` is then empty.
    pub rescan: bool,
}

/// Receives a [`Watcher`]'s signals, on the watcher's thread. Keep both calls short (hand
/// the work to another thread): events are collected meanwhile, but not signalled.
pub trait Sink: Send + 'static {
    /// Files changed just now: mark them stale.
    fn changed(&mut self, changes: &Changes);
    /// A burst is over: rebuild these (every path of the burst, once).
    fn settled(&mut self, changes: Changes);
}

/// A [`Sink`] made of two closures; see [`sink_fn`].
pub struct FnSink<C, S> {
    changed: C,
    settled: S,
}

/// A [`Sink`] calling `changed` and `settled`.
pub fn sink_fn<C, S>(changed: C, settled: S) -> FnSink<C, S>
where
    C: FnMut(&Changes) + Send + 'static,
    S: FnMut(Changes) + Send + 'static,
{
    FnSink { changed, settled }
}

impl<C, S> Sink for FnSink<C, S>
where
    C: FnMut(&Changes) + Send + 'static,
    S: FnMut(Changes) + Send + 'static,
{
    fn changed(&mut self, changes: &Changes) {
        (self.changed)(changes)
    }
    fn settled(&mut self, changes: Changes) {
        (self.settled)(changes)
    }
}

/// How a [`Watcher`] observes changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// OS notifications: changes are seen within milliseconds.
    Native,
    /// Periodic size/mtime scans ([`Options::poll_interval`]): changes are seen late, and a
    /// rewrite that keeps both size and mtime is missed.
    Polling,
    /// Not watching (stopped, or the sink panicked): the map is refreshed only on demand.
    Stopped,
}

impl Mode {
    /// `"native"`, `"polling"` or `"stopped"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Native => "native",
            Mode::Polling => "polling",
            Mode::Stopped => "stopped",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What [`Watcher::status`] reports: the mode and a sentence for humans (why polling, how
/// many directories are watched, ...), fit for a `map_status` warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub mode: Mode,
    pub detail: String,
}
