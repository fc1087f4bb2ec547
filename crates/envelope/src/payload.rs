//! What a tool hands to the envelope: its data plus the facts truncation needs.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// Orders two items of a list: the better item first (`Ordering::Less`).
pub type Comparator = Arc<dyn Fn(&Value, &Value) -> Ordering + Send + Sync>;

/// How a truncatable list is ranked before its prefix is kept.
#[derive(Clone, Default)]
pub enum Ranker {
    /// The tool already produced the list best-first.
    #[default]
    AlreadyRanked,
    /// Sort (stable) with this comparator first.
    By(Comparator),
}

impl fmt::Debug for Ranker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ranker::AlreadyRanked => f.write_str("AlreadyRanked"),
            Ranker::By(_) => f.write_str("By(..)"),
        }
    }
}

/// String fields shortened (with a visible `…`) when an answer does not fit: prose, never
/// identifiers. A string is shortenable when it sits anywhere under one of these keys (or a
/// key the payload adds with [`Payload::shortenable`]); everything else (`id`, `nodeId`,
/// `file`, `name`, `kind`, `qualifiedName`, `builtAt`, URIs, enum values, …) is passed back
/// by agents and is never shortened: its list item is dropped instead.
pub const SHORTENABLE_KEYS: &[&str] = &[
    "doc",
    "signature",
    "snippet",
    "contents",
    "hover",
    "detail",
    "documentation",
    "stderr",
    "stderrTail",
    "message",
    "hint",
    "note",
    "text",
    "label",
    "description",
    "summary",
];

/// A list inside `data` that may be cut to fit the budget.
#[derive(Debug, Clone)]
pub struct ListSpec {
    /// A JSON pointer into `data` (`/results`, `/neighbors`). A `*` segment matches every
    /// item of an array, declaring a nested list (`/clusters/*/hubs`): each instance is
    /// ranked and cut to the same length ("evenly"), and nested lists are cut before the
    /// lists that hold them. Cursors page top-level lists only. Top-level lists must not
    /// nest inside one another (declare the inner one with `*`).
    pub path: String,
    /// What the items are, for `dropped.kind` and the note (`references`).
    pub kind: String,
    pub ranker: Ranker,
    /// The narrowing sentence of the note, naming the parameter to pass
    /// (`Pass fileFilter:'src/' to scope`); the envelope appends ", or raise tokenBudget.".
    pub narrowing: String,
}

impl ListSpec {
    /// An already-ranked list at `path` whose items are `kind`.
    pub fn new(path: impl Into<String>, kind: impl Into<String>) -> Self {
        ListSpec {
            path: path.into(),
            kind: kind.into(),
            ranker: Ranker::AlreadyRanked,
            narrowing: String::new(),
        }
    }

    /// Ranks the list with `cmp` (stable sort, best first) before cutting.
    pub fn ranked_by(
        mut self,
        cmp: impl Fn(&Value, &Value) -> Ordering + Send + Sync + 'static,
    ) -> Self {
        self.ranker = Ranker::By(Arc::new(cmp));
        self
    }

    pub fn narrowing(mut self, sentence: impl Into<String>) -> Self {
        self.narrowing = sentence.into();
        self
    }
}

/// A successful tool answer before it meets the budget.
#[derive(Debug, Clone)]
pub struct Payload {
    pub data: Value,
    pub lists: Vec<ListSpec>,
    pub warnings: Vec<String>,
    /// What cursors of this answer are bound to: the map generation for map tools, a
    /// cached-result id for nav tools. 0 when nothing pages.
    pub generation: u64,
    /// Narrowing sentence for cuts outside any list (snippets, long strings).
    pub narrowing: String,
    /// Keys whose strings may be shortened besides [`SHORTENABLE_KEYS`].
    pub shortenable: Vec<String>,
}

impl Payload {
    pub fn new(data: Value) -> Self {
        Payload {
            data,
            lists: Vec::new(),
            warnings: Vec::new(),
            generation: 0,
            narrowing: String::new(),
            shortenable: Vec::new(),
        }
    }

    /// Lets strings under `key` be shortened too (prose fields of this tool that are not in
    /// [`SHORTENABLE_KEYS`]). Never declare an identifier here.
    pub fn shortenable(mut self, key: impl Into<String>) -> Self {
        self.shortenable.push(key.into());
        self
    }

    /// Whether strings under `key` may be shortened.
    pub fn may_shorten(&self, key: &str) -> bool {
        SHORTENABLE_KEYS.contains(&key) || self.shortenable.iter().any(|k| k == key)
    }

    pub fn list(mut self, spec: ListSpec) -> Self {
        self.lists.push(spec);
        self
    }

    pub fn warn(mut self, warning: impl Into<String>) -> Self {
        self.warnings.push(warning.into());
        self
    }

    pub fn generation(mut self, generation: u64) -> Self {
        self.generation = generation;
        self
    }

    pub fn narrowing(mut self, sentence: impl Into<String>) -> Self {
        self.narrowing = sentence.into();
        self
    }
}
