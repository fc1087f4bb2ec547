//! tree-sitter's own heap: its C library allocates through mimalloc, not the process's
//! `malloc`.
//!
//! Why (issue 19, a cold build's profile): parsing builds a tree of many small subtrees
//! and deleting it frees them one by one; with glibc's `malloc` that churn was ≈ 18 % of
//! a cold build's CPU (`malloc`, `_int_free`, `malloc_consolidate` after every deleted
//! tree), and the trees' short-lived chunks were interleaved in the same arenas with the
//! map's long-lived ones, which kept freed pages from going back (peak RSS). mimalloc
//! keeps per-thread pages of same-sized blocks: a deleted tree's memory is reused by the
//! next file's parse on that thread.
//!
//! tree-sitter requires its allocator to be installed before any other call into it and
//! never changed while one of its objects lives: every path of this crate that creates a
//! parser, a query or a tree calls [`ready`] first, and code outside the crate that uses
//! tree-sitter directly calls [`crate::install_allocator`] before it does.

use std::ffi::c_void;
use std::sync::Once;

static INSTALL: Once = Once::new();

/// mimalloc options, by their index in the `mi_option_e` enum of the mimalloc v3 that
/// `libmimalloc-sys` builds (its Rust constants do not name these two).
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Installs the allocator once per process; later calls return at once.
pub(crate) fn ready() {
    INSTALL.call_once(|| {
        // Memory a deleted tree leaves goes back to the system after 250 ms instead of
        // mimalloc's default 1 s, and arenas are committed as they are used, not up front:
        // with the defaults a cold build's peak RSS was 8–15 MB higher than with glibc
        // (measured on the cargo-registry corpus), for the same CPU. Not sooner: at 10 ms
        // the pages one file's tree left were given back and faulted in again by the next
        // file's parse (a cold build: 55–135k minor faults against 18–46k, `madvise` and
        // page faults 3–4 % of its CPU); the build's peak moves by a megabyte or two at
        // most, as the workers give back their free pages when extraction ends
        // (`release_free`). Figures: docs/performance.md, helper `cpu19f`.
        // SAFETY: options are plain integers read by mimalloc; set before its first use.
        unsafe {
            libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
            libmimalloc_sys::mi_option_set(PURGE_DELAY, 250);
        }
        // SAFETY: the four functions are one allocator family (mimalloc), never return
        // null for a non-zero size (they abort on exhaustion like `malloc` fails), and
        // align as `malloc` does; `Once` makes this the first tree-sitter call of the
        // process on every path that reaches it (see the module doc).
        unsafe {
            tree_sitter::set_allocator(Some(tree_sitter::Allocator {
                malloc: ts_malloc,
                calloc: ts_calloc,
                realloc: ts_realloc,
                free: ts_free,
            }));
        }
    });
}

/// Gives back the free pages of the calling thread's tree-sitter heap now. mimalloc purges
/// free pages only when the thread that owns them next allocates or frees: after a cold
/// build's extraction the workers sit idle until the next build, and the pages their last
/// trees left stayed resident through resolution (the build's peak, issue 19).
pub(crate) fn release_free() {
    if INSTALL.is_completed() {
        // SAFETY: `mi_collect` only returns free memory of this thread's heap.
        unsafe { libmimalloc_sys::mi_collect(true) }
    }
}

unsafe extern "C" fn ts_malloc(size: usize) -> *mut c_void {
    // SAFETY: plain allocation.
    unsafe { libmimalloc_sys::mi_malloc(size) }
}

unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut c_void {
    // SAFETY: plain zeroed allocation (overflow of `count * size` is checked by mimalloc).
    unsafe { libmimalloc_sys::mi_calloc(count, size) }
}

unsafe extern "C" fn ts_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    // SAFETY: `ptr` came from this family (tree-sitter only reallocates its own blocks).
    unsafe { libmimalloc_sys::mi_realloc(ptr, size) }
}

unsafe extern "C" fn ts_free(ptr: *mut c_void) {
    // SAFETY: `ptr` came from this family, or is null.
    unsafe { libmimalloc_sys::mi_free(ptr) }
}
