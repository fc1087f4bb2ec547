//! Dropping the resident pages of the program's own code between the phases of a build.
//!
//! Why (issue 19, the cold build's peak RSS on the cargo registry): the kernel maps the
//! executable's code and read-only data around each page fault (fault-around, and a whole
//! page-cache folio where the file is cached in large folios), so a build's resident set
//! soon held 11–12 of the binary's 15 MB of `.text` and ≈ 4 MB of its read-only data
//! (parse tables of every grammar touched, the queries' strings) — 17 MB file-backed of a
//! 48–51 MB peak, against BlastCode's whole 27 MB. Each phase runs little of it: the
//! start-up (argument parsing, the walk, SQLite's schema) not again, extraction the
//! parser, the queries and the map's apply, resolution and the rows their own code.
//! Dropped at the phase boundaries, each phase faults back only what it runs (from the
//! page cache: minor faults).

/// Drops this process's resident pages of its own executable's read-only mappings (code
/// and read-only data; never a mapping with a written page) from its page tables, and
/// returns how many bytes of mapping it advised (0 where there is nothing to do: not
/// Linux, `/proc` unreadable). The next access faults a page back in from the file.
pub fn release_code_pages() -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut advised = 0;
        for (start, len) in clean_own_mappings() {
            // SAFETY: `[start, start + len)` is a whole private, read-only mapping of this
            // process's executable file with no anonymous (written, copied-on-write) page,
            // read from `/proc/self/smaps`; being read-only, none can be written after that
            // reading either. For such a mapping `MADV_DONTNEED` only drops the pages from
            // this process's page tables: the next access, from any thread, faults them in
            // again from the file, unchanged (the kernel refuses writes to a running
            // executable, ETXTBSY; a rebuilt binary is a new file). No Rust object lives
            // in the range that could observe it.
            let r = unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_DONTNEED) };
            if r == 0 {
                advised += len;
            }
        }
        advised
    }
    #[cfg(not(target_os = "linux"))]
    0
}

/// The read-only private mappings of this process's own executable file holding no
/// anonymous page: (start, length). The relocated read-only data (RELRO: written by the
/// loader, then made read-only) has anonymous pages and is left out.
#[cfg(target_os = "linux")]
fn clean_own_mappings() -> Vec<(usize, usize)> {
    let (Ok(exe), Ok(smaps)) = (
        std::fs::read_link("/proc/self/exe"),
        std::fs::read_to_string("/proc/self/smaps"),
    ) else {
        return vec![];
    };
    let exe = exe.to_string_lossy();
    let mut out = vec![];
    // The mapping being read: (start, length) when it is one of ours and read-only.
    let mut current: Option<(usize, usize)> = None;
    for line in smaps.lines() {
        if let Some(kb) = line.strip_prefix("Anonymous:") {
            let clean = kb.trim().trim_end_matches("kB").trim() == "0";
            if let Some(m) = current.take()
                && clean
            {
                out.push(m);
            }
            continue;
        }
        let Some((range, rest)) = line.split_once(' ') else {
            continue;
        };
        let Some((a, b)) = range.split_once('-') else {
            continue;
        };
        let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)) else {
            // A field line (`Rss:`, `VmFlags:` …), not a mapping's header.
            continue;
        };
        // A header: `start-end perms offset dev inode path`; the path may hold spaces.
        current = None;
        let mut f = rest.splitn(5, ' ');
        let perms = f.next().unwrap_or("");
        let path = f.nth(3).unwrap_or("").trim_start();
        if (perms == "r-xp" || perms == "r--p") && path == exe && b > a {
            current = Some((a, b - a));
        }
    }
    out
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn code_pages_are_dropped_and_run_again() {
        let mappings = clean_own_mappings();
        // The test binary's code is among them (this function runs from it).
        let here = code_pages_are_dropped_and_run_again as *const () as usize;
        assert!(
            mappings
                .iter()
                .any(|&(a, len)| (a..a + len).contains(&here)),
            "{mappings:x?}"
        );
        assert!(release_code_pages() > 0);
        // Code and constants fault back in unchanged.
        let text = format!("{:?}", (1..=4).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(text, "[2, 4, 6, 8]");
    }
}
