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

/// Extracts a root-relative file path from a list item (for [`ListSpec::narrowing_prefix`]).
pub type PathOf = Arc<dyn Fn(&Value) -> Option<String> + Send + Sync>;

/// A narrowing parameter a note may suggest: left out when the call already set `param`.
#[derive(Clone)]
pub enum Suggestion {
    /// `param` with a fixed text (`edgeKinds:['calls']`).
    Fixed { param: String, text: String },
    /// `param:'<dir>/'` where `<dir>` is the directory holding most items of the list
    /// (computed from the whole list, so it always exists in the answer); nothing when
    /// no directory holds more than one item.
    Prefix { param: String, path_of: PathOf },
}

impl Suggestion {
    /// The parameter this suggestion names.
    pub fn param(&self) -> &str {
        match self {
            Suggestion::Fixed { param, .. } | Suggestion::Prefix { param, .. } => param,
        }
    }
}

impl fmt::Debug for Suggestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Suggestion::Fixed { param, text } => write!(f, "Fixed({param}: {text})"),
            Suggestion::Prefix { param, .. } => write!(f, "Prefix({param})"),
        }
    }
}

/// A cap the tool applied before the envelope saw the list (`maxNodes`, `limit`): the items
/// beyond it are not in `data`, but the cut is reported in `dropped` like a budget cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cap {
    /// What the items are (`neighbors`).
    pub kind: String,
    /// How many items the answer holds (after the cap).
    pub shown: usize,
    /// How many there were before it.
    pub total: usize,
    /// The parameter that capped the list and its value (`maxNodes`, 50).
    pub param: String,
    pub value: i64,
    /// The narrowing sentence (`Pass edgeKinds to narrow`), or empty. When a declared list
    /// of the same `kind` has suggestions, its sentence (without the parameters the call
    /// set) is used instead.
    pub narrowing: String,
}

/// A list inside `data` that may be cut to fit the budget.
#[derive(Debug, Clone)]
pub struct ListSpec {
    /// A JSON pointer into `data` (`/results`, `/neighbors`). A `*` segment matches every
    /// item of an array, declaring a nested list (`/clusters/*/hubs`): each instance is
    /// ranked and cut to the same length ("evenly"), and nested lists are cut before the
    /// lists that hold them. A cursor pages the top-level lists when one was cut, else the
    /// cut nested lists (every instance moves on by as many items). Top-level lists must
    /// not nest inside one another (declare the inner one with `*`).
    pub path: String,
    /// What the items are, for `dropped.kind` and the note (`references`).
    pub kind: String,
    pub ranker: Ranker,
    /// The narrowing sentence of the note, naming the parameter to pass
    /// (`Pass fileFilter:'src/' to scope`); the envelope appends ", or raise tokenBudget.".
    pub narrowing: String,
    /// Narrowing parameters as data: the note names those the call did not set
    /// ([`Payload::given`]); when there are any, they replace `narrowing`.
    pub suggestions: Vec<Suggestion>,
}

impl ListSpec {
    /// An already-ranked list at `path` whose items are `kind`.
    pub fn new(path: impl Into<String>, kind: impl Into<String>) -> Self {
        ListSpec {
            path: path.into(),
            kind: kind.into(),
            ranker: Ranker::AlreadyRanked,
            narrowing: String::new(),
            suggestions: Vec::new(),
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

    /// Suggests passing `param` as `text` (`narrowing_param("edgeKinds", "edgeKinds:['calls']")`)
    /// unless the call set `param` already. The note reads "Pass a, b or c to narrow".
    pub fn narrowing_param(mut self, param: impl Into<String>, text: impl Into<String>) -> Self {
        self.suggestions.push(Suggestion::Fixed {
            param: param.into(),
            text: text.into(),
        });
        self
    }

    /// Suggests `text` whatever the call set (`depth:1` when the call asked for depth 3:
    /// a value other than the one in effect).
    pub fn narrowing_always(mut self, text: impl Into<String>) -> Self {
        self.suggestions.push(Suggestion::Fixed {
            param: String::new(),
            text: text.into(),
        });
        self
    }

    /// Suggests `param:'<dir>/'` with the directory that holds most items of this list
    /// (`path_of` reads an item's file), unless the call set `param` already.
    pub fn narrowing_prefix(
        mut self,
        param: impl Into<String>,
        path_of: impl Fn(&Value) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.suggestions.push(Suggestion::Prefix {
            param: param.into(),
            path_of: Arc::new(path_of),
        });
        self
    }
}

/// The directory (with a trailing `/`) holding the most of `paths`, when one holds at
/// least two and is not the whole answer's only directory by accident of being the root.
/// Ties go to the lexically smallest, so the note is deterministic.
pub fn busiest_dir<'a>(paths: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for p in paths {
        if let Some((dir, _)) = p.rsplit_once('/') {
            *counts.entry(dir).or_insert(0) += 1;
        }
    }
    let best = counts.values().copied().max()?;
    (best >= 2)
        .then(|| counts.into_iter().find(|(_, n)| *n == best))
        .flatten()
        .map(|(d, _)| format!("{d}/"))
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
    /// Caps the tool applied (`maxNodes`, `limit`), reported in `dropped`.
    pub caps: Vec<Cap>,
    /// Arguments the call set explicitly: notes never suggest them. The engine fills this
    /// in; tools need not.
    pub given: Vec<String>,
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
            caps: Vec::new(),
            given: Vec::new(),
        }
    }

    /// Reports that `param = value` capped a list of `kind` at `shown` of `total` items
    /// (nothing when `shown >= total`). The answer is `truncated` with this cut in
    /// `dropped`, like a budget cut, but no cursor: raising the cap is the way on.
    pub fn capped(
        mut self,
        kind: impl Into<String>,
        shown: usize,
        total: usize,
        param: impl Into<String>,
        value: i64,
        narrowing: impl Into<String>,
    ) -> Self {
        if shown < total {
            self.caps.push(Cap {
                kind: kind.into(),
                shown,
                total,
                param: param.into(),
                value,
                narrowing: narrowing.into(),
            });
        }
        self
    }

    /// Records the arguments the call set explicitly (notes leave them out).
    pub fn given<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.given.extend(names.into_iter().map(Into::into));
        self
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
