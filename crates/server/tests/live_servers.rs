//! Live language servers, one table row per language, on its shop fixture
//! (`fixtures/<id>/`, known answers in `fixtures/README.md`), through a real MCP client
//! against the built binary. navmap finds each server itself in the checkout's `.tools/`
//! (the child's `NAVMAP_DATA_DIR`, filled by `scripts/install-servers.sh`) or on `PATH`.
//!
//! Every row is asked the same seven questions ([`check`]): definition across files
//! (the API's call of refresh → the store), references of refresh (the API file among
//! them), hover at the call, the store's outline (the store type and refresh), workspace
//! symbols (the store type in its file), incoming call hierarchy of refresh (the
//! API caller, from the server or the map's fallback), and a resolve round-trip (the map
//! ID of refresh → verified, at refresh's line).
//!
//! ## Adding a language
//! One entry in the `rows!` invocation at the end of this file (the test's name, then its
//! [`Row`]); nothing else in this file changes. The fixture's known answers are in
//! `fixtures/README.md`:
//! - `call`: 1-based line and UTF-16 column of the first character of refresh's name in
//!   the API's call of it (the README's "the call" row); `refresh`: the same for the name
//!   in its definition (the line is the README's refresh node line; count the column).
//! - `program`: the first word of the manifest's `[lsp] command`. With `CI` set a missing
//!   one fails the row; otherwise the row prints "skipped" and passes.
//! - `store_type`: a symbol the server lists in the store's outline and in workspace
//!   symbols (the store class; in a language without types, e.g. Bash, the `SessionStore`
//!   variable); `type_file`: the file declaring it when that is not `store` (C/C++: the
//!   header, `Some("include/store.hpp")`).
//! - `caller`: a substring of the API caller's name as the server (or the map's
//!   fallback) names it in incoming calls.
//!
//! What the servers need besides the row is in their manifests and fixtures, not here:
//! jdtls runs the `java` it finds on `PATH` (Java 21+: the Java manifest's `data_path`
//! puts the pip-installed JDK first), keeps its Eclipse workspace in navmap's data dir
//! (`{state}`; [`common::remove_server_state`] deletes it after a row) and imports the
//! fixture's Maven build into a repository of navmap's own (`{cache}`,
//! `jdtls_imports_a_maven_project_without_eclipse_files`); `fixtures/java` also carries
//! Eclipse `.project`/`.classpath` files, read where the import fails; clangd reads the fixture's
//! `compile_flags.txt` / `compile_commands.json`. Run one row with
//! `cargo test -p navmap --test live_servers java`.

mod common;

use common::{call, fixture, ok};
use serde_json::{Value, json};

/// One language's fixture and its known answers.
struct Row {
    lang: &'static str,
    program: &'static str,
    fixture: &'static str,
    api: &'static str,
    store: &'static str,
    /// The file declaring `store_type`, when it is not `store`.
    type_file: Option<&'static str>,
    /// (line, col) of refresh's name in the API's call.
    call: (u64, u64),
    /// (line, col) of refresh's name in its definition.
    refresh: (u64, u64),
    name: &'static str,
    store_type: &'static str,
    caller: &'static str,
    refresh_id: &'static str,
}

/// Does any entry of `list` satisfy `f`? Entries are read flat whatever the answer's
/// shape: nested `children` (an outline) count as entries, and an entry grouping positions
/// by file (`{"file", "at": [{"line", …}]}`) counts once per position, with the group's
/// fields.
fn has(list: &Value, f: impl Fn(&Value) -> bool) -> bool {
    fn flatten(v: &Value, out: &mut Vec<Value>) {
        for entry in v.as_array().into_iter().flatten() {
            match entry["at"].as_array() {
                Some(at) => {
                    for pos in at {
                        let mut flat = entry.as_object().cloned().unwrap_or_default();
                        flat.remove("at");
                        flat.extend(pos.as_object().cloned().unwrap_or_default());
                        out.push(Value::Object(flat));
                    }
                }
                None => out.push(entry.clone()),
            }
            flatten(&entry["children"], out);
        }
    }
    let mut all = Vec::new();
    flatten(list, &mut all);
    all.iter().any(f)
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// jdtls is a JVM each: three of them started side by side on a loaded 2-core machine
/// missed 60 s deadlines. The tests that start one take turns (a tokio mutex works across
/// the tests' runtimes).
static ONE_JDTLS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// How long a jdtls test asks again while the answer is "not ready" or incomplete: its
/// first start on a fresh machine downloads Maven's plugins and indexes the JDK, on a
/// 2-core machine shared with other builds.
const JDTLS_SETTLES: std::time::Duration = std::time::Duration::from_secs(420);

/// Asks `tool` as an agent following the hints would: again while the server is not
/// ready ([`common::ask_ready`]); of jdtls, also until its answer is complete ([`JDTLS_SETTLES`]): the Java
/// fixture's Maven import runs at its first start.
async fn ask(c: &common::Client, program: &str, tool: &str, args: Value) -> Value {
    match program {
        "jdtls" => common::ask_until(c, tool, args, JDTLS_SETTLES, common::complete).await,
        _ => common::ask_ready(c, tool, args).await,
    }
}

async fn check(row: &Row) {
    let _turn = match row.program {
        "jdtls" => Some(ONE_JDTLS.lock().await),
        _ => None,
    };
    if !common::require(row.program, true) {
        return;
    }
    let dir = fixture(row.fixture);
    let c = common::client_with(dir.path(), &["--no-watch"], &[], None).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let pos = |file: &str, (line, col): (u64, u64)| json!({"file": file, "line": line, "col": col});

    // Definition across files: the call in the API → refresh in the store.
    let d = ask(&c, row.program, "nav_definition", pos(row.api, row.call)).await;
    // A server that has not indexed the defining file (clangd without a background
    // index) answers with the declaration in the header that declares the store type.
    assert!(
        has(&common::anchors(&ok(&d)["locations"]), |l| (l["file"]
            == row.store
            && l["line"] == row.refresh.0)
            || row.type_file.is_some_and(|t| l["file"] == t)),
        "{}: definition {d}",
        row.lang
    );

    // References of refresh: the API's call is one.
    let r = ask(
        &c,
        row.program,
        "nav_references",
        pos(row.store, row.refresh),
    )
    .await;
    assert!(
        has(&common::anchors(&ok(&r)["locations"]), |l| l["file"]
            == row.api),
        "{}: references {r}",
        row.lang
    );

    // Hover at the call names refresh.
    let t = ask(&c, row.program, "nav_type", pos(row.api, row.call)).await;
    assert!(
        text(&ok(&t)["contents"]).contains(row.name),
        "{}: hover {t}",
        row.lang
    );

    // Outline of the store: refresh, and the store type (in its own file if elsewhere).
    let type_file = row.type_file.unwrap_or(row.store);
    let o = ask(&c, row.program, "nav_symbols", json!({"file": row.store})).await;
    assert!(
        has(&common::symbols(&ok(&o)["symbols"]), |s| text(&s["name"])
            .contains(row.name)
            && s["line"] == row.refresh.0),
        "{}: outline {o}",
        row.lang
    );
    let o = ask(&c, row.program, "nav_symbols", json!({"file": type_file})).await;
    assert!(
        has(&common::symbols(&ok(&o)["symbols"]), |s| text(&s["name"])
            .contains(row.store_type)),
        "{}: outline {o}",
        row.lang
    );

    // Workspace symbols: the store type, in its file.
    let w = ask(
        &c,
        row.program,
        "nav_workspaceSymbols",
        json!({"query": row.store_type}),
    )
    .await;
    assert!(
        has(&ok(&w)["results"], |s| text(&s["name"])
            .contains(row.store_type)
            && s["file"] == type_file),
        "{}: workspace symbols {w}",
        row.lang
    );

    // Incoming calls of refresh: the API's caller (from the server, or the map's fallback
    // when the server has no call hierarchy).
    let mut args = pos(row.store, row.refresh);
    args["direction"] = json!("incoming");
    let h = ask(&c, row.program, "nav_callHierarchy", args).await;
    assert!(
        has(&ok(&h)["calls"], |v| text(&v["name"]).contains(row.caller)
            && v["file"] == row.api),
        "{}: call hierarchy {h}",
        row.lang
    );

    // Resolve round-trip: the map's ID of refresh, verified by the server at its line.
    let v = ask(
        &c,
        row.program,
        "resolve",
        json!({"nodeId": row.refresh_id}),
    )
    .await;
    let data = ok(&v);
    assert_eq!(data["verified"], true, "{}: resolve {v}", row.lang);
    assert_eq!(
        (
            data["location"]["file"].as_str(),
            data["location"]["line"].as_u64()
        ),
        (Some(row.store), Some(row.refresh.0)),
        "{}: resolve {v}",
        row.lang
    );
    c.cancel().await.ok();
    common::remove_server_state(dir.path());
}

/// One `#[tokio::test]` per row, named by the row's key.
macro_rules! rows {
    ($($test:ident: $row:expr),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                check(&$row).await;
            }
        )*
    };
}

rows! {
    go: Row {
        lang: "go",
        program: "gopls",
        fixture: "go",
        api: "api/api.go",
        store: "store/store.go",
        type_file: None,
        call: (22, 27),
        refresh: (36, 24),
        name: "Refresh",
        store_type: "SessionStore",
        caller: "HandleRefresh",
        refresh_id: "go:store/store.go#SessionStore.Refresh",
    },
    py: Row {
        lang: "py",
        program: "pyright-langserver",
        fixture: "py",
        api: "shop/api.py",
        store: "shop/store.py",
        type_file: None,
        call: (15, 33),
        refresh: (27, 9),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handle_refresh",
        refresh_id: "py:shop/store.py#SessionStore.refresh",
    },
    ts: Row {
        lang: "ts",
        program: "typescript-language-server",
        fixture: "ts",
        api: "src/api.ts",
        store: "src/store.ts",
        type_file: None,
        call: (9, 40),
        refresh: (25, 3),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handleRefresh",
        refresh_id: "ts:src/store.ts#SessionStore.refresh",
    },
    js: Row {
        lang: "js",
        program: "typescript-language-server",
        fixture: "js",
        api: "src/api.js",
        store: "src/store.js",
        type_file: None,
        call: (12, 40),
        refresh: (25, 3),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handleRefresh",
        refresh_id: "js:src/store.js#SessionStore.refresh",
    },
    rs: Row {
        lang: "rs",
        program: "rust-analyzer",
        fixture: "rs",
        api: "src/api.rs",
        store: "src/store.rs",
        type_file: None,
        call: (8, 40),
        refresh: (24, 12),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handle_refresh",
        refresh_id: "rs:src/store.rs#SessionStore.refresh",
    },
    c: Row {
        lang: "c",
        program: "clangd",
        fixture: "c",
        api: "src/api.c",
        store: "src/store.c",
        type_file: Some("include/store.h"),
        call: (7, 46),
        refresh: (52, 6),
        name: "store_refresh",
        store_type: "SessionStore",
        caller: "handle_refresh",
        refresh_id: "c:src/store.c#store_refresh",
    },
    cpp: Row {
        lang: "cpp",
        program: "clangd",
        fixture: "cpp",
        api: "src/api.cpp",
        store: "src/store.cpp",
        type_file: Some("include/store.hpp"),
        call: (10, 52),
        refresh: (22, 20),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handle_refresh",
        refresh_id: "cpp:src/store.cpp#SessionStore.refresh",
    },
    php: Row {
        lang: "php",
        program: "intelephense",
        fixture: "php",
        api: "src/Api.php",
        store: "src/SessionStore.php",
        type_file: None,
        call: (16, 44),
        refresh: (33, 21),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handleRefresh",
        refresh_id: "php:src/SessionStore.php#SessionStore.refresh",
    },
    java: Row {
        lang: "java",
        program: "jdtls",
        fixture: "java",
        api: "src/main/java/com/example/shop/api/Api.java",
        store: "src/main/java/com/example/shop/store/SessionStore.java",
        type_file: None,
        call: (14, 45),
        refresh: (33, 20),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handleRefresh",
        refresh_id: "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore.refresh",
    },
    lua: Row {
        lang: "lua",
        program: "emmylua_ls",
        fixture: "lua",
        api: "src/shop/api.lua",
        store: "src/shop/store.lua",
        type_file: None,
        call: (13, 37),
        refresh: (30, 23),
        name: "refresh",
        store_type: "SessionStore",
        caller: "handle_refresh",
        refresh_id: "lua:src/shop/store.lua#SessionStore.refresh",
    },
    sh: Row {
        lang: "sh",
        program: "bash-language-server",
        fixture: "sh",
        api: "lib/api.sh",
        store: "lib/store.sh",
        type_file: None,
        call: (9, 36),
        refresh: (29, 1),
        name: "store_refresh",
        store_type: "SessionStore",
        caller: "handle_refresh",
        refresh_id: "sh:lib/store.sh#store_refresh",
    },
}

/// `serve` finds a server installed in the data dir with a `PATH` that holds only the
/// system folders, and `navmap servers` says where it found it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_are_found_in_the_data_dir_without_path_edits() {
    let data_bin = common::tools_dir().join("pyright-langserver");
    if !data_bin.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "pyright is not in .tools/ but CI is set: run scripts/install-servers.sh"
        );
        eprintln!("skipped: pyright-langserver not installed in .tools/");
        return;
    }
    let system_path = "/usr/local/bin:/usr/bin:/bin".to_string();
    let out = std::process::Command::new(common::NAVMAP)
        .args(["servers", "--json"])
        .env("PATH", &system_path)
        .env("NAVMAP_DATA_DIR", common::data_dir())
        .output()
        .unwrap();
    assert!(out.status.success());
    let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
    let py = listing["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["language"] == "py")
        .unwrap()
        .clone();
    assert_eq!(py["origin"], "data dir", "{listing}");
    assert_eq!(py["found"], data_bin.display().to_string(), "{listing}");

    let dir = fixture("py");
    let c = common::client_with(dir.path(), &["--no-watch"], &[], Some(system_path)).await;
    let d = common::ask_ready(
        &c,
        "nav_definition",
        json!({"file": "shop/api.py", "line": 15, "col": 33}),
    )
    .await;
    assert!(
        has(&common::anchors(&ok(&d)["locations"]), |l| l["file"]
            == "shop/store.py"),
        "{d}"
    );
    c.cancel().await.ok();
}

/// Without the server anywhere, the error names `navmap servers install <lang>`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_server_names_navmap_servers_install() {
    let dir = fixture("py");
    let empty = tempfile::tempdir().unwrap();
    let c = common::client_with(
        dir.path(),
        &["--no-watch"],
        &[("NAVMAP_DATA_DIR", empty.path().display().to_string())],
        Some("/nonexistent".into()),
    )
    .await;
    let e = call(
        &c,
        "nav_definition",
        json!({"file": "shop/api.py", "line": 15, "col": 33}),
    )
    .await;
    assert_eq!(common::err_code(&e), "LSP_UNAVAILABLE", "{e}");
    assert!(
        text(&e["error"]["hint"]).contains("navmap servers install py"),
        "{e}"
    );
    c.cancel().await.ok();
}

/// The Java fixture's Maven build alone (its Eclipse `.project`/`.classpath` removed, as in
/// most Maven projects): jdtls imports it through m2e, which fetches Maven's own plugins
/// from Maven Central into navmap's repository for it (`<data dir>/cache/java/maven`, the
/// Java manifest's `[[lsp.files]]` settings), trusting the machine's Java trust store
/// (`[[lsp.env]]`: this machine kind's egress proxy re-signs TLS with a CA that only the
/// system store has). Definition and references are the server's own, complete, with no
/// "could not import" warning. Required under CI: a fresh machine has an empty repository,
/// so the import there fetches everything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jdtls_imports_a_maven_project_without_eclipse_files() {
    if !common::require("jdtls", true) {
        return;
    }
    let _turn = ONE_JDTLS.lock().await;
    let dir = fixture("java");
    std::fs::remove_file(dir.path().join(".project")).unwrap();
    std::fs::remove_file(dir.path().join(".classpath")).unwrap();
    let c = common::client_with(dir.path(), &["--no-watch"], &[], None).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let api = "src/main/java/com/example/shop/api/Api.java";
    let store = "src/main/java/com/example/shop/store/SessionStore.java";
    // On a fresh machine jdtls first downloads Maven's plugins into an empty repository,
    // then indexes the JDK into a fresh workspace; it reports that work (the manifest's
    // `[[lsp.progress_notifications]]`), and an answer given meanwhile is "not ready" or
    // marked incomplete. That is not the import failing: the question is asked again until
    // the answer is complete, and none may say the import failed.
    let settled = |tool: &'static str, args: Value| {
        let c = &c;
        async move {
            let r = common::ask_until(c, tool, args, JDTLS_SETTLES, common::complete).await;
            assert!(!common::warned(&r, "could not import"), "{tool}: {r}");
            assert_ne!(ok(&r)["source"], "fallback-map", "{tool}: {r}");
            assert!(common::complete(&r), "{tool}: never complete: {r}");
            r
        }
    };
    let d = settled(
        "nav_definition",
        json!({"file": api, "line": 14, "col": 45}),
    )
    .await;
    assert!(
        has(&common::anchors(&ok(&d)["locations"]), |l| l["file"]
            == store
            && l["line"] == 33),
        "{d}"
    );
    let r = settled(
        "nav_references",
        json!({"file": store, "line": 33, "col": 20}),
    )
    .await;
    assert!(
        has(&common::anchors(&ok(&r)["locations"]), |l| l["file"] == api),
        "{r}"
    );
    c.cancel().await.ok();
    common::remove_server_state(dir.path());
    // What the import fetched went into navmap's repository (the manifest's settings took
    // effect), not into the user's ~/.m2.
    let plugins = common::data_dir().join("cache/java/maven/repository/org/apache/maven/plugins");
    assert!(plugins.is_dir(), "{} is missing", plugins.display());
}

/// jdtls on a Maven project it cannot import (a build plugin whose version no repository
/// has: "Could not calculate build plan", as offline), without an Eclipse `.classpath` to
/// fall back on, may answer `[]`: never a silent "no references" — the answer then says
/// it may miss code (the Java manifest's `[[lsp.setup_failures]]`) and gives the map's
/// uses instead (`source: "fallback-map"`). Asked with the declaration
/// (`references_with_declaration`) it was also seen to find the call itself. Twice: a
/// restarted jdtls on its saved workspace does not log the failed import again; the
/// error diagnostics on `pom.xml` are then the sign.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jdtls_that_cannot_import_the_build_says_answers_may_miss_code() {
    if !common::require("jdtls", true) {
        return;
    }
    let _turn = ONE_JDTLS.lock().await;
    let dir = fixture("java");
    std::fs::remove_file(dir.path().join(".project")).unwrap();
    std::fs::remove_file(dir.path().join(".classpath")).unwrap();
    let pom = dir.path().join("pom.xml");
    let broken = std::fs::read_to_string(&pom).unwrap().replace(
        "</properties>",
        "</properties>\n  <build><plugins><plugin>\n    <groupId>org.apache.maven.plugins</groupId>\n    \
         <artifactId>maven-compiler-plugin</artifactId>\n    <version>0.0.0-navmap-no-such-version</version>\n  \
         </plugin></plugins></build>",
    );
    assert_ne!(broken, std::fs::read_to_string(&pom).unwrap());
    std::fs::write(&pom, broken).unwrap();
    for start in ["first start", "restart on the saved workspace"] {
        let c = common::client_with(dir.path(), &["--no-watch"], &[], None).await;
        ok(&call(&c, "map_rebuild", json!({})).await);
        // While the failed import runs (the build's other plugins download first) jdtls
        // reports work: "not ready", or an answer "still indexing", asked again.
        let r = common::ask_until(
            &c,
            "nav_references",
            json!({"file": "src/main/java/com/example/shop/store/SessionStore.java", "line": 33, "col": 20}),
            JDTLS_SETTLES,
            |r| !common::warned(r, "was still") || common::warned(r, "could not import"),
        )
        .await;
        let data = ok(&r);
        // Never a silent "no references": the API's call is listed, from jdtls (asked
        // with the declaration, it may find it from the source folders alone), or, when
        // its `[]` proves nothing, from the map, marked — as the fallback's answer, or as
        // the map's `unverified` mentions of an incomplete answer (jdtls asked before its
        // failed import has finished: the build's other plugins download first).
        let api = |l: &Value| l["file"] == "src/main/java/com/example/shop/api/Api.java";
        if !has(&common::anchors(&data["locations"]), api) {
            assert_eq!(data["complete"], false, "{start}: {r}");
            assert!(has(&data["unverified"], api), "{start}: {r}");
        }
        let said = |words: &str| {
            r["warnings"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|w| text(w).contains(words))
        };
        if data["source"] == "fallback-map" {
            assert_eq!(data["complete"], false, "{start}: {r}");
            assert!(said("could not import"), "{start}: {r}");
        }
        c.cancel().await.ok();
    }
    common::remove_server_state(dir.path());
}

/// gopls on a module that needs the machine's own Go (its `go` line is `go env GOVERSION`,
/// the newest Go this machine has): it loads the module and answers. Debian's gopls 0.5
/// (with its Go 1.19) could not; the Go manifest's recipe builds a recent gopls with the
/// machine's `go`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gopls_loads_a_module_needing_the_machines_newest_go() {
    if !common::require("gopls", true) {
        return;
    }
    let out = std::process::Command::new("go")
        .args(["env", "GOVERSION"])
        .output()
        .expect("gopls is here, so is the go it loads packages with");
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let version = version.trim_start_matches("go");
    assert!(version.starts_with("1."), "go env GOVERSION: {version:?}");
    let dir = fixture("go");
    std::fs::write(
        dir.path().join("go.mod"),
        format!("module example.com/shop\n\ngo {version}\n"),
    )
    .unwrap();
    let c = common::client_with(
        dir.path(),
        &["--no-watch"],
        &[("GOTOOLCHAIN", "local".to_string())],
        None,
    )
    .await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let d = common::ask_ready(
        &c,
        "nav_definition",
        json!({"file": "api/api.go", "line": 22, "col": 27}),
    )
    .await;
    assert!(
        has(&common::anchors(&ok(&d)["locations"]), |l| l["file"]
            == "store/store.go"
            && l["line"] == 36),
        "go {version}: {d}"
    );
    c.cancel().await.ok();
}

/// gopls on a module whose go.mod needs a newer Go than the machine's: the map's answer
/// (`fallback-map`) with `lspError` `LSP_FAILED` whose message says so (from the Go
/// manifest's `[[lsp.failure_hints]]`), not "retry"; the second call is answered from
/// that state, without waiting for gopls's failure again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gopls_on_a_module_needing_a_newer_go_says_so() {
    if !common::require("gopls", true) {
        return;
    }
    let dir = fixture("go");
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/shop\n\ngo 1.99.0\n\ntoolchain go1.99.0\n",
    )
    .unwrap();
    // GOTOOLCHAIN=local: a new enough `go` must not fetch a toolchain from the network.
    let c = common::client_with(
        dir.path(),
        &["--no-watch"],
        &[("GOTOOLCHAIN", "local".to_string())],
        None,
    )
    .await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let ask = json!({"file": "api/api.go", "line": 22, "col": 30});
    let t0 = std::time::Instant::now();
    let first = call(&c, "nav_definition", ask.clone()).await;
    let slow = t0.elapsed();
    let t1 = std::time::Instant::now();
    let second = call(&c, "nav_definition", ask).await;
    let fast = t1.elapsed();
    for e in [&first, &second] {
        // The map's answer, marked, with the server's failure beside it.
        let data = ok(e);
        assert_eq!(data["source"], "fallback-map", "{e}");
        assert_eq!(data["lspError"]["code"], "LSP_FAILED", "{e}");
        assert!(
            text(&data["lspError"]["message"]).contains("newer Go"),
            "{e}"
        );
        assert!(!text(&data["lspError"]["hint"]).starts_with("Retry"), "{e}");
    }
    // After the first failure the state answers, without waiting for gopls again.
    assert!(fast < slow, "second {fast:?}, first {slow:?}");
    c.cancel().await.ok();
}

/// jdtls answers `references` with `[]` when asked with `includeDeclaration: false`: the
/// Java manifest's `references_with_declaration` has navmap ask with `true` and leave the
/// declaration out itself. Both forms of the question answer, and differ by it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jdtls_references_are_found_with_or_without_the_declaration() {
    if !common::require("jdtls", true) {
        return;
    }
    let _turn = ONE_JDTLS.lock().await;
    let dir = fixture("java");
    let c = common::client_with(dir.path(), &["--no-watch"], &[], None).await;
    let store = "src/main/java/com/example/shop/store/SessionStore.java";
    let at = |decl: bool| json!({"file": store, "line": 33, "col": 20, "includeDeclaration": decl});
    let without = ask(&c, "jdtls", "nav_references", at(false)).await;
    let with = ask(&c, "jdtls", "nav_references", at(true)).await;
    let rows = |r: &Value| common::anchors(&ok(r)["locations"]);
    let declaration = |l: &Value| l["file"] == store && l["line"] == 33;
    assert!(
        has(&rows(&without), |l| l["file"]
            == "src/main/java/com/example/shop/api/Api.java"),
        "{without}"
    );
    assert!(!has(&rows(&without), declaration), "{without}");
    assert!(has(&rows(&with), declaration), "{with}");
    assert_eq!(
        ok(&with)["total"],
        ok(&without)["total"].as_u64().unwrap() + 1
    );
    c.cancel().await.ok();
    common::remove_server_state(dir.path());
}
