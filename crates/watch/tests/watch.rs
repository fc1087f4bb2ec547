//! The watcher against a real file system in temporary directories. Waits are bounded by
//! generous limits (never asserted as timings): a signal that does not come is a failure.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use navmap_watch::{Changes, Mode, Options, Watcher, sink_fn};

const LIMIT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
enum Signal {
    Changed(Changes),
    Settled(Changes),
}

/// Every signal a watcher sent, in order.
#[derive(Default)]
struct Log {
    signals: Mutex<Vec<Signal>>,
    arrived: Condvar,
}

impl Log {
    fn push(&self, s: Signal) {
        self.signals.lock().unwrap().push(s);
        self.arrived.notify_all();
    }

    /// Waits (up to `limit`) until `done` holds for the signals so far; returns them.
    fn wait(&self, limit: Duration, what: &str, done: impl Fn(&[Signal]) -> bool) -> Vec<Signal> {
        let deadline = Instant::now() + limit;
        let mut signals = self.signals.lock().unwrap();
        while !done(&signals) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "no {what} within {limit:?}; got {signals:#?}"
            );
            signals = self.arrived.wait_timeout(signals, left).unwrap().0;
        }
        signals.clone()
    }

    /// Waits until the settled bursts cover `paths`.
    fn wait_settled(&self, paths: &[&str]) -> Vec<Signal> {
        let what = format!("settled {paths:?}");
        self.wait(LIMIT, &what, |s| {
            let got = settled_paths(s);
            paths.iter().all(|p| got.contains(*p))
        })
    }

    /// Forgets the signals so far (after checking their order).
    fn take(&self) -> Vec<Signal> {
        let signals = std::mem::take(&mut *self.signals.lock().unwrap());
        assert_changed_first(&signals);
        signals
    }
}

fn settled_paths(signals: &[Signal]) -> BTreeSet<String> {
    signals
        .iter()
        .filter_map(|s| match s {
            Signal::Settled(c) => Some(c.paths.iter().cloned()),
            Signal::Changed(_) => None,
        })
        .flatten()
        .collect()
}

fn all_paths(signals: &[Signal]) -> BTreeSet<String> {
    signals
        .iter()
        .flat_map(|s| match s {
            Signal::Settled(c) | Signal::Changed(c) => c.paths.iter().cloned(),
        })
        .collect()
}

/// Every settled path was signalled as changed before (the map marks stale, then rebuilds).
fn assert_changed_first(signals: &[Signal]) {
    let mut seen = BTreeSet::new();
    for s in signals {
        match s {
            Signal::Changed(c) => seen.extend(c.paths.iter().cloned()),
            Signal::Settled(c) => {
                for p in &c.paths {
                    assert!(seen.contains(p), "{p} settled before any changed signal");
                }
            }
        }
    }
}

fn start(root: &Path, options: Options) -> (Watcher, Arc<Log>) {
    let log = Arc::new(Log::default());
    let (a, b) = (Arc::clone(&log), Arc::clone(&log));
    let sink = sink_fn(
        move |c: &Changes| a.push(Signal::Changed(c.clone())),
        move |c: Changes| b.push(Signal::Settled(c)),
    );
    let watcher = Watcher::start(root, options, sink).expect("watcher starts");
    (watcher, log)
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn polling() -> Options {
    Options {
        force_polling: true,
        poll_interval: Duration::from_millis(100),
        ..Options::default()
    }
}

#[test]
fn native_reports_create_modify_delete_rename() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.py", "a = 1\n");
    write(root, "pkg/m.py", "m = 1\n");
    let (watcher, log) = start(root, Options::default());
    assert_eq!(
        watcher.status().mode,
        Mode::Native,
        "{:?}",
        watcher.status()
    );

    write(root, "b.py", "b = 1\n");
    log.wait_settled(&["b.py"]);
    log.take();

    fs::write(root.join("pkg/m.py"), "m = 2\n").unwrap();
    log.wait_settled(&["pkg/m.py"]);
    log.take();

    fs::remove_file(root.join("a.py")).unwrap();
    log.wait_settled(&["a.py"]);
    log.take();

    fs::rename(root.join("b.py"), root.join("pkg/c.py")).unwrap();
    log.wait_settled(&["b.py", "pkg/c.py"]);
    log.take();

    // A new directory is watched, including files written before its watch existed.
    write(root, "new/deep/f.py", "");
    log.wait_settled(&["new/deep/f.py"]);
    write(root, "new/deep/g.py", "");
    log.wait_settled(&["new/deep/g.py"]);
    log.take();

    // A moved directory is reported under both names, then watched under the new one.
    fs::rename(root.join("new"), root.join("moved")).unwrap();
    log.wait_settled(&["new", "moved/deep/f.py", "moved/deep/g.py"]);
    log.take();
    write(root, "moved/deep/h.py", "");
    let signals = log.wait_settled(&["moved/deep/h.py"]);
    assert!(!all_paths(&signals).contains("new/deep/h.py"));
    log.take();
    assert_eq!(watcher.status().mode, Mode::Native);
}

fn ignored_paths_are_not_reported(options: Options) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "*.log\nsecret/\n");
    write(root, "sub/.gitignore", "gen.py\n");
    write(root, "node_modules/.keep", "");
    let (_watcher, log) = start(root, options);

    write(root, "node_modules/x/index.js", "");
    write(root, "app.log", "");
    write(root, "secret/s.py", "");
    write(root, "sub/gen.py", "");
    write(root, "target/debug/t.rs", "");
    write(root, ".git/HEAD", "ref");
    write(root, ".navmap/map.db", "");
    write(root, "pkg/build/out.js", "");
    write(root, "sub/kept.py", "");
    let signals = log.wait_settled(&["sub/kept.py"]);
    assert_eq!(
        all_paths(&signals),
        BTreeSet::from(["sub/kept.py".to_string()])
    );
    log.take();
}

#[test]
fn ignored_paths_are_not_reported_native() {
    ignored_paths_are_not_reported(Options::default());
}

#[test]
fn ignored_paths_are_not_reported_polling() {
    ignored_paths_are_not_reported(polling());
}

#[test]
fn symlinks_out_of_the_root_are_not_reported() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "o.py", "");
    let root = dir.path();
    let (_watcher, log) = start(root, Options::default());
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path(), root.join("linkdir")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("o.py"), root.join("link.py")).unwrap();
    }
    write(outside.path(), "p.py", "");
    write(root, "real.py", "");
    let signals = log.wait_settled(&["real.py"]);
    assert_eq!(all_paths(&signals), BTreeSet::from(["real.py".to_string()]));
}

#[test]
fn a_burst_of_2000_files_settles_as_one_batch() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A longer quiet period than the default, so that a loaded test machine pausing the
    // writer does not split the burst; the coalescing logic is the same.
    let options = Options {
        quiet: Duration::from_secs(1),
        max_wait: Duration::from_secs(30),
        ..Options::default()
    };
    let (_watcher, log) = start(root, options);
    let mut expected = Vec::new();
    for d in 0..20 {
        for f in 0..100 {
            let rel = format!("gen/d{d:02}/f{f:03}.py");
            write(root, &rel, "x = 1\n");
            expected.push(rel);
        }
    }
    let wanted: Vec<&str> = expected.iter().map(String::as_str).collect();
    let signals = log.wait(Duration::from_secs(60), "2,000 settled paths", |s| {
        let got = settled_paths(s);
        wanted.iter().all(|p| got.contains(*p))
    });
    let settled: Vec<&Changes> = signals
        .iter()
        .filter_map(|s| match s {
            Signal::Settled(c) => Some(c),
            Signal::Changed(_) => None,
        })
        .collect();
    assert!(settled.iter().all(|c| !c.rescan));
    assert!(
        settled.len() <= 3,
        "{} settled calls for one burst",
        settled.len()
    );
    assert_eq!(settled_paths(&signals).len(), 2000);
    log.take();
}

#[test]
fn a_burst_past_the_bound_collapses_to_rescan() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let options = Options {
        max_pending: 500,
        quiet: Duration::from_secs(1),
        ..Options::default()
    };
    let (_watcher, log) = start(root, options);
    for f in 0..2000 {
        write(root, &format!("gen/f{f:04}.py"), "");
    }
    let signals = log.wait(LIMIT, "a rescan burst", |s| {
        s.iter()
            .any(|s| matches!(s, Signal::Settled(c) if c.rescan))
    });
    for s in &signals {
        let (Signal::Changed(c) | Signal::Settled(c)) = s;
        assert!(c.paths.len() <= 500, "a batch of {} paths", c.paths.len());
        if let Signal::Settled(c) = s {
            assert!(!c.rescan || c.paths.is_empty());
        }
    }
    // Let the rest of the burst settle, then the flag is gone for the next one.
    std::thread::sleep(Duration::from_secs(3));
    log.take();
    write(root, "after.py", "");
    let signals = log.wait_settled(&["after.py"]);
    assert!(signals.iter().all(|s| match s {
        Signal::Settled(c) => !c.rescan,
        Signal::Changed(_) => true,
    }));
}

#[test]
fn forced_polling_reports_changes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.py", "a = 1\n");
    write(root, "gone.py", "");
    let (watcher, log) = start(root, polling());
    let status = watcher.status();
    assert_eq!(status.mode, Mode::Polling);
    assert!(status.detail.contains("forced"), "{}", status.detail);

    write(root, "b/new.py", "");
    fs::write(root.join("a.py"), "a = 22\n").unwrap();
    fs::remove_file(root.join("gone.py")).unwrap();
    log.wait_settled(&["a.py", "b/new.py", "gone.py"]);
    log.take();
}

#[test]
fn too_many_directories_degrades_to_polling_visibly() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for d in ["a", "b", "c", "d"] {
        write(root, &format!("{d}/x.py"), "");
    }
    let options = Options {
        max_watched_dirs: 2,
        ..polling()
    };
    let options = Options {
        force_polling: false,
        ..options
    };
    let (watcher, log) = start(root, options);
    let status = watcher.status();
    assert_eq!(status.mode, Mode::Polling);
    assert!(
        status.detail.contains("max_watched_dirs"),
        "{}",
        status.detail
    );
    write(root, "c/y.py", "");
    log.wait_settled(&["c/y.py"]);
}

#[test]
fn a_watcher_that_fails_while_running_degrades_with_a_rescan() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a/x.py", "");
    let options = Options {
        max_watched_dirs: 3,
        poll_interval: Duration::from_millis(100),
        ..Options::default()
    };
    let (watcher, log) = start(root, options);
    assert_eq!(watcher.status().mode, Mode::Native);
    write(root, "b/1/2/3/y.py", "");
    log.wait(LIMIT, "a rescan", |s| {
        s.iter()
            .any(|s| matches!(s, Signal::Settled(c) if c.rescan))
    });
    let status = watcher.status();
    assert_eq!(status.mode, Mode::Polling);
    assert!(status.detail.contains("polling every"), "{}", status.detail);
    log.take();
    write(root, "b/1/2/3/z.py", "");
    log.wait_settled(&["b/1/2/3/z.py"]);
}

#[test]
fn editing_ignore_rules_asks_for_a_rescan_and_watches_newly_kept_dirs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "gen/\n");
    write(root, "gen/old.py", "");
    let (_watcher, log) = start(root, Options::default());
    fs::write(root.join(".gitignore"), "").unwrap();
    log.wait(LIMIT, "a rescan", |s| {
        s.iter()
            .any(|s| matches!(s, Signal::Settled(c) if c.rescan))
    });
    log.take();
    write(root, "gen/new.py", "");
    log.wait_settled(&["gen/new.py"]);
}

#[test]
fn dropping_the_watcher_ends_its_thread() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for options in [Options::default(), polling()] {
        let (watcher, log) = start(root, options);
        drop(watcher);
        // The thread owned the sink, whose closures hold the only other references.
        assert_eq!(Arc::strong_count(&log), 1);
        write(root, "late.py", "");
        std::thread::sleep(Duration::from_millis(500));
        assert!(log.signals.lock().unwrap().is_empty());
        fs::remove_file(root.join("late.py")).unwrap();
    }
}

#[test]
fn start_refuses_a_missing_root() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    assert!(Watcher::start(&missing, Options::default(), sink_fn(|_| {}, |_| {})).is_err());
    let file = dir.path().join("f");
    fs::write(&file, "").unwrap();
    assert!(Watcher::start(&file, Options::default(), sink_fn(|_| {}, |_| {})).is_err());
}
