//! Issue 9's points for the map tools, each pinned through a real MCP client on a fixture
//! copy: compact node views (nothing the ID or the request already says), "where is X"
//! answered by the exact hit alone, one-call members / importers / subclasses, enum
//! members as nodes, caps and nested cuts visible and resumable, notes that never suggest
//! a parameter already set, `map_path` never climbing `contains`, `map_overview` labels /
//! folding / hints, `map_status` servers only for languages present, docs as first
//! sentences. The shapes are documented in docs/answers.md.

mod common;

use common::*;
use serde_json::{Value, json};

fn items<'a>(d: &'a Value, key: &str) -> &'a Vec<Value> {
    d[key].as_array().unwrap_or_else(|| panic!("{key} in {d}"))
}

fn ids(list: &[Value]) -> Vec<&str> {
    list.iter().map(|v| v["id"].as_str().unwrap()).collect()
}

/// Keys no compact node view carries: the ID says them, or they restate `confidence`.
const NEVER: [&str; 4] = ["file", "name", "resolved", "qualifiedName"];

fn assert_compact(v: &Value) {
    for k in NEVER {
        assert!(v.get(k).is_none(), "{k} in {v}");
    }
    let id = v["id"].as_str().unwrap_or_else(|| panic!("id in {v}"));
    // A file neighbor of map_neighbors has no `kind`: the ID (no `#`) says it.
    assert!(v["kind"].is_string() || !id.contains('#'), "{v}");
}

/// A neighbor of a list grouped under one `file`: `name` instead of `id`, nothing else
/// the ID would say.
fn assert_compact_in_file(v: &Value) {
    if let Some(row) = v.as_str() {
        // `<line> <kind> <name>`: nothing else to say.
        let parts: Vec<&str> = row.splitn(3, ' ').collect();
        assert!(parts.len() == 3 && parts[0].parse::<u32>().is_ok(), "{row}");
        return;
    }
    assert!(v.get("id").is_none() && v.get("file").is_none(), "{v}");
    assert!(v["name"].is_string() && v["kind"].is_string(), "{v}");
}

#[tokio::test]
async fn neighbors_are_compact_and_one_call_answers() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;

    // Importers of the store module: every request-fixed field is left out.
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py", "direction": "in", "edgeKinds": ["imports"]}),
    )
    .await;
    let d = ok(&env);
    // The node asked about is the request: not echoed (issue 18).
    assert!(d.get("node").is_none(), "{d}");
    let importers = items(d, "neighbors");
    assert!(ids(importers).contains(&"py:shop/api.py"), "{d}");
    for n in importers {
        // A file neighbor: its ID (no `#`) says it is a file, so `kind` is left out.
        assert!(n.get("kind").is_none(), "{n}");
        assert_compact(n);
        // Resolved imports are exact: said by leaving `confidence` out.
        assert!(n.get("confidence").is_none(), "{n}");
        assert!(n["edgeLine"].is_u64(), "the import line stays: {n}");
        for k in ["edge", "direction", "depth"] {
            assert!(n.get(k).is_none(), "{k} repeats the request: {n}");
        }
    }
    // One importer costs far less than the 190 chars of the old view.
    let api = importers
        .iter()
        .find(|n| n["id"] == "py:shop/api.py")
        .unwrap();
    assert!(api.to_string().len() < 100, "{api}");

    // Unfixed fields stay: both directions, every edge kind.
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#SessionStore"}),
    )
    .await)
    .clone();
    for n in items(&d, "neighbors") {
        assert_compact(n);
        assert!(n["edge"].is_string() && n["direction"].is_string(), "{n}");
    }

    // Members of a class in one call: methods only.
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#SessionStore", "direction": "out",
               "edgeKinds": ["contains"], "kind": ["method"]}),
    )
    .await)
    .clone();
    let mut members = neighbor_ids(&d);
    members.sort();
    assert_eq!(
        members,
        [
            "py:shop/store.py#SessionStore.__init__",
            "py:shop/store.py#SessionStore.get",
            "py:shop/store.py#SessionStore.put",
            "py:shop/store.py#SessionStore.refresh",
        ],
        "{d}"
    );
    assert!(
        items(&d, "neighbors").iter().all(|n| n
            .as_str()
            .is_some_and(|r| r.contains(" method SessionStore."))),
        "{d}"
    );
    assert!(
        items(&d, "neighbors")
            .iter()
            .any(|n| n == "27 method SessionStore.refresh"),
        "{d}"
    );
    // One file: its ID once, each member by the rest of its ID; no signatures for a
    // structural edge unless asked.
    assert_eq!(d["file"], "py:shop/store.py", "{d}");
    for n in items(&d, "neighbors") {
        assert_compact_in_file(n);
        assert!(
            n.get("signature").is_none() && n.get("doc").is_none(),
            "{n}"
        );
    }
    // Contains edges are exact by construction: not said on each member.
    assert!(
        items(&d, "neighbors")
            .iter()
            .all(|n| n.get("confidence").is_none()),
        "{d}"
    );
    assert_eq!(d["total"], 4);

    // A file's contents in one call: its top-level definitions.
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py", "direction": "out", "edgeKinds": ["contains"]}),
    )
    .await)
    .clone();
    let mut contents = neighbor_ids(&d);
    contents.sort();
    assert_eq!(
        contents,
        [
            "py:shop/store.py#DEFAULT_TTL",
            "py:shop/store.py#SessionStore"
        ],
        "{d}"
    );

    // Subclasses in one call.
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/base.py#BaseStore", "direction": "in", "edgeKinds": ["extends"]}),
    )
    .await)
    .clone();
    assert_eq!(neighbor_ids(&d), ["py:shop/store.py#SessionStore"], "{d}");
    let sub = &items(&d, "neighbors")[0];
    assert_compact(sub);
    // The edge is the class's own header line, so `edgeLine` would repeat `line`; the
    // base is reached through an import, which `confidence` still says.
    assert_eq!(sub["line"], 11, "{sub}");
    assert!(sub.get("edgeLine").is_none(), "{sub}");
    assert_eq!(sub["confidence"], "import", "{sub}");
    assert!(sub.get("signature").is_none(), "{sub}");
    // Asked for detail: the signature and doc come along.
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/base.py#BaseStore", "direction": "in",
               "edgeKinds": ["extends"], "detail": true}),
    )
    .await)
    .clone();
    assert_eq!(
        items(&d, "neighbors")[0]["signature"],
        "class SessionStore(BaseStore)",
        "{d}"
    );

    // maxNodes cuts visibly: `dropped` names the cap and the total.
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#SessionStore", "direction": "out",
               "edgeKinds": ["contains"], "maxNodes": 2}),
    )
    .await;
    assert_eq!(items(ok(&env), "neighbors").len(), 2);
    assert_eq!(env["truncated"], true, "{env}");
    assert!(env["dropped"]["total"].as_u64().unwrap() > 2, "{env}");
    let n = note(&env);
    assert!(n.contains("maxNodes"), "{env}");
    // The call set edgeKinds and direction: the note does not suggest them.
    assert!(!n.contains("edgeKinds") && !n.contains("direction"), "{n}");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn notes_never_suggest_a_parameter_already_set() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py", "depth": 3, "tokenBudget": 250}),
    )
    .await;
    assert_eq!(env["truncated"], true, "{env}");
    assert!(note(&env).contains("edgeKinds"), "{env}");
    assert!(note(&env).contains("depth:1"), "{env}");
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py", "depth": 3, "direction": "both",
               "edgeKinds": ["contains", "imports", "calls", "references", "extends"],
               "kind": ["method", "function", "class", "file", "constant", "variable", "property", "module"],
               "tokenBudget": 250}),
    )
    .await;
    assert_eq!(env["truncated"], true, "{env}");
    let n = note(&env);
    for set in ["edgeKinds", "direction", "kind:", "kind ", "kind,"] {
        assert!(!n.contains(set), "{set} is already set: {n}");
    }
    assert!(n.contains("depth:1") && n.contains("tokenBudget"), "{n}");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn where_is_x_is_the_exact_hit_alone() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;
    let d = ok(&call(&c, "map_search", json!({"query": "refresh"})).await).clone();
    let results = items(&d, "results");
    assert_eq!(
        ids(results),
        ["py:shop/store.py#SessionStore.refresh"],
        "{d}"
    );
    assert_eq!(results[0]["match"], "exact");
    assert_compact(&results[0]);
    // The ID answers "where": signature and doc only when asked (issue 18).
    assert!(results[0].get("signature").is_none(), "{d}");
    let detailed = ok(&call(
        &c,
        "map_search",
        json!({"query": "refresh", "detail": true}),
    )
    .await)
    .clone();
    assert_eq!(
        items(&detailed, "results")[0]["signature"],
        "def refresh(self, key: str) -> bool"
    );
    // The others are counted and the way to them is named.
    let others = d["others"].as_u64().expect("others");
    assert!(others >= 1, "{d}"); // handle_refresh, refresh_handler…
    assert!(d["hint"].as_str().unwrap().contains("limit"), "{d}");

    // Asked for more: the ranked list as before, exact first.
    let d = ok(&call(&c, "map_search", json!({"query": "refresh", "limit": 20})).await).clone();
    let results = items(&d, "results");
    assert_eq!(results.len() as u64, 1 + others, "{d}");
    assert_eq!(results[0]["match"], "exact");
    assert!(d.get("others").is_none(), "{d}");

    // No exact hit: the ranked list, as before.
    let d = ok(&call(&c, "map_search", json!({"query": "Sess"})).await).clone();
    assert!(
        !items(&d, "results").is_empty() && d.get("others").is_none(),
        "{d}"
    );

    // A limit that cuts is visible in `dropped`.
    let env = call(&c, "map_search", json!({"query": "re", "limit": 1})).await;
    assert_eq!(env["truncated"], true, "{env}");
    assert!(note(&env).contains("limit"), "{env}");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn enum_members_are_nodes_of_their_enum() {
    let dir = fixture("");
    std::fs::write(
        dir.path().join("colors.py"),
        "from enum import Enum\n\n\nclass Color(Enum):\n    \"\"\"The colors a widget\n    may take. Others are rejected.\n    \"\"\"\n\n    RED = 1\n    GREEN = 2\n\n    def label(self):\n        return self.name\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("shape.ts"),
        "export enum Shape { Dot, Circle = 2 }\n",
    )
    .unwrap();
    let c = serve_built(dir.path()).await;
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:colors.py#Color", "direction": "out",
               "edgeKinds": ["contains"], "kind": ["constant"]}),
    )
    .await)
    .clone();
    let mut got = neighbor_ids(&d);
    got.sort();
    assert_eq!(
        got,
        ["py:colors.py#Color.GREEN", "py:colors.py#Color.RED"],
        "{d}"
    );
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": "ts:shape.ts#Shape", "direction": "out", "edgeKinds": ["contains"]}),
    )
    .await)
    .clone();
    let mut got = neighbor_ids(&d);
    got.sort();
    assert_eq!(
        got,
        ["ts:shape.ts#Shape.Circle", "ts:shape.ts#Shape.Dot"],
        "{d}"
    );
    assert!(
        items(&d, "neighbors")
            .iter()
            .all(|n| n.as_str().is_some_and(|r| r.contains(" constant Shape."))),
        "{d}"
    );

    // The doc is the first sentence, whole although it wraps.
    let d = ok(&call(&c, "map_search", json!({"query": "Color", "detail": true})).await).clone();
    assert_eq!(
        items(&d, "results")[0]["doc"],
        "The colors a widget may take.",
        "{d}"
    );
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn map_path_never_climbs_contains() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;
    // A method does not reach its own file by climbing out of it…
    let d = ok(&call(
        &c,
        "map_path",
        json!({"from": "py:shop/store.py#SessionStore.refresh", "to": "py:shop/store.py"}),
    )
    .await)
    .clone();
    assert_eq!(d["found"], false, "{d}");
    // …nor a sibling through its class.
    let d = ok(&call(
        &c,
        "map_path",
        json!({"from": "py:shop/store.py#SessionStore.__init__",
               "to": "py:shop/store.py#SessionStore.refresh"}),
    )
    .await)
    .clone();
    assert_eq!(d["found"], false, "{d}");
    // Forward edges work: the caller reaches refresh by its call.
    let d = ok(&call(
        &c,
        "map_path",
        json!({"from": "py:shop/api.py#handle_refresh", "to": "py:shop/store.py#SessionStore.refresh"}),
    )
    .await)
    .clone();
    assert_eq!(d["found"], true, "{d}");
    let path = items(&d, "path");
    assert_eq!(
        ids(path),
        [
            "py:shop/api.py#handle_refresh",
            "py:shop/store.py#SessionStore.refresh"
        ]
    );
    assert_eq!(path[0]["edgeToNext"]["kind"], "calls");
    assert!(path[0]["edgeToNext"].get("direction").is_none());
    for step in path {
        assert_compact(step);
        // Every edge of the path goes forward: none climbs out of a member.
        assert_ne!(step["edgeToNext"]["kind"], "contains_in");
    }
    // A file reaches its members downwards.
    let d = ok(&call(
        &c,
        "map_path",
        json!({"from": "py:shop/store.py", "to": "py:shop/store.py#SessionStore.refresh"}),
    )
    .await)
    .clone();
    assert_eq!(d["found"], true, "{d}");
    assert!(
        items(&d, "path")
            .iter()
            .filter_map(|s| s["edgeToNext"]["kind"].as_str())
            .all(|k| k == "contains"),
        "{d}"
    );
    c.cancel().await.unwrap();
}

/// A repository whose clusters are worth folding and labelling: `app/` holds a module
/// with many functions, `lib/` another, and three loose single files without symbols.
/// Tests of the engine with a helper every test calls: central by the graph, yet a test
/// helper, not a hub of the library.
fn tests_of_engine() -> String {
    let mut t = String::from(
        "from app.core.engine import run\n\n\ndef make_input():\n    return run(1)\n\n\n",
    );
    for i in 0..12 {
        t.push_str(&format!(
            "def test_{i}():\n    assert make_input() > {i}\n\n\n"
        ));
    }
    t
}

fn overview_repo() -> tempfile::TempDir {
    let dir = fixture("");
    let root = dir.path();
    std::fs::create_dir_all(root.join("app/core")).unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("docs/notes.txt"), "no code here\n").unwrap();
    let mut core = String::new();
    for i in 0..30 {
        core.push_str(&format!("def step{i}(x):\n    return x + {i}\n\n\n"));
    }
    core.push_str("def run(x):\n");
    for i in 0..30 {
        core.push_str(&format!("    x = step{i}(x)\n"));
    }
    core.push_str("    return x\n");
    std::fs::write(root.join("app/core/engine.py"), core).unwrap();
    std::fs::write(
        root.join("app/core/main.py"),
        "from .engine import run\n\n\ndef main():\n    return run(1)\n",
    )
    .unwrap();
    for name in ["a", "b", "c"] {
        std::fs::write(root.join(format!("loose_{name}.py")), "import os\n").unwrap();
    }
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::write(root.join("tests/test_engine.py"), tests_of_engine()).unwrap();
    dir
}

#[tokio::test]
async fn overview_labels_folds_fills_and_pages() {
    let dir = overview_repo();
    let c = serve_built(dir.path()).await;
    let env = call(&c, "map_overview", json!({})).await;
    let d = ok(&env).clone();
    let clusters = items(&d, "clusters");
    // The cluster of the engine is labelled by the directory of its hubs.
    let engine = clusters
        .iter()
        .find(|c| {
            ids(items(c, "hubs"))
                .iter()
                .any(|h| h.contains("engine.py"))
        })
        .unwrap_or_else(|| panic!("{d}"));
    assert_eq!(engine["label"], "app/core", "{d}");
    for h in items(engine, "hubs") {
        assert_compact(h);
        assert!(h["id"].as_str().unwrap().starts_with("py:app/core/"), "{h}");
    }
    // Hubless single files are one line with a count.
    assert!(d["other"]["clusters"].as_u64().unwrap() >= 1, "{d}");
    assert_eq!(d["other"]["files"], 3, "{d}");
    assert!(
        clusters
            .iter()
            .all(|c| !items(c, "hubs").is_empty() || c["files"].as_u64() > Some(1))
    );
    // Test code apart: no library cluster lists a test helper among its hubs; a cluster
    // of test files is marked and comes after the library.
    let all = ok(&call(&c, "map_overview", json!({"hubsPerCluster": 20})).await).clone();
    let mut seen_tests = false;
    for c in items(&all, "clusters") {
        let in_tests = ids(items(c, "hubs"))
            .iter()
            .all(|h| h.starts_with("py:tests/"));
        assert_eq!(c["tests"] == true, in_tests, "{all}");
        assert!(!seen_tests || in_tests, "tests after the library: {all}");
        seen_tests |= in_tests;
        if !in_tests {
            assert!(
                ids(items(c, "hubs"))
                    .iter()
                    .all(|h| !h.starts_with("py:tests/")),
                "{all}"
            );
        }
    }
    // Neither hubsPerCluster nor tokenBudget: sized to "what is here" (issue 18).
    assert!(common::envelope_tokens(&env) <= 1000, "{env}");
    assert!(items(engine, "hubs").len() <= 4, "{d}");
    // Every top-level package is named, listed cluster or not; labels are distinct.
    assert!(items(&d, "packages").iter().any(|p| p == "app"), "{d}");
    let labels: Vec<&str> = clusters
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "{d}");
    // With a budget and no hubsPerCluster, the budget decides: more hubs when there is room.
    let d = ok(&call(&c, "map_overview", json!({"tokenBudget": 2000})).await).clone();
    let engine = items(&d, "clusters")
        .iter()
        .find(|c| {
            ids(items(c, "hubs"))
                .iter()
                .any(|h| h.contains("engine.py"))
        })
        .unwrap_or_else(|| panic!("{d}"))
        .clone();
    assert!(items(&engine, "hubs").len() > 5, "{d}");

    // A small budget cuts hubs first and gives a cursor to the next slice.
    let env = call(&c, "map_overview", json!({"tokenBudget": 300})).await;
    assert_eq!(env["truncated"], true, "{env}");
    let cursor = env["cursor"].as_str().expect("a cursor when hubs are cut");
    let first: Vec<String> = items(ok(&env), "clusters")
        .iter()
        .flat_map(|c| {
            ids(items(c, "hubs"))
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!first.is_empty(), "{env}");
    let next = call(
        &c,
        "map_overview",
        json!({"tokenBudget": 300, "cursor": cursor}),
    )
    .await;
    let second: Vec<String> = items(ok(&next), "clusters")
        .iter()
        .flat_map(|c| {
            ids(items(c, "hubs"))
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!second.is_empty(), "{next}");
    assert!(
        second.iter().all(|h| !first.contains(h)),
        "{first:?} then {second:?}"
    );

    // A focus that holds no indexed file says so.
    let d = ok(&call(&c, "map_overview", json!({"focus": "docs"})).await).clone();
    assert_eq!(d["files"], 0, "{d}");
    assert!(d["hint"].as_str().unwrap().contains("focus"), "{d}");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn status_lists_servers_of_present_languages_only() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;
    let d = ok(&call(&c, "map_status", json!({})).await).clone();
    let lsp: Vec<&String> = d["lsp"].as_object().unwrap().keys().collect();
    assert_eq!(lsp, ["py"], "{d}");
    // `languages` names the repository's languages, not every grammar navmap has.
    assert_eq!(items(&d, "languages").len(), 1, "{d}");
    assert_eq!(d["languages"][0], "py", "{d}");
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn workspace_symbols_label_each_file_by_its_own_language() {
    if !require("typescript-language-server", true) {
        return;
    }
    // One server answers for both languages: a `.ts` result must not say `js`.
    let dir = fixture("");
    let root = dir.path();
    std::fs::write(root.join("package.json"), "{\"name\": \"mixed\"}\n").unwrap();
    std::fs::write(
        root.join("tsconfig.json"),
        "{\"compilerOptions\": {\"allowJs\": true, \"checkJs\": true}}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("typed.ts"),
        "export function zebraTyped(): number { return 1; }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("plain.js"),
        "export function zebraPlain() { return 2; }\n",
    )
    .unwrap();
    let c = serve_built(root).await;
    let mut seen = Vec::new();
    for _ in 0..20 {
        let env = call(&c, "nav_workspaceSymbols", json!({"query": "zebra"})).await;
        seen = items(ok(&env), "results").clone();
        if seen.len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    let lang_of = |file: &str| {
        seen.iter()
            .find(|r| r["file"] == file)
            .map(|r| r["language"].clone())
            .unwrap_or_else(|| panic!("{file} in {seen:?}"))
    };
    assert_eq!(lang_of("typed.ts"), "ts");
    assert_eq!(lang_of("plain.js"), "js");
    c.cancel().await.unwrap();
}

/// Issue 17: a file with syntax errors is named by `map_status` (`errorFiles`, with a
/// warning), and a map answer that shows its nodes says they are what the parser
/// recovered; an answer about clean files does not.
#[tokio::test]
async fn files_with_parse_errors_are_named_and_answers_touching_them_warn() {
    let dir = fixture("");
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/parser.ts"),
        "export class Parser {\n  parse(input: string): number {\n    return input.length +;\n  }\n\n  reset(): void {\n    this.parse(\"\");\n  }\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/clean.ts"),
        "export function tidy(s: string): string {\n  return s.trim();\n}\n",
    )
    .unwrap();
    let c = serve_built(root).await;
    let env = call(&c, "map_status", json!({})).await;
    let d = ok(&env).clone();
    assert_eq!(d["filesWithErrors"], 1, "{d}");
    assert_eq!(d["errorFiles"], json!(["src/parser.ts"]), "{d}");
    assert!(warned(&env, "syntax errors"), "{env}");

    // The class around the error is kept, and the answer says where it comes from.
    let env = call(&c, "map_search", json!({"query": "Parser"})).await;
    assert_eq!(
        ok(&env)["results"][0]["id"],
        "ts:src/parser.ts#Parser",
        "{env}"
    );
    assert!(warned(&env, "src/parser.ts had syntax errors"), "{env}");
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "ts:src/parser.ts#Parser.reset", "direction": "out"}),
    )
    .await;
    ok(&env);
    assert!(warned(&env, "src/parser.ts had syntax errors"), "{env}");

    let env = call(&c, "map_search", json!({"query": "tidy"})).await;
    ok(&env);
    assert!(!warned(&env, "syntax errors"), "{env}");
    c.cancel().await.unwrap();
}
