//! One running language-server process and the JSON-RPC conversation with it.
//!
//! Four tasks serve a client: a writer (owns stdin; every outgoing frame goes through one
//! channel, so callers and the reader never contend for the pipe), a reader (parses
//! stdout, completes pending requests, answers the server's own requests, tracks
//! readiness), a stderr drain (into the bounded ring) and a waiter (owns the `Child`,
//! notices its death, kills its process group). The [`Client`] handle itself only holds
//! what is needed to talk and to kill: dropping it kills the whole process group, so no
//! server (nor a helper it spawned, like tsserver) outlives navmap.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::BufReader;
use tokio::process::{ChildStdin, ChildStdout};
use tokio::sync::{mpsc, oneshot, watch};

use crate::framing;
use crate::stderr::{self, SharedRing, StderrRing};

/// JSON-RPC error codes the client reacts to.
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INTERNAL_ERROR: i64 = -32603;
pub const REQUEST_CANCELLED: i64 = -32800;
pub const CONTENT_MODIFIED: i64 = -32801;
pub const SERVER_CANCELLED: i64 = -32802;

/// Prefix of the work-done tokens navmap puts on its requests; their progress is the
/// request's, not indexing.
const REQUEST_TOKEN: &str = "navmap/request/";

/// How a request ended, short of a result.
#[derive(Debug)]
pub enum RequestError {
    /// The server answered with an error.
    Rpc { code: i64, message: String },
    /// The process died (or its stdout closed) before answering.
    Died,
    /// No answer by the deadline; `$/cancelRequest` was sent.
    Timeout,
}

/// What the client knows about the server's progress, updated by the reader task.
#[derive(Debug, Clone)]
pub struct Health {
    pub alive: bool,
    /// Why it stopped: exit status, or a protocol failure.
    pub exit: Option<String>,
    pub initialized: bool,
    /// Active `$/progress` tokens and their titles.
    pub progress: BTreeMap<String, String>,
    /// rust-analyzer's `experimental/serverStatus.quiescent`, once it has spoken.
    pub quiescent: Option<bool>,
    pub status_message: Option<String>,
    /// The last sign of work: initialization, a progress event, a status change.
    pub last_activity: Instant,
    /// Bumped whenever work begins; an answer given across a bump is suspect.
    pub busy_epoch: u64,
    /// Evidence that the server has analysed its project at least once: diagnostics
    /// published, a progress ended, `quiescent: true`, or a non-empty project-wide answer (references, workspace symbols; not a one-document answer such as an outline). Until then
    /// an empty answer may only mean "not loaded yet" (pyright answers `workspace/symbol`
    /// with `[]` before its program is populated, reporting no progress).
    pub analysed: bool,
    /// The manifest's reason, once the server said it could not set the project up
    /// (`ServerContext::setup_failures`): kept for the server's life, since a restart is
    /// what sets the project up again.
    pub setup_failure: Option<String>,
}

/// Readiness at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Readiness {
    Dead,
    Starting,
    /// Work reported (progress or not quiescent): what, for the status detail.
    Indexing(String),
    /// No work reported, but too recently active to be trusted yet.
    Settling(Duration),
    Ready,
}

impl Health {
    pub fn readiness(&self, now: Instant, settle: Duration) -> Readiness {
        if !self.alive {
            return Readiness::Dead;
        }
        if !self.initialized {
            return Readiness::Starting;
        }
        if let Some((_, title)) = self.progress.iter().next() {
            let more = self.progress.len() - 1;
            let title = if title.is_empty() { "working" } else { title };
            return Readiness::Indexing(if more > 0 {
                format!("{title} (+{more} more)")
            } else {
                title.to_string()
            });
        }
        if self.quiescent == Some(false) {
            return Readiness::Indexing(
                self.status_message
                    .clone()
                    .unwrap_or_else(|| "indexing".to_string()),
            );
        }
        let quiet = now.saturating_duration_since(self.last_activity);
        if quiet < settle {
            return Readiness::Settling(settle - quiet);
        }
        Readiness::Ready
    }

    /// A server just spawned at `at`: alive, not yet initialized, no work seen.
    pub(crate) fn started(at: Instant) -> Health {
        Health {
            alive: true,
            exit: None,
            initialized: false,
            progress: BTreeMap::new(),
            quiescent: None,
            status_message: None,
            last_activity: at,
            busy_epoch: 0,
            analysed: false,
            setup_failure: None,
        }
    }

    /// One of the server's own progress notifications (the manifest's
    /// `[[lsp.progress_notifications]]`): a task not yet done is active work, as a
    /// `$/progress` token between `begin` and `end` is. Its tasks are kept apart from
    /// `$/progress` tokens by the method's name in front of their id.
    ///
    /// Unlike `$/progress`, such a task is neither "work begun" (`busy_epoch`) nor
    /// activity (`last_activity`): the server reports the request's own work the same way
    /// (jdtls reports a "Background task" for every `callHierarchy/incomingCalls`, begun
    /// after the request and done before its answer), with no token of navmap's to tell it
    /// apart, and counting it would mark every such answer incomplete. A task still
    /// running when the answer comes, or when the question is about to be asked, makes the
    /// server "indexing", and that is what holds the answer back.
    pub(crate) fn own_progress(
        &mut self,
        rule: &navmap_language::ProgressNotification,
        params: &Value,
    ) {
        let id = match params.get(rule.id.as_str()) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => return,
            Some(other) => other.to_string(),
        };
        let token = format!("{}/{id}", rule.method);
        let title = params
            .get(rule.title.as_str())
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let done = params
            .get(rule.done.as_str())
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if done {
            self.progress.remove(&token);
            self.analysed = true;
        } else {
            // Begun, or a later report of the same task under its new title.
            self.progress.insert(token, title);
        }
    }
}

/// What the reader needs to answer the server's own requests.
pub struct ServerContext {
    /// The manifest's settings, answered to `workspace/configuration` by section.
    pub settings: Value,
    pub root_uri: String,
    pub root_name: String,
    /// The manifest's `[[lsp.setup_failures]]`: error messages by which the server says
    /// it could not set the project up.
    pub setup_failures: Vec<navmap_language::FailureHint>,
    /// The manifest's `[[lsp.progress_notifications]]`: the server's own progress
    /// notifications, read like `$/progress`.
    pub progress_notifications: Vec<navmap_language::ProgressNotification>,
}

struct Shared {
    pending: Mutex<HashMap<i64, oneshot::Sender<Result<Value, RequestError>>>>,
    health: watch::Sender<Health>,
    out: mpsc::UnboundedSender<Vec<u8>>,
    stderr: SharedRing,
    context: ServerContext,
    /// Set by the waiter once the child is reaped: its pid may then be reused.
    reaped: AtomicBool,
}

/// A handle on one server process.
pub struct Client {
    pub pid: u32,
    pub started: Instant,
    shared: Arc<Shared>,
    next_id: AtomicI64,
    kill: Mutex<Option<oneshot::Sender<()>>>,
    reaped: watch::Receiver<bool>,
    /// Set once stderr reached its end: the ring then holds the last words.
    stderr_done: watch::Receiver<bool>,
    pub capabilities: Mutex<Option<lsp_types::ServerCapabilities>>,
}

impl Client {
    /// Starts the process. `Err(NotFound)` when the binary is missing.
    pub fn spawn(
        command: &[String],
        env: &[(String, String)],
        env_remove: &[String],
        cwd: &Path,
        context: ServerContext,
        stderr_ring: (usize, usize),
    ) -> std::io::Result<Client> {
        let (program, args) = command.split_first().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty server command")
        })?;
        let mut cmd = tokio::process::Command::new(program);
        for name in env_remove {
            cmd.env_remove(name);
        }
        cmd.args(args)
            .current_dir(cwd)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so the whole tree (tsserver under
            // typescript-language-server, …) can be killed at once.
            .process_group(0)
            .kill_on_drop(true);
        let mut child = cmd.spawn()?;
        let pid = child.id().unwrap_or(0);
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");

        let ring: SharedRing = Arc::new(Mutex::new(StderrRing::new(stderr_ring.0, stderr_ring.1)));
        let (out_tx, out_rx) = mpsc::unbounded_channel();
        let (health, _) = watch::channel(Health::started(Instant::now()));
        let shared = Arc::new(Shared {
            pending: Mutex::new(HashMap::new()),
            health,
            out: out_tx,
            stderr: ring.clone(),
            context,
            reaped: AtomicBool::new(false),
        });

        tokio::spawn(write_loop(stdin, out_rx));
        tokio::spawn(read_loop(stdout, shared.clone()));
        let (stderr_tx, stderr_rx) = watch::channel(false);
        tokio::spawn(async move {
            stderr::drain(stderr_pipe, ring).await;
            let _ = stderr_tx.send(true);
        });
        let (kill_tx, kill_rx) = oneshot::channel();
        let (reaped_tx, reaped_rx) = watch::channel(false);
        tokio::spawn(wait_loop(child, pid, shared.clone(), kill_rx, reaped_tx));

        Ok(Client {
            pid,
            started: Instant::now(),
            shared,
            next_id: AtomicI64::new(1),
            kill: Mutex::new(Some(kill_tx)),
            reaped: reaped_rx,
            stderr_done: stderr_rx,
            capabilities: Mutex::new(None),
        })
    }

    pub fn health(&self) -> Health {
        self.shared.health.borrow().clone()
    }

    pub fn subscribe(&self) -> watch::Receiver<Health> {
        self.shared.health.subscribe()
    }

    /// Counts as a sign of work: the next query waits for the settle time first.
    pub fn mark_activity(&self) {
        self.shared
            .health
            .send_modify(|h| h.last_activity = Instant::now());
    }

    /// Records evidence of analysis (a non-empty answer): see [`Health::analysed`].
    pub fn mark_analysed(&self) {
        self.shared
            .health
            .send_if_modified(|h| !std::mem::replace(&mut h.analysed, true));
    }

    pub fn alive(&self) -> bool {
        self.shared.health.borrow().alive
    }

    pub fn stderr_tail(&self, n: usize) -> Vec<String> {
        self.shared
            .stderr
            .lock()
            .map(|r| r.tail(n))
            .unwrap_or_default()
    }

    pub fn stderr_ring(&self) -> SharedRing {
        self.shared.stderr.clone()
    }

    /// Sends a notification. Params `None` omits the field (typescript-go rejects `null`).
    pub fn notify(&self, method: &str, params: Option<Value>) {
        let mut msg = json!({"jsonrpc": "2.0", "method": method});
        if let Some(p) = params {
            msg["params"] = p;
        }
        let _ = self.shared.out.send(msg.to_string().into_bytes());
    }

    /// Sends a request and waits for its answer until `deadline`; on expiry sends
    /// `$/cancelRequest` and gives up.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        deadline: tokio::time::Instant,
    ) -> Result<Value, RequestError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        {
            let mut pending = self
                .shared
                .pending
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if !self.alive() {
                return Err(RequestError::Died);
            }
            pending.insert(id, tx);
        }
        let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if let Some(mut p) = params {
            // Our own work-done token: a server that reports progress for this request
            // (pyright does for references) uses it instead of creating one, and the
            // reader can tell that progress from indexing.
            if let Some(obj) = p.as_object_mut()
                && method != "initialize"
            {
                obj.entry("workDoneToken")
                    .or_insert_with(|| Value::from(format!("{REQUEST_TOKEN}{id}")));
            }
            msg["params"] = p;
        }
        if self.shared.out.send(msg.to_string().into_bytes()).is_err() {
            self.forget(id);
            return Err(RequestError::Died);
        }
        match tokio::time::timeout_at(deadline, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(RequestError::Died),
            Err(_) => {
                self.forget(id);
                self.notify("$/cancelRequest", Some(json!({"id": id})));
                Err(RequestError::Timeout)
            }
        }
    }

    fn forget(&self, id: i64) {
        self.shared
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }

    /// `initialize` + `initialized`. Stores the server's capabilities.
    pub async fn initialize(
        &self,
        params: Value,
        deadline: tokio::time::Instant,
    ) -> Result<(), RequestError> {
        let result = self.request("initialize", Some(params), deadline).await?;
        let init: lsp_types::InitializeResult =
            serde_json::from_value(result).map_err(|e| RequestError::Rpc {
                code: 0,
                message: format!("malformed initialize result: {e}"),
            })?;
        *self.capabilities.lock().unwrap_or_else(|e| e.into_inner()) = Some(init.capabilities);
        self.notify("initialized", Some(json!({})));
        self.shared.health.send_modify(|h| {
            h.initialized = true;
            h.last_activity = Instant::now();
        });
        Ok(())
    }

    pub fn capabilities(&self) -> Option<lsp_types::ServerCapabilities> {
        self.capabilities
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Polite stop: `shutdown`, `exit`, a short wait, then the kill of the group.
    pub async fn shutdown(&self, grace: Duration) {
        if self.alive() {
            let deadline = tokio::time::Instant::now() + grace;
            let _ = self.request("shutdown", None, deadline).await;
            self.notify("exit", None);
            self.wait_reaped(grace).await;
        }
        self.kill().await;
    }

    /// Kills the process group and waits (briefly) until the child is reaped.
    pub async fn kill(&self) {
        let kill = self.kill.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(kill) = kill {
            let _ = kill.send(());
        }
        self.wait_reaped(Duration::from_secs(2)).await;
    }

    /// The stderr tail of a dead process, once its pipe is drained (briefly waited for:
    /// a helper of the server may hold the pipe open).
    pub async fn final_stderr_tail(&self, n: usize) -> Vec<String> {
        let mut done = self.stderr_done.clone();
        let _ = tokio::time::timeout(Duration::from_millis(500), done.wait_for(|d| *d)).await;
        self.stderr_tail(n)
    }

    async fn wait_reaped(&self, limit: Duration) {
        let mut reaped = self.reaped.clone();
        let _ = tokio::time::timeout(limit, reaped.wait_for(|r| *r)).await;
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // Synchronous: a dropped pool (or a runtime shutting down) must not leave the
        // group running. Once reaped the pid may be reused, so only before that.
        if !self.shared.reaped.load(Ordering::SeqCst) {
            kill_group(self.pid);
        }
        if let Some(kill) = self.kill.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = kill.send(());
        }
    }
}

fn kill_group(pid: u32) {
    if pid > 1 {
        // SAFETY: kill(2) with a negative pid signals a process group; no memory involved.
        unsafe {
            libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
        }
    }
}

async fn write_loop(mut stdin: ChildStdin, mut rx: mpsc::UnboundedReceiver<Vec<u8>>) {
    while let Some(body) = rx.recv().await {
        if let Err(e) = framing::write_frame(&mut stdin, &body).await {
            tracing::debug!(error = %e, "language server stdin closed");
            break;
        }
    }
}

async fn wait_loop(
    mut child: tokio::process::Child,
    pid: u32,
    shared: Arc<Shared>,
    kill: oneshot::Receiver<()>,
    reaped: watch::Sender<bool>,
) {
    let status = tokio::select! {
        status = child.wait() => status,
        _ = kill => {
            kill_group(pid);
            let _ = child.start_kill();
            child.wait().await
        }
    };
    // Helpers the server left behind in its group go with it.
    kill_group(pid);
    shared.reaped.store(true, Ordering::SeqCst);
    let reason = match status {
        Ok(s) => format!("exited ({s})"),
        Err(e) => format!("lost ({e})"),
    };
    mark_dead(&shared, reason);
    let _ = reaped.send(true);
}

fn mark_dead(shared: &Shared, reason: String) {
    shared.health.send_modify(|h| {
        if h.alive {
            h.alive = false;
            h.exit = Some(reason);
        }
    });
    let pending: Vec<_> = shared
        .pending
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .drain()
        .collect();
    for (_, tx) in pending {
        let _ = tx.send(Err(RequestError::Died));
    }
}

async fn read_loop(stdout: ChildStdout, shared: Arc<Shared>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let reason = loop {
        match framing::read_frame(&mut reader).await {
            Ok(Some(body)) => match serde_json::from_slice::<Value>(&body) {
                Ok(msg) => dispatch(&shared, msg),
                Err(e) => tracing::debug!(error = %e, "skipped a frame that is not JSON"),
            },
            Ok(None) => break "closed its stdout".to_string(),
            Err(e) => break format!("broke the protocol: {e}"),
        }
    };
    mark_dead(&shared, reason);
}

fn dispatch(shared: &Shared, msg: Value) {
    let method = msg.get("method").and_then(Value::as_str);
    let id = msg.get("id").filter(|v| !v.is_null()).cloned();
    match (method, id) {
        (None, Some(id)) => {
            let Some(id) = id.as_i64() else { return };
            let tx = shared
                .pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
            if let Some(tx) = tx {
                let reply = match msg.get("error") {
                    Some(err) => Err(RequestError::Rpc {
                        code: err.get("code").and_then(Value::as_i64).unwrap_or(0),
                        message: err
                            .get("message")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                    }),
                    None => Ok(msg.get("result").cloned().unwrap_or(Value::Null)),
                };
                let _ = tx.send(reply);
            }
        }
        (Some(method), Some(id)) => {
            let params = msg.get("params").cloned().unwrap_or(Value::Null);
            let reply = match answer_request(shared, method, &params) {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err((code, message)) => json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": code, "message": message}}),
            };
            let _ = shared.out.send(reply.to_string().into_bytes());
        }
        (Some(method), None) => {
            let params = msg.get("params").cloned().unwrap_or(Value::Null);
            on_notification(shared, method, &params);
        }
        (None, None) => {}
    }
}

/// The server's own requests. Anything navmap has no use for gets a harmless answer, or
/// MethodNotFound when no answer would be harmless.
fn answer_request(shared: &Shared, method: &str, params: &Value) -> Result<Value, (i64, String)> {
    match method {
        "workspace/configuration" => {
            // A server asks for its settings as it sets a project up: a sign of work.
            shared
                .health
                .send_modify(|h| h.last_activity = Instant::now());
            let items = params.get("items").and_then(Value::as_array);
            let answers: Vec<Value> = items
                .map(|items| {
                    items
                        .iter()
                        .map(|item| {
                            let section = item.get("section").and_then(Value::as_str);
                            settings_section(&shared.context.settings, section)
                        })
                        .collect()
                })
                .unwrap_or_default();
            Ok(Value::Array(answers))
        }
        "window/workDoneProgress/create" => {
            shared
                .health
                .send_modify(|h| h.last_activity = Instant::now());
            Ok(Value::Null)
        }
        "client/registerCapability"
        | "client/unregisterCapability"
        | "window/showMessageRequest"
        | "window/showDocument"
        | "workspace/semanticTokens/refresh"
        | "workspace/inlayHint/refresh"
        | "workspace/inlineValue/refresh"
        | "workspace/codeLens/refresh"
        | "workspace/diagnostic/refresh"
        | "workspace/foldingRange/refresh" => Ok(Value::Null),
        "workspace/workspaceFolders" => Ok(json!([{
            "uri": shared.context.root_uri, "name": shared.context.root_name
        }])),
        "workspace/applyEdit" => {
            Ok(json!({"applied": false, "failureReason": "navmap is read-only"}))
        }
        _ => Err((METHOD_NOT_FOUND, format!("navmap does not handle {method}"))),
    }
}

/// `section` is dotted (`python.analysis`); `None` is the whole settings object; a missing
/// section is `null` (the server's defaults).
pub fn settings_section(settings: &Value, section: Option<&str>) -> Value {
    let Some(section) = section.filter(|s| !s.is_empty()) else {
        return settings.clone();
    };
    if let Some(v) = settings.get(section) {
        return v.clone();
    }
    let mut node = settings;
    for part in section.split('.') {
        match node.get(part) {
            Some(next) => node = next,
            None => return Value::Null,
        }
    }
    node.clone()
}

fn on_notification(shared: &Shared, method: &str, params: &Value) {
    match method {
        "$/progress" => {
            let token = match params.get("token") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => return,
            };
            if token.starts_with(REQUEST_TOKEN) {
                return;
            }
            let value = params.get("value").cloned().unwrap_or(Value::Null);
            let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
            shared.health.send_modify(|h| {
                h.last_activity = Instant::now();
                match kind {
                    "begin" => {
                        let title = value.get("title").and_then(Value::as_str).unwrap_or("");
                        h.progress.insert(token, title.to_string());
                        h.busy_epoch += 1;
                    }
                    "end" => {
                        h.progress.remove(&token);
                        h.analysed = true;
                    }
                    _ => {}
                }
            });
        }
        "experimental/serverStatus" => {
            let quiescent = params.get("quiescent").and_then(Value::as_bool);
            let message = params
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string);
            shared.health.send_modify(|h| {
                if quiescent == Some(false) && h.quiescent != Some(false) {
                    h.busy_epoch += 1;
                }
                h.quiescent = quiescent.or(h.quiescent);
                h.analysed |= quiescent == Some(true);
                h.status_message = message;
                h.last_activity = Instant::now();
            });
        }
        "textDocument/publishDiagnostics" => {
            // Diagnostics mean the server analysed a document, so its project is loaded;
            // more may follow, so it is also a sign of work. An error on a build file may
            // be the only lasting trace of a failed project setup (a server restarted on
            // its saved workspace does not log the failure again).
            let failure = params
                .get("diagnostics")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|d| d.get("severity").and_then(Value::as_i64).unwrap_or(1) == 1)
                .filter_map(|d| d.get("message").and_then(Value::as_str))
                .find_map(|m| setup_failure(&shared.context.setup_failures, m));
            shared.health.send_modify(|h| {
                h.analysed = true;
                h.last_activity = Instant::now();
                if let Some(reason) = failure {
                    h.setup_failure.get_or_insert_with(|| reason.to_string());
                }
            });
        }
        "window/logMessage" | "window/showMessage" => {
            let kind = params.get("type").and_then(Value::as_i64).unwrap_or(4);
            let text = params.get("message").and_then(Value::as_str).unwrap_or("");
            tracing::debug!(kind, message = %text, "language server message");
            if kind <= 2
                && let Some(reason) = setup_failure(&shared.context.setup_failures, text)
            {
                shared.health.send_modify(|h| {
                    h.setup_failure.get_or_insert_with(|| reason.to_string());
                });
            }
            // Errors and warnings are worth the stderr tail; info and logs are not.
            if kind <= 2
                && let Ok(mut ring) = shared.stderr.lock()
            {
                for line in text.lines() {
                    ring.push_line(
                        &format!("[{}] {line}", if kind == 1 { "error" } else { "warning" }),
                        false,
                    );
                }
            }
        }
        _ => {
            if let Some(rule) = shared
                .context
                .progress_notifications
                .iter()
                .find(|p| p.method == method)
            {
                shared.health.send_modify(|h| h.own_progress(rule, params));
            }
        }
    }
}

/// The reason of the first setup failure whose patterns `message` contains.
fn setup_failure<'a>(
    failures: &'a [navmap_language::FailureHint],
    message: &str,
) -> Option<&'a str> {
    failures
        .iter()
        .find(|f| f.patterns.iter().any(|p| message.contains(p.as_str())))
        .map(|f| f.reason.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_failures_by_pattern() {
        let failures = vec![navmap_language::FailureHint {
            patterns: vec!["Failed to import".into(), "no build".into()],
            reason: "the build could not be loaded".into(),
        }];
        assert_eq!(
            setup_failure(&failures, "12:00 Failed to import projects\n\tat x.y"),
            Some("the build could not be loaded")
        );
        assert_eq!(setup_failure(&failures, "Imported 3 projects"), None);
        assert_eq!(setup_failure(&[], "Failed to import projects"), None);
    }

    #[test]
    fn settings_by_section() {
        let s = json!({"python": {"analysis": {"mode": "x"}}, "a.b": 1});
        assert_eq!(
            settings_section(&s, Some("python.analysis")),
            json!({"mode": "x"})
        );
        assert_eq!(settings_section(&s, Some("a.b")), json!(1));
        assert_eq!(settings_section(&s, Some("pyright")), Value::Null);
        assert_eq!(settings_section(&s, None), s);
    }

    #[test]
    fn a_servers_own_progress_notifications_are_work_until_done() {
        let rule = navmap_language::ProgressNotification {
            method: "language/progressReport".into(),
            id: "id".into(),
            title: "task".into(),
            done: "complete".into(),
        };
        let t0 = Instant::now();
        let mut h = Health {
            initialized: true,
            ..Health::started(t0)
        };
        let settle = Duration::from_millis(300);
        let later = t0 + settle * 2;
        let report = |task: &str, complete: bool| json!({"id": "a1", "task": task, "status": "27%", "complete": complete});
        h.own_progress(&rule, &report("Importing Maven project(s)", false));
        assert_eq!(
            h.readiness(later, settle),
            Readiness::Indexing("Importing Maven project(s)".into())
        );
        // A later report of the same task is the same work, under its new title.
        h.own_progress(&rule, &report("Configuring java project shop", false));
        assert_eq!(
            h.readiness(later, settle),
            Readiness::Indexing("Configuring java project shop".into())
        );
        assert!(!h.analysed);
        // A task that is reported done at once is no work at all.
        let other = json!({"id": "b2", "task": "Building", "complete": true});
        h.own_progress(&rule, &other);
        assert!(matches!(h.readiness(later, settle), Readiness::Indexing(_)));
        h.own_progress(&rule, &report("Creating link.", true));
        assert_eq!(h.readiness(later, settle), Readiness::Ready);
        assert!(h.analysed);
        // Neither work begun nor activity: a task begun and done while a request runs
        // (the request's own search) leaves its answer complete.
        assert_eq!((h.busy_epoch, h.last_activity), (0, t0));
        // Without the id field the notification says nothing about a task.
        h.own_progress(&rule, &json!({"task": "x", "complete": false}));
        assert_eq!(h.readiness(later, settle), Readiness::Ready);
    }

    #[test]
    fn readiness_needs_quiet() {
        let t0 = Instant::now();
        let mut h = Health {
            initialized: true,
            ..Health::started(t0)
        };
        let settle = Duration::from_millis(300);
        assert!(matches!(h.readiness(t0, settle), Readiness::Settling(_)));
        assert_eq!(h.readiness(t0 + settle, settle), Readiness::Ready);
        h.progress.insert("1".into(), "Indexing".into());
        assert_eq!(
            h.readiness(t0 + settle, settle),
            Readiness::Indexing("Indexing".into())
        );
        h.progress.clear();
        h.quiescent = Some(false);
        assert!(matches!(
            h.readiness(t0 + settle, settle),
            Readiness::Indexing(_)
        ));
        h.alive = false;
        assert_eq!(h.readiness(t0 + settle, settle), Readiness::Dead);
    }
}
