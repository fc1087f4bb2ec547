//! Matching a map node's qualified name against a language server's outline.
//!
//! Servers decorate names: `refresh()` or `refresh(key)` (some servers add the
//! parameters), `(*SessionStore).Refresh` (Go methods listed at the top level with their
//! receiver), `impl BaseStore for SessionStore` (a Rust impl block whose children are the
//! type's methods), `SessionStore::refresh` (C++ out-of-line definitions), `Cache<T>`. Each
//! outline entry is given a *path* of plain name segments, so that it compares with the
//! map's dotted qualified name (`SessionStore.refresh`): the decorations above all become
//! `[SessionStore, refresh]`. Impl blocks only contribute their type to their children's
//! paths and are never a match themselves (the type's own definition is).
//!
//! Which decorations exist is language data: each manifest's `[lsp.outline]` table
//! ([`navmap_language::OutlineRules`]: container keywords, a parenthesized receiver, type
//! prefixes). The rules of all registered languages are applied together; this module
//! names none of them.

use std::sync::OnceLock;

use navmap_language::OutlineRules;
use navmap_lsp::{DocumentSymbol, Position};

/// The union of every language's `[lsp.outline]` rules.
fn rules() -> &'static OutlineRules {
    static RULES: OnceLock<OutlineRules> = OnceLock::new();
    RULES.get_or_init(|| {
        let registry = navmap_grammars::registry();
        OutlineRules::union(
            registry
                .all()
                .iter()
                .filter_map(|l| l.manifest.lsp.as_ref().map(|lsp| &lsp.outline)),
        )
    })
}

/// One outline entry, in source (pre-)order.
pub struct Entry<'a> {
    pub sym: &'a DocumentSymbol,
    /// Plain name segments from the outermost container to this symbol.
    pub path: Vec<String>,
    /// Nesting depth in the server's outline (0 = top level).
    pub depth: usize,
    /// A container that stands for another symbol (a Rust `impl` block): never a match.
    pub container_only: bool,
}

impl Entry<'_> {
    /// The dotted chain, as a map qualified name reads.
    pub fn qualified(&self) -> String {
        self.path.join(".")
    }

    pub fn name(&self) -> &str {
        self.path
            .last()
            .map(String::as_str)
            .unwrap_or(&self.sym.name)
    }

    pub fn contains(&self, pos: Position) -> bool {
        self.sym.range.start <= pos && pos <= self.sym.range.end
    }
}

/// Every entry of an outline, pre-order, with its path.
pub fn entries(outline: &[DocumentSymbol]) -> Vec<Entry<'_>> {
    fn walk<'a>(
        list: &'a [DocumentSymbol],
        parent: &[String],
        depth: usize,
        out: &mut Vec<Entry<'a>>,
    ) {
        for s in list {
            let (segments, container_only) = name_segments(&s.name);
            let mut path = parent.to_vec();
            path.extend(segments);
            out.push(Entry {
                sym: s,
                path: path.clone(),
                depth,
                container_only,
            });
            walk(&s.children, &path, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    walk(outline, &[], 0, &mut out);
    out
}

/// The plain segments a server's symbol name stands for, and whether it is a container
/// standing for another symbol (an impl block). A name that normalises to nothing (an
/// anonymous `<function>`) is kept whole, so that it matches nothing rather than its parent.
pub fn name_segments(raw: &str) -> (Vec<String>, bool) {
    name_segments_with(raw, rules())
}

fn name_segments_with(raw: &str, rules: &OutlineRules) -> (Vec<String>, bool) {
    let s = raw.trim();
    // A container standing for a type (`impl<T> Trait for Type<T>`): the type.
    for kw in &rules.container_keywords {
        if let Some(rest) = s.strip_prefix(kw.as_str())
            && (rest.starts_with(char::is_whitespace) || rest.starts_with('<'))
        {
            let rest = skip_generics(rest.trim_start());
            let ty = rules
                .container_type_separators
                .iter()
                .find_map(|sep| rest.rsplit_once(sep.as_str()).map(|(_, t)| t))
                .unwrap_or(rest);
            let seg = type_segment(ty, rules);
            if !seg.is_empty() {
                return (vec![seg], true);
            }
        }
    }
    // `(*Type).Method`, `(Type).Method`: receiver, then the method.
    if rules.parenthesized_receiver
        && s.starts_with('(')
        && let Some(close) = matching_paren(s)
        && s[close + 1..].starts_with('.')
    {
        let recv = type_segment(&s[1..close], rules);
        let mut out: Vec<String> = Vec::new();
        if !recv.is_empty() {
            out.push(recv);
        }
        out.extend(plain_segments(&s[close + 2..]));
        if !out.is_empty() {
            return (out, false);
        }
    }
    // `Type:method` (a manifest's `name_separators`) reads as `Type.method`; only in the
    // name itself, before any parameter list or type annotation.
    let head_end = s.find(['(', '<', '[', ' ', '\t']).unwrap_or(s.len());
    let mut head = s[..head_end].to_string();
    for sep in &rules.name_separators {
        head = head.replace(sep.as_str(), ".");
    }
    let plain = plain_segments(&head);
    if plain.is_empty() {
        (vec![s.to_string()], false)
    } else {
        (plain, false)
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// `refresh(key: str)` → `[refresh]`; `a.b::c<T>` → `[a, b, c]`.
fn plain_segments(s: &str) -> Vec<String> {
    let cut = s.find(['(', '<', '[', ' ', '\t']).unwrap_or(s.len());
    s[..cut]
        .split("::")
        .flat_map(|p| p.split('.'))
        .map(|p| p.trim_matches(|c: char| !is_ident(c)))
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// `&mut crate::store::Cache<T>` → `Cache`; `*SessionStore` → `SessionStore` (with the
/// prefixes and skipped words of the rules).
fn type_segment(ty: &str, rules: &OutlineRules) -> String {
    let mut t = ty.trim();
    loop {
        let before = t;
        for p in &rules.type_prefixes {
            t = t.strip_prefix(p.as_str()).unwrap_or(t).trim_start();
        }
        if rules
            .skipped_word_markers
            .iter()
            .any(|m| t.starts_with(m.as_str()))
        {
            t = t
                .split_once(char::is_whitespace)
                .map_or("", |(_, rest)| rest)
                .trim_start();
        }
        if t == before {
            break;
        }
    }
    let cut = t.find(['<', '[', ' ', '(', '{']).unwrap_or(t.len());
    let t = &t[..cut];
    t.rsplit("::")
        .next()
        .unwrap_or(t)
        .trim_matches(|c: char| !is_ident(c))
        .to_string()
}

/// `<T: Clone> Foo<T>` → `Foo<T>`.
fn skip_generics(s: &str) -> &str {
    if !s.starts_with('<') {
        return s;
    }
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return s[i + 1..].trim_start();
                }
            }
            _ => {}
        }
    }
    s
}

/// Byte index of the `)` closing the `(` at index 0.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Where `name` is written for `sym`: its selection range's start when the name is there,
/// else the first whole-word occurrence of `name` from that start to the end of the
/// symbol's range. Servers do not always point the selection range at the name
/// (tsserver's overload signatures start at `export`); `text` is the file's content.
pub fn name_position(text: &str, sym: &DocumentSymbol, name: &str) -> Position {
    let start = sym.selection_range.start;
    let end = sym.range.end.max(sym.selection_range.end);
    let name: Vec<u16> = name.encode_utf16().collect();
    if name.is_empty() {
        return start;
    }
    for (line0, line) in text.split('\n').enumerate().skip(start.line as usize) {
        let line0 = line0 as u32;
        if line0 > end.line {
            break;
        }
        let units: Vec<u16> = line.trim_end_matches('\r').encode_utf16().collect();
        let from = if line0 == start.line {
            start.character as usize
        } else {
            0
        };
        let to = if line0 == end.line {
            (end.character as usize).min(units.len())
        } else {
            units.len()
        };
        let word = |i: usize| {
            char::decode_utf16([units[i]])
                .next()
                .and_then(Result::ok)
                .is_some_and(is_ident)
        };
        let mut i = from;
        while i + name.len() <= to {
            if units[i..i + name.len()] == name[..]
                && (i == 0 || !word(i - 1))
                && (i + name.len() == units.len() || !word(i + name.len()))
            {
                return Position::new(line0, i as u32);
            }
            i += 1;
        }
    }
    start
}

/// What a qualified name found in an outline.
pub enum Found<'e, 'a> {
    /// Under the same chain of parents (possibly inside extra containers the map does not
    /// name, such as a namespace wrapper).
    Exact(&'e Entry<'a>),
    /// Not under its parents any more, but its name is unique in the file.
    Relocated(&'e Entry<'a>),
    Missing,
}

/// Finds the `dup`-th (1-based, source order) definition of `chain` in `entries`.
pub fn find<'e, 'a>(entries: &'e [Entry<'a>], chain: &[String], dup: u32) -> Found<'e, 'a> {
    let Some(name) = chain.last() else {
        return Found::Missing;
    };
    let n = dup.max(1) as usize;
    let defs = || entries.iter().filter(|e| !e.container_only);
    if let Some(e) = defs().filter(|e| e.path == chain).nth(n - 1) {
        return Found::Exact(e);
    }
    if let Some(e) = defs()
        .filter(|e| e.path.len() > chain.len() && e.path.ends_with(chain))
        .nth(n - 1)
    {
        return Found::Exact(e);
    }
    if !same_chain(entries, chain).is_empty() {
        // The chain is there, with fewer duplicates than `~n` asks for.
        return Found::Missing;
    }
    let mut named = defs().filter(|e| e.path.last() == Some(name));
    match (named.next(), named.next()) {
        // Unique, and really somewhere else (not the first of a pair whose `~2` is gone).
        (Some(e), None) if e.path != chain => Found::Relocated(e),
        _ => Found::Missing,
    }
}

/// The definitions of `chain` in source order: under exactly that chain, else inside extra
/// containers the map does not name (as [`find`] matches them).
pub fn same_chain<'e, 'a>(entries: &'e [Entry<'a>], chain: &[String]) -> Vec<&'e Entry<'a>> {
    let defs = || entries.iter().filter(|e| !e.container_only);
    let exact: Vec<&Entry> = defs().filter(|e| e.path == chain).collect();
    if !exact.is_empty() {
        return exact;
    }
    defs()
        .filter(|e| e.path.len() > chain.len() && e.path.ends_with(chain))
        .collect()
}

/// The `~n` a map ID gives this entry: its rank among the definitions with the same path.
pub fn dup_index(entries: &[Entry<'_>], target: &Entry<'_>) -> u32 {
    let mut n = 0;
    for e in entries
        .iter()
        .filter(|e| !e.container_only && e.path == target.path)
    {
        n += 1;
        if std::ptr::eq(e.sym, target.sym) {
            break;
        }
    }
    n.max(1)
}

/// Entries whose range contains `pos`, outermost first.
pub fn enclosing<'e, 'a>(entries: &'e [Entry<'a>], pos: Position) -> Vec<&'e Entry<'a>> {
    let mut chain: Vec<&Entry> = entries.iter().filter(|e| e.contains(pos)).collect();
    // Pre-order already lists a container before its members; servers that list members
    // flat (Go methods) are ordered by span, widest first.
    chain.sort_by_key(|e| {
        let r = e.sym.range;
        std::cmp::Reverse((r.end.line - r.start.line, r.end.character))
    });
    chain
}

/// Up to `max` distinct dotted names of the top-level entries (hints for a miss).
pub fn top_level_names(entries: &[Entry<'_>], max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in entries.iter().filter(|e| e.depth == 0 && !e.container_only) {
        let q = e.qualified();
        if !out.contains(&q) {
            out.push(q);
        }
        if out.len() == max {
            break;
        }
    }
    out
}

/// Up to `max` distinct names defined directly under `parent` (siblings of a missing
/// member), when the parent itself is still there.
pub fn members_of(entries: &[Entry<'_>], parent: &[String], max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if parent.is_empty() {
        return out;
    }
    for e in entries.iter().filter(|e| !e.container_only) {
        if e.path.len() == parent.len() + 1 && e.path.starts_with(parent) {
            let n = e.name().to_string();
            if !out.contains(&n) {
                out.push(n);
            }
            if out.len() == max {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use navmap_lsp::{Range, SymbolKind};

    fn sym(name: &str, lines: (u32, u32), children: Vec<DocumentSymbol>) -> DocumentSymbol {
        let range = Range::new(Position::new(lines.0, 0), Position::new(lines.1, 0));
        DocumentSymbol {
            name: name.into(),
            detail: None,
            kind: SymbolKind::METHOD,
            range,
            selection_range: Range::new(Position::new(lines.0, 4), Position::new(lines.0, 8)),
            children,
        }
    }

    fn chain(q: &str) -> Vec<String> {
        q.split('.').map(str::to_string).collect()
    }

    fn segs(raw: &str) -> Vec<String> {
        name_segments(raw).0
    }

    #[test]
    fn decorations_are_stripped() {
        assert_eq!(segs("refresh"), ["refresh"]);
        assert_eq!(segs("refresh()"), ["refresh"]);
        assert_eq!(segs("refresh(key: str) -> bool"), ["refresh"]);
        assert_eq!(segs("(*SessionStore).Refresh"), ["SessionStore", "Refresh"]);
        assert_eq!(segs("(SessionStore).Get"), ["SessionStore", "Get"]);
        assert_eq!(segs("(*Cache[K, V]).Put"), ["Cache", "Put"]);
        assert_eq!(segs("SessionStore::refresh"), ["SessionStore", "refresh"]);
        assert_eq!(segs("Cache<T>"), ["Cache"]);
        assert_eq!(
            name_segments("impl SessionStore"),
            (vec!["SessionStore".into()], true)
        );
        assert_eq!(segs("impl BaseStore for SessionStore"), ["SessionStore"]);
        assert_eq!(segs("impl<T: Clone> Store<T> for Cache<T>"), ["Cache"]);
        assert_eq!(segs("impl<'a> Display for &'a crate::Cache"), ["Cache"]);
        // Anonymous entries match nothing, not their parent.
        assert_eq!(segs("<function>"), ["<function>"]);
        assert_eq!(segs("implode"), ["implode"]);
    }

    #[test]
    fn decorations_are_data() {
        // Without rules, only the generic decorations are read.
        let none = OutlineRules::default();
        assert_eq!(name_segments_with("impl Foo", &none).0, ["impl"]);
        assert_eq!(name_segments_with("(*T).M", &none).0, ["(*T).M"]);
        assert!(!name_segments_with("impl Foo", &none).1);
        // A made-up language's container keyword and receiver style.
        let toy = OutlineRules {
            container_keywords: vec!["extend".into()],
            container_type_separators: vec![" onto ".into()],
            parenthesized_receiver: true,
            type_prefixes: vec!["^".into()],
            skipped_word_markers: vec![],
            name_separators: vec![":".into()],
        };
        assert_eq!(
            name_segments_with("Box:open(a: int)", &toy).0,
            ["Box", "open"]
        );
        assert_eq!(name_segments_with("Box:open", &none).0, ["Box:open"]);
        assert_eq!(
            name_segments_with("extend Shape onto ^Box", &toy),
            (vec!["Box".into()], true)
        );
        assert_eq!(name_segments_with("(^Box).Open", &toy).0, ["Box", "Open"]);
    }

    #[test]
    fn finds_by_chain_then_by_unique_name() {
        let outline = vec![
            sym("DEFAULT_TTL", (7, 7), vec![]),
            sym(
                "SessionStore",
                (10, 40),
                vec![
                    sym("get", (17, 20), vec![]),
                    sym("refresh()", (26, 33), vec![]),
                ],
            ),
            sym("Other", (42, 50), vec![sym("moved", (43, 45), vec![])]),
        ];
        let es = entries(&outline);
        assert_eq!(
            es.iter().map(|e| e.qualified()).collect::<Vec<_>>(),
            [
                "DEFAULT_TTL",
                "SessionStore",
                "SessionStore.get",
                "SessionStore.refresh",
                "Other",
                "Other.moved"
            ]
        );
        match find(&es, &chain("SessionStore.refresh"), 1) {
            Found::Exact(e) => assert_eq!(e.sym.range.start.line, 26),
            _ => panic!("exact"),
        }
        match find(&es, &chain("SessionStore.moved"), 1) {
            Found::Relocated(e) => assert_eq!(e.qualified(), "Other.moved"),
            _ => panic!("relocated"),
        }
        assert!(matches!(
            find(&es, &chain("SessionStore.gone"), 1),
            Found::Missing
        ));
        assert!(matches!(
            find(&es, &chain("SessionStore.get"), 2),
            Found::Missing
        ));
        assert_eq!(
            top_level_names(&es, 10),
            ["DEFAULT_TTL", "SessionStore", "Other"]
        );
        assert_eq!(
            members_of(&es, &chain("SessionStore"), 10),
            ["get", "refresh"]
        );
    }

    #[test]
    fn impl_blocks_and_receivers_qualify_methods() {
        let outline = vec![
            sym("SessionStore", (11, 14), vec![]),
            sym(
                "impl SessionStore",
                (16, 30),
                vec![sym("refresh", (23, 29), vec![])],
            ),
            sym("(*Cache).Put", (31, 33), vec![]),
        ];
        let es = entries(&outline);
        match find(&es, &chain("SessionStore"), 1) {
            Found::Exact(e) => assert_eq!(e.sym.range.start.line, 11, "the type, not the impl"),
            _ => panic!(),
        }
        assert!(matches!(
            find(&es, &chain("SessionStore.refresh"), 1),
            Found::Exact(_)
        ));
        assert!(matches!(find(&es, &chain("Cache.Put"), 1), Found::Exact(_)));
        let inside = enclosing(&es, Position::new(25, 2));
        let names: Vec<String> = inside.iter().map(|e| e.qualified()).collect();
        assert_eq!(names, ["SessionStore", "SessionStore.refresh"]);
    }

    #[test]
    fn the_name_is_found_inside_the_range() {
        let text = "export function over(a: string): string;\nexport function over(a: any) {\n  return over(a);\n}\nconst overt = 1;\n";
        let mut s = sym("over", (1, 3), vec![]);
        // tsserver: the selection range of an overload entry starts at `export`.
        s.selection_range = Range::new(Position::new(1, 0), Position::new(1, 6));
        assert_eq!(name_position(text, &s, "over"), Position::new(1, 16));
        // Already on the name: kept.
        s.selection_range = Range::new(Position::new(1, 16), Position::new(1, 20));
        assert_eq!(name_position(text, &s, "over"), Position::new(1, 16));
        // Whole words only, and never past the range: not found → the selection start.
        let mut t = sym("overt", (1, 3), vec![]);
        t.selection_range = Range::new(Position::new(1, 0), Position::new(1, 6));
        assert_eq!(name_position(text, &t, "overt"), Position::new(1, 0));
        // Non-ASCII before the name counts in UTF-16 units.
        let text = "const é = 1; function 🚀x() {}\n";
        let mut u = sym("x", (0, 0), vec![]);
        u.range = Range::new(Position::new(0, 0), Position::new(0, 30));
        u.selection_range = Range::new(Position::new(0, 0), Position::new(0, 5));
        assert_eq!(name_position(text, &u, "x"), Position::new(0, 24));
    }

    #[test]
    fn duplicates_count_in_source_order() {
        let outline = vec![sym(
            "C",
            (0, 20),
            vec![sym("x", (1, 3), vec![]), sym("x", (5, 7), vec![])],
        )];
        let es = entries(&outline);
        match find(&es, &chain("C.x"), 2) {
            Found::Exact(e) => {
                assert_eq!(e.sym.range.start.line, 5);
                assert_eq!(dup_index(&es, e), 2);
            }
            _ => panic!(),
        }
    }
}
