//! navmap-lsp against a real typescript-language-server on `fixtures/ts` (known answers:
//! fixtures/README.md).

mod common;

use std::path::Path;
use std::time::Duration;

use navmap_lsp::{Position, SymbolKind};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_language_server_answers_the_fixture_questions() {
    if !common::require("typescript-language-server", true) {
        return;
    }
    let dir = common::fixture("ts");
    let root = dir.path();
    let pool = common::pool(root, common::config());
    let api = Path::new("src/api.ts");
    let store = Path::new("src/store.ts");
    let base = Path::new("src/base.ts");

    // Definition across files: `store.refresh(key)`, api.ts line 9 col 40 (1-based), after
    // an emoji and an accent: the column is in UTF-16 units.
    let defs = pool.definition(api, Position::new(8, 39)).await.unwrap();
    assert!(defs.complete, "{:?}", defs.warnings);
    assert_eq!(defs.value.len(), 1, "{:?}", defs.value);
    assert_eq!(common::rel(root, &defs.value[0].path), "src/store.ts");
    assert_eq!(defs.value[0].range.start, Position::new(24, 2));

    // References of refresh, including the caller in the API module.
    let refs = pool
        .references(store, Position::new(24, 2), false)
        .await
        .unwrap();
    let found: Vec<(String, u32)> = refs
        .value
        .iter()
        .map(|l| (common::rel(root, &l.path), l.range.start.line))
        .collect();
    assert!(found.contains(&("src/api.ts".into(), 8)), "{found:?}");

    // Implementations of the BaseStore interface.
    let imps = pool
        .implementation(base, Position::new(1, 17))
        .await
        .unwrap();
    let found: Vec<(String, u32)> = imps
        .value
        .iter()
        .map(|l| (common::rel(root, &l.path), l.range.start.line))
        .collect();
    assert!(found.contains(&("src/store.ts".into(), 5)), "{found:?}");
    assert!(found.contains(&("src/base.ts".into(), 10)), "{found:?}");

    // Hover: the resolved type.
    let hover = pool.hover(api, Position::new(8, 39)).await.unwrap();
    let text = hover.value.expect("hover text").contents;
    assert!(text.contains("refresh(key: string): boolean"), "{text}");

    // Outline.
    common::assert_outline_has(
        &pool,
        store,
        "SessionStore",
        SymbolKind::CLASS,
        &["get", "put", "refresh"],
    )
    .await;

    // Workspace symbols.
    common::assert_workspace_symbol(&pool, root, "ts", "SessionStore", Some("src/store.ts")).await;

    // Call hierarchy both ways.
    let items = pool
        .prepare_call_hierarchy(store, Position::new(24, 2))
        .await
        .unwrap();
    assert_eq!(items.value.len(), 1);
    let incoming = pool.incoming_calls(&items.value[0]).await.unwrap();
    let callers: Vec<(String, String)> = incoming
        .value
        .iter()
        .map(|c| (c.item.name.clone(), common::rel(root, &c.item.path)))
        .collect();
    assert!(
        callers.contains(&("handleRefresh".into(), "src/api.ts".into())),
        "{callers:?}"
    );
    let outgoing = pool.outgoing_calls(&items.value[0]).await.unwrap();
    let callees: Vec<&str> = outgoing
        .value
        .iter()
        .map(|c| c.item.name.as_str())
        .collect();
    assert!(
        callees.contains(&"get") && callees.contains(&"put"),
        "{callees:?}"
    );

    // TypeScript and JavaScript name the same server: one process serves both.
    let status = pool.status();
    let ts = status.iter().find(|s| s.language == "ts").unwrap();
    let js = status.iter().find(|s| s.language == "js").unwrap();
    assert!(ts.pid.is_some());
    assert_eq!(ts.pid, js.pid);

    // typescript-language-server runs tsserver children: the whole group goes on shutdown.
    let pid = ts.pid.unwrap();
    assert!(
        common::live_group_members(pid).len() >= 2,
        "tsserver runs in the group"
    );
    pool.shutdown_all().await;
    assert!(common::group_gone(pid, Duration::from_secs(5)).await);
}
