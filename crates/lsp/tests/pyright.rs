//! navmap-lsp against a real pyright on `fixtures/py` (known answers: fixtures/README.md).

mod common;

use std::time::Duration;

use navmap_lsp::{Position, ServerState, SymbolKind};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyright_answers_the_fixture_questions() {
    if !common::require("pyright-langserver", true) {
        return;
    }
    let dir = common::fixture("py");
    let root = dir.path();
    let pool = common::pool(root, common::config());
    let api = std::path::Path::new("shop/api.py");
    let store = std::path::Path::new("shop/store.py");

    // Definition across files: `store.refresh(key)` in api.py line 15, col 33 (1-based).
    let defs = pool.definition(api, Position::new(14, 32)).await.unwrap();
    assert!(defs.complete, "{:?}", defs.warnings);
    assert_eq!(defs.value.len(), 1, "{:?}", defs.value);
    assert_eq!(common::rel(root, &defs.value[0].path), "shop/store.py");
    assert_eq!(defs.value[0].range.start, Position::new(26, 8));

    // References of refresh include the caller in the API module.
    let refs = pool
        .references(store, Position::new(26, 8), false)
        .await
        .unwrap();
    let found: Vec<(String, u32)> = refs
        .value
        .iter()
        .map(|l| (common::rel(root, &l.path), l.range.start.line))
        .collect();
    assert!(found.contains(&("shop/api.py".into(), 14)), "{found:?}");
    assert!(
        !found.contains(&("shop/store.py".into(), 26)),
        "declaration excluded: {found:?}"
    );
    let with_decl = pool
        .references(store, Position::new(26, 8), true)
        .await
        .unwrap();
    assert_eq!(with_decl.value.len(), refs.value.len() + 1);

    // Hover: the resolved signature.
    let hover = pool.hover(api, Position::new(14, 32)).await.unwrap();
    let text = hover.value.expect("hover text").contents;
    assert!(text.contains("refresh") && text.contains("bool"), "{text}");
    // Whitespace has no hover.
    let blank = pool.hover(api, Position::new(13, 0)).await.unwrap();
    assert!(blank.value.is_none(), "{blank:?}");

    // Outline: hierarchical.
    common::assert_outline_has(
        &pool,
        store,
        "SessionStore",
        SymbolKind::CLASS,
        &["get", "put", "refresh"],
    )
    .await;

    // Workspace symbols.
    common::assert_workspace_symbol(&pool, root, "py", "SessionStore", Some("shop/store.py")).await;

    // Call hierarchy both ways.
    let items = pool
        .prepare_call_hierarchy(store, Position::new(26, 8))
        .await
        .unwrap();
    assert_eq!(items.value.len(), 1);
    assert_eq!(items.value[0].name, "refresh");
    let incoming = pool.incoming_calls(&items.value[0]).await.unwrap();
    let callers: Vec<(String, String)> = incoming
        .value
        .iter()
        .map(|c| (c.item.name.clone(), common::rel(root, &c.item.path)))
        .collect();
    assert!(
        callers.contains(&("handle_refresh".into(), "shop/api.py".into())),
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

    // A disk edit is visible in the next answer without a restart: insert two lines at
    // the top of store.py, definition moves by two.
    let pid_before = pool
        .status()
        .iter()
        .find(|s| s.language == "py")
        .unwrap()
        .pid;
    let path = root.join("shop/store.py");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("# one\n# two\n{text}")).unwrap();
    let defs = pool.definition(api, Position::new(14, 32)).await.unwrap();
    assert_eq!(defs.value[0].range.start, Position::new(28, 8));
    let status = pool.status();
    let py = status.iter().find(|s| s.language == "py").unwrap();
    assert_eq!(py.pid, pid_before);
    assert!(
        matches!(py.state, ServerState::Ready | ServerState::Indexing),
        "{py:?}"
    );
    assert!(py.uptime.is_some());

    // A file the server has not opened, created on disk: reported through
    // notify_files_changed (the watcher's job), its call shows up in the references.
    std::fs::write(
        root.join("shop/extra.py"),
        "from .store import SessionStore\n\n\ndef go(s: SessionStore) -> bool:\n    return s.refresh(\"k\")\n",
    )
    .unwrap();
    pool.notify_files_changed(&["shop/extra.py".into()]);
    let refs = pool
        .references(store, Position::new(28, 8), false)
        .await
        .unwrap();
    let found: Vec<(String, u32)> = refs
        .value
        .iter()
        .map(|l| (common::rel(root, &l.path), l.range.start.line))
        .collect();
    assert!(found.contains(&("shop/extra.py".into(), 4)), "{found:?}");

    // Shutdown leaves no process behind.
    let pid = py.pid.unwrap();
    pool.shutdown_all().await;
    assert!(common::group_gone(pid, Duration::from_secs(5)).await);
}

/// Process group `pgid` stopped (`SIGSTOP`) or continued (`SIGCONT`).
fn signal_group(sig: &str, pgid: u32) {
    let ok = std::process::Command::new("kill")
        .args([sig, "--", &format!("-{pgid}")])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} -{pgid}");
}

/// pyright frozen (SIGSTOP) during `references`, cancelled at the deadline, then
/// continued: from then on it answers every `references` with an internal error ("this.
/// _token.cancel is not a function") while `definition` still works. navmap restarts it
/// once the errors make `method_failures` in a row, and that answer says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyright_wedged_after_a_cancel_is_restarted() {
    if !common::require("pyright-langserver", true) {
        return;
    }
    let dir = common::fixture("py");
    let root = dir.path();
    let mut config = common::config();
    // The frozen call runs under the normal deadline (`within`), the rest under the long.
    config.deadline = Duration::from_secs(4);
    let pool = common::pool(root, config);
    let store = std::path::Path::new("shop/store.py");
    let refresh = Position::new(26, 8);
    let warm = pool.references(store, refresh, false).await.unwrap();
    assert!(!warm.value.is_empty());
    let pid = pool
        .status()
        .into_iter()
        .find(|s| s.language == "py")
        .and_then(|s| s.pid)
        .expect("pyright runs");

    signal_group("-STOP", pid);
    let frozen = pool
        .within(
            navmap_lsp::Deadline::Normal,
            pool.references(store, refresh, false),
        )
        .await;
    signal_group("-CONT", pid);
    assert!(
        matches!(frozen, Err(navmap_lsp::LspError::Timeout { .. })),
        "{frozen:?}"
    );

    let limit = pool.config().method_failures;
    let mut errors = Vec::new();
    let mut answer = None;
    for _ in 0..limit {
        match pool.references(store, refresh, false).await {
            Ok(a) => {
                answer = Some(a);
                break;
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    eprintln!("errors before the answer: {errors:?}");
    let answer = answer.unwrap_or_else(|| panic!("never answered again: {errors:?}"));
    assert_eq!(answer.value.len(), warm.value.len(), "{answer:?}");
    if !errors.is_empty() {
        assert!(
            answer.warnings.iter().any(|w| w.contains("restarted")),
            "{:?}",
            answer.warnings
        );
        let new_pid = pool
            .status()
            .into_iter()
            .find(|s| s.language == "py")
            .and_then(|s| s.pid);
        assert_ne!(new_pid, Some(pid), "a fresh process answered");
    }
    pool.shutdown_all().await;
}
