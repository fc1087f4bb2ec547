//! Extraction: one file's source → [`facts::FileFacts`] (definitions, uses, imports), with
//! the tree-sitter grammars and queries of its language directory; and import resolution
//! (a module specifier → the repository files it names, or an external package).
//!
//! Pure and per file: no database, no I/O but what the caller hands in, safe to run in
//! parallel (compiled queries are cached per process, parsers per thread). Never fails: a
//! file that does not parse yields what tree-sitter recovered, with `had_errors` set.
//! **Names no language**: everything language-specific comes from `navmap-language` — the
//! queries `grammars/<id>/{defs,refs,imports,bindings}.scm` and the manifest's `[imports]` rules. The
//! capture names the engine understands and the import-rule vocabulary are documented in
//! `grammars/README.md`; `tests/no_language_names.rs` keeps every core crate honest.
//!
//! Does not touch: node IDs, SQLite, edge resolution (the map crate turns names into edges).
//!
//! ```
//! let registry = navmap_grammars::registry();
//! let py = registry.by_id("py").unwrap();
//! let facts = navmap_extract::extract_path(py, "shop/store.py", "class S:\n    def get(self):\n        return self._d.get(1)\n");
//! assert_eq!(facts.defs[1].qualified_name, "S.get");
//! assert_eq!(facts.refs[0].qualifier.as_deref(), Some("self._d"));
//! ```
//!
//! Modules: `alloc` (tree-sitter's heap: mimalloc), `compiled` (query cache), `matches` (running a query), `defs`, `refs`,
//! `imports`, `bindings`, `mentions` (the fact kinds), `locals` (names that shadow: their uses are no refs),
//! `overloads` (overload groups and the parts of a partial type → one definition), `conditionals` (the first branch of each `#if`, for a file that does not parse as written), `attribute_macros` (the same file with its attribute macros blanked), `doc_links` (the names documentation comments link to: Javadoc's `{@link …}`, read with the manifest's `[doc_links]`),
//! `text` (UTF-16 columns, signatures, first doc sentences),
//! `resolve` (the import resolver and its strategies).

pub mod facts;

mod alloc;
mod arity;
mod attribute_macros;
mod bindings;
mod code_pages;
mod compiled;
mod conditionals;
mod defs;
mod doc_links;
mod ids;
mod imports;
mod locals;
mod matches;
mod mentions;
mod overloads;
mod refs;
mod reparse;
mod resolve;
mod text;

/// The version of the Rust code that turns a parse into facts. The map stores it (with the
/// grammars' queries and manifests, hashed) beside every build and rebuilds from scratch
/// when it differs, so that a map built by an older navmap never answers with facts an
/// older rule extracted. Query and manifest changes are seen by themselves; **bump this
/// when a change to this crate's code changes the facts some file yields** (a new fact
/// kind, a use found or dropped, a different range).
/// 2: blanked attribute macros are uses; calls and definitions carry arity.
/// 3: C++ parameter shapes and argument kinds. 4: documentation links are uses.
/// 5: a type capture belongs to its match's shape capture; a declaration's own type
/// parameters are deduced; arguments of a written type (`@argument.value`).
pub const EXTRACTION_VERSION: u32 = 5;

// ---------------------------------------------------------------------------------------
// The public API the map crate builds on. Signatures are fixed; bodies are being written.
// ---------------------------------------------------------------------------------------

use std::cell::RefCell;
use std::collections::BTreeSet;

use navmap_language::{Language, Registry};

thread_local! {
    /// One parser per thread: creating one costs an allocation and a language switch is cheap.
    static PARSER: RefCell<tree_sitter::Parser> = RefCell::new({
        alloc::ready();
        tree_sitter::Parser::new()
    });
}

/// Extracts the facts of one file. `ext` picks the grammar (e.g. `tsx`). Never fails.
pub fn extract(lang: &Language, ext: &str, source: &str) -> facts::FileFacts {
    let mut out = facts::FileFacts {
        lang: lang.id().to_string(),
        lines: count_lines(source),
        ..Default::default()
    };
    let Some(compiled) = compiled::get(lang, ext) else {
        return out;
    };
    let parse = |text: &str| parse(&compiled.grammar, text);
    let Some(mut tree) = parse(source) else {
        out.had_errors = true;
        return out;
    };
    let written = source;
    let (text, macro_words) = as_preprocessed(lang, source, &mut tree, parse);
    let source: &str = text.as_deref().unwrap_or(source);
    let root = tree.root_node();
    out.had_errors = root.has_error();
    let Some(query) = &compiled.query else {
        return out;
    };
    // One walk over the tree for all three query files; matches go to their section.
    let mut sections: [matches::Matches; 4] = Default::default();
    let lost = matches::each(query, root, source, &mut sections, |pattern| {
        compiled.section(pattern).map(|section| match section {
            compiled::Section::Defs => 0,
            compiled::Section::Refs => 1,
            compiled::Section::Imports => 2,
            compiled::Section::Bindings => 3,
        })
    });
    // A walk past the match limit lost matches: the facts are partial, as for a syntax error.
    out.had_errors |= lost;
    let defs = defs::extract(&sections[0], source, root);
    let locals = locals::extract(&sections[3], &sections[2], source, &defs);
    out.refs = refs::extract(&sections[1], source, &defs, &locals);
    if let Some(rules) = &lang.manifest.doc_links {
        // A documentation comment's names: uses from the definition around the comment.
        let receiver = lang.manifest.receivers.first().map(String::as_str);
        let before = out.refs.len();
        for node in sections[1].iter().filter_map(|m| m.get("doc.links")) {
            let from = defs.innermost(node.start_byte(), node.end_byte());
            out.refs
                .extend(doc_links::facts(&node, source, from, rules, receiver));
        }
        if out.refs.len() > before {
            // Stable: the uses of one line keep the order above.
            out.refs.sort_by_key(|r| r.line);
        }
    }
    if !macro_words.is_empty() {
        out.refs
            .extend(attribute_macro_uses(written, &macro_words, &defs));
        out.refs.sort_by_key(|r| (r.line, r.col));
    }
    let separator = rules_str(lang, "separator").unwrap_or(".");
    out.imports = imports::extract(query, &sections[2], source, separator);
    out.bindings = bindings::extract(&sections[3], source, &defs);
    out.mentions = mentions::extract(&sections[1], &sections[2], source, &defs, &locals);
    if let Some(wrap) = &lang.manifest.reparse {
        reparsed_uses(
            &compiled,
            query,
            &sections[1],
            source,
            wrap,
            &defs,
            &locals,
            &mut out,
        );
    }
    out.defs = defs.facts;
    overloads::fold(&mut out, &defs.overload, &defs.partial);
    out
}

/// A file that does not parse as written may parse as its preprocessor sees it: then that
/// is what is indexed, at the same positions (every rewrite blanks bytes, never moves
/// them), and `tree` is its tree. First its attribute macros blanked
/// (`attribute_macros.rs`), kept when that leaves fewer errors; then the first branch of
/// each `#if` (`conditionals.rs`), kept when that parses cleanly: both may be needed
/// (V8's `#if` whose branches each open a brace, in a file whose attribute macros hide
/// that the first-branch text parses). `None`: the text as written.
///
/// Also where the blanked attribute macros' names stood (empty when the macros were not
/// blanked): each is a use of its macro that the text parsed no longer shows.
fn as_preprocessed(
    lang: &Language,
    source: &str,
    tree: &mut tree_sitter::Tree,
    parse: impl Fn(&str) -> Option<tree_sitter::Tree>,
) -> (Option<String>, Vec<(usize, usize)>) {
    let lexis = lang.manifest.attribute_macros.as_ref();
    let mut text: Option<String> = None;
    let mut macro_words = Vec::new();
    if tree.root_node().has_error()
        && let Some(lexis) = lexis
        && let Some(blanked) = attribute_macros::blank(source, lexis)
        && let Some(again) = parse(&blanked.text)
        && errors(&again) < errors(tree)
    {
        *tree = again;
        text = Some(blanked.text);
        macro_words = blanked.words;
    }
    if tree.root_node().has_error()
        && let Some(rules) = &lang.manifest.conditionals
        && let Some(first) = conditionals::first_branches(text.as_deref().unwrap_or(source), rules)
        && let Some(again) = parse(&first)
        && !again.root_node().has_error()
    {
        *tree = again;
        text = Some(first);
    }
    (text, macro_words)
}

/// The uses of the attribute macros a file's text was parsed without
/// (`V8_EXPORT` of `class V8_EXPORT Context`): a `references` use of each macro's name
/// from the definition around it, at the name's position in `written` (blanking moves no
/// byte), so that the macro's definition has its users and no use of it goes unsaid.
fn attribute_macro_uses(
    written: &str,
    words: &[(usize, usize)],
    defs: &defs::Defs,
) -> Vec<facts::RefFact> {
    // Byte offsets where each line starts.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(written.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    words
        .iter()
        .filter_map(|&(s, e)| {
            let name = written.get(s..e)?;
            let line = starts.partition_point(|&l| l <= s) - 1;
            Some(facts::RefFact {
                from: defs.innermost(s, e),
                kind: facts::EdgeKind::References,
                name: name.to_string(),
                qualifier: None,
                line: line as u32,
                col: text::utf16_col(written, s, s - starts[line]),
                local: false,
                args: None,
                arg_kinds: Vec::new(),
            })
        })
        .collect()
}

/// How many error and missing nodes `tree` has.
fn errors(tree: &tree_sitter::Tree) -> usize {
    let mut cursor = tree.walk();
    let mut count = 0;
    loop {
        let node = cursor.node();
        count += usize::from(node.is_error() || node.is_missing());
        // Only subtrees with an error hold one.
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}

/// The text extraction parses for `source`: as written, or as its preprocessor would see
/// it when that parses better (`as_preprocessed`). For tools that show the tree.
pub fn as_parsed<'s>(lang: &Language, ext: &str, source: &'s str) -> std::borrow::Cow<'s, str> {
    let Some(compiled) = compiled::get(lang, ext) else {
        return source.into();
    };
    let parse = |text: &str| parse(&compiled.grammar, text);
    let Some(mut tree) = parse(source) else {
        return source.into();
    };
    match as_preprocessed(lang, source, &mut tree, parse).0 {
        Some(text) => text.into(),
        None => source.into(),
    }
}

fn parse(grammar: &tree_sitter::Language, source: &str) -> Option<tree_sitter::Tree> {
    PARSER.with(|parser| {
        let mut parser = parser.borrow_mut();
        parser.set_language(grammar).ok()?;
        parser.parse(source, None)
    })
}

/// The uses inside the nodes the refs query marks `@reparse` (macro arguments), parsed
/// again as code (`reparse.rs`), added to `out` at their own positions.
#[allow(clippy::too_many_arguments)]
fn reparsed_uses(
    compiled: &compiled::Compiled,
    query: &tree_sitter::Query,
    refs: &matches::Matches,
    source: &str,
    wrap: &navmap_language::Reparse,
    defs: &defs::Defs,
    locals: &locals::Locals,
    out: &mut facts::FileFacts,
) {
    let mut spans: Vec<(usize, usize)> = refs
        .iter()
        .filter_map(|m| m.get("reparse"))
        .map(|n| (n.start_byte(), n.end_byte()))
        .collect();
    if spans.is_empty() {
        return;
    }
    let Some(shadow) = reparse::shadow(source, &mut spans, wrap) else {
        return;
    };
    let tree = PARSER.with(|parser| {
        let mut parser = parser.borrow_mut();
        parser.set_language(&compiled.grammar).ok()?;
        parser.set_included_ranges(&shadow.ranges).ok()?;
        let tree = parser.parse(&shadow.text, None);
        // The next file is parsed whole.
        let _ = parser.set_included_ranges(&[]);
        tree
    });
    let Some(tree) = tree else {
        return;
    };
    let shadow = shadow.text;
    // Predicates read the shadow; facts read the source (the same bytes inside the copies,
    // and columns count the source's characters before them).
    let mut found = [matches::Matches::default()];
    matches::each(query, tree.root_node(), &shadow, &mut found, |pattern| {
        (compiled.section(pattern) == Some(compiled::Section::Refs)).then_some(0)
    });
    let found = &found[0];
    let extra = refs::extract(found, source, defs, locals);
    if !extra.is_empty() {
        out.refs.extend(extra);
        out.refs.sort_by_key(|r| (r.line, r.col));
    }
    let extra = mentions::extract(found, &matches::Matches::default(), source, defs, locals);
    if !extra.is_empty() {
        out.mentions.extend(extra);
        out.mentions.sort_by_key(|m| (m.line, m.col));
    }
}

/// [`extract`] for a root-relative path: picks the grammar by the path's extension and
/// applies the file-name rules of the manifest's `[imports]` (`reexport_files`: every
/// import of such a file is a re-export). Prefer this when the path is known.
pub fn extract_path(lang: &Language, path: &str, source: &str) -> facts::FileFacts {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let ext = file_name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let mut facts = extract(lang, ext, source);
    let reexport_file = lang
        .manifest
        .imports
        .get("reexport_files")
        .and_then(|v| v.as_array())
        .is_some_and(|names| {
            names.iter().filter_map(|n| n.as_str()).any(|n| {
                // `*.h`: every file with that extension (headers re-export their includes).
                n == file_name
                    || n.strip_prefix('*')
                        .is_some_and(|suffix| file_name.ends_with(suffix))
            })
        });
    if reexport_file {
        for import in &mut facts.imports {
            import.reexport = true;
        }
    }
    facts
}

/// Compiles every query of `lang` against each of its grammars; one line per error
/// (empty = all good). Extraction silently skips a query that does not compile, so the
/// grammars crate tests this for every language.
pub fn check_queries(lang: &Language) -> Vec<String> {
    compiled::check(lang)
}

/// Installs tree-sitter's allocator (`alloc.rs`: its C library allocates through
/// mimalloc). This crate does it before its own first tree-sitter call; code that uses
/// tree-sitter directly (a parser or a query of its own) must call this before it does,
/// since tree-sitter's allocator may not change while one of its objects lives.
pub fn install_allocator() {
    alloc::ready();
}

/// Gives back to the system the memory tree-sitter's heap holds free on the calling
/// thread (see [`alloc::release_free`]).
pub fn release_parser_memory() {
    alloc::release_free();
}

pub use code_pages::release_code_pages;

/// Pattern analyses of compiled queries, kept from an earlier process (pairs of
/// `compiled::analysis_key` and tree-sitter's analysis bytes, as [`query_analyses`] gave
/// them): a query compiled afterwards with the same key is built from its analysis
/// instead of analysing its patterns against the grammar (most of a compile: ≈ 50 ms for
/// Rust). Call before extracting; an analysis that does not fit is ignored.
pub fn offer_query_analyses(kept: impl IntoIterator<Item = (String, Vec<u8>)>) {
    compiled::offer_analyses(kept);
}

/// The pattern analyses this process computed while compiling queries, for a caller
/// that keeps them for the next process ([`offer_query_analyses`]); sorted by key.
pub fn query_analyses() -> Vec<(String, Vec<u8>)> {
    compiled::analyses()
}

/// How many query compilations this process has run: one per (language, grammar) used,
/// however many threads extract at the same moment (the slow part of a cold start; a
/// race-free cache keeps it at one).
pub fn query_compilations() -> usize {
    compiled::compiles()
}

fn rules_str<'l>(lang: &'l Language, key: &str) -> Option<&'l str> {
    lang.manifest.imports.get(key).and_then(|v| v.as_str())
}

fn count_lines(source: &str) -> u32 {
    let newlines = source.bytes().filter(|b| *b == b'\n').count();
    let unterminated = !source.is_empty() && !source.ends_with('\n');
    (newlines + usize::from(unterminated)) as u32
}

/// Where an import's module specifier leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportTarget {
    /// Repository files (root-relative, `/`-separated): one module file, or the files of a
    /// package/directory module (Go packages, Python packages via `__init__.py` first).
    Files(Vec<String>),
    /// A package outside the repository: becomes the node `<lang>:ext:<package>`.
    External(String),
    /// Looked like a local path but nothing matched.
    Unresolved,
}

/// Resolves module specifiers to files, with each language's rules from its manifest
/// (`[imports]` in `grammars/<id>/language.toml`) and the project's own configuration
/// (tsconfig.json paths, go.mod module path, Cargo workspace members, src/ layouts).
///
/// ```
/// use std::collections::BTreeSet;
/// let registry = navmap_grammars::registry();
/// let files: BTreeSet<String> = ["shop/__init__.py", "shop/store.py", "shop/api.py"]
///     .iter().map(|s| s.to_string()).collect();
/// let resolver = navmap_extract::ImportResolver::new(&registry, &files, &|_| None);
/// let py = registry.by_id("py").unwrap();
/// assert_eq!(
///     resolver.resolve(py, "shop/api.py", ".store"),
///     navmap_extract::ImportTarget::Files(vec!["shop/store.py".into()])
/// );
/// assert_eq!(
///     resolver.resolve(py, "shop/api.py", "os.path"),
///     navmap_extract::ImportTarget::External("os".into())
/// );
/// ```
pub struct ImportResolver {
    inner: resolve::Resolver,
}

impl ImportResolver {
    /// `files`: every indexed file of the repository (root-relative). `read_file` reads a
    /// root-relative file (config files such as `tsconfig.json`, `go.mod`, `Cargo.toml`);
    /// it returns `None` for a missing or unreadable file.
    pub fn new(
        registry: &Registry,
        files: &BTreeSet<String>,
        read_file: &dyn Fn(&str) -> Option<String>,
    ) -> Self {
        ImportResolver {
            inner: resolve::Resolver::new(registry, files, read_file),
        }
    }

    /// Resolves `module` as written in an import of `from_file` (root-relative).
    pub fn resolve(&self, lang: &Language, from_file: &str, module: &str) -> ImportTarget {
        self.inner.resolve(lang, from_file, module)
    }

    /// Resolves `name` imported from `module` when the name is itself a module
    /// (`from . import store`, `use crate::util::{email}`): the module path joined with the
    /// language's separator. [`ImportTarget::Files`] only when that module exists, else
    /// [`ImportTarget::Unresolved`] (the name is then a symbol of `module`).
    pub fn resolve_member(
        &self,
        lang: &Language,
        from_file: &str,
        module: &str,
        name: &str,
    ) -> ImportTarget {
        self.inner.resolve_member(lang, from_file, module, name)
    }

    /// Whether `module` was found only by matching the namespaces the repository's files
    /// declare (`namespace A\B;`), with no configuration that maps it (PHP without a PSR-4
    /// entry for it): what is found through it is a guess by name, and is labelled so.
    pub fn by_declaration(&self, lang: &Language, from_file: &str, module: &str) -> bool {
        self.inner.by_declaration(lang, from_file, module)
    }

    /// Config files whose change invalidates resolution (so the map can re-resolve):
    /// e.g. `tsconfig.json`, `go.mod`, `Cargo.toml`, `pyproject.toml`.
    pub fn config_files(&self) -> Vec<String> {
        self.inner.config_files()
    }

    /// Whether a path (present or not) is a config file by its name: a new or deleted
    /// config file changes resolution as much as an edited one.
    pub fn is_config_file(&self, path: &str) -> bool {
        self.inner.is_config_file(path)
    }
}
