//! Compiled queries, cached per (language, grammar). The three query files of a grammar are
//! compiled into **one** query, so a file's tree is walked once rather than three times
//! (this halves query time); each match is dispatched by its pattern's section.
//! Compiling costs tens of milliseconds, so it happens once per process.
//!
//! Most of a compile for a large grammar is tree-sitter's analysis of the patterns against
//! the grammar's parse table (Rust: ≈ 50 ms, half of a one-file `navmap rebuild`). Its
//! results depend only on the query's source and the grammar, so they can be kept across
//! processes: [`analyses`] gives the ones this process computed, [`offer_analyses`] takes
//! kept ones, and a query compiled later with the same [`analysis_key`] is built from one
//! instead of being analysed (`vendor/tree-sitter/NAVMAP.md`). The registry ships the
//! analyses of its own queries (`Language::query_analyses`, from `grammars/analyses.txt`,
//! kept current by the test `shipped_analyses_are_the_current_queries_own`), so a cold
//! build analyses none; the map keeps any other one in its database; this crate does no
//! I/O.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use navmap_language::Language;
use tree_sitter::Query;

/// The query files the engine runs, by file stem (`grammars/<id>/<stem>.scm`), in the
/// order of [`Section`].
pub const STEMS: [&str; 4] = ["defs", "refs", "imports", "bindings"];

/// Which query file a pattern came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Defs,
    Refs,
    Imports,
    Bindings,
}

/// The compiled queries of one grammar of one language.
pub struct Compiled {
    pub grammar: tree_sitter::Language,
    /// `None` when the queries don't compile (see [`check`]).
    pub query: Option<Query>,
    /// Byte ranges of each section in the combined query source.
    sections: [Range<usize>; 4],
    /// The query's [`analysis_key`], and whether its analysis was computed here (not
    /// offered): only those are new to a caller that keeps them.
    analysis_key: String,
    analysed_here: bool,
}

impl Compiled {
    pub fn section(&self, pattern: usize) -> Option<Section> {
        let query = self.query.as_ref()?;
        let at = query.start_byte_for_pattern(pattern);
        let i = self.sections.iter().position(|r| r.contains(&at))?;
        Some(
            [
                Section::Defs,
                Section::Refs,
                Section::Imports,
                Section::Bindings,
            ][i],
        )
    }
}

/// One slot per (language, grammar): the first caller compiles while later callers of the
/// same key wait on the slot, so two workers never compile the same query at once (the
/// map-wide lock is held only to find the slot, never while compiling).
type Slot = Arc<OnceLock<Option<Arc<Compiled>>>>;
type Cache = Mutex<HashMap<(String, String), Slot>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The query text of one file for one grammar: `<stem>.scm`, followed by
/// `<stem>.<grammar>.scm` when the language has one (patterns only that grammar knows,
/// e.g. JSX nodes in `refs.tsx.scm`).
fn source(lang: &Language, stem: &str, grammar: &str) -> Option<String> {
    let base = lang.query(stem)?;
    Some(match lang.query(&format!("{stem}.{grammar}")) {
        Some(extra) => format!("{base}\n{extra}"),
        None => base.to_string(),
    })
}

/// The grammar name that parses files with extension `ext`.
pub fn grammar_name<'l>(lang: &'l Language, ext: &str) -> &'l str {
    if let Some(name) = lang.manifest.grammar_for_extension.get(ext)
        && lang.grammars.iter().any(|(n, _)| n == name)
    {
        return name;
    }
    lang.grammars.first().map(|(n, _)| n.as_str()).unwrap_or("")
}

/// Compiles (or fetches) the queries for `lang` and the grammar of `ext`: once per
/// process and key, whatever the number of threads asking at the same moment.
pub fn get(lang: &Language, ext: &str) -> Option<Arc<Compiled>> {
    crate::alloc::ready();
    let name = grammar_name(lang, ext).to_string();
    let key = (lang.id().to_string(), name.clone());
    let slot: Slot = cache().lock().ok()?.entry(key).or_default().clone();
    slot.get_or_init(|| compile(lang, &name)).clone()
}

/// The one query source of grammar `name` of `lang`: its [`STEMS`]' files in order, and
/// the byte range of each in it.
fn combined_source(lang: &Language, name: &str) -> (String, [Range<usize>; 4]) {
    let mut combined = String::new();
    let mut sections: [Range<usize>; 4] = [0..0, 0..0, 0..0, 0..0];
    for (i, stem) in STEMS.iter().enumerate() {
        let start = combined.len();
        if let Some(src) = source(lang, stem, name) {
            combined.push_str(&src);
            combined.push('\n');
        }
        sections[i] = start..combined.len();
    }
    (combined, sections)
}

fn compile(lang: &Language, name: &str) -> Option<Arc<Compiled>> {
    let grammar = lang.grammars.iter().find(|(n, _)| n == name)?.1.clone();
    let (combined, sections) = combined_source(lang, name);
    COMPILES.fetch_add(1, Ordering::Relaxed);
    let analysis_key = analysis_key(lang.id(), name, &grammar, &combined);
    // One kept by the map wins over the shipped one: both fit, or tree-sitter analyses.
    let kept = offered().lock().ok()?.get(&analysis_key).cloned();
    let offered = kept.or_else(|| {
        let hex = lang.query_analyses.get(&analysis_key)?;
        navmap_language::analysis_from_hex(hex)
    });
    let query = match &offered {
        Some(analysis) => Query::with_analysis(&grammar, &combined, analysis),
        None => Query::new(&grammar, &combined),
    };
    // An offered analysis tree-sitter found not to fit was replaced by its own: that
    // one is new too (else every process would analyse again).
    let analysed_here = match (&query, &offered) {
        (Ok(query), Some(analysis)) => query.analysis() != *analysis,
        (Ok(_), None) => true,
        (Err(_), _) => false,
    };
    Some(Arc::new(Compiled {
        query: query.ok(),
        grammar,
        sections,
        analysis_key,
        analysed_here,
    }))
}

/// The key of a query's pattern analysis: the language and grammar names, and a hash of
/// the query's source and of the grammar's tables (ABI, node kinds, fields, parse
/// states). tree-sitter checks again, when it is handed one, that it was written for a
/// query of the same number of steps and patterns and a grammar of the same symbol and
/// state counts.
pub fn analysis_key(
    lang: &str,
    grammar_name: &str,
    grammar: &tree_sitter::Language,
    source: &str,
) -> String {
    // FNV-1a: stable across processes and Rust releases (the key is stored).
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    feed(source.as_bytes());
    for n in [
        grammar.abi_version(),
        grammar.node_kind_count(),
        grammar.field_count(),
        grammar.parse_state_count(),
    ] {
        feed(&(n as u64).to_le_bytes());
    }
    format!("{lang}/{grammar_name}/{hash:016x}")
}

/// Pattern analyses kept from earlier processes, by [`analysis_key`].
fn offered() -> &'static Mutex<HashMap<String, Vec<u8>>> {
    static OFFERED: OnceLock<Mutex<HashMap<String, Vec<u8>>>> = OnceLock::new();
    OFFERED.get_or_init(Default::default)
}

/// Takes pattern analyses kept from an earlier process (by [`analysis_key`]): a query
/// compiled afterwards whose key is among them is built from its analysis.
pub fn offer_analyses(kept: impl IntoIterator<Item = (String, Vec<u8>)>) {
    if let Ok(mut offered) = offered().lock() {
        offered.extend(kept);
    }
}

/// The pattern analyses this process computed (by [`analysis_key`]): the queries it
/// compiled without an offered or shipped analysis.
pub fn analyses() -> Vec<(String, Vec<u8>)> {
    let Ok(cache) = cache().lock() else {
        return Vec::new();
    };
    let mut found: Vec<(String, Vec<u8>)> = cache
        .values()
        .filter_map(|slot| slot.get()?.as_ref().cloned())
        .filter(|compiled| compiled.analysed_here)
        .filter_map(|compiled| {
            Some((
                compiled.analysis_key.clone(),
                compiled.query.as_ref()?.analysis(),
            ))
        })
        .collect();
    found.sort();
    found
}

/// How many query compilations this process has run (each key compiles once).
static COMPILES: AtomicUsize = AtomicUsize::new(0);

/// The number of query compilations so far in this process: one per (language, grammar)
/// used, however many threads parse at once.
pub fn compiles() -> usize {
    COMPILES.load(Ordering::Relaxed)
}

/// Compiles every query file of every grammar of `lang` on its own (for precise messages);
/// the errors, one line each.
pub fn check(lang: &Language) -> Vec<String> {
    crate::alloc::ready();
    let mut errors = Vec::new();
    for (gname, grammar) in &lang.grammars {
        for stem in STEMS {
            match source(lang, stem, gname) {
                None => errors.push(format!("{}: missing {stem}.scm", lang.id())),
                Some(src) => {
                    if let Err(e) = Query::new(grammar, &src) {
                        errors.push(format!("{}/{stem}.scm ({gname}): {e}", lang.id()));
                    }
                }
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use tree_sitter::{Parser, QueryCursor, StreamingIterator};

    /// A match: its pattern and its captures (capture index, start and end byte).
    type Found = (usize, Vec<(u32, usize, usize)>);

    /// Every match of `query` in `source`.
    fn matches_of(query: &Query, grammar: &tree_sitter::Language, source: &str) -> Vec<Found> {
        let mut parser = Parser::new();
        parser.set_language(grammar).unwrap();
        let tree = parser.parse(source, None).unwrap();
        let mut cursor = QueryCursor::new();
        let mut found = Vec::new();
        let mut it = cursor.matches(query, tree.root_node(), source.as_bytes());
        while let Some(m) = it.next() {
            let captures = m
                .captures()
                .iter()
                .map(|c| (c.index, c.node.start_byte(), c.node.end_byte()))
                .collect();
            found.push((m.pattern_index, captures));
        }
        found
    }

    /// The fixture files of a language directory (`fixtures/<id>/…`), with their text.
    fn fixture_files(id: &str) -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(id);
        let mut out = Vec::new();
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    out.push((path.display().to_string(), text));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn a_query_built_from_a_kept_analysis_matches_as_an_analysed_one() {
        crate::alloc::ready();
        let registry = navmap_grammars::registry();
        let mut files_compared = 0;
        for lang in registry.all() {
            let files = fixture_files(lang.id());
            for (name, grammar) in &lang.grammars {
                let (combined, _) = combined_source(lang, name);
                let analysed = Query::new(grammar, &combined).unwrap();
                let analysis = analysed.analysis();
                let kept = Query::with_analysis(grammar, &combined, &analysis).unwrap();
                for (path, text) in &files {
                    assert_eq!(
                        matches_of(&kept, grammar, text),
                        matches_of(&analysed, grammar, text),
                        "{path} ({name})"
                    );
                    files_compared += 1;
                }
                assert_eq!(
                    kept.analysis(),
                    analysis,
                    "{}/{name}: the analysis reads back",
                    lang.id()
                );
            }
        }
        assert!(
            files_compared > 100,
            "only {files_compared} fixture files compared"
        );
    }

    #[test]
    fn an_analysis_that_does_not_fit_is_ignored_and_the_patterns_analysed() {
        crate::alloc::ready();
        let registry = navmap_grammars::registry();
        let py = registry.by_id("py").unwrap();
        let rs = registry.by_id("rs").unwrap();
        let (py_name, py_grammar) = &py.grammars[0];
        let (_, rs_grammar) = &rs.grammars[0];
        let py_source = source(py, "refs", py_name).unwrap();
        let analysed = Query::new(py_grammar, &py_source).unwrap();
        let good = analysed.analysis();
        // Another grammar's analysis of the same source: a different symbol and state count.
        let rs_source = source(rs, "refs", &rs.grammars[0].0).unwrap();
        let other = Query::new(rs_grammar, &rs_source).unwrap().analysis();
        // The first step's `root_pattern_guaranteed` flag, flipped.
        let mut flipped = good.clone();
        flipped[28] ^= 2;
        let mut damaged = vec![
            good[..good.len() - 1].to_vec(),  // one byte short
            other,                            // written for Rust
            [good.clone(), vec![0]].concat(), // one byte long
            vec![0; good.len()],              // no magic
            Vec::new(),
        ];
        let mut magic = good.clone();
        magic[0] ^= 1;
        damaged.push(magic);
        for bad in damaged {
            let query = Query::with_analysis(py_grammar, &py_source, &bad).unwrap();
            assert_eq!(
                query.analysis(),
                good,
                "a misfit analysis is replaced by the real one"
            );
        }
        // A fitting one is taken as it is, even when its flags differ (so the key must
        // name the source): the flags are data, not checked against the grammar.
        let taken = Query::with_analysis(py_grammar, &py_source, &flipped).unwrap();
        assert_eq!(taken.analysis(), flipped);
    }

    /// Every query's analysis, as `grammars/analyses.txt` holds them: one line per
    /// language and grammar (`<key> <hex>`), sorted.
    fn current_analyses(registry: &navmap_language::Registry) -> Vec<String> {
        let mut lines = Vec::new();
        for lang in registry.all() {
            for (name, grammar) in &lang.grammars {
                let (combined, _) = combined_source(lang, name);
                let query = Query::new(grammar, &combined).unwrap();
                let key = analysis_key(lang.id(), name, grammar, &combined);
                lines.push(format!(
                    "{key} {}",
                    navmap_language::analysis_to_hex(&query.analysis())
                ));
            }
        }
        lines.sort();
        lines
    }

    /// A shipped line must be its query's current analysis: one left behind by a changed
    /// query or grammar would make every cold build analyse that query again, silently.
    /// A language with no line is allowed (adding a language touches only its own
    /// directory and the registry line; its query is analysed when compiled, and the
    /// map keeps the analysis) until the file is written again.
    #[test]
    fn shipped_analyses_are_the_current_queries_own() {
        crate::alloc::ready();
        let registry = navmap_grammars::registry();
        let current = current_analyses(&registry);
        if std::env::var_os("NAVMAP_BLESS").is_some() {
            let header: String = navmap_grammars::QUERY_ANALYSES
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| format!("{l}\n"))
                .collect();
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../grammars/analyses.txt");
            std::fs::write(path, format!("{header}{}\n", current.join("\n"))).unwrap();
            return;
        }
        let shipped = navmap_grammars::QUERY_ANALYSES
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let mut checked = 0;
        for line in shipped {
            assert!(
                current.iter().any(|c| c == line),
                "grammars/analyses.txt has a line that is not a current query's analysis \
                 (a query or a grammar changed): {}… Write the file again: \
                 NAVMAP_BLESS=1 cargo test -p navmap-extract shipped",
                &line[..line.find(' ').unwrap_or(line.len())]
            );
            checked += 1;
        }
        assert!(checked >= 16, "only {checked} shipped analyses");
        // Each language carries its own, so compiling it analyses nothing.
        for lang in registry.all() {
            for (key, hex) in &lang.query_analyses {
                assert!(key.starts_with(&format!("{}/", lang.id())), "{key}");
                assert!(current.contains(&format!("{key} {hex}")), "{key}");
            }
        }
    }

    #[test]
    fn a_query_with_a_shipped_analysis_is_not_analysed_again() {
        let registry = navmap_grammars::registry();
        let lua = registry.by_id("lua").unwrap();
        let compiled = get(lua, "lua").unwrap();
        assert!(compiled.query.is_some());
        assert!(
            !compiled.analysed_here,
            "built from the shipped analysis (see shipped_analyses_are_the_current_queries_own)"
        );
        assert!(!analyses().iter().any(|(k, _)| k.starts_with("lua/")));
        // Without the shipped one, the same query is analysed here.
        let mut bare = (**lua).clone();
        bare.query_analyses.clear();
        let again = compile(&bare, "lua").unwrap();
        assert!(again.analysed_here);
        assert_eq!(
            again.query.as_ref().unwrap().analysis(),
            navmap_language::analysis_from_hex(lua.query_analyses.values().next().unwrap())
                .unwrap()
        );
    }

    #[test]
    fn the_key_names_the_source_and_the_grammar() {
        let registry = navmap_grammars::registry();
        let py = registry.by_id("py").unwrap();
        let rs = registry.by_id("rs").unwrap();
        let g = &py.grammars[0].1;
        let a = analysis_key("py", "python", g, "(identifier) @x");
        assert_eq!(
            a,
            analysis_key("py", "python", g, "(identifier) @x"),
            "stable"
        );
        assert_ne!(a, analysis_key("py", "python", g, "(identifier) @y"));
        assert_ne!(
            a,
            analysis_key("py", "python", &rs.grammars[0].1, "(identifier) @x")
        );
        assert!(a.starts_with("py/python/"));
    }
}
