//! Running a query: the streaming matches of tree-sitter collected into owned values.

use smallvec::SmallVec;
use tree_sitter::{Node, Query, QueryCursor, StreamingIterator};

/// Captures a match keeps without a heap allocation: nearly every pattern captures at most
/// four nodes, and a file has hundreds of thousands of matches (an allocation and a free
/// per match showed in a cold build's profile).
const INLINE_CAPTURES: usize = 4;

/// One match: its pattern index and its captures by capture name.
pub struct Match<'q, 't> {
    pub pattern: usize,
    pub captures: SmallVec<[(&'q str, Node<'t>); INLINE_CAPTURES]>,
}

impl<'q, 't> Match<'q, 't> {
    /// The first node captured as `name`.
    pub fn get(&self, name: &str) -> Option<Node<'t>> {
        self.captures
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, node)| *node)
    }

    /// Every node captured as `name`, in capture order.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = Node<'t>> + 'a {
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

/// Every match of `query` under `root`, in the order tree-sitter reports them, handed to
/// `each` as it comes (no list of all matches is built: a large file has hundreds of
/// thousands, which its caller sorts into sections anyway). True when the walk exceeded
/// [`MATCH_LIMIT`] and so lost matches.
pub fn each<'q, 't>(
    query: &'q Query,
    root: Node<'t>,
    source: &str,
    mut each: impl FnMut(Match<'q, 't>),
) -> bool {
    let names = query.capture_names();
    let mut cursor = QueryCursor::new();
    cursor.set_match_limit(MATCH_LIMIT);
    let mut matches = cursor.matches(query, root, source.as_bytes());
    while let Some(m) = matches.next() {
        each(Match {
            pattern: m.pattern_index,
            captures: m
                .captures()
                .iter()
                .map(|c| (names[c.index as usize], c.node))
                .collect(),
        });
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
