//! Fault tests: the pool against `tests/fake-lsp`, a real LSP server that crashes, hangs,
//! floods stderr, reports progress or writes garbage on request.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use navmap_lsp::{LspConfig, LspError, LspPool, Position, ServerState};

/// A project of one language (`py`, served by the fake) in a temp dir, plus a state dir
/// the fake writes its log into.
struct Setup {
    dir: tempfile::TempDir,
    state: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        std::fs::create_dir(&state).unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(
            root.join("a.py"),
            "fn alpha\nfn beta\n  alpha() # café 🚀 alpha\n",
        )
        .unwrap();
        std::fs::write(root.join("b.py"), "fn gamma\nalpha\n").unwrap();
        Setup { dir, state }
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    fn config(&self, fake_env: &[(&str, &str)]) -> LspConfig {
        let mut env = vec![(
            "FAKE_LSP_STATE".to_string(),
            self.state.display().to_string(),
        )];
        env.extend(fake_env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let mut config = LspConfig {
            env,
            deadline: Duration::from_secs(5),
            long_deadline: Duration::from_secs(5),
            settle: Duration::from_millis(100),
            backoff_base: Duration::from_millis(10),
            backoff_max: Duration::from_millis(100),
            ..LspConfig::default()
        };
        config
            .commands
            .insert("py".into(), vec![common::fake_lsp().display().to_string()]);
        config
    }

    fn pool(&self, fake_env: &[(&str, &str)]) -> LspPool {
        common::pool(&self.root(), self.config(fake_env))
    }

    fn log(&self, name: &str) -> Vec<String> {
        std::fs::read_to_string(self.state.join(name))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn count(&self, name: &str, prefix: &str) -> usize {
        self.log(name)
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    }
}

fn a() -> &'static Path {
    Path::new("a.py")
}

/// `alpha` on line 3 (0-based 2) is defined on line 1: the fake's "first occurrence".
async fn assert_correct_definition(pool: &LspPool) {
    let defs = pool.definition(a(), Position::new(2, 3)).await.unwrap();
    assert!(defs.complete, "{:?}", defs.warnings);
    assert_eq!(defs.value.len(), 1);
    assert_eq!(defs.value[0].range.start, Position::new(0, 3));
    assert!(defs.value[0].path.ends_with("repo/a.py"));
}

fn status(pool: &LspPool) -> navmap_lsp::ServerStatus {
    pool.status()
        .into_iter()
        .find(|s| s.language == "py")
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_through_garbage_on_stdout() {
    let s = Setup::new();
    let pool = s.pool(&[("FAKE_LSP_GARBAGE", "1")]);
    assert_correct_definition(&pool).await;
    // UTF-16 columns: the second `alpha` on line 3 sits after "é" (1 unit) and "🚀" (2
    // units): column 20 (19 characters, 23 bytes).
    let refs = pool
        .references(a(), Position::new(0, 3), true)
        .await
        .unwrap();
    let mut on_line_2: Vec<u32> = refs
        .value
        .iter()
        .filter(|l| l.range.start.line == 2 && l.path.ends_with("a.py"))
        .map(|l| l.range.start.character)
        .collect();
    on_line_2.sort();
    assert_eq!(on_line_2, vec![2, 20]);
    pool.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_mid_request_restarts_and_answers_correctly() {
    let s = Setup::new();
    let pool = s.pool(&[("FAKE_LSP_CRASH_TIMES", "1")]);
    // The first server dies on the request; a second one answers it.
    assert_correct_definition(&pool).await;
    assert_eq!(s.count("crashes", "crash"), 1);
    assert_eq!(s.count("log", "start"), 2);
    // The restarted server was given the open document again.
    assert_eq!(s.count("log", "didOpen"), 2);
    assert_correct_definition(&pool).await;
    assert_eq!(s.count("log", "start"), 2);
    let st = status(&pool);
    assert!(
        matches!(st.state, ServerState::Ready | ServerState::Indexing),
        "{st:?}"
    );
    pool.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_crashes_mark_the_server_failed_with_its_stderr() {
    let s = Setup::new();
    let pool = s.pool(&[("FAKE_LSP_CRASH_TIMES", "1000")]);
    let mut last = None;
    for _ in 0..6 {
        match pool.definition(a(), Position::new(2, 3)).await {
            Err(e @ LspError::Failed { .. }) => last = Some(e),
            other => panic!("expected a failure, got {other:?}"),
        }
    }
    let Some(LspError::Failed {
        reason,
        stderr_tail,
    }) = last
    else {
        unreachable!()
    };
    assert!(reason.contains("crashed 5 times"), "{reason}");
    assert!(
        stderr_tail
            .iter()
            .any(|l| l.contains("crashing on purpose")),
        "{stderr_tail:?}"
    );
    // Failed for the session: no sixth process was started.
    assert_eq!(s.count("log", "start"), 5);
    let st = status(&pool);
    assert_eq!(st.state, ServerState::Failed);
    assert!(st.detail.unwrap().contains("crashed 5 times"));
    assert!(!st.stderr_tail.is_empty() && st.stderr_tail.len() <= 20);
    pool.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_times_out_within_the_deadline_and_is_cancelled() {
    let s = Setup::new();
    let mut config = s.config(&[("FAKE_LSP_HANG", "1")]);
    config.deadline = Duration::from_secs(2);
    let pool = common::pool(&s.root(), config);
    let t0 = Instant::now();
    let err = pool.definition(a(), Position::new(2, 3)).await.unwrap_err();
    let took = t0.elapsed();
    assert!(matches!(err, LspError::Timeout { .. }), "{err:?}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
    // The fake saw the $/cancelRequest (tower-lsp dropped the handler).
    let mut cancelled = Vec::new();
    for _ in 0..50 {
        cancelled = s.log("cancelled");
        if !cancelled.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(cancelled, vec!["textDocument/definition"]);
    // The server itself is fine: other requests still work.
    let hover = pool.hover(a(), Position::new(0, 3)).await.unwrap();
    assert_eq!(hover.value.unwrap().contents, "`alpha`");
    pool.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_capabilities_are_reported_not_guessed() {
    let s = Setup::new();
    let pool = s.pool(&[("FAKE_LSP_NO_CALL_HIERARCHY", "1")]);
    let err = pool
        .prepare_call_hierarchy(a(), Position::new(0, 3))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            LspError::NoCapability {
                capability: "callHierarchy"
            }
        ),
        "{err:?}"
    );
    assert!(!pool.supports_call_hierarchy(a()).await.unwrap());
    let err = pool
        .implementation(a(), Position::new(0, 3))
        .await
        .unwrap_err();
    assert!(matches!(err, LspError::NoCapability { .. }), "{err:?}");
    // With the capability, the call hierarchy is asked for.
    let s2 = Setup::new();
    let pool2 = s2.pool(&[]);
    assert!(pool2.supports_call_hierarchy(a()).await.unwrap());
    let items = pool2
        .prepare_call_hierarchy(a(), Position::new(0, 3))
        .await
        .unwrap();
    assert_eq!(items.value[0].name, "alpha");
    assert!(
        pool2
            .incoming_calls(&items.value[0])
            .await
            .unwrap()
            .value
            .is_empty()
    );
    pool.shutdown_all().await;
    pool2.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_reporting_progress_is_waited_for_not_believed() {
    let s = Setup::new();
    let mut config = s.config(&[("FAKE_LSP_PROGRESS_MS", "3000")]);
    config.settle = LspConfig::default().settle;
    let pool = common::pool(&s.root(), config);
    // While indexing the fake answers []: the pool must wait, then return the real answer.
    assert_correct_definition(&pool).await;
    pool.shutdown_all().await;
}

/// The fake (with `fake_env`) asked for a definition under a 2 s deadline: the pool, and
/// the `NotReady` error's detail and wait (any other outcome fails the test).
async fn not_ready_by_a_2s_deadline(
    s: &Setup,
    fake_env: &[(&str, &str)],
) -> (LspPool, String, Duration) {
    let mut config = s.config(fake_env);
    config.deadline = Duration::from_secs(2);
    let pool = common::pool(&s.root(), config);
    match pool.definition(a(), Position::new(2, 3)).await {
        Err(LspError::NotReady { detail, waited }) => (pool, detail, waited),
        other => panic!("expected NotReady, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_still_indexing_at_the_deadline_is_not_ready() {
    let s = Setup::new();
    let (pool, detail, _) =
        not_ready_by_a_2s_deadline(&s, &[("FAKE_LSP_PROGRESS_MS", "20000")]).await;
    assert!(detail.contains("Indexing"), "{detail}");
    let st = status(&pool);
    assert_eq!(st.state, ServerState::Indexing);
    assert_eq!(st.detail.as_deref(), Some("Indexing"));
    pool.shutdown_all().await;
}

/// rust-analyzer cancels every query while its workspace loads (`ContentModified`): the
/// pool waits for the server to be ready and asks again, once, and the answer is the real
/// one. The fake starts its second of work on the first question, so the test does not
/// depend on how long the server takes to start (a loaded CI machine).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_cancelled_while_the_server_loads_is_asked_again_once_it_is_ready() {
    let s = Setup::new();
    let pool = s.pool(&[("FAKE_LSP_CONTENT_MODIFIED_MS", "1000")]);
    assert_correct_definition(&pool).await;
    pool.shutdown_all().await;
    assert_eq!(s.count("log", "content modified"), 1, "{:?}", s.log("log"));
}

/// Cancelled until the deadline: the server is not ready (`LSP_NOT_READY`, retry
/// shortly), not failed (`LSP_FAILED` with the server's "content modified").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_cancelled_until_the_deadline_is_not_ready_not_failed() {
    let s = Setup::new();
    let (pool, detail, waited) =
        not_ready_by_a_2s_deadline(&s, &[("FAKE_LSP_CONTENT_MODIFIED_MS", "20000")]).await;
    assert!(detail.contains("content modified"), "{detail}");
    assert!(waited < Duration::from_secs(4), "{waited:?}");
    pool.shutdown_all().await;
}

/// A cold server answers `[]` for a while after `initialized` and reports no progress
/// (pyright before its program is loaded): the first answers are not "no results".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cold_server_answering_empty_silently_is_asked_again() {
    let s = Setup::new();
    let cold = [("FAKE_LSP_COLD_MS", "1500")];

    let pool = s.pool(&cold);
    let syms = pool.workspace_symbols("py", "alpha").await.unwrap();
    assert!(syms.complete, "{:?}", syms.warnings);
    assert_eq!(syms.value.len(), 1, "{:?}", syms.value);
    assert_eq!(syms.value[0].name, "alpha");
    pool.shutdown_all().await;
    assert!(s.count("log", "workspace/symbol") > 1, "{:?}", s.log("log"));

    let pool = s.pool(&cold);
    assert_correct_definition(&pool).await;
    pool.shutdown_all().await;

    let pool = s.pool(&cold);
    let refs = pool
        .references(a(), Position::new(0, 3), true)
        .await
        .unwrap();
    assert!(refs.complete, "{:?}", refs.warnings);
    assert_eq!(refs.value.len(), 3, "{:?}", refs.value);
    pool.shutdown_all().await;
}

/// Diagnostics show the project was analysed: after them an empty answer is complete.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_vouch_for_an_empty_answer_of_a_cold_server() {
    let s = Setup::new();
    let pool = s.pool(&[("FAKE_LSP_COLD_MS", "800"), ("FAKE_LSP_DIAGNOSTICS", "1")]);
    let none = pool.workspace_symbols("py", "zeta").await.unwrap();
    assert!(none.value.is_empty(), "{:?}", none.value);
    assert!(none.complete, "{:?}", none.warnings);
    let some = pool.workspace_symbols("py", "beta").await.unwrap();
    assert_eq!(some.value.len(), 1, "{:?}", some.value);
    pool.shutdown_all().await;
}

/// A server that never shows it analysed anything and keeps answering `[]`: past the
/// cold wait the empty answer comes back flagged incomplete, never as "no results".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_evidence_of_analysis_gets_an_incomplete_empty_answer() {
    let s = Setup::new();
    let mut config = s.config(&[("FAKE_LSP_COLD_MS", "60000")]);
    config.cold_wait = Duration::from_millis(1200);
    let pool = common::pool(&s.root(), config);
    let syms = pool.workspace_symbols("py", "alpha").await.unwrap();
    assert!(syms.value.is_empty(), "{:?}", syms.value);
    assert!(!syms.complete);
    assert!(
        syms.warnings.iter().any(|w| w.contains("analysed")),
        "{:?}",
        syms.warnings
    );
    pool.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_binary_is_unavailable_with_the_install_hint_and_reprobed_later() {
    let s = Setup::new();
    let bin = s.dir.path().join("bin/not-yet-installed");
    let mut config = s.config(&[]);
    config
        .commands
        .insert("py".into(), vec![bin.display().to_string()]);
    config.unavailable_retry = Duration::from_millis(600);
    let pool = common::pool(&s.root(), config);
    // The status tells it before anything is started (a PATH probe).
    let st = status(&pool);
    assert_eq!(st.state, ServerState::Unavailable);
    assert!(st.detail.unwrap().contains("install"));
    let err = pool.definition(a(), Position::new(2, 3)).await.unwrap_err();
    match &err {
        LspError::Unavailable { install_hint, .. } => {
            // py's manifest has an [lsp.install] recipe: navmap installs it itself.
            assert_eq!(install_hint, "navmap servers install py");
            let registry = navmap_grammars::registry();
            let py = registry.by_id("py").unwrap();
            assert_eq!(install_hint, &navmap_lsp::pool::install_hint(py));
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
    assert_eq!(status(&pool).state, ServerState::Unavailable);
    // Installed now, but not looked for again until the retry interval has passed.
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(common::fake_lsp(), &bin).unwrap();
    assert!(matches!(
        pool.definition(a(), Position::new(2, 3)).await,
        Err(LspError::Unavailable { .. })
    ));
    assert_eq!(s.count("log", "start"), 0);
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_correct_definition(&pool).await;
    pool.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_process_survives_shutdown_or_drop() {
    let s = Setup::new();
    let pool = s.pool(&[]);
    assert_correct_definition(&pool).await;
    let pid = status(&pool).pid.unwrap();
    assert!(!common::live_group_members(pid).is_empty());
    pool.shutdown_all().await;
    assert!(common::group_gone(pid, Duration::from_secs(5)).await);
    assert_eq!(s.count("log", "shutdown"), 1);
    assert_eq!(status(&pool).state, ServerState::Unspawned);
    assert!(matches!(
        pool.definition(a(), Position::new(2, 3)).await,
        Err(LspError::Failed { .. })
    ));

    // Dropped without shutdown_all: the handle's drop kills the group.
    let s2 = Setup::new();
    let pool2 = s2.pool(&[("FAKE_LSP_HANG", "1")]);
    pool2.hover(a(), Position::new(0, 3)).await.unwrap();
    let pid2 = status(&pool2).pid.unwrap();
    drop(pool2);
    assert!(common::group_gone(pid2, Duration::from_secs(5)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_server_is_stopped_and_restarted_on_demand() {
    let s = Setup::new();
    let mut config = s.config(&[]);
    config.idle_timeout = Some(Duration::from_millis(300));
    let pool = common::pool(&s.root(), config);
    assert_correct_definition(&pool).await;
    let pid = status(&pool).pid.unwrap();
    let mut stopped = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if status(&pool).state == ServerState::Unspawned {
            stopped = true;
            break;
        }
    }
    assert!(stopped, "{:?}", status(&pool));
    assert!(status(&pool).detail.unwrap().contains("idle"));
    assert!(common::group_gone(pid, Duration::from_secs(5)).await);
    assert_correct_definition(&pool).await;
    assert_ne!(status(&pool).pid.unwrap(), pid);
    assert_eq!(s.count("log", "start"), 2);
    pool.shutdown_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_are_synced_only_on_change_and_capped() {
    let s = Setup::new();
    let mut config = s.config(&[]);
    config.max_open_documents = 1;
    let pool = common::pool(&s.root(), config);
    assert_correct_definition(&pool).await;
    assert_correct_definition(&pool).await;
    assert_eq!(s.count("log", "didOpen"), 1);
    assert_eq!(s.count("log", "didChange"), 0);
    // An edit on disk reaches the server before the next answer.
    std::fs::write(s.root().join("a.py"), "\nfn alpha\nfn beta\n  alpha()\n").unwrap();
    let defs = pool.definition(a(), Position::new(3, 3)).await.unwrap();
    assert_eq!(defs.value[0].range.start, Position::new(1, 3));
    assert_eq!(s.count("log", "didChange"), 1);
    // A second document evicts the first (cap 1).
    let outline = pool.document_symbols(Path::new("b.py")).await.unwrap();
    let names: Vec<&str> = outline.value.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, vec!["gamma"]);
    assert_eq!(s.count("log", "didClose"), 1);
    assert!(
        s.log("log")
            .iter()
            .any(|l| l.starts_with("didClose") && l.ends_with("a.py"))
    );
    // A file that does not exist is an I/O error, not a hang.
    let err = pool
        .definition(Path::new("gone.py"), Position::new(0, 0))
        .await
        .unwrap_err();
    assert!(matches!(err, LspError::Io { .. }), "{err:?}");
    // A file of no configured language.
    let err = pool
        .definition(Path::new("notes.txt"), Position::new(0, 0))
        .await
        .unwrap_err();
    assert!(matches!(err, LspError::NoServer { .. }), "{err:?}");
    pool.shutdown_all().await;
}

/// A server that answers one method with internal errors, again and again (pyright after
/// a cancelled `references`: "this._token.cancel is not a function"), is restarted after
/// `method_failures` of them in a row, and the answer that saw it says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_wedged_on_internal_errors_restarts_the_server_and_says_so() {
    let s = Setup::new();
    let pool = s.pool(&[("FAKE_LSP_WEDGE", "textDocument/references")]);
    let limit = pool.config().method_failures;
    for n in 1..limit {
        let err = pool.references(a(), Position::new(0, 4), true).await;
        assert!(
            matches!(&err, Err(LspError::Server { code: -32603, .. })),
            "error {n}: {err:?}"
        );
    }
    // The one that makes it `limit` in a row: restarted, asked again, answered.
    let answer = pool
        .references(a(), Position::new(0, 4), true)
        .await
        .unwrap();
    assert!(!answer.value.is_empty(), "{answer:?}");
    assert!(
        answer
            .warnings
            .iter()
            .any(|w| w.contains("restarted") && w.contains("internal error")),
        "{:?}",
        answer.warnings
    );
    assert_eq!(s.count("log", "start"), 2, "{:?}", s.log("log"));
    // The fresh process answers without further ado.
    let again = pool
        .references(a(), Position::new(0, 4), true)
        .await
        .unwrap();
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    pool.shutdown_all().await;
}

/// One method that stops answering while the others still answer: restarted on its
/// second missed deadline, and that answer says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_that_stops_answering_while_others_answer_restarts_the_server() {
    let s = Setup::new();
    let mut config = s.config(&[("FAKE_LSP_HANG_METHODS", "textDocument/references")]);
    config.long_deadline = Duration::from_secs(1);
    let pool = common::pool(&s.root(), config);
    let first = pool.references(a(), Position::new(0, 4), true).await;
    assert!(matches!(first, Err(LspError::Timeout { .. })), "{first:?}");
    // Others still answer.
    assert_correct_definition(&pool).await;
    let second = pool.references(a(), Position::new(0, 4), true).await;
    match second {
        Err(LspError::Failed { reason, .. }) => {
            assert!(
                reason.contains("stopped answering") && reason.contains("restarted"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
    // The next query runs on a fresh process.
    assert_correct_definition(&pool).await;
    assert_eq!(s.count("log", "start"), 2, "{:?}", s.log("log"));
    pool.shutdown_all().await;
}

/// Every request of one call shares the call's deadline: a frozen server costs one
/// deadline, not one per question (the outline of a `nodeId`, then the tool's own query,
/// used to cost 15 s + 30 s). Asserted as an order with a margin: the call's error comes
/// before a second deadline could have run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_requests_of_one_call_share_its_deadline() {
    let s = Setup::new();
    let mut config = s.config(&[(
        "FAKE_LSP_HANG_METHODS",
        "textDocument/documentSymbol,textDocument/definition",
    )]);
    config.deadline = Duration::from_secs(2);
    let pool = common::pool(&s.root(), config);
    // Start the server first: the start is not the subject here.
    pool.hover(a(), Position::new(0, 4)).await.unwrap();
    let t0 = Instant::now();
    let (outline, definition) = pool
        .within(navmap_lsp::Deadline::Normal, async {
            let outline = pool.document_symbols(a()).await;
            let definition = pool.definition(a(), Position::new(2, 3)).await;
            (outline, definition)
        })
        .await;
    let took = t0.elapsed();
    assert!(
        matches!(outline, Err(LspError::Timeout { .. })),
        "{outline:?}"
    );
    assert!(
        matches!(definition, Err(LspError::Timeout { .. })),
        "{definition:?}"
    );
    assert!(
        took < Duration::from_secs(2) * 2,
        "two questions of one call took {took:?}: each had its own deadline"
    );
    pool.shutdown_all().await;
}

/// A server that says it cannot load the project (gopls: "go.mod requires go >= …", which
/// the Go manifest's `[[lsp.failure_hints]]` names) is taken at its word: the next query
/// is answered at once from that state, without asking the server again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_cannot_load_the_project_is_answered_for_at_once() {
    let s = Setup::new();
    std::fs::write(s.root().join("a.go"), "package a\n\nfunc alpha() {}\n").unwrap();
    let mut config = s.config(&[
        (
            "FAKE_LSP_LOAD_ERROR",
            "go: go.mod requires go >= 1.99.0 (running go 1.19.8; GOTOOLCHAIN=local)",
        ),
        ("FAKE_LSP_LOAD_ERROR_MS", "1500"),
    ]);
    config.deadline = Duration::from_secs(20);
    config
        .commands
        .insert("go".into(), vec![common::fake_lsp().display().to_string()]);
    let pool = common::pool(&s.root(), config);
    let go = Path::new("a.go");
    let t0 = Instant::now();
    let first = pool.definition(go, Position::new(2, 6)).await;
    let slow = t0.elapsed();
    let reason = match &first {
        Err(LspError::CannotServe { reason, .. }) => reason.clone(),
        other => panic!("{other:?}"),
    };
    assert!(reason.contains("newer Go"), "{reason}");
    let t1 = Instant::now();
    let second = pool.references(go, Position::new(2, 6), true).await;
    let fast = t1.elapsed();
    assert!(
        matches!(&second, Err(LspError::CannotServe { .. })),
        "{second:?}"
    );
    // Not asked again: the state answered (the fake logs every query it fails).
    assert_eq!(s.count("log", "load error"), 1, "{:?}", s.log("log"));
    assert!(fast < slow, "second {fast:?} vs first {slow:?}");
    let st = pool
        .status()
        .into_iter()
        .find(|st| st.language == "go")
        .unwrap();
    assert_eq!(st.state, ServerState::Failed, "{st:?}");
    assert!(st.detail.unwrap().contains("cannot serve"));
    pool.shutdown_all().await;
}
