//! The map tools through a real MCP client (`navmap serve` over stdio) on each fixture
//! (`fixtures/README.md`): issue 3's "done when" items 1–3, progress notifications, and
//! the map's error codes.

mod common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use common::{NAVMAP, call, call_with_progress, fixture, ok};
use rmcp::model::ProgressNotificationParam;
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

struct Case {
    dir: &'static str,
    store_class: &'static str,
    refresh: &'static str,
    put: &'static str,
    caller: &'static str,
    api_file: &'static str,
    clash_site: &'static str,
    clash_defs: [&'static str; 2],
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
        clash_site: "py:shop/api.py#check",
        clash_defs: [
            "py:shop/util/email.py#validate",
            "py:shop/util/token.py#validate",
        ],
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "ts",
        store_class: "ts:src/store.ts#SessionStore",
        refresh: "ts:src/store.ts#SessionStore.refresh",
        put: "ts:src/store.ts#SessionStore.put",
        caller: "ts:src/api.ts#handleRefresh",
        api_file: "src/api.ts",
        clash_site: "ts:src/api.ts#check",
        clash_defs: [
            "ts:src/util/email.ts#validate",
            "ts:src/util/token.ts#validate",
        ],
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "js",
        store_class: "js:src/store.js#SessionStore",
        refresh: "js:src/store.js#SessionStore.refresh",
        put: "js:src/store.js#SessionStore.put",
        caller: "js:src/api.js#handleRefresh",
        api_file: "src/api.js",
        clash_site: "js:src/api.js#check",
        clash_defs: [
            "js:src/util/email.js#validate",
            "js:src/util/token.js#validate",
        ],
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "rs",
        store_class: "rs:src/store.rs#SessionStore",
        refresh: "rs:src/store.rs#SessionStore.refresh",
        put: "rs:src/store.rs#SessionStore.put",
        caller: "rs:src/api.rs#handle_refresh",
        api_file: "src/api.rs",
        clash_site: "rs:src/api.rs#check",
        clash_defs: [
            "rs:src/util/email.rs#validate",
            "rs:src/util/token.rs#validate",
        ],
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "go",
        store_class: "go:store/store.go#SessionStore",
        refresh: "go:store/store.go#SessionStore.Refresh",
        put: "go:store/store.go#SessionStore.Put",
        caller: "go:api/api.go#HandleRefresh",
        api_file: "api/api.go",
        clash_site: "go:api/api.go#Check",
        clash_defs: [
            "go:util/email/email.go#Validate",
            "go:util/token/token.go#Validate",
        ],
        call: ("s.Refresh(key)", "s.Put(key)"),
    },
    Case {
        dir: "java",
        store_class: "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore",
        refresh: "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore.refresh",
        put: "java:src/main/java/com/example/shop/store/SessionStore.java#SessionStore.put",
        caller: "java:src/main/java/com/example/shop/api/Api.java#Api.handleRefresh",
        api_file: "src/main/java/com/example/shop/api/Api.java",
        clash_site: "java:src/main/java/com/example/shop/api/Api.java#Api.check",
        clash_defs: [
            "java:src/main/java/com/example/shop/util/Email.java#Email.validate",
            "java:src/main/java/com/example/shop/util/Token.java#Token.validate",
        ],
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "kt",
        store_class: "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore",
        refresh: "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore.refresh",
        put: "kt:src/main/kotlin/com/example/shop/store/SessionStore.kt#SessionStore.put",
        caller: "kt:src/main/kotlin/com/example/shop/api/Api.kt#handleRefresh",
        api_file: "src/main/kotlin/com/example/shop/api/Api.kt",
        clash_site: "kt:src/main/kotlin/com/example/shop/api/Api.kt#check",
        clash_defs: [
            "kt:src/main/kotlin/com/example/shop/util/Email.kt#Email.validate",
            "kt:src/main/kotlin/com/example/shop/util/Token.kt#Token.validate",
        ],
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "cs",
        store_class: "cs:Store/SessionStore.cs#SessionStore",
        refresh: "cs:Store/SessionStore.cs#SessionStore.Refresh",
        put: "cs:Store/SessionStore.cs#SessionStore.Put",
        caller: "cs:Api/Api.cs#Api.HandleRefresh",
        api_file: "Api/Api.cs",
        clash_site: "cs:Api/Api.cs#Api.Check",
        clash_defs: [
            "cs:Util/Email.cs#Email.Validate",
            "cs:Checks/Token.cs#Token.Validate",
        ],
        call: ("store.Refresh(key)", "store.Put(key)"),
    },
    Case {
        dir: "scala",
        store_class: "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore",
        refresh: "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore.refresh",
        put: "scala:src/main/scala/com/example/shop/store/SessionStore.scala#SessionStore.put",
        caller: "scala:src/main/scala/com/example/shop/api/Api.scala#Api.handleRefresh",
        api_file: "src/main/scala/com/example/shop/api/Api.scala",
        clash_site: "scala:src/main/scala/com/example/shop/api/Api.scala#Api.check",
        clash_defs: [
            "scala:src/main/scala/com/example/shop/util/Email.scala#Email.validate",
            "scala:src/main/scala/com/example/shop/util/Token.scala#Token.validate",
        ],
        call: ("store.refresh(key)", "store.put(key)"),
    },
    Case {
        dir: "cpp",
        store_class: "cpp:include/store.hpp#SessionStore",
        refresh: "cpp:src/store.cpp#SessionStore.refresh",
        put: "cpp:src/store.cpp#SessionStore.put",
        caller: "cpp:src/api.cpp#handle_refresh",
        api_file: "src/api.cpp",
        clash_site: "cpp:src/api.cpp#check",
        clash_defs: [
            "cpp:src/util/email.cpp#validate",
            "cpp:src/util/token.cpp#validate",
        ],
        call: ("store.refresh(key)", "store.put(key, label)"),
    },
    Case {
        dir: "c",
        store_class: "c:include/store.h#SessionStore",
        refresh: "c:src/store.c#store_refresh",
        put: "c:src/store.c#store_put",
        caller: "c:src/api.c#handle_refresh",
        api_file: "src/api.c",
        clash_site: "c:src/util/check.c#check",
        clash_defs: ["c:src/util/email.c#validate", "c:src/util/token.c#validate"],
        call: ("store_refresh(store, key)", "store_put(store, key, label)"),
    },
    Case {
        dir: "swift",
        store_class: "swift:Sources/Store/Store.swift#SessionStore",
        refresh: "swift:Sources/Store/Store.swift#SessionStore.refresh",
        put: "swift:Sources/Store/Store.swift#SessionStore.put",
        caller: "swift:Sources/Shop/API.swift#handleRefresh",
        api_file: "Sources/Shop/API.swift",
        clash_site: "swift:Sources/Shop/API.swift#check",
        clash_defs: [
            "swift:Sources/Shop/util/email.swift#validate",
            "swift:Sources/Shop/util/token.swift#validate",
        ],
        call: ("store.refresh(key)", "store.put(key, label)"),
    },
    Case {
        dir: "php",
        store_class: "php:src/SessionStore.php#SessionStore",
        refresh: "php:src/SessionStore.php#SessionStore.refresh",
        put: "php:src/SessionStore.php#SessionStore.put",
        caller: "php:src/Api.php#Api.handleRefresh",
        api_file: "src/Api.php",
        clash_site: "php:src/Api.php#Api.check",
        clash_defs: [
            "php:src/Util/Email.php#Email.validate",
            "php:src/Util/Token.php#Token.validate",
        ],
        call: ("$store->refresh($key)", "$store->put($key, [])"),
    },
    Case {
        dir: "sh",
        store_class: "sh:lib/store.sh#SessionStore",
        refresh: "sh:lib/store.sh#store_refresh",
        put: "sh:lib/store.sh#store_put",
        caller: "sh:lib/api.sh#handle_refresh",
        api_file: "lib/api.sh",
        clash_site: "sh:lib/api.sh#check",
        clash_defs: [
            "sh:lib/util/email.sh#validate",
            "sh:lib/util/token.sh#validate",
        ],
        call: ("store_refresh \"$1\"", "store_put \"$1\" 0"),
    },
    Case {
        dir: "rb",
        store_class: "rb:lib/shop/session_store.rb#Shop.SessionStore",
        refresh: "rb:lib/shop/session_store.rb#Shop.SessionStore.refresh",
        put: "rb:lib/shop/session_store.rb#Shop.SessionStore.put",
        caller: "rb:lib/shop/api.rb#Shop.Api.handle_refresh",
        api_file: "lib/shop/api.rb",
        clash_site: "rb:lib/shop/api.rb#Shop.Api.check",
        clash_defs: [
            "rb:lib/shop/util/email.rb#Shop.Util.Email.validate",
            "rb:lib/shop/util/token.rb#Shop.Util.Token.validate",
        ],
        call: ("STORE.refresh(key)", "STORE.put(key, {})"),
    },
    Case {
        dir: "lua",
        store_class: "lua:src/shop/store.lua#SessionStore",
        refresh: "lua:src/shop/store.lua#SessionStore.refresh",
        put: "lua:src/shop/store.lua#SessionStore.put",
        caller: "lua:src/shop/api.lua#api.handle_refresh",
        api_file: "src/shop/api.lua",
        clash_site: "lua:src/shop/api.lua#api.check",
        clash_defs: [
            "lua:src/shop/util/email.lua#email.validate",
            "lua:src/shop/util/token.lua#token.validate",
        ],
        call: ("store:refresh(key)", "store:put(key, {})"),
    },
];

/// A client that records progress notifications.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<ProgressNotificationParam>>>);

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params);
    }
}

async fn client(root: &Path, rec: Recorder) -> RunningService<RoleClient, Recorder> {
    let transport = TokioChildProcess::new(tokio::process::Command::new(NAVMAP).configure(|cmd| {
        // No watcher: these tests ask what `map_rebuild` itself re-indexed and reported;
        // a watcher's rebuild of the same edit would have done it first (a loaded machine
        // takes more than its 300 ms of quiet between the write and the call).
        cmd.arg("serve").arg("--no-watch").arg("--root").arg(root);
        cmd.env_remove("NAVMAP_TOKEN_BUDGET")
            .env_remove("NAVMAP_DB");
    }))
    .expect("spawn navmap serve");
    rec.serve(transport).await.expect("initialize")
}

fn neighbor<'a>(d: &'a Value, id: &str) -> Option<&'a Value> {
    // A list in one file is grouped under `file`: each neighbor by `name`, or as the row
    // `<line> <kind> <name>` when it has nothing more to say.
    let in_file = |name: &str| format!("{}#{name}", d["file"].as_str().unwrap_or(""));
    d["neighbors"].as_array().unwrap().iter().find(|n| {
        n["id"] == id
            || n["name"].as_str().is_some_and(|name| in_file(name) == id)
            || n.as_str()
                .and_then(|r| r.splitn(3, ' ').nth(2))
                .is_some_and(|name| in_file(name) == id)
    })
}

#[tokio::test]
async fn map_tools_answer_the_fixture_questions() {
    for case in CASES {
        let dir = fixture(case.dir);
        let c = client(dir.path(), Recorder::default()).await;

        // 1. The rebuild (joining the background one) and map_status agree.
        let summary = ok(&call(&c, "map_rebuild", json!({})).await).clone();
        let status = ok(&call(&c, "map_status", json!({})).await).clone();
        assert_eq!(status["built"], true, "{}: {status}", case.dir);
        for k in ["files", "symbols", "edges", "generation"] {
            assert_eq!(status[k], summary[k], "{}: {k}", case.dir);
        }
        assert!(summary["files"].as_u64().unwrap() >= 5);
        assert_eq!(status["filesByLanguage"][case.dir], summary["files"]);
        // The repository's languages only, not every grammar navmap carries.
        assert_eq!(
            status["languages"],
            json!([case.dir]),
            "{}: {status}",
            case.dir
        );
        assert!(status["builtAt"].as_str().unwrap().ends_with('Z'));

        // 2. Search by exact name and by a typo.
        for q in ["SessionStore", "SesionStore"] {
            let d = ok(&call(&c, "map_search", json!({"query": q, "limit": 5})).await).clone();
            assert_eq!(
                d["results"][0]["id"], case.store_class,
                "{}: {q}: {d}",
                case.dir
            );
        }
        let d = ok(&call(&c, "map_search", json!({"query": "SessionStore"})).await).clone();
        assert_eq!(d["results"][0]["match"], "exact");
        // Compact: the ID says the file and the name.
        assert!(d["results"][0].get("file").is_none(), "{d}");

        // The caller of refresh, resolved.
        let d = ok(&call(
            &c,
            "map_neighbors",
            json!({"nodeId": case.refresh, "direction": "in"}),
        )
        .await)
        .clone();
        let caller = neighbor(&d, case.caller).unwrap_or_else(|| panic!("{}: {d}", case.dir));
        assert_eq!(caller["edge"], "calls");
        assert_ne!(caller["confidence"], "candidate", "{}", case.dir);

        // The clash: candidates. Where receivers are statically typed and both
        // definitions implement one interface's method (Java), the call is that method's
        // at `name` tier (`dispatch_families`; the map crate's
        // `the_name_clash_is_a_candidate_never_exact` says why).
        let d = ok(&call(
            &c,
            "map_neighbors",
            json!({"nodeId": case.clash_site, "direction": "out", "edgeKinds": ["calls"]}),
        )
        .await)
        .clone();
        if case.dir == "java" {
            let root = "java:src/main/java/com/example/shop/util/Validator.java#Validator.validate";
            let n = neighbor(&d, root).unwrap_or_else(|| panic!("{root} in {d}"));
            assert_eq!(n["confidence"], "name");
            for def in case.clash_defs {
                assert!(neighbor(&d, def).is_none(), "{def} in {d}");
            }
        } else {
            for def in case.clash_defs {
                let n = neighbor(&d, def).unwrap_or_else(|| panic!("{}: {def} in {d}", case.dir));
                assert_eq!(n["confidence"], "candidate", "{}", case.dir);
            }
        }

        // API → store: the API module imports the store's, which holds the class (edges
        // forward only; a function does not climb to its file, so the module is the start).
        let api = format!("{}:{}", case.dir, case.api_file);
        let d =
            ok(&call(&c, "map_path", json!({"from": api, "to": case.store_class})).await).clone();
        assert_eq!(d["found"], true, "{}: {d}", case.dir);
        let path = d["path"].as_array().unwrap();
        assert_eq!(path[0]["id"], api);
        assert_eq!(path.last().unwrap()["id"], case.store_class);
        assert!(path[0]["edgeToNext"]["kind"].is_string());

        let d = ok(&call(&c, "map_overview", json!({"hubsPerCluster": 3})).await).clone();
        let files: u64 = d["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["files"].as_u64().unwrap())
            .sum::<u64>()
            + d["other"]["files"].as_u64().unwrap_or(0);
        assert_eq!(
            files,
            summary["files"].as_u64().unwrap(),
            "{}: {d}",
            case.dir
        );

        // 3. Edit one file: exactly it is re-indexed, its edges follow, generation grows.
        let p = dir.path().join(case.api_file);
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, text.replacen(case.call.0, case.call.1, 1)).unwrap();
        let after = ok(&call(&c, "map_rebuild", json!({})).await).clone();
        assert_eq!(after["filesIndexed"], 1, "{}: {after}", case.dir);
        assert!(after["generation"].as_u64() > summary["generation"].as_u64());
        let d = ok(&call(
            &c,
            "map_neighbors",
            json!({"nodeId": case.caller, "direction": "out"}),
        )
        .await)
        .clone();
        assert!(neighbor(&d, case.put).is_some(), "{}: {d}", case.dir);
        assert!(neighbor(&d, case.refresh).is_none(), "{}: {d}", case.dir);

        c.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn errors_and_budgets_of_the_map_tools() {
    let dir = fixture("py");
    let c = client(dir.path(), Recorder::default()).await;
    ok(&call(&c, "map_rebuild", json!({})).await);
    let env = call(&c, "map_neighbors", json!({"nodeId": "not an id"})).await;
    assert_eq!(env["error"]["code"], "BAD_NODE_ID", "{env}");
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py#Nope"}),
    )
    .await;
    assert_eq!(env["error"]["code"], "NODE_NOT_FOUND", "{env}");
    assert!(
        env["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("map_search")
    );
    let env = call(
        &c,
        "map_path",
        json!({"from": "py:nope.py#x", "to": "py:shop/store.py"}),
    )
    .await;
    assert_eq!(env["error"]["code"], "NODE_NOT_FOUND");
    assert_eq!(env["error"]["field"], "from");
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py", "depth": 4}),
    )
    .await;
    assert_eq!(env["error"]["code"], "BAD_ARGS");
    let env = call(&c, "map_rebuild", json!({"paths": ["../outside"]})).await;
    assert_eq!(env["error"]["code"], "BAD_ARGS", "{env}");
    let env = call(&c, "map_overview", json!({"focus": "/etc"})).await;
    assert_eq!(env["error"]["code"], "BAD_ARGS", "{env}");
    // A miss is not an error.
    let d = ok(&call(&c, "map_search", json!({"query": "zzqqxx"})).await).clone();
    assert_eq!(d["total"], 0);
    assert!(d["hint"].is_string());
    // A small budget cuts the list and says how to narrow it. (150 is too small for even
    // one neighbor now that identifiers are never shortened: the list goes to zero and no
    // cursor is given, since a next page would be the same.)
    let env = call(
        &c,
        "map_neighbors",
        json!({"nodeId": "py:shop/store.py", "depth": 3, "tokenBudget": 250}),
    )
    .await;
    assert_eq!(env["truncated"], true, "{env}");
    assert!(
        env["dropped"]["note"]
            .as_str()
            .unwrap()
            .contains("edgeKinds")
    );
    assert!(env["cursor"].is_string());
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn map_rebuild_sends_progress_when_asked() {
    let dir = fixture("ts");
    let rec = Recorder::default();
    let c = client(dir.path(), rec.clone()).await;
    // Wait for the background build, then ask for a full rebuild with a progress token.
    ok(&call(&c, "map_rebuild", json!({})).await);
    ok(&call_with_progress(&c, "map_rebuild", json!({"full": true}), Some(7)).await);
    // Notifications may trail the answer by a moment, and the first (incremental) call
    // reports progress of its own under another token: wait until the notifications of the
    // newest token run from the start of the full rebuild to its end.
    let full_rebuild_seen = |got: &[ProgressNotificationParam]| {
        let Some(last) = got.last() else { return false };
        let mine: Vec<_> = got
            .iter()
            .filter(|p| p.progress_token == last.progress_token)
            .collect();
        mine[0].progress < 50.0 && mine.last().unwrap().progress >= 95.0
    };
    for _ in 0..600 {
        if full_rebuild_seen(&rec.0.lock().unwrap()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // rmcp's client puts its own progress token on every request: the full rebuild's
    // notifications are those with the last token seen.
    let got = rec.0.lock().unwrap().clone();
    let last = got
        .last()
        .expect("progress notifications")
        .progress_token
        .clone();
    let mine: Vec<&ProgressNotificationParam> =
        got.iter().filter(|p| p.progress_token == last).collect();
    assert!(mine.len() >= 3, "{got:?}");
    assert!(
        mine.windows(2).all(|w| w[0].progress < w[1].progress),
        "{mine:?}"
    );
    assert!(
        mine[0].progress < 50.0 && mine.last().unwrap().progress >= 95.0,
        "{mine:?}"
    );
    assert!(
        mine.iter()
            .all(|p| p.total == Some(100.0) && p.message.is_some())
    );
    c.cancel().await.unwrap();
}
