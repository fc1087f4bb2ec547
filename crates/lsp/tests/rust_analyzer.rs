//! navmap-lsp against a real rust-analyzer on `fixtures/rs`, when it is installed
//! (`navmap servers install rs`); with `CI` set a missing one fails the test.

mod common;

use std::path::Path;
use std::time::Duration;

use navmap_lsp::{Position, SymbolKind};

fn rust_analyzer_works() -> bool {
    // The rustup proxy exists even when the component is not installed.
    let ok = std::process::Command::new("rust-analyzer")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        eprintln!("server ran: rust-analyzer");
    } else if std::env::var_os("CI").is_some() {
        panic!("rust-analyzer is not installed but CI is set: run scripts/install-servers.sh");
    } else {
        eprintln!("skipped: rust-analyzer not installed (required in CI)");
    }
    ok
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_analyzer_answers_the_fixture_questions() {
    if !rust_analyzer_works() {
        return;
    }
    let dir = common::fixture("rs");
    let root = dir.path();
    let pool = common::pool(root, common::config());
    let api = Path::new("src/api.rs");
    let store = Path::new("src/store.rs");
    let base = Path::new("src/base.rs");

    // rust-analyzer answers [] until its workspace is loaded: the pool waits for
    // `quiescent` instead of passing the empty answer on.
    let defs = pool.definition(api, Position::new(7, 39)).await.unwrap();
    assert!(defs.complete, "{:?}", defs.warnings);
    assert_eq!(defs.value.len(), 1, "{:?}", defs.value);
    assert_eq!(common::rel(root, &defs.value[0].path), "src/store.rs");
    assert_eq!(defs.value[0].range.start, Position::new(23, 11));

    let refs = pool
        .references(store, Position::new(23, 11), false)
        .await
        .unwrap();
    let found: Vec<(String, u32)> = refs
        .value
        .iter()
        .map(|l| (common::rel(root, &l.path), l.range.start.line))
        .collect();
    assert!(found.contains(&("src/api.rs".into(), 7)), "{found:?}");

    // Implementations of the trait.
    let imps = pool
        .implementation(base, Position::new(15, 10))
        .await
        .unwrap();
    let found: Vec<String> = imps
        .value
        .iter()
        .map(|l| common::rel(root, &l.path))
        .collect();
    assert!(found.contains(&"src/store.rs".to_string()), "{found:?}");

    let hover = pool.hover(api, Position::new(7, 39)).await.unwrap();
    let text = hover.value.expect("hover text").contents;
    assert!(
        text.contains("fn refresh(&mut self, key: &str) -> bool"),
        "{text}"
    );

    common::assert_outline_has(&pool, store, "SessionStore", SymbolKind::STRUCT, &[]).await;

    common::assert_workspace_symbol(&pool, root, "rs", "SessionStore", None).await;

    let items = pool
        .prepare_call_hierarchy(store, Position::new(23, 11))
        .await
        .unwrap();
    assert_eq!(items.value.len(), 1);
    let incoming = pool.incoming_calls(&items.value[0]).await.unwrap();
    assert!(
        incoming
            .value
            .iter()
            .any(|c| c.item.name == "handle_refresh"),
        "{:?}",
        incoming.value
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

    // Nothing written into the project (no target/, no Cargo.lock from a build).
    assert!(!root.join("target").exists());

    let pid = pool
        .status()
        .iter()
        .find(|s| s.language == "rs")
        .unwrap()
        .pid
        .unwrap();
    pool.shutdown_all().await;
    assert!(common::group_gone(pid, Duration::from_secs(5)).await);
}
