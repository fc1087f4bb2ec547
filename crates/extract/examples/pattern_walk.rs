//! One query walk over the Python files (`PATTERN_WALK_EXT=rs`: Rust's …) listed in a file, with one pattern of the merged
//! query left out: run under `valgrind --tool=cachegrind` once per pattern, the difference
//! of the instruction counts (parsing and compiling are the same in every run) is what the
//! walk spends on that pattern — a deterministic figure where `pattern_cost`'s on-CPU
//! time is lost in the noise of a loaded machine. A figure printer, not a test.
//! Usage: `pattern_walk <list of files> <pattern index | all | empty | count>`; with
//! `PATTERN_WALK_DIR=<dir>`, the query files of that directory instead of the built-in ones.

use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(list), Some(which)) = (args.next(), args.next()) else {
        eprintln!("usage: pattern_walk <list of files> <pattern index | all | empty | count>");
        std::process::exit(2);
    };
    let registry = navmap_grammars::registry();
    // `PATTERN_WALK_EXT=rs`: another language's files (Python's by default).
    let ext = std::env::var("PATTERN_WALK_EXT").unwrap_or_else(|_| "py".to_string());
    let lang = registry.for_path(&format!("x.{ext}")).expect("a language");
    let grammar = lang.grammar_for_extension(&ext).clone();
    // The query files of `PATTERN_WALK_DIR` when set (trying a rewrite without a build).
    let dir = std::env::var("PATTERN_WALK_DIR").ok();
    let merged: String = ["defs", "refs", "imports", "bindings"]
        .iter()
        .filter_map(|s| match &dir {
            Some(d) => std::fs::read_to_string(format!("{d}/{s}.scm")).ok(),
            None => lang.query(s).map(str::to_string),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut query = Query::new(&grammar, &merged).expect("queries compile");
    if which == "count" {
        for i in 0..query.pattern_count() {
            let text = &merged[query.start_byte_for_pattern(i)..query.end_byte_for_pattern(i)];
            let head: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            println!("#{i} {}", head.chars().take(100).collect::<String>());
        }
        return;
    }
    if which == "empty" {
        query = Query::new(&grammar, "").expect("empty query");
    } else if let Ok(i) = which.parse::<usize>() {
        query.disable_pattern(i);
    }
    let mut parser = Parser::new();
    parser.set_language(&grammar).expect("grammar");
    let mut matches = 0usize;
    let mut cursor = QueryCursor::new();
    cursor.set_match_limit(256); // `matches::MATCH_LIMIT`, as extraction walks
    for path in std::fs::read_to_string(&list).expect("a list").lines() {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let Some(tree) = parser.parse(&src, None) else {
            continue;
        };
        let mut m = cursor.matches(&query, tree.root_node(), src.as_bytes());
        while m.next().is_some() {
            matches += 1;
        }
    }
    println!("{which}: {matches} matches");
}
