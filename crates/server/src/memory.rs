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
