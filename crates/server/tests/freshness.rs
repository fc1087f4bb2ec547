//! The bridge (`resolve`, `nodeId` on the nav tools) and freshness (watcher, stale flags,
//! read-through refresh, start-up check) through a real MCP client (rmcp, child process)
//! against the built `navmap` binary, on temporary copies of the fixtures
//! (fixtures/README.md). Issue 5's six tests, plus the fallbacks around them.
//!
//! Live tests need pyright / typescript-language-server from `.tools/`
//! (scripts/install-servers.sh): with `CI` set their absence fails the test, otherwise the
//! test says "skipped". Waits are generous polls (the debounce is 300 ms; nothing here
//! asserts a duration).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Client, NAVMAP, call, err_code, fixture, ok, warned};
use serde_json::{Value, json};

async fn client(root: &Path, flags: &[&str], env: &[(&str, &str)]) -> Client {
    let env: Vec<(&str, String)> = env.iter().map(|(k, v)| (*k, v.to_string())).collect();
    common::client_with(root, flags, &env, None).await
}

fn require(program: &str) -> bool {
    common::require(program, true)
}

/// Generous: a loaded 2-core machine, a debounce, a rebuild.
const WAIT: Duration = Duration::from_secs(30);

const PY_REFRESH: &str = "py:shop/store.py#SessionStore.refresh";
const PY_STORE: &str = "shop/store.py";

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Polls `probe` until it returns `Some`, for up to [`WAIT`].
async fn eventually<T, F, Fut>(what: &str, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = probe().await {
            return v;
        }
        assert!(start.elapsed() < WAIT, "gave up waiting for: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The map_search hit with this ID, if any.
async fn search_hit(c: &Client, query: &str, id: &str) -> Option<Value> {
    let env = call(c, "map_search", json!({"query": query, "limit": 100})).await;
    ok(&env)["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .cloned()
}

async fn status(c: &Client) -> Value {
    ok(&call(c, "map_status", json!({})).await).clone()
}

async fn built(c: &Client) -> Value {
    ok(&call(c, "map_rebuild", json!({})).await).clone()
}

/// Rewrites a file, keeping its mtime moving even on coarse clocks.
fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

fn insert_lines(path: &Path, before_line: usize, lines: &[&str]) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        out.insert(before_line - 1 + i, l);
    }
    write(path, &(out.join("\n") + "\n"));
}

// 1. map_search → nodeId → resolve → nav_definition at that position lands on the same
//    symbol; the position direction back to the node; the argument rules.
#[tokio::test]
async fn resolve_round_trip_py() {
    if !require("pyright-langserver") {
        return;
    }
    let dir = fixture("py");
    let c = client(dir.path(), &[], &[]).await;
    built(&c).await;

    let hit = search_hit(&c, "refresh", PY_REFRESH)
        .await
        .expect("refresh in the map");
    let r = call(&c, "resolve", json!({"nodeId": hit["id"]})).await;
    let d = ok(&r);
    assert_eq!(d["verified"], true, "{r}");
    assert_eq!(d["mapStale"], false, "{r}");
    assert_eq!(d["inMap"], true, "{r}");
    assert_eq!(d["symbol"]["name"], "refresh", "{r}");
    let loc = &d["location"];
    assert_eq!(
        (
            loc["file"].as_str(),
            loc["line"].as_u64(),
            loc["col"].as_u64()
        ),
        (Some(PY_STORE), Some(27), Some(9)),
        "{r}"
    );
    assert!(
        loc["snippet"].as_str().unwrap().contains("def refresh"),
        "{r}"
    );

    let def = call(
        &c,
        "nav_definition",
        json!({"file": loc["file"], "line": loc["line"], "col": loc["col"]}),
    )
    .await;
    let target = &common::anchors(&ok(&def)["locations"])[0];
    assert_eq!(
        (&target["file"], &target["line"], &target["col"]),
        (&loc["file"], &loc["line"], &loc["col"]),
        "{def}"
    );

    // From a position inside refresh's body: the enclosing chain and refresh's node.
    let p = call(
        &c,
        "resolve",
        json!({"file": PY_STORE, "line": 31, "col": 13}),
    )
    .await;
    let d = ok(&p);
    assert_eq!(d["nodeId"], PY_REFRESH, "{p}");
    assert_eq!(d["inMap"], true, "{p}");
    let chain: Vec<&str> = d["enclosingSymbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(chain, ["SessionStore", "refresh"], "{p}");
    assert_eq!(d["location"]["line"], 27, "{p}");
    // On a local the map does not index: no node of its own, refresh is the nearest.
    let p = call(
        &c,
        "resolve",
        json!({"file": PY_STORE, "line": 29, "col": 9}),
    )
    .await;
    let d = ok(&p);
    assert_eq!(d["nodeId"], Value::Null, "{p}");
    assert_eq!(d["inMap"], false, "{p}");
    assert_eq!(d["nearestNodeId"], PY_REFRESH, "{p}");
    // Outside every symbol: the file node.
    let p = call(&c, "resolve", json!({"file": PY_STORE, "line": 2})).await;
    assert_eq!(ok(&p)["nodeId"], "py:shop/store.py", "{p}");
    assert_eq!(ok(&p)["enclosingSymbols"], json!([]), "{p}");
    // A file node resolves to the file's start.
    let f = call(&c, "resolve", json!({"nodeId": "py:shop/store.py"})).await;
    assert_eq!(ok(&f)["location"]["line"], 1, "{f}");

    // Exactly one of nodeId and a position.
    let both = json!({"nodeId": PY_REFRESH, "file": PY_STORE, "line": 27});
    for tool in ["resolve", "nav_definition", "nav_references"] {
        let e = call(&c, tool, both.clone()).await;
        assert_eq!(err_code(&e), "BAD_ARGS", "{tool}: {e}");
        assert_eq!(e["error"]["field"], "nodeId", "{e}");
    }
    let e = call(&c, "resolve", json!({"file": PY_STORE, "line": 999})).await;
    assert_eq!(err_code(&e), "SYMBOL_NOT_FOUND", "{e}");
    let e = call(&c, "resolve", json!({})).await;
    assert_eq!(err_code(&e), "BAD_ARGS", "{e}");
    let e = call(&c, "resolve", json!({"nodeId": "not an id"})).await;
    assert_eq!(err_code(&e), "BAD_NODE_ID", "{e}");
    let e = call(&c, "resolve", json!({"nodeId": "py:../outside.py#x"})).await;
    assert!(["BAD_ARGS", "BAD_NODE_ID"].contains(&err_code(&e)), "{e}");
    c.cancel().await.ok();
}

// 2. Insert three lines above a method: stale (or refreshed by read-through) at once,
//    resolve gives the live line with mapStale; after the debounce the map agrees.
#[tokio::test]
async fn inserted_lines_are_stale_then_refreshed_py() {
    if !require("pyright-langserver") {
        return;
    }
    let dir = fixture("py");
    // A long quiet period keeps the map behind while resolve looks at it.
    let c = client(
        dir.path(),
        &[],
        &[
            ("NAVMAP_WATCH_QUIET_MS", "3000"),
            ("NAVMAP_WATCH_MAX_WAIT_MS", "6000"),
        ],
    )
    .await;
    built(&c).await;
    // Warm the server up so that resolve answers quickly after the edit.
    ok(&call(&c, "resolve", json!({"nodeId": PY_REFRESH})).await);

    insert_lines(
        &dir.path().join(PY_STORE),
        27,
        &["    # one", "    # two", "    # three"],
    );
    let r = call(&c, "resolve", json!({"nodeId": PY_REFRESH})).await;
    let d = ok(&r);
    assert_eq!(d["location"]["line"], 30, "{r}");
    assert_eq!(d["verified"], true, "{r}");
    assert_eq!(d["mapStale"], true, "{r}");
    assert!(warned(&r, "live position"), "{r}");

    // map_search: flagged stale at the old line, or already re-indexed (read-through).
    let hit = search_hit(&c, "refresh", PY_REFRESH).await.unwrap();
    let stale_old = hit["stale"] == true && hit["line"] == 27;
    let refreshed = hit.get("stale").is_none() && hit["line"] == 30;
    assert!(stale_old || refreshed, "{hit}");

    // After the debounce: the map agrees, nothing is stale.
    eventually("the map to agree with the disk", || async {
        let hit = search_hit(&c, "refresh", PY_REFRESH).await?;
        (hit["line"] == 30 && hit.get("stale").is_none()).then_some(())
    })
    .await;
    let s = eventually("no stale files", || async {
        let s = status(&c).await;
        (s["staleFiles"] == 0).then_some(s)
    })
    .await;
    let mode = s["watching"]["mode"].as_str().unwrap().to_string();
    assert!(["native", "polling"].contains(&mode.as_str()), "{s}");
    let r = call(&c, "resolve", json!({"nodeId": PY_REFRESH})).await;
    assert_eq!(ok(&r)["mapStale"], false, "{r}");
    assert_eq!(ok(&r)["location"]["line"], 30, "{r}");
    c.cancel().await.ok();
}

// 3. Rename a method: the old ID is SYMBOL_NOT_FOUND with the file's names as hints; the
//    new name is in the map after the rebuild.
#[tokio::test]
async fn renamed_method_is_not_found_then_remapped_py() {
    if !require("pyright-langserver") {
        return;
    }
    let dir = fixture("py");
    let c = client(dir.path(), &[], &[]).await;
    built(&c).await;

    let store = dir.path().join(PY_STORE);
    let text = std::fs::read_to_string(&store).unwrap();
    write(&store, &text.replace("def refresh(", "def renew("));
    let e = call(&c, "resolve", json!({"nodeId": PY_REFRESH})).await;
    assert_eq!(err_code(&e), "SYMBOL_NOT_FOUND", "{e}");
    assert!(
        strings(&e["error"]["names"]).contains(&"SessionStore"),
        "{e}"
    );
    assert!(strings(&e["error"]["members"]).contains(&"renew"), "{e}");
    assert_eq!(e["error"]["file"], PY_STORE, "{e}");
    // The nav tools fail the same way through nodeId: SYMBOL_NOT_FOUND from the live
    // outline while the map still holds the old name, NODE_NOT_FOUND once the watcher has
    // re-indexed the file (the map no longer has the ID); both name the parent's members.
    let e = call(&c, "nav_references", json!({"nodeId": PY_REFRESH})).await;
    assert!(
        ["SYMBOL_NOT_FOUND", "NODE_NOT_FOUND"].contains(&err_code(&e)),
        "{e}"
    );
    assert!(strings(&e["error"]["members"]).contains(&"renew"), "{e}");

    let renew = "py:shop/store.py#SessionStore.renew";
    eventually("the new name in the map", || search_hit(&c, "renew", renew)).await;
    assert!(search_hit(&c, "refresh", PY_REFRESH).await.is_none());
    let r = call(&c, "resolve", json!({"nodeId": renew})).await;
    assert_eq!(ok(&r)["location"]["line"], 27, "{r}");
    c.cancel().await.ok();
}

// 4. Delete the file: FILE_DELETED; its nodes leave the map after the rebuild.
#[tokio::test]
async fn deleted_file_is_file_deleted_then_gone_py() {
    let dir = fixture("py");
    // No language server is needed to notice a deleted file.
    let c = client(dir.path(), &[], &[]).await;
    built(&c).await;
    let token = "py:shop/util/token.py#validate";
    assert!(search_hit(&c, "validate", token).await.is_some());

    std::fs::remove_file(dir.path().join("shop/util/token.py")).unwrap();
    for tool in ["resolve", "nav_definition"] {
        let e = call(&c, tool, json!({"nodeId": token})).await;
        assert_eq!(err_code(&e), "FILE_DELETED", "{tool}: {e}");
        assert_eq!(e["error"]["file"], "shop/util/token.py", "{e}");
    }
    eventually("the file's nodes to leave the map", || async {
        let e = call(
            &c,
            "map_neighbors",
            json!({"nodeId": "py:shop/util/token.py"}),
        )
        .await;
        (e["ok"] == false && e["error"]["code"] == "NODE_NOT_FOUND").then_some(())
    })
    .await;
    assert!(search_hit(&c, "validate", token).await.is_none());
    assert!(
        search_hit(&c, "validate", "py:shop/util/email.py#validate")
            .await
            .is_some()
    );
    c.cancel().await.ok();
}

/// The peak resident memory of the `navmap serve` process for `root`, in KiB.
fn navmap_peak_kib(root: &Path) -> Option<u64> {
    let needle = root.to_string_lossy().to_string();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(NAVMAP) && cmdline.contains(" serve ") && cmdline.contains(&needle) {
            let status = std::fs::read_to_string(entry.path().join("status")).ok()?;
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            return line.split_whitespace().nth(1)?.parse().ok();
        }
    }
    None
}

// 5. 2,000 files touched at once: one coalesced rebuild, a consistent map, bounded memory.
#[tokio::test]
async fn a_burst_of_changes_is_one_rebuild() {
    const FILES: usize = 2_000;
    let dir = fixture("py");
    let module = |i: usize, extra: bool| {
        let mut s = format!("def f_{i:04}():\n    return {i}\n");
        if extra {
            s.push_str(&format!("\n\ndef g_{i:04}():\n    return f_{i:04}()\n"));
        }
        s
    };
    let path = |i: usize| dir.path().join(format!("gen/p{:02}/m_{i:04}.py", i / 100));
    for i in 0..FILES {
        std::fs::create_dir_all(path(i).parent().unwrap()).unwrap();
        write(&path(i), &module(i, false));
    }
    let c = client(dir.path(), &[], &[]).await;
    let before = built(&c).await;
    let s0 = eventually("the watcher to run", || async {
        let s = status(&c).await;
        let mode = s["watching"]["mode"].as_str().unwrap_or("").to_string();
        ["native", "polling"].contains(&mode.as_str()).then_some(s)
    })
    .await;
    let rebuilds0 = s0["watching"]["rebuilds"].as_u64().unwrap();

    let t = Instant::now();
    for i in 0..FILES {
        write(&path(i), &module(i, true));
    }
    let writing = t.elapsed();
    let settled = |s: &Value| {
        s["watching"]["rebuilds"].as_u64().unwrap() > rebuilds0
            && s["watching"]["queued"] == 0
            && s["watching"]["rebuilding"] == false
            && s["staleFiles"] == 0
            && s["building"] == false
    };
    eventually("the burst to be rebuilt", || async {
        let s = status(&c).await;
        settled(&s).then_some(())
    })
    .await;
    // Anything still trickling in would show up within a debounce or two.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let s = status(&c).await;
    assert!(settled(&s), "{s}");
    let rebuilds = s["watching"]["rebuilds"].as_u64().unwrap() - rebuilds0;
    eprintln!(
        "{FILES} files written in {writing:?}: {rebuilds} rebuild(s); last {}",
        s["watching"]["lastRebuild"]
    );
    if writing < Duration::from_secs(1) {
        // Well inside the 2 s max-wait: one burst, one rebuild.
        assert_eq!(rebuilds, 1, "{s}");
    } else {
        // A slow disk may split the burst at the max-wait; still never one per file.
        assert!(rebuilds <= 3, "{s}");
    }
    // Consistent: every new function is in, exactly once.
    assert_eq!(
        s["symbols"].as_u64().unwrap(),
        before["symbols"].as_u64().unwrap() + FILES as u64,
        "{s}"
    );
    assert_eq!(s["files"], before["files"], "{s}");
    let last = FILES - 1;
    let id = format!("py:gen/p{:02}/m_{last:04}.py#g_{last:04}", last / 100);
    assert!(
        search_hit(&c, &format!("g_{last:04}"), &id).await.is_some(),
        "{id}"
    );
    if let Some(kib) = navmap_peak_kib(dir.path()) {
        eprintln!("navmap peak RSS: {} MiB", kib / 1024);
        assert!(
            kib < 1024 * 1024,
            "navmap peaked at {kib} KiB for {FILES} small files"
        );
    }
    c.cancel().await.ok();
}

// 6. nav_references {nodeId} works without any position (and the other nav tools too).
#[tokio::test]
async fn nav_tools_take_a_node_id_py() {
    if !require("pyright-langserver") {
        return;
    }
    let dir = fixture("py");
    let c = client(dir.path(), &[], &[]).await;
    built(&c).await;
    let r = call(&c, "nav_references", json!({"nodeId": PY_REFRESH})).await;
    let d = ok(&r);
    // The node ID is the request and the server verified where the bridge placed it: no
    // `target` repeats it (issue 18); the references below are of that place.
    assert!(d.get("target").is_none(), "{r}");
    assert!(
        common::anchors(&d["locations"])
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["file"] == "shop/api.py" && l["line"] == 15 && l["col"] == 33),
        "{r}"
    );
    let t = call(&c, "nav_type", json!({"nodeId": PY_REFRESH})).await;
    assert!(
        ok(&t)["contents"].as_str().unwrap().contains("refresh"),
        "{t}"
    );
    let h = call(
        &c,
        "nav_callHierarchy",
        json!({"nodeId": PY_REFRESH, "direction": "incoming"}),
    )
    .await;
    assert!(
        ok(&h)["calls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["file"] == "shop/api.py"),
        "{h}"
    );
    c.cancel().await.ok();
}

// The TypeScript fixture: round trip and references by nodeId through its own server.
#[tokio::test]
async fn resolve_and_references_by_node_id_ts() {
    if !require("typescript-language-server") {
        return;
    }
    let dir = fixture("ts");
    let c = client(dir.path(), &[], &[]).await;
    built(&c).await;
    let id = "ts:src/store.ts#SessionStore.refresh";
    let r = call(&c, "resolve", json!({"nodeId": id})).await;
    let d = ok(&r);
    assert_eq!(
        (d["verified"].clone(), d["mapStale"].clone()),
        (json!(true), json!(false)),
        "{r}"
    );
    assert_eq!(
        (
            d["location"]["line"].as_u64(),
            d["location"]["col"].as_u64()
        ),
        (Some(25), Some(3)),
        "{r}"
    );
    let refs = call(&c, "nav_references", json!({"nodeId": id})).await;
    assert!(
        common::anchors(&ok(&refs)["locations"])
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["file"] == "src/api.ts" && l["line"] == 9 && l["col"] == 40),
        "{refs}"
    );
    let p = call(
        &c,
        "resolve",
        json!({"file": "src/store.ts", "line": 26, "col": 5}),
    )
    .await;
    assert_eq!(ok(&p)["nodeId"], id, "{p}");
    c.cancel().await.ok();
}

// No language server: the map's position, verified:false, a warning — not an error.
#[tokio::test]
async fn without_a_server_resolve_falls_back_to_the_map() {
    let dir = fixture("py");
    let c = client(
        dir.path(),
        &[],
        &[("NAVMAP_LSP_PY", "navmap-no-such-language-server --stdio")],
    )
    .await;
    built(&c).await;
    let r = call(&c, "resolve", json!({"nodeId": PY_REFRESH})).await;
    let d = ok(&r);
    assert_eq!(d["verified"], false, "{r}");
    assert_eq!(
        (
            d["location"]["line"].as_u64(),
            d["location"]["col"].as_u64()
        ),
        (Some(27), Some(9)),
        "{r}"
    );
    assert!(warned(&r, "LSP_UNAVAILABLE"), "{r}");
    let p = call(
        &c,
        "resolve",
        json!({"file": PY_STORE, "line": 29, "col": 9}),
    )
    .await;
    assert_eq!(ok(&p)["nodeId"], PY_REFRESH, "{p}");
    assert_eq!(ok(&p)["verified"], false, "{p}");
    // The nav tool itself still needs the server: its own error, after the fallback.
    let e = call(&c, "nav_definition", json!({"nodeId": PY_REFRESH})).await;
    assert_eq!(err_code(&e), "LSP_UNAVAILABLE", "{e}");
    c.cancel().await.ok();
}

// Start-up check + stale flags + read-through, without a watcher: deterministic.
#[tokio::test]
async fn startup_check_marks_stale_and_read_through_refreshes() {
    let dir = fixture("py");
    let module_path = |i: usize| dir.path().join(format!("gen/m_{i:02}.py"));
    std::fs::create_dir_all(dir.path().join("gen")).unwrap();
    for i in 0..30 {
        write(
            &module_path(i),
            &format!("def h_{i:02}():\n    return {i}\n"),
        );
    }
    {
        let c = client(dir.path(), &["--no-watch"], &[]).await;
        built(&c).await;
        c.cancel().await.ok();
    }
    // Changed while nobody watched: 30 files (more than read-through takes on).
    for i in 0..30 {
        write(
            &module_path(i),
            &format!("\n\ndef h_{i:02}():\n    return {i}\n"),
        );
    }
    let c = client(dir.path(), &["--no-watch", "--no-build"], &[]).await;
    let s = eventually("the start-up check", || async {
        let s = call(&c, "map_status", json!({})).await;
        (ok(&s)["staleFiles"] == 30).then_some(s)
    })
    .await;
    assert_eq!(ok(&s)["watching"]["mode"], "off", "{s}");
    assert!(warned(&s, "30 file(s) changed"), "{s}");
    let env = call(&c, "map_search", json!({"query": "h_07"})).await;
    let hit = &ok(&env)["results"][0];
    assert_eq!(hit["id"], "py:gen/m_07.py#h_07", "{env}");
    assert_eq!(
        (hit["stale"].clone(), hit["line"].clone()),
        (json!(true), json!(1)),
        "{env}"
    );
    assert!(warned(&env, "stale:true"), "{env}");

    // A few stale files are re-indexed before the answer (or just after, past the cap).
    let kept: Vec<String> = (10..30).map(|i| format!("gen/m_{i:02}.py")).collect();
    ok(&call(&c, "map_rebuild", json!({"paths": kept})).await);
    let s = call(&c, "map_status", json!({})).await;
    assert_eq!(ok(&s)["staleFiles"], 10, "{s}");
    eventually("read-through to re-index the rest", || async {
        let env = call(&c, "map_search", json!({"query": "h_07"})).await;
        let hit = ok(&env)["results"][0].clone();
        (hit["line"] == 3 && hit.get("stale").is_none()).then_some(())
    })
    .await;
    let s = call(&c, "map_status", json!({})).await;
    assert_eq!(ok(&s)["staleFiles"], 0, "{s}");
    assert!(
        ok(&s)["watching"]["refreshes"].as_u64().unwrap() >= 1,
        "{s}"
    );
    c.cancel().await.ok();
}

// A watcher told to poll says so in map_status (degraded, with a warning) and still works.
#[tokio::test]
async fn a_polling_watcher_is_visible_and_works() {
    let dir = fixture("py");
    let c = client(
        dir.path(),
        &[],
        &[("NAVMAP_WATCH_POLL", "1"), ("NAVMAP_WATCH_POLL_MS", "200")],
    )
    .await;
    built(&c).await;
    let s = eventually("the watcher to start", || async {
        let s = call(&c, "map_status", json!({})).await;
        (ok(&s)["watching"]["mode"] == "polling").then_some(s)
    })
    .await;
    assert!(warned(&s, "polling"), "{s}");
    let api = dir.path().join("shop/api.py");
    let text = std::fs::read_to_string(&api).unwrap();
    write(
        &api,
        &format!("{text}\n\ndef polled_later():\n    return 1\n"),
    );
    eventually("the polled change in the map", || {
        search_hit(&c, "polled_later", "py:shop/api.py#polled_later")
    })
    .await;
    c.cancel().await.ok();
}

// Rust: methods live in `impl` blocks (inherent and trait impls), which the outline
// matching folds into the type; rust-analyzer is required in CI (else skipped when missing).
#[tokio::test]
async fn resolve_through_impl_blocks_rs() {
    if !require("rust-analyzer") {
        return;
    }
    let dir = fixture("rs");
    let c = client(dir.path(), &[], &[]).await;
    built(&c).await;
    // `resolve` answers from the map, unverified, while the server loads: wait for it
    // as an agent would (a question asked again while it is not ready).
    ok(&common::ask_ready(
        &c,
        "nav_definition",
        json!({"file": "src/api.rs", "line": 8, "col": 40}),
    )
    .await);
    // refresh: `impl SessionStore`; get: `impl BaseStore for SessionStore`.
    for (id, line) in [
        ("rs:src/store.rs#SessionStore.refresh", 24),
        ("rs:src/store.rs#SessionStore", 12),
    ] {
        let r = call(&c, "resolve", json!({"nodeId": id})).await;
        let d = ok(&r);
        assert_eq!(d["verified"], true, "{r}");
        assert_eq!(d["mapStale"], false, "{r}");
        assert_eq!(d["location"]["line"], line, "{r}");
    }
    let r = call(
        &c,
        "resolve",
        json!({"nodeId": "rs:src/store.rs#SessionStore.get"}),
    )
    .await;
    assert_eq!(ok(&r)["verified"], true, "{r}");
    assert!(
        ok(&r)["location"]["snippet"]
            .as_str()
            .unwrap()
            .contains("fn get"),
        "{r}"
    );
    let p = call(
        &c,
        "resolve",
        json!({"file": "src/store.rs", "line": 26, "col": 5}),
    )
    .await;
    assert_eq!(
        ok(&p)["nodeId"],
        "rs:src/store.rs#SessionStore.refresh",
        "{p}"
    );
    c.cancel().await.ok();
}

// ---- start-up (issue 19): initialize at once, the map opens in the background ----

/// `navmap serve` whose map opens only once `gate` exists (`NAVMAP_TEST_OPEN_GATE`): the
/// client is returned once `initialize` is answered.
async fn gated_client(root: &Path, gate: &Path) -> Client {
    client(
        root,
        &["--no-watch"],
        &[
            ("NAVMAP_TEST_OPEN_GATE", gate.to_str().unwrap()),
            ("NAVMAP_START_WAIT_MS", "120000"),
        ],
    )
    .await
}

/// Issues map_search for SessionStore; the answer, when it comes.
fn search_session_store(c: &Client) -> impl std::future::Future<Output = Value> + '_ {
    call(c, "map_search", json!({"query": "SessionStore"}))
}

/// Sends a search, checks it is not answered while the gate is shut (the map cannot open
/// yet), opens the gate and returns the answer.
async fn search_once_the_gate_opens(c: &Client, gate: &Path) -> Value {
    let answer = search_session_store(c);
    tokio::pin!(answer);
    let early = tokio::time::timeout(Duration::from_millis(300), &mut answer).await;
    assert!(
        early.is_err(),
        "answered before the map opened: {:?}",
        early.ok()
    );
    std::fs::write(gate, "").unwrap();
    answer.await
}

fn found_session_store(env: &Value) -> bool {
    ok(env)["results"].as_array().is_some_and(|r| {
        r.iter().any(|h| {
            h["id"]
                .as_str()
                .is_some_and(|id| id.contains("SessionStore"))
        })
    })
}

/// `initialize` is answered while the map is still opening (its gate is closed), and a
/// map call made meanwhile waits for the map, answers from it, and says it waited: never
/// MAP_NOT_BUILT for a map that exists on disk.
#[tokio::test]
async fn initialize_is_answered_before_the_map_opens_and_a_call_waits_for_it() {
    let dir = fixture("py");
    let built = common::navmap_cli(dir.path(), &["rebuild"]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let gates = tempfile::tempdir().unwrap();
    let gate = gates.path().join("open");
    // Answered although the map cannot open yet: initialize does not wait for the map.
    let c = gated_client(dir.path(), &gate).await;
    let env = search_once_the_gate_opens(&c, &gate).await;
    assert!(found_session_store(&env), "{env}");
    assert!(warned(&env, "for the map to open"), "{env}");
    // Later calls do not wait.
    let env = search_session_store(&c).await;
    assert!(found_session_store(&env), "{env}");
    assert!(!warned(&env, "for the map to open"), "{env}");
}

/// A first map call on a root with no map builds it and answers (the build is small:
/// well within the bound), instead of MAP_NOT_BUILT.
#[tokio::test]
async fn a_first_map_call_on_a_fresh_root_builds_and_answers() {
    let dir = fixture("py");
    let gates = tempfile::tempdir().unwrap();
    let gate = gates.path().join("open");
    let c = gated_client(dir.path(), &gate).await;
    let env = search_once_the_gate_opens(&c, &gate).await;
    assert!(found_session_store(&env), "{env}");
}

/// `navmap call` on a root with no map builds it and answers.
#[test]
fn navmap_call_on_a_fresh_root_answers() {
    let dir = fixture("py");
    let out = common::navmap_cli(
        dir.path(),
        &["call", "map_search", r#"{"query":"SessionStore"}"#],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let env: Value = serde_json::from_str(&text).unwrap();
    assert!(found_session_store(&env), "{env}");
}
