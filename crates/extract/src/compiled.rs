//! Compiled queries, cached per (language, grammar). The three query files of a grammar are
//! compiled into **one** query, so a file's tree is walked once rather than three times
//! (this halves query time); each match is dispatched by its pattern's section.
//! Compiling costs tens of milliseconds, so it happens once per process.

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

fn compile(lang: &Language, name: &str) -> Option<Arc<Compiled>> {
    let grammar = lang.grammars.iter().find(|(n, _)| n == name)?.1.clone();
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
    COMPILES.fetch_add(1, Ordering::Relaxed);
    Some(Arc::new(Compiled {
        query: Query::new(&grammar, &combined).ok(),
        grammar,
        sections,
    }))
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
