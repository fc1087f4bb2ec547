//! The language registry: the one place that names languages and their grammar crates.
//!
//! Each language lives in `grammars/<id>/`: `language.toml` (extensions, language server,
//! import rules) and its tree-sitter queries (`*.scm`). This crate compiles those files in
//! and pairs them with the grammar from the tree-sitter grammar crate. Adding a language is
//! adding its directory, its grammar crate in Cargo.toml and one line in [`registry`]
//! (and writing `analyses.txt` again, see [`QUERY_ANALYSES`]).
//!
//! ```
//! let registry = navmap_grammars::registry();
//! assert!(registry.by_id("py").is_some());
//! ```

use navmap_language::{Language, Registry};

/// Compiles in `grammars/<id>/language.toml` and the listed query files.
macro_rules! language_dir {
    ($id:literal, [$(($gname:literal, $grammar:expr)),+ $(,)?], [$($query:literal),* $(,)?]) => {
        navmap_language::language(
            include_str!(concat!("../", $id, "/language.toml")),
            vec![$(($gname, tree_sitter::Language::new($grammar))),+],
            &[$(($query, include_str!(concat!("../", $id, "/", $query, ".scm")))),*],
        )
    };
}

/// Every language navmap knows. One line per language.
pub fn registry() -> Registry {
    let languages: Vec<Language> = vec![
        language_dir!(
            "py",
            [("python", tree_sitter_python::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "ts",
            [
                ("typescript", tree_sitter_typescript::LANGUAGE_TYPESCRIPT),
                ("tsx", tree_sitter_typescript::LANGUAGE_TSX)
            ],
            ["defs", "refs", "refs.tsx", "imports", "bindings"]
        ),
        language_dir!(
            "js",
            [("javascript", tree_sitter_javascript::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "rs",
            [("rust", tree_sitter_rust::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "go",
            [("go", tree_sitter_go::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "java",
            [("java", tree_sitter_java::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "kt",
            [("kotlin", tree_sitter_kotlin_ng::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "cs",
            [("c_sharp", tree_sitter_c_sharp::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "scala",
            [("scala", tree_sitter_scala::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "cpp",
            [("cpp", tree_sitter_cpp::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "c",
            [("c", tree_sitter_c::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "swift",
            [("swift", tree_sitter_swift::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "php",
            [("php", tree_sitter_php::LANGUAGE_PHP)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "sh",
            [("bash", tree_sitter_bash::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "rb",
            [("ruby", tree_sitter_ruby::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
        language_dir!(
            "lua",
            [("lua", tree_sitter_lua::LANGUAGE)],
            ["defs", "refs", "imports", "bindings"]
        ),
    ];
    let mut languages = languages;
    navmap_language::attach_query_analyses(&mut languages, QUERY_ANALYSES);
    Registry::new(languages)
}

/// tree-sitter's pattern analyses of every language's compiled queries (`analyses.txt`):
/// a cold build compiles each language's queries without analysing them (for Rust ≈ 50 ms
/// a process). Written by `NAVMAP_BLESS=1 cargo test -p navmap-extract shipped`; a test
/// there fails when a query or grammar changed and this file was not written again. A
/// stale line is harmless (its key no longer matches, and the query is analysed).
pub const QUERY_ANALYSES: &str = include_str!("../analyses.txt");
