//! Whether a rewrite of a language's queries extracts the same facts: every file of the
//! language under the given roots is extracted with the compiled-in queries and with the
//! query files of a directory (`<dir>/<stem>.scm`, the others as compiled in), and the two
//! `FileFacts` are compared whole (definitions, uses, imports, bindings, mentions). Prints
//! the files that differ and the first difference of each; exits 1 when any does. A proof
//! tool for query work (docs/performance.md, "Cheaper query compiles"), not a test.
//! Usage: `cargo run --release -p navmap-extract --example facts_same -- <lang> <dir> <root>...`
//! (`FACTS_SAME_ALL=1`: every differing line of a file, not only the first)

use std::path::{Path, PathBuf};

fn files(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: facts_same <lang> <query dir> <root>...");
        std::process::exit(2);
    }
    let registry = navmap_grammars::registry();
    let lang = registry.by_id(&args[0]).expect("language");
    let dir = Path::new(&args[1]);
    // The same language under another id: the query cache is keyed by id and grammar.
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../../grammars/{}/language.toml", args[0])),
    )
    .expect("manifest");
    let other_id = format!("{}-rewritten", args[0]);
    let manifest = manifest.replacen(
        &format!("id = \"{}\"", args[0]),
        &format!("id = \"{other_id}\""),
        1,
    );
    let stems: Vec<String> = lang.queries.keys().cloned().collect();
    let texts: Vec<(String, String)> = stems
        .iter()
        .map(|stem| {
            let text = std::fs::read_to_string(dir.join(format!("{stem}.scm")))
                .unwrap_or_else(|_| lang.query(stem).unwrap_or("").to_string());
            (stem.clone(), text)
        })
        .collect();
    let queries: Vec<(&str, &str)> = texts
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let grammars: Vec<(&str, tree_sitter::Language)> = lang
        .grammars
        .iter()
        .map(|(n, g)| (n.as_str(), g.clone()))
        .collect();
    let rewritten = navmap_language::language(&manifest, grammars, &queries);
    let errors = navmap_extract::check_queries(&rewritten);
    if !errors.is_empty() {
        for e in errors {
            eprintln!("query error: {e}");
        }
        std::process::exit(2);
    }
    let mut all = Vec::new();
    for root in &args[2..] {
        files(Path::new(root), &mut all);
    }
    all.sort();
    let (mut same, mut differ) = (0, 0);
    for path in all {
        let name = path.to_string_lossy().to_string();
        if registry.for_path(&name).map(|l| l.id()) != Some(lang.id()) {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        let a = navmap_extract::extract_path(lang, &name, &source);
        let mut b = navmap_extract::extract_path(&rewritten, &name, &source);
        b.lang = a.lang.clone();
        if a == b {
            same += 1;
            continue;
        }
        differ += 1;
        let (ja, jb) = (
            serde_json::to_string_pretty(&a).unwrap_or_default(),
            serde_json::to_string_pretty(&b).unwrap_or_default(),
        );
        let first = ja
            .lines()
            .zip(jb.lines())
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| format!("line {i}: {x} | {y}"))
            .unwrap_or_else(|| "lengths differ".into());
        println!("DIFF {name}: {first}");
        // `FACTS_SAME_ALL=1`: every differing line, not only the first.
        if std::env::var_os("FACTS_SAME_ALL").is_some() {
            for (i, (x, y)) in ja
                .lines()
                .zip(jb.lines())
                .enumerate()
                .filter(|(_, (x, y))| x != y)
            {
                println!("  line {i}: {x} | {y}");
            }
        }
    }
    println!("{same} files the same, {differ} differ");
    if differ > 0 {
        std::process::exit(1);
    }
}
