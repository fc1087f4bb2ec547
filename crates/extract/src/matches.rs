//! Running a query: the streaming matches of tree-sitter collected into owned values.

use tree_sitter::{Node, Query, QueryCursor, StreamingIterator};

/// The matches of one section (defs, refs, imports or bindings) of a file, stored flat:
/// every match's captures one after another in one list, and per match only its pattern
/// and where its captures end. A large file has hundreds of thousands of matches; owned
/// one by one (a pattern index and an inline list of four `(name, node)` captures,
/// ≈ 200 bytes each whatever their number of captures) they were 6.9 MB of the heap of
/// `test/test_typing.py`'s extraction, flat they take 8 bytes a match plus 48 a capture.
#[derive(Default)]
pub struct Matches<'q, 't> {
    /// Per match: its pattern index and the end of its captures in `captures`.
    heads: Vec<(u32, u32)>,
    captures: Vec<(&'q str, Node<'t>)>,
}

impl<'q, 't> Matches<'q, 't> {
    /// Adds one match.
    pub fn push(
        &mut self,
        pattern: usize,
        captures: impl IntoIterator<Item = (&'q str, Node<'t>)>,
    ) {
        self.captures.extend(captures);
        self.heads
            .push((pattern as u32, self.captures.len() as u32));
    }

    /// The matches in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = Match<'_, 'q, 't>> + Clone {
        let mut start = 0;
        self.heads.iter().map(move |&(pattern, end)| {
            let captures = &self.captures[start as usize..end as usize];
            start = end;
            Match {
                pattern: pattern as usize,
                captures,
            }
        })
    }

    pub fn len(&self) -> usize {
        self.heads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }
}

impl<'a, 'q, 't> IntoIterator for &'a Matches<'q, 't> {
    type Item = Match<'a, 'q, 't>;
    type IntoIter = Box<dyn Iterator<Item = Match<'a, 'q, 't>> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// One match: its pattern index and its captures by capture name (a view into
/// [`Matches`]).
#[derive(Clone, Copy)]
pub struct Match<'a, 'q, 't> {
    pub pattern: usize,
    pub captures: &'a [(&'q str, Node<'t>)],
}

impl<'a, 'q, 't> Match<'a, 'q, 't> {
    /// The first node captured as `name`.
    pub fn get(&self, name: &str) -> Option<Node<'t>> {
        self.captures
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, node)| *node)
    }

    /// Every node captured as `name`, in capture order.
    pub fn all(self, name: &str) -> impl Iterator<Item = Node<'t>> {
        self.captures
            .iter()
            .filter(move |(n, _)| *n == name)
            .map(|(_, node)| *node)
    }

    /// The first capture whose name starts with `prefix`: (suffix, node).
    pub fn with_prefix(&self, prefix: &str) -> Option<(&'q str, Node<'t>)> {
        self.captures
            .iter()
            .find_map(|(n, node)| n.strip_prefix(prefix).map(|suffix| (suffix, *node)))
    }
}

/// Matches a query walk keeps in progress at most: a safety net against a pattern that holds
/// a state per child until a later field comes (quadratic in the number of children, as
/// tree-sitter compares the states pairwise). Past it the earliest states are dropped: their
/// matches are lost, and the walk says so.
pub const MATCH_LIMIT: u32 = 256;

/// Every match of `query` under `root`, in the order tree-sitter reports them, added to
/// the section `section_of` gives its pattern (none: dropped; no list of all matches is
/// built). True when the walk exceeded [`MATCH_LIMIT`] and so lost matches.
pub fn each<'q, 't>(
    query: &'q Query,
    root: Node<'t>,
    source: &str,
    sections: &mut [Matches<'q, 't>],
    section_of: impl Fn(usize) -> Option<usize>,
) -> bool {
    let names = query.capture_names();
    let mut cursor = QueryCursor::new();
    cursor.set_match_limit(MATCH_LIMIT);
    let mut matches = cursor.matches(query, root, source.as_bytes());
    while let Some(m) = matches.next() {
        if let Some(section) = section_of(m.pattern_index) {
            sections[section].push(
                m.pattern_index,
                m.captures()
                    .iter()
                    .map(|c| (names[c.index as usize], c.node)),
            );
        }
    }
    cursor.did_exceed_match_limit()
}

/// The value of `#set! <key> "<value>"` in a pattern, if any.
pub fn property<'q>(query: &'q Query, pattern: usize, key: &str) -> Option<&'q str> {
    query
        .property_settings(pattern)
        .iter()
        .find(|p| &*p.key == key)
        .and_then(|p| p.value.as_deref())
}
