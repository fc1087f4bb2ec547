//! Regressions from the bridge/server audit (issue 5 follow-up), through a real MCP
//! client against the built binary and real language servers (pyright and
//! typescript-language-server from `.tools/`; required when `CI` is set, else "skipped").
//! The Go test runs with no server findable (empty data dir, empty PATH).

mod common;

use std::path::Path;

use common::{Client, call, fixture, ok, tools_dir, warnings};
use serde_json::{Value, json};

/// `PATH` is the node tools folder plus the system folders only.
async fn client(root: &Path) -> Client {
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", tools_dir().display());
    common::client_with(root, &["--no-watch"], &[], Some(path)).await
}

fn require(program: &str) -> bool {
    common::require(program, true)
}

/// Every call's sites are distinct.
fn assert_sites_unique(env: &Value) {
    for c in ok(env)["calls"].as_array().unwrap() {
        let sites = c["sites"].as_array().unwrap();
        let mut keys: Vec<String> = sites
            .iter()
            .map(|s| format!("{}:{}:{}", s["file"], s["line"], s["col"]))
            .collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), sites.len(), "duplicate sites: {env}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_overloads_resolve_to_the_name() {
    if !require("typescript-language-server") {
        return;
    }
    let dir = fixture("ts");
    let root = dir.path();
    std::fs::write(
        root.join("src/over.ts"),
        "export function over(a: string): string;\nexport function over(a: number): number;\nexport function over(a: any) { return a; }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/use_over.ts"),
        "import { over } from \"./over\";\nexport const five = over(5);\n",
    )
    .unwrap();
    let c = client(root).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    // The two signatures and the implementation are one node (at the implementation's
    // name), as tsserver sees one symbol: resolved there, not at the first signature.
    for (id, line) in [("ts:src/over.ts#over", 3)] {
        let r = call(&c, "resolve", json!({"nodeId": id})).await;
        let loc = &ok(&r)["location"];
        assert_eq!(
            (loc["line"].as_u64(), loc["col"].as_u64()),
            (Some(line), Some(17)),
            "{r}"
        );
        assert_eq!(ok(&r)["verified"], true, "{r}");
        assert_eq!(ok(&r)["mapStale"], false, "{r}");
    }
    let refs = call(
        &c,
        "nav_references",
        json!({"nodeId": "ts:src/over.ts#over"}),
    )
    .await;
    let d = ok(&refs);
    // Placed by the server (the position `resolve` gave above): the ID was the request,
    // so no `target` echoes it (issue 18).
    assert!(d.get("target").is_none(), "{refs}");
    assert!(
        common::anchors(&d["locations"])
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["file"] == "src/use_over.ts" && l["line"] == 2),
        "{refs}"
    );
    // Warnings about locating the nodeId say so.
    for w in warnings(&refs) {
        assert!(
            !w.contains("indexing") || w.starts_with("resolving nodeId: "),
            "{refs}"
        );
    }
    // Outgoing call hierarchy: each site once.
    let ch = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "src/use_over.ts", "line": 2, "col": 14, "direction": "outgoing"}),
    )
    .await;
    if ch["ok"] == true {
        assert_sites_unique(&ch);
    }
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_redefinitions_are_matched_by_position() {
    if !require("pyright-langserver") {
        return;
    }
    let dir = fixture("py");
    let root = dir.path();
    std::fs::write(
        root.join("dups.py"),
        "def dup():\n    return 1\n\ndef dup():\n    return 2\n\n\ndef caller():\n    return dup() + dup()\n",
    )
    .unwrap();
    let c = client(root).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    // pyright lists only the last `dup`: the second is matched by its line, verified.
    let r = call(&c, "resolve", json!({"nodeId": "py:dups.py#dup~2"})).await;
    let d = ok(&r);
    assert_eq!(d["location"]["line"], 4, "{r}");
    assert_eq!(d["verified"], true, "{r}");
    assert_eq!(d["mapStale"], false, "{r}");
    // The first is not in the server's outline: the map's position, unverified, and the
    // warning names the merged duplicates, not staleness.
    let r = call(&c, "resolve", json!({"nodeId": "py:dups.py#dup"})).await;
    let d = ok(&r);
    assert_eq!(d["location"]["line"], 1, "{r}");
    assert_eq!(d["verified"], false, "{r}");
    assert_eq!(d["mapStale"], false, "{r}");
    let ws = warnings(&r);
    assert!(ws.iter().any(|w| w.contains("lists 1 definition")), "{r}");
    assert!(!ws.iter().any(|w| w.contains("changed")), "{r}");
    // Incoming calls of the live `dup`: two call sites on one line, each listed once.
    let ch = call(
        &c,
        "nav_callHierarchy",
        json!({"nodeId": "py:dups.py#dup~2", "direction": "incoming"}),
    )
    .await;
    assert_sites_unique(&ch);
    let calls = ok(&ch)["calls"].as_array().unwrap();
    assert!(calls.iter().any(|x| x["name"] == "caller"), "{ch}");
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_hierarchy_without_a_server_answers_from_the_map() {
    // No server anywhere: an empty data dir and a PATH with nothing on it (navmap needs
    // no PATH of its own), so the test runs whether or not gopls is installed.
    let dir = fixture("go");
    let root = dir.path();
    let empty = tempfile::tempdir().unwrap();
    let c = common::client_with(
        root,
        &["--no-watch"],
        &[("NAVMAP_DATA_DIR", empty.path().display().to_string())],
        Some("/nonexistent".into()),
    )
    .await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let out = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "api/api.go", "line": 21, "col": 6, "direction": "outgoing"}),
    )
    .await;
    let d = ok(&out);
    assert_eq!(d["source"], "fallback-map", "{out}");
    assert_eq!(d["complete"], false, "{out}");
    assert_eq!(d["root"]["name"], "HandleRefresh", "{out}");
    assert!(
        d["calls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["name"] == "Refresh"),
        "{out}"
    );
    let ws = warnings(&out);
    assert!(
        ws.iter()
            .any(|w| w.contains("gopls") && w.contains("install")),
        "{out}"
    );
    let inc = call(
        &c,
        "nav_callHierarchy",
        json!({"nodeId": "go:api/api.go#HandleRefresh", "direction": "incoming"}),
    )
    .await;
    let d = ok(&inc);
    assert_eq!(d["source"], "fallback-map", "{inc}");
    let callers = d["calls"].as_array().unwrap();
    assert!(callers.iter().any(|x| x["name"] == "Handler"), "{inc}");
    // The call site is in the caller's file, so it names none.
    assert!(
        callers.iter().all(|x| x["sites"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("file").is_none())),
        "{inc}"
    );
    // The resolution's own warning is labelled as such.
    assert!(
        warnings(&inc)
            .iter()
            .any(|w| w.starts_with("resolving nodeId: ") && w.contains("LSP_UNAVAILABLE")),
        "{inc}"
    );
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_symbols_on_a_root_without_source_is_a_miss() {
    let dir = fixture("");
    std::fs::write(dir.path().join("readme.txt"), "hello\n").unwrap();
    let c = client(dir.path()).await;
    let r = call(&c, "nav_workspaceSymbols", json!({"query": "Session"})).await;
    let d = ok(&r);
    assert_eq!(d["results"], json!([]), "{r}");
    assert!(
        d["hint"].as_str().is_some_and(|h| h.contains("map_search")),
        "{r}"
    );
    assert!(!warnings(&r).is_empty(), "{r}");
    c.cancel().await.ok();
}
