//! What compiling each language's queries costs: every query file of every grammar on its
//! own, the merged query `extract` compiles, and (with `--patterns`) each pattern of the
//! merged query left out in turn (what the merged query's compile saves without it), and
//! each pattern alone: on-CPU time of this thread, the best of `rounds`. A figure printer, not a test.
//! Usage: `cargo run --release -p navmap-extract --example compile_cost -- [lang|all] [rounds] [--patterns]`

use tree_sitter::Query;

/// On-CPU time of this thread, in milliseconds (`CLOCK_THREAD_CPUTIME_ID`: exact, unlike
/// `/proc/thread-self/schedstat`, which counts in scheduler ticks here).
fn cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

fn best(grammar: &tree_sitter::Language, src: &str, rounds: usize) -> (f64, bool) {
    let mut best = f64::MAX;
    let mut ok = true;
    for _ in 0..rounds {
        let start = cpu_ms();
        ok = Query::new(grammar, src).is_ok();
        best = best.min(cpu_ms() - start);
    }
    (best, ok)
}

/// `extract`'s query text of one file for one grammar (`compiled.rs`): `<stem>.scm`, then
/// `<stem>.<grammar>.scm` when there is one.
/// With `COMPILE_COST_DIR` set, `<dir>/<stem>.scm` stands in for the language's own file
/// (to try a rewrite without a rebuild).
fn source(lang: &navmap_language::Language, stem: &str, grammar: &str) -> Option<String> {
    if let Ok(dir) = std::env::var("COMPILE_COST_DIR")
        && let Ok(text) = std::fs::read_to_string(format!("{dir}/{stem}.scm"))
    {
        return Some(text);
    }
    let base = lang.query(stem)?;
    Some(match lang.query(&format!("{stem}.{grammar}")) {
        Some(extra) => format!("{base}\n{extra}"),
        None => base.to_string(),
    })
}

fn main() {
    navmap_extract::install_allocator();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let patterns = args.iter().any(|a| a == "--patterns");
    let rest: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--each"))
        .map(|(_, a)| a)
        .collect();
    let only = rest.first().map(|s| s.as_str()).filter(|s| *s != "all");
    let rounds: usize = rest.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let registry = navmap_grammars::registry();
    // `--each FILE`: every line of FILE compiled alone for `lang`, less a leaf pattern's
    // cost (what the query's fixed part costs).
    if let Some(i) = args.iter().position(|a| a == "--each") {
        let lang = registry.by_id(only.unwrap_or("py")).expect("language");
        let grammar = &lang.grammars[0].1;
        let text = std::fs::read_to_string(&args[i + 1]).expect("file");
        let (base, _) = best(grammar, "(identifier) @x", rounds);
        println!("fixed {base:.2} ms");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (ms, ok) = best(grammar, line, rounds);
            println!("{:7.2} ms{} {line}", ms - base, if ok { "" } else { " !" });
        }
        return;
    }
    for lang in registry.all() {
        if only.is_some_and(|o| o != lang.id()) {
            continue;
        }
        for (gname, grammar) in &lang.grammars {
            let mut merged = String::new();
            let mut line = format!("{:>5} {:<12}", lang.id(), gname);
            for stem in ["defs", "refs", "imports", "bindings"] {
                let Some(src) = source(lang, stem, gname) else {
                    continue;
                };
                let (ms, ok) = best(grammar, &src, rounds);
                line.push_str(&format!(" {stem} {ms:7.2}{}", if ok { "" } else { "!" }));
                merged.push_str(&src);
                merged.push('\n');
            }
            let (ms, ok) = best(grammar, &merged, rounds);
            println!(
                "{line}  merged {ms:7.2} ms{}",
                if ok { "" } else { " (does not compile)" }
            );
            if !patterns || !ok {
                continue;
            }
            let query = Query::new(grammar, &merged).expect("compiles");
            let count = query.pattern_count();
            let starts: Vec<usize> = (0..count)
                .map(|i| query.start_byte_for_pattern(i))
                .collect();
            let mut rows = Vec::new();
            for i in 0..count {
                let end = starts.get(i + 1).copied().unwrap_or(merged.len());
                let without = format!("{}{}", &merged[..starts[i]], &merged[end..]);
                let (w, wok) = best(grammar, &without, rounds);
                let (alone, _) = best(grammar, &merged[starts[i]..end], rounds);
                let first = merged[starts[i]..end]
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(70)
                    .collect::<String>();
                rows.push((ms - w, alone, wok, i, first));
            }
            rows.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (saved, alone, wok, i, first) in rows {
                println!(
                    "    #{i:<3} saves {saved:7.2} ms, alone {alone:7.2} ms{}  {first}",
                    if wok { "" } else { " (rest fails)" }
                );
            }
        }
    }
}
