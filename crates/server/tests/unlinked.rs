//! Issue 16, "no silent misses", on the map side: every list about the uses of a symbol
//! accounts for the mentions of its name that it did not link (contract §2). A project
//! with deliberately unlinkable uses — a call on an untyped receiver in a file that imports
//! nothing, a reflective `getattr(obj, "name")`, a base class through an unknown module, an
//! import from a module that does not exist — and one with every use linked, through a
//! real MCP client. The shape and the exclusion rule: docs/answers.md "Unlinked mentions".
//! At the end, the live answers cross-checked against the map's mentions with real servers
//! (pyright and tsserver configured to see `src/` only, clangd without a compilation
//! database): "Live answers cross-checked".

mod common;

use common::*;
use serde_json::{Value, json};

const STORE: &str = "\
class Store:
    def refresh(self):
        return 1


class Cache:
    def refresh(self):
        return 2


def helper():
    return 3
";

const API: &str = "\
from shop.store import Store, helper


def handler():
    s = Store()
    s.refresh()
    return helper()
";

/// Uses the map cannot link: nothing here is imported.
const SWEEP: &str = "\
import lib


def sweep(s):
    s.refresh()


def reflect(obj):
    getattr(obj, \"refresh\")()


def other():
    c = Cache()
    c.refresh()


class Fancy(lib.Store):
    pass
";

const MISSING: &str = "\
from .gone import Store
";

fn project() -> tempfile::TempDir {
    let dir = fixture("");
    let root = dir.path();
    for (path, text) in [
        ("shop/__init__.py", ""),
        ("shop/store.py", STORE),
        ("shop/api.py", API),
        ("jobs/__init__.py", ""),
        ("jobs/sweep.py", SWEEP),
        ("jobs/missing.py", MISSING),
    ] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// `(file, in, rows)` of the unlinked tier.
fn tier(d: &Value) -> Vec<(String, String, Vec<String>)> {
    d["unlinked"]
        .as_array()
        .unwrap_or_else(|| panic!("no unlinked tier in {d}"))
        .iter()
        .map(|g| {
            (
                g["file"].as_str().unwrap().to_string(),
                g["in"].as_str().unwrap_or("").to_string(),
                g["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

fn neighbor_names(d: &Value) -> Vec<String> {
    d["neighbors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            n["id"]
                .as_str()
                .or(n["name"].as_str())
                .or(n.as_str())
                .unwrap()
                .to_string()
        })
        .collect()
}

#[tokio::test]
async fn callers_account_for_unlinked_calls() {
    let dir = project();
    let c = serve_built(dir.path()).await;
    for kinds in [json!(null), json!(["calls"])] {
        let mut args = json!({"nodeId": "py:shop/store.py#Store.refresh", "direction": "in"});
        if !kinds.is_null() {
            args["edgeKinds"] = kinds.clone();
        }
        let env = call(&c, "map_neighbors", args).await;
        let d = ok(&env);
        let names = neighbor_names(d);
        assert!(
            names.iter().any(|n| n.contains("handler")),
            "the typed call is linked: {d}"
        );
        let tier = tier(d);
        assert_eq!(
            tier,
            vec![
                (
                    "jobs/sweep.py".to_string(),
                    "sweep".to_string(),
                    vec!["5:7 s.refresh()".to_string()]
                ),
                (
                    "jobs/sweep.py".to_string(),
                    "reflect".to_string(),
                    vec!["9:19 getattr(obj, \"refresh\")()".to_string()]
                ),
            ],
            "the untyped receiver and the reflective call are unlinked; `c.refresh()` on a \
             Cache is provably something else ({kinds}): {d}"
        );
        assert_eq!(d["unlinkedTotal"], 2, "{d}");
        assert_eq!(d["complete"], false, "{d}");
    }
}

#[tokio::test]
async fn subclasses_and_importers_account_for_unlinked_mentions() {
    let dir = project();
    let c = serve_built(dir.path()).await;
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#Store", "direction": "in", "edgeKinds": ["extends"]}),
    )
    .await;
    let d = ok(&env);
    assert_eq!(
        tier(d),
        vec![(
            "jobs/sweep.py".to_string(),
            "Fancy".to_string(),
            vec!["17:17 class Fancy(lib.Store):".to_string()]
        )],
        "a base through an unknown module: {d}"
    );

    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#Store", "direction": "in", "edgeKinds": ["imports"]}),
    )
    .await;
    let d = ok(&env);
    // `shop/api.py` imports it from its module (an edge between files): linked.
    assert_eq!(
        tier(d),
        vec![(
            "jobs/missing.py".to_string(),
            String::new(),
            vec!["1:19 from .gone import Store".to_string()]
        )],
        "an import from a module that is not there: {d}"
    );
}

#[tokio::test]
async fn a_complete_answer_does_not_grow() {
    let dir = project();
    let c = serve_built(dir.path()).await;
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#helper", "direction": "in"}),
    )
    .await;
    let d = ok(&env);
    assert!(
        neighbor_names(d).iter().any(|n| n.contains("handler")),
        "{d}"
    );
    for key in ["unlinked", "unlinkedTotal", "complete"] {
        assert!(d.get(key).is_none(), "{key} in a complete answer: {d}");
    }
    // Outgoing edges are not about the node's uses: no tier either.
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#Store.refresh", "direction": "out"}),
    )
    .await;
    assert!(ok(&env).get("unlinked").is_none(), "{env}");
}

#[tokio::test]
async fn the_unlinked_tier_is_cut_and_paged_like_any_list() {
    let dir = project();
    // Many unlinked calls in many functions.
    let mut many = String::new();
    for i in 0..120 {
        many.push_str(&format!("def f{i}(s):\n    s.refresh()\n\n"));
    }
    std::fs::write(dir.path().join("jobs/many.py"), many).unwrap();
    let c = serve_built(dir.path()).await;
    let args = json!({"nodeId": "py:shop/store.py#Store.refresh", "direction": "in",
                      "tokenBudget": 400});
    let env = call(&c, "map_neighbors", args.clone()).await;
    let d = ok(&env);
    assert_eq!(d["unlinkedTotal"], 122, "{d}");
    assert_eq!(env["truncated"], true, "{env}");
    let first = tier(d).len();
    assert!(first < 122, "{env}");
    let cursor = env["cursor"].as_str().expect("a cursor").to_string();
    let mut next = args.clone();
    next["cursor"] = cursor.into();
    let env2 = call(&c, "map_neighbors", next).await;
    let groups2 = tier(ok(&env2));
    assert!(!groups2.is_empty(), "{env2}");
    assert_ne!(tier(d)[0], groups2[0], "the next page moves on: {env2}");
}

#[tokio::test]
async fn a_reindexed_file_replaces_its_mentions() {
    let dir = project();
    let c = serve_built(dir.path()).await;
    let args = json!({"nodeId": "py:shop/store.py#Store.refresh", "direction": "in"});
    assert_eq!(
        ok(&call(&c, "map_neighbors", args.clone()).await)["unlinkedTotal"],
        2
    );
    // The untyped call becomes a typed one; the reflective call goes.
    let edited = SWEEP
        .replace(
            "def sweep(s):",
            "from shop.store import Store\n\n\ndef sweep(s: Store):",
        )
        .replace("    getattr(obj, \"refresh\")()\n", "    return obj\n");
    std::fs::write(dir.path().join("jobs/sweep.py"), edited).unwrap();
    ok(&call(&c, "map_rebuild", json!({})).await);
    let env = call(&c, "map_neighbors", args).await;
    let d = ok(&env);
    assert!(
        neighbor_names(d).iter().any(|n| n.contains("sweep")),
        "the typed call is linked now: {d}"
    );
    for key in ["unlinked", "unlinkedTotal", "complete"] {
        assert!(d.get(key).is_none(), "{key} after the edit: {d}");
    }
}

/// Issue 16 item 3: a project whose pyright configuration includes only `src/`. pyright's
/// references leave out `tests/`; the answer says so, lists the map's mentions there as
/// `unverified` and names the configuration as the cause.
#[tokio::test]
async fn nav_references_names_the_files_pyright_does_not_see() {
    if !require("pyright-langserver", true) {
        return;
    }
    let dir = fixture("");
    let root = dir.path();
    for (path, text) in [
        ("pyproject.toml", "[tool.pyright]\ninclude = [\"src\"]\n"),
        ("src/shop/__init__.py", ""),
        ("src/shop/store.py", STORE),
        ("src/shop/api.py", API),
        (
            "tests/test_store.py",
            "from shop.store import Store\n\n\ndef test_refresh():\n    s = Store()\n    assert s.refresh() == 1\n",
        ),
    ] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let c = serve_built(root).await;
    let env = call(
        &c,
        "nav_references",
        json!({"nodeId": "py:src/shop/store.py#Store.refresh"}),
    )
    .await;
    let d = ok(&env);
    let files: Vec<&str> = d["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["file"].as_str().unwrap())
        .collect();
    assert!(files.contains(&"src/shop/api.py"), "{env}");
    assert!(
        !files.contains(&"tests/test_store.py"),
        "pyright sees tests/ after all: {env}"
    );
    let unverified = d["unverified"]
        .as_array()
        .unwrap_or_else(|| panic!("{env}"));
    assert_eq!(unverified.len(), 1, "{env}");
    assert_eq!(unverified[0]["file"], "tests/test_store.py", "{env}");
    assert_eq!(unverified[0]["in"], "test_refresh", "{env}");
    assert_eq!(
        unverified[0]["rows"][0], "6:14 assert s.refresh() == 1",
        "{env}"
    );
    assert_eq!(d["unverifiedTotal"], 1, "{env}");
    assert_eq!(d["complete"], false, "{env}");
    assert!(
        warned(&env, "leaves out 1 file(s)") && warned(&env, "pyproject.toml"),
        "the cause is named: {env}"
    );
}

/// The same for `nav_implementations` with tsserver: a tsconfig that includes only `src/`
/// leaves a subclass under `tests/` out of the server's answer; the map's base-class
/// mention there comes as `unverified`, the tsconfig named as the cause.
#[tokio::test]
async fn nav_implementations_names_the_files_tsserver_does_not_see() {
    if !require("typescript-language-server", true) {
        return;
    }
    let dir = fixture("");
    let root = dir.path();
    for (path, text) in [
        (
            "tsconfig.json",
            "{\"compilerOptions\": {\"strict\": true}, \"include\": [\"src\"]}\n",
        ),
        (
            "src/store.ts",
            "export class Store {\n  refresh(): number {\n    return 1;\n  }\n}\n",
        ),
        (
            "src/fancy.ts",
            "import { Store } from \"./store\";\n\nexport class Fancy extends Store {}\n",
        ),
        (
            "tests/extra.ts",
            "import { Store } from \"../src/store\";\n\nexport class Extra extends Store {}\n",
        ),
    ] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let c = serve_built(root).await;
    let env = call(
        &c,
        "nav_implementations",
        json!({"nodeId": "ts:src/store.ts#Store"}),
    )
    .await;
    let d = ok(&env);
    let files: Vec<&str> = d["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["file"].as_str().unwrap())
        .collect();
    assert!(files.contains(&"src/fancy.ts"), "{env}");
    assert!(
        !files.contains(&"tests/extra.ts"),
        "tsserver sees tests/ after all: {env}"
    );
    let unverified = d["unverified"]
        .as_array()
        .unwrap_or_else(|| panic!("{env}"));
    assert_eq!(unverified.len(), 1, "{env}");
    assert_eq!(unverified[0]["file"], "tests/extra.ts", "{env}");
    assert_eq!(unverified[0]["in"], "Extra", "{env}");
    assert_eq!(d["complete"], false, "{env}");
    assert!(warned(&env, "tsconfig.json"), "the cause is named: {env}");
}

/// Writes `files` (path, text) under `root`.
fn write_tree(root: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// The files of an answer's `unverified` groups.
fn unverified_files(d: &Value) -> Vec<&str> {
    d["unverified"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|g| g["file"].as_str())
        .collect()
}

/// `nav_callHierarchy` incoming cross-checks like `nav_references`: with a pyright
/// configuration that includes only `src/`, the caller under `tests/` is missing from the
/// server's answer; the map's call mention there comes as `unverified`, the configuration
/// named as the cause.
#[tokio::test]
async fn nav_call_hierarchy_names_the_callers_pyright_does_not_see() {
    if !require("pyright-langserver", true) {
        return;
    }
    let dir = fixture("");
    let root = dir.path();
    write_tree(
        root,
        &[
            ("pyproject.toml", "[tool.pyright]\ninclude = [\"src\"]\n"),
            ("src/shop/__init__.py", ""),
            ("src/shop/store.py", STORE),
            ("src/shop/api.py", API),
            (
                "tests/test_helper.py",
                "from shop.store import helper\n\n\ndef test_helper():\n    assert helper() == 3\n",
            ),
        ],
    );
    let c = serve_built(root).await;
    let env = call(
        &c,
        "nav_callHierarchy",
        json!({"nodeId": "py:src/shop/store.py#helper", "direction": "incoming"}),
    )
    .await;
    let d = ok(&env);
    let callers: Vec<&str> = d["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["file"].as_str())
        .collect();
    assert!(callers.contains(&"src/shop/api.py"), "{env}");
    assert!(
        !callers.contains(&"tests/test_helper.py"),
        "pyright sees tests/ after all: {env}"
    );
    assert_eq!(unverified_files(d), ["tests/test_helper.py"], "{env}");
    let group = &d["unverified"][0];
    assert_eq!(group["in"], "test_helper", "{env}");
    assert_eq!(group["rows"][0], "5:12 assert helper() == 3", "{env}");
    assert_eq!(d["unverifiedTotal"], 1, "{env}");
    assert_eq!(d["complete"], false, "{env}");
    assert!(
        warned(&env, "leaves out 1 file(s)") && warned(&env, "pyproject.toml"),
        "the cause is named: {env}"
    );

    // The call's filters hold for the cross-check too: excludeTests leaves it out.
    let env = call(
        &c,
        "nav_callHierarchy",
        json!({"nodeId": "py:src/shop/store.py#helper", "direction": "incoming",
               "excludeTests": true}),
    )
    .await;
    let d = ok(&env);
    assert!(d.get("unverified").is_none(), "{env}");
    assert!(d.get("complete").is_none(), "{env}");
}

/// clangd without `compile_commands.json` knows only the files it has open: references
/// to a function called from several other `.c` files must not come back silently
/// complete with the opened file's sites alone. Either clangd finds every caller, or the
/// files it left out are `unverified` with the C manifest's cause.
#[tokio::test]
async fn nav_references_without_compile_commands_is_not_silently_partial() {
    if !require("clangd", true) {
        return;
    }
    let dir = fixture("");
    let root = dir.path();
    let caller = |name: &str| {
        format!("#include \"util.h\"\n\nint {name}(void) {{\n    return scale(2) + scale(3);\n}}\n")
    };
    let (a, b, c_) = (caller("run_a"), caller("run_b"), caller("run_c"));
    write_tree(
        root,
        &[
            ("util.h", "int scale(int x);\n"),
            (
                "util.c",
                "#include \"util.h\"\n\nint scale(int x) {\n    return x * 2;\n}\n\nint twice(void) {\n    return scale(scale(1));\n}\n",
            ),
            ("a.c", &a),
            ("b.c", &b),
            ("c.c", &c_),
        ],
    );
    assert!(!root.join("compile_commands.json").exists());
    let c = serve_built(root).await;
    let env = call(&c, "nav_references", json!({"nodeId": "c:util.c#scale"})).await;
    let d = ok(&env);
    let found: Vec<&str> = d["locations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["file"].as_str())
        .collect();
    assert!(found.contains(&"util.c"), "the opened file's sites: {env}");
    let callers = ["a.c", "b.c", "c.c"];
    let unverified = unverified_files(d);
    for f in callers {
        assert!(
            found.contains(&f) || unverified.contains(&f),
            "{f} neither found nor unverified: {env}"
        );
    }
    let missing: Vec<&str> = callers.into_iter().filter(|f| !found.contains(f)).collect();
    if !missing.is_empty() {
        assert_eq!(unverified, missing, "by file: {env}");
        assert_eq!(d["complete"], false, "{env}");
        assert!(
            warned(&env, "compile_commands.json"),
            "the cause is named: {env}"
        );
        let rows: usize = d["unverified"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["rows"].as_array().map_or(0, Vec::len))
            .sum();
        assert_eq!(d["unverifiedTotal"], rows, "{env}");
    }
}
