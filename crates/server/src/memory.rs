//! Giving freed heap back to the system once the map is open.
//!
//! Opening a map decodes every file's rows on a blocking thread and derives ranks,
//! clusters and the search index on rayon's threads: glibc keeps a heap arena per thread,
//! and the blobs, decode buffers and intermediate tables freed afterwards stay mapped in
//! them. `serve` lives for hours with what it holds after the open, so it asks glibc to
//! return the free pages at the top and inside of every arena (`malloc_trim`; issue 19:
//! the server's RSS after a query mix). It does so again once answers have paused
//! ([`answered`]): the answers' own temporaries leave free pages between the live blocks.

use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long answers must have paused before the heap is trimmed (trimming holds the
/// arenas' locks for a few milliseconds; not while answers are coming in).
const QUIET: Duration = Duration::from_millis(200);

/// The time of the last answer not yet followed by a trim.
struct Pending {
    last: Mutex<Option<Instant>>,
    wake: Condvar,
}

impl Pending {
    /// A pending set whose thread calls `trim` once notes pause for `quiet`.
    fn start(quiet: Duration, trim: impl Fn() + Send + 'static) -> &'static Pending {
        let p: &'static Pending = Box::leak(Box::new(Pending {
            last: Mutex::new(None),
            wake: Condvar::new(),
        }));
        let started = std::thread::Builder::new()
            .name("navmap-trim".into())
            .spawn(move || p.trim_when_quiet(quiet, trim));
        if let Err(e) = started {
            tracing::debug!(error = %e, "no heap-trimming thread");
        }
        p
    }

    fn note(&self) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        *last = Some(Instant::now());
        self.wake.notify_one();
    }

    fn trim_when_quiet(&self, quiet: Duration, trim: impl Fn()) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match *last {
                None => last = self.wake.wait(last).unwrap_or_else(|e| e.into_inner()),
                Some(at) if at.elapsed() >= quiet => {
                    *last = None;
                    drop(last);
                    trim();
                    last = self.last.lock().unwrap_or_else(|e| e.into_inner());
                }
                Some(at) => {
                    let left = quiet.saturating_sub(at.elapsed());
                    last = self
                        .wake
                        .wait_timeout(last, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
            }
        }
    }
}

/// Notes that an answer was given: the heap is trimmed once answers pause for [`QUIET`]
/// (by one thread started on first use, asleep in between).
pub(crate) fn answered() {
    static PENDING: OnceLock<&'static Pending> = OnceLock::new();
    PENDING
        .get_or_init(|| Pending::start(QUIET, release_freed))
        .note();
}

/// Returns free heap pages to the system, and from then on keeps large temporaries out
/// of the arenas (glibc only; elsewhere nothing to do).
pub(crate) fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only sets glibc tunables (under its own lock); `malloc_trim`
        // only walks glibc's own arenas under their locks.
        let released = unsafe {
            // Fixed thresholds: glibc's default raises both each time a large block is
            // freed, after which every answer's large temporaries (a search's per-node
            // tables) came from the arenas and stayed there as free, resident pages. Fixed,
            // a block of 64 KiB or more is mapped and unmapped on its own, and free memory
            // at the top of an arena goes back beyond 128 KiB (issue 19: the server's RSS
            // after a query mix). Set only once the map is open: a build allocates many
            // large blocks and is better served by glibc's default.
            libc::mallopt(libc::M_MMAP_THRESHOLD, 64 * 1024);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 128 * 1024);
            libc::malloc_trim(0)
        };
        tracing::debug!(released, "freed heap returned to the system");
    }
}

/// Caps glibc's heap arenas at one per core (its default is eight per core). Every thread
/// that allocates under contention gets an arena of its own and keeps what it freed: the
/// runtime's workers, its blocking threads and rayon's answer queries, open the map and
/// rebuild, and a server that had served a query mix held far more than its live heap
/// (issue 19). Called first thing in `main`, before any thread starts.
pub fn one_arena_per_core() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let arenas = cores.clamp(2, 64) as libc::c_int;
        // SAFETY: `mallopt` only sets a glibc tunable; no allocation has raced it yet.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Waits (up to 20 s, polling) until `trims` reaches `n`.
    fn until(trims: &AtomicUsize, n: usize) -> usize {
        for _ in 0..2000 {
            if trims.load(Ordering::SeqCst) >= n {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        trims.load(Ordering::SeqCst)
    }

    #[test]
    fn the_heap_is_trimmed_once_answers_pause() {
        let trims = Arc::new(AtomicUsize::new(0));
        let counted = trims.clone();
        let p = Pending::start(Duration::from_millis(500), move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        // Answers in quick succession: no trim while they come in…
        for _ in 0..5 {
            p.note();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(trims.load(Ordering::SeqCst), 0);
        // …one once they pause, and no other until the next answer.
        assert_eq!(until(&trims, 1), 1);
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(trims.load(Ordering::SeqCst), 1);
        p.note();
        assert_eq!(until(&trims, 2), 2);
    }
}
