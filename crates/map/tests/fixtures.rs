//! The map on the real fixtures (`fixtures/<lang>/`, see `fixtures/README.md` for the known
//! answers) with real extraction: each test copies a fixture to a temporary directory,
//! builds, and asks the questions of issue 3's "done when".

use std::path::{Path, PathBuf};
use std::sync::Arc;

use navmap_map::*;

struct Case {
    dir: &'static str,
    store_class: &'static str,
    refresh: &'static str,
    put: &'static str,
    caller: &'static str,
    api_file: &'static str,
    store_file: &'static str,
    clash_site: &'static str,
    clash_defs: [&'static str; 2],
    token_file: &'static str,
    /// (node making the standard-library call, the local method it must not reach).
    stdlib: (&'static str, &'static str),
    /// The caller's call to refresh, and the same call to put.
    call: (&'static str, &'static str),
}

const CASES: [Case; 16] = [
    Case {
        dir: "py",
        store_class: "py:shop/store.py#SessionStore",
        refresh: "py:shop/store.py#SessionStore.refresh",
        put: "py:shop/store.py#SessionStore.put",
        caller: "py:shop/api.py#handle_refresh",
        api_file: "shop/api.py",
        store_file: "shop/store.py",
        clash_site: "py:shop/api.py#check",
        clash_defs: [
            "py:shop/util/email.py#validate",
            "py:shop/util/token.py#validate",
        ],
        token_file: "shop/util/token.py",
        stdlib: (
            "py:shop/store.py#SessionStore.get",
            "py:shop/store.py#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "ts",
        store_class: "ts:src/store.ts#SessionStore",
        refresh: "ts:src/store.ts#SessionStore.refresh",
        put: "ts:src/store.ts#SessionStore.put",
        caller: "ts:src/api.ts#handleRefresh",
        api_file: "src/api.ts",
        store_file: "src/store.ts",
        clash_site: "ts:src/api.ts#check",
        clash_defs: [
            "ts:src/util/email.ts#validate",
            "ts:src/util/token.ts#validate",
        ],
        token_file: "src/util/token.ts",
        stdlib: (
            "ts:src/store.ts#SessionStore.get",
            "ts:src/store.ts#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "js",
        store_class: "js:src/store.js#SessionStore",
        refresh: "js:src/store.js#SessionStore.refresh",
        put: "js:src/store.js#SessionStore.put",
        caller: "js:src/api.js#handleRefresh",
        api_file: "src/api.js",
        store_file: "src/store.js",
        clash_site: "js:src/api.js#check",
        clash_defs: [
            "js:src/util/email.js#validate",
            "js:src/util/token.js#validate",
        ],
        token_file: "src/util/token.js",
        stdlib: (
            "js:src/store.js#SessionStore.get",
            "js:src/store.js#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "rs",
        store_class: "rs:src/store.rs#SessionStore",
        refresh: "rs:src/store.rs#SessionStore.refresh",
        put: "rs:src/store.rs#SessionStore.put",
        caller: "rs:src/api.rs#handle_refresh",
        api_file: "src/api.rs",
        store_file: "src/store.rs",
        clash_site: "rs:src/api.rs#check",
        clash_defs: [
            "rs:src/util/email.rs#validate",
            "rs:src/util/token.rs#validate",
        ],
        token_file: "src/util/token.rs",
        stdlib: (
            "rs:src/store.rs#SessionStore.get",
            "rs:src/store.rs#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "go",
        store_class: "go:store/store.go#SessionStore",
        refresh: "go:store/store.go#SessionStore.Refresh",
        put: "go:store/store.go#SessionStore.Put",
        caller: "go:api/api.go#HandleRefresh",
        api_file: "api/api.go",
        store_file: "store/store.go",
        clash_site: "go:api/api.go#Check",
        clash_defs: [
            "go:util/email/email.go#Validate",
            "go:util/token/token.go#Validate",
        ],
        token_file: "util/token/token.go",
        stdlib: (
            "go:api/api.go#Handler",
            "go:store/store.go#SessionStore.Get",
        ),
        call: ("s.Refresh(key)", "s.Put(key)"),
    },
    Case {
        dir: "java",
        store_class: "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore",
        refresh: "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore.refresh",
        put: "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore.put",
        caller: "java:src/main/java/com/example/shop/api/Api.java#Api.handleRefresh",
        api_file: "src/main/java/com/example/shop/api/Api.java",
        store_file: "src/main/java/com/example/shop/store/SessionStore.java",
        clash_site: "java:src/main/java/com/example/shop/api/Api.java#Api.check",
        clash_defs: [
            "java:src/main/java/com/example/shop/util/Email.java#Email.validate",
            "java:src/main/java/com/example/shop/util/Token.java#Token.validate",
        ],
        token_file: "src/main/java/com/example/shop/util/Token.java",
        stdlib: (
            "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore.get",
            "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "kt",
        store_class: "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore",
        refresh: "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore.refresh",
        put: "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore.put",
        caller: "kt:src/main/kotlin/com/example/shop/api/Api.kt#handleRefresh",
        api_file: "src/main/kotlin/com/example/shop/api/Api.kt",
        store_file: "src/main/kotlin/com/example/shop/store/SessionStore.kt",
        clash_site: "kt:src/main/kotlin/com/example/shop/api/Api.kt#check",
        clash_defs: [
            "kt:src/main/kotlin/com/example/shop/util/Email.kt#Email.validate",
            "kt:src/main/kotlin/com/example/shop/util/Token.kt#Token.validate",
        ],
        token_file: "src/main/kotlin/com/example/shop/util/Token.kt",
        stdlib: (
            "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore.get",
            "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "cs",
        store_class: "cs:Store/SessionStore.cs#SessionStore",
        refresh: "cs:Store/SessionStore.cs#SessionStore.Refresh",
        put: "cs:Store/SessionStore.cs#SessionStore.Put",
        caller: "cs:Api/Api.cs#Api.HandleRefresh",
        api_file: "Api/Api.cs",
        store_file: "Store/SessionStore.cs",
        clash_site: "cs:Api/Api.cs#Api.Check",
        clash_defs: [
            "cs:Util/Email.cs#Email.Validate",
            "cs:Checks/Token.cs#Token.Validate",
        ],
        token_file: "Checks/Token.cs",
        // `data.Remove(key)` on a Dictionary inside SessionStore.Remove.
        stdlib: (
            "cs:Store/SessionStore.cs#SessionStore.Remove",
            "cs:Store/SessionStore.cs#SessionStore.Remove",
        ),
        call: ("store.Refresh(key)", "store.Put(key)"),
    },
    Case {
        dir: "scala",
        store_class: "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore",
        refresh: "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore.refresh",
        put: "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore.put",
        caller: "scala:src/main/scala/com/example/shop/api/Api.scala#Api.handleRefresh",
        api_file: "src/main/scala/com/example/shop/api/Api.scala",
        store_file: "src/main/scala/com/example/shop/store/SessionStore.scala",
        clash_site: "scala:src/main/scala/com/example/shop/api/Api.scala#Api.check",
        clash_defs: [
            "scala:src/main/scala/com/example/shop/util/Email.scala#Email.validate",
            "scala:src/main/scala/com/example/shop/util/Token.scala#Token.validate",
        ],
        token_file: "src/main/scala/com/example/shop/util/Token.scala",
        stdlib: (
            "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore.get",
            "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "cpp",
        store_class: "cpp:include/store.hpp#SessionStore",
        refresh: "cpp:src/store.cpp#SessionStore.refresh",
        put: "cpp:src/store.cpp#SessionStore.put",
        caller: "cpp:src/api.cpp#handle_refresh",
        api_file: "src/api.cpp",
        store_file: "src/store.cpp",
        clash_site: "cpp:src/api.cpp#check",
        clash_defs: [
            "cpp:src/util/email.cpp#validate",
            "cpp:src/util/token.cpp#validate",
        ],
        token_file: "src/util/token.cpp",
        stdlib: (
            "cpp:src/store.cpp#SessionStore.get",
            "cpp:src/store.cpp#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key, label)"),
    },
    Case {
        dir: "c",
        store_class: "c:include/store.h#SessionStore",
        refresh: "c:src/store.c#store_refresh",
        put: "c:src/store.c#store_put",
        caller: "c:src/api.c#handle_refresh",
        api_file: "src/api.c",
        store_file: "src/store.c",
        clash_site: "c:src/util/check.c#check",
        clash_defs: ["c:src/util/email.c#validate", "c:src/util/token.c#validate"],
        token_file: "src/util/token.c",
        stdlib: (
            "c:src/store.c#store_free",
            "c:include/base.h#BaseStore.free",
        ),
        call: ("store_refresh(store, key)", "store_put(store, key, label)"),
    },
    Case {
        dir: "swift",
        store_class: "swift:Sources/Store/Store.swift#SessionStore",
        refresh: "swift:Sources/Store/Store.swift#SessionStore.refresh",
        put: "swift:Sources/Store/Store.swift#SessionStore.put",
        caller: "swift:Sources/Shop/API.swift#handleRefresh",
        api_file: "Sources/Shop/API.swift",
        store_file: "Sources/Store/Store.swift",
        clash_site: "swift:Sources/Shop/API.swift#check",
        clash_defs: [
            "swift:Sources/Shop/util/email.swift#validate",
            "swift:Sources/Shop/util/token.swift#validate",
        ],
        token_file: "Sources/Shop/util/token.swift",
        stdlib: (
            "swift:Sources/Shop/API.swift#loadedValue",
            "swift:Sources/Store/Store.swift#SessionStore.get",
        ),
        call: ("store.refresh(key)", "store.put(key, label)"),
    },
    Case {
        dir: "php",
        store_class: "php:src/SessionStore.php#SessionStore",
        refresh: "php:src/SessionStore.php#SessionStore.refresh",
        put: "php:src/SessionStore.php#SessionStore.put",
        caller: "php:src/Api.php#Api.handleRefresh",
        api_file: "src/Api.php",
        store_file: "src/SessionStore.php",
        clash_site: "php:src/Api.php#Api.check",
        clash_defs: [
            "php:src/Util/Email.php#Email.validate",
            "php:src/Util/Token.php#Token.validate",
        ],
        token_file: "src/Util/Token.php",
        stdlib: (
            "php:src/SessionStore.php#SessionStore.count",
            "php:src/SessionStore.php#SessionStore.count",
        ),
        call: ("$store->refresh($key)", "$store->put($key, [])"),
    },
    Case {
        // Bash: the store is an associative array beside the functions that use it.
        dir: "sh",
        store_class: "sh:lib/store.sh#SessionStore",
        refresh: "sh:lib/store.sh#store_refresh",
        put: "sh:lib/store.sh#store_put",
        caller: "sh:lib/api.sh#handle_refresh",
        api_file: "lib/api.sh",
        store_file: "lib/store.sh",
        clash_site: "sh:lib/api.sh#check",
        clash_defs: [
            "sh:lib/util/email.sh#validate",
            "sh:lib/util/token.sh#validate",
        ],
        token_file: "lib/util/token.sh",
        stdlib: ("sh:lib/store.sh#date", "sh:lib/store.sh#date"),
        call: ("store_refresh \"$1\"", "store_put \"$1\" 0"),
    },
    Case {
        dir: "rb",
        store_class: "rb:lib/shop/session_store.rb#Shop.SessionStore",
        refresh: "rb:lib/shop/session_store.rb#Shop.SessionStore.refresh",
        put: "rb:lib/shop/session_store.rb#Shop.SessionStore.put",
        caller: "rb:lib/shop/api.rb#Shop.Api.handle_refresh",
        api_file: "lib/shop/api.rb",
        store_file: "lib/shop/session_store.rb",
        clash_site: "rb:lib/shop/api.rb#Shop.Api.check",
        clash_defs: [
            "rb:lib/shop/util/email.rb#Shop.Util.Email.validate",
            "rb:lib/shop/util/token.rb#Shop.Util.Token.validate",
        ],
        token_file: "lib/shop/util/token.rb",
        stdlib: (
            "rb:lib/shop/session_store.rb#Shop.SessionStore.size",
            "rb:lib/shop/session_store.rb#Shop.SessionStore.size",
        ),
        call: ("STORE.refresh(key)", "STORE.put(key, {})"),
    },
    Case {
        dir: "lua",
        store_class: "lua:src/shop/store.lua#SessionStore",
        refresh: "lua:src/shop/store.lua#SessionStore.refresh",
        put: "lua:src/shop/store.lua#SessionStore.put",
        caller: "lua:src/shop/api.lua#api.handle_refresh",
        api_file: "src/shop/api.lua",
        store_file: "src/shop/store.lua",
        clash_site: "lua:src/shop/api.lua#api.check",
        clash_defs: [
            "lua:src/shop/util/email.lua#email.validate",
            "lua:src/shop/util/token.lua#token.validate",
        ],
        token_file: "src/shop/util/token.lua",
        stdlib: (
            "lua:src/shop/store.lua#SessionStore.format",
            "lua:src/shop/store.lua#SessionStore.format",
        ),
        call: ("store:refresh(key)", "store:put(key, {})"),
    },
];

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Every file below `dir` but the map's own folder.
fn walk_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if !path.ends_with(".navmap") {
                walk_files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

struct Built {
    dir: tempfile::TempDir,
    map: Map,
    first: RebuildSummary,
}

/// The map of a scratch root, opened and built.
fn built_map(root: &Path) -> Map {
    let (map, _) = Map::open(MapConfig::new(root), Arc::new(navmap_grammars::registry())).unwrap();
    map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    map
}

/// The fixture of one language directory (`fixtures/<dir>`), built.
fn build_fixture(dir: &str) -> Built {
    build(CASES.iter().find(|c| c.dir == dir).unwrap())
}

/// Callers as `callers` gives them, all at one tier.
fn at_tier(conf: Confidence, ids: &[&str]) -> Vec<(String, Confidence)> {
    ids.iter().map(|id| (id.to_string(), conf)).collect()
}

fn build(case: &Case) -> Built {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures_dir().join(case.dir), dir.path());
    built_in(dir)
}

/// The map of what `dir` holds, opened without warnings and built once.
fn built_in(dir: tempfile::TempDir) -> Built {
    let (map, warnings) = Map::open(
        MapConfig::new(dir.path()),
        Arc::new(navmap_grammars::registry()),
    )
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let first = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    Built { dir, map, first }
}

impl Built {
    fn rebuild(&self) -> RebuildSummary {
        self.map
            .rebuild(RebuildOptions::default(), &|_| {})
            .unwrap()
    }

    fn edges(&self, id: &str, dir: Direction) -> Vec<Neighbor> {
        self.map
            .neighbors(id, dir, None, 1, 200)
            .unwrap_or_else(|e| panic!("{id}: {e}"))
            .neighbors
            .into_iter()
            .filter(|n| n.edge != EdgeKind::Contains)
            .collect()
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        let p = self.dir.path().join(file);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "{file} does not contain {from:?}");
        std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    }
}

#[test]
fn status_matches_the_build_summary() {
    for case in &CASES {
        let b = build(case);
        let s = &b.first;
        assert!(
            s.files > 0 && s.symbols > 0 && s.edges > 0,
            "{}: {s:?}",
            case.dir
        );
        assert_eq!(s.files_indexed, s.files, "{}", case.dir);
        let st = b.map.status().unwrap();
        assert!(st.built);
        assert_eq!(
            (
                st.files as u64,
                st.symbols as u64,
                st.edges as u64,
                st.generation
            ),
            (s.files, s.symbols, s.edges, s.generation),
            "{}",
            case.dir
        );
        assert_eq!(st.languages.keys().collect::<Vec<_>>(), vec![case.dir]);
        assert!(b.dir.path().join(".navmap/.gitignore").exists());
    }
}

#[test]
fn search_finds_the_store_by_exact_name_and_by_a_typo() {
    for case in &CASES {
        let b = build(case);
        let exact = b.map.search("SessionStore", None, 10).unwrap();
        assert_eq!(exact.results[0].node.id, case.store_class, "{}", case.dir);
        assert_eq!(exact.results[0].matched, MatchKind::Exact);
        for typo in ["SesionStore", "SessoinStore", "sessionstor"] {
            let r = b.map.search(typo, None, 10).unwrap();
            assert_eq!(
                r.results[0].node.id, case.store_class,
                "{}: {typo}",
                case.dir
            );
        }
        let classes = b
            .map
            .search(
                "Store",
                Some(b.map.node(case.store_class).unwrap().kind),
                20,
            )
            .unwrap();
        assert!(
            classes
                .results
                .iter()
                .any(|h| h.node.id == case.store_class)
        );
    }
}

#[test]
fn the_api_caller_of_refresh_is_resolved() {
    for case in &CASES {
        let b = build(case);
        let callers = b.edges(case.refresh, Direction::In);
        let caller = callers
            .iter()
            .find(|n| n.node.id == case.caller)
            .unwrap_or_else(|| panic!("{}: no edge from {} in {callers:?}", case.dir, case.caller));
        assert_eq!(caller.edge, EdgeKind::Calls);
        assert_ne!(caller.confidence, Confidence::Candidate, "{}", case.dir);
        assert!(caller.resolved);
    }
}

#[test]
fn the_name_clash_is_a_candidate_never_exact() {
    for case in &CASES {
        let b = build(case);
        // The calls only: a table naming both functions (Rust's `check`) is also a use of
        // each, which a listing of every edge kind shows instead.
        let out = b
            .map
            .neighbors(
                case.clash_site,
                Direction::Out,
                Some(&[EdgeKind::Calls]),
                1,
                200,
            )
            .unwrap()
            .neighbors;
        // Where receivers are statically typed (`dispatch_families`) and both definitions
        // implement one interface's method, the call is that method's, at `name` tier:
        // javac binds `checker.validate(…)` to `Validator.validate` (jdtls lists it as a
        // reference of all three); the implementations are reached by dispatch.
        let root = match case.dir {
            "java" => {
                Some("java:src/main/java/com/example/shop/util/Validator.java#Validator.validate")
            }
            _ => None,
        };
        if let Some(root) = root {
            let e = out.iter().find(|n| n.node.id == root);
            assert_eq!(e.map(|e| e.confidence), Some(Confidence::Name), "{out:?}");
            for def in case.clash_defs {
                assert!(!out.iter().any(|n| n.node.id == def), "{def}: {out:?}");
            }
            continue;
        }
        for def in case.clash_defs {
            let e = out
                .iter()
                .find(|n| n.node.id == def)
                .unwrap_or_else(|| panic!("{}: {def} not among {out:?}", case.dir));
            assert_eq!(e.confidence, Confidence::Candidate, "{}", case.dir);
            assert!(!e.resolved);
        }
    }
}

#[test]
fn standard_library_calls_make_no_edge_to_local_methods() {
    for case in &CASES {
        let b = build(case);
        let (site, local) = case.stdlib;
        let out = b.edges(site, Direction::Out);
        assert!(
            !out.iter().any(|n| n.node.id == local),
            "{}: {out:?}",
            case.dir
        );
    }
}

#[test]
fn a_path_leads_from_the_api_to_the_store() {
    for case in &CASES {
        let b = build(case);
        let p = b.map.path(case.caller, case.refresh, None, 6).unwrap();
        assert!(p.found, "{}", case.dir);
        assert_eq!(p.path.len(), 2);
        let files = b
            .map
            .path(
                &format!("{}:{}", case.dir, case.api_file),
                // The class, not its file: a path never climbs `contains`, and the API
                // file need not import the store's file (PHP's same namespace, C/C++
                // headers).
                case.store_class,
                None,
                6,
            )
            .unwrap();
        assert!(files.found, "{}", case.dir);
        // The caller reaches the class only through an edge of its own (its typed
        // parameter references it); JS's and Lua's untyped callers have none, and a path never climbs
        // from `refresh` up to its class.
        let to_class = b.map.path(case.caller, case.store_class, None, 6).unwrap();
        assert_eq!(
            to_class.found,
            !["js", "lua"].contains(&case.dir),
            "{}: {to_class:?}",
            case.dir
        );
        // From `refresh` to its class: never by climbing `contains`. (C's `store_refresh`
        // and Bash's `store_refresh` are no members: they reach the store through a
        // parameter's type or a use of the array, references.)
        let up = b.map.path(case.refresh, case.store_class, None, 6).unwrap();
        assert!(
            up.path.iter().all(|s| s
                .edge_to_next
                .as_ref()
                .is_none_or(|e| e.kind != EdgeKind::Contains)),
            "{}: {up:?}",
            case.dir
        );
        // Where `refresh` is a member of the class, nothing else leads up to it.
        if case.refresh.starts_with(&format!("{}.", case.store_class)) {
            assert!(!up.found, "{}: {up:?}", case.dir);
        }
    }
}

#[test]
fn editing_one_file_reindexes_exactly_it_and_updates_its_edges() {
    for case in &CASES {
        let b = build(case);
        let noop = b.rebuild();
        assert_eq!(
            (noop.files_indexed, noop.generation),
            (0, b.first.generation),
            "{}",
            case.dir
        );
        b.edit(case.api_file, case.call.0, case.call.1);
        let s = b.rebuild();
        assert_eq!(s.files_indexed, 1, "{}: {s:?}", case.dir);
        assert_eq!(s.files_deleted, 0);
        assert!(s.generation > b.first.generation);
        let out = b.edges(case.caller, Direction::Out);
        assert!(
            out.iter().any(|n| n.node.id == case.put && n.resolved),
            "{}: {out:?}",
            case.dir
        );
        assert!(
            !out.iter().any(|n| n.node.id == case.refresh),
            "{}",
            case.dir
        );
        assert!(
            b.edges(case.refresh, Direction::In)
                .iter()
                .all(|n| n.node.id != case.caller)
        );
        // And back.
        b.edit(case.api_file, case.call.1, case.call.0);
        assert_eq!(b.rebuild().files_indexed, 1);
        assert!(
            b.edges(case.refresh, Direction::In)
                .iter()
                .any(|n| n.node.id == case.caller)
        );
    }
}

/// An edit that changes no fact of a file (a newline appended) re-resolves that file
/// alone: its imports resolve as before, so nothing it re-exports changed, and its
/// importers keep their edges. (Re-indexed imports used to start unresolved and count as
/// changed: a C header's edit re-resolved every file including it, a Ruby file's every
/// file of the gem.)
#[test]
fn an_edit_that_changes_no_fact_re_resolves_only_its_file() {
    let mut wrong = Vec::new();
    for case in &CASES {
        let b = build(case);
        let mut files = Vec::new();
        walk_files(b.dir.path(), &mut files);
        files.sort();
        for p in files {
            let mut text = std::fs::read_to_string(&p).unwrap();
            text.push('\n');
            std::fs::write(&p, text).unwrap();
            let s = b.rebuild();
            // Files the map does not index (build files, READMEs) index and resolve none.
            if s.files_resolved > s.files_indexed || s.files_indexed > 1 {
                wrong.push(format!(
                    "{}: {}: indexed {}, resolved {}",
                    case.dir,
                    p.strip_prefix(b.dir.path()).unwrap().display(),
                    s.files_indexed,
                    s.files_resolved
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn deleting_and_renaming_files() {
    for case in &CASES {
        let b = build(case);
        let token = b.dir.path().join(case.token_file);
        let renamed = token.with_file_name(format!(
            "renamed_{}",
            token.file_name().unwrap().to_str().unwrap()
        ));
        std::fs::rename(&token, &renamed).unwrap();
        let s = b.rebuild();
        assert_eq!(
            (s.files_indexed, s.files_deleted),
            (1, 1),
            "{}: {s:?}",
            case.dir
        );
        assert!(matches!(
            b.map.node(case.clash_defs[1]),
            Err(MapError::NodeNotFound(_))
        ));
        let (token_dir, token_name) = case
            .token_file
            .rsplit_once('/')
            .unwrap_or(("", case.token_file));
        let new_id = format!("{}:{token_dir}/renamed_{token_name}", case.dir).replace(":/", ":");
        assert!(b.map.node(&new_id).is_ok(), "{}: {new_id}", case.dir);
        std::fs::remove_file(&renamed).unwrap();
        let s = b.rebuild();
        assert_eq!((s.files_indexed, s.files_deleted), (0, 1), "{}", case.dir);
        assert!(b.map.node(&new_id).is_err());
        // Nothing points at a removed node.
        assert!(
            b.edges(case.clash_site, Direction::Out).iter().all(|n| !n
                .node
                .id
                .to_lowercase()
                .contains("token"))
        );
    }
}

#[test]
fn a_file_that_stops_parsing_keeps_what_was_recovered() {
    for case in &CASES {
        let b = build(case);
        let p = b.dir.path().join(case.store_file);
        let mut text = std::fs::read_to_string(&p).unwrap();
        text.push_str("\n)))} {{ ][ <<< \"unterminated\n");
        std::fs::write(&p, text).unwrap();
        let s = b.rebuild();
        assert_eq!(s.files_indexed, 1, "{}", case.dir);
        assert!(
            b.map.status().unwrap().files_with_errors >= 1,
            "{}",
            case.dir
        );
        assert!(b.map.node(case.store_class).is_ok(), "{}", case.dir);
    }
}

#[test]
fn the_database_can_live_outside_the_root() {
    let case = &CASES[0];
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures_dir().join(case.dir), dir.path());
    let dbdir = tempfile::tempdir().unwrap();
    let mut config = MapConfig::new(dir.path());
    config.db_path = Some(dbdir.path().join("x/map.db"));
    let (map, _) = Map::open(config.clone(), Arc::new(navmap_grammars::registry())).unwrap();
    let s = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert!(!dir.path().join(".navmap").exists());
    drop(map);
    let (again, w) = Map::open(config, Arc::new(navmap_grammars::registry())).unwrap();
    assert!(w.is_empty());
    assert_eq!(again.status().unwrap().symbols as u64, s.symbols);
}

#[test]
fn a_changed_resolver_config_re_resolves_imports() {
    let case = &CASES[1];
    let b = build(case);
    let email = case.clash_defs[0];
    assert!(
        b.edges(case.clash_site, Direction::Out)
            .iter()
            .any(|n| n.node.id == email)
    );
    b.edit("tsconfig.json", "\"src/util/*\"", "\"src/nowhere/*\"");
    let s = b.rebuild();
    assert_eq!(s.files_indexed, 0);
    assert!(s.generation > b.first.generation, "{s:?}");
    let out = b.edges(case.clash_site, Direction::Out);
    assert!(!out.iter().any(|n| n.node.id == email), "{out:?}");
    b.edit("tsconfig.json", "\"src/nowhere/*\"", "\"src/util/*\"");
    b.rebuild();
    assert!(
        b.edges(case.clash_site, Direction::Out)
            .iter()
            .any(|n| n.node.id == email)
    );
}

#[test]
fn a_base_list_entry_that_is_an_interface_is_implemented() {
    // C# writes `class A : B, I` for both: the map decides by what the name resolves to.
    let case = CASES.iter().find(|c| c.dir == "cs").unwrap();
    let b = build(case);
    let out = b.edges(case.store_class, Direction::Out);
    let base = out
        .iter()
        .find(|n| n.node.id == "cs:Base/BaseStore.cs#BaseStore")
        .unwrap_or_else(|| panic!("{out:?}"));
    assert_eq!(base.edge, EdgeKind::Implements);
    // Same namespace, another directory (`Checks/Token.cs` is in `Shop.Util`): visible.
    let token = b.edges("cs:Checks/Token.cs#Token", Direction::Out);
    assert!(
        token
            .iter()
            .any(|n| n.node.id == "cs:Util/IValidator.cs#IValidator"
                && n.edge == EdgeKind::Implements),
        "{token:?}"
    );
    // Members of an enum are nodes.
    let state = b
        .map
        .neighbors(
            "cs:Base/BaseStore.cs#SessionState",
            Direction::Out,
            None,
            1,
            20,
        )
        .unwrap();
    let members: Vec<&str> = state
        .neighbors
        .iter()
        .filter(|n| n.edge == EdgeKind::Contains)
        .map(|n| n.node.id.as_str())
        .collect();
    assert_eq!(
        members,
        [
            "cs:Base/BaseStore.cs#SessionState.Active",
            "cs:Base/BaseStore.cs#SessionState.Expired"
        ]
    );
}

#[test]
fn scala_extends_a_trait_is_implements_and_export_references_the_member() {
    let case = CASES.iter().find(|c| c.dir == "scala").unwrap();
    let b = build(case);
    let out = b.edges(case.store_class, Direction::Out);
    assert!(
        out.iter().any(|n| n.node.id
            == "scala:src/main/scala/com/example/shop/base/BaseStore.scala#BaseStore"
            && n.edge == EdgeKind::Implements),
        "{out:?}"
    );
    // `export Api.handleRefresh` in `object Shop`.
    let shop = b.edges(
        "scala:src/main/scala/com/example/shop/Shop.scala#Shop",
        Direction::Out,
    );
    assert!(
        shop.iter()
            .any(|n| n.node.id == case.caller && n.edge == EdgeKind::References),
        "{shop:?}"
    );
}

#[test]
fn refresh_calls_put_through_the_receiver_word_exactly() {
    // `self.put(…)` / `this.put(…)` / `s.Put(…)`: the manifest's `receivers` (or Go's
    // receiver name) make the call exact.
    for case in &CASES {
        let b = build(case);
        let out = b.edges(case.refresh, Direction::Out);
        let put = out
            .iter()
            .find(|n| n.node.id == case.put)
            .unwrap_or_else(|| panic!("{}: no edge to {} in {out:?}", case.dir, case.put));
        assert_eq!(put.edge, EdgeKind::Calls, "{}", case.dir);
        assert_eq!(put.confidence, Confidence::Exact, "{}", case.dir);
    }
}

#[test]
fn a_typed_field_types_its_receiver_bare_and_through_the_receiver_word() {
    // One service per language holding a `SessionStore` field: `store.refresh(key)` and
    // `this.store.refresh(key)` both reach `SessionStore.refresh`, not as a candidate.
    let services: [(&str, &str, &str, &str); 4] = [
        (
            "java",
            "src/main/java/com/example/shop/api/Service.java",
            "package com.example.shop.api;\n\nimport com.example.shop.store.SessionStore;\n\n\
             public class Service {\n    private final SessionStore store;\n\n    \
             public Service(SessionStore s) { this.store = s; }\n\n    \
             public boolean touch(String key) { return store.refresh(key); }\n\n    \
             public boolean touchThis(String key) { return this.store.refresh(key); }\n}\n",
            "Service.",
        ),
        (
            "kt",
            "src/main/kotlin/com/example/shop/api/Service.kt",
            "package com.example.shop.api\n\nimport com.example.shop.store.SessionStore\n\n\
             class Service(private val store: SessionStore) {\n    \
             fun touch(key: String): Boolean = store.refresh(key)\n\n    \
             fun touchThis(key: String): Boolean = this.store.refresh(key)\n}\n",
            "Service.",
        ),
        (
            "cs",
            "Api/Service.cs",
            "using Shop.Store;\n\nnamespace Shop.Api;\n\npublic class Service\n{\n    \
             private readonly SessionStore store;\n\n    \
             public Service(SessionStore s) { this.store = s; }\n\n    \
             public bool Touch(string key) { return store.Refresh(key); }\n\n    \
             public bool TouchThis(string key) { return this.store.Refresh(key); }\n}\n",
            "Service.",
        ),
        (
            "scala",
            "src/main/scala/com/example/shop/api/Service.scala",
            "package com.example.shop.api\n\nimport com.example.shop.store.SessionStore\n\n\
             class Service(store: SessionStore) {\n  \
             def touch(key: String): Boolean = store.refresh(key)\n\n  \
             def touchThis(key: String): Boolean = this.store.refresh(key)\n}\n",
            "Service.",
        ),
    ];
    for (dir, file, source, prefix) in services {
        let case = CASES.iter().find(|c| c.dir == dir).unwrap();
        let b = build(case);
        std::fs::write(b.dir.path().join(file), source).unwrap();
        b.rebuild();
        let (touch, touch_this) = if dir == "cs" {
            ("Touch", "TouchThis")
        } else {
            ("touch", "touchThis")
        };
        for method in [touch, touch_this] {
            let id = format!("{dir}:{file}#{prefix}{method}");
            let out = b.edges(&id, Direction::Out);
            let hit = out
                .iter()
                .find(|n| n.node.id == case.refresh)
                .unwrap_or_else(|| panic!("{id}: no edge to refresh in {out:?}"));
            assert_ne!(hit.confidence, Confidence::Candidate, "{id}");
        }
    }
}

/// C++ members typed in a header reach their type's methods from out-of-class definitions
/// in another file: `store_->refresh()` (an implicit `this`) and `this->store_->refresh()`;
/// a bare `touch(key)` in a method is `this->touch(key)`.
#[test]
fn calls_through_typed_members_of_the_enclosing_type() {
    let case = CASES.iter().find(|c| c.dir == "cpp").unwrap();
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures_dir().join(case.dir), dir.path());
    std::fs::write(
        dir.path().join("include/service.hpp"),
        "#pragma once\n#include \"store.hpp\"\n\nclass Service {\npublic:\n    explicit Service(SessionStore* store);\n    bool touch(const std::string& key);\n    bool touch_again(const std::string& key);\n    bool touch_twice(const std::string& key);\n\nprivate:\n    SessionStore* store_;\n};\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("src/service.cpp"),
        "#include \"service.hpp\"\n\nService::Service(SessionStore* store) : store_(store) {}\n\nbool Service::touch(const std::string& key) { return store_->refresh(key); }\n\nbool Service::touch_again(const std::string& key) { return this->store_->refresh(key); }\n\nbool Service::touch_twice(const std::string& key) { return touch(key) && touch_again(key); }\n",
    )
    .unwrap();
    let map = built_map(dir.path());
    for from in [
        "cpp:src/service.cpp#Service.touch",
        "cpp:src/service.cpp#Service.touch_again",
    ] {
        let out = map.neighbors(from, Direction::Out, None, 1, 50).unwrap();
        let hit = out
            .neighbors
            .iter()
            .find(|n| n.node.id == case.refresh && n.edge == EdgeKind::Calls)
            .unwrap_or_else(|| panic!("{from}: {:?}", out.neighbors));
        assert_ne!(hit.confidence, Confidence::Candidate, "{from}");
    }
    // A bare call of a sibling method means `this->touch(key)`.
    let out = map
        .neighbors(
            "cpp:src/service.cpp#Service.touch_twice",
            Direction::Out,
            None,
            1,
            50,
        )
        .unwrap();
    for to in [
        "cpp:src/service.cpp#Service.touch",
        "cpp:src/service.cpp#Service.touch_again",
    ] {
        let hit = out
            .neighbors
            .iter()
            .find(|n| n.node.id == to)
            .unwrap_or_else(|| panic!("{to}: {:?}", out.neighbors));
        assert_eq!(hit.confidence, Confidence::Exact, "{to}");
    }
}

/// `implicit_receiver` is per language: a bare `get(key)` in a Swift method is `self.get`;
/// in Python, where the receiver is always spelled, a bare `open(path)` in a method stays
/// the builtin and never becomes the class's own `open`.
#[test]
fn bare_member_calls_follow_the_language_rule() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures_dir().join("swift"), dir.path());
    std::fs::write(
        dir.path().join("Sources/Store/Touch.swift"),
        "extension SessionStore {\n    public mutating func touch(_ key: String) -> Bool {\n        return get(key) != nil && refresh(key)\n    }\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("files.py"),
        "class Files:\n    def open(self, path):\n        return path\n\n    def read(self, path):\n        return open(path).read()\n",
    )
    .unwrap();
    let map = built_map(dir.path());
    let out = |id: &str| {
        map.neighbors(id, Direction::Out, None, 1, 50)
            .unwrap()
            .neighbors
    };
    let touch = out("swift:Sources/Store/Touch.swift#SessionStore.touch");
    for to in [
        "swift:Sources/Store/Store.swift#SessionStore.get",
        "swift:Sources/Store/Store.swift#SessionStore.refresh",
    ] {
        let hit = touch
            .iter()
            .find(|n| n.node.id == to)
            .unwrap_or_else(|| panic!("{to}: {touch:?}"));
        assert_eq!(hit.confidence, Confidence::Exact);
    }
    let read = out("py:files.py#Files.read");
    assert!(
        !read.iter().any(|n| n.node.id == "py:files.py#Files.open"),
        "{read:?}"
    );
}

/// Ruby's bare `put(…)` inside `SessionStore#refresh` is a call on `self`
/// (`implicit_receiver` in its manifest); a language without it is not affected (in
/// Python a bare `get()` in a method is a module-level name, never the method).
#[test]
fn a_bare_call_in_a_method_reaches_the_enclosing_type_where_the_receiver_is_implicit() {
    let case = CASES.iter().find(|c| c.dir == "rb").unwrap();
    let b = build(case);
    let out = b.edges(case.refresh, Direction::Out);
    let put = out
        .iter()
        .find(|n| n.node.id == case.put)
        .unwrap_or_else(|| panic!("{out:?}"));
    assert_eq!(put.edge, EdgeKind::Calls);
    assert_eq!(put.confidence, Confidence::Exact);

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("m.py"),
        "class S:\n    def get(self):\n        return 1\n\n    def refresh(self):\n        return get()\n",
    )
    .unwrap();
    let map = built_map(dir.path());
    let out = map
        .neighbors("py:m.py#S.refresh", Direction::Out, None, 1, 50)
        .unwrap()
        .neighbors;
    assert!(!out.iter().any(|n| n.node.id == "py:m.py#S.get"), "{out:?}");
}

/// In Java, Kotlin, C# and Scala a method calls its class's other methods bare
/// (`helper(n)` for `this.helper(n)`): the commonest call in those languages, linked
/// exactly like the spelled-out `this.helper(n)`.
#[test]
fn bare_calls_to_methods_of_the_same_class_link_exactly_where_this_is_implicit() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "A.java",
            "class A {\n    int helper(int x) { return x; }\n    int run(int n) { return helper(n); }\n}\n",
            "java:A.java#A.run",
            "java:A.java#A.helper",
        ),
        (
            "A.kt",
            "class A {\n    fun helper(x: Int): Int { return x }\n    fun run(n: Int): Int { return helper(n) }\n}\n",
            "kt:A.kt#A.run",
            "kt:A.kt#A.helper",
        ),
        (
            "A.cs",
            "class A {\n    int Helper(int x) { return x; }\n    int Run(int n) { return Helper(n); }\n}\n",
            "cs:A.cs#A.Run",
            "cs:A.cs#A.Helper",
        ),
        (
            "A.scala",
            "class A {\n  def helper(x: Int): Int = x\n  def run(n: Int): Int = helper(n)\n}\n",
            "scala:A.scala#A.run",
            "scala:A.scala#A.helper",
        ),
    ];
    for (path, source, _, _) in &files {
        std::fs::write(dir.path().join(path), source).unwrap();
    }
    let map = built_map(dir.path());
    for (_, _, from, to) in files {
        let out = map
            .neighbors(from, Direction::Out, Some(&[EdgeKind::Calls]), 1, 50)
            .unwrap()
            .neighbors;
        let hit = out
            .iter()
            .find(|n| n.node.id == to)
            .unwrap_or_else(|| panic!("{from} → {to}: {out:?}"));
        assert_eq!(hit.confidence, Confidence::Exact, "{from} → {to}");
    }
}

/// A function that calls itself is its own caller (and callee): recursion used to be
/// invisible because the neighbor walk never revisits its start.
#[test]
fn a_recursive_function_is_its_own_caller() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("m.py"),
        "def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("A.java"),
        "class A {\n    int run(int n) {\n        return n > 0 ? run(n - 1) : 0;\n    }\n}\n",
    )
    .unwrap();
    let map = built_map(dir.path());
    for (id, line) in [("py:m.py#fact", 4), ("java:A.java#A.run", 3)] {
        for direction in [Direction::In, Direction::Out, Direction::Both] {
            let got = map
                .neighbors(id, direction, Some(&[EdgeKind::Calls]), 1, 50)
                .unwrap()
                .neighbors;
            assert_eq!(got.len(), 1, "{id} {direction:?}: {got:?}");
            assert_eq!(got[0].node.id, id);
            assert_eq!(got[0].edge, EdgeKind::Calls);
            assert_eq!(got[0].line, Some(line), "{id}");
        }
    }
    // Without an edge-kind filter the recursion is still listed, beside `contains`.
    let all = map
        .neighbors("py:m.py#fact", Direction::In, None, 1, 50)
        .unwrap();
    assert!(
        all.neighbors.iter().any(|n| n.node.id == "py:m.py#fact"),
        "{all:?}"
    );
}

// ---- issue 17: overload groups and object-literal members (TypeScript fixture) ----------

fn ts_fixture_map() -> Built {
    build_fixture("ts")
}

/// Asserts the unlinked sites of an answer about `id`'s uses, in order: (file, enclosing
/// node).
fn assert_unlinked(b: &Built, id: &str, want: &[(&str, Option<&str>)]) {
    let check = b.map.mention_check(id).unwrap();
    let got: Vec<_> = check
        .unlinked
        .iter()
        .map(|u| (u.file.as_str(), u.enclosing.as_deref()))
        .collect();
    assert_eq!(got, want, "{id}");
}

/// The calls into `id`, as `(caller, confidence)`.
fn callers(b: &Built, id: &str) -> Vec<(String, Confidence)> {
    let mut got: Vec<(String, Confidence)> = b
        .edges(id, Direction::In)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Calls && n.resolved)
        .map(|n| (n.node.id, n.confidence))
        .collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    got
}

/// A call on a call's result (zod's `ZodTuple.create(items).rest(…)`): the factory is an
/// arrow function in a static field whose result type is declared (`): Tuple =>`), and a
/// construction (`new Tuple(…).size()`) is of the class it names (before: no edge).
#[test]
fn ts_a_call_on_a_factorys_result_is_typed_by_its_declared_result() {
    let b = ts_fixture_map();
    assert_eq!(
        callers(&b, "ts:src/view/tuple.ts#Tuple.rest"),
        vec![("ts:src/view/tuple.ts#args".to_string(), Confidence::Exact)]
    );
    assert_eq!(
        callers(&b, "ts:src/view/tuple.ts#Tuple.size"),
        vec![("ts:src/view/tuple.ts#sizeOf".to_string(), Confidence::Exact)]
    );
}

/// `if (x instanceof C) { … x.p … }` (zod's `getDiscriminator(type.schema)` for a
/// `ZodLazy`): inside the block the receiver is a `C`; outside it, its declared type.
#[test]
fn ts_an_instanceof_test_types_its_receiver_inside_the_block() {
    let b = ts_fixture_map();
    let path_of = ("ts:src/view/input.ts#pathOf".to_string(), Confidence::Exact);
    assert!(
        value_users(&b, "ts:src/view/input.ts#LazyInput.path").contains(&path_of),
        "{:?}",
        value_users(&b, "ts:src/view/input.ts#LazyInput.path")
    );
    assert!(value_users(&b, "ts:src/view/input.ts#Input.path").contains(&path_of));
}

/// Vue's `h`: three signatures and an implementation are one node, the implementation;
/// every call reaches it, and a search lists it once (before: `h`, `h~2`, `h~3`, `h~4`,
/// calls on the first signature, the implementation listed apart).
#[test]
fn ts_an_overload_group_is_one_node_that_every_call_reaches() {
    let b = ts_fixture_map();
    let h = "ts:src/view/h.ts#h";
    let node = b.map.node(h).unwrap();
    assert_eq!(node.kind, NodeKind::Function);
    assert!(
        node.signature
            .as_deref()
            .unwrap_or("")
            .ends_with("(+2 overloads)"),
        "{node:?}"
    );
    assert!(b.map.node("ts:src/view/h.ts#h~2").is_err());
    let in_file: Vec<String> = b
        .map
        .nodes_in_file("src/view/h.ts")
        .unwrap()
        .into_iter()
        .map(|n| n.id)
        .filter(|id| id.contains("#h") || id.contains("mount"))
        .collect();
    assert_eq!(
        in_file,
        [h, "ts:src/view/h.ts#Renderer.mount"],
        "one node per overload group"
    );
    let named = b.map.find_symbol("h", 20).unwrap();
    let same: Vec<_> = named
        .matches
        .iter()
        .filter(|n| n.id.starts_with(h))
        .collect();
    assert_eq!(same.len(), 1, "{named:?}");
    let mount = "ts:src/view/h.ts#Renderer.mount";
    let hits = b.map.search("mount", Some(NodeKind::Method), 20).unwrap();
    let same: Vec<_> = hits
        .results
        .iter()
        .filter(|r| r.node.id.starts_with(mount))
        .collect();
    assert_eq!(same.len(), 1, "{hits:?}");
    assert_eq!(
        callers(&b, h)
            .into_iter()
            .map(|(c, _)| c)
            .collect::<Vec<_>>(),
        [
            "ts:src/view/plugin.ts#page",
            "ts:src/view/plugin.ts#textPlugin.mount"
        ]
    );
    let mount_callers = callers(&b, mount);
    assert_eq!(
        mount_callers
            .iter()
            .map(|(c, _)| c.as_str())
            .collect::<Vec<_>>(),
        ["ts:src/view/plugin.ts#textPlugin.mount"],
        "{mount_callers:?}"
    );
}

/// A method of an object literal is a member of that value: a bare `render(node)` beside
/// it calls the imported `render`, a bare `newline()` the nested function, never the
/// object's own methods (before: both linked to the object's methods, at `exact`).
#[test]
fn ts_an_object_literal_method_is_not_a_name_in_scope() {
    let b = ts_fixture_map();
    let from = "ts:src/view/plugin.ts#textPlugin.render";
    let out: Vec<(String, Confidence)> = b
        .edges(from, Direction::Out)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Calls && n.resolved)
        .map(|n| (n.node.id, n.confidence))
        .collect();
    let newline_fn = b
        .map
        .nodes_in_file("src/view/plugin.ts")
        .unwrap()
        .into_iter()
        .find(|n| n.name == "newline" && n.kind == NodeKind::Function)
        .unwrap()
        .id;
    assert!(
        out.contains(&("ts:src/view/h.ts#render".to_string(), Confidence::Import)),
        "{out:?}"
    );
    assert!(
        out.contains(&(newline_fn.clone(), Confidence::Exact)),
        "{out:?}"
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(callers(&b, from).is_empty());
}

/// A `.h` holding C++ (leveldb's `include/leveldb/status.h` shape) is C++: its classes are
/// nodes, a subclass extends them, and a method defined in a `.cpp` calls an inherited one
/// (before: parsed as C, `Status` was no class and the header's nodes were `c:` ones).
#[test]
fn cpp_a_dot_h_header_with_cpp_syntax_is_parsed_as_cpp() {
    let b = build_fixture("cpp");
    let status = "cpp:include/status.h#shop.Status";
    assert_eq!(b.map.node(status).unwrap().kind, NodeKind::Class);
    assert!(b.map.node("c:include/status.h").is_err());
    let detailed = "cpp:include/status.h#shop.DetailedStatus";
    let bases: Vec<String> = b
        .edges(detailed, Direction::Out)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Extends)
        .map(|n| n.node.id)
        .collect();
    assert_eq!(bases, [status]);
    let ok = format!("{status}.ok");
    let callers = callers(&b, &ok);
    assert!(
        callers
            .iter()
            .any(|(c, _)| c.ends_with("DetailedStatus.detail")),
        "{callers:?}"
    );
}

/// V8's shapes (`include/handle.h`): `internal::Slots::Count(raw)` inside `namespace shop`
/// is `shop::internal::Slots::Count` (qualified lookup from the enclosing namespaces,
/// innermost first), and so is a bare name; before, a two-level path was no call at all and a one-level one was
/// read from the top level only.
#[test]
fn cpp_a_qualified_call_is_relative_to_the_enclosing_namespaces() {
    let b = build_fixture("cpp");
    assert_eq!(
        callers(&b, "cpp:include/handle.h#shop.internal.Slots.Count"),
        [(
            "cpp:include/handle.h#shop.Handle.New".to_string(),
            Confidence::Exact
        )]
    );
    // The path's scopes are uses too: `Slots` of `internal::Slots::Count` (before: only
    // the last name of a path was a use).
    let slots: Vec<String> = b
        .edges("cpp:include/handle.h#shop.internal.Slots", Direction::In)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::References && n.resolved)
        .map(|n| n.node.id)
        .collect();
    assert_eq!(slots, ["cpp:include/handle.h#shop.Handle.New"]);
    // A bare name from another header's part of an enclosing namespace: `Status` inside
    // `shop::internal` is `shop::Status` of `status.h` (before: only top-level names of an
    // included header were found).
    let users: Vec<(String, Confidence)> = b
        .edges("cpp:include/status.h#shop.Status", Direction::In)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::References && n.node.id.starts_with("cpp:include/handle.h"))
        .map(|n| (n.node.id, n.confidence))
        .collect();
    assert_eq!(
        users,
        [(
            "cpp:include/handle.h#shop.internal.Slots.Valid".to_string(),
            Confidence::Import
        )]
    );
}

/// Every call edge into `id`, resolved or not (a candidate is an unresolved edge), sorted.
fn calls_in(b: &Built, id: &str) -> Vec<(String, Confidence, bool)> {
    let mut got: Vec<(String, Confidence, bool)> = b
        .edges(id, Direction::In)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Calls)
        .map(|n| (n.node.id, n.confidence, n.resolved))
        .collect();
    got.sort();
    got
}

/// V8's shapes (`include/handle.h`): a delegating constructor calls the one overload of
/// its class that accepts its number of arguments (`Handle(int raw, int extra) :
/// Handle(raw + extra)`: the one-argument `Handle~2`, not the caller itself), and so does
/// `new Handle(…)` inside the class; a member initializer of a field (`raw_(raw)`) is a
/// use of the field. Before: every overload a candidate (issue 17, ninth round).
#[test]
fn cpp_a_delegating_constructor_calls_the_overload_its_arguments_fit() {
    let b = build_fixture("cpp");
    let ctor = "cpp:include/handle.h#shop.Handle.Handle";
    let one_arg = format!("{ctor}~2");
    let new = "cpp:include/handle.h#shop.Handle.New";
    assert_eq!(calls_in(&b, ctor), []);
    assert_eq!(
        calls_in(&b, &one_arg),
        [
            (ctor.to_string(), Confidence::Exact, true),
            (new.to_string(), Confidence::Exact, true)
        ]
    );
    assert_eq!(
        callers(&b, "cpp:include/handle.h#shop.Handle.raw_"),
        [(one_arg.clone(), Confidence::Exact)]
    );
}

/// cppgc's `BasicPersistent` (`include/handle.h`, `Persistent`): constructors of several
/// arities delegating to each other. A delegation that one overload accepts is an exact
/// call of it (`Persistent()` and `Persistent(int*, int = 0)` both pass three arguments:
/// `~4`); one that several accept — defaults make `(int*, int = 0)` and `(const
/// Persistent&, int = 0)` both take two — is a candidate of those only; a pack expansion
/// (`Persistent(args...)`) passes an unknown number: a candidate of each overload, never
/// an exact edge; the variadic one (`~5`, four or more) accepts only calls of four or
/// more. An overloaded member called bare (`Get()` in `Get(int*)`) or on a typed
/// receiver (`p.Get(fallback)`) is the overload of its arity. Before: every delegation a
/// candidate of all five, `Get` and `p.Get` exact calls of the first `Get`.
#[test]
fn cpp_overloads_are_chosen_by_their_number_of_arguments() {
    let b = build_fixture("cpp");
    let ctor = |n: u32| match n {
        1 => "cpp:include/handle.h#shop.Persistent.Persistent".to_string(),
        n => format!("cpp:include/handle.h#shop.Persistent.Persistent~{n}"),
    };
    let exact = |n: u32| (ctor(n), Confidence::Exact, true);
    let candidate = |n: u32| (ctor(n), Confidence::Candidate, false);
    // The pack expansion in `~5` is a candidate call of every overload.
    assert_eq!(calls_in(&b, &ctor(1)), [candidate(5)]);
    assert_eq!(calls_in(&b, &ctor(2)), [candidate(3), candidate(5)]);
    assert_eq!(calls_in(&b, &ctor(3)), [candidate(3), candidate(5)]);
    assert_eq!(calls_in(&b, &ctor(4)), [exact(1), exact(2), candidate(5)]);
    assert_eq!(calls_in(&b, &ctor(5)), [candidate(5)]);
    let get = "cpp:include/handle.h#shop.Persistent.Get";
    assert_eq!(callers(&b, get), [(format!("{get}~2"), Confidence::Exact)]);
    assert_eq!(
        callers(&b, &format!("{get}~2")),
        [(
            "cpp:include/handle.h#shop.Unwrap".to_string(),
            Confidence::Exact
        )]
    );
}

/// cppgc's `BasicMember` (`include/handle.h`, `Member`): constructors that all take two
/// arguments (one with its default) and differ in their first parameter's type only. A
/// delegation is the overload its arguments' kinds match exactly where the overloads
/// differ: `Member(nullptr, loc)` the `std::nullptr_t` one (`~1`), `Member(&raw, loc)`
/// (`raw` a `T&`) and `Member(other.Get(), loc)` (`other` a `const Member&`, whose `Get`
/// returns a `T*`) the `T*` one (`~3`), `Member(s)` (`s` a `SentinelPointer`) the
/// sentinel's (`~2`). `Member(other.Get())` in the constructor template (`other` a
/// `Member<U>`: its `Get` returns a `U*`) stays a candidate of each overload that takes
/// one argument (the sentinel converts to any pointer: nothing rules it out). Before
/// (the count alone): every delegation a candidate of all that take its number.
#[test]
fn cpp_overloads_are_chosen_by_their_arguments_kinds() {
    let b = build_fixture("cpp");
    let ctor = |n: u32| match n {
        1 => "cpp:include/handle.h#gc.Member.Member".to_string(),
        n => format!("cpp:include/handle.h#gc.Member.Member~{n}"),
    };
    let exact = |n: u32| (ctor(n), Confidence::Exact, true);
    let candidate = |n: u32| (ctor(n), Confidence::Candidate, false);
    assert_eq!(calls_in(&b, &ctor(1)), [exact(6), candidate(8)]);
    assert_eq!(calls_in(&b, &ctor(2)), [exact(7), candidate(8)]);
    assert_eq!(calls_in(&b, &ctor(3)), [exact(4), exact(5), candidate(8)]);
    assert_eq!(calls_in(&b, &ctor(4)), [candidate(8)]);
    assert_eq!(calls_in(&b, &ctor(5)), [candidate(8)]);
    assert_eq!(calls_in(&b, &ctor(6)), [candidate(8)]);
    assert_eq!(calls_in(&b, &ctor(7)), []);
    assert_eq!(calls_in(&b, &ctor(8)), [candidate(8)]);
}

/// Guava's `Preconditions` (`util/Checks.java`): `checkArgument` overloaded with one, two,
/// and two-or-more (varargs) arguments. A bare or class-qualified call is the overload
/// that accepts its number of arguments (one: the first; three: the varargs one); a call
/// of two, which both the two-argument overload and the varargs one accept, is the
/// two-argument one, as javac resolves it (fixed arity before varargs:
/// `fixed_arity_first`). Before: every call an exact call of the first overload; with
/// arity alone, the call of two a candidate of both.
#[test]
fn java_an_overloaded_method_is_chosen_by_its_number_of_arguments() {
    let b = build_fixture("java");
    let file = "java:src/main/java/com/example/shop/util/Checks.java";
    let check = |n: u32| match n {
        1 => format!("{file}#Checks.checkArgument"),
        n => format!("{file}#Checks.checkArgument~{n}"),
    };
    let name = format!("{file}#Checks.checkName");
    assert_eq!(
        calls_in(&b, &check(1)),
        [(name.clone(), Confidence::Exact, true)]
    );
    assert_eq!(
        calls_in(&b, &check(2)),
        [(name.clone(), Confidence::Exact, true)]
    );
    assert_eq!(calls_in(&b, &check(3)), [(name, Confidence::Exact, true)]);
    // Each edge is its own call's (1-based lines): the two-argument call is no edge of
    // the varargs overload.
    let line_of = |target: &str| -> Vec<Option<u32>> {
        b.edges(target, Direction::In)
            .into_iter()
            .filter(|n| n.edge == EdgeKind::Calls)
            .map(|n| n.line)
            .collect()
    };
    assert_eq!(line_of(&check(2)), [Some(32)]);
    assert_eq!(line_of(&check(3)), [Some(33)]);
}

/// Java overloads of one arity told apart by their arguments' kinds (commons-cli's
/// `CommandLine.getOptionValues(optionGroup)`, `getParsedOptionValues(resolveOption(name))`,
/// `OptionBuilder.create(null)`, `withType((Class<?>) newType)`, `TextHelpAppendable`'s
/// `resize(builder, fraction)`): a parameter's or local's declared type,
/// `String.valueOf(…)`, a method of the class's declared result, `null` (no `char`), a
/// cast, each an exact call of the one overload javac picks; generic arguments are left
/// out (`Supplier<T>`). An argument the text does not type (a conditional) leaves a
/// candidate of each overload. Before: a candidate of every overload of the count.
#[test]
fn java_overloads_of_one_arity_are_chosen_by_their_arguments_kinds() {
    let b = build_fixture("java");
    let file = "java:src/main/java/com/example/shop/util/Lookup.java";
    let id = |m: &str| format!("{file}#Lookup.{m}");
    let exact = |m: &str| (id(m), Confidence::Exact, true);
    let calls = |m: &str| -> Vec<(String, Confidence, bool)> {
        calls_in(&b, &id(m))
            .into_iter()
            .filter(|(from, _, _)| *from != id("unknown"))
            .collect()
    };
    // `values(String.valueOf(key))`, `values(resolve(name))` (a `Token`), `values(email)`.
    assert_eq!(calls("values~4"), [exact("values")]);
    assert_eq!(calls("values~2"), [exact("values~4")]);
    assert_eq!(calls("values~3"), [exact("first")]);
    assert_eq!(calls("values"), []);
    // `parsed(resolve(name), fallback)`: a `Token` and a `Supplier<T>`.
    assert_eq!(calls("parsed~2"), [exact("parsed")]);
    assert_eq!(calls("parsed~3"), []);
    // `create(null)`: `null` is no `char`.
    assert_eq!(calls("create~2"), [exact("byDefault")]);
    assert_eq!(calls("create"), []);
    // `withType((Class<?>) type)`.
    assert_eq!(calls("withType"), [exact("withType~2")]);
    // `resize(token, fraction)`: locals declared a `Token` and a `double`.
    assert_eq!(calls("resize~2"), [exact("resizeAll")]);
    assert_eq!(calls("resize"), []);
    // `values(c ? "x" : null)`: not typed, a candidate of each overload.
    for m in ["values", "values~2", "values~3", "values~4"] {
        let from_unknown: Vec<bool> = calls_in(&b, &id(m))
            .into_iter()
            .filter(|(from, _, _)| *from == id("unknown"))
            .map(|(_, c, resolved)| c == Confidence::Candidate && !resolved)
            .collect();
        assert_eq!(from_unknown, [true], "{m}");
    }
}

/// Java: `implements com.example.shop.base.Builder<…>`, fully qualified and without an
/// import (protobuf's generated builders), is an `implements` edge (before: none).
#[test]
fn java_a_fully_qualified_generic_interface_is_implemented() {
    let b = build_fixture("java");
    let builder = "java:src/main/java/com/example/shop/session/SessionBuilder.java#SessionBuilder";
    let bases: Vec<(String, EdgeKind)> = b
        .edges(builder, Direction::Out)
        .into_iter()
        .filter(|n| matches!(n.edge, EdgeKind::Implements | EdgeKind::Extends) && n.resolved)
        .map(|n| (n.node.id, n.edge))
        .collect();
    assert_eq!(
        bases,
        [(
            "java:src/main/java/com/example/shop/base/Builder.java#Builder".to_string(),
            EdgeKind::Implements
        )]
    );
}

/// One level of receiver inference through a constructor function (gin's shape):
/// `c := NewContext(w); c.Next()` and `t, _ := CreateTestContext(w); t.Next()` reach
/// `Context.Next` by the type the function's signature returns (before: no edge).
#[test]
fn go_a_receiver_made_by_a_constructor_function_is_typed_by_its_return() {
    let b = build_fixture("go");
    let next = "go:web/context.go#Context.Next";
    let serve = [("go:web/context.go#Serve".to_string(), Confidence::Exact)];
    assert_eq!(callers(&b, next), serve);
    // The named-result constructor alone links too.
    b.edit("web/context.go", "\tc.Next()\n", "\n");
    b.rebuild();
    assert_eq!(callers(&b, next), serve);
}

/// A function used as a value (BurntSushi/toml's lexer: a state function returns the next
/// state, `return lexNumber`; a table lists them): a `references` use of it, linked by the
/// package's scope, where before only a call or an argument was (the return was a silent
/// miss of the `toml` corpus). A local holding a state (`next := lexTop; return next`) is
/// the local, no use of a function.
#[test]
fn go_a_function_returned_or_listed_as_a_value_is_a_use_of_it() {
    let b = build_fixture("go");
    let refs = |id: &str| {
        let mut got: Vec<(String, Confidence)> = b
            .edges(id, Direction::In)
            .into_iter()
            .filter(|n| n.edge == EdgeKind::References && n.resolved)
            .map(|n| (n.node.id, n.confidence))
            .collect();
        got.sort();
        got
    };
    let exact = |ids: &[&str]| at_tier(Confidence::Exact, ids);
    assert_eq!(
        refs("go:web/lex.go#lexNumber"),
        exact(&[
            "go:web/lex.go#lexTop",
            "go:web/lex.go#resetAll",
            "go:web/lex.go#runner.step",
            "go:web/lex.go#states",
        ])
    );
    // Arguments (`lx.push(lexTop)`, as before), `next := lexTop`, the table's element.
    assert_eq!(
        refs("go:web/lex.go#lexTop"),
        exact(&[
            "go:web/lex.go#Reset",
            "go:web/lex.go#Run",
            "go:web/lex.go#lexNumber",
            "go:web/lex.go#lexTop",
            "go:web/lex.go#pool.restart",
            "go:web/lex.go#states",
        ])
    );
}

/// Receivers typed through what x/mod does: a package-level value made by a constructor
/// function (`var laxGoVersionRE = lazyregexp.New(…)`; `top.push(…)`, in its file and in
/// another of the package), and a field of a
/// typed local or receiver (`tc.client.Lookup(…)` with `tc := newTestClient(t)`,
/// `r.tr.ReadTiles(…)`; `rn.lx.push(…)`, `r.lx.push(…)`), typed by the field's declaration.
/// An element of a ranged slice (`for _, r := range f.Require { r.setIndirect(…) }`) is
/// typed by the slice's declared type, a field's or a parameter's (`pool.restart`,
/// `resetAll`). Before: no edge from `Restart`, `Run`, `runner.step`, `pool.restart` or
/// `resetAll` (the last two candidates).
#[test]
fn go_a_package_value_and_a_fields_type_type_their_receivers() {
    let b = build_fixture("go");
    let exact = |ids: &[&str]| at_tier(Confidence::Exact, ids);
    // From another file, `top` is found by the repository's name (`name`; a package's
    // scope across its files is not modelled), the call through it with that confidence.
    let mut push = exact(&[
        "go:web/lex.go#Reset",
        "go:web/lex.go#Run",
        "go:web/lex.go#lexTop",
        "go:web/lex.go#pool.restart",
        "go:web/lex.go#resetAll",
        "go:web/lex.go#runner.step",
    ]);
    push.insert(
        0,
        ("go:web/context.go#Restart".to_string(), Confidence::Name),
    );
    assert_eq!(callers(&b, "go:web/lex.go#lexer.push"), push);
    assert_eq!(
        callers(&b, "go:web/lex.go#runner.step"),
        exact(&["go:web/lex.go#Run"])
    );
}

/// Go interfaces are satisfied structurally (`structural_interfaces`): a call linked for
/// sure to an interface's method (`fd.src.Read()`, `src` a field typed `source`) may run
/// the method of each type that implements it: `fileSource.Read` (`name`, by its method
/// set; see `go_a_call_through_an_interface_reaches_each_type_with_its_method_set`), so no
/// longer an unlinked use of it. Before the method sets: listed as unlinked; before that,
/// excluded as "linked elsewhere" (x/mod's `s.ops.Lookup(…)` in `Server.ServeHTTP`,
/// gopls's reference of `TestServer.Lookup`, was a silent miss).
#[test]
fn go_a_call_through_an_interface_is_an_unlinked_use_of_each_method_of_its_name() {
    let b = build_fixture("go");
    assert_eq!(
        callers(&b, "go:web/lex.go#source.Read"),
        [("go:web/lex.go#feeder.feed".to_string(), Confidence::Exact)]
    );
    let check = b
        .map
        .mention_check("go:web/lex.go#fileSource.Read")
        .unwrap();
    assert!(check.unlinked.is_empty(), "{:?}", check.unlinked);
    // A type with a method of the name but not the interface's whole method set is not
    // linked, and the call, linked to the implementations, is provably another's (rule
    // 1): `e.sinks[0].Write(s)` is no use of `halfSink.Write`. (`w.Write(…)` on an
    // `http.ResponseWriter`, a type the map does not know, stays unlinked.)
    assert_unlinked(
        &b,
        "go:web/sink.go#halfSink.Write",
        &[("api/api.go", Some("go:api/api.go#Handler"))],
    );
    // A type that embeds one from outside the repository (`recSink` embeds
    // `*httptest.ResponseRecorder`, whose `Flush` the map cannot see) may satisfy the
    // interface: the call linked to `sink.Write` and `bufSink.Write` is not proof that it
    // is another's, so it is an unlinked use of `recSink.Write`, not excluded.
    assert_eq!(callers(&b, "go:web/sink.go#recSink.Write"), []);
    assert_unlinked(
        &b,
        "go:web/sink.go#recSink.Write",
        &[
            ("web/sink.go", Some("go:web/sink.go#emitter.emit")),
            ("api/api.go", Some("go:api/api.go#Handler")),
        ],
    );
    // The other way: a call linked to a type's method may run an interface's method of
    // that name (x/mod's `line.Comment()`, a use of `Expr.Comment` for gopls).
    // A receiver whose type has the method by embedding (`Line` embeds `Comments`) is no
    // proof either.
    assert_eq!(
        callers(&b, "go:web/lex.go#fileSource.Read"),
        [
            ("go:web/lex.go#feeder.feed".to_string(), Confidence::Name),
            ("go:web/lex.go#readNamed".to_string(), Confidence::Exact),
            ("go:web/lex.go#readPath".to_string(), Confidence::Exact),
        ]
    );
    assert_unlinked(
        &b,
        "go:web/lex.go#source.Read",
        &[
            ("web/lex.go", Some("go:web/lex.go#readPath")),
            ("web/lex.go", Some("go:web/lex.go#readNamed")),
        ],
    );
}

/// Go's method sets (`structural_interfaces`, `Resolver::implementations`): a call through
/// an interface (`e.sinks[0].Write(s)`, `s.Flush()` on a `sink`) is also a `name` call of
/// the method of each type whose method set holds every method of the interface:
/// `bufSink` has `Write` and `Flush`; `halfSink` has `Write` only and is no `sink`.
/// gopls lists such calls as references of each implementing method (x/mod's
/// `s.ops.Lookup(…)` of `TestServer.Lookup`, `x.Span()` of `Line.Span`). Before: no edge.
#[test]
fn go_a_call_through_an_interface_reaches_each_type_with_its_method_set() {
    let b = build_fixture("go");
    let name = |ids: &[&str]| at_tier(Confidence::Name, ids);
    assert_eq!(
        callers(&b, "go:web/sink.go#bufSink.Write"),
        name(&["go:web/sink.go#emitter.emit"])
    );
    assert_eq!(
        callers(&b, "go:web/sink.go#bufSink.Flush"),
        name(&["go:web/sink.go#flushAll", "go:web/sink.go#flushIf"])
    );
    assert_eq!(callers(&b, "go:web/sink.go#halfSink.Write"), []);
}

/// Receivers of an interface type that Go's syntax gives: an element of a slice field
/// (`e.sinks[0]` with `sinks []sink`: x/mod's `x.Stmt[0].Span()`), an element of a
/// variadic parameter ranged over (`for _, s := range sinks` with `sinks ...sink`: x/mod's
/// `signers ...Signer`), a comma-ok type assertion (`s, ok := v.(sink)`: x/mod's
/// `p, ok := v.Interface().(Expr)`). Before: untyped, no edge.
#[test]
fn go_an_index_a_variadic_element_and_a_type_assertion_type_their_receivers() {
    let b = build_fixture("go");
    let exact = |ids: &[&str]| at_tier(Confidence::Exact, ids);
    assert_eq!(
        callers(&b, "go:web/sink.go#sink.Write"),
        exact(&["go:web/sink.go#emitter.emit"])
    );
    assert_eq!(
        callers(&b, "go:web/sink.go#sink.Flush"),
        exact(&["go:web/sink.go#flushAll", "go:web/sink.go#flushIf"])
    );
}

/// A Go local is not in scope in its own declaration: in `store := store.New(…)` the
/// `store` of the right-hand side is the imported package (x/mod's `note, err :=
/// note.Open(…)`), and the local it declares types the uses after it (`store.Get(key)`).
/// Before: the call was taken for a method of the local (no edge), and the binding's
/// type, read through itself, typed nothing.
#[test]
fn go_a_local_is_not_in_scope_in_its_own_declaration() {
    let b = build_fixture("go");
    assert!(
        callers(&b, "go:store/store.go#New")
            .contains(&("go:api/fresh.go#Known".to_string(), Confidence::Import)),
        "{:?}",
        callers(&b, "go:store/store.go#New")
    );
    assert!(
        callers(&b, "go:store/store.go#SessionStore.Get")
            .contains(&("go:api/fresh.go#Known".to_string(), Confidence::Import)),
        "{:?}",
        callers(&b, "go:store/store.go#SessionStore.Get")
    );
}

/// Scope wins over a global name match: a bare call of a parameter (a pytest fixture
/// parameter named like the conftest fixture, a Rust closure parameter named like a
/// function of the module) is never linked for sure; the fixture parameter passed on as a
/// value is not an unlinked mention of the fixture function.
#[test]
fn a_call_of_a_parameter_is_never_a_sure_edge_to_a_function_of_that_name() {
    for (lang, target, callers, real_caller) in [
        (
            "py",
            "py:tests/conftest.py#make_store",
            &["py:tests/test_api.py#test_refresh_of_an_unknown_key"][..],
            None,
        ),
        (
            "rs",
            "rs:src/util/keys.rs#matched",
            &["rs:src/util/keys.rs#keep"][..],
            Some("rs:src/util/keys.rs#with_prefix"),
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&fixtures_dir().join(lang), dir.path());
        let map = built_map(dir.path());
        let incoming = map
            .neighbors(target, Direction::In, Some(&[EdgeKind::Calls]), 1, 50)
            .unwrap()
            .neighbors;
        for caller in callers {
            assert!(
                incoming
                    .iter()
                    .all(|n| &n.node.id != caller || n.confidence == Confidence::Candidate),
                "{caller} → {target}: {incoming:?}"
            );
        }
        if let Some(real) = real_caller {
            let hit = incoming
                .iter()
                .find(|n| n.node.id == real)
                .unwrap_or_else(|| panic!("{real} → {target}: {incoming:?}"));
            assert_eq!(hit.confidence, Confidence::Exact);
        }
        let check = map.mention_check(target).unwrap();
        assert!(
            check.unlinked.is_empty(),
            "{target}: a parameter's use is not an unlinked mention: {:?}",
            check.unlinked
        );
    }
}

/// The rs fixture, copied and built (the Rust precision cases live in `src/util/keys.rs`).
fn rs_keys_map() -> (tempfile::TempDir, Map) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures_dir().join("rs"), dir.path());
    let map = built_map(dir.path());
    (dir, map)
}

fn calls_out(map: &Map, id: &str) -> Vec<Neighbor> {
    map.neighbors(id, Direction::Out, Some(&[EdgeKind::Calls]), 1, 50)
        .unwrap()
        .neighbors
}

/// Rust macro arguments are token trees; the calls in those of `assert!`, `vec!`,
/// `format!` … are uses all the same (parsed again as code).
#[test]
fn calls_inside_rust_macro_arguments_are_linked() {
    let (_dir, map) = rs_keys_map();
    let out = calls_out(&map, "rs:src/util/keys.rs#describe");
    let parse = out
        .iter()
        .find(|n| n.node.id == "rs:src/util/keys.rs#parse")
        .unwrap_or_else(|| panic!("describe → parse: {out:?}"));
    assert_eq!(parse.confidence, Confidence::Exact);
    // The first of the calls, `assert!(parse(key)…)` on line 41 (1-based).
    assert_eq!(parse.line, Some(41));
}

/// A use in an inline module's body (globset's `syntaxerr!(…)` in `mod tests`): the edge
/// starts at the module, and the mention index says so too (it said "file level", so the
/// accuracy bench took the module's listed edge for a non-caller and the use for a miss).
#[test]
fn a_use_in_an_inline_modules_body_is_enclosed_by_the_module() {
    let (_dir, map) = rs_keys_map();
    let target = "rs:src/util/keys.rs#tests.parses";
    let incoming = map
        .neighbors(target, Direction::In, Some(&[EdgeKind::Calls]), 1, 50)
        .unwrap()
        .neighbors;
    assert!(
        incoming
            .iter()
            .any(|n| n.node.id == "rs:src/util/keys.rs#tests"),
        "{incoming:?}"
    );
    let check = map.mention_check(target).unwrap();
    let encloser: Vec<Option<&str>> = check
        .linked_sites
        .iter()
        .map(|s| s.enclosing.as_deref())
        .collect();
    // `parses!` is called twice in the module's body.
    assert_eq!(
        encloser,
        vec![Some("rs:src/util/keys.rs#tests"); 2],
        "{check:?}"
    );
}

/// A field and a method of one name: `span.bytes_range(key.len())` calls the method.
#[test]
fn a_call_with_parentheses_is_the_method_not_the_field_of_that_name() {
    let (_dir, map) = rs_keys_map();
    let out = calls_out(&map, "rs:src/util/keys.rs#describe");
    let hits: Vec<&Neighbor> = out
        .iter()
        .filter(|n| n.node.name == "bytes_range")
        .collect();
    assert_eq!(hits.len(), 1, "{out:?}");
    assert_eq!(hits[0].node.kind, NodeKind::Method, "{out:?}");
    assert_eq!(hits[0].confidence, Confidence::Exact);
}

/// Receivers bound by patterns and loops (globset's `Extension(ref s) => s.matches_into(…)`
/// and `for strat in &self.strats { strat.matches_all(…) }`), typed by what the
/// declarations say the part holds: the variant's payload, a struct variant's field, a
/// `Vec<T>` field's element, an `Option<T>` field's value. Every `is_match` of
/// `rules.rs` has the same name, so only the typing tells them apart (before: candidates).
#[test]
fn rs_receivers_bound_by_patterns_and_loops_are_typed_by_their_declarations() {
    let (_dir, map) = rs_keys_map();
    let calls_into = |id: &str| -> Vec<(String, Confidence)> {
        let mut got: Vec<(String, Confidence)> = map
            .neighbors(id, Direction::In, Some(&[EdgeKind::Calls]), 1, 50)
            .unwrap()
            .neighbors
            .into_iter()
            .map(|n| (n.node.id, n.confidence))
            .collect();
        got.sort();
        got
    };
    let file = "rs:src/util/rules.rs#";
    let exact = |caller: &str| (format!("{file}{caller}"), Confidence::Exact);
    // `Suffix(ref s) => s.is_match(key)` and `if let Some(ref s) = self.fallback`.
    assert_eq!(
        calls_into(&format!("{file}SuffixRule.is_match")),
        vec![exact("RuleSet.is_match"), exact("Strategy.is_match")]
    );
    // `Prefix { ref rule } => rule.is_match(key)`.
    assert_eq!(
        calls_into(&format!("{file}PrefixRule.is_match")),
        vec![exact("Strategy.is_match")]
    );
    // `for strat in &self.strats` and `for strat in self.strats.iter()`.
    assert_eq!(
        calls_into(&format!("{file}Strategy.is_match")),
        vec![exact("RuleSet.is_match"), exact("RuleSet.matches_all")]
    );
}

/// Qualified calls follow the path: Rust's `super::f` (out of an inline `mod tests`) and
/// `crate::a::b::f` through the module tree; Python's `pkg.module.f()` after `import pkg`
/// through the package's modules.
#[test]
fn qualified_calls_follow_the_module_path() {
    let (_dir, map) = rs_keys_map();
    let out = calls_out(
        &map,
        "rs:src/util/keys.rs#tests.parses_through_the_module_tree",
    );
    for (callee, line) in [
        ("rs:src/util/keys.rs#parse", 50),
        ("rs:src/util/keys.rs#matched", 51),
    ] {
        let hit = out
            .iter()
            .find(|n| n.node.id == callee)
            .unwrap_or_else(|| panic!("→ {callee}: {out:?}"));
        assert_ne!(hit.confidence, Confidence::Candidate, "{callee}");
        assert_eq!(hit.line, Some(line), "{callee}");
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures_dir().join("py"), dir.path());
    let map = built_map(dir.path());
    let out = calls_out(
        &map,
        "py:tests/test_api.py#test_email_validation_through_the_package",
    );
    let hit = out
        .iter()
        .find(|n| n.node.id == "py:shop/util/email.py#validate")
        .unwrap_or_else(|| panic!("shop.util.email.validate: {out:?}"));
    assert_eq!(hit.confidence, Confidence::Import);
}

// ---- issue 17: Ruby's class hierarchy (open classes, nested modules, mixins) ------------

/// The resolved `extends`/`implements` edges out of `id`.
fn bases(b: &Built, id: &str) -> Vec<(String, EdgeKind)> {
    let mut got: Vec<(String, EdgeKind)> = b
        .edges(id, Direction::Out)
        .into_iter()
        .filter(|n| matches!(n.edge, EdgeKind::Extends | EdgeKind::Implements) && n.resolved)
        .map(|n| (n.node.id, n.edge))
        .collect();
    got.sort();
    got
}

/// `class Shop::SessionStore` reopened in `test/test_helper.rb` is the same class as in
/// `lib/` (before: a second top-level `SessionStore`, and `< Shop::SessionStore` went to
/// either); `class CachedStore < SessionStore` inside `module Shop` extends it from another
/// file; `include Util::Loggable` (a nested module of another file) is an `implements`
/// edge whose functions are the class's members (before: no edge).
#[test]
fn rb_reopened_classes_nested_modules_and_mixins_are_one_hierarchy() {
    let b = build_fixture("rb");
    let store = "rb:lib/shop/session_store.rb#Shop.SessionStore";
    let reopened = "rb:test/test_helper.rb#Shop.SessionStore";
    let loggable = "rb:lib/shop/util/loggable.rb#Shop.Util.Loggable";
    assert_eq!(b.map.node(reopened).unwrap().kind, NodeKind::Class);
    assert_eq!(
        bases(&b, "rb:test/session_store_test.rb#ForgetfulStore"),
        [(store.to_string(), EdgeKind::Extends)]
    );
    assert_eq!(
        bases(&b, "rb:lib/shop/cached_store.rb#Shop.CachedStore"),
        [
            (store.to_string(), EdgeKind::Extends),
            (loggable.to_string(), EdgeKind::Implements),
        ]
    );
    assert!(
        b.edges(reopened, Direction::In)
            .iter()
            .all(|n| n.edge == EdgeKind::Contains || !n.resolved),
        "nothing extends the reopening itself"
    );
    // The mixed-in module's function is a member of the class that includes it.
    assert_eq!(
        callers(&b, &format!("{loggable}.log")),
        [(
            "rb:lib/shop/cached_store.rb#Shop.CachedStore.get".to_string(),
            Confidence::Exact
        )]
    );
    // The reopening's method is a member of the class: bare in a subclass, and on an
    // instance of the class.
    let clear = callers(&b, &format!("{reopened}.clear!"));
    let clear: Vec<&str> = clear.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        clear,
        [
            "rb:test/session_store_test.rb#ForgetfulStore.refresh",
            "rb:test/session_store_test.rb#SessionStoreTest.test_clear",
        ]
    );
}

// ---- issue 17: C#'s partial classes -------------------------------------------------------

/// `partial class Item` twice in `Store/Item.cs` is one node with every member under it
/// (before: `Item` and `Item~2`); the part in `Store/Item.Async.cs` shares its qualified
/// name, so bare calls between the parts reach the members of either file.
#[test]
fn cs_a_partial_class_is_one_node_whose_parts_call_each_other() {
    let b = build_fixture("cs");
    let classes: Vec<String> = b
        .map
        .nodes_in_file("Store/Item.cs")
        .unwrap()
        .into_iter()
        .filter(|n| n.kind == NodeKind::Class)
        .map(|n| n.id)
        .collect();
    assert_eq!(classes, ["cs:Store/Item.cs#Item"]);
    let members: Vec<String> = b
        .map
        .neighbors("cs:Store/Item.cs#Item", Direction::Out, None, 1, 50)
        .unwrap()
        .neighbors
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Contains)
        .map(|n| n.node.id)
        .collect();
    for m in ["Item.Key", "Item.Matches", "Item.Describe"] {
        assert!(
            members.contains(&format!("cs:Store/Item.cs#{m}")),
            "{m}: {members:?}"
        );
    }
    assert_eq!(
        callers(&b, "cs:Store/Item.cs#Item.Matches"),
        [
            (
                "cs:Store/Item.Async.cs#Item.ReadAsync".to_string(),
                Confidence::Exact
            ),
            (
                "cs:Store/Item.cs#Item.Describe".to_string(),
                Confidence::Exact
            ),
        ]
    );
    assert_eq!(
        callers(&b, "cs:Store/Item.Async.cs#Item.ReadAsync"),
        [(
            "cs:Store/Item.cs#Item.Describe".to_string(),
            Confidence::Exact
        )]
    );
}

// ---- issue 17: Kotlin extension functions -------------------------------------------------

/// OkHttp's `"…".toHttpUrl()`: a call of an extension function on a string literal or on
/// a value whose type the map does not know reaches the one extension of that name
/// (`import`: the file imports it by name); on a receiver typed by a parameter, the
/// extension declared for that type (before: no edge, 3 of 217 linked in OkHttp).
#[test]
fn kt_calls_of_extension_functions_are_linked() {
    let b = build_fixture("kt");
    let urls = "kt:src/main/kotlin/com/example/shop/util/Urls.kt";
    let links = "kt:src/main/kotlin/com/example/shop/api/Links.kt";
    assert_eq!(
        callers(&b, &format!("{urls}#String.toSessionUrl")),
        [(format!("{links}#linkKey"), Confidence::Import)]
    );
    assert_eq!(
        callers(&b, &format!("{urls}#SessionUrl.trimmedKey")),
        [(format!("{links}#keyOf"), Confidence::Import)]
    );
}

// ---- issue 17: PHP imports without a PSR-4 entry ------------------------------------------

/// A WordPress plugin's own namespace (`ShopPlugin\…`, loaded by its own autoloader, no
/// PSR-4 entry): `use ShopPlugin\Audit\AuditLog` finds the class by the namespace its file
/// declares, and what is linked through it is labelled `name`, not `import` (before: an
/// external package, no edge and no hint); the trait use is an edge, through which
/// `$this->log()` reaches the trait's method.
#[test]
fn php_imports_without_a_psr4_entry_match_declared_namespaces_at_the_name_tier() {
    let b = build_fixture("php");
    let plugin = "php:plugin/shop-audit.php";
    let audit_log = "php:plugin/src/Audit/AuditLog.php#AuditLog";
    let loggable = "php:plugin/src/Concerns/Loggable.php#Loggable";
    let imports: Vec<String> = b
        .edges(plugin, Direction::Out)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Imports)
        .map(|n| n.node.id)
        .collect();
    assert_eq!(imports, ["php:plugin/src/Audit/AuditLog.php"]);
    assert_eq!(
        callers(&b, audit_log),
        [(format!("{plugin}#audit"), Confidence::Name)]
    );
    assert_eq!(
        callers(&b, &format!("{audit_log}.record")),
        [(format!("{plugin}#audit"), Confidence::Name)]
    );
    let uses: Vec<(String, EdgeKind, Confidence)> = b
        .edges(audit_log, Direction::Out)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Implements)
        .map(|n| (n.node.id, n.edge, n.confidence))
        .collect();
    assert_eq!(
        uses,
        [(loggable.to_string(), EdgeKind::Implements, Confidence::Name)]
    );
    assert_eq!(
        callers(&b, &format!("{loggable}.log")),
        [(format!("{audit_log}.record"), Confidence::Exact)]
    );
}

/// Everything a map answers about its files, as comparable text: every node (ID, kind,
/// lines, signature, doc, exported), every outgoing edge (kind, confidence, target, line)
/// and, per definition, its mention check (linked and unlinked sites).
fn map_dump(map: &Map) -> Vec<String> {
    let mut out = vec![];
    for file in map.files().unwrap() {
        for n in map.nodes_in_file(&file).unwrap() {
            out.push(format!(
                "node {} {:?} {:?}-{:?}:{:?} sig={:?} doc={:?} exported={}",
                n.id, n.kind, n.line, n.end_line, n.col, n.signature, n.doc, n.exported
            ));
            let mut edges: Vec<String> = map
                .neighbors(&n.id, Direction::Out, None, 1, 200)
                .unwrap()
                .neighbors
                .into_iter()
                .map(|e| {
                    format!(
                        "  {:?} {:?} → {} @{:?}",
                        e.edge, e.confidence, e.node.id, e.line
                    )
                })
                .collect();
            edges.sort();
            out.extend(edges);
            if n.kind != NodeKind::File {
                let m = map.mention_check(&n.id).unwrap();
                // Linked sites are a set (their order follows edge insertion); the
                // unlinked ones are ranked.
                let mut linked: Vec<String> =
                    m.linked_sites.iter().map(|s| format!("{s:?}")).collect();
                linked.sort();
                out.push(format!(
                    "  mentions linked {} {linked:?} excluded {} unlinked {:?}",
                    m.linked, m.excluded, m.unlinked
                ));
            }
        }
    }
    out
}

/// Issue 19: the CLI re-indexes a few changed files without loading the whole map; the
/// map it leaves must be the one a full rebuild makes. The edit renames, removes and adds
/// definitions that other files use (by import, by module attribute, by bare name and as
/// a method), so edges into the file must go, change and appear.
#[test]
fn an_incremental_cli_rebuild_leaves_the_map_a_full_rebuild_makes() {
    let files: &[(&str, &str)] = &[
        (
            "pkg/lib.py",
            "def helper():\n    return 1\n\n\ndef old_name():\n    return 2\n\n\ndef doomed():\n    return 3\n\n\nclass Store:\n    def put(self, x):\n        return x\n",
        ),
        (
            "pkg/app.py",
            "from pkg.lib import helper, old_name, doomed, new_name, Store, fresh\nfrom pkg import lib\n\n\ndef main():\n    helper()\n    old_name()\n    doomed()\n    new_name()\n    lib.new_name()\n    lib.fresh()\n    s = Store()\n    s.put(1)\n    s.save(2)\n    return s\n\n\ndef pick():\n    # A value use of a name the edit defines: this file is re-resolved, not re-read.\n    return fresh\n",
        ),
        (
            "pkg/other.py",
            "from pkg.app import main\nfrom pkg.lib import *\nimport pkg.extra\n\n\ndef run():\n    main()\n    fresh()\n    doomed()\n    pkg.extra.later()\n",
        ),
        ("pkg/__init__.py", ""),
        ("pkg/untouched.py", "def alone():\n    return 0\n"),
    ];
    let edited = "def helper():\n    return 1\n\n\ndef new_name():\n    return 2\n\n\ndef fresh():\n    return helper()\n\n\nclass Store:\n    def save(self, x):\n        return x\n";
    let registry = Arc::new(navmap_grammars::registry());
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for (p, text) in files {
        let abs = root.join(p);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
        std::fs::write(abs, text).unwrap();
    }
    // `rebuild_only` as `navmap rebuild` opens it: nothing derived, nothing but the
    // rebuild asked; else as a command that queries.
    let config = |db: &str, rebuild_only: bool| {
        let mut c = MapConfig::new(&root);
        c.db_path = Some(root.join(".navmap").join(db));
        c.derive_eagerly = false;
        c.rebuild_only = rebuild_only;
        c
    };
    {
        let (map, _) = Map::open(config("map.db", false), registry.clone()).unwrap();
        map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        let main = map
            .neighbors("py:pkg/app.py#main", Direction::Out, None, 1, 200)
            .unwrap();
        let targets: Vec<&str> = main.neighbors.iter().map(|n| n.node.id.as_str()).collect();
        for t in [
            "py:pkg/lib.py#old_name",
            "py:pkg/lib.py#doomed",
            "py:pkg/lib.py#Store.put",
        ] {
            assert!(
                targets.contains(&t),
                "before the edit, main → {t}: {targets:?}"
            );
        }
    }
    std::fs::write(root.join("pkg/lib.py"), edited).unwrap();
    // A new file that an unchanged one imports: that file's import target changes, so
    // its row is written again with the mentions it was loaded with (still encoded).
    std::fs::write(root.join("pkg/extra.py"), "def later():\n    return 4\n").unwrap();
    let (incremental, _) = Map::open(config("map.db", true), registry.clone()).unwrap();
    let s = incremental
        .rebuild(RebuildOptions::default(), &|_| {})
        .unwrap();
    assert_eq!(s.files_indexed, 2);
    drop(incremental);
    let (full, _) = Map::open(config("full.db", false), registry.clone()).unwrap();
    full.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    // The incremental map as the next process sees it (reloaded from SQLite).
    let (reopened, _) = Map::open(config("map.db", false), registry).unwrap();
    let (a, b) = (map_dump(&reopened), map_dump(&full));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "incremental (left) and full (right) differ");
    }
    assert_eq!(a.len(), b.len());
    let main: Vec<String> = a
        .iter()
        .skip_while(|l| !l.starts_with("node py:pkg/app.py#main "))
        .skip(1)
        .take_while(|l| l.starts_with("  ") && !l.starts_with("  mentions"))
        .cloned()
        .collect();
    for t in ["py:pkg/lib.py#new_name", "py:pkg/lib.py#Store.save"] {
        assert!(
            main.iter().any(|l| l.contains(t)),
            "after, main → {t}: {main:?}"
        );
    }
    for t in ["old_name", "doomed", "Store.put"] {
        let gone = format!("py:pkg/lib.py#{t} @");
        assert!(
            !main.iter().any(|l| l.contains(&gone)),
            "main → {t}: {main:?}"
        );
    }
}

/// Go: a method added to a type makes it implement an interface, and the calls of the
/// interface's *other* methods reach it (`Resolver::implementations`): the incremental
/// rebuild resolves again the users of every method name of a changed file whose
/// methods changed, and leaves the map a full rebuild makes (before: `Use`, a user of
/// `Write` only, kept no edge to `Buf.Write` after `Flush` was added).
#[test]
fn go_an_incremental_rebuild_follows_a_changed_method_set() {
    let registry = Arc::new(navmap_grammars::registry());
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let sink = "package a\n\ntype Sink interface {\n\tWrite(s string)\n\tFlush()\n}\n\ntype Buf struct{}\n\nfunc (b *Buf) Write(s string) {}\n";
    for (p, text) in [
        ("go.mod", "module example.com/m\n\ngo 1.21\n"),
        ("a/a.go", sink),
        (
            "b/b.go",
            "package b\n\nimport \"example.com/m/a\"\n\nfunc Use(s a.Sink) {\n\ts.Write(\"x\")\n}\n",
        ),
    ] {
        let abs = root.join(p);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
        std::fs::write(abs, text).unwrap();
    }
    let config = |db: &str, rebuild_only: bool| {
        let mut c = MapConfig::new(&root);
        c.db_path = Some(root.join(".navmap").join(db));
        c.derive_eagerly = false;
        c.rebuild_only = rebuild_only;
        c
    };
    let writes = |map: &Map| -> Vec<String> {
        map.neighbors("go:a/a.go#Buf.Write", Direction::In, None, 1, 50)
            .unwrap()
            .neighbors
            .into_iter()
            .filter(|n| n.edge == EdgeKind::Calls)
            .map(|n| n.node.id)
            .collect()
    };
    {
        let (map, _) = Map::open(config("map.db", false), registry.clone()).unwrap();
        map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert!(writes(&map).is_empty(), "{:?}", writes(&map));
    }
    std::fs::write(
        root.join("a/a.go"),
        format!("{sink}\nfunc (b *Buf) Flush() {{}}\n"),
    )
    .unwrap();
    let (incremental, _) = Map::open(config("map.db", true), registry.clone()).unwrap();
    incremental
        .rebuild(RebuildOptions::default(), &|_| {})
        .unwrap();
    drop(incremental);
    let (full, _) = Map::open(config("full.db", false), registry.clone()).unwrap();
    full.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    let (reopened, _) = Map::open(config("map.db", false), registry).unwrap();
    assert_eq!(writes(&full), ["go:b/b.go#Use"]);
    assert_eq!(writes(&reopened), writes(&full));
    let (a, b) = (map_dump(&reopened), map_dump(&full));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "incremental (left) and full (right) differ");
    }
    assert_eq!(a.len(), b.len());
}

/// The in-edges of `id` that are `references` from a resolved use: (source, confidence).
fn value_users(b: &Built, id: &str) -> Vec<(String, Confidence)> {
    b.edges(id, Direction::In)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::References && n.resolved)
        .map(|n| (n.node.id, n.confidence))
        .collect()
}

/// Python: a nested function returned as a value (`return make` in a pytest fixture, the
/// factory shape) is a use of it from the enclosing function, found by the scope walk:
/// `exact` (before: an unlinked mention only).
#[test]
fn py_a_nested_function_returned_as_a_value_is_used_by_its_encloser() {
    let b = build_fixture("py");
    let users = value_users(&b, "py:tests/conftest.py#make_store.make");
    assert!(
        users.contains(&("py:tests/conftest.py#make_store".into(), Confidence::Exact)),
        "{users:?}"
    );
    // The tests' `make_store` parameters name the fixture's value, not the function.
    let fixture = value_users(&b, "py:tests/conftest.py#make_store");
    assert!(fixture.is_empty(), "{fixture:?}");
}

/// Functions in a table are uses of them through the imports of their modules: `import`
/// (before: unlinked mentions only). Go: `[]Checker{{Validate: email.Validate}, {Validate:
/// tok.Validate}}` (the alias included); Rust: a table of fn pointers `[email::validate,
/// token::validate]` in `fixtures/rs/src/api.rs#check` (whose later call `validate(value)`
/// of the local stays a `candidate`).
#[test]
fn a_function_in_a_table_is_used_through_the_import_of_its_module() {
    let cases = [
        (
            "go",
            "go:api/api.go#checkers",
            [
                "go:util/email/email.go#Validate",
                "go:util/token/token.go#Validate",
            ],
        ),
        (
            "rs",
            "rs:src/api.rs#check",
            [
                "rs:src/util/email.rs#validate",
                "rs:src/util/token.rs#validate",
            ],
        ),
    ];
    for (dir, user, ids) in cases {
        let b = build_fixture(dir);
        for id in ids {
            let users = value_users(&b, id);
            assert!(
                users.contains(&(user.into(), Confidence::Import)),
                "{id}: {users:?}"
            );
        }
    }
}

/// Java: a class named by its full package path without an import, as generated code does
/// (`Builder<com.example.shop.base.Session>`, `new com.example.shop.base.Session(…)`), is
/// a use of it (before: only an `implements` base was followed down the package path).
#[test]
fn java_a_fully_qualified_class_is_used_where_it_is_named() {
    let b = build_fixture("java");
    let session = "java:src/main/java/com/example/shop/base/Session.java#Session";
    let users: Vec<String> = b
        .edges(session, Direction::In)
        .into_iter()
        .filter(|n| n.resolved && n.edge != EdgeKind::Imports)
        .map(|n| n.node.id)
        .collect();
    let builder = "java:src/main/java/com/example/shop/session/SessionBuilder.java#SessionBuilder";
    for user in [builder.to_string(), format!("{builder}.build")] {
        assert!(users.contains(&user), "{user}: {users:?}");
    }
}

/// The resolved `references` edges into `id`: (from, confidence), sorted.
fn references_in(b: &Built, id: &str) -> Vec<(String, Confidence)> {
    let mut got: Vec<(String, Confidence)> = b
        .edges(id, Direction::In)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::References && n.resolved)
        .map(|n| (n.node.id, n.confidence))
        .collect();
    got.sort();
    got
}

/// Java: a class named before a member it owns (commons-cli's
/// `OptionFormatter.DEFAULT_OPT_PREFIX`, `Util.stripLeadingHyphens(…)` from another
/// package) is a use of the class, as jdtls counts it: `Api.stripPrefix` reads
/// `SessionStore.KEY_PREFIX` and calls `Checks.checkName(…)`. Before: the class's name
/// there was no use (29 silent sites of `OptionFormatter` on commons-cli).
#[test]
fn java_a_class_named_before_its_member_is_a_use_of_the_class() {
    let b = build_fixture("java");
    let strip = "java:src/main/java/com/example/shop/api/Api.java#Api.stripPrefix".to_string();
    for class in [
        "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore",
        "java:src/main/java/com/example/shop/util/Checks.java#Checks",
    ] {
        let users = references_in(&b, class);
        assert!(
            users.contains(&(strip.clone(), Confidence::Import)),
            "{class}: {users:?}"
        );
    }
}

/// Java: Javadoc's `{@link SessionStore#refresh(String)}` on `Api.stripPrefix` is a use of
/// the method and of its class, from the class around the comment (where jdtls's reference
/// lies); `@throws` of a JDK class names nothing in the repository. Before: comments were
/// never read (commons-cli: `{@link #withType(Class)}`, `@throws
/// AlreadySelectedException`, `{@link OptionFormatter.Builder}` were silent misses).
#[test]
fn java_javadoc_links_are_uses_of_what_they_name() {
    let b = build_fixture("java");
    let api = "java:src/main/java/com/example/shop/api/Api.java#Api".to_string();
    let store = "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore";
    let refresh = format!("{store}.refresh");
    assert_eq!(
        references_in(&b, &refresh),
        [(api.clone(), Confidence::Import)]
    );
    assert!(references_in(&b, store).contains(&(api, Confidence::Import)));
}

/// Java: a builder chain (commons-cli's `Option.builder(o).hasArg(…).required(…)
/// .type(t).get()`) calls each link on the type the previous one returns, which a Java
/// signature states before the method's name (`public Builder hasArg(boolean b)`), and
/// inside `Option.Builder` the name `Builder` is that class. Before: only the first link
/// was linked; the rest were unlinked.
#[test]
fn java_a_builder_chain_calls_each_link_on_the_type_the_previous_returns() {
    let b = build_tree(&[
        (
            "src/main/java/p/Option.java",
            "package p;\n\npublic class Option {\n    public static Builder builder(String opt) {\n        return new Builder(opt);\n    }\n\n    public static final class Builder {\n        Builder(String opt) {\n        }\n\n        public Builder hasArg(boolean b) {\n            return this;\n        }\n\n        public Builder required(boolean b) {\n            return this;\n        }\n\n        public Builder type(Class<?> t) {\n            return this;\n        }\n\n        public Option get() {\n            return new Option();\n        }\n    }\n}\n",
        ),
        (
            "src/main/java/p/Patterns.java",
            "package p;\n\npublic class Patterns {\n    static Option four(char opt, Class<?> type, boolean required) {\n        return Option.builder(String.valueOf(opt)).hasArg(type != null).required(required).type(type).get();\n    }\n\n    static Option two(String opt) {\n        return Option.builder(opt).hasArg(true).get();\n    }\n}\n",
        ),
    ]);
    // The fixture's shape, from a construction: `new …SessionBuilder().id(key).id(…).build()`.
    let fixture = build_fixture("java");
    let build =
        "java:src/main/java/com/example/shop/session/SessionBuilder.java#SessionBuilder.build";
    let session = "java:src/main/java/com/example/shop/api/Api.java#Api.session";
    assert!(
        calls_in(&fixture, build)
            .iter()
            .any(|(id, _, resolved)| id == session && *resolved),
        "{:?}",
        calls_in(&fixture, build)
    );
    let get = "java:src/main/java/p/Option.java#Option.Builder.get";
    let callers: Vec<String> = calls_in(&b, get).into_iter().map(|(id, _, _)| id).collect();
    assert_eq!(
        callers,
        [
            "java:src/main/java/p/Patterns.java#Patterns.four",
            "java:src/main/java/p/Patterns.java#Patterns.two",
        ],
        "{:?}",
        calls_in(&b, "java:src/main/java/p/Option.java#Option.Builder.hasArg")
    );
}

/// A map built over the given files (path, text) in a fresh directory.
fn build_tree(files: &[(&str, &str)]) -> Built {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    built_in(dir)
}

/// Python: `super(BytesGenerator, self)._handle_text(msg)` (the stdlib's `email.generator`)
/// and `super().put(…)` call the base class's method (the manifest's `base_receivers`):
/// `exact` (before: no edge, `super(…)` was no receiver the map knew).
#[test]
fn a_member_of_another_class_of_the_same_name_is_not_inherited() {
    // The stdlib's `TestRmTree(BaseTest, unittest.TestCase)`: its own file's `BaseTest`
    // has no `assertRaises`; test_optparse.py's `class BaseTest` has one, and the call
    // was linked to it (at `exact`, whichever file the build met first).
    let b = build_tree(&[
        (
            "a.py",
            "import unittest\n\n\nclass BaseTest:\n    def helper(self):\n        pass\n\n\nclass TestX(BaseTest, unittest.TestCase):\n    def test(self):\n        self.assertRaises(ValueError, int, \"x\")\n        self.helper()\n",
        ),
        (
            "b.py",
            "import unittest\n\n\nclass BaseTest(unittest.TestCase):\n    def assertRaises(self, *a):\n        pass\n",
        ),
    ]);
    let calls: Vec<String> = b
        .edges("py:a.py#TestX.test", Direction::Out)
        .into_iter()
        .filter(|n| n.edge == EdgeKind::Calls)
        .map(|n| n.node.id)
        .collect();
    assert_eq!(calls, ["py:a.py#BaseTest.helper"], "{calls:?}");
}

#[test]
fn py_a_call_through_super_reaches_the_base_classs_method() {
    let b = build_tree(&[
        (
            "gen.py",
            "class Generator:\n    def _handle_text(self, msg):\n        pass\n\n    def put(self, k):\n        pass\n",
        ),
        (
            "bytes_gen.py",
            "from gen import Generator\n\n\nclass BytesGenerator(Generator):\n    def _handle_text(self, msg):\n        super(BytesGenerator, self)._handle_text(msg)\n\n    def put(self, k):\n        super().put(k)\n",
        ),
    ]);
    for (base, from) in [
        (
            "py:gen.py#Generator._handle_text",
            "py:bytes_gen.py#BytesGenerator._handle_text",
        ),
        (
            "py:gen.py#Generator.put",
            "py:bytes_gen.py#BytesGenerator.put",
        ),
    ] {
        let callers: Vec<(String, Confidence)> = b
            .edges(base, Direction::In)
            .into_iter()
            .filter(|n| n.edge == EdgeKind::Calls)
            .map(|n| (n.node.id, n.confidence))
            .collect();
        assert!(
            callers.contains(&(from.to_string(), Confidence::Exact)),
            "{base}: {callers:?}"
        );
    }
}

/// Builds `files`, applies `edits` to files that exist (the change a one-file `navmap
/// rebuild` loads part of the map for), rebuilds as `navmap rebuild` opens the map, and
/// checks the map it leaves — nodes, edges, mentions and the counts it reports — against
/// a full rebuild. Returns how many files the rebuild loaded, of how many.
fn partial_rebuild_matches_full(files: &[(&str, &str)], edits: &[(&str, &str)]) -> (usize, usize) {
    let registry = Arc::new(navmap_grammars::registry());
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for (p, text) in files {
        let abs = root.join(p);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
        std::fs::write(abs, text).unwrap();
    }
    let config = |db: &str, rebuild_only: bool| {
        let mut c = MapConfig::new(&root);
        c.db_path = Some(root.join(".navmap").join(db));
        c.derive_eagerly = false;
        c.rebuild_only = rebuild_only;
        c
    };
    {
        let (map, _) = Map::open(config("map.db", false), registry.clone()).unwrap();
        map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    }
    for (p, text) in edits {
        assert!(root.join(p).is_file(), "{p}: edits change files that exist");
        std::fs::write(root.join(p), text).unwrap();
    }
    let (incremental, _) = Map::open(config("map.db", true), registry.clone()).unwrap();
    assert_eq!(
        incremental.files_loaded().unwrap().0,
        0,
        "nothing loaded before the rebuild"
    );
    let s = incremental
        .rebuild(RebuildOptions::default(), &|_| {})
        .unwrap();
    assert_eq!(s.files_indexed, edits.len() as u64);
    let loaded = incremental.files_loaded().unwrap();
    drop(incremental);
    let (full, _) = Map::open(config("full.db", false), registry.clone()).unwrap();
    let f = full.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert_eq!(
        (s.files, s.symbols, s.edges),
        (f.files, f.symbols, f.edges),
        "counts"
    );
    let (reopened, _) = Map::open(config("map.db", false), registry).unwrap();
    let (a, b) = (map_dump(&reopened), map_dump(&full));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "incremental (left) and full (right) differ");
    }
    assert_eq!(a.len(), b.len());
    loaded
}

/// Files beside each case of a rebuild that loads part of the map: they must stay unloaded.
fn with_untouched(case: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    [
        ("pkg/__init__.py", ""),
        ("pkg/alone.py", "def alone():\n    return 0\n"),
        ("pkg/more.py", "def more():\n    return alone()\n"),
    ]
    .iter()
    .chain(case)
    .copied()
    .collect()
}

/// A name newly defined elsewhere: the file that calls it is re-resolved (the users of a
/// changed name, from the name index), though neither it nor its imports changed.
#[test]
fn a_partial_rebuild_re_resolves_the_callers_of_a_name_defined_anew() {
    let (loaded, total) = partial_rebuild_matches_full(
        &with_untouched(&[
            ("pkg/caller.py", "def run():\n    return later()\n"),
            ("pkg/lib.py", "def helper():\n    return 1\n"),
        ]),
        &[(
            "pkg/lib.py",
            "def helper():\n    return 1\n\n\ndef later():\n    return 2\n",
        )],
    );
    assert!(loaded < total, "{loaded} of {total} files loaded");
}

/// A call on a call's result (`Circle::new(1.0).area()`) in the changed file: the rebuild
/// loads the file defining `Circle::new`, not every file that defines some `new` (a
/// registry's `new` is defined in hundreds of files; loading them all made a one-file
/// re-index three times slower).
#[test]
fn a_partial_rebuild_does_not_load_every_definition_of_a_chained_callee() {
    let others = ["a", "b", "c", "d"];
    let other_files: Vec<(String, String)> = others
        .iter()
        .map(|o| {
            let ty = o.to_uppercase();
            (
                format!("src/{o}.rs"),
                format!("pub struct {ty};\nimpl {ty} {{\n    pub fn new() -> Self {{\n        {ty}\n    }}\n}}\n"),
            )
        })
        .collect();
    let mods: String = others.iter().map(|o| format!("mod {o};\n")).collect();
    let lib = format!("{mods}mod shapes;\npub mod app;\n");
    let mut files: Vec<(&str, &str)> = vec![
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
        ),
        ("src/lib.rs", &lib),
        (
            "src/shapes.rs",
            "pub struct Circle {\n    r: f64,\n}\nimpl Circle {\n    pub fn new(r: f64) -> Self {\n        Circle { r }\n    }\n    pub fn area(&self) -> f64 {\n        self.r * self.r\n    }\n}\n",
        ),
        (
            "src/app.rs",
            "use crate::shapes::Circle;\n\npub fn run() -> f64 {\n    0.0\n}\n",
        ),
    ];
    files.extend(other_files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let (loaded, total) = partial_rebuild_matches_full(
        &files,
        &[(
            "src/app.rs",
            "use crate::shapes::Circle;\n\npub fn run() -> f64 {\n    Circle::new(1.0).area()\n}\n",
        )],
    );
    assert!(
        loaded + others.len() <= total,
        "{loaded} of {total} files loaded: the other files defining `new` among them"
    );
}

/// A removed definition with an incoming edge from a file that does not name it in a use
/// or an import (a value read through a module alias): the edge goes with it (the files
/// stored with edges into the changed file are loaded first).
#[test]
fn a_partial_rebuild_drops_the_edges_into_a_removed_definition() {
    partial_rebuild_matches_full(
        &with_untouched(&[
            (
                "pkg/caller.py",
                "import pkg.lib as L\n\n\ndef run():\n    return L.doomed\n",
            ),
            (
                "pkg/lib.py",
                "def helper():\n    return 1\n\n\ndef doomed():\n    return 2\n",
            ),
        ]),
        &[("pkg/lib.py", "def helper():\n    return 1\n")],
    );
}

/// A re-export chain: the changed file's import of `thing` leads through the package's
/// `__init__.py` (its imports, not loaded before) to the file that defines it.
#[test]
fn a_partial_rebuild_follows_a_re_export_chain() {
    partial_rebuild_matches_full(
        &with_untouched(&[
            ("deep/__init__.py", "from deep.impl import thing\n"),
            ("deep/impl.py", "def thing():\n    return 1\n"),
            (
                "pkg/user.py",
                "from deep import thing\n\n\ndef run():\n    return 0\n",
            ),
        ]),
        &[(
            "pkg/user.py",
            "from deep import thing\n\n\ndef run():\n    return thing()\n",
        )],
    );
}

/// A base class in another file, and its base in a third: the changed file's
/// `self.hello()` is found through `extends` edges stored in files it did not change.
#[test]
fn a_partial_rebuild_follows_base_classes_in_other_files() {
    partial_rebuild_matches_full(
        &with_untouched(&[
            (
                "pkg/base.py",
                "class Base:\n    def hello(self):\n        return 1\n",
            ),
            (
                "pkg/mid.py",
                "from pkg.base import Base\n\n\nclass Mid(Base):\n    pass\n",
            ),
            (
                "pkg/app.py",
                "from pkg.mid import Mid\n\n\nclass App(Mid):\n    def run(self):\n        return 0\n",
            ),
        ]),
        &[(
            "pkg/app.py",
            "from pkg.mid import Mid\n\n\nclass App(Mid):\n    def run(self):\n        return self.hello()\n",
        )],
    );
}

/// An external module the changed file stops importing: kept while a file not loaded
/// imports it, dropped with its last importer.
#[test]
fn a_partial_rebuild_keeps_an_external_module_another_file_imports() {
    partial_rebuild_matches_full(
        &with_untouched(&[
            (
                "pkg/one.py",
                "import numpy\nimport scipy\n\n\ndef f():\n    return numpy.zeros(1)\n",
            ),
            (
                "pkg/two.py",
                "import numpy\n\n\ndef g():\n    return numpy.ones(1)\n",
            ),
        ]),
        &[("pkg/one.py", "def f():\n    return 0\n")],
    );
}

/// zod's `_parse` family (`fixtures/ts/src/view/schema.ts`): a call of `check` on a
/// receiver the map cannot type (`shape[key]!`, `this.def.inner` with `def` an object
/// type) is a call of the method every reachable `check` overrides, `Schema.check`, at
/// `name` tier (before: no edge, the calls unlinked for every `check`). An override's
/// answer still lists them, unlinked: they may dispatch to it.
#[test]
fn ts_a_call_on_an_untyped_receiver_reaches_the_root_of_its_override_family() {
    let b = ts_fixture_map();
    let file = "ts:src/view/schema.ts";
    assert_eq!(
        callers(&b, &format!("{file}#Schema.check")),
        vec![
            (format!("{file}#Optional.check"), Confidence::Name),
            (format!("{file}#Schema.parse"), Confidence::Exact),
            (format!("{file}#checkShape"), Confidence::Name),
        ]
    );
    assert_eq!(callers(&b, &format!("{file}#Text.check")), vec![]);
    let check = b.map.mention_check(&format!("{file}#Text.check")).unwrap();
    let mut unlinked: Vec<u32> = check.unlinked.iter().map(|s| s.line).collect();
    unlinked.sort();
    assert_eq!(unlinked, [10, 31, 39], "{:?}", check.unlinked);
}

/// Issue 19, the cold peak: a fresh build of a map opened to rebuild only (`navmap
/// rebuild`, `rebuild --full`) leaves each file's references and mentions in the database
/// once its row is written, resolves its structural references from what it kept aside
/// and reads the uses back a batch of files at a time. The map it writes is the one a
/// build that holds them writes (more files than one batch, bases and imports across
/// files, value uses, rows written again with their import targets), and a rebuild of the
/// same map afterwards (which must load the uses it left) leaves the map a full rebuild
/// makes.
#[test]
fn a_fresh_build_that_leaves_its_uses_in_the_database_writes_the_same_map() {
    let registry = Arc::new(navmap_grammars::registry());
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let write = |p: &str, text: &str| {
        let abs = root.join(p);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
        std::fs::write(abs, text).unwrap();
    };
    write("pkg/__init__.py", "");
    write(
        "pkg/base.py",
        "class Base:\n    def run(self):\n        return helper()\n\n\ndef helper():\n    return 1\n",
    );
    for i in 0..150 {
        let next = (i + 1) % 150;
        write(
            &format!("pkg/m{i}.py"),
            &format!(
                "from pkg.base import Base, helper\nfrom pkg import m{next}\n\n\nclass C{i}(Base):\n    def go(self):\n        self.run()\n        m{next}.f{next}()\n        return helper\n\n\ndef f{i}():\n    return C{i}().go()\n"
            ),
        );
    }
    let config = |db: &str, rebuild_only: bool| {
        let mut c = MapConfig::new(&root);
        c.db_path = Some(root.join(".navmap").join(db));
        c.derive_eagerly = false;
        c.rebuild_only = rebuild_only;
        c
    };
    let dump_of = |db: &str| {
        let (m, _) = Map::open(config(db, false), registry.clone()).unwrap();
        map_dump(&m)
    };
    let same = |a: Vec<String>, b: Vec<String>, what: &str| {
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x, y, "{what}: left and right differ");
        }
        assert_eq!(a.len(), b.len(), "{what}");
    };
    // Held: a map that keeps its uses (not opened to rebuild only).
    let (held, _) = Map::open(config("held.db", false), registry.clone()).unwrap();
    held.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    drop(held);
    let (left, _) = Map::open(config("left.db", true), registry.clone()).unwrap();
    let s = left.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert_eq!(s.files_indexed, 152);
    let held_dump = dump_of("held.db");
    assert!(
        held_dump
            .iter()
            .any(|l| l.contains("Extends") && l.contains("#Base")),
        "a base across files: {held_dump:?}"
    );
    same(
        dump_of("left.db"),
        held_dump,
        "a fresh build holding (right) its uses or not",
    );
    // The same map object rebuilds after an edit: the uses it left are loaded.
    write(
        "pkg/base.py",
        "class Base:\n    def run(self):\n        return other()\n\n\ndef other():\n    return 1\n",
    );
    let s = left.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    assert_eq!(s.files_indexed, 1);
    let s = left
        .rebuild(
            RebuildOptions {
                full: true,
                ..Default::default()
            },
            &|_| {},
        )
        .unwrap();
    assert_eq!(s.files_indexed, 152);
    drop(left);
    let (full, _) = Map::open(config("full.db", false), registry.clone()).unwrap();
    full.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
    drop(full);
    same(
        dump_of("left.db"),
        dump_of("full.db"),
        "rebuilt (left) and full (right)",
    );
}
