//! `navmap-bench accuracy`: the map's answers about the uses of a symbol against the
//! language servers' ground truth (issue 16's referee, and issue 17's).
//!
//! For each corpus of `questions/accuracy.json` (copied to a temporary directory first):
//! `navmap serve` builds the map; targets are drawn from it (functions, methods and types,
//! an even stride over their IDs, capped); for each target
//!
//! - **truth** is the live server's `nav_references` (declaration excluded; only the
//!   server's own `locations`, never the cross-check's `unverified` rows; an answer the map
//!   gave in the server's place (`source: fallback-map`) is no truth and the target is
//!   left out, counted). Each reference site is mapped to its enclosing definition the way
//!   the map does it: the map's own mention at that line when it has one, else the
//!   innermost definition whose lines hold it, else the file. A site on an import
//!   statement (the map's `import` mention) names the module's import, not a use: counted
//!   apart, not scored. A list that is **empty** is no referee on its own (a server can
//!   be blind to a target): each neighbor the map lists is then judged by the server's
//!   go-to-definition at its use sites (`accuracy_probe.rs`): landing on the target, a
//!   true use; elsewhere, the map's error; nowhere, "not judged" with the reason;
//! - **the answer** is `map_neighbors` direction `in` on the target (every edge kind about
//!   uses; `contains` and `exports` neighbors dropped), every page, with its `unlinked`
//!   tier.
//!
//! Scored per language and per confidence tier: precision (listed neighbors that are a true
//! enclosing definition), recall (true enclosing definitions listed), and **silent
//! misses**: true use sites whose enclosing definition the answer does not list and whose
//! file and line its unlinked tier does not name.
//!
//! ```text
//! cargo build --release -p navmap -p navmap-bench
//! target/release/navmap-bench accuracy [--only <corpus part>] [--targets <n>] [--show]
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use navmap_map::{Confidence, Direction, EdgeKind, Map, MapConfig, NodeKind, NodeView};
use serde_json::{Value, json};

use crate::inactive::{self, Inactive};

#[path = "accuracy_probe.rs"]
mod probe;
use crate::tokens::{Server, data_dir, npm_package, prepare, tools_bin_path};
use crate::typeshed;

/// Targets per corpus unless `--targets` says otherwise.
const DEFAULT_TARGETS: usize = 40;
/// Pages of one answer followed at most (each up to the largest budget).
const MAX_PAGES: usize = 30;
/// The confidence tiers of map edges, best first.
pub const TIERS: [&str; 4] = ["exact", "import", "name", "candidate"];

struct Opts {
    navmap: PathBuf,
    only: Vec<String>,
    targets: usize,
    show: bool,
    corpora: PathBuf,
}

fn usage() -> ! {
    eprintln!(
        "usage: navmap-bench accuracy [--only <corpus part>]... [--targets <n>] [--show] \
         [--navmap <bin>] [--corpora <file>]"
    );
    std::process::exit(2)
}

fn parse(args: &[String]) -> Opts {
    let mut o = Opts {
        navmap: super::default_navmap().unwrap_or_else(|| PathBuf::from("navmap")),
        only: vec![],
        targets: DEFAULT_TARGETS,
        show: false,
        corpora: Path::new(env!("CARGO_MANIFEST_DIR")).join("questions/accuracy.json"),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_else(|| usage());
        match a.as_str() {
            "--navmap" => o.navmap = val().into(),
            "--only" => o.only.push(val()),
            "--targets" => o.targets = val().parse().unwrap_or_else(|_| usage()),
            "--show" => o.show = true,
            "--corpora" => o.corpora = val().into(),
            _ => usage(),
        }
    }
    o
}

// ---- the comparison (pure: unit-tested below) ---------------------------------------------

/// A use site: root-relative file and 1-based line.
pub type Site = (String, u32);

/// The map's answer about the uses of one target.
#[derive(Debug, Default)]
pub struct Answer {
    /// Listed neighbors: node ID → best confidence tier.
    pub neighbors: BTreeMap<String, &'static str>,
    /// The unlinked tier's rows.
    pub unlinked: HashSet<Site>,
    /// Files listed through an `exports` edge (a re-export names the target, not a use).
    pub exporters: HashSet<String>,
}

/// Counts for one target, or summed over many.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub targets: usize,
    /// True use sites (imports apart) and their distinct enclosing definitions.
    pub sites: usize,
    pub callers: usize,
    pub import_sites: usize,
    /// Sites the server lists that are no use of the target in the map's sense (not
    /// scored): its own members' declarations naming it, a related definition's own name
    /// (an override, a header's declaration), a call the map links for sure to an override
    /// or implementation of it (dispatch).
    pub own_sites: usize,
    pub dispatch_sites: usize,
    /// Sites whose line does not name the target (a macro expansion, `new C()` for a
    /// constructor): no text for an index, or grep, to find; not scored.
    pub unnamed_sites: usize,
    /// Targets declared in a region the server does not analyse (a C preprocessor branch
    /// that is off): the server has no truth about them; not scored.
    pub inactive_targets: usize,
    /// The map's linked uses in such regions, where they are all a neighbor's uses: the
    /// server can neither confirm nor refute them; not scored.
    pub inactive_sites: usize,
    /// Per tier (index into [`TIERS`]): neighbors listed, of them true, true callers found.
    pub listed: [usize; 4],
    pub right: [usize; 4],
    pub found: [usize; 4],
    /// True callers listed at any tier.
    pub found_any: usize,
    /// Unlinked rows, and those that are true use sites.
    pub unlinked: usize,
    pub unlinked_true: usize,
    /// True sites neither listed (by enclosing definition) nor in the unlinked tier.
    pub silent: usize,
    /// Targets whose `nav_references` listed nothing, whose neighbors were judged by the
    /// server's go-to-definition at their use sites (`accuracy_probe.rs`): neighbors shown
    /// right, shown wrong, and not judged (no definition there), by reason.
    pub probed_targets: usize,
    /// Of those, the targets the old rule set aside whole (the list was also marked
    /// `complete: false`), for the comparison table.
    pub old_rule_aside: usize,
    pub probe_right: usize,
    pub probe_wrong: usize,
    pub not_judged: BTreeMap<String, usize>,
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        self.targets += o.targets;
        self.sites += o.sites;
        self.callers += o.callers;
        self.import_sites += o.import_sites;
        self.own_sites += o.own_sites;
        self.dispatch_sites += o.dispatch_sites;
        self.unnamed_sites += o.unnamed_sites;
        self.inactive_targets += o.inactive_targets;
        self.inactive_sites += o.inactive_sites;
        for i in 0..TIERS.len() {
            self.listed[i] += o.listed[i];
            self.right[i] += o.right[i];
            self.found[i] += o.found[i];
        }
        self.found_any += o.found_any;
        self.unlinked += o.unlinked;
        self.unlinked_true += o.unlinked_true;
        self.silent += o.silent;
        self.probed_targets += o.probed_targets;
        self.old_rule_aside += o.old_rule_aside;
        self.probe_right += o.probe_right;
        self.probe_wrong += o.probe_wrong;
        for (why, n) in &o.not_judged {
            *self.not_judged.entry(why.clone()).or_default() += n;
        }
    }
}

/// Scores one target: `truth` holds each true use site with its enclosing definition's ID.
/// Returns the tally, the silent misses and the wrong neighbors (for `--show`).
pub fn score(truth: &[(Site, String)], answer: &Answer) -> (Tally, Vec<Site>, Vec<String>) {
    let callers: HashSet<&str> = truth.iter().map(|(_, e)| e.as_str()).collect();
    let mut t = Tally {
        targets: 1,
        sites: truth.len(),
        callers: callers.len(),
        ..Tally::default()
    };
    let mut wrong = vec![];
    for (id, tier) in &answer.neighbors {
        let i = TIERS
            .iter()
            .position(|x| x == tier)
            .unwrap_or(TIERS.len() - 1);
        t.listed[i] += 1;
        if callers.contains(id.as_str()) {
            t.right[i] += 1;
            t.found[i] += 1;
            t.found_any += 1;
        } else {
            wrong.push(format!("{id} ({tier})"));
        }
    }
    let true_sites: HashSet<&Site> = truth.iter().map(|(s, _)| s).collect();
    t.unlinked = answer.unlinked.len();
    t.unlinked_true = answer
        .unlinked
        .iter()
        .filter(|s| true_sites.contains(s))
        .count();
    let mut silent = vec![];
    for (site, encloser) in truth {
        if !answer.neighbors.contains_key(encloser) && !answer.unlinked.contains(site) {
            silent.push(site.clone());
        }
    }
    silent.sort();
    silent.dedup();
    t.silent = silent.len();
    (t, silent, wrong)
}

/// The neighbors whose every use the map links lies where the server does not look
/// (`hidden`: a preprocessor branch that is off for clangd), and how many such uses.
/// `linked` is each of the map's linked use sites of the target with its enclosing
/// definition. A neighbor with one use the server sees stays scored; the rule looks at
/// the server's blind spots only, never at whether the server agrees with the map.
pub fn hidden_neighbors(
    linked: &[(Site, String)],
    hidden: &dyn Fn(&Site) -> bool,
) -> (HashSet<String>, usize) {
    let mut seen: HashMap<&str, (usize, bool)> = HashMap::new();
    for (site, enc) in linked {
        let e = seen.entry(enc.as_str()).or_insert((0, false));
        if hidden(site) {
            e.0 += 1;
        } else {
            e.1 = true;
        }
    }
    let mut out = HashSet::new();
    let mut sites = 0;
    for (enc, (n, visible)) in seen {
        if n > 0 && !visible {
            out.insert(enc.to_string());
            sites += n;
        }
    }
    (out, sites)
}

/// The 1-based line at the start of a row `<line>:<col>[-<endLine>][ <text>]`.
pub fn row_line(row: &str) -> Option<u32> {
    row.split(':').next()?.trim().parse().ok()
}

/// Adds one page of a `map_neighbors` answer (`data`) to `answer`.
pub fn read_neighbors(data: &Value, answer: &mut Answer) {
    let file = data["file"].as_str();
    for n in data["neighbors"].as_array().into_iter().flatten() {
        let (id, edge, tier) = match n {
            // `<line> <kind> <name>` in a one-file list: exact, an edge of the asked kinds.
            Value::String(row) => {
                let name = row.splitn(3, ' ').nth(2).unwrap_or("");
                match file {
                    Some(f) => (format!("{f}#{name}"), "", "exact"),
                    None => continue,
                }
            }
            _ => {
                let id = match (n["id"].as_str(), n["name"].as_str(), file) {
                    (Some(id), _, _) => id.to_string(),
                    (None, Some(name), Some(f)) => format!("{f}#{name}"),
                    _ => continue,
                };
                let tier = n["confidence"].as_str().unwrap_or("exact");
                let tier = TIERS
                    .iter()
                    .find(|t| **t == tier)
                    .copied()
                    .unwrap_or("candidate");
                (id, n["edge"].as_str().unwrap_or(""), tier)
            }
        };
        // Structure, not use: the target's container, the file that exports it.
        if edge == "exports" {
            answer.exporters.insert(id);
            continue;
        }
        if edge == "contains" {
            continue;
        }
        let best = answer.neighbors.entry(id).or_insert(tier);
        let rank = |t: &str| TIERS.iter().position(|x| *x == t).unwrap_or(TIERS.len());
        if rank(tier) < rank(best) {
            *best = tier;
        }
    }
    for g in data["unlinked"].as_array().into_iter().flatten() {
        let Some(f) = g["file"].as_str() else {
            continue;
        };
        // A file's rows, or (mentions in several definitions) each group's.
        let groups = g["groups"]
            .as_array()
            .map_or(vec![g], |gs| gs.iter().collect());
        for r in groups
            .iter()
            .flat_map(|g| g["rows"].as_array().into_iter().flatten())
        {
            if let Some(line) = r.as_str().and_then(row_line) {
                answer.unlinked.insert((f.to_string(), line));
            }
        }
    }
}

/// The reference sites in one page of a `nav_references` answer (`data`): the server's
/// `locations` inside the root (external groups and cross-check rows are not its truth).
pub fn read_references(data: &Value, into: &mut Vec<Site>) {
    for g in data["locations"].as_array().into_iter().flatten() {
        let Some(f) = g["file"].as_str() else {
            continue;
        };
        for r in g["at"].as_array().into_iter().flatten() {
            if let Some(line) = r.as_str().and_then(row_line) {
                into.push((f.to_string(), line));
            }
        }
    }
}

// ---- talking to navmap -----------------------------------------------------------------

/// Every page of one tool call's answer (`data` of each), following `cursor`.
fn pages(server: &mut Server, tool: &str, args: &Value) -> Result<Vec<Value>, String> {
    let mut out = vec![];
    let mut args = args.clone();
    args["tokenBudget"] = 10_000.into();
    let mut not_ready = 0;
    while out.len() < MAX_PAGES {
        let text = server.call(tool, &args)?;
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{tool}: {e}"))?;
        if v["ok"] != true {
            // A server still indexing: wait for it (bounded), then ask again.
            let code = &v["error"]["code"];
            if (code == "LSP_NOT_READY" || code == "LSP_TIMEOUT") && not_ready < 40 {
                not_ready += 1;
                std::thread::sleep(Duration::from_secs(3));
                continue;
            }
            return Err(format!("{tool}: {}", v["error"]));
        }
        out.push(v["data"].clone());
        match v["cursor"].as_str() {
            Some(c) => args["cursor"] = c.into(),
            None => break,
        }
    }
    Ok(out)
}

/// The kinds a target may have: what has callers, references or subtypes.
fn is_target(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Function
            | NodeKind::Method
            | NodeKind::Class
            | NodeKind::Interface
            | NodeKind::Trait
            | NodeKind::Struct
            | NodeKind::Enum
    )
}

/// An even stride over the map's targets, sorted by ID, at most `cap`; languages listed in
/// `langs` only (empty: all).
fn pick_targets(map: &Map, cap: usize, langs: &[String]) -> Vec<NodeView> {
    let mut all = vec![];
    for f in map.files().unwrap_or_default() {
        for n in map.nodes_in_file(&f).unwrap_or_default() {
            let lang = n.id.split(':').next().unwrap_or("");
            if is_target(n.kind) && (langs.is_empty() || langs.iter().any(|l| l == lang)) {
                all.push(n);
            }
        }
    }
    all.sort_by(|a, b| a.id.cmp(&b.id));
    if all.len() <= cap || cap == 0 {
        return all;
    }
    (0..cap).map(|i| all[i * all.len() / cap].clone()).collect()
}

/// The map's idea of a line's enclosing definition: its mention there (whatever it
/// decided), else the innermost definition whose lines hold it, else the file.
struct Enclosers<'m> {
    map: &'m Map,
    files: HashMap<String, Vec<NodeView>>,
}

impl Enclosers<'_> {
    /// Whether `line` is the header of a block of `id`'s members (an `impl` block: the
    /// next definition after it in the file is a member of `id`).
    fn heads_members(&mut self, file: &str, line: u32, id: &str) -> bool {
        self.file_id(file);
        let nodes = &self.files[file];
        nodes
            .iter()
            .filter(|n| n.kind != NodeKind::File && n.line.is_some_and(|l| l > line))
            .min_by_key(|n| n.line)
            .is_some_and(|n| n.id.starts_with(&format!("{id}.")))
    }

    /// Whether `line` is outside every definition but variables and constants.
    fn at_file_level(&mut self, file: &str, line: u32) -> bool {
        self.file_id(file);
        !self.files[file].iter().any(|n| {
            !matches!(
                n.kind,
                NodeKind::File | NodeKind::Variable | NodeKind::Constant
            ) && n.line.is_some_and(|a| a <= line)
                && n.end_line.is_some_and(|b| line <= b)
        })
    }

    /// Whether a definition named `name` (other than the file) is declared on `line`: the
    /// name line of a definition of that name, the `own` column's "another definition of
    /// the same name". Asked besides [`Self::of`], which picks one definition of a line
    /// holding several (`{ error: ZodError; input: unknown }`: two property signatures).
    fn declares_name_at(&mut self, file: &str, line: u32, name: &str) -> bool {
        self.file_id(file);
        declares_name(
            self.files[file]
                .iter()
                .map(|n| (n.kind, n.name.as_str(), n.line)),
            line,
            name,
        )
    }

    /// The node ID of a file.
    fn file_id(&mut self, file: &str) -> String {
        self.of(file, 0)
    }

    fn of(&mut self, file: &str, line: u32) -> String {
        let nodes = self
            .files
            .entry(file.to_string())
            .or_insert_with(|| self.map.nodes_in_file(file).unwrap_or_default());
        let mut best: Option<&NodeView> = None;
        for n in nodes.iter().filter(|n| n.kind != NodeKind::File) {
            let (Some(a), Some(b)) = (n.line, n.end_line) else {
                continue;
            };
            if a <= line && line <= b {
                let span = b - a;
                if best.is_none_or(|x| span <= x.end_line.unwrap_or(0) - x.line.unwrap_or(0)) {
                    best = Some(n);
                }
            }
        }
        match best {
            Some(n) => n.id.clone(),
            None => nodes
                .iter()
                .find(|n| n.kind == NodeKind::File)
                .map(|n| n.id.clone())
                .unwrap_or_else(|| file.to_string()),
        }
    }
}

/// Whether one of `defs` (kind, name, line of the name) that is not a file is named `name`
/// and declared on `line`.
fn declares_name<'a>(
    mut defs: impl Iterator<Item = (NodeKind, &'a str, Option<u32>)>,
    line: u32,
    name: &str,
) -> bool {
    defs.any(|(kind, n, l)| kind != NodeKind::File && n == name && l == Some(line))
}

/// The corpus's files by line, read once each.
struct SourceLines {
    root: PathBuf,
    files: HashMap<String, Vec<String>>,
}

impl SourceLines {
    fn new(root: &Path) -> SourceLines {
        SourceLines {
            root: root.to_path_buf(),
            files: HashMap::new(),
        }
    }

    fn line(&mut self, file: &str, line: u32) -> Option<&str> {
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            std::fs::read_to_string(self.root.join(file))
                .map(|t| t.lines().map(str::to_string).collect())
                .unwrap_or_default()
        });
        lines
            .get((line as usize).checked_sub(1)?)
            .map(String::as_str)
    }
}

/// Whether the site's line holds the target's name as a word (an unreadable line counts
/// as naming it: the site is scored).
fn names_target(lines: &mut SourceLines, site: &Site, name: &str) -> bool {
    let Some(text) = lines.line(&site.0, site.1) else {
        return true;
    };
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back().is_none_or(|c| !word(c));
        let after = text[i + name.len()..]
            .chars()
            .next()
            .is_none_or(|c| !word(c));
        before && after
    })
}

/// Whether the site's line holds the name in quotes (an export list's string).
fn quoted(lines: &mut SourceLines, site: &Site, name: &str) -> bool {
    lines
        .line(&site.0, site.1)
        .is_some_and(|t| t.contains(&format!("\"{name}\"")) || t.contains(&format!("'{name}'")))
}

/// The last segment of a node ID's name (`a.py#C.get~2` → `get`).
fn short_name(id: &str) -> &str {
    let name = id.rsplit_once('#').map_or(id, |(_, n)| n);
    let name = name.rsplit('.').next().unwrap_or(name);
    name.split('~').next().unwrap_or(name)
}

/// The type a member belongs to (`a.py#C.get` → `a.py#C`).
fn owner(id: &str) -> Option<&str> {
    let (file, name) = id.rsplit_once('#')?;
    let (up, _) = name.rsplit_once('.')?;
    Some(&id[..file.len() + 1 + up.len()])
}

/// A site in the target's own declaration: the target itself or one of its members (a
/// constructor's name, a Go receiver, an out-of-line `C::f`), or the name line of a
/// definition of the same name (a header's declaration, the method an override overrides).
fn is_own(map: &Map, target: &NodeView, enc: &str, line: u32) -> bool {
    let id = &target.id;
    if enc == id || enc.starts_with(&format!("{id}.")) {
        return true;
    }
    // An out-of-line member (`C::f` in another file) is a member by its qualified name.
    let enc_name = enc.rsplit_once('#').map_or("", |(_, n)| n);
    if enc_name.starts_with(&format!("{}.", target.qualified_name)) {
        return true;
    }
    short_name(enc) == target.name && map.node(enc).is_ok_and(|n| n.line == Some(line))
}

/// A site the map links for sure to another definition of the name whose type is
/// related to the target's (an override, an implementation of an interface method): the
/// server counts the call through dynamic dispatch, the map counts it for the callee. Or,
/// for a method, a site the map links to its type (a constructor called as `new C()`).
fn is_dispatch(map: &Map, target: &NodeView, enc: &str, line: u32) -> bool {
    let Some(target_owner) = owner(&target.id) else {
        return false;
    };
    let abstract_owner = map
        .node(target_owner)
        .is_ok_and(|n| matches!(n.kind, NodeKind::Interface | NodeKind::Trait));
    let related: HashSet<String> = map
        .neighbors(
            target_owner,
            Direction::Both,
            Some(&[EdgeKind::Extends, EdgeKind::Implements]),
            3,
            200,
        )
        .map(|r| r.neighbors.into_iter().map(|n| n.node.id).collect())
        .unwrap_or_default();
    let Ok(out) = map.neighbors(enc, Direction::Out, None, 1, 200) else {
        return false;
    };
    // A caller the map links to the target itself is listed for it: its site is scored,
    // whatever else of the name it links (a Go call through an interface is linked to the
    // interface's method and to each implementation).
    if out
        .neighbors
        .iter()
        .any(|n| n.node.id == target.id && n.confidence != Confidence::Candidate)
    {
        return false;
    }
    out.neighbors.iter().any(|n| {
        // A constructor's call (`new C()`) the map links to its class: a call, not a
        // reference (`C.CONSTANT`, `C.f()`, a Javadoc `{@link C#f}` name the class too).
        let constructs = n.node.id == target_owner
            && target.kind == NodeKind::Method
            && n.edge == EdgeKind::Calls;
        // The related method's edge at any line of the caller: the map keeps one edge per
        // (caller, callee) at its first line (`keyType._parse(…)` and
        // `valueType._parse(…)` on two lines are one edge), and its own mention check
        // counts every use of the name in the caller as linked by it.
        n.line == Some(line) && constructs
            || n.node.id != target.id
                && n.node.name == target.name
                && n.confidence != Confidence::Candidate
                && owner(&n.node.id).is_some_and(|o| abstract_owner || related.contains(o))
    })
}

/// One target's outcome.
enum Outcome {
    Scored(Box<Tally>),
    /// Declared where the server does not analyse (an inactive preprocessor branch).
    Inactive,
    /// No ground truth: the server failed or the map answered in its place.
    NoTruth(String),
}

fn run_target(
    server: &mut Server,
    map: &Map,
    enclosers: &mut Enclosers,
    target: &NodeView,
    inactive: Option<&Inactive>,
    show: bool,
) -> Outcome {
    let id = &target.id;
    let in_dark = |s: &Site| inactive.is_some_and(|i| i.holds(&s.0, s.1));
    if let (Some(f), Some(l)) = (&target.file, target.line)
        && in_dark(&(f.clone(), l))
    {
        return Outcome::Inactive;
    }
    let refs = match pages(
        server,
        "nav_references",
        &json!({"nodeId": id, "includeDeclaration": false}),
    ) {
        Ok(p) => p,
        Err(e) => return Outcome::NoTruth(e),
    };
    if let Some(src) = refs.first().and_then(|d| d["source"].as_str())
        && src.starts_with("fallback")
    {
        return Outcome::NoTruth(format!("nav_references answered from the map ({src})"));
    }
    let mut sites = vec![];
    for d in &refs {
        read_references(d, &mut sites);
    }
    sites.sort();
    sites.dedup();
    // An empty list is no referee on its own (the server may be blind to the target):
    // the neighbors are judged by go-to-definition at their use sites below.
    let empty = sites.is_empty();
    // The declaration itself, should a server list it anyway.
    let decl = (
        target.file.clone().unwrap_or_default(),
        target.line.unwrap_or(0),
    );
    sites.retain(|s| *s != decl);

    let check = map.mention_check(id).unwrap_or_default();
    let mut mentioned: HashMap<Site, (&str, String)> = HashMap::new();
    for m in check.linked_sites.iter().chain(&check.unlinked) {
        let enc = m
            .enclosing
            .clone()
            .unwrap_or_else(|| enclosers.of(&m.file, 0));
        mentioned.insert((m.file.clone(), m.line), (m.kind, enc));
    }
    let mut truth = vec![];
    let mut imports = 0;
    let (mut own, mut dispatch, mut unnamed) = (0, 0, 0);
    let mut lines = SourceLines::new(map.root());
    // Enclosing definitions of sites not scored: listing them is neither right nor wrong.
    let mut unscored: HashSet<String> = HashSet::new();
    let mut answer = Answer::default();
    match pages(
        server,
        "map_neighbors",
        &json!({"nodeId": id, "direction": "in", "maxNodes": 200, "detail": false}),
    ) {
        Ok(p) => p.iter().for_each(|d| read_neighbors(d, &mut answer)),
        Err(e) => return Outcome::NoTruth(format!("map_neighbors failed: {e}")),
    }
    for s in sites {
        match mentioned.get(&s) {
            Some(("import", _)) => imports += 1,
            // A name at file level (or in a file-level variable) of a file that re-exports
            // the target, or quoted there (`__all__ = ["Name"]`), and no use the map sees
            // there: the export statement.
            None if enclosers.at_file_level(&s.0, s.1)
                && (answer.exporters.contains(&enclosers.file_id(&s.0))
                    || quoted(&mut lines, &s, &target.name)) =>
            {
                imports += 1
            }
            found => {
                let enc = match found {
                    Some((_, enc)) => enc.clone(),
                    None => enclosers.of(&s.0, s.1),
                };
                if !names_target(&mut lines, &s, &target.name) {
                    // A macro's expansion (`LOG(…)` calling the function), a constructor
                    // called by its class's name: no text names the target there.
                    unnamed += 1;
                    unscored.insert(enc);
                } else if is_own(map, target, &enc, s.1)
                    || enclosers.heads_members(&s.0, s.1, &target.id)
                    || enclosers.declares_name_at(&s.0, s.1, &target.name)
                {
                    own += 1;
                    unscored.insert(enc);
                } else if is_dispatch(map, target, &enc, s.1) {
                    dispatch += 1;
                    unscored.insert(enc);
                } else {
                    truth.push((s, enc));
                }
            }
        }
    }

    // Neighbors whose every linked use is where the server does not look.
    let linked: Vec<(Site, String)> = check
        .linked_sites
        .iter()
        .map(|m| {
            let enc = m
                .enclosing
                .clone()
                .unwrap_or_else(|| enclosers.of(&m.file, 0));
            ((m.file.clone(), m.line), enc)
        })
        .collect();
    let (hidden, hidden_sites) = hidden_neighbors(&linked, &in_dark);
    let callers: HashSet<&str> = truth.iter().map(|(_, e)| e.as_str()).collect();
    let mut inactive_sites = 0;
    answer.neighbors.retain(|n, _| {
        if callers.contains(n.as_str()) {
            return true;
        }
        if hidden.contains(n) {
            inactive_sites += 1;
            return false;
        }
        !(unscored.contains(n) || *n == target.id || n.starts_with(&format!("{id}.")))
    });
    // Counted per use site, not per neighbor.
    if inactive_sites > 0 {
        inactive_sites = hidden_sites;
    }
    let probed = empty.then(|| {
        probe::probe(
            server,
            map,
            target,
            &answer,
            &check.linked_sites,
            enclosers,
            &mut lines,
        )
    });
    if let Some(p) = &probed {
        truth.extend(p.truth.iter().cloned());
        for (n, _, _) in &p.blind {
            answer.neighbors.remove(n);
        }
    }
    let (mut t, silent, wrong) = score(&truth, &answer);
    if let Some(p) = &probed {
        t.probed_targets = 1;
        t.old_rule_aside = usize::from(refs.iter().any(|d| d["complete"] == false));
        t.probe_right = p.truth.len();
        t.probe_wrong = p.wrong.len();
        t.not_judged = p.reasons();
        for (n, why, sites) in &p.blind {
            println!("  {id}: NOT JUDGED {n} ({sites} sites): {why}");
        }
        for (n, at) in &p.wrong {
            println!("  {id}: nav_references empty; {n}'s use leads to {at}");
        }
        for (s, n) in p.truth.iter().filter(|_| show) {
            println!(
                "  {id}: nav_references empty; {}:{} in {n} leads to it",
                s.0, s.1
            );
        }
    }
    t.inactive_sites = inactive_sites;
    t.import_sites = imports;
    t.own_sites = own;
    t.dispatch_sites = dispatch;
    t.unnamed_sites = unnamed;
    if show || !silent.is_empty() || !wrong.is_empty() {
        println!(
            "  {id}: {} sites in {} callers; listed {}; unlinked {}",
            t.sites,
            t.callers,
            answer.neighbors.len(),
            t.unlinked
        );
        // The tier the answer lists the caller at, or whether the site is in its unlinked rows.
        for (s, e) in truth.iter().filter(|_| show) {
            let how = match answer.neighbors.get(e) {
                Some(tier) => tier,
                None if answer.unlinked.contains(s) => "unlinked",
                None => "not listed",
            };
            println!("    truth {}:{} in {e} ({how})", s.0, s.1);
        }
        for w in &wrong {
            println!("    NOT A CALLER {w}");
        }
        for s in &silent {
            let enc = truth.iter().find(|(x, _)| x == s).map(|(_, e)| e.as_str());
            println!("    SILENT {}:{} in {}", s.0, s.1, enc.unwrap_or("?"));
        }
    }
    Outcome::Scored(Box::new(t))
}

// ---- the run -----------------------------------------------------------------------------

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "—".into()
    } else {
        format!("{:.1} %", 100.0 * a as f64 / b as f64)
    }
}

fn print_table(rows: &BTreeMap<(String, String), Tally>) {
    println!(
        "\n{:<12} {:<5} {:>7} {:>6} {:>7} {:<9} {:>7} {:>10} {:>8}",
        "corpus", "lang", "targets", "sites", "callers", "tier", "listed", "precision", "recall"
    );
    for ((corpus, lang), t) in rows {
        for (i, tier) in TIERS.iter().enumerate() {
            if t.listed[i] == 0 && i > 2 {
                continue;
            }
            println!(
                "{:<12} {:<5} {:>7} {:>6} {:>7} {:<9} {:>7} {:>10} {:>8}",
                corpus,
                lang,
                t.targets,
                t.sites,
                t.callers,
                tier,
                t.listed[i],
                pct(t.right[i], t.listed[i]),
                pct(t.found[i], t.callers)
            );
        }
        let listed: usize = t.listed.iter().sum();
        let right: usize = t.right.iter().sum();
        println!(
            "{:<12} {:<5} {:>7} {:>6} {:>7} {:<9} {:>7} {:>10} {:>8}   unlinked {} ({} true), \
             import sites {}, own {}, dispatch {}, unnamed {}, inactive {} (+{} targets), \
             empty references {} (by definition: {} right, {} wrong, {} not judged), \
             SILENT MISSES {}",
            corpus,
            lang,
            t.targets,
            t.sites,
            t.callers,
            "all",
            listed,
            pct(right, listed),
            pct(t.found_any, t.callers),
            t.unlinked,
            t.unlinked_true,
            t.import_sites,
            t.own_sites,
            t.dispatch_sites,
            t.unnamed_sites,
            t.inactive_sites,
            t.inactive_targets,
            t.probed_targets,
            t.probe_right,
            t.probe_wrong,
            t.not_judged.values().sum::<usize>(),
            t.silent
        );
        for (why, n) in &t.not_judged {
            println!(
                "{:<12} {:<5}   not judged: {n} neighbor(s): {why}",
                corpus, lang
            );
        }
    }
}

pub fn main(args: &[String]) {
    let o = parse(args);
    let spec: Value = std::fs::read_to_string(&o.corpora)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| panic!("cannot read {}", o.corpora.display()));
    println!("navmap: {}", o.navmap.display());
    let registry = Arc::new(navmap_grammars::registry());
    let mut rows: BTreeMap<(String, String), Tally> = BTreeMap::new();
    // The same targets under the old rule: an empty list marked incomplete set aside whole.
    let mut old_rule: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut failures = vec![];
    for (name, corpus) in spec["corpora"].as_object().expect("corpora") {
        if !o.only.is_empty() && !o.only.iter().any(|s| name.contains(s.as_str())) {
            continue;
        }
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join(name);
        if let Err(e) = std::fs::create_dir_all(&root)
            .map_err(|e| e.to_string())
            .and_then(|_| prepare(corpus, &root))
            .and_then(|_| fill_root(corpus, &root))
        {
            println!("\n## {name}: corpus not available: {e}");
            failures.push(format!("{name}: corpus not available"));
            continue;
        }
        let env: Vec<(String, String)> = corpus["env"]
            .as_object()
            .into_iter()
            .flatten()
            // `{data}`: navmap's data folder (a Go corpus's module cache is there).
            .map(|(k, v)| {
                let v = v.as_str().unwrap_or("");
                (
                    k.clone(),
                    v.replace("{data}", &data_dir().to_string_lossy()),
                )
            })
            .collect();
        if let Err(e) = typeshed_for(corpus, tmp.path(), &root) {
            println!("\n## {name}: typeshed copy failed: {e}");
            failures.push(format!("{name}: typeshed copy failed"));
            continue;
        }
        let mut server = match Server::start_with(&o.navmap, &root, &env) {
            Ok(s) => s,
            Err(e) => {
                println!("\n## {name}: {e}");
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if let Err(e) = server.call("map_rebuild", &json!({})) {
            println!("\n## {name}: map_rebuild: {e}");
            continue;
        }
        let map = match Map::open(MapConfig::new(&root), registry.clone()) {
            Ok((m, _)) => m,
            Err(e) => {
                println!("\n## {name}: cannot open the map: {e}");
                continue;
            }
        };
        let langs: Vec<String> = corpus["langs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l.as_str().map(str::to_string))
            .collect();
        let cap = corpus["targets"]
            .as_u64()
            .map_or(o.targets, |n| (n as usize).min(o.targets));
        let targets = pick_targets(&map, cap, &langs);
        println!(
            "\n## {name} ({}): {} targets",
            corpus["about"].as_str().unwrap_or(""),
            targets.len()
        );
        // A server that indexes in the background (clangd with its index) is asked once
        // and given time before the targets count.
        if let (Some(secs), Some(first)) = (corpus["settle"].as_u64(), targets.first()) {
            let _ = server.call(
                "nav_references",
                &json!({"nodeId": first.id, "includeDeclaration": false}),
            );
            std::thread::sleep(Duration::from_secs(secs));
        }
        let mut enclosers = Enclosers {
            map: &map,
            files: HashMap::new(),
        };
        let dark = match inactive_regions(corpus, &map, &root) {
            Ok(d) => d,
            Err(e) => {
                println!("\n## {name}: inactive regions: {e}");
                failures.push(format!("{name}: inactive regions: {e}"));
                continue;
            }
        };
        if let Some(d) = &dark {
            let lines: u32 = d.files.values().flatten().map(|(a, b)| b + 1 - a).sum();
            println!(
                "inactive regions (clangd): {lines} lines in {} files",
                d.files.values().filter(|r| !r.is_empty()).count()
            );
        }
        for target in &targets {
            let lang = target.id.split(':').next().unwrap_or("").to_string();
            match run_target(
                &mut server,
                &map,
                &mut enclosers,
                target,
                dark.as_ref(),
                o.show,
            ) {
                Outcome::Scored(t) => {
                    if t.old_rule_aside == 0 {
                        old_rule
                            .entry((name.clone(), lang.clone()))
                            .or_default()
                            .add(&t);
                    }
                    rows.entry((name.clone(), lang)).or_default().add(&t)
                }
                Outcome::Inactive => {
                    println!(
                        "  {}: declared in an inactive region: not judged",
                        target.id
                    );
                    let t = Tally {
                        inactive_targets: 1,
                        ..Tally::default()
                    };
                    old_rule
                        .entry((name.clone(), lang.clone()))
                        .or_default()
                        .add(&t);
                    rows.entry((name.clone(), lang)).or_default().add(&t)
                }
                Outcome::NoTruth(why) => {
                    println!("  {}: no ground truth: {why}", target.id);
                    failures.push(format!("{}: {why}", target.id));
                }
            }
        }
        drop(server);
    }
    print_table(&rows);
    println!(
        "\n## The same targets under the old rule (an empty list marked complete: false set \
         aside whole)"
    );
    print_table(&old_rule);
    let mut by_lang: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for ((_, lang), t) in &rows {
        by_lang
            .entry(("all".into(), lang.clone()))
            .or_default()
            .add(t);
    }
    println!("\n## Per language (every corpus)");
    print_table(&by_lang);
    println!("\ntargets without ground truth: {}", failures.len());
}

/// A corpus with `typeshed_without` (pyright's truth on copies of stdlib packages): a
/// copy of pyright's bundled typeshed without those packages' stubs beside the root, and
/// a `pyrightconfig.json` whose `typeshedPath` names it (module `typeshed`).
fn typeshed_for(corpus: &Value, tmp: &Path, root: &Path) -> Result<(), String> {
    let Some(drop) = corpus["typeshed_without"].as_array() else {
        return Ok(());
    };
    let drop: Vec<String> = drop
        .iter()
        .filter_map(|d| d.as_str().map(str::to_string))
        .collect();
    let from = npm_package("pyright")
        .map(|p| p.join("dist/typeshed-fallback"))
        .filter(|p| p.is_dir())
        .ok_or("pyright's bundled typeshed (npm package pyright) not found")?;
    let to = tmp.join("typeshed");
    typeshed::copy_without(&from, &to, &drop)?;
    let config = json!({ "typeshedPath": to.display().to_string() });
    std::fs::write(root.join("pyrightconfig.json"), config.to_string()).map_err(|e| e.to_string())
}

/// A corpus with `inactive_regions` (a clangd command): clangd's inactive preprocessor
/// regions of the map's files of the corpus's languages (module `inactive`).
fn inactive_regions(corpus: &Value, map: &Map, root: &Path) -> Result<Option<Inactive>, String> {
    let Some(cmd) = corpus["inactive_regions"].as_array() else {
        return Ok(None);
    };
    let cmd: Vec<String> = cmd
        .iter()
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect();
    // The map's C and C++ files, each with its language (the prefix of its node IDs).
    let mut files = vec![];
    for f in map.files().map_err(|e| e.to_string())? {
        let lang = map.nodes_in_file(&f).ok().and_then(|n| {
            n.first()
                .map(|n| n.id.split(':').next().unwrap_or("").to_string())
        });
        if let Some(l) = lang.filter(|l| l == "c" || l == "cpp") {
            files.push((f, l));
        }
    }
    inactive::probe(
        &cmd,
        &tools_bin_path(),
        root,
        &files,
        Duration::from_secs(180),
    )
    .map(Some)
}

/// `{root}` in the files a corpus writes (a compilation database names absolute paths)
/// becomes the copy's root.
fn fill_root(corpus: &Value, root: &Path) -> Result<(), String> {
    for name in corpus["write"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k)
    {
        let p = root.join(name);
        let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        if text.contains("{root}") {
            std::fs::write(&p, text.replace("{root}", &root.display().to_string()))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(f: &str, l: u32) -> Site {
        (f.to_string(), l)
    }

    #[test]
    fn a_neighbor_is_not_judged_only_when_all_its_uses_are_hidden_from_the_server() {
        let linked = vec![
            // Every use of `wasm_call` is in an `#ifdef` branch that is off.
            (site("wasm.c", 10), "c:wasm.c#wasm_call".to_string()),
            (site("wasm.c", 12), "c:wasm.c#wasm_call".to_string()),
            // One use of `parse` is seen: it is scored, right or wrong.
            (site("parser.c", 5), "c:parser.c#parse".to_string()),
            (site("parser.c", 40), "c:parser.c#parse".to_string()),
            (site("lexer.c", 7), "c:lexer.c#lex".to_string()),
        ];
        let dark = |s: &Site| s.0 == "wasm.c" || *s == site("parser.c", 40);
        let (hidden, n) = hidden_neighbors(&linked, &dark);
        assert_eq!(hidden, HashSet::from(["c:wasm.c#wasm_call".to_string()]));
        assert_eq!(n, 2);
        // No blind spots: nothing is set aside.
        let (hidden, n) = hidden_neighbors(&linked, &|_: &Site| false);
        assert!(hidden.is_empty() && n == 0);
    }

    #[test]
    fn a_line_declaring_a_definition_of_the_name_is_found_among_several() {
        // `{ error: ZodError; input: unknown }` on line 4608: two property signatures.
        let defs = [
            (NodeKind::File, "types.ts", None),
            (NodeKind::Property, "error", Some(4608)),
            (NodeKind::Property, "input", Some(4608)),
            (NodeKind::Function, "error", Some(12)),
        ];
        assert!(declares_name(defs.into_iter(), 4608, "error"));
        assert!(declares_name(defs.into_iter(), 4608, "input"));
        // A use on another line, or a file of that name, is no declaration.
        assert!(!declares_name(defs.into_iter(), 4609, "error"));
        assert!(!declares_name(defs.into_iter(), 4608, "output"));
        assert!(!declares_name(defs.into_iter(), 0, "types.ts"));
    }

    #[test]
    fn rows_give_their_line() {
        assert_eq!(row_line("15:33 note = store.refresh(key)"), Some(15));
        assert_eq!(row_line("7:1-9"), Some(7));
        assert_eq!(row_line("x"), None);
    }

    #[test]
    fn neighbors_in_every_shape_and_the_unlinked_rows() {
        let mut a = Answer::default();
        let page = json!({
            "neighbors": [
                {"id": "py:a.py#f", "kind": "function", "line": 3, "edge": "calls"},
                {"id": "py:b.py#g", "kind": "function", "line": 5, "edge": "calls",
                 "confidence": "name"},
                {"id": "py:b.py#g", "kind": "function", "line": 5, "edge": "references",
                 "confidence": "import"},
                {"id": "py:a.py#C", "kind": "class", "line": 1, "edge": "contains"}
            ],
            "unlinked": [
                {"file": "c.py", "in": "h", "rows": ["12:5 s.refresh()", "14:1"]},
                {"file": "e.py", "groups": [{"in": "k", "rows": ["2:1 f()"]}, {"rows": ["7:3"]}]}
            ]
        });
        read_neighbors(&page, &mut a);
        let one_file = json!({"file": "py:d.py", "neighbors": [
            "27 method Store.refresh",
            {"name": "Store.get", "kind": "method", "line": 30, "edge": "calls",
             "confidence": "candidate"}
        ]});
        read_neighbors(&one_file, &mut a);
        let got: Vec<(&str, &str)> = a.neighbors.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            got,
            vec![
                ("py:a.py#f", "exact"),
                ("py:b.py#g", "import"),
                ("py:d.py#Store.get", "candidate"),
                ("py:d.py#Store.refresh", "exact"),
            ]
        );
        assert!(a.unlinked.contains(&site("c.py", 12)) && a.unlinked.contains(&site("c.py", 14)));
        assert!(a.unlinked.contains(&site("e.py", 2)) && a.unlinked.contains(&site("e.py", 7)));
    }

    #[test]
    fn references_are_the_servers_locations_only() {
        let page = json!({
            "locations": [
                {"file": "a.py", "at": ["4:5 f()", "9:5-11 f("]},
                {"external": true, "lib": "x.pyi", "at": [{"line": 1, "col": 1}]}
            ],
            "unverified": [{"file": "t.py", "rows": ["3:1 f()"]}]
        });
        let mut sites = vec![];
        read_references(&page, &mut sites);
        assert_eq!(sites, vec![site("a.py", 4), site("a.py", 9)]);
    }

    #[test]
    fn a_true_use_neither_listed_nor_unlinked_is_a_silent_miss() {
        let truth = vec![
            (site("a.py", 4), "py:a.py#f".to_string()),
            (site("a.py", 6), "py:a.py#f".to_string()),
            (site("b.py", 2), "py:b.py#g".to_string()),
            (site("c.py", 8), "py:c.py#h".to_string()),
        ];
        let mut answer = Answer::default();
        answer.neighbors.insert("py:a.py#f".into(), "exact");
        answer.neighbors.insert("py:x.py#wrong".into(), "name");
        answer.unlinked.insert(site("b.py", 2));
        answer.unlinked.insert(site("z.py", 1));
        let (t, silent, wrong) = score(&truth, &answer);
        assert_eq!(silent, vec![site("c.py", 8)]);
        assert_eq!(wrong, vec!["py:x.py#wrong (name)"]);
        assert_eq!((t.sites, t.callers, t.silent), (4, 3, 1));
        assert_eq!((t.listed[0], t.right[0], t.found[0]), (1, 1, 1));
        assert_eq!((t.listed[2], t.right[2]), (1, 0));
        assert_eq!((t.unlinked, t.unlinked_true, t.found_any), (2, 1, 1));
    }
}
