//! Compiled queries, cached per (language, grammar): compiling a query costs far more than
//! running it, so each is compiled once per process.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use navmap_language::Language;
use tree_sitter::Query;

/// The query files the engine runs, by file stem (`grammars/<id>/<stem>.scm`).
pub const STEMS: [&str; 3] = ["defs", "refs", "imports"];

/// The compiled queries of one grammar of one language; a missing file is `None`.
pub struct Compiled {
    pub grammar: tree_sitter::Language,
    pub defs: Option<Query>,
    pub refs: Option<Query>,
    pub imports: Option<Query>,
}

type Cache = Mutex<HashMap<(String, String), Arc<Compiled>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The query text for one grammar: `<stem>.scm`, followed by `<stem>.<grammar>.scm` when the
/// language has one (patterns only that grammar knows, e.g. JSX nodes in `refs.tsx.scm`).
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

/// Compiles (or fetches) the queries for `lang` and the grammar of `ext`. A query that does
/// not compile is left out (`None`); [`check`] reports such errors, and the grammars crate
/// tests that every query compiles.
pub fn get(lang: &Language, ext: &str) -> Option<Arc<Compiled>> {
    let name = grammar_name(lang, ext).to_string();
    let key = (lang.id().to_string(), name.clone());
    if let Some(found) = cache().lock().ok()?.get(&key) {
        return Some(found.clone());
    }
    let grammar = lang.grammars.iter().find(|(n, _)| *n == name)?.1.clone();
    let compile = |stem: &str| {
        let src = source(lang, stem, &name)?;
        Query::new(&grammar, &src).ok()
    };
    let compiled = Arc::new(Compiled {
        defs: compile("defs"),
        refs: compile("refs"),
        imports: compile("imports"),
        grammar,
    });
    cache().lock().ok()?.insert(key, compiled.clone());
    Some(compiled)
}

/// Compiles every query of every grammar of `lang`; the errors, one line each.
pub fn check(lang: &Language) -> Vec<String> {
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
