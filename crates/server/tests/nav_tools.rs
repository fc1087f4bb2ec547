//! The seven nav_* tools through a real MCP client (rmcp, child process) against the built
//! `navmap` binary, with real language servers on the fixtures (known answers:
//! fixtures/README.md) and the fake server of `tests/fake-lsp` for the faults.
//!
//! pyright and typescript-language-server come from `.tools/` (scripts/install-servers.sh);
//! with `CI` set their absence fails the tests, otherwise the tests say "skipped". Each
//! test prints which servers ran.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{
    Client, call, err_code, fake_lsp, fixture, ok, require, serve_built, symbols, warned,
    write_tree,
};
use serde_json::{Value, json};

/// Deadlines generous enough for a machine shared with parallel builds (cold servers
/// under load took longer than the default 15 s); a test's own `env` comes last and wins
/// (the fault tests set short ones).
async fn client(root: &Path, env: &[(&str, String)]) -> Client {
    let mut all: Vec<(&str, String)> = vec![
        ("NAVMAP_LSP_TIMEOUT_MS", "60000".into()),
        ("NAVMAP_LSP_LONG_TIMEOUT_MS", "60000".into()),
    ];
    all.extend(env.iter().cloned());
    common::client_with(root, &[], &all, None).await
}

fn has(list: &Value, pred: impl Fn(&Value) -> bool) -> bool {
    list.as_array().unwrap().iter().any(pred)
}

fn at(v: &Value, file: &str, line: u64) -> bool {
    v["file"] == file && v["line"] == line
}

fn process_alive(pid: u64) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            s.rsplit_once(')')
                .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}

async fn gone(pid: u64) -> bool {
    for _ in 0..100 {
        if !process_alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// The questions every language answers alike (fixtures/README.md), 1-based.
struct Shop {
    lang: &'static str,
    server: &'static str,
    api: &'static str,
    store: &'static str,
    /// `store.refresh(key)` in the API file: line, col of `refresh`.
    call: (u64, u64),
    /// `refresh`'s name in the store file.
    refresh: (u64, u64),
    caller: &'static str,
    class_kind: &'static str,
}

async fn shop_answers(c: &Client, s: &Shop) {
    let pos = |file: &str, (line, col): (u64, u64)| json!({"file": file, "line": line, "col": col});

    // nav_definition: across files, with UTF-16 columns (the line holds 🚀 and é). The
    // first question: asked again while the server is still loading (its hint's advice).
    let d = common::ask_ready(c, "nav_definition", pos(s.api, s.call)).await;
    let data = ok(&d);
    assert_eq!(data["target"]["name"], "refresh", "{d}");
    let locs = common::anchors(&data["locations"]);
    assert_eq!(locs.as_array().unwrap().len(), 1, "{d}");
    let loc = &locs[0];
    assert_eq!(loc["file"], s.store, "{d}");
    assert_eq!(
        (loc["line"].as_u64().unwrap(), loc["col"].as_u64().unwrap()),
        s.refresh
    );
    assert!(loc["snippet"].as_str().unwrap().contains("refresh"));
    // The server's list was whole: no `complete: false` (never `complete: true` either).
    assert!(data.get("complete").is_none(), "{d}");

    // nav_references: includes the caller in the API module, at the UTF-16 column.
    let r = call(c, "nav_references", pos(s.store, s.refresh)).await;
    let data = ok(&r);
    assert!(
        has(&common::anchors(&data["locations"]), |l| at(
            l, s.api, s.call.0
        ) && l["col"]
            == s.call.1),
        "{r}"
    );
    assert_eq!(
        data["total"],
        common::anchors(&data["locations"])
            .as_array()
            .unwrap()
            .len()
    );
    // fileFilter: total counts after the filter; a filter is not incompleteness (the
    // server's list was whole), so `complete` stays true.
    let mut args = pos(s.store, s.refresh);
    args["fileFilter"] = json!(s.store);
    let r = call(c, "nav_references", args).await;
    let data = ok(&r);
    assert!(
        !has(&common::anchors(&data["locations"]), |l| l["file"] == s.api),
        "{r}"
    );
    assert_eq!(
        data["total"],
        common::anchors(&data["locations"])
            .as_array()
            .unwrap()
            .len()
    );
    assert!(data.get("complete").is_none(), "{r}");

    // nav_type: the resolved signature.
    let t = call(c, "nav_type", pos(s.api, s.call)).await;
    let contents = ok(&t)["contents"].as_str().unwrap().to_string();
    assert!(contents.contains("refresh"), "{contents}");
    assert_eq!(ok(&t)["language"], s.lang);

    // nav_symbols: the outline, the class at the top, refresh among the children of it
    // (or of its `impl SessionStore` block, where the server lists methods apart).
    let o = call(c, "nav_symbols", json!({"file": s.store})).await;
    let syms = &symbols(&ok(&o)["symbols"]);
    assert!(
        has(syms, |v| v["name"] == "SessionStore"
            && v["kind"] == s.class_kind),
        "{o}"
    );
    assert!(
        has(syms, |v| v["name"]
            .as_str()
            .is_some_and(|n| n.contains("SessionStore"))
            && v["children"].is_array()
            && has(&v["children"], |m| m["name"] == "refresh"
                && m["line"] == s.refresh.0)),
        "{o}"
    );

    // nav_workspaceSymbols: exact match first.
    let w = call(c, "nav_workspaceSymbols", json!({"query": "SessionStore"})).await;
    let data = ok(&w);
    assert_eq!(data["results"][0]["name"], "SessionStore", "{w}");
    assert!(
        has(&data["results"], |r| r["name"] == "SessionStore"
            && r["file"] == s.store
            && r["kind"] == s.class_kind),
        "{w}"
    );
    assert!(has(&data["languages"], |l| l == s.lang), "{w}");

    // nav_callHierarchy both ways.
    let mut args = pos(s.store, s.refresh);
    args["direction"] = json!("incoming");
    let h = call(c, "nav_callHierarchy", args).await;
    let data = ok(&h);
    assert_eq!(data["source"], "lsp", "{h}");
    assert_eq!(data["root"]["name"], "refresh", "{h}");
    assert!(
        has(&data["calls"], |v| v["name"] == s.caller
            && v["file"] == s.api
            // A site in the caller's own file names no file.
            && has(&v["sites"], |site| site["line"] == s.call.0 && site.get("file").is_none())),
        "{h}"
    );
    let mut args = pos(s.store, s.refresh);
    args["direction"] = json!("outgoing");
    let h = call(c, "nav_callHierarchy", args).await;
    let data = ok(&h);
    for callee in ["get", "put"] {
        assert!(has(&data["calls"], |v| v["name"] == callee), "{h}");
    }
    // A position inside refresh's body, off any identifier, snaps to refresh.
    let mut args = pos(s.store, (s.refresh.0 + 1, 1));
    args["direction"] = json!("outgoing");
    let h = call(c, "nav_callHierarchy", args).await;
    let data = ok(&h);
    assert_eq!(data["root"]["name"], "refresh", "{h}");
    assert_eq!(data["snapped"]["name"], "refresh", "{h}");
    assert!(
        has(&h["warnings"], |w| w.as_str().unwrap().contains("snapped")),
        "{h}"
    );

    // Whitespace is SYMBOL_NOT_FOUND, with the file's nearby symbols.
    let e = call(c, "nav_definition", pos(s.store, (s.refresh.0 - 1, 1))).await;
    assert_eq!(err_code(&e), "SYMBOL_NOT_FOUND", "{e}");
    assert!(
        e["error"]["nearbySymbols"]
            .as_array()
            .is_some_and(|a| !a.is_empty()),
        "{e}"
    );
    // Outside the root: BAD_ARGS; a file that never existed (a typo): BAD_ARGS too
    // (FILE_DELETED is for files the map knew: tests/freshness.rs).
    let e = call(c, "nav_definition", json!({"file": "../x.py", "line": 1})).await;
    assert_eq!(err_code(&e), "BAD_ARGS");
    let e = call(
        c,
        "nav_definition",
        pos(&format!("gone.{}", s.lang), (1, 1)),
    )
    .await;
    assert_eq!(err_code(&e), "BAD_ARGS", "{e}");
    // nodeId and a position together: exactly one of the two (tests/freshness.rs covers
    // nodeId alone).
    let e = call(
        c,
        "nav_definition",
        json!({"nodeId": "py:shop/store.py#SessionStore", "file": s.store, "line": 1}),
    )
    .await;
    assert_eq!(err_code(&e), "BAD_ARGS");
    assert_eq!(e["error"]["field"], "nodeId");
}

/// Inserts two lines at the top of the store file: the next definition moves by two,
/// with the same server process.
async fn disk_edit_is_visible(c: &Client, root: &Path, s: &Shop) {
    let status = call(c, "map_status", json!({})).await;
    let lsp = &ok(&status)["lsp"][s.lang];
    assert!(
        ["ready", "indexing"].contains(&lsp["state"].as_str().unwrap()),
        "{status}"
    );
    let pid = lsp["pid"].as_u64().unwrap();
    let path = root.join(s.store);
    let text = std::fs::read_to_string(&path).unwrap();
    let comment = if s.lang == "py" { "#" } else { "//" };
    std::fs::write(&path, format!("{comment} one\n{comment} two\n{text}")).unwrap();
    let d = call(
        c,
        "nav_definition",
        json!({"file": s.api, "line": s.call.0, "col": s.call.1}),
    )
    .await;
    assert_eq!(
        common::anchors(&ok(&d)["locations"])[0]["line"],
        s.refresh.0 + 2,
        "{d}"
    );
    let status = call(c, "map_status", json!({})).await;
    assert_eq!(ok(&status)["lsp"][s.lang]["pid"], pid);
}

async fn close_and_check_no_orphans(c: Client, pid: u64) {
    assert!(process_alive(pid));
    c.cancel().await.unwrap();
    assert!(gone(pid).await, "language server {pid} outlived navmap");
}

async fn server_pid(c: &Client, lang: &str) -> u64 {
    let status = call(c, "map_status", json!({})).await;
    ok(&status)["lsp"][lang]["pid"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_fixture_through_mcp_with_pyright() {
    if !require("pyright-langserver", true) {
        return;
    }
    let dir = fixture("py");
    let c = client(dir.path(), &[]).await;
    let shop = Shop {
        lang: "py",
        server: "pyright",
        api: "shop/api.py",
        store: "shop/store.py",
        call: (15, 33),
        refresh: (27, 9),
        caller: "handle_refresh",
        class_kind: "class",
    };
    let _ = shop.server;
    shop_answers(&c, &shop).await;
    // pyright has no implementation provider: LSP_FAILED pointing at the map's edges.
    let e = call(
        c_ref(&c),
        "nav_implementations",
        json!({"file": "shop/base.py", "line": 10, "col": 9}),
    )
    .await;
    assert_eq!(err_code(&e), "LSP_FAILED", "{e}");
    assert!(
        e["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("map_neighbors"),
        "{e}"
    );
    disk_edit_is_visible(&c, dir.path(), &shop).await;
    let pid = server_pid(&c, "py").await;
    close_and_check_no_orphans(c, pid).await;
}

fn c_ref(c: &Client) -> &Client {
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_fixture_through_mcp_with_typescript_language_server() {
    if !require("typescript-language-server", true) {
        return;
    }
    let dir = fixture("ts");
    let c = client(dir.path(), &[]).await;
    let shop = Shop {
        lang: "ts",
        server: "typescript-language-server",
        api: "src/api.ts",
        store: "src/store.ts",
        call: (9, 40),
        refresh: (25, 3),
        caller: "handleRefresh",
        class_kind: "class",
    };
    shop_answers(&c, &shop).await;
    // Implementations of the BaseStore interface: the abstract class and the store.
    let i = call(
        &c,
        "nav_implementations",
        json!({"file": "src/base.ts", "line": 2, "col": 18}),
    )
    .await;
    let data = ok(&i);
    let locs = common::anchors(&data["locations"]);
    assert!(has(&locs, |l| at(l, "src/store.ts", 6)), "{i}");
    assert!(has(&locs, |l| at(l, "src/base.ts", 11)), "{i}");
    disk_edit_is_visible(&c, dir.path(), &shop).await;
    let pid = server_pid(&c, "ts").await;
    close_and_check_no_orphans(c, pid).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_fixture_through_mcp_with_rust_analyzer_when_installed() {
    if !require("rust-analyzer", true) {
        return;
    }
    let dir = fixture("rs");
    let c = client(dir.path(), &[]).await;
    let shop = Shop {
        lang: "rs",
        server: "rust-analyzer",
        api: "src/api.rs",
        store: "src/store.rs",
        call: (8, 40),
        refresh: (24, 12),
        caller: "handle_refresh",
        class_kind: "struct",
    };
    shop_answers(&c, &shop).await;
    let i = call(
        &c,
        "nav_implementations",
        json!({"file": "src/base.rs", "line": 16, "col": 11}),
    )
    .await;
    assert!(
        has(&ok(&i)["locations"], |g| g["file"] == "src/store.rs"),
        "{i}"
    );
    disk_edit_is_visible(&c, dir.path(), &shop).await;
    let pid = server_pid(&c, "rs").await;
    close_and_check_no_orphans(c, pid).await;
}

/// A one-file project served by the fake language server (as language `py`).
fn fake_project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("a.py"),
        "fn alpha\n  beta() # calls\nfn beta\n  alpha() # 🚀\n",
    )
    .unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    (dir, state)
}

fn fake_env(state: &Path, extra: &[(&str, &str)]) -> Vec<(&'static str, String)> {
    let mut env = vec![
        ("NAVMAP_LSP_PY", fake_lsp().display().to_string()),
        ("FAKE_LSP_STATE", state.display().to_string()),
        ("NAVMAP_LSP_SETTLE_MS", "100".to_string()),
    ];
    for (k, v) in extra {
        let k: &'static str = Box::leak(k.to_string().into_boxed_str());
        env.push((k, v.to_string()));
    }
    env
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_call_hierarchy_incoming_falls_back_to_references() {
    let (dir, state) = fake_project();
    let root = dir.path().join("repo");
    let c = client(
        &root,
        &fake_env(&state, &[("FAKE_LSP_NO_CALL_HIERARCHY", "1")]),
    )
    .await;
    // Callers of alpha (line 1): the reference on line 4 lies in beta.
    let h = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "a.py", "line": 1, "col": 4, "direction": "incoming"}),
    )
    .await;
    let data = ok(&h);
    assert_eq!(data["source"], "fallback-references", "{h}");
    assert!(
        has(&h["warnings"], |w| w
            .as_str()
            .unwrap()
            .contains("fallback-references")),
        "{h}"
    );
    assert!(
        has(&data["calls"], |v| v["name"] == "beta"
            && has(&v["sites"], |s| s["line"] == 4
                && s["col"] == 3
                && s.get("file").is_none())),
        "{h}"
    );
    // Outgoing falls back to the map; this file is no Python the map understands, so the
    // answer is empty with a warning, never a hard error.
    let h = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "a.py", "line": 1, "col": 4, "direction": "outgoing"}),
    )
    .await;
    assert_eq!(ok(&h)["source"], "fallback-map", "{h}");
    assert_eq!(ok(&h)["complete"], false, "{h}");
    assert!(!h["warnings"].as_array().unwrap().is_empty());
    let pid = server_pid(&c, "py").await;
    close_and_check_no_orphans(c, pid).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_become_contract_errors() {
    // A hang: LSP_TIMEOUT within the deadline + 1 s.
    let (dir, state) = fake_project();
    let root = dir.path().join("repo");
    let mut env = fake_env(&state, &[("FAKE_LSP_HANG", "1")]);
    env.push(("NAVMAP_LSP_TIMEOUT_MS", "2000".into()));
    let c = client(&root, &env).await;
    let t0 = std::time::Instant::now();
    let e = call(
        &c,
        "nav_definition",
        json!({"file": "a.py", "line": 4, "col": 3}),
    )
    .await;
    assert_eq!(err_code(&e), "LSP_TIMEOUT", "{e}");
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    c.cancel().await.unwrap();

    // Crashes: restarted transparently once, then LSP_FAILED with the stderr tail, and
    // map_status shows it failed.
    let (dir, state) = fake_project();
    let root = dir.path().join("repo");
    let c = client(
        &root,
        &fake_env(&state, &[("FAKE_LSP_CRASH_TIMES", "1000")]),
    )
    .await;
    let mut last = Value::Null;
    for _ in 0..3 {
        last = call(
            &c,
            "nav_definition",
            json!({"file": "a.py", "line": 4, "col": 3}),
        )
        .await;
        assert_eq!(err_code(&last), "LSP_FAILED", "{last}");
    }
    assert!(
        last["error"]["message"]
            .as_str()
            .unwrap()
            .contains("crashed 5 times"),
        "{last}"
    );
    assert!(
        has(&last["error"]["stderrTail"], |l| l
            .as_str()
            .unwrap()
            .contains("crashing on purpose")),
        "{last}"
    );
    let status = call(&c, "map_status", json!({})).await;
    let py = &ok(&status)["lsp"]["py"];
    assert_eq!(py["state"], "failed", "{status}");
    assert!(
        py["stderrTail"]
            .as_array()
            .is_some_and(|t| !t.is_empty() && t.len() <= 10)
    );
    c.cancel().await.unwrap();

    // A missing binary: LSP_UNAVAILABLE with the manifest's install command.
    let (dir, _state) = fake_project();
    let root = dir.path().join("repo");
    std::fs::write(root.join("notes.txt"), "plain text\n").unwrap();
    let c = client(
        &root,
        &[(
            "NAVMAP_LSP_PY",
            "/nonexistent/pyright-langserver --stdio".into(),
        )],
    )
    .await;
    let status = call(&c, "map_status", json!({})).await;
    assert_eq!(ok(&status)["lsp"]["py"]["state"], "unavailable", "{status}");
    let e = call(
        &c,
        "nav_definition",
        json!({"file": "a.py", "line": 4, "col": 3}),
    )
    .await;
    assert_eq!(err_code(&e), "LSP_UNAVAILABLE", "{e}");
    // py's manifest has an [lsp.install] recipe: navmap installs it itself.
    let hint = navmap_lsp::pool::install_hint(navmap_grammars::registry().by_id("py").unwrap());
    assert_eq!(hint, "navmap servers install py");
    assert_eq!(e["error"]["installCommand"], hint.as_str());
    assert!(e["error"]["hint"].as_str().unwrap().contains(&hint));
    // A file no language server handles: BAD_ARGS naming the file type (nothing to
    // install), the same from resolve; never a hang.
    let e = call(
        &c,
        "nav_definition",
        json!({"file": "notes.txt", "line": 1}),
    )
    .await;
    assert_eq!(err_code(&e), "BAD_ARGS", "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("*.txt"),
        "{e}"
    );
    let r = call(&c, "resolve", json!({"file": "notes.txt", "line": 1})).await;
    assert_eq!(r["error"], e["error"], "{r}");
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_call_hierarchy_outgoing_falls_back_to_the_map() {
    // The Python fixture, served by the fake server (no call hierarchy), with a built map.
    let dir = fixture("py");
    let state = tempfile::tempdir().unwrap();
    let c = client(
        dir.path(),
        &fake_env(state.path(), &[("FAKE_LSP_NO_CALL_HIERARCHY", "1")]),
    )
    .await;
    let b = call(&c, "map_rebuild", json!({})).await;
    ok(&b);
    let h = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "shop/store.py", "line": 27, "col": 9, "direction": "outgoing"}),
    )
    .await;
    let data = ok(&h);
    assert_eq!(data["source"], "fallback-map", "{h}");
    assert!(
        has(&h["warnings"], |w| w
            .as_str()
            .unwrap()
            .contains("fallback-map")),
        "{h}"
    );
    for callee in ["get", "put"] {
        assert!(
            has(&data["calls"], |v| v["name"] == callee
                && v["file"] == "shop/store.py"
                && v["nodeId"]
                    .as_str()
                    .unwrap()
                    .starts_with("py:shop/store.py#SessionStore.")),
            "{h}"
        );
    }
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_reference_lists_are_cut_visibly() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    let mut text = String::from("fn alpha\n");
    for i in 0..80 {
        text.push_str(&format!("  alpha() # use {i}\n"));
    }
    std::fs::write(root.join("a.py"), &text).unwrap();
    let state = tempfile::tempdir().unwrap();
    let c = client(&root, &fake_env(state.path(), &[])).await;
    let args = json!({"file": "a.py", "line": 1, "col": 4, "tokenBudget": 400});
    let first = call(&c, "nav_references", args.clone()).await;
    let data = ok(&first);
    assert_eq!(first["truncated"], true, "{first}");
    // One file: its references are thinned, the file stays.
    assert_eq!(first["dropped"]["kind"], "references", "{first}");
    assert_eq!(first["dropped"]["total"], 81);
    assert_eq!(data["locations"].as_array().unwrap().len(), 1, "{first}");
    assert_eq!(data["locations"][0]["file"], "a.py", "{first}");
    // One file holds every reference: a fileFilter would narrow nothing, so the note
    // suggests none (never a prefix that is not in the answer).
    let note = first["dropped"]["note"].as_str().unwrap();
    assert!(
        !note.contains("fileFilter") && note.to_lowercase().contains("raise tokenbudget"),
        "{note}"
    );
    // total counts every reference, not just the slice shown; the first ones are shown,
    // in line order.
    assert_eq!(data["total"], 81);
    let shown = common::anchors(&data["locations"]);
    let lines: Vec<u64> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["line"].as_u64().unwrap())
        .collect();
    assert!(!lines.is_empty() && lines.len() < 81, "{first}");
    assert_eq!(
        lines,
        (1..=lines.len() as u64).collect::<Vec<_>>(),
        "{first}"
    );
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_fixture_through_mcp_shares_the_typescript_server() {
    if !require("typescript-language-server", true) {
        return;
    }
    let dir = fixture("js");
    let c = client(dir.path(), &[]).await;
    let shop = Shop {
        lang: "js",
        server: "typescript-language-server",
        api: "src/api.js",
        store: "src/store.js",
        call: (12, 40),
        refresh: (25, 3),
        caller: "handleRefresh",
        class_kind: "class",
    };
    shop_answers(&c, &shop).await;
    disk_edit_is_visible(&c, dir.path(), &shop).await;
    // One process serves JavaScript and TypeScript.
    let status = call(&c, "map_status", json!({})).await;
    assert_eq!(
        ok(&status)["lsp"]["js"]["pid"],
        ok(&status)["lsp"]["ts"]["pid"]
    );
    let pid = server_pid(&c, "js").await;
    close_and_check_no_orphans(c, pid).await;
}

/// A frozen server costs one documented deadline per call, not one per question: a
/// `nodeId`'s outline and the tool's own query share it (they used to stack, 15 s + 30 s
/// for nav_references). Order with a margin: the answer comes before a second deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_by_node_id_to_a_frozen_server_ends_within_one_deadline() {
    let (dir, state) = fake_project();
    let root = dir.path().join("repo");
    std::fs::write(root.join("m.py"), "def alpha():\n    return 1\n").unwrap();
    let mut env = fake_env(
        &state,
        &[(
            "FAKE_LSP_HANG_METHODS",
            "textDocument/documentSymbol,textDocument/definition,textDocument/references",
        )],
    );
    env.push(("NAVMAP_LSP_TIMEOUT_MS", "3000".into()));
    env.push(("NAVMAP_LSP_LONG_TIMEOUT_MS", "3000".into()));
    let c = client(&root, &env).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    for tool in ["nav_definition", "nav_references"] {
        let t0 = std::time::Instant::now();
        let e = call(&c, tool, json!({"nodeId": "py:m.py#alpha"})).await;
        let took = t0.elapsed();
        assert_eq!(err_code(&e), "LSP_TIMEOUT", "{tool}: {e}");
        assert!(
            took < Duration::from_millis(2 * 3000),
            "{tool} took {took:?}: the outline and the query each had their own deadline"
        );
    }
    c.cancel().await.unwrap();
}

/// A client on a Go project holding `source` as `m.go`, built, whose (fake) gopls fails to
/// load the project after 2 s with gopls's words for a `go.mod` that needs a newer Go;
/// the fake's state folder (its `log` lists what it was asked).
async fn client_whose_go_server_cannot_load(source: &str) -> (tempfile::TempDir, PathBuf, Client) {
    let (dir, state) = fake_project();
    let root = dir.path().join("repo");
    std::fs::write(root.join("go.mod"), "module example.com/m\n\ngo 1.99.0\n").unwrap();
    std::fs::write(root.join("m.go"), source).unwrap();
    let mut env = fake_env(
        &state,
        &[
            (
                "FAKE_LSP_LOAD_ERROR",
                "go: go.mod requires go >= 1.99.0 (running go 1.19.8; GOTOOLCHAIN=local)",
            ),
            ("FAKE_LSP_LOAD_ERROR_MS", "2000"),
        ],
    );
    env.push(("NAVMAP_LSP_GO", fake_lsp().display().to_string()));
    let c = client(&root, &env).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    (dir, state, c)
}

/// A server that cannot load its project (the fake says what gopls says when go.mod needs
/// a newer Go; the Go manifest's `[[lsp.failure_hints]]` knows the words) answers the
/// first call with the map's answer, marked, after its failure; the next calls are
/// answered from that state without asking it again, much sooner than the failure took.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_cannot_load_the_project_gets_the_map_answer_at_once() {
    let (_dir, state, c) = client_whose_go_server_cannot_load(
        "package m\n\nfunc Alpha() int { return 1 }\n\nfunc Beta() int {\n\treturn Alpha()\n}\n",
    )
    .await;
    let refs = json!({"file": "m.go", "line": 3, "col": 7});
    let t0 = std::time::Instant::now();
    let first = call(&c, "nav_references", refs.clone()).await;
    let slow = t0.elapsed();
    let t1 = std::time::Instant::now();
    let second = call(&c, "nav_references", refs).await;
    let fast = t1.elapsed();
    for r in [&first, &second] {
        let data = ok(r);
        assert_eq!(data["source"], "fallback-map", "{r}");
        assert_eq!(data["complete"], false, "{r}");
        assert_eq!(data["lspError"]["code"], "LSP_FAILED", "{r}");
        assert!(
            data["lspError"]["message"]
                .as_str()
                .unwrap()
                .contains("newer Go"),
            "{r}"
        );
        // Beta's call of Alpha, from the map's edges.
        assert_eq!(
            data["locations"],
            json!([{"file": "m.go", "at": ["6:9 return Alpha()"]}]),
            "{r}"
        );
        assert!(common::warned(r, "fallback-map"), "{r}");
    }
    // Asked once; the second answer came from the state, well before the failure's time.
    let asked = std::fs::read_to_string(state.join("log")).unwrap();
    assert_eq!(asked.matches("load error").count(), 1, "{asked}");
    assert!(fast < slow, "second {fast:?}, first {slow:?}");
    // A definition from the use site: the map's node.
    let d = call(
        &c,
        "nav_definition",
        json!({"file": "m.go", "line": 6, "col": 9}),
    )
    .await;
    let data = ok(&d);
    assert_eq!(data["source"], "fallback-map", "{d}");
    assert_eq!(
        data["locations"],
        json!([{"file": "m.go", "at": ["3:6 func Alpha() int { return 1 }"]}]),
        "{d}"
    );
    // The state shows in map_status.
    let st = call(&c, "map_status", json!({})).await;
    assert_eq!(ok(&st)["lsp"]["go"]["state"], "failed", "{st}");
    c.cancel().await.unwrap();
}

/// Every nav tool that has a map fallback uses it once the server cannot load the project
/// (issue 16 item 4): references (the map's uses and the mentions it did not link),
/// implementations (`extends`/`implements` edges), the call hierarchy both ways (the map's
/// `calls` edges, incoming with its unlinked calls), workspace symbols (`map_search`) —
/// each marked, none `LSP_NOT_READY`, none asking the server again after its failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_nav_tool_with_a_map_fallback_uses_it_when_the_server_cannot_load_the_project() {
    let (_dir, state, c) = client_whose_go_server_cannot_load(
        "package m\n\ntype Base struct{}\n\ntype Square struct {\n\tBase\n}\n\nfunc Alpha() int { return 1 }\n\nfunc Beta() int {\n\treturn Alpha()\n}\n\nfunc Gamma(x Thing) int {\n\treturn x.Alpha()\n}\n",
    )
    .await;
    let alpha = json!({"file": "m.go", "line": 9, "col": 6});
    let t0 = std::time::Instant::now();
    let r = call(&c, "nav_references", alpha.clone()).await;
    let first = t0.elapsed();
    let d = ok(&r);
    assert_eq!(d["source"], "fallback-map", "{r}");
    assert_eq!(
        d["locations"],
        json!([{"file": "m.go", "at": ["12:9 return Alpha()"]}]),
        "the map's use: {r}"
    );
    assert_eq!(
        common::tier_rows(d, "unlinked"),
        ["m.go 16:11 return x.Alpha()"],
        "the mention the map did not link: {r}"
    );
    assert_eq!(d["complete"], false, "{r}");

    let asks = [
        (
            "nav_implementations",
            json!({"file": "m.go", "line": 3, "col": 6}),
        ),
        ("nav_callHierarchy", {
            let mut a = alpha.clone();
            a["direction"] = json!("incoming");
            a
        }),
        (
            "nav_callHierarchy",
            json!({"file": "m.go", "line": 11, "col": 6, "direction": "outgoing"}),
        ),
        ("nav_workspaceSymbols", json!({"query": "Alpha"})),
    ];
    for (tool, args) in asks {
        let t = std::time::Instant::now();
        let r = call(&c, tool, args.clone()).await;
        let took = t.elapsed();
        let d = ok(&r);
        assert!(
            took < first,
            "{tool} {args}: {took:?} after a first failure of {first:?}"
        );
        assert!(common::warned(&r, "fallback-map"), "{tool} marked: {r}");
        match (tool, args["direction"].as_str()) {
            ("nav_implementations", _) => {
                assert_eq!(d["source"], "fallback-map", "{r}");
                assert_eq!(d["lspError"]["code"], "LSP_FAILED", "{r}");
                assert_eq!(
                    common::anchors(&d["locations"])[0]["line"],
                    5,
                    "Square embeds Base: {r}"
                );
            }
            ("nav_callHierarchy", Some("incoming")) => {
                assert_eq!(d["source"], "fallback-map", "{r}");
                assert!(has(&d["calls"], |c| c["name"] == "Beta"), "{r}");
                assert_eq!(
                    common::tier_rows(d, "unlinked"),
                    ["m.go 16:11 return x.Alpha()"],
                    "{r}"
                );
            }
            ("nav_callHierarchy", _) => {
                assert_eq!(d["source"], "fallback-map", "{r}");
                assert!(has(&d["calls"], |c| c["name"] == "Alpha"), "{r}");
            }
            _ => {
                assert!(
                    has(&d["results"], |v| v["name"] == "Alpha"
                        && v["source"] == "fallback-map"),
                    "{r}"
                );
            }
        }
    }
    // The server was asked once; the state answered the rest.
    let asked = std::fs::read_to_string(state.join("log")).unwrap();
    assert_eq!(asked.matches("load error").count(), 1, "{asked}");
    c.cancel().await.unwrap();
}

/// `resolve` says "renamed, moved or deleted" only when the map shows it: a server whose
/// outline lacks a symbol that the map, up to date for the file, has (jdtls after a failed
/// import answers an empty outline) gets the map's position, unverified.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_symbol_the_server_cannot_see_is_not_called_gone() {
    let (dir, state) = fake_project();
    let root = dir.path().join("repo");
    // The fake's outline lists `fn NAME` lines only: it does not see `def alpha`.
    std::fs::write(root.join("m.py"), "def alpha():\n    return 1\n").unwrap();
    let c = client(&root, &fake_env(&state, &[])).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let r = call(&c, "resolve", json!({"nodeId": "py:m.py#alpha"})).await;
    let data = ok(&r);
    assert_eq!(data["verified"], false, "{r}");
    assert_eq!(data["location"]["line"], 1, "{r}");
    assert!(common::warned(&r, "does not see it"), "{r}");
    c.cancel().await.unwrap();
}

/// `nav_workspaceSymbols` asks the servers of the languages the map holds once it is
/// built: a Python file only in an ignored folder (`.gitignore`) is no reason to start
/// pyright (a bounded walk of its own found it before and did).
#[tokio::test]
async fn workspace_symbols_asks_only_the_languages_the_map_holds() {
    let dir = fixture("");
    let root = dir.path();
    write_tree(
        root,
        &[
            (".gitignore", "generated/\n"),
            ("generated/tool.py", "def alpha():\n    return 1\n"),
            ("notes.md", "# alpha\n"),
        ],
    );
    let c = serve_built(root).await;
    let r = call(&c, "nav_workspaceSymbols", json!({"query": "alpha"})).await;
    let d = ok(&r);
    assert_eq!(d["languages"], json!([]), "{r}");
    assert!(warned(&r, "No language server applies"), "{r}");
    c.cancel().await.unwrap();
}
