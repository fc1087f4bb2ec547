//! Giving freed heap back to the system once the map is open.
//!
//! Opening a map decodes every file's rows on a blocking thread and derives ranks,
//! clusters and the search index on rayon's threads: glibc keeps a heap arena per thread,
//! and the blobs, decode buffers and intermediate tables freed afterwards stay mapped in
//! them. `serve` lives for hours with what it holds after the open, so it asks glibc to
//! return the free pages at the top and inside of every arena (`malloc_trim`; issue 19:
//! the server's RSS after a query mix).

/// Returns free heap pages to the system (glibc only; elsewhere nothing to do).
pub(crate) fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `malloc_trim` only walks glibc's own arenas under their locks.
        let released = unsafe { libc::malloc_trim(0) };
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
