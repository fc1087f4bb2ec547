//! The shapes of the nav_* answers and resolve's refusals (issue 9, docs/answers.md),
//! through a real MCP client: a call hierarchy with one caller holding 60 call sites stays
//! useful at a small budget, notes never suggest a parameter already set, test code ranks
//! last and can be left out, filters are not incompleteness, and IDs or paths the map
//! does not have are errors, not `verified: true`.

mod common;

use std::path::Path;

use common::{Client, call, err_code, fixture, ok, require, symbols};
use serde_json::{Value, json};

/// Deadlines generous enough for a machine shared with parallel builds: these tests pin
/// answer shapes, not latency (docs/lsp.md has the deadlines and their figures).
fn patient() -> Vec<(&'static str, String)> {
    vec![
        ("NAVMAP_LSP_TIMEOUT_MS", "60000".into()),
        ("NAVMAP_LSP_LONG_TIMEOUT_MS", "60000".into()),
    ]
}

async fn client(root: &Path) -> Client {
    common::client_with(root, &[], &patient(), None).await
}

fn names(calls: &Value) -> Vec<String> {
    calls
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Callers of `target` outside test code: more than a 500-token answer holds, even with
/// one site each.
const CALLERS: usize = 16;

/// `pkg/core.py` defines `target`; sixteen callers in `pkg/` and `app/`, and one test
/// function in `tests/` calling it 60 times.
fn many_callers_repo() -> tempfile::TempDir {
    let dir = fixture("");
    let root = dir.path();
    for d in ["pkg", "app", "tests"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
        std::fs::write(root.join(d).join("__init__.py"), "").unwrap();
    }
    std::fs::write(root.join("pyproject.toml"), "[project]\nname = \"m\"\n").unwrap();
    std::fs::write(root.join("pkg/core.py"), "def target():\n    return 1\n").unwrap();
    for i in 0..CALLERS {
        let dir = if i < 10 { "pkg" } else { "app" };
        std::fs::write(
            root.join(format!("{dir}/c{i}.py")),
            format!("from pkg.core import target\n\n\ndef caller_{i}():\n    return target()\n"),
        )
        .unwrap();
    }
    let mut t = String::from("from pkg.core import target\n\n\ndef test_many():\n");
    for _ in 0..60 {
        t.push_str("    target()\n");
    }
    std::fs::write(root.join("tests/test_many.py"), t).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_hierarchy_with_a_60_site_caller_stays_useful_at_a_small_budget() {
    if !require("pyright-langserver", true) {
        return;
    }
    let dir = many_callers_repo();
    let c = client(dir.path()).await;
    let base = json!({"file": "pkg/core.py", "line": 1, "col": 5, "direction": "incoming"});

    // The whole answer: every caller, the test function last, its sites capped at
    // maxSites (default 3) with the count of the rest; depth 1 repeats nothing.
    let mut args = base.clone();
    args["tokenBudget"] = json!(10000);
    let h = call(&c, "nav_callHierarchy", args).await;
    let d = ok(&h);
    let calls = d["calls"].as_array().unwrap();
    assert_eq!(calls.len(), CALLERS + 1, "{h}");
    let last = calls.last().unwrap();
    assert_eq!(last["name"], "test_many", "test code ranks last: {h}");
    assert_eq!(last["sites"].as_array().unwrap().len(), 3, "{h}");
    assert_eq!(last["moreSites"], 57, "{h}");
    assert!(
        calls
            .iter()
            .all(|c| c.get("depth").is_none() && c.get("via").is_none()),
        "{h}"
    );
    assert!(
        d.get("direction").is_none() && d.get("depth").is_none(),
        "{h}"
    );
    assert!(d.get("complete").is_none(), "{h}");

    // All sites asked for, at tokenBudget 500: sites are cut before callers, several
    // callers remain, and a cursor pages the rest.
    let mut args = base.clone();
    args["tokenBudget"] = json!(500);
    args["maxSites"] = json!(100);
    let h = call(&c, "nav_callHierarchy", args.clone()).await;
    let d = ok(&h);
    let shown = d["calls"].as_array().unwrap();
    assert!(shown.len() >= 3, "several callers: {h}");
    assert!(
        shown
            .iter()
            .all(|c| c["sites"].as_array().unwrap().len() <= 1),
        "{h}"
    );
    assert_eq!(h["truncated"], true, "{h}");
    assert!(h["cursor"].is_string(), "a cursor: {h}");
    assert!(
        d.get("complete").is_none(),
        "a budget cut is truncated, never complete:false, and no complete:true next to it: {h}"
    );
    // Notes never suggest what is set, nor depth at depth 1; a fileFilter suggestion
    // names a directory of the answer.
    let note = h["dropped"]["note"].as_str().unwrap();
    assert!(!note.contains("depth"), "{note}");
    assert!(note.contains("fileFilter:'pkg/'"), "{note}");
    assert!(!note.contains("src/"), "{note}");
    let mut next = args.clone();
    next["cursor"] = h["cursor"].clone();
    let h2 = call(&c, "nav_callHierarchy", next).await;
    let more = names(&ok(&h2)["calls"]);
    assert!(
        !more.is_empty() && more.iter().all(|n| !names(&d["calls"]).contains(n)),
        "{h2}"
    );

    // Any budget up to 800 still shows callers (with the default maxSites), and a cut
    // leaves a cursor.
    for budget in [250, 300, 800] {
        let mut args = base.clone();
        args["tokenBudget"] = json!(budget);
        let h = call(&c, "nav_callHierarchy", args).await;
        let d = ok(&h);
        assert!(!d["calls"].as_array().unwrap().is_empty(), "{budget}: {h}");
        if budget < 800 {
            assert_eq!(h["truncated"], true, "{budget}: {h}");
        }
        if h["truncated"] == true {
            assert!(h["cursor"].is_string(), "{budget}: {h}");
        }
        // A detail that only names the item's own file says nothing new.
        assert!(
            d["calls"].as_array().unwrap().iter().all(|c| c
                .get("detail")
                .is_none_or(|x| !x.as_str().unwrap().contains(".py"))),
            "{h}"
        );
    }

    // fileFilter and excludeTests narrow; the note then suggests neither.
    let mut args = base.clone();
    args["fileFilter"] = json!("pkg/");
    args["excludeTests"] = json!(true);
    args["tokenBudget"] = json!(300);
    let h = call(&c, "nav_callHierarchy", args).await;
    let d = ok(&h);
    assert!(names(&d["calls"]).iter().all(|n| n != "test_many"), "{h}");
    assert!(
        d["calls"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["file"].as_str().unwrap().starts_with("pkg/")),
        "{h}"
    );
    assert!(
        d.get("complete").is_none(),
        "a filter is not incompleteness: {h}"
    );
    // What the filters left out (test_many, in tests/) is a count, not a warning.
    assert!(d["leftOut"].as_u64().is_some_and(|n| n >= 1), "{h}");
    assert!(
        !common::warned(&h, "kept") && !common::warned(&h, "left out"),
        "{h}"
    );
    if h["truncated"] == true {
        let note = h["dropped"]["note"].as_str().unwrap();
        assert!(
            !note.contains("fileFilter") && !note.contains("excludeTests"),
            "{note}"
        );
    }

    // References: test code after the rest, excludeTests drops it, complete stays true.
    // Grouped by file (each file once, docs/answers.md), the test file last.
    let r = call(
        &c,
        "nav_references",
        json!({"file": "pkg/core.py", "line": 1, "col": 5, "tokenBudget": 10000}),
    )
    .await;
    let d = ok(&r);
    let groups = d["locations"].as_array().unwrap();
    let files: Vec<&str> = groups.iter().map(|g| g["file"].as_str().unwrap()).collect();
    assert_eq!(files.last(), Some(&"tests/test_many.py"), "{r}");
    let mut unique = files.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), files.len(), "one group per file: {r}");
    assert_eq!(d["files"], files.len(), "{r}");
    assert!(
        groups.iter().all(|g| g["at"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a.get("file").is_none())),
        "{r}"
    );
    // Each reference is one row, `<line>:<col> <snippet>`, under its file.
    assert!(
        groups.iter().all(|g| g["at"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a.as_str().is_some_and(|row| row
                .split_once(' ')
                .is_some_and(|(pos, _)| pos
                    .split_once(':')
                    .is_some_and(|(l, c)| l.parse::<u32>().is_ok() && c.parse::<u32>().is_ok()))))),
        "{r}"
    );
    assert_eq!(
        d["total"],
        common::anchors(&d["locations"]).as_array().unwrap().len(),
        "{r}"
    );
    let all_total = d["total"].clone();
    let r = call(
        &c,
        "nav_references",
        json!({"file": "pkg/core.py", "line": 1, "col": 5, "excludeTests": true}),
    )
    .await;
    let d = ok(&r);
    assert!(
        d["locations"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["file"] != "tests/test_many.py"),
        "{r}"
    );
    assert!(d.get("complete").is_none(), "{r}");
    // What the call's own filter left out is a count, not a warning.
    let kept = d["total"].as_u64().unwrap();
    let before = all_total.as_u64().unwrap();
    assert!(kept > 0 && kept < before, "{r}");
    assert_eq!(d["leftOut"].as_u64(), Some(before - kept), "{r}");
    assert!(!common::warned(&r, "kept"), "{r}");
    // One file's answer: the group says which; no `files` count.
    let r = call(
        &c,
        "nav_references",
        json!({"file": "pkg/core.py", "line": 1, "col": 5, "fileFilter": "tests/test_many.py"}),
    )
    .await;
    let d = ok(&r);
    assert_eq!(d["locations"].as_array().unwrap().len(), 1, "{r}");
    assert!(d.get("files").is_none(), "{r}");
    assert_eq!(
        d["leftOut"].as_u64(),
        Some(before - d["total"].as_u64().unwrap()),
        "{r}"
    );

    // A filter that keeps nothing is a whole (empty) answer that says where the hits are,
    // so the next filter names a prefix that exists.
    for tool in ["nav_references", "nav_callHierarchy"] {
        let mut args = base.clone();
        args["fileFilter"] = json!("src/");
        if tool == "nav_references" {
            args.as_object_mut().unwrap().remove("direction");
        }
        let r = call(&c, tool, args).await;
        let d = ok(&r);
        let list = if tool == "nav_references" {
            "locations"
        } else {
            "calls"
        };
        assert!(d[list].as_array().unwrap().is_empty(), "{r}");
        assert!(d.get("complete").is_none(), "{r}");
        assert!(
            common::warned(&r, "kept 0 of")
                && common::warned(&r, "they are in")
                && common::warned(&r, "pkg/ ("),
            "{r}"
        );
    }

    // At a budget too small for one reference per file, files are cut and a cursor pages
    // the next files of the same ranking; once the answer changes it is stale.
    let args = json!({"file": "pkg/core.py", "line": 1, "col": 5, "tokenBudget": 200});
    let r = call(&c, "nav_references", args.clone()).await;
    let d = ok(&r);
    assert_eq!(r["truncated"], true, "{r}");
    assert!(r["cursor"].is_string(), "{r}");
    assert_eq!(d["total"], all_total, "every reference counted: {r}");
    assert!(d.get("complete").is_none(), "{r}");
    let first: Vec<String> = d["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["file"].as_str().unwrap().to_string())
        .collect();
    assert!(!first.is_empty() && first.len() < files.len(), "{r}");
    let mut next = args.clone();
    next["cursor"] = r["cursor"].clone();
    let r2 = call(&c, "nav_references", next.clone()).await;
    let second: Vec<String> = ok(&r2)["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["file"].as_str().unwrap().to_string())
        .collect();
    assert!(
        !second.is_empty() && second.iter().all(|f| !first.contains(f)),
        "{r2}"
    );
    assert_eq!(
        second[0],
        files[first.len()],
        "the next files in order: {r2}"
    );
    // One more use in the file asked about (synced to the server before the query).
    std::fs::write(
        dir.path().join("pkg/core.py"),
        "def target():\n    return 1\n\n\ntarget()\n",
    )
    .unwrap();
    let stale = call(&c, "nav_references", next).await;
    assert_eq!(err_code(&stale), "CURSOR_STALE", "{stale}");
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn symbols_are_hierarchical_without_locals() {
    if !require("pyright-langserver", true) {
        return;
    }
    let dir = fixture("py");
    let c = client(dir.path()).await;
    let o = call(
        &c,
        "nav_symbols",
        json!({"file": "shop/store.py", "tokenBudget": 10000}),
    )
    .await;
    let text = o.to_string();
    assert!(
        !text.contains("\"container\"") && !text.contains("\"depth\""),
        "{o}"
    );
    let syms = symbols(&ok(&o)["symbols"]).as_array().unwrap().clone();
    let class = syms.iter().find(|s| s["name"] == "SessionStore").unwrap();
    let methods = class["children"].as_array().unwrap();
    // Parameters (`key`, `value`) and locals are left out by default.
    assert!(methods.iter().all(|m| m.get("children").is_none()), "{o}");
    assert!(methods.iter().any(|m| m["name"] == "refresh"), "{o}");
    // One row per symbol, not an object: `<line>:<col>-<endLine> <kind> <name>`.
    assert!(o.to_string().contains("\"27:9-34 method refresh\""), "{o}");
    // So are the attributes first set inside a method (`self._data = …`), and the
    // answer counts what it left out.
    assert!(methods.iter().all(|m| m["kind"] == "method"), "{o}");
    assert!(ok(&o)["leftOut"].as_u64().unwrap() >= 2, "{o}");
    // With locals, the parameters come back.
    let o = call(
        &c,
        "nav_symbols",
        json!({"file": "shop/store.py", "depth": 3, "locals": true, "tokenBudget": 10000}),
    )
    .await;
    assert!(o.to_string().contains(" variable key\""), "{o}");
    assert!(o.to_string().contains(" variable _data\""), "{o}");
    assert!(ok(&o).get("leftOut").is_none(), "{o}");
    // depth 1: the top level only; kind: flat, with the parent named.
    let o = call(
        &c,
        "nav_symbols",
        json!({"file": "shop/store.py", "depth": 1}),
    )
    .await;
    assert!(!o.to_string().contains("\"children\""), "{o}");
    let o = call(
        &c,
        "nav_symbols",
        json!({"file": "shop/store.py", "kind": "method"}),
    )
    .await;
    let d = json!({"symbols": symbols(&ok(&o)["symbols"])});
    assert!(
        d["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["kind"] == "method"),
        "{o}"
    );
    assert!(
        d["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "refresh" && s["in"] == "SessionStore"),
        "{o}"
    );
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_and_paths_the_map_does_not_have_are_errors() {
    let dir = fixture("py");
    // No language server is needed to refuse these.
    let c = common::client_with(dir.path(), &[], &[], Some("/usr/bin:/bin".into())).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    for tool in ["resolve", "nav_definition"] {
        let e = call(&c, tool, json!({"nodeId": "zz:shop/api.py#check"})).await;
        assert_eq!(err_code(&e), "BAD_NODE_ID", "{tool}: {e}");
        for id in [
            "py:shop/store.py#SessionStore.refresh~3",
            "py:shop/store.py#Nope.refresh",
        ] {
            let e = call(&c, tool, json!({"nodeId": id})).await;
            assert_eq!(err_code(&e), "NODE_NOT_FOUND", "{tool} {id}: {e}");
            // What the map has there instead, to pick the right ID.
            let listed = |k: &str| e["error"][k].as_array().cloned().unwrap_or_default();
            assert!(listed("names").iter().any(|n| n == "SessionStore"), "{e}");
            if id.contains("~3") {
                assert!(listed("members").iter().any(|n| n == "refresh"), "{e}");
            }
        }
        // A path that never existed, or a directory: BAD_ARGS, not FILE_DELETED.
        for id in ["py:shop/nothere.py#x", "py:shop#x"] {
            let e = call(&c, tool, json!({"nodeId": id})).await;
            assert_eq!(err_code(&e), "BAD_ARGS", "{tool} {id}: {e}");
        }
    }
    for file in ["shop/nothere.py", "shop"] {
        let e = call(&c, "resolve", json!({"file": file, "line": 1})).await;
        assert_eq!(err_code(&e), "BAD_ARGS", "{file}: {e}");
        let e = call(&c, "nav_symbols", json!({"file": file})).await;
        assert_eq!(err_code(&e), "BAD_ARGS", "{file}: {e}");
    }
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_symbol_found_under_another_parent_is_relocated_not_verified() {
    if !require("pyright-langserver", true) {
        return;
    }
    let dir = fixture("py");
    // A long quiet period keeps the map behind the edit.
    let c = common::client_with(
        dir.path(),
        &[],
        &[
            ("NAVMAP_WATCH_QUIET_MS", "5000".into()),
            ("NAVMAP_WATCH_MAX_WAIT_MS", "10000".into()),
            ("NAVMAP_LSP_TIMEOUT_MS", "60000".into()),
        ],
        None,
    )
    .await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let store = dir.path().join("shop/store.py");
    let text = std::fs::read_to_string(&store).unwrap();
    std::fs::write(
        &store,
        text.replace("class SessionStore(", "class SessionCache("),
    )
    .unwrap();
    let r = call(
        &c,
        "resolve",
        json!({"nodeId": "py:shop/store.py#SessionStore.refresh"}),
    )
    .await;
    let d = ok(&r);
    assert_eq!(d["relocated"], true, "{r}");
    assert_eq!(d["verified"], false, "{r}");
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_outside_the_root_is_shown_by_path() {
    if !require("pyright-langserver", true) {
        return;
    }
    let dir = fixture("");
    let root = dir.path();
    std::fs::write(root.join("pyproject.toml"), "[project]\nname = \"m\"\n").unwrap();
    std::fs::write(
        root.join("main.py"),
        "import os.path\n\n\ndef joined(a, b):\n    return os.path.join(a, b)\n\n\ndef run():\n    return joined(\"a\", \"b\")\n",
    )
    .unwrap();
    let c = client(root).await;
    let outside = |env: &Value| {
        let text = env.to_string();
        // No absolute path, no path of the library (pyright's typeshed stubs).
        assert!(!text.contains(&root.display().to_string()), "{env}");
        assert!(!text.contains("typeshed") && !text.contains("\"/"), "{env}");
    };

    // Outgoing calls into the library are left out by default, with a count.
    let args = json!({"file": "main.py", "line": 4, "col": 5, "direction": "outgoing"});
    let h = call(&c, "nav_callHierarchy", args.clone()).await;
    let d = ok(&h);
    assert!(d["calls"].as_array().unwrap().is_empty(), "{h}");
    assert!(common::warned(&h, "outside the root"), "{h}");
    assert_eq!(d["direction"], "outgoing", "{h}");
    outside(&h);
    // Asked for, they are named and marked external, never placed by path.
    let mut args = args.clone();
    args["includeExternal"] = json!(true);
    let h = call(&c, "nav_callHierarchy", args).await;
    let calls = ok(&h)["calls"].as_array().unwrap().clone();
    assert!(
        calls
            .iter()
            .any(|v| v["name"] == "join" && v["external"] == true && v.get("file").is_none()),
        "{h}"
    );
    outside(&h);

    // A definition in the library: the file's name only.
    let def = call(
        &c,
        "nav_definition",
        json!({"file": "main.py", "line": 5, "col": 20}),
    )
    .await;
    let groups = ok(&def)["locations"].as_array().unwrap().clone();
    assert!(!groups.is_empty(), "{def}");
    assert!(
        groups.iter().all(|g| g["external"] == true
            && g.get("file").is_none()
            && g["lib"].as_str().is_some_and(|l| !l.contains('/'))),
        "{def}"
    );
    outside(&def);

    // Incoming inside the root is unaffected: `run` calls `joined`, at depth 1 without
    // depth/via, its site in its own file without a file name.
    let h = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "main.py", "line": 4, "col": 5, "direction": "incoming"}),
    )
    .await;
    let calls = ok(&h)["calls"].as_array().unwrap().clone();
    assert_eq!(calls.len(), 1, "{h}");
    assert_eq!(calls[0]["name"], "run", "{h}");
    assert_eq!(calls[0]["sites"][0]["line"], 9, "{h}");
    assert!(calls[0]["sites"][0].get("file").is_none(), "{h}");
    c.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overloads_are_one_callee() {
    if !require("typescript-language-server", true) {
        return;
    }
    let dir = fixture("ts");
    let root = dir.path();
    std::fs::write(
        root.join("src/over.ts"),
        "export function over(a: string): string;\nexport function over(a: number): number;\nexport function over(a: any) { return a; }\n\nexport function both() {\n  over(\"x\");\n  return over(5);\n}\n",
    )
    .unwrap();
    let c = client(root).await;
    let h = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "src/over.ts", "line": 5, "col": 17, "direction": "outgoing"}),
    )
    .await;
    let calls = ok(&h)["calls"].as_array().unwrap().clone();
    let over: Vec<&Value> = calls.iter().filter(|v| v["name"] == "over").collect();
    assert_eq!(over.len(), 1, "one item for the overloads: {h}");
    let lines: Vec<u64> = over[0]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, vec![6, 7], "each site once, in the root's file: {h}");
    c.cancel().await.ok();
}
