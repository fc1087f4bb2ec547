//! Prints the syntax tree of a file (named nodes with field names), to write queries against.
//! Usage: `cargo run -p navmap-extract --example dump_tree -- <file>`. The tree is the one
//! extraction reads: of the text as its preprocessor would see it, when that parses better.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump_tree <file>");
        std::process::exit(2);
    };
    let registry = navmap_grammars::registry();
    let Some(lang) = registry.for_path(&path) else {
        eprintln!("no language for {path}");
        std::process::exit(2);
    };
    let source = std::fs::read_to_string(&path).unwrap_or_default();
    let ext = path.rsplit('.').next().unwrap_or("");
    // As extraction parses it: a file that does not parse as written may be read as its
    // preprocessor sees it (same positions).
    let source = navmap_extract::as_parsed(lang, ext, &source).into_owned();
    let mut parser = tree_sitter::Parser::new();
    if parser
        .set_language(lang.grammar_for_extension(ext))
        .is_err()
    {
        std::process::exit(1);
    }
    let Some(tree) = parser.parse(&source, None) else {
        std::process::exit(1);
    };
    let mut cursor = tree.walk();
    print(&mut cursor, &source, 0);
}

fn print(cursor: &mut tree_sitter::TreeCursor, source: &str, depth: usize) {
    let node = cursor.node();
    if node.is_named() {
        let field = cursor
            .field_name()
            .map(|f| format!("{f}: "))
            .unwrap_or_default();
        let text = if node.child_count() == 0 {
            format!(" {:?}", &source[node.byte_range()])
        } else {
            String::new()
        };
        println!(
            "{}{field}{} [{}]{text}",
            "  ".repeat(depth),
            node.kind(),
            node.start_position().row
        );
    }
    if cursor.goto_first_child() {
        loop {
            print(cursor, source, depth + 1);
            if !cursor.goto_next_sibling() {
                break;
            }
        }
        cursor.goto_parent();
    }
}
