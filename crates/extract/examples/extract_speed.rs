//! Extraction throughput over a directory (single thread, no database): files, LOC, facts
//! and LOC/s per language. A figure printer, not a test.
//! Usage: `cargo run --release -p navmap-extract --example extract_speed -- <dir>`

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Per language: files, lines, defs, refs, imports, time, files with errors.
type Totals = (usize, u64, usize, usize, usize, Duration, usize);

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: extract_speed <dir>");
        std::process::exit(2);
    };
    let registry = navmap_grammars::registry();
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(&dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Some(lang) = registry.for_path(&p.to_string_lossy())
                && let Ok(src) = std::fs::read_to_string(&p)
                && src.len() <= 1 << 20
            {
                files.push((lang.clone(), p.to_string_lossy().to_string(), src));
            }
        }
    }
    let mut per: BTreeMap<String, Totals> = BTreeMap::new();
    for (lang, path, src) in &files {
        let t = Instant::now();
        let f = navmap_extract::extract_path(lang, path, src);
        let e = per.entry(lang.id().to_string()).or_default();
        e.5 += t.elapsed();
        e.0 += 1;
        e.1 += u64::from(f.lines);
        e.2 += f.defs.len();
        e.3 += f.refs.len();
        e.4 += f.imports.len();
        e.6 += usize::from(f.had_errors);
    }
    for (id, (n, loc, defs, refs, imports, time, errs)) in per {
        let secs = time.as_secs_f64().max(1e-9);
        println!(
            "{id}: {n} files, {loc} LOC, {defs} defs, {refs} refs, {imports} imports, {errs} with syntax errors; {:.2} s = {:.0} LOC/s, {:.0} files/s",
            secs,
            loc as f64 / secs,
            n as f64 / secs
        );
    }
}
