//! What each query pattern costs to match, over the files of one language in a directory:
//! every pattern of the merged query (`defs`, `refs`, `imports`, `bindings`) compiled and
//! left out of the merged query in turn, over pre-parsed trees: what the merged query saves
//! without it, in on-CPU time of this thread (less sensitive to a loaded machine than wall
//! time). Small differences are noise; read it as a ranking.
//! A figure printer, not a test.
//! Usage: `cargo run --release -p navmap-extract --example pattern_cost -- <dir> [rounds]`

use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator, Tree};

/// On-CPU nanoseconds of this thread (Linux `schedstat`); 0 where unavailable.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn run(query: &Query, trees: &[(Tree, String)], rounds: usize) -> (u64, usize) {
    let mut best = u64::MAX;
    let mut matches = 0;
    for _ in 0..3 {
        let start = cpu_ns();
        matches = 0;
        for _ in 0..rounds {
            let mut cursor = QueryCursor::new();
            for (tree, src) in trees {
                let mut m = cursor.matches(query, tree.root_node(), src.as_bytes());
                while m.next().is_some() {
                    matches += 1;
                }
            }
        }
        best = best.min(cpu_ns() - start);
    }
    (best, matches / rounds)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: pattern_cost <dir> [rounds]");
        std::process::exit(2);
    };
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let registry = navmap_grammars::registry();
    let mut lang = None;
    let mut trees = Vec::new();
    let mut parser = Parser::new();
    for entry in std::fs::read_dir(&dir).expect("a directory").flatten() {
        let path = entry.path().to_string_lossy().to_string();
        let (Some(l), Ok(src)) = (registry.for_path(&path), std::fs::read_to_string(&path)) else {
            continue;
        };
        let ext = path.rsplit('.').next().unwrap_or("");
        parser.set_language(l.grammar_for_extension(ext)).ok();
        if let Some(tree) = parser.parse(&src, None) {
            trees.push((tree, src));
        }
        lang = Some(l);
    }
    let Some(lang) = lang else {
        eprintln!("no files of a known language in {dir}");
        std::process::exit(2);
    };
    let grammar = lang
        .grammars
        .first()
        .map(|(_, g)| g.clone())
        .expect("a grammar");
    let merged: String = ["defs", "refs", "imports", "bindings"]
        .iter()
        .filter_map(|s| lang.query(s))
        .collect::<Vec<_>>()
        .join("\n");
    let query = Query::new(&grammar, &merged).expect("queries compile");
    let (empty, _) = run(
        &Query::new(&grammar, "").expect("empty query"),
        &trees,
        rounds,
    );
    let (all, n) = run(&query, &trees, rounds);
    let ms = |ns: u64| ns as f64 / 1e6 / rounds as f64;
    println!(
        "{}: {} files; empty walk {:.1} ms, merged query {:.1} ms ({n} matches)",
        lang.id(),
        trees.len(),
        ms(empty),
        ms(all)
    );
    let mut rows = Vec::new();
    for i in 0..query.pattern_count() {
        let text = &merged[query.start_byte_for_pattern(i)..query.end_byte_for_pattern(i)];
        // Leave-one-out: what the merged query saves without this pattern.
        let mut without = Query::new(&grammar, &merged).expect("queries compile");
        without.disable_pattern(i);
        let (ns, _) = run(&without, &trees, rounds);
        let alone = Query::new(&grammar, text)
            .map(|q| run(&q, &trees, 1).1)
            .unwrap_or(0);
        let line = merged[..query.start_byte_for_pattern(i)].lines().count() + 1;
        let head: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let head: String = head.chars().take(90).collect();
        rows.push((all as i64 - ns as i64, i, line, alone, head));
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    for (ns, i, line, n, head) in rows {
        println!(
            "{:8.2} ms  #{i:<3} l{line:<4} {n:>7} matches  {head}",
            ns as f64 / 1e6 / rounds as f64
        );
    }
}
