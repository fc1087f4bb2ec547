//! Where extraction time goes, per language over a directory: parsing, each query file run
//! on its own, all of them merged into one query (what `extract` runs), and `extract` itself.
//! Usage: `cargo run --release -p navmap-extract --example query_cost -- <dir>`

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

fn main() {
    // Its own parsers and queries share tree-sitter's allocator with `extract`'s.
    navmap_extract::install_allocator();
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: query_cost <dir>");
        std::process::exit(2);
    };
    let registry = navmap_grammars::registry();
    let mut stack = vec![std::path::PathBuf::from(&dir)];
    let mut totals: BTreeMap<String, BTreeMap<String, Duration>> = BTreeMap::new();
    let mut queries: BTreeMap<String, Vec<(String, Query)>> = BTreeMap::new();
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.to_string_lossy().to_string();
            let Some(lang) = registry.for_path(&name) else {
                continue;
            };
            let Ok(src) = std::fs::read_to_string(&p) else {
                continue;
            };
            let ext = name.rsplit('.').next().unwrap_or("");
            let grammar = lang.grammar_for_extension(ext);
            let key = format!("{}:{ext}", lang.id());
            let qs = queries.entry(key.clone()).or_insert_with(|| {
                let mut v: Vec<(String, Query)> = ["defs", "refs", "imports", "bindings"]
                    .iter()
                    .filter_map(|s| {
                        Some((s.to_string(), Query::new(grammar, lang.query(s)?).ok()?))
                    })
                    .collect();
                let all: String = ["defs", "refs", "imports", "bindings"]
                    .iter()
                    .filter_map(|s| lang.query(s))
                    .collect::<Vec<_>>()
                    .join("\n");
                let t = Instant::now();
                if let Ok(q) = Query::new(grammar, &all) {
                    eprintln!("compile merged {:?}", t.elapsed());
                    v.push(("merged".into(), q));
                }
                v
            });
            let t = totals.entry(key).or_default();
            let mut parser = Parser::new();
            parser.set_language(grammar).unwrap();
            let start = Instant::now();
            let tree = parser.parse(&src, None).unwrap();
            *t.entry("parse".into()).or_default() += start.elapsed();
            for (stem, q) in qs.iter() {
                let start = Instant::now();
                let mut cursor = QueryCursor::new();
                let mut m = cursor.matches(q, tree.root_node(), src.as_bytes());
                let mut n = 0;
                while m.next().is_some() {
                    n += 1;
                }
                std::hint::black_box(n);
                *t.entry(stem.clone()).or_default() += start.elapsed();
            }
            let start = Instant::now();
            std::hint::black_box(navmap_extract::extract(lang, ext, &src));
            *t.entry("extract (all)".into()).or_default() += start.elapsed();
        }
    }
    for (k, t) in totals {
        let parts: Vec<String> = t
            .iter()
            .map(|(n, d)| format!("{n} {:.2}s", d.as_secs_f64()))
            .collect();
        println!("{k}: {}", parts.join(", "));
    }
}
