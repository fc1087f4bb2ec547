//! Plain values the map hands out. The server turns them into envelopes.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::{Confidence, EdgeKind, NodeKind};

/// Where the map lives and what it indexes.
#[derive(Debug, Clone)]
pub struct MapConfig {
    /// The repository root. Nothing outside it is read.
    pub root: PathBuf,
    /// The database file; default `<root>/.navmap/map.db`.
    pub db_path: Option<PathBuf>,
    /// Files larger than this are skipped and counted (default 1 MiB).
    pub max_file_bytes: u64,
    /// Compute ranks, clusters and the search index as soon as a build is loaded or made
    /// (default), rather than when a query first needs them. `navmap serve` derives
    /// eagerly in its background open; a command that only rebuilds never needs them.
    pub derive_eagerly: bool,
    /// Load the previous build when opening (default). `false` opens for a full rebuild
    /// only (`navmap rebuild --full`): the map counts as not built, its generation goes
    /// on, and the next rebuild makes it anew without holding the old one in memory.
    pub load_previous: bool,
    /// Opened to rebuild and nothing else (`navmap rebuild`, `rebuild --full`): each
    /// file's mentions (what only [`crate::Map::mention_check`] and
    /// [`crate::Map::callee_check`] read) stay encoded as stored, so a small rebuild
    /// decodes less; those two then answer an internal error. A fresh build of such a map
    /// (or of one with [`MapConfig::uses_on_demand`]) leaves each file's references and
    /// mentions in the database once its row is written and reads them back a batch of
    /// files at a time to resolve them (issue 19: the cold peak). Default `false`.
    pub rebuild_only: bool,
    /// A walk of the whole root made just before opening ([`crate::Map::precheck`], the
    /// no-op check of `navmap rebuild`): the first rebuild of everything uses it instead
    /// of walking the root again (the walk's `statx` and directory reads were a tenth of
    /// a one-file re-index, paid twice). Used once, and only for the root it was made
    /// of. Default `None`.
    pub walked: Option<PriorWalk>,
    /// Keep each file's references and mentions in SQLite, not in memory, once a build is
    /// loaded or made (`navmap serve`, issue 19: they were ≈ 5 MB of a served model).
    /// Answers about uses read the files they need from the database
    /// ([`crate::Map::mention_check`], [`crate::Map::callee_check`]), a rebuild the files it
    /// re-reads, re-resolves or rewrites. Ignored for a map kept in memory
    /// ([`crate::IN_MEMORY`]) and with [`MapConfig::rebuild_only`]. Default `false`.
    pub uses_on_demand: bool,
}

/// The files a walk of the root found (opaque: handed from [`crate::Map::precheck`] to
/// [`MapConfig::walked`]).
#[derive(Clone)]
pub struct PriorWalk {
    pub(crate) root: PathBuf,
    pub(crate) walked: std::sync::Arc<crate::walk::Walked>,
}

impl std::fmt::Debug for PriorWalk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PriorWalk")
            .field("root", &self.root)
            .field("files", &self.walked.files.len())
            .finish()
    }
}

impl MapConfig {
    pub const DEFAULT_MAX_FILE_BYTES: u64 = 1024 * 1024;

    pub fn new(root: impl Into<PathBuf>) -> Self {
        MapConfig {
            root: root.into(),
            db_path: None,
            max_file_bytes: Self::DEFAULT_MAX_FILE_BYTES,
            derive_eagerly: true,
            load_previous: true,
            rebuild_only: false,
            uses_on_demand: false,
            walked: None,
        }
    }
}

/// Why a file of a known language was left out of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipReason {
    /// Holds a NUL byte.
    Binary,
    /// Larger than `max_file_bytes`.
    TooLarge,
    /// Not valid UTF-8.
    InvalidUtf8,
}

impl SkipReason {
    pub const ALL: [SkipReason; 3] = [
        SkipReason::Binary,
        SkipReason::TooLarge,
        SkipReason::InvalidUtf8,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Binary => "binary",
            SkipReason::TooLarge => "too_large",
            SkipReason::InvalidUtf8 => "invalid_utf8",
        }
    }

    /// Why the map skips content of `bytes` bytes (None: it indexes it). `content` is
    /// the file's bytes when it was read (a too-large file is not). The one rule, used by
    /// the build and by the nav tools, which never send a skipped file to a language
    /// server.
    pub fn of(bytes: u64, content: Option<&[u8]>, max_file_bytes: u64) -> Option<SkipReason> {
        if bytes > max_file_bytes {
            return Some(SkipReason::TooLarge);
        }
        let content = content?;
        if content.contains(&0) {
            Some(SkipReason::Binary)
        } else if std::str::from_utf8(content).is_err() {
            Some(SkipReason::InvalidUtf8)
        } else {
            None
        }
    }

    /// What an answer says about it.
    pub fn describe(self) -> &'static str {
        match self {
            SkipReason::Binary => "binary (it holds a NUL byte)",
            SkipReason::TooLarge => "larger than the map's file-size limit",
            SkipReason::InvalidUtf8 => "not valid UTF-8",
        }
    }

    pub fn parse(s: &str) -> Option<SkipReason> {
        SkipReason::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// Arguments of [`crate::Map::rebuild`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RebuildOptions {
    /// Root-relative files or directories to look at; `None` = the whole root. Files under
    /// these paths that are gone from disk leave the map.
    pub paths: Option<Vec<String>>,
    /// Re-read and re-index every file in scope, ignoring size/mtime/hash.
    pub full: bool,
}

/// What a rebuild did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RebuildSummary {
    /// Files of a known language seen on disk (in scope).
    pub files_scanned: u64,
    /// Files (re-)extracted because they were new or their content hash changed.
    pub files_indexed: u64,
    /// Files that left the map (deleted, renamed away, or now skipped).
    pub files_deleted: u64,
    /// Files whose edges were re-resolved (the indexed ones plus those their names affect).
    pub files_resolved: u64,
    /// Files currently skipped, by reason (the whole map, not only this rebuild).
    pub files_skipped: BTreeMap<SkipReason, u64>,
    /// Files currently in the map.
    pub files: u64,
    /// Symbols (definitions) in the map.
    pub symbols: u64,
    /// Stored edges (every kind but `contains`).
    pub edges: u64,
    pub duration_ms: u64,
    /// The map generation after the build (unchanged when nothing changed).
    pub generation: u64,
}

/// A phase of a rebuild, for progress reporting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Scanning,
    Indexing,
    Resolving,
    Ranking,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Scanning => "scanning",
            Phase::Indexing => "indexing",
            Phase::Resolving => "resolving",
            Phase::Ranking => "ranking",
        }
    }
}

/// A progress report: `done` of `total` units of `phase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub phase: Phase,
    pub done: u64,
    pub total: u64,
}

/// The view of one node (contract §3). `line` is 1-based (the line of the name).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeView {
    pub id: String,
    pub kind: NodeKind,
    pub name: String,
    /// Root-relative; `None` for external modules.
    pub file: Option<String>,
    /// 1-based line of the name; `None` for external modules.
    pub line: Option<u32>,
    /// Last line of the definition, 1-based.
    pub end_line: Option<u32>,
    /// 1-based column of the name in UTF-16 code units.
    pub col: Option<u32>,
    pub qualified_name: String,
    pub signature: Option<String>,
    pub doc: Option<String>,
    pub exported: bool,
    /// Hub score in [0, 1].
    pub score: f64,
    pub cluster: Option<u32>,
    /// The file changed on disk since it was indexed.
    pub stale: bool,
    /// The file had syntax errors when it was indexed: what the map holds of it is what
    /// the parser recovered (a definition or a use may be missing).
    pub parse_errors: bool,
}

/// Which way to follow edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    In,
    Out,
    Both,
}

impl Direction {
    pub fn parse(s: &str) -> Option<Direction> {
        match s {
            "in" => Some(Direction::In),
            "out" => Some(Direction::Out),
            "both" => Some(Direction::Both),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::Both => "both",
        }
    }
}

/// One neighbor: the node, and the edge that reached it.
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbor {
    pub node: NodeView,
    pub edge: EdgeKind,
    /// `Out`: the edge goes from `via` to this node; `In`: from this node to `via`.
    pub direction: Direction,
    /// 1 for direct neighbors of the start node.
    pub depth: u32,
    /// The node this one was reached from (the start node at depth 1).
    pub via: String,
    /// False for candidate edges (unresolved; not expanded further).
    pub resolved: bool,
    pub confidence: Confidence,
    /// 1-based line of the use that produced the edge (in the source node's file).
    pub line: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NeighborsResult {
    pub node: NodeView,
    /// Best-first: by depth, then hub score.
    pub neighbors: Vec<Neighbor>,
    /// How many distinct neighbors were found before `max_nodes` cut the list (a lower
    /// bound at depth > 1: expansion stops once enough are found to rank).
    pub total: usize,
}

/// How a search hit matched, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchKind {
    Exact,
    Prefix,
    Substring,
    QualifiedName,
    Path,
    Fuzzy,
}

impl MatchKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Exact => "exact",
            MatchKind::Prefix => "prefix",
            MatchKind::Substring => "substring",
            MatchKind::QualifiedName => "qualified_name",
            MatchKind::Path => "path",
            MatchKind::Fuzzy => "fuzzy",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub node: NodeView,
    pub matched: MatchKind,
    /// The ranking score (match tier weighted by hub score); higher is better.
    pub rank: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchResults {
    /// Best first, at most `limit`.
    pub results: Vec<SearchHit>,
    /// Every match, before `limit` (fuzzy matches are looked for, and counted, only when
    /// there are fewer than 200 exact/prefix/substring ones).
    pub total: usize,
}

/// One step of a path: the node and the edge to the next step (`None` on the last).
#[derive(Debug, Clone, PartialEq)]
pub struct PathStep {
    pub node: NodeView,
    pub edge_to_next: Option<PathEdge>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PathEdge {
    pub kind: EdgeKind,
    /// `Out`: this step → the next along the edge; `In`: walked backwards (only `contains`:
    /// a member up to its container).
    pub direction: Direction,
    pub confidence: Confidence,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PathResult {
    pub found: bool,
    pub path: Vec<PathStep>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClusterView {
    pub id: u32,
    /// The most common directory of the cluster's files (`.` for the root).
    pub label: String,
    /// Files of the cluster (within `focus`, when given).
    pub files: usize,
    /// The best-scored symbols of the cluster (within `focus`).
    pub hubs: Vec<NodeView>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Overview {
    /// Unix seconds of the last build that changed the map.
    pub built_at: Option<u64>,
    pub files: usize,
    pub symbols: usize,
    pub stale_files: Vec<String>,
    /// Language id → files.
    pub languages: BTreeMap<String, usize>,
    /// Largest first.
    pub clusters: Vec<ClusterView>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    pub built: bool,
    pub building: bool,
    pub built_at: Option<u64>,
    pub generation: u64,
    pub root: PathBuf,
    pub db_path: PathBuf,
    pub files: usize,
    /// Lines of the indexed files.
    pub lines: u64,
    pub symbols: usize,
    pub edges: usize,
    /// Stored edges by confidence.
    pub edges_by_confidence: BTreeMap<Confidence, usize>,
    pub stale_files: Vec<String>,
    pub skipped: BTreeMap<SkipReason, usize>,
    /// Language id → files.
    pub languages: BTreeMap<String, usize>,
    /// Files whose parse had syntax errors (indexed with what tree-sitter recovered).
    pub files_with_errors: usize,
    /// Those files' paths, sorted.
    pub error_files: Vec<String>,
}

/// [`crate::Map::find_symbol`]: the nodes a name as an agent writes it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolMatches {
    /// Best first, at most the limit asked for; empty when nothing matched.
    pub matches: Vec<NodeView>,
    /// How many nodes matched before the limit.
    pub total: usize,
    /// Leading qualifiers the map knows nothing of (no file, directory or name carries
    /// them: a package name, a language keyword), ignored in the match.
    pub ignored: Vec<String>,
    /// When nothing matched: the node IDs of the nearest names, nearest first.
    pub nearest: Vec<String>,
}

/// Where a symbol's name is mentioned (see [`MentionCheck`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MentionSite {
    /// Root-relative file.
    pub file: String,
    /// 1-based line and UTF-16 column of the name.
    pub line: u32,
    pub col: u32,
    /// What the queries saw: `call`, `reference`, `base`, `import` or `value`.
    pub kind: &'static str,
    /// The node ID of the enclosing definition; `None` at file level.
    pub enclosing: Option<String>,
}

/// The mention index checked against the edges into one node (`Map::mention_check`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MentionCheck {
    /// Mentions an edge links to the node.
    pub linked: usize,
    /// Where they are, by file and position.
    pub linked_sites: Vec<MentionSite>,
    /// Mentions provably of something else (the rule in docs/answers.md).
    pub excluded: usize,
    /// The rest, ranked: the node's own directory first, calls first, then by position.
    pub unlinked: Vec<MentionSite>,
    /// Why the check could not be made (the lists then empty, not "nothing unlinked"):
    /// the references and mentions it reads from the map database are not this map's
    /// build there ([`crate::MapError::Unreadable`]'s message: a rebuild from scratch is
    /// rewriting the database, another process rebuilt it, it cannot be opened). The
    /// map's edges still hold; its rebuild makes the check possible again.
    pub unavailable: Option<String>,
}

impl MentionCheck {
    /// A check that could not be made, and why.
    pub fn unavailable(why: String) -> Self {
        MentionCheck {
            unavailable: Some(why),
            ..Default::default()
        }
    }
}
