//! Addressing by name (contract §3, issue 18): every tool that takes a `nodeId` also takes
//! `symbol`, a name as an agent writes it, resolved through the map in the same call. One
//! match: answered, the answer names the node chosen (`nodeId`). Several: the best
//! answered, the others listed (`alternatives`). None: `NODE_NOT_FOUND` with the nearest
//! names (`nearest`). `map_path` takes names in `from`/`to`, `map_search` finds by them.
//! On the Python fixture (fixtures/README.md); the nav tools with the real pyright.

mod common;

use common::*;
use serde_json::{Value, json};

const REFRESH: &str = "py:shop/store.py#SessionStore.refresh";
const STORE: &str = "py:shop/store.py#SessionStore";
const VALIDATES: [&str; 2] = [
    "py:shop/util/email.py#validate",
    "py:shop/util/token.py#validate",
];

fn strs(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap_or_else(|| panic!("an array: {v}"))
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// The forms an agent writes, each naming one node of the fixture.
#[tokio::test]
async fn every_form_of_a_name_finds_its_node() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;
    let forms = [
        ("SessionStore.refresh", REFRESH),
        ("store.SessionStore", STORE),
        ("shop.store.SessionStore", STORE),
        ("shop::store::SessionStore", STORE),
        ("store.py#SessionStore.refresh", REFRESH),
        ("shop/store.py#SessionStore", STORE),
        ("py:shop/store.py#SessionStore.refresh", REFRESH),
        ("shop/store.py#sessionstore.REFRESH", REFRESH),
        ("api.handle_refresh", "py:shop/api.py#handle_refresh"),
        ("shop/api.py", "py:shop/api.py"),
        ("email.validate", VALIDATES[0]),
    ];
    for (name, id) in forms {
        let env = call(
            &c,
            "map_neighbors",
            json!({"symbol": name, "direction": "in"}),
        )
        .await;
        let d = ok(&env);
        assert_eq!(d["nodeId"], id, "{name}: {env}");
        assert!(d.get("alternatives").is_none(), "{name}: {env}");
        // map_search answers the same forms with the same node first.
        let s = ok(&call(&c, "map_search", json!({"query": name})).await).clone();
        assert_eq!(s["results"][0]["id"], id, "{name}: {s}");
        assert_eq!(s["results"][0]["match"], "exact", "{name}: {s}");
    }
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn map_tools_answer_one_several_or_none() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;

    // One match: answered as for its node ID, which the answer names.
    let by_name = ok(&call(
        &c,
        "map_neighbors",
        json!({"symbol": "SessionStore.refresh", "direction": "out", "edgeKinds": ["calls"]}),
    )
    .await)
    .clone();
    let by_id = ok(&call(
        &c,
        "map_neighbors",
        json!({"nodeId": REFRESH, "direction": "out", "edgeKinds": ["calls"]}),
    )
    .await)
    .clone();
    assert_eq!(by_name["nodeId"], REFRESH, "{by_name}");
    assert_eq!(by_name["neighbors"], by_id["neighbors"]);
    assert!(
        neighbor_ids(&by_name).contains(&format!("{STORE}.put")),
        "{by_name}"
    );
    // A node ID call is not told what it asked.
    assert!(
        by_id.get("nodeId").is_none() && by_id.get("node").is_none(),
        "{by_id}"
    );

    // Several: the best answered, the other listed.
    let d = ok(&call(&c, "map_neighbors", json!({"symbol": "validate"})).await).clone();
    let chosen = d["nodeId"].as_str().unwrap();
    assert!(VALIDATES.contains(&chosen), "{d}");
    let others = strs(&d["alternatives"]);
    assert_eq!(others.len(), 1, "{d}");
    assert!(VALIDATES.contains(&others[0]) && others[0] != chosen, "{d}");

    // None: NODE_NOT_FOUND with the nearest names, the container's members first.
    for (name, nearest) in [
        ("SessionStore.refrsh", REFRESH),
        ("SessionStore.nope", STORE),
    ] {
        let env = call(&c, "map_neighbors", json!({"symbol": name})).await;
        assert_eq!(err_code(&env), "NODE_NOT_FOUND", "{env}");
        assert_eq!(env["error"]["field"], "symbol", "{env}");
        let near = strs(&env["error"]["nearest"]);
        assert!(near[0].starts_with(nearest), "{name}: {env}");
        assert!(near.len() <= 5, "{env}");
    }

    // symbol with nodeId: which one?
    let env = call(
        &c,
        "map_neighbors",
        json!({"symbol": "validate", "nodeId": STORE}),
    )
    .await;
    assert_eq!(err_code(&env), "BAD_ARGS", "{env}");
    assert_eq!(env["error"]["field"], "symbol", "{env}");
    // Neither: BAD_ARGS naming nodeId.
    let env = call(&c, "map_neighbors", json!({})).await;
    assert_eq!(err_code(&env), "BAD_ARGS", "{env}");

    // map_path: names in from/to, each resolved; a miss names its argument.
    let d = ok(&call(
        &c,
        "map_path",
        json!({"from": "handle_refresh", "to": "SessionStore.refresh"}),
    )
    .await)
    .clone();
    assert_eq!(d["found"], true, "{d}");
    assert_eq!(d["from"], "py:shop/api.py#handle_refresh", "{d}");
    assert_eq!(d["to"], REFRESH, "{d}");
    assert_eq!(d["edgeKinds"], json!(["calls"]), "{d}");
    let d = ok(&call(&c, "map_path", json!({"from": "validate", "to": STORE})).await).clone();
    assert!(VALIDATES.contains(&d["from"].as_str().unwrap()), "{d}");
    assert_eq!(strs(&d["fromAlternatives"]).len(), 1, "{d}");
    assert!(d.get("to").is_none(), "a node ID is not echoed: {d}");
    let env = call(
        &c,
        "map_path",
        json!({"from": REFRESH, "to": "Nope.nothing"}),
    )
    .await;
    assert_eq!(err_code(&env), "NODE_NOT_FOUND", "{env}");
    assert_eq!(env["error"]["field"], "to", "{env}");

    c.cancel().await.unwrap();
}

/// `resolve` and the nav tools take `symbol` through the same engine step; `resolve`
/// answers from the map when no server can verify, so this part needs none.
#[tokio::test]
async fn resolve_and_nav_tools_take_symbol() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;
    let d = ok(&call(&c, "resolve", json!({"symbol": "SessionStore.refresh"})).await).clone();
    assert_eq!(d["nodeId"], REFRESH, "{d}");
    assert_eq!(d["location"]["file"], "shop/store.py", "{d}");
    assert_eq!(d["location"]["line"], 27, "{d}");
    let d = ok(&call(&c, "resolve", json!({"symbol": "validate"})).await).clone();
    assert_eq!(strs(&d["alternatives"]).len(), 1, "{d}");
    for tool in [
        "resolve",
        "nav_definition",
        "nav_references",
        "nav_implementations",
        "nav_type",
        "nav_callHierarchy",
    ] {
        let with = |mut args: Value| {
            if tool == "nav_callHierarchy" {
                args["direction"] = "incoming".into();
            }
            args
        };
        let env = call(&c, tool, with(json!({"symbol": "SessionStore.refrsh"}))).await;
        assert_eq!(err_code(&env), "NODE_NOT_FOUND", "{tool}: {env}");
        assert_eq!(strs(&env["error"]["nearest"])[0], REFRESH, "{tool}: {env}");
        let env = call(
            &c,
            tool,
            with(json!({"symbol": "SessionStore.refresh", "file": "shop/store.py", "line": 3})),
        )
        .await;
        assert_eq!(err_code(&env), "BAD_ARGS", "{tool}: {env}");
    }
    c.cancel().await.unwrap();

    if !require("pyright-langserver", true) {
        return;
    }
    let c = serve_built(dir.path()).await;
    // One match: the live answer, naming the node chosen.
    let d = ok(&call(
        &c,
        "nav_references",
        json!({"symbol": "SessionStore.refresh"}),
    )
    .await)
    .clone();
    assert_eq!(d["nodeId"], REFRESH, "{d}");
    assert!(d.to_string().contains("shop/api.py"), "{d}");
    let d = ok(&call(&c, "nav_type", json!({"symbol": "store.SessionStore"})).await).clone();
    assert_eq!(d["nodeId"], STORE, "{d}");
    // Several: the best answered, the other listed.
    let d = ok(&call(&c, "nav_definition", json!({"symbol": "validate"})).await).clone();
    assert!(VALIDATES.contains(&d["nodeId"].as_str().unwrap()), "{d}");
    assert_eq!(strs(&d["alternatives"]).len(), 1, "{d}");
    c.cancel().await.unwrap();
}

/// "How does A reach B" asks for calls: a path that is not a call chain says so.
#[tokio::test]
async fn map_path_asks_for_calls_and_marks_structure() {
    let dir = fixture("py");
    let c = serve_built(dir.path()).await;
    let d = ok(&call(
        &c,
        "map_path",
        json!({"from": "py:shop/api.py", "to": STORE}),
    )
    .await)
    .clone();
    assert_eq!(d["found"], true, "{d}");
    let kinds = strs(&d["edgeKinds"]);
    assert!(kinds.iter().any(|k| *k != "calls"), "{d}");
    assert!(
        d["hint"].as_str().unwrap().contains("No call chain"),
        "a structural path is never presented as a call chain: {d}"
    );
    // Asked for those kinds: no such hint.
    let d = ok(&call(
        &c,
        "map_path",
        json!({"from": "py:shop/api.py", "to": STORE, "edgeKinds": ["imports", "contains"]}),
    )
    .await)
    .clone();
    assert_eq!(d["found"], true, "{d}");
    assert!(d.get("hint").is_none(), "{d}");
    c.cancel().await.unwrap();
}

/// A TypeScript file's `exports` lists its own exported functions, not only re-exports.
#[tokio::test]
async fn a_module_exports_its_own_functions() {
    let dir = fixture("ts");
    let c = serve_built(dir.path()).await;
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"symbol": "src/api.ts", "direction": "out", "edgeKinds": ["exports"]}),
    )
    .await)
    .clone();
    assert_eq!(d["nodeId"], "ts:src/api.ts", "{d}");
    let ids = neighbor_ids(&d);
    assert!(
        ids.contains(&"ts:src/api.ts#handleRefresh".to_string()),
        "{d}"
    );
    // The barrel still lists what it re-exports.
    let d = ok(&call(
        &c,
        "map_neighbors",
        json!({"symbol": "src/index.ts", "direction": "out", "edgeKinds": ["exports"]}),
    )
    .await)
    .clone();
    assert!(
        neighbor_ids(&d).contains(&"ts:src/store.ts#SessionStore".to_string()),
        "{d}"
    );
    // Several files, structural edges: grouped by file, each file's ID once, its
    // neighbors as rows (issue 18: the file is not repeated on every row).
    let groups = d["neighbors"].as_array().unwrap();
    let files: Vec<&str> = groups.iter().map(|g| g["file"].as_str().unwrap()).collect();
    assert!(
        files.contains(&"ts:src/store.ts") && files.len() >= 2,
        "{d}"
    );
    let mut unique = files.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), files.len(), "each file once: {d}");
    let store = groups
        .iter()
        .find(|g| g["file"] == "ts:src/store.ts")
        .unwrap();
    // Each neighbor by its name in the group's file: a row, or an object when it says
    // more (here the re-export's line, `edgeLine`), never its whole ID again.
    let names: Vec<&str> = store["at"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| match r.as_str() {
            Some(row) => row.split(' ').nth(2).unwrap(),
            None => {
                assert!(r.get("id").is_none(), "{d}");
                r["name"].as_str().unwrap()
            }
        })
        .collect();
    assert!(names.contains(&"SessionStore"), "{d}");
    c.cancel().await.unwrap();
}
