//! Prints the facts extraction finds in a file, as JSON, to review queries.
//! Usage: `cargo run -p navmap-extract --example show_facts -- <file> [root-relative name]`

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: show_facts <file> [name]");
        std::process::exit(2);
    };
    let name = std::env::args().nth(2).unwrap_or_else(|| path.clone());
    let registry = navmap_grammars::registry();
    let Some(lang) = registry.for_path(&name) else {
        eprintln!("no language for {name}");
        std::process::exit(2);
    };
    let source = std::fs::read_to_string(&path).unwrap_or_default();
    let facts = navmap_extract::extract_path(lang, &name, &source);
    for e in navmap_extract::check_queries(lang) {
        eprintln!("query error: {e}");
    }
    let print = |label: &str, items: Vec<String>| {
        println!("== {label}");
        for i in items {
            println!("  {i}");
        }
    };
    print(
        "defs",
        facts
            .defs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                format!(
                    "{i} {:?} {} parent={:?} lines={}-{} name@{}:{} exp={} arity={:?} sig={:?} doc={:?}",
                    d.kind,
                    d.qualified_name,
                    d.parent,
                    d.start_line,
                    d.end_line,
                    d.name_line,
                    d.name_col,
                    d.exported,
                    d.arity,
                    d.signature,
                    d.doc
                )
            })
            .collect(),
    );
    print(
        "refs",
        facts
            .refs
            .iter()
            .map(|r| {
                let from = r
                    .from
                    .map(|i| facts.defs[i].qualified_name.as_str())
                    .unwrap_or("<file>");
                format!(
                    "{}:{} {:?} {} q={:?} args={:?} from={from}",
                    r.line, r.col, r.kind, r.name, r.qualifier, r.args
                )
            })
            .collect(),
    );
    print(
        "mentions",
        facts
            .mentions
            .iter()
            .map(|m| {
                let from = m
                    .from
                    .map(|i| facts.defs[i].qualified_name.as_str())
                    .unwrap_or("<file>");
                format!(
                    "{}:{} {:?} {} q={:?} from={from}",
                    m.line, m.col, m.kind, m.name, m.qualifier
                )
            })
            .collect(),
    );
    print(
        "imports",
        facts
            .imports
            .iter()
            .map(|i| {
                let names: Vec<String> = i
                    .names
                    .iter()
                    .map(|n| match &n.alias {
                        Some(a) => format!("{} as {a}", n.name),
                        None => n.name.clone(),
                    })
                    .collect();
                format!(
                    "{} {:?} names={names:?} alias={:?} reexport={}",
                    i.line, i.module, i.alias, i.reexport
                )
            })
            .collect(),
    );
    print(
        "bindings",
        facts
            .bindings
            .iter()
            .map(|b| {
                let scope = b
                    .scope
                    .map(|i| facts.defs[i].qualified_name.as_str())
                    .unwrap_or("<file>");
                format!(
                    "{} {} : {:?}|{} in {scope}",
                    b.line, b.name, b.type_qualifier, b.type_name
                )
            })
            .collect(),
    );
    println!("had_errors={} lines={}", facts.had_errors, facts.lines);
}
