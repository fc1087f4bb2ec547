//! Giving freed heap back to the system once the map is open.
//!
//! Opening a map decodes every file's rows on a blocking thread and derives ranks,
//! clusters and the search index on rayon's threads: glibc keeps a heap arena per thread,
//! and the blobs, decode buffers and intermediate tables freed afterwards stay mapped in
//! them. `serve` lives for hours with what it holds after the open, so it asks glibc to
//! return the free pages at the top and inside of every arena (`malloc_trim`; issue 19:
//! the server's RSS after a query mix). It does so again once answers have paused
//! ([`answered`]): the answers' own temporaries leave free pages between the live blocks.
//! The code only the open ran leaves the resident set too ([`release_code_of_open`]).

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

/// An answer that took this long is followed at once by a trim ([`answered`]).
const TRIM_AFTER: Duration = Duration::from_millis(2);

/// Notes that an answer was given, `took` after its call came in. What a long answer
/// freed goes back to the system at once ([`trim`]: a long answer is a large one, whose
/// temporaries are what stays between live blocks; a short one's are few, and reused by
/// the next answer), and the heap is trimmed again once answers pause for [`QUIET`] (by
/// one thread started on first use, asleep in between: what was freed after the answer
/// was made, its envelope and frame).
pub(crate) fn answered(took: Duration) {
    if took >= TRIM_AFTER {
        trim();
    }
    static PENDING: OnceLock<&'static Pending> = OnceLock::new();
    PENDING
        .get_or_init(|| Pending::start(QUIET, release_freed))
        .note();
}

/// Returns the free pages inside and at the top of glibc's arenas (`malloc_trim`), once
/// a long answer is made and before it is sent. An answer's temporaries (the node views
/// and tables of an overview or a walk, the references and mentions an answer about uses
/// reads from the database) are many small blocks: freed, they left 5–6 MB of free pages
/// between live blocks until the idle trim ran (issue 19: the server's RSS right after a
/// query mix). ≈ 0.2–0.4 ms a call on the stdlib's map: after every answer it raised the
/// search median from 0.8 to 1.2 ms; after the long ones only, the mix's CPU by ≈ 5 %
/// (docs/performance.md).
fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only walks glibc's own arenas under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
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

/// Drops the pages of the program's own code from the process once the map is open, and
/// returns how many bytes of code mapping it advised (0 where there is nothing to do).
///
/// Opening a map runs code an answer never runs again (SQLite's reads, decoding, ranking,
/// clustering, building the search index), and the kernel maps the code around each fault
/// besides (fault-around, large folios): after the open, 12.7 of the binary's 14.5 MB of
/// `.text` were resident, counted in the server's RSS. Dropped, the answers that follow
/// fault back in what they run: 8.8 MB after the query mix (issue 19's bench: the RSS
/// after the mix, −3.9 MB; the answers' medians unchanged). The read-only data goes too
/// (`navmap_map::release_code_pages`: every read-only mapping of the executable without a
/// page copied on write): the relocations and dynamic symbols only the loader read, the
/// grammars' tables the open's fingerprint hashed, constants the open read; answers fault
/// back what they read. Once, after the open — not at every idle trim, where each burst
/// of answers would fault its code in again.
pub(crate) fn release_code_of_open() -> usize {
    let advised = navmap_map::release_code_pages();
    tracing::debug!(advised, "code pages of the open released");
    advised
}

/// Fixes glibc's mapping and trimming thresholds at 1 MiB for a `navmap rebuild` that has
/// work (issue 19: the cold build's peak). By default both start at 128 kB and the mapping
/// threshold rises with every large block freed, up to 32 MB: a cold build's growing
/// vectors and large files' facts then stay in the heap once freed, and the heap's top is
/// given back rarely. Fixed, a block of 1 MiB or more is mapped apart and unmapped when
/// freed: on the stdlib, the peak 5–6 MB lower, the CPU the same (a fixed 64 kB, as
/// `release_freed` sets for `serve`, cost ≈ 7 % more CPU in system time).
pub(crate) fn for_a_build() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets glibc tunables (under its own lock).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 20);
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

    /// Resident kB of this process's own executable's read-only mappings, code and data
    /// (`/proc/self/smaps`).
    #[cfg(target_os = "linux")]
    fn resident_code_kb() -> u64 {
        let exe = std::fs::read_link("/proc/self/exe").unwrap();
        let exe = exe.to_string_lossy();
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        let mut kb = 0;
        for line in smaps.lines() {
            let header: Vec<&str> = line.splitn(6, ' ').collect();
            if header.len() == 6 && header[0].contains('-') && !header[0].ends_with(':') {
                let perms = header[1];
                inside = (perms == "r-xp" || perms == "r--p") && header[5].trim_start() == exe;
            } else if inside && let Some(rss) = line.strip_prefix("Rss:") {
                kb += rss.trim().trim_end_matches(" kB").parse::<u64>().unwrap();
            }
        }
        kb
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_code_of_the_open_leaves_the_resident_set() {
        let before = resident_code_kb();
        let advised = release_code_of_open();
        let after = resident_code_kb();
        assert!(advised > 0);
        // What runs from here on (reading smaps) faults back a little of it.
        assert!(
            after < before,
            "resident code {before} kB before, {after} kB after"
        );
    }

    /// Resident anonymous kB of this process (`RssAnon`).
    #[cfg(target_os = "linux")]
    fn resident_anon_kb() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("RssAnon:"))
            .map(|v| v.trim().trim_end_matches(" kB").parse().unwrap())
            .unwrap()
    }

    /// A long answer's temporaries — many small blocks, freed between blocks still live —
    /// go back to the system as soon as it is answered, not at the next pause.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn a_long_answer_gives_back_what_it_freed_at_once() {
        let mut live = Vec::new();
        let mut temporaries = Vec::new();
        for i in 0..40_000 {
            temporaries.push(vec![i as u8; 1000]);
            if i % 64 == 0 {
                live.push(vec![1u8; 24]);
            }
        }
        drop(temporaries);
        let before = resident_anon_kb();
        answered(TRIM_AFTER);
        let after = resident_anon_kb();
        assert!(
            after + 20_000 < before,
            "resident anonymous memory {before} kB before, {after} kB after"
        );
        drop(live);
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
