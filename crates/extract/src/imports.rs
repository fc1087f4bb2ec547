//! Imports: the `imports.scm` query's matches → [`ImportFact`]s. Capture conventions:
//! `grammars/README.md`.
//!
//! A match yields one *entry* (a module, a name from a module, or a glob); entries of the
//! same statement and module are merged into one fact. Nested import trees (Rust's
//! `use a::{b::{c, d}}`) are flattened with `@import.prefix`: a prefix captured inside some
//! node applies to every entry elsewhere inside that node, joined with the manifest's
//! `[imports] separator`.
//!
//! A long import list must cost linear time: a pattern that captures a name *and* a field
//! after the list (`import { a, b, … } from "m"`) keeps a query state per name until that
//! field comes, and tree-sitter compares those states pairwise (a 5,000-name list took
//! minutes). So the names are matched without the module, and `@import.from` gives the module
//! of their statement in a pattern of its own; the names' statement is `@import.joined`, and
//! a joined name whose statement has no `@import.from` (a local `export { a }`) is nothing.

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Query};

use crate::facts::{ImportFact, ImportedName};
use crate::ids::IdSet;
use crate::matches::{Matches, property};
use crate::text::{node_text, unquote};

struct Entry<'t> {
    statement: Option<Node<'t>>,
    anchor: Node<'t>,
    module: Option<String>,
    module_alias: Option<String>,
    name: Option<ImportedName>,
    reexport: bool,
    joined: bool,
}

pub fn extract(query: &Query, matches: &Matches, source: &str, separator: &str) -> Vec<ImportFact> {
    let mut statements: Vec<Node> = Vec::new();
    let mut reexports: IdSet = IdSet::default();
    let mut prefixes: Vec<Node> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    // Statement → its `@import.from`: the module of its entries that capture none.
    let mut froms: HashMap<usize, String> = HashMap::new();
    for m in matches {
        let statement = m.get("import");
        statements.extend(statement);
        // Text put before the module as written, so that one statement form can say what
        // another says with a prefix (a keyword that makes a bare name relative: `./x`).
        let module_prefix = property(query, m.pattern, "import.module_prefix").unwrap_or("");
        if let (Some(stmt), Some(from)) = (statement, m.get("import.from")) {
            let text = unquote(node_text(&from, source));
            froms.insert(stmt.id(), format!("{module_prefix}{text}"));
        }
        let reexport = m.get("import.reexport");
        reexports.extend(reexport.map(|n| n.id()));
        prefixes.extend(m.get("import.prefix"));

        let module = m.get("import.module");
        let name = m.get("import.name");
        let glob = m.get("import.glob");
        let fixed_name = property(query, m.pattern, "import.name");
        let alias_node = m.get("import.alias");
        // Entries sort by their anchor: the imported name as written, else the module.
        let Some(anchor) = name.or(alias_node).or(glob).or(module) else {
            continue;
        };
        let text = |n: Node| unquote(node_text(&n, source)).to_string();
        let alias = alias_node.map(text);
        let imported = if glob.is_some() {
            Some(ImportedName {
                name: "*".into(),
                alias: None,
            })
        } else if let Some(name) = name {
            Some(ImportedName {
                name: text(name),
                alias,
            })
        } else {
            fixed_name.map(|n| ImportedName {
                name: n.to_string(),
                alias,
            })
        };
        entries.push(Entry {
            statement,
            anchor,
            module: module.map(|n| format!("{module_prefix}{}", text(n))),
            module_alias: m.get("import.module_alias").map(text),
            name: imported,
            reexport: reexport.is_some(),
            joined: m.get("import.joined").is_some(),
        });
    }

    prefixes.sort_by_key(|p| p.start_byte());
    prefixes.dedup_by_key(|p| p.id());
    // Each prefix's parent, asked once: `Node::parent` walks down from the root.
    let prefixes: Vec<(Node, Option<Node>)> =
        prefixes.into_iter().map(|p| (p, p.parent())).collect();
    let mut facts: Vec<ImportFact> = Vec::new();
    let mut statement_of: Vec<usize> = Vec::new();
    let mut index: HashMap<(usize, String, Option<String>), usize> = HashMap::new();
    let mut seen: HashSet<(usize, String, Option<String>)> = HashSet::new();
    entries.sort_by_key(|e| e.anchor.start_byte());
    for entry in entries {
        let statement = entry
            .statement
            .or_else(|| innermost(&statements, entry.anchor));
        let from = match (&entry.module, statement) {
            (None, Some(s)) => froms.get(&s.id()),
            _ => None,
        };
        if entry.joined && from.is_none() {
            continue;
        }
        let mut parts: Vec<&str> = prefixes
            .iter()
            .filter(|(p, scope)| applies(p, *scope, entry.anchor))
            .map(|(p, _)| node_text(p, source).trim())
            .collect();
        parts.extend(entry.module.as_deref().or(from.map(String::as_str)));
        if parts.is_empty() {
            continue;
        }
        let module = parts.join(separator);
        let stmt = statement.unwrap_or(entry.anchor);
        let reexport = entry.reexport || reexports.contains(&stmt.id());
        let key = (stmt.id(), module.clone(), entry.module_alias.clone());
        let i = *index.entry(key).or_insert_with(|| {
            statement_of.push(stmt.id());
            facts.push(ImportFact {
                module,
                names: Vec::new(),
                alias: entry.module_alias.clone(),
                reexport: false,
                line: stmt.start_position().row as u32,
            });
            facts.len() - 1
        });
        let fact = &mut facts[i];
        fact.reexport |= reexport;
        // A set, not a scan of the fact's names: a list can hold thousands.
        if let Some(name) = entry.name
            && seen.insert((i, name.name.clone(), name.alias.clone()))
        {
            fact.names.push(name);
        }
    }
    // A pattern that captures just the module of every statement adds nothing to a
    // statement that other patterns already described (`import * as x from "m"`).
    let described: HashSet<(usize, &str)> = facts
        .iter()
        .zip(&statement_of)
        .filter(|(f, _)| !f.names.is_empty() || f.alias.is_some())
        .map(|(f, s)| (*s, f.module.as_str()))
        .collect();
    let keep: Vec<bool> = facts
        .iter()
        .zip(&statement_of)
        .map(|(f, s)| {
            !f.names.is_empty()
                || f.alias.is_some()
                || !described.contains(&(*s, f.module.as_str()))
        })
        .collect();
    let mut keep = keep.into_iter();
    facts.retain(|_| keep.next().unwrap_or(true));
    facts
}

/// A prefix applies to an entry inside the prefix's parent (`scope`), but not to the
/// prefix's own path (whose parts are the prefix itself).
fn applies(prefix: &Node, scope: Option<Node>, anchor: Node) -> bool {
    let Some(scope) = scope else {
        return false;
    };
    contains(&scope, &anchor) && !contains(prefix, &anchor)
}

fn contains(outer: &Node, inner: &Node) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// The statements that have an `@import.from`: a joined name (`@import.joined`) counts
/// only in one of them.
pub fn joined_statements(matches: &Matches) -> HashSet<usize> {
    matches
        .iter()
        .filter(|m| m.get("import.from").is_some())
        .filter_map(|m| m.get("import").or(m.get("import.joined")))
        .map(|n| n.id())
        .collect()
}

fn innermost<'t>(statements: &[Node<'t>], anchor: Node<'t>) -> Option<Node<'t>> {
    statements
        .iter()
        .filter(|s| contains(s, &anchor))
        .min_by_key(|s| s.end_byte() - s.start_byte())
        .copied()
}
