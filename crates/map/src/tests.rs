//! Unit tests of the whole map on synthetic facts: a tiny line format stands in for
//! extraction, so build, resolution, incremental rebuilds and queries are tested without
//! grammars. (Tests on real fixtures with real extraction live in `tests/`.)
//!
//! Format, one statement per line:
//! - `def <kind> <qualified.name> [priv] [args=<min>..[<max>]] [sig=<signature text>]`
//! - `ref <from qualified name or -> <kind> <name> [<qualifier>] [local] [args=<n>]`
//! - `import <module> [<name>[:<alias>],…|-] [as=<alias>] [reexport]`
//! - `bind <scope qualified name or -> <name> [<qualifier>.]<Type>` (a binding fact)
//! - `mention <from qualified name or -> value|text|import <name> [<qualifier>]`
//! - `syntax-error` sets `had_errors`.
//!
//! Module specifiers `./x` resolve to `x.<ext>` next to the importing file; `/x` to
//! `x.<ext>` from the root; anything else is external (its first `.`/`/` segment).

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use navmap_extract::ImportTarget;
use navmap_extract::facts::*;
use navmap_language::{Language, Registry};

use super::*;
use crate::frontend::{Frontend, ModuleResolver};

struct Toy {
    ext: String,
    extracted: AtomicUsize,
    delay_ms: u64,
}

fn parse_toy(lang: &str, source: &str) -> FileFacts {
    let mut f = FileFacts {
        lang: lang.to_string(),
        lines: source.lines().count() as u32,
        ..Default::default()
    };
    for (line_no, line) in source.lines().enumerate() {
        let line_no = line_no as u32;
        let (head, sig) = match line.split_once(" sig=") {
            Some((h, s)) => (h, Some(s.to_string())),
            None => (line, None),
        };
        let words: Vec<&str> = head.split_whitespace().collect();
        match words.as_slice() {
            ["def", kind, qname, rest @ ..] => {
                let kind = NodeKind::parse(kind).expect("kind");
                let name = qname.rsplit('.').next().unwrap().to_string();
                let parent = qname
                    .rsplit_once('.')
                    .and_then(|(p, _)| f.defs.iter().rposition(|d| d.qualified_name == p));
                f.defs.push(DefFact {
                    kind,
                    name,
                    qualified_name: qname.to_string(),
                    parent,
                    start_line: line_no,
                    end_line: line_no,
                    name_line: line_no,
                    name_col: 4,
                    signature: sig,
                    doc: None,
                    exported: !rest.contains(&"priv"),
                    arity: rest.iter().find_map(|w| {
                        let (min, max) = w.strip_prefix("args=")?.split_once("..")?;
                        Some(Arity {
                            min: min.parse().ok()?,
                            max: max.parse().ok(),
                        })
                    }),
                    params: None,
                });
            }
            ["ref", from, kind, name, rest @ ..] => {
                let from = (*from != "-").then(|| {
                    f.defs
                        .iter()
                        .rposition(|d| d.qualified_name == *from)
                        .expect("from")
                });
                f.refs.push(RefFact {
                    from,
                    kind: EdgeKind::parse(kind).expect("edge kind"),
                    name: name.to_string(),
                    qualifier: rest
                        .first()
                        .filter(|q| **q != "local" && !q.starts_with("args="))
                        .map(|q| q.to_string()),
                    line: line_no,
                    col: 0,
                    local: rest.contains(&"local"),
                    args: rest
                        .iter()
                        .find_map(|w| w.strip_prefix("args=")?.parse().ok()),
                    arg_kinds: Vec::new(),
                });
            }
            ["import", module, rest @ ..] => {
                let mut names = vec![];
                let mut alias = None;
                let mut reexport = false;
                for w in rest {
                    if let Some(a) = w.strip_prefix("as=") {
                        alias = Some(a.to_string());
                    } else if *w == "reexport" {
                        reexport = true;
                    } else if *w != "-" {
                        for n in w.split(',') {
                            let (name, alias) = match n.split_once(':') {
                                Some((n, a)) => (n, Some(a.to_string())),
                                None => (n, None),
                            };
                            names.push(ImportedName {
                                name: name.to_string(),
                                alias,
                            });
                        }
                    }
                }
                f.imports.push(ImportFact {
                    module: module.to_string(),
                    names,
                    alias,
                    reexport,
                    line: line_no,
                });
            }
            ["bind", scope, name, ty] => {
                let scope = (*scope != "-").then(|| {
                    f.defs
                        .iter()
                        .rposition(|d| d.qualified_name == *scope)
                        .expect("scope")
                });
                let (q, t) = match ty.rsplit_once('.') {
                    Some((q, t)) => (Some(q.to_string()), t.to_string()),
                    None => (None, ty.to_string()),
                };
                f.bindings.push(BindingFact {
                    scope,
                    name: name.to_string(),
                    type_name: t,
                    type_qualifier: q,
                    line: line_no,
                    until: None,
                });
            }
            ["mention", from, kind, name, rest @ ..] => {
                let from = (*from != "-").then(|| {
                    f.defs
                        .iter()
                        .rposition(|d| d.qualified_name == *from)
                        .expect("from")
                });
                f.mentions.push(MentionFact {
                    from,
                    kind: match *kind {
                        "value" => MentionKind::Value,
                        "text" => MentionKind::Text,
                        _ => MentionKind::Import,
                    },
                    name: name.to_string(),
                    qualifier: rest.first().map(|q| q.to_string()),
                    line: line_no,
                    col: 0,
                });
            }
            ["syntax-error"] => f.had_errors = true,
            _ => {}
        }
    }
    f
}

impl Frontend for Toy {
    fn extract(&self, lang: &Language, _path: &str, source: &str) -> FileFacts {
        self.extracted.fetch_add(1, Ordering::SeqCst);
        if self.delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(self.delay_ms));
        }
        if source.contains("PANIC") {
            panic!("toy extractor told to panic");
        }
        parse_toy(lang.id(), source)
    }

    fn resolver(
        &self,
        _registry: &Registry,
        files: &BTreeSet<String>,
        _read: &dyn Fn(&str) -> Option<String>,
    ) -> Box<dyn ModuleResolver> {
        Box::new(ToyResolver {
            files: files.clone(),
            ext: self.ext.clone(),
        })
    }

    fn is_config_file(&self, path: &str) -> bool {
        if path.contains("PANIC_IN_WALK") {
            panic!("toy walk told to panic");
        }
        path.ends_with("toy.toml")
    }
}

struct ToyResolver {
    files: BTreeSet<String>,
    ext: String,
}

impl ModuleResolver for ToyResolver {
    fn resolve(&self, _lang: &Language, from: &str, module: &str) -> ImportTarget {
        let candidate = if let Some(rel) = module.strip_prefix("./") {
            let dir = model::parent_dir(from);
            if dir.is_empty() {
                format!("{rel}.{}", self.ext)
            } else {
                format!("{dir}/{rel}.{}", self.ext)
            }
        } else if let Some(abs) = module.strip_prefix('/') {
            format!("{abs}.{}", self.ext)
        } else {
            return ImportTarget::External(module.split(['.', '/']).next().unwrap().to_string());
        };
        if self.files.contains(&candidate) {
            ImportTarget::Files(vec![candidate])
        } else {
            ImportTarget::Unresolved
        }
    }

    fn resolve_member(
        &self,
        lang: &Language,
        from: &str,
        module: &str,
        name: &str,
    ) -> ImportTarget {
        match self.resolve(lang, from, &format!("{module}/{name}")) {
            t @ ImportTarget::Files(_) => t,
            _ => ImportTarget::Unresolved,
        }
    }
}

struct Fixture {
    dir: tempfile::TempDir,
    map: Map,
    toy: Arc<Toy>,
    lang: String,
    ext: String,
}

fn registry() -> Arc<Registry> {
    Arc::new(navmap_grammars::registry())
}

fn first_lang(reg: &Registry) -> (String, String) {
    let l = &reg.all()[0];
    (l.id().to_string(), l.manifest.extensions[0].clone())
}

impl Fixture {
    fn new(files: &[(&str, &str)]) -> Fixture {
        Self::with_delay(files, 0)
    }

    fn with_delay(files: &[(&str, &str)], delay_ms: u64) -> Fixture {
        let reg = registry();
        let (lang, ext) = first_lang(&reg);
        let dir = tempfile::tempdir().unwrap();
        let toy = Arc::new(Toy {
            ext: ext.clone(),
            extracted: AtomicUsize::new(0),
            delay_ms,
        });
        let fx = Fixture {
            map: Map::open_with(MapConfig::new(dir.path()), reg, toy.clone())
                .unwrap()
                .0,
            dir,
            toy,
            lang,
            ext,
        };
        for (p, c) in files {
            fx.write(p, c);
        }
        fx
    }

    /// `p` is written with the language's extension appended.
    fn write(&self, p: &str, content: &str) {
        let path = self.dir.path().join(format!("{p}.{}", self.ext));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    fn remove(&self, p: &str) {
        std::fs::remove_file(self.dir.path().join(format!("{p}.{}", self.ext))).unwrap();
    }

    fn id(&self, file: &str, qname: &str) -> String {
        format!("{}:{file}.{}#{qname}", self.lang, self.ext)
    }

    fn file_id(&self, file: &str) -> String {
        format!("{}:{file}.{}", self.lang, self.ext)
    }

    fn rebuild(&self) -> RebuildSummary {
        self.map
            .rebuild(RebuildOptions::default(), &|_| {})
            .unwrap()
    }

    fn reopen(&self) -> (Map, Vec<String>) {
        Map::open_with(
            MapConfig::new(self.dir.path()),
            registry(),
            self.toy.clone(),
        )
        .unwrap()
    }

    /// (neighbor id, edge, confidence) of the outgoing edges of a node.
    fn out(&self, id: &str) -> Vec<(String, EdgeKind, Confidence)> {
        self.edges(id, Direction::Out)
    }

    fn edges(&self, id: &str, dir: Direction) -> Vec<(String, EdgeKind, Confidence)> {
        let mut v: Vec<_> = self
            .map
            .neighbors(id, dir, None, 1, 200)
            .unwrap()
            .neighbors
            .into_iter()
            .filter(|n| n.edge != EdgeKind::Contains)
            .map(|n| (n.node.id, n.edge, n.confidence))
            .collect();
        v.sort();
        v
    }
}

/// The shop: a store with get/put/refresh deriving from a base, an API calling it, a
/// re-export, a name clash, and a call into an external module.
fn shop() -> Vec<(&'static str, &'static str)> {
    vec![
        ("base", "def class BaseStore\ndef method BaseStore.keys\n"),
        (
            "store",
            "import ./base BaseStore\nimport time -\n\
             def class SessionStore\nref SessionStore extends BaseStore\n\
             def property SessionStore._data sig=_data: Dict\n\
             def method SessionStore.get\nref SessionStore.get calls get self._data\n\
             def method SessionStore.put\n\
             def method SessionStore.refresh\nref SessionStore.refresh calls get self\n\
             ref SessionStore.refresh calls put self\nref SessionStore.refresh calls time time\n\
             ref SessionStore.refresh calls keys self\n",
        ),
        (
            "api",
            "import ./store SessionStore\nimport ./util/email as=email\nimport ./util/token as=token\n\
             def function handle_refresh sig=def handle_refresh(store: SessionStore, key)\n\
             ref handle_refresh calls refresh store\nref handle_refresh references SessionStore\n\
             def function check\nref check calls validate checker\n\
             def function make\nref make calls SessionStore\nref make calls helper\n",
        ),
        ("util/email", "def function validate\n"),
        ("util/token", "def function validate\n"),
        ("util/misc", "def function helper\n"),
        (
            "index",
            "import ./store SessionStore reexport\nimport ./api handle_refresh:refresh_handler reexport\n",
        ),
        (
            "app",
            "import ./index SessionStore,refresh_handler\ndef function main\nref main calls refresh_handler\nref main calls SessionStore\n",
        ),
    ]
}

fn has(
    edges: &[(String, EdgeKind, Confidence)],
    id: &str,
    kind: EdgeKind,
    conf: Confidence,
) -> bool {
    edges
        .iter()
        .any(|e| e.0 == id && e.1 == kind && e.2 == conf)
}

#[test]
fn builds_and_resolves_with_confidences() {
    let fx = Fixture::new(&shop());
    assert!(matches!(
        fx.map.search("Store", None, 5),
        Err(MapError::NotBuilt)
    ));
    let s = fx.rebuild();
    assert_eq!(s.files_scanned, 8);
    assert_eq!(s.files_indexed, 8);
    assert_eq!(s.generation, 1);

    let refresh = fx.id("store", "SessionStore.refresh");
    let out = fx.out(&refresh);
    // self members: exact; inherited member through `extends`: exact.
    assert!(has(
        &out,
        &fx.id("store", "SessionStore.get"),
        EdgeKind::Calls,
        Confidence::Exact
    ));
    assert!(has(
        &out,
        &fx.id("store", "SessionStore.put"),
        EdgeKind::Calls,
        Confidence::Exact
    ));
    assert!(has(
        &out,
        &fx.id("base", "BaseStore.keys"),
        EdgeKind::Calls,
        Confidence::Exact
    ));
    // `time.time()`: an external module, no edge at all.
    assert_eq!(out.len(), 3, "{out:?}");

    // `self._data.get` is typed (Dict, unknown): no edge to SessionStore.get.
    let get_out = fx.out(&fx.id("store", "SessionStore.get"));
    assert!(get_out.is_empty(), "{get_out:?}");

    // The API caller: typed parameter → the type's member, through the import.
    let callers = fx.edges(&refresh, Direction::In);
    assert!(
        has(
            &callers,
            &fx.id("api", "handle_refresh"),
            EdgeKind::Calls,
            Confidence::Import
        ),
        "{callers:?}"
    );

    // The clash: candidates, never exact.
    let check = fx.out(&fx.id("api", "check"));
    assert!(has(
        &check,
        &fx.id("util/email", "validate"),
        EdgeKind::Calls,
        Confidence::Candidate
    ));
    assert!(has(
        &check,
        &fx.id("util/token", "validate"),
        EdgeKind::Calls,
        Confidence::Candidate
    ));
    assert_eq!(check.len(), 2);

    // The only exported `helper`, not imported: name.
    let make = fx.out(&fx.id("api", "make"));
    assert!(
        has(
            &make,
            &fx.id("util/misc", "helper"),
            EdgeKind::Calls,
            Confidence::Name
        ),
        "{make:?}"
    );
    assert!(has(
        &make,
        &fx.id("store", "SessionStore"),
        EdgeKind::Calls,
        Confidence::Import
    ));

    // Through a re-export with an alias.
    let main = fx.out(&fx.id("app", "main"));
    assert!(
        has(
            &main,
            &fx.id("api", "handle_refresh"),
            EdgeKind::Calls,
            Confidence::Import
        ),
        "{main:?}"
    );
    assert!(has(
        &main,
        &fx.id("store", "SessionStore"),
        EdgeKind::Calls,
        Confidence::Import
    ));
    let index = fx.out(&fx.file_id("index"));
    assert!(has(
        &index,
        &fx.id("store", "SessionStore"),
        EdgeKind::Exports,
        Confidence::Import
    ));
    assert!(has(
        &index,
        &fx.file_id("store"),
        EdgeKind::Imports,
        Confidence::Exact
    ));

    // Imports of an external module land on its node.
    let ext = format!("{}:ext:time", fx.lang);
    assert!(has(
        &fx.out(&fx.file_id("store")),
        &ext,
        EdgeKind::Imports,
        Confidence::Exact
    ));
    assert_eq!(fx.map.node(&ext).unwrap().kind, NodeKind::Module);

    // extends
    let ss = fx.out(&fx.id("store", "SessionStore"));
    assert!(has(
        &ss,
        &fx.id("base", "BaseStore"),
        EdgeKind::Extends,
        Confidence::Import
    ));
}

#[test]
fn search_ranks_exact_prefix_and_typos() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let r = fx.map.search("SessionStore", None, 10).unwrap();
    assert_eq!(r.results[0].node.id, fx.id("store", "SessionStore"));
    assert_eq!(r.results[0].matched, MatchKind::Exact);
    let typo = fx.map.search("SesionStore", None, 10).unwrap();
    assert_eq!(typo.results[0].node.id, fx.id("store", "SessionStore"));
    assert_eq!(typo.results[0].matched, MatchKind::Fuzzy);
    let prefix = fx.map.search("Sess", Some(NodeKind::Class), 10).unwrap();
    assert_eq!(prefix.total, 1);
    assert_eq!(prefix.results[0].matched, MatchKind::Prefix);
    let q = fx.map.search("SessionStore.refresh", None, 10).unwrap();
    assert_eq!(q.results[0].node.id, fx.id("store", "SessionStore.refresh"));
    let path = fx.map.search("util/", None, 10).unwrap();
    assert!(path.results.iter().all(|h| h.matched == MatchKind::Path));
    assert_eq!(path.total, 3);
    // Qualified names and paths are compared lower-cased, as names are.
    let q = fx.map.search("sessionSTORE::REFRESH", None, 10).unwrap();
    assert_eq!(q.results[0].node.id, fx.id("store", "SessionStore.refresh"));
    assert_eq!(fx.map.search("UTIL/", None, 10).unwrap().total, 3);
    let none = fx.map.search("zzzzqqq", None, 10).unwrap();
    assert_eq!(none.total, 0);
    assert!(matches!(
        fx.map.search("x", None, 10),
        Err(MapError::BadArgs { .. })
    ));
    assert!(matches!(
        fx.map.search("xy", None, 0),
        Err(MapError::BadArgs { .. })
    ));
}

#[test]
fn neighbors_path_overview_and_ids() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let api = fx.id("api", "handle_refresh");
    let store = fx.id("store", "SessionStore");
    let p = fx.map.path(&api, &store, None, 6).unwrap();
    assert!(p.found);
    assert_eq!(p.path.first().unwrap().node.id, api);
    assert_eq!(p.path.last().unwrap().node.id, store);
    let direct = fx
        .map
        .path(&api, &fx.id("store", "SessionStore.refresh"), None, 6)
        .unwrap();
    assert_eq!(direct.path.len(), 2);
    assert_eq!(
        direct.path[0].edge_to_next.as_ref().unwrap().kind,
        EdgeKind::Calls
    );
    // Only over resolved edges: the clash is a candidate, so no path.
    let none = fx
        .map
        .path(
            &fx.id("api", "check"),
            &fx.id("util/email", "validate"),
            Some(&[EdgeKind::Calls]),
            6,
        )
        .unwrap();
    assert!(!none.found);

    // Candidates are listed but not expanded.
    let n = fx
        .map
        .neighbors(
            &fx.id("api", "check"),
            Direction::Out,
            Some(&[EdgeKind::Calls]),
            3,
            50,
        )
        .unwrap();
    assert_eq!(n.neighbors.len(), 2);
    assert!(n.neighbors.iter().all(|x| !x.resolved && x.depth == 1));
    // Depth 2 reaches the store's members through handle_refresh.
    let d2 = fx
        .map
        .neighbors(&fx.file_id("api"), Direction::Out, None, 2, 200)
        .unwrap();
    assert!(
        d2.neighbors
            .iter()
            .any(|x| x.node.id == fx.id("store", "SessionStore.refresh") && x.depth == 2)
    );
    let capped = fx
        .map
        .neighbors(&fx.file_id("api"), Direction::Out, None, 2, 2)
        .unwrap();
    assert_eq!(capped.neighbors.len(), 2);
    assert!(capped.total > 2);

    assert!(matches!(
        fx.map.node("nonsense"),
        Err(MapError::BadNodeId { .. })
    ));
    assert!(matches!(
        fx.map.node(&fx.id("store", "Nope")),
        Err(MapError::NodeNotFound(_))
    ));
    assert!(matches!(
        fx.map.neighbors(&api, Direction::Both, None, 4, 10),
        Err(MapError::BadArgs { .. })
    ));

    let o = fx.map.overview(None, 3).unwrap();
    assert_eq!(o.files, 8);
    let in_clusters: usize = o.clusters.iter().map(|c| c.files).sum();
    assert_eq!(in_clusters, 8);
    assert!(o.clusters.iter().all(|c| c.hubs.len() <= 3));
    let focused = fx.map.overview(Some("util"), 5).unwrap();
    assert_eq!(focused.files, 3);
    assert!(matches!(
        fx.map.overview(Some("../x"), 5),
        Err(MapError::BadArgs { .. })
    ));

    // Scores are in [0, 1] and the store outranks a leaf.
    let s = fx
        .map
        .node(&fx.id("store", "SessionStore.refresh"))
        .unwrap();
    let leaf = fx.map.node(&fx.id("util/misc", "helper")).unwrap();
    assert!((0.0..=1.0).contains(&s.score) && (0.0..=1.0).contains(&leaf.score));
    let nodes = fx.map.nodes_in_file(&format!("store.{}", fx.ext)).unwrap();
    assert_eq!(nodes[0].kind, NodeKind::File);
    assert_eq!(nodes.len(), 6);
    assert_eq!(nodes[1].line, Some(3));
}

#[test]
fn incremental_edit_reindexes_one_file_and_updates_edges() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let before = fx.toy.extracted.load(Ordering::SeqCst);
    let noop = fx.rebuild();
    assert_eq!(noop.files_indexed, 0);
    assert_eq!(noop.generation, 1, "a no-op rebuild keeps the generation");

    // The API now calls put instead of refresh.
    fx.write(
        "api",
        "import ./store SessionStore\nimport ./util/email as=email\nimport ./util/token as=token\n\
         def function handle_refresh sig=def handle_refresh(store: SessionStore, key)\n\
         ref handle_refresh calls put store\nref handle_refresh references SessionStore\n\
         def function check\nref check calls validate checker\n\
         def function make\nref make calls SessionStore\nref make calls helper\n",
    );
    let s = fx.rebuild();
    assert_eq!(s.files_indexed, 1, "{s:?}");
    assert_eq!(s.generation, 2);
    assert_eq!(fx.toy.extracted.load(Ordering::SeqCst), before + 1);
    let api = fx.id("api", "handle_refresh");
    let out = fx.out(&api);
    assert!(has(
        &out,
        &fx.id("store", "SessionStore.put"),
        EdgeKind::Calls,
        Confidence::Import
    ));
    assert!(
        !out.iter()
            .any(|e| e.0 == fx.id("store", "SessionStore.refresh"))
    );
    assert!(
        fx.edges(&fx.id("store", "SessionStore.refresh"), Direction::In)
            .is_empty()
    );

    // Touching without changing content re-reads but does not re-index.
    let content = std::fs::read(fx.dir.path().join(format!("api.{}", fx.ext))).unwrap();
    std::fs::write(fx.dir.path().join(format!("api.{}", fx.ext)), content).unwrap();
    let t = fx.rebuild();
    assert_eq!(t.files_indexed, 0);
    assert_eq!(t.generation, 2);
}

#[test]
fn definitions_changes_reach_other_files() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    // A second exported `helper` turns the unique name into a clash for `make`.
    fx.write("util/more", "def function helper\n");
    let s = fx.rebuild();
    assert_eq!(s.files_indexed, 1);
    let make = fx.out(&fx.id("api", "make"));
    assert!(
        has(
            &make,
            &fx.id("util/misc", "helper"),
            EdgeKind::Calls,
            Confidence::Candidate
        ),
        "{make:?}"
    );
    assert!(has(
        &make,
        &fx.id("util/more", "helper"),
        EdgeKind::Calls,
        Confidence::Candidate
    ));
    // Deleting it makes it unique again.
    fx.remove("util/more");
    let s = fx.rebuild();
    assert_eq!(s.files_deleted, 1);
    assert_eq!(s.files_indexed, 0);
    let make = fx.out(&fx.id("api", "make"));
    assert!(has(
        &make,
        &fx.id("util/misc", "helper"),
        EdgeKind::Calls,
        Confidence::Name
    ));
    assert!(matches!(
        fx.map.node(&fx.id("util/more", "helper")),
        Err(MapError::NodeNotFound(_))
    ));

    // Removing refresh from the store drops the API's edge; re-adding restores it.
    let store_src = shop().into_iter().find(|f| f.0 == "store").unwrap().1;
    fx.write(
        "store",
        &store_src.replace("SessionStore.refresh", "SessionStore.renamed"),
    );
    fx.rebuild();
    assert!(
        fx.out(&fx.id("api", "handle_refresh"))
            .iter()
            .all(|e| !e.0.ends_with(".refresh"))
    );
    // The search index follows: the new name is found, the old one is gone.
    let renamed = fx.map.search("renamed", None, 5).unwrap();
    assert_eq!(
        renamed.results[0].node.id,
        fx.id("store", "SessionStore.renamed")
    );
    let old = fx.map.search("refresh", None, 20).unwrap();
    assert!(
        old.results
            .iter()
            .all(|h| h.node.id != fx.id("store", "SessionStore.refresh"))
    );
    let gone = fx.map.search("more", None, 20).unwrap();
    assert!(
        gone.results
            .iter()
            .all(|h| !h.node.id.contains("util/more")),
        "{gone:?}"
    );
    fx.write("store", store_src);
    fx.rebuild();
    let callers = fx.edges(&fx.id("store", "SessionStore.refresh"), Direction::In);
    assert!(has(
        &callers,
        &fx.id("api", "handle_refresh"),
        EdgeKind::Calls,
        Confidence::Import
    ));
}

#[test]
fn rename_is_delete_plus_add_and_imports_follow() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let src = std::fs::read_to_string(fx.dir.path().join(format!("util/misc.{}", fx.ext))).unwrap();
    fx.remove("util/misc");
    fx.write("util/tools", &src);
    let s = fx.rebuild();
    assert_eq!((s.files_indexed, s.files_deleted), (1, 1));
    assert!(matches!(
        fx.map.node(&fx.file_id("util/misc")),
        Err(MapError::NodeNotFound(_))
    ));
    let make = fx.out(&fx.id("api", "make"));
    assert!(has(
        &make,
        &fx.id("util/tools", "helper"),
        EdgeKind::Calls,
        Confidence::Name
    ));

    // An import that could not be resolved starts resolving when its file appears.
    fx.write(
        "late",
        "import ./later Thing\ndef function f\nref f calls Thing\n",
    );
    fx.rebuild();
    assert!(fx.out(&fx.id("late", "f")).is_empty());
    fx.write("later", "def class Thing\n");
    fx.rebuild();
    assert!(has(
        &fx.out(&fx.id("late", "f")),
        &fx.id("later", "Thing"),
        EdgeKind::Calls,
        Confidence::Import
    ));
}

#[test]
fn a_panic_inside_a_rebuild_fails_that_rebuild_only() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    // Not a source file: the walk asks the frontend whether it is a config file.
    let trigger = fx.dir.path().join("PANIC_IN_WALK.txt");
    std::fs::write(&trigger, "").unwrap();
    let err = fx
        .map
        .rebuild(RebuildOptions::default(), &|_| {})
        .unwrap_err();
    assert!(err.to_string().contains("panicked"), "{err}");
    // The locks the panic went through were poisoned: the next rebuild used to fail on
    // them forever ("a map lock was poisoned").
    std::fs::remove_file(&trigger).unwrap();
    fx.write("later", "def function after\n");
    fx.rebuild();
    assert!(fx.map.node(&fx.id("later", "after")).is_ok());
}

#[test]
fn broken_binary_oversized_and_panicking_files_never_fail_a_build() {
    let fx = Fixture::new(&shop());
    fx.write("broken", "def function half\nsyntax-error\n");
    fx.write("boom", "PANIC\n");
    std::fs::write(
        fx.dir.path().join(format!("bin.{}", fx.ext)),
        b"def\0function x",
    )
    .unwrap();
    std::fs::write(
        fx.dir.path().join(format!("latin.{}", fx.ext)),
        b"def function caf\xe9\n",
    )
    .unwrap();
    std::fs::write(
        fx.dir.path().join(format!("big.{}", fx.ext)),
        vec![b'#'; 2 * 1024 * 1024],
    )
    .unwrap();
    // Always-skipped directories and ignored files.
    fx.write("node_modules/dep", "def function dep\n");
    fx.write("build/out", "def function out\n");
    std::fs::write(fx.dir.path().join(".gitignore"), "ignored*\n").unwrap();
    fx.write("ignored_one", "def function nope\n");
    let s = fx.rebuild();
    assert_eq!(s.files_skipped.get(&SkipReason::Binary), Some(&1));
    assert_eq!(s.files_skipped.get(&SkipReason::InvalidUtf8), Some(&1));
    assert_eq!(s.files_skipped.get(&SkipReason::TooLarge), Some(&1));
    assert_eq!(s.files, 10, "{s:?}");
    let st = fx.map.status().unwrap();
    assert_eq!(st.files_with_errors, 2);
    assert!(fx.map.node(&fx.id("broken", "half")).is_ok());
    assert!(
        fx.map
            .search("dep", None, 10)
            .unwrap()
            .results
            .iter()
            .all(|h| !h.node.id.contains("node_modules"))
    );
    assert!(
        fx.map
            .nodes_in_file(&format!("ignored_one.{}", fx.ext))
            .unwrap()
            .is_empty()
    );

    // A file that stops parsing keeps what was recovered; one that becomes binary leaves.
    fx.write("store", "def class SessionStore\nsyntax-error\n");
    std::fs::write(fx.dir.path().join(format!("base.{}", fx.ext)), b"\0\0").unwrap();
    let s = fx.rebuild();
    assert_eq!(s.files_indexed, 1);
    assert_eq!(s.files_deleted, 1);
    assert!(fx.map.node(&fx.id("store", "SessionStore")).is_ok());
    assert!(matches!(
        fx.map.node(&fx.id("store", "SessionStore.refresh")),
        Err(MapError::NodeNotFound(_))
    ));
    assert_eq!(
        fx.map.status().unwrap().skipped.get(&SkipReason::Binary),
        Some(&2)
    );
}

#[test]
fn persists_and_recovers() {
    let fx = Fixture::new(&shop());
    let s = fx.rebuild();
    assert!(fx.dir.path().join(".navmap/.gitignore").exists());
    let (again, warnings) = fx.reopen();
    assert!(warnings.is_empty(), "{warnings:?}");
    let st = again.status().unwrap();
    assert!(st.built);
    assert_eq!(
        (
            st.files as u64,
            st.symbols as u64,
            st.edges as u64,
            st.generation
        ),
        (s.files, s.symbols, s.edges, 1)
    );
    let callers = again
        .neighbors(
            &fx.id("store", "SessionStore.refresh"),
            Direction::In,
            None,
            1,
            50,
        )
        .unwrap();
    assert!(
        callers
            .neighbors
            .iter()
            .any(|n| n.node.id == fx.id("api", "handle_refresh"))
    );
    // The reopened map rebuilds incrementally: nothing to do.
    let n = again.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert_eq!((n.files_indexed, n.generation), (0, 1));
    drop(again);

    // An interrupted build: not built until the next rebuild repairs it.
    {
        let c = rusqlite::Connection::open(fx.dir.path().join(".navmap/map.db")).unwrap();
        c.execute("UPDATE meta SET value = '1' WHERE key = 'dirty'", [])
            .unwrap();
    }
    let (m, w) = fx.reopen();
    assert!(!m.is_built());
    assert!(w.iter().any(|w| w.contains("interrupted")), "{w:?}");
    let r = m.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert!(m.is_built());
    assert_eq!(r.files_resolved, 8);
    assert_eq!(r.edges, s.edges);
    drop(m);

    // Another schema version: recreated with a warning.
    {
        let c = rusqlite::Connection::open(fx.dir.path().join(".navmap/map.db")).unwrap();
        c.execute(
            "UPDATE meta SET value = '999' WHERE key = 'schema_version'",
            [],
        )
        .unwrap();
    }
    let (m, w) = fx.reopen();
    assert!(w.iter().any(|w| w.contains("schema version")), "{w:?}");
    assert!(!m.is_built());
    assert_eq!(
        m.rebuild(RebuildOptions::default(), &|_| {})
            .unwrap()
            .files_indexed,
        8
    );
    drop(m);

    // Built by a navmap with other queries or extraction rules (an upgrade): its facts
    // are not this navmap's, so it is rebuilt from scratch, with a warning, and the
    // no-op check does not call it unchanged.
    {
        let c = rusqlite::Connection::open(fx.dir.path().join(".navmap/map.db")).unwrap();
        c.execute(
            "UPDATE meta SET value = 'an older navmap' WHERE key = 'extraction'",
            [],
        )
        .unwrap();
    }
    let mut config = MapConfig::new(fx.dir.path());
    config.root = fx.dir.path().canonicalize().unwrap();
    let pre = Map::precheck(&config, &registry()).unwrap();
    assert!(pre.unchanged.is_none());
    let (m, w) = fx.reopen();
    assert!(
        w.iter()
            .any(|w| w.contains("other grammars or extraction rules")),
        "{w:?}"
    );
    assert!(!m.is_built());
    assert_eq!(
        m.rebuild(RebuildOptions::default(), &|_| {})
            .unwrap()
            .files_indexed,
        8
    );
    drop(m);
    let (m, w) = fx.reopen();
    assert!(
        w.is_empty(),
        "rebuilt with this navmap's fingerprint: {w:?}"
    );
    assert!(m.is_built());
    assert!(
        Map::precheck(&config, &registry())
            .unwrap()
            .unchanged
            .is_some(),
        "a map of this navmap with nothing changed is unchanged"
    );
    drop(m);

    // A map whose generation is not a number is corrupt: rebuilt with a warning, not
    // taken for an unbuilt map.
    {
        let c = rusqlite::Connection::open(fx.dir.path().join(".navmap/map.db")).unwrap();
        c.execute(
            "UPDATE meta SET value = 'seven' WHERE key = 'generation'",
            [],
        )
        .unwrap();
    }
    let (m, w) = fx.reopen();
    assert!(
        w.iter()
            .any(|w| w.contains("generation") && w.contains("rebuilding")),
        "{w:?}"
    );
    assert_eq!(
        m.rebuild(RebuildOptions::default(), &|_| {}).unwrap().files,
        8
    );
    assert_eq!(m.status().unwrap().generation, 1);
    drop(m);
}

/// navmap never deletes or overwrites a file it did not create: a file at the map path
/// that is not navmap's map (not SQLite, or another program's SQLite) is an error.
#[test]
fn a_file_that_is_not_the_map_is_never_overwritten() {
    let fx = Fixture::new(&shop());
    let db = fx.dir.path().join(".navmap/map.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let open = || Map::open_with(MapConfig::new(fx.dir.path()), registry(), fx.toy.clone());
    std::fs::write(&db, b"precious, not sqlite at all").unwrap();
    let err = open().unwrap_err();
    assert!(matches!(err, MapError::Refused(_)), "{err:?}");
    assert_eq!(std::fs::read(&db).unwrap(), b"precious, not sqlite at all");

    std::fs::remove_file(&db).unwrap();
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch("CREATE TABLE notes(t TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
    }
    let before = std::fs::read(&db).unwrap();
    assert!(matches!(open().unwrap_err(), MapError::Refused(_)));
    assert_eq!(std::fs::read(&db).unwrap(), before);

    // An in-memory map writes nothing.
    std::fs::remove_file(&db).unwrap();
    let mut config = MapConfig::new(fx.dir.path());
    config.db_path = Some(crate::IN_MEMORY.into());
    let (m, _) = Map::open_with(config, registry(), fx.toy.clone()).unwrap();
    assert_eq!(
        m.rebuild(RebuildOptions::default(), &|_| {}).unwrap().files,
        8
    );
    assert!(!db.exists());
    assert!(!std::path::Path::new(crate::IN_MEMORY).exists());
}

#[test]
fn full_and_scoped_rebuilds() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let full = rebuild_from_scratch(&fx.map);
    assert_eq!(full.files_indexed, 8);
    assert_eq!(full.generation, 2);
    // Scoped: a change outside the scope is not seen; a deletion inside is.
    fx.write("util/email", "def function validate\ndef function other\n");
    fx.remove("util/token");
    let scoped = fx
        .map
        .rebuild(
            RebuildOptions {
                paths: Some(vec!["util/token.x".replace(".x", &format!(".{}", fx.ext))]),
                full: false,
            },
            &|_| {},
        )
        .unwrap();
    assert_eq!((scoped.files_indexed, scoped.files_deleted), (0, 1));
    assert!(fx.map.node(&fx.id("util/email", "other")).is_err());
    let rest = fx.rebuild();
    assert_eq!(rest.files_indexed, 1);
    assert!(fx.map.node(&fx.id("util/email", "other")).is_ok());
    assert!(matches!(
        fx.map.rebuild(
            RebuildOptions {
                paths: Some(vec!["../etc".into()]),
                full: false
            },
            &|_| {}
        ),
        Err(MapError::BadArgs { .. })
    ));
}

#[test]
fn stale_flags() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let f = format!("store.{}", fx.ext);
    assert_eq!(fx.map.mark_stale(&[f.clone(), "nope".into()]).unwrap(), 1);
    assert!(fx.map.node(&fx.id("store", "SessionStore")).unwrap().stale);
    assert_eq!(fx.map.status().unwrap().stale_files, vec![f.clone()]);
    fx.rebuild();
    assert!(!fx.map.node(&fx.id("store", "SessionStore")).unwrap().stale);
}

/// A call made while a rebuild runs joins a rebuild that started after it (single flight),
/// never one whose walk may predate what the caller wrote before calling: it waits for the
/// running one, then runs the next. (A stale `map_rebuild` answer under load once failed
/// server test `a_reindexed_file_replaces_its_mentions`.)
#[test]
fn rebuild_is_single_flight_and_never_older_than_its_call() {
    let fx = Fixture::with_delay(&shop(), 60);
    let map = fx.map.clone();
    let first = std::thread::spawn(move || map.rebuild(RebuildOptions::default(), &|_| {}));
    // Until the first build extracts its first file: its walk is over by then (a build
    // walks before it extracts), so it cannot see the late file. Waiting only for
    // `is_building` raced with that walk under load.
    while fx.toy.extracted.load(Ordering::SeqCst) == 0 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(fx.map.is_building());
    // Written while the first build runs, before the next two calls.
    fx.write("late", "def function late\n");
    let calls: Vec<_> = (0..2)
        .map(|_| {
            let map = fx.map.clone();
            std::thread::spawn(move || map.rebuild(RebuildOptions::default(), &|_| {}))
        })
        .collect();
    let later: Vec<RebuildSummary> = calls
        .into_iter()
        .map(|t| t.join().unwrap().unwrap())
        .collect();
    let first = first.join().unwrap().unwrap();
    assert_eq!(first.generation, 1);
    for s in &later {
        assert!(s.generation >= 2, "{s:?}");
    }
    assert!(fx.map.node(&fx.id("late", "late")).is_ok());
    // The shop's eight files once, the late file once.
    assert_eq!(fx.toy.extracted.load(Ordering::SeqCst), 9);
}

/// `navmap serve`'s start-up build (and a first call's) wants the map as it was when it
/// opened: a whole-root rebuild since then serves it, so an agent's `map_rebuild` that came
/// first is not followed by a second build whose walk could overtake the agent's next edit
/// (server test `map_tools_answer_the_fixture_questions` saw that edit indexed by the
/// start-up build, and its own rebuild index nothing).
#[test]
fn the_start_up_build_is_served_by_any_whole_root_rebuild_since_the_map_opened() {
    let fx = Fixture::new(&shop());
    let first = fx.rebuild();
    fx.write("late", "def function late\n");
    let startup = fx
        .map
        .rebuild_since_open(RebuildOptions::default(), &|_| {})
        .unwrap();
    assert_eq!(startup, first, "served by the rebuild that came first");
    assert!(fx.map.node(&fx.id("late", "late")).is_err());
    let later = fx.rebuild();
    assert!(later.generation > first.generation);
    assert!(fx.map.node(&fx.id("late", "late")).is_ok());
}

#[test]
fn progress_is_reported() {
    let fx = Fixture::new(&shop());
    let phases = std::sync::Mutex::new(Vec::new());
    fx.map
        .rebuild(RebuildOptions::default(), &|p| {
            phases.lock().unwrap().push(p.phase)
        })
        .unwrap();
    let phases = phases.into_inner().unwrap();
    for p in [
        Phase::Scanning,
        Phase::Indexing,
        Phase::Resolving,
        Phase::Ranking,
    ] {
        assert!(phases.contains(&p), "{p:?} missing from {phases:?}");
    }
}

#[test]
fn binding_facts_type_receivers() {
    let mut files = shop();
    files.push((
        "worker",
        "import ./store SessionStore\nimport ./util/misc as=store\nimport collections -\n\
         def class Worker\ndef method Worker.__init__\nbind Worker.__init__ self.cache collections.Cache\n\
         bind Worker.__init__ self.store SessionStore\n\
         def method Worker.run\nref Worker.run calls get self.cache\nref Worker.run calls put self.store\n\
         def function job\nbind job store SessionStore\nref job calls refresh store\n\
         def function later\nbind later s SessionStore\nref later calls refresh s\n",
    ));
    let fx = Fixture::new(&files);
    fx.rebuild();
    // A local typed by a binding shadows the module imported under the same name.
    let job = fx.out(&fx.id("worker", "job"));
    assert!(
        has(
            &job,
            &fx.id("store", "SessionStore.refresh"),
            EdgeKind::Calls,
            Confidence::Import
        ),
        "{job:?}"
    );
    let later = fx.out(&fx.id("worker", "later"));
    assert!(has(
        &later,
        &fx.id("store", "SessionStore.refresh"),
        EdgeKind::Calls,
        Confidence::Import
    ));
    // `self.store` typed in __init__; `self.cache` typed by an external type: no edge.
    let run = fx.out(&fx.id("worker", "Worker.run"));
    assert!(
        has(
            &run,
            &fx.id("store", "SessionStore.put"),
            EdgeKind::Calls,
            Confidence::Import
        ),
        "{run:?}"
    );
    assert_eq!(run.len(), 1, "{run:?}");
}

#[test]
fn definitions_of_kind_module_are_not_swept_as_unused_externals() {
    let fx = Fixture::new(&[("lib", "def module inner\ndef function inner.f\n")]);
    fx.rebuild();
    assert_eq!(
        fx.map.node(&fx.id("lib", "inner")).unwrap().kind,
        NodeKind::Module
    );
    fx.write("lib", "def module inner\ndef function inner.g\n");
    fx.rebuild();
    assert!(fx.map.node(&fx.id("lib", "inner.g")).is_ok());
    let (again, w) = fx.reopen();
    assert!(w.is_empty(), "{w:?}");
    assert!(again.node(&fx.id("lib", "inner")).is_ok());
}

#[test]
fn names_as_agents_write_them_find_their_nodes() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let one = |q: &str| {
        let r = fx.map.find_symbol(q, 5).unwrap();
        assert_eq!(r.total, 1, "{q}: {r:?}");
        r.matches[0].id.clone()
    };
    let refresh = fx.id("store", "SessionStore.refresh");
    let class = fx.id("store", "SessionStore");
    assert_eq!(one("SessionStore.refresh"), refresh);
    assert_eq!(one("store.SessionStore.refresh"), refresh);
    assert_eq!(one("store::SessionStore"), class);
    assert_eq!(
        one(&format!("store.{}#SessionStore.refresh", fx.ext)),
        refresh
    );
    assert_eq!(one(&refresh), refresh);
    assert_eq!(one("email.validate"), fx.id("util/email", "validate"));
    assert_eq!(one("util/email.validate"), fx.id("util/email", "validate"));
    // A module-qualified name skips directories, never an enclosing definition.
    assert!(
        fx.map
            .find_symbol("api.refresh", 5)
            .unwrap()
            .matches
            .is_empty()
    );
    // A qualifier the map knows nowhere (a package name, a keyword) is ignored, and said.
    let r = fx.map.find_symbol("zzpkg::store::SessionStore", 5).unwrap();
    assert_eq!(r.matches[0].id, class);
    assert_eq!(r.ignored, ["zzpkg"]);
    // Several: all of them, ranked; the limit caps the list, not the count.
    let r = fx.map.find_symbol("validate", 1).unwrap();
    assert_eq!((r.matches.len(), r.total), (1, 2), "{r:?}");
    // None: the nearest names, the named container's members first.
    let r = fx.map.find_symbol("SessionStore.refrsh", 5).unwrap();
    assert!(r.matches.is_empty());
    assert_eq!(r.nearest[0], refresh, "{r:?}");
    let r = fx.map.find_symbol("SessionStore.pot", 5).unwrap();
    assert_eq!(r.nearest[0], fx.id("store", "SessionStore.put"), "{r:?}");
    // map_search takes the same forms: what they name is the first, exact hit.
    let s = fx
        .map
        .search("store.SessionStore.refresh", None, 5)
        .unwrap();
    assert_eq!(s.results[0].node.id, refresh);
    assert_eq!(s.results[0].matched, MatchKind::Exact);
}

#[test]
fn kind_filters_apply_before_the_cap() {
    let mut big = String::from("def class Big\n");
    for i in 0..40 {
        big.push_str(&format!("def property Big.p{i}\n"));
    }
    for i in 0..6 {
        big.push_str(&format!("def method Big.m{i}\n"));
    }
    // Properties are used, so they outrank the methods by hub score.
    let mut user = String::from("import ./big Big\ndef function user\n");
    for i in 0..40 {
        user.push_str(&format!("ref user references p{i} Big\n"));
    }
    let fx = Fixture::new(&[("big", big.as_str()), ("user", user.as_str())]);
    fx.rebuild();
    let r = fx
        .map
        .neighbors_of_kind(
            &fx.id("big", "Big"),
            Direction::Out,
            Some(&[EdgeKind::Contains]),
            Some(&[NodeKind::Method]),
            1,
            4,
        )
        .unwrap();
    assert_eq!(r.neighbors.len(), 4, "{r:?}");
    assert_eq!(r.total, 6, "{r:?}");
    assert!(r.neighbors.iter().all(|n| n.node.kind == NodeKind::Method));
}

/// What the per-node cap keeps among neighbors of equal rank, and which node reaches a
/// neighbor first, are decided by node IDs, not node numbers: two maps of the same code
/// numbered differently (here one built whole, the other built in two steps, so the files
/// it met later come later) answer alike.
#[test]
fn neighbors_of_equal_rank_are_cut_by_node_id_not_by_build_order() {
    let mut hub = String::from("def function hub\n");
    for i in 1..=6 {
        hub.push_str(&format!("import ./m{i} f{i}\nref hub calls f{i}\n"));
    }
    let leaf = |i: usize| format!("def function f{i}\n");
    let leaves: Vec<(String, String)> = (1..=6).map(|i| (format!("m{i}"), leaf(i))).collect();
    let mut all: Vec<(&str, &str)> = vec![("hub", hub.as_str())];
    all.extend(leaves.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let whole = Fixture::new(&all);
    whole.rebuild();
    // The same code in two steps: the last leaves first, then the others.
    let stepwise = Fixture::new(&all[..1]);
    for (p, t) in leaves.iter().rev().take(2) {
        stepwise.write(p, t);
    }
    stepwise.rebuild();
    for (p, t) in &leaves {
        stepwise.write(p, t);
    }
    stepwise.rebuild();
    let answer = |fx: &Fixture| {
        let (map, _) = fx.reopen();
        let r = map
            .neighbors(
                &fx.id("hub", "hub"),
                Direction::Out,
                Some(&[EdgeKind::Calls]),
                1,
                2,
            )
            .unwrap();
        assert_eq!(r.total, 6, "{r:?}");
        r.neighbors
            .iter()
            .map(|n| n.node.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        answer(&whole),
        [whole.id("m1", "f1"), whole.id("m2", "f2")],
        "the two smallest IDs among equals"
    );
    assert_eq!(answer(&stepwise), answer(&whole));
}

#[test]
fn a_file_exports_its_own_exported_definitions() {
    let fx = Fixture::new(&[("lib", "def function open\ndef function _hidden priv\n")]);
    fx.rebuild();
    let exports: Vec<String> = fx
        .map
        .neighbors(
            &fx.file_id("lib"),
            Direction::Out,
            Some(&[EdgeKind::Exports]),
            1,
            50,
        )
        .unwrap()
        .neighbors
        .into_iter()
        .map(|n| n.node.id)
        .collect();
    assert_eq!(exports, [fx.id("lib", "open")]);
    // And the definition is exported by its file.
    let by = fx
        .map
        .neighbors(
            &fx.id("lib", "open"),
            Direction::In,
            Some(&[EdgeKind::Exports]),
            1,
            50,
        )
        .unwrap();
    assert_eq!(by.neighbors[0].node.id, fx.file_id("lib"));
}

#[test]
fn a_call_chain_goes_on_through_an_overload_group() {
    // `run` calls `step`; the map links the call to the first `step`, but the chain goes
    // on from the second (`step~2`), which calls `finish`.
    let fx = Fixture::new(&[(
        "flow",
        "def function finish\ndef function step\ndef function step\nref step calls finish\n\
         def function run\nref run calls step\n",
    )]);
    fx.rebuild();
    let p = fx
        .map
        .path(
            &fx.id("flow", "run"),
            &fx.id("flow", "finish"),
            Some(&[EdgeKind::Calls]),
            6,
        )
        .unwrap();
    assert!(p.found, "{p:?}");
    let ids: Vec<&str> = p.path.iter().map(|s| s.node.id.as_str()).collect();
    assert_eq!(ids[1], fx.id("flow", "step~2"), "{ids:?}");
}

/// A map that derives lazily (ranks, clusters, search computed on the first query, as
/// `navmap rebuild` and the other commands open it) answers exactly as an eager one, after
/// a build, after a reopen and after an incremental change.
#[test]
fn a_lazily_derived_map_answers_as_an_eager_one() {
    let dir = tempfile::tempdir().unwrap();
    let write = |p: &str, t: &str| {
        let abs = dir.path().join(p);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
        std::fs::write(abs, t).unwrap();
    };
    write(
        "pkg/store.py",
        "class Store:\n    def get(self):\n        return 1\n",
    );
    write(
        "pkg/api.py",
        "from pkg.store import Store\n\ndef handle():\n    return Store().get()\n",
    );
    write(
        "pkg/util.py",
        "def helper():\n    return handle_it()\n\ndef handle_it():\n    pass\n",
    );
    let open = |eager: bool, db: &str| {
        let mut config = MapConfig::new(dir.path());
        config.db_path = Some(dir.path().join(db));
        config.derive_eagerly = eager;
        Map::open(config, registry()).unwrap().0
    };
    let answers = |m: &Map| {
        let search: Vec<(String, u32)> = m
            .search("handle", None, 20)
            .unwrap()
            .results
            .into_iter()
            .map(|r| (r.node.id, (r.rank * 1e4) as u32))
            .collect();
        let overview = format!("{:?}", m.overview(None, 5).unwrap().clusters);
        (search, overview)
    };
    let (eager, lazy) = (open(true, "eager.db"), open(false, "lazy.db"));
    for m in [&eager, &lazy] {
        m.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    }
    assert!(!answers(&eager).0.is_empty());
    assert_eq!(answers(&eager), answers(&lazy), "after a build");
    // An incremental change: a lazy map that has answered updates what it derived.
    write("pkg/more.py", "def handle_more():\n    return 2\n");
    for m in [&eager, &lazy] {
        m.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    }
    assert_eq!(answers(&eager), answers(&lazy), "after a change");
    assert!(
        answers(&lazy)
            .0
            .iter()
            .any(|(id, _)| id.ends_with("#handle_more"))
    );
    // Reopened lazily, then changed before any query: derived from scratch on first use.
    drop(lazy);
    let lazy = open(false, "lazy.db");
    write("pkg/last.py", "def handle_last():\n    return 3\n");
    lazy.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    eager.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert_eq!(
        answers(&eager),
        answers(&lazy),
        "reopened, changed, then asked"
    );
}

/// A name used as a value is linked where it is known for sure (the scope walk: `exact`;
/// an import: `import`), never by the repository's name alone, and a word of unparsed text
/// (a macro's body) never.
#[test]
fn a_value_mention_links_in_scope_and_through_imports_only() {
    let fx = Fixture::new(&[
        ("codec", "def class Encoder\n"),
        ("extra", "def function hook\n"),
        (
            "api",
            "import ./codec Encoder\n\
             def function factory\ndef function make\n\
             def function dump\nmention dump value Encoder\nmention dump value factory\n\
             mention dump value hook\n\
             def function macro\nmention macro text make\n",
        ),
    ]);
    fx.rebuild();
    let out = fx.out(&fx.id("api", "dump"));
    let refs = EdgeKind::References;
    assert!(
        has(&out, &fx.id("codec", "Encoder"), refs, Confidence::Import),
        "{out:?}"
    );
    assert!(
        has(&out, &fx.id("api", "factory"), refs, Confidence::Exact),
        "{out:?}"
    );
    // `hook` is only a name somewhere else: no edge (it stays an unlinked mention).
    assert!(
        !out.iter().any(|e| e.0 == fx.id("extra", "hook")),
        "{out:?}"
    );
    assert!(fx.out(&fx.id("api", "macro")).is_empty());
}

/// Node IDs are not kept but derived (issue 19): every node's ID is the one the contract
/// writes (`<lang>:<path>`, `…#<qname>[~n]`, `<lang>:ext:<package>`), and an ID finds its
/// node — after a build, after an edit that renumbers duplicates, and after a reload —
/// even where a path holds `#` and a qualified name `~`.
#[test]
fn a_derived_node_id_is_the_written_one_and_finds_its_node() {
    let fx = Fixture::new(&[
        ("a#b", "def function f\ndef function f\ndef class T~2\n"),
        (
            "dup",
            "import os\ndef function g\ndef class K\ndef function K.m\ndef function g\n\
             def function g\ndef function K.m\n",
        ),
    ]);
    fx.rebuild();
    let check = |map: &Map, want: &[String]| {
        let st = map.read().unwrap();
        let m = &st.model;
        let mut ids: Vec<String> = Vec::new();
        for ix in m.node_ixs() {
            let n = m.n(ix);
            let id = m.node_id(ix);
            let written = match n.file.get() {
                None => id::external_id(m.lang(n.lang), m.qname(n)),
                Some(f) if n.kind == NodeKind::File => id::file_id(m.lang(n.lang), &m.f(f).path),
                Some(f) => id::symbol_id(m.lang(n.lang), &m.f(f).path, m.qname(n), n.dup),
            };
            assert_eq!(id, written);
            assert_eq!(m.find_id(&id), Some(ix), "{id}");
            ids.push(id);
        }
        for (i, a) in ids.iter().enumerate() {
            for (j, b) in ids.iter().enumerate() {
                let (x, y) = (m.node_ixs().nth(i).unwrap(), m.node_ixs().nth(j).unwrap());
                assert_eq!(m.cmp_ids(x, y), a.cmp(b), "{a} {b}");
            }
        }
        ids.sort();
        assert_eq!(ids, want);
        for missing in ["#g~4", "#g~1", "#K.m~3", "#T", "#nope", ""] {
            let id = format!("{}{missing}", fx.file_id("dup").replace("dup", "nope"));
            assert_eq!(m.find_id(&id), None, "{id}");
            let id = format!("{}{missing}", fx.file_id("dup"));
            assert!(missing.is_empty() || m.find_id(&id).is_none(), "{id}");
        }
    };
    let ext = format!("{}:ext:os", fx.lang);
    let mut want = vec![
        fx.file_id("a#b"),
        fx.id("a#b", "T~2"),
        fx.id("a#b", "f"),
        fx.id("a#b", "f~2"),
        fx.file_id("dup"),
        fx.id("dup", "K"),
        fx.id("dup", "K.m"),
        fx.id("dup", "K.m~2"),
        fx.id("dup", "g"),
        fx.id("dup", "g~2"),
        fx.id("dup", "g~3"),
        ext.clone(),
    ];
    want.sort();
    check(&fx.map, &want);
    assert_eq!(fx.map.node(&fx.id("dup", "g~3")).unwrap().line, Some(6));
    check(&fx.reopen().0, &want);
    // One `g` fewer: `g~3` is gone, `g~2` is what was `g~3`'s line.
    fx.write(
        "dup",
        "import os\ndef class K\ndef function K.m\ndef function g\ndef function g\n\
         def function K.m\n",
    );
    fx.rebuild();
    want.retain(|w| *w != fx.id("dup", "g~3"));
    check(&fx.map, &want);
    assert_eq!(fx.map.node(&fx.id("dup", "g~2")).unwrap().line, Some(5));
    assert!(fx.map.node(&fx.id("dup", "g~3")).is_err());
    check(&fx.reopen().0, &want);
}

/// Overloads (`put`, `put~2`: one owner, one qualified name) are chosen by the call's
/// number of arguments: the one overload that accepts it, with the lookup's confidence;
/// several, none, or an unknown number: a candidate of each (of those that accept, else
/// of all). A group none of whose members has an arity (a language whose queries capture
/// no parameters) keeps the lookup's answer, the first. The arities survive a reopen
/// (stored in the nodes' and refs' blobs).
#[test]
fn overloads_are_chosen_by_the_number_of_arguments() {
    let fx = Fixture::new(&[(
        "store",
        "def class Store\n\
         def method Store.put args=1..1\n\
         def method Store.put args=2..3\n\
         def method Store.log args=1..\n\
         def method Store.log args=0..0\n\
         def method Store.old\n\
         def method Store.old\n\
         def method Store.one\nref Store.one calls put self args=1\n\
         def method Store.two\nref Store.two calls put self args=3\n\
         def method Store.four\nref Store.four calls put self args=4\n\
         def method Store.spread\nref Store.spread calls put self\n\
         def method Store.many\nref Store.many calls log self args=2\n\
         def method Store.redefined\nref Store.redefined calls old self args=1\n",
    )]);
    fx.rebuild();
    let put = fx.id("store", "Store.put");
    let put2 = fx.id("store", "Store.put~2");
    let callees = |map: &Map, from: &str| -> Vec<(String, Confidence)> {
        let mut v: Vec<_> = map
            .neighbors(&fx.id("store", from), Direction::Out, None, 1, 200)
            .unwrap()
            .neighbors
            .into_iter()
            .filter(|n| n.edge == EdgeKind::Calls)
            .map(|n| (n.node.id, n.confidence))
            .collect();
        v.sort();
        v
    };
    let check = |map: &Map| {
        assert_eq!(
            callees(map, "Store.one"),
            [(put.clone(), Confidence::Exact)]
        );
        assert_eq!(
            callees(map, "Store.two"),
            [(put2.clone(), Confidence::Exact)]
        );
        let both = [
            (put.clone(), Confidence::Candidate),
            (put2.clone(), Confidence::Candidate),
        ];
        assert_eq!(callees(map, "Store.four"), both);
        assert_eq!(callees(map, "Store.spread"), both);
        assert_eq!(
            callees(map, "Store.many"),
            [(fx.id("store", "Store.log"), Confidence::Exact)]
        );
        assert_eq!(
            callees(map, "Store.redefined"),
            [(fx.id("store", "Store.old"), Confidence::Exact)]
        );
    };
    check(&fx.map);
    let (reopened, _) = fx.reopen();
    check(&reopened);
}

impl Fixture {
    /// Another map of the fixture's root and database that keeps each file's references
    /// and mentions in the database (`MapConfig::uses_on_demand`, what `serve` opens).
    fn open_uses_on_demand(&self) -> Map {
        let mut config = MapConfig::new(self.dir.path());
        config.uses_on_demand = true;
        Map::open_with(config, registry(), self.toy.clone())
            .unwrap()
            .0
    }

    /// Another process edits `store` and rebuilds the database from scratch (what
    /// `navmap rebuild --full` in a shell does): the fixture's own map writes it, so every
    /// other map opened before holds another build than the database's.
    fn another_process_rebuilds_from_scratch(&self) {
        self.write(
            "store",
            "def class SessionStore\ndef method SessionStore.get\nref SessionStore.get calls fetch\n",
        );
        rebuild_from_scratch(&self.map);
    }
}

/// `map_rebuild {full: true}`.
fn rebuild_from_scratch(map: &Map) -> RebuildSummary {
    map.rebuild(
        RebuildOptions {
            full: true,
            ..Default::default()
        },
        &|_| {},
    )
    .unwrap()
}

/// Every answer about uses a map gives: the mention check and the callee check of every
/// node of every file.
fn uses_answers(map: &Map) -> Vec<String> {
    let mut out = Vec::new();
    for file in map.files().unwrap() {
        for node in map.nodes_in_file(&file).unwrap() {
            let mentions = map.mention_check(&node.id);
            let callees = map.callee_check(&node.id);
            out.push(format!("{} {mentions:?} {callees:?}", node.id));
        }
    }
    out
}

/// What the model holds of each indexed file's references and mentions: `(held, on disk)`.
fn uses_held(map: &Map) -> (usize, usize) {
    let st = map.read().unwrap();
    let files: Vec<_> = st
        .model
        .files
        .iter()
        .flatten()
        .filter(|f| f.node.is_some())
        .collect();
    let on_disk = files.iter().filter(|f| f.uses_on_disk).count();
    (files.len() - on_disk, on_disk)
}

/// A map that keeps each file's references and mentions in the database (issue 19:
/// `serve`) answers about uses as a map that holds them: once loaded, after an edit, a
/// new file and a removed one rebuilt through it, and after a rebuild from scratch; and it
/// holds none of them between builds.
#[test]
fn uses_read_from_the_database_answer_as_held_ones() {
    let mut files = shop();
    files.push((
        "cli",
        "import ./store SessionStore\ndef function run\nref run calls refresh s\n\
         mention run value SessionStore\nref - calls run\n",
    ));
    let fx = Fixture::new(&files);
    fx.rebuild();
    let lazy = fx.open_uses_on_demand();
    assert_eq!(uses_held(&lazy), (0, files.len()));
    let before = uses_answers(&fx.map);
    assert!(
        before.iter().any(|a| a.contains("unlinked: [MentionSite")),
        "{before:?}"
    );
    assert_eq!(uses_answers(&lazy), before);

    // An edit, a new file and a removed one, rebuilt by the map that reads from disk.
    fx.write(
        "api",
        "import ./store SessionStore\ndef function handle_refresh\n\
         ref handle_refresh calls refresh store\ndef function make\nref make calls SessionStore\n\
         mention make value helper\n",
    );
    fx.write(
        "extra",
        "def function refresh\nref refresh calls get cache\n",
    );
    fx.remove("util/misc");
    let summary = lazy.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert!(summary.files_indexed >= 2, "{summary:?}");
    assert_eq!(uses_held(&lazy).0, 0);
    let held = fx.reopen().0;
    assert_eq!(uses_answers(&lazy), uses_answers(&held));

    // From scratch.
    rebuild_from_scratch(&lazy);
    assert_eq!(uses_held(&lazy).0, 0);
    assert_eq!(uses_answers(&lazy), uses_answers(&fx.reopen().0));
}

/// Two writers: a map that holds its uses, loaded before another process rebuilt the
/// database from scratch after an edit, rebuilds incrementally afterwards. The database's
/// generation is not its own, and the other build is whole: it loads that build instead of
/// its own model (as an open would) and goes on incrementally from there — nothing to index
/// when nothing changed since, only the changed file after an edit — so the database it
/// leaves is whole: reopened, it answers as the map does. A database another build left
/// dirty (interrupted, or being rebuilt) cannot be loaded: the rebuild starts from scratch,
/// numbered after it.
#[test]
fn a_rebuild_after_another_process_rebuilt_the_map_loads_its_build() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let (held, _) = fx.reopen();
    let before = held.status().unwrap().generation;
    fx.another_process_rebuilds_from_scratch();
    let theirs = fx.map.status().unwrap().generation;
    assert!(theirs > before);
    let summary = held.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert_eq!(
        (summary.files_indexed, summary.generation),
        (0, theirs),
        "{summary:?}"
    );
    assert_eq!(uses_answers(&held), uses_answers(&fx.reopen().0));

    // An edit after it: the one file, on top of the other build.
    fx.write(
        "util/misc",
        "def function helper\nref helper calls refresh\n",
    );
    let summary = held.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert_eq!(summary.files_indexed, 1, "{summary:?}");
    assert!(summary.generation > theirs, "{summary:?}");
    let (reopened, warnings) = fx.reopen();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(uses_answers(&reopened), uses_answers(&held));
    assert_eq!(reopened.status().unwrap().generation, summary.generation);

    // Another build left the database dirty: from scratch.
    fx.another_process_rebuilds_from_scratch();
    let theirs = fx.map.status().unwrap().generation;
    {
        let db = fx.map.inner.db.lock().unwrap();
        db.conn
            .execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('dirty', '1')",
                [],
            )
            .unwrap();
    }
    let summary = held.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert!(summary.generation > theirs, "{summary:?}");
    assert_eq!(summary.files_indexed, summary.files, "{summary:?}");
    let (reopened, warnings) = fx.reopen();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(uses_answers(&reopened), uses_answers(&held));
}

/// A rebuild waits while another process holds the map database for its rebuild (the lock
/// `build.rs` `wait_for_other_writers` takes), then goes on: two writers' rows never
/// interleave in one database.
#[test]
fn a_rebuild_waits_for_another_process_rebuilding_the_same_database() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let (held, _) = fx.reopen();
    let other = std::fs::File::open(&fx.map.inner.db_path).unwrap();
    other.lock().unwrap();
    fx.write(
        "util/misc",
        "def function helper\nref helper calls refresh\n",
    );
    let (finished, done) = std::sync::mpsc::channel();
    let waiting = std::thread::spawn(move || {
        let summary = held.rebuild(RebuildOptions::default(), &|_| {});
        finished.send(()).unwrap();
        summary
    });
    assert!(
        done.recv_timeout(std::time::Duration::from_millis(500))
            .is_err(),
        "the rebuild must wait for the other writer"
    );
    drop(other);
    let summary = waiting.join().unwrap().unwrap();
    assert_eq!(summary.files_indexed, 1, "{summary:?}");
    let (reopened, warnings) = fx.reopen();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(reopened.status().unwrap().generation, summary.generation);
}

/// When the database no longer holds what a map that reads uses from it was loaded with
/// (another process rebuilt it, here from scratch after an edit; or it is gone), a check of
/// uses is unavailable with the reason (`MapError::Unreadable`'s message) — never another
/// build's facts, never a panic — until the map's own rebuild writes its build there again.
#[test]
fn uses_the_database_no_longer_holds_are_unavailable_not_another_builds() {
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let lazy = fx.open_uses_on_demand();
    let get = fx.id("store", "SessionStore.get");
    assert!(lazy.mention_check(&get).is_ok());
    fx.another_process_rebuilds_from_scratch();
    for answer in [lazy.mention_check(&get), lazy.callee_check(&get)] {
        assert_unavailable(answer);
    }
    // Files the other build did not change belong to another build all the same.
    let main = fx.id("app", "main");
    assert_unavailable(lazy.callee_check(&main));
    // Other errors stay errors.
    assert!(matches!(
        lazy.mention_check("py:nowhere.py#f"),
        Err(MapError::NodeNotFound(_))
    ));
    // Its own rebuild, incremental as asked, sees the database rebuilt elsewhere (another
    // generation) and loads that build: every row its build's again, whichever node
    // numbers the other build gave (before: only the edited file's row was written, and
    // the other rows stayed unreadable whenever the numbers differed).
    lazy.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    for answer in [lazy.mention_check(&get), lazy.callee_check(&main)] {
        assert_eq!(answer.unwrap().unavailable, None);
    }
    assert_eq!(uses_answers(&lazy), uses_answers(&fx.reopen().0));

    // A database that cannot be opened.
    let fx = Fixture::new(&shop());
    fx.rebuild();
    let gone = fx.open_uses_on_demand();
    for suffix in ["", "-wal", "-shm"] {
        let mut p = gone.db_path().as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(std::path::PathBuf::from(p));
    }
    assert_unavailable(gone.mention_check(&get));
}

/// An unavailable check: the reason, and no rows (never another build's, never "nothing
/// unlinked").
fn assert_unavailable(answer: Result<MentionCheck, MapError>) {
    let check = answer.unwrap();
    let why = check.unavailable.as_deref().unwrap_or_default();
    assert!(why.starts_with("The map database "), "{check:?}");
    assert_eq!(
        (
            check.linked,
            check.linked_sites.len(),
            check.excluded,
            check.unlinked.len()
        ),
        (0, 0, 0, 0),
        "{check:?}"
    );
}
