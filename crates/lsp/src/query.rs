//! One request, from a caller's point of view: start the server if needed, sync the
//! document, wait for readiness, ask, and judge the answer.
//!
//! The readiness rule: the query waits until the server is ready (no `$/progress` active,
//! not non-quiescent, quiet for the settle time) for up to two thirds of its deadline,
//! then asks anyway. An answer counts as complete only when the server was ready before
//! and after, with no work begun in between (`busy_epoch`). A non-empty answer otherwise is
//! asked for once more when the server becomes ready within two thirds of the deadline
//! (typescript-language-server holds a query while its project loads, then answers from
//! part of it), else returned flagged incomplete; an empty one is never "no results":
//! - from a busy server, the query waits for readiness and asks again, and at the deadline
//!   fails with `NotReady`;
//! - from an idle server that has shown no evidence of having analysed its project
//!   ([`Health::analysed`](crate::client::Health::analysed): diagnostics, a progress end,
//!   `quiescent`, a non-empty project-wide answer such as references), the query asks again with backoff (at once when
//!   evidence arrives) while the server is younger than `cold_wait`, within two thirds of
//!   the deadline; still empty after that, the answer is returned flagged incomplete with
//!   a warning. Some servers (pyright) answer `[]` before their program is loaded and
//!   report no progress while loading it.
//!
//! A question the server cancels (`ContentModified`, `ServerCancelled`, `RequestCancelled`:
//! rust-analyzer cancels every query while its workspace loads) is asked again once the
//! server is ready (after a short pause when it already is); still cancelled at the
//! deadline, the query fails with `NotReady`, never with the server's error (which would
//! read as a failure).
//!
//! A server that said it could not set the project up (its manifest's
//! `[[lsp.setup_failures]]` matched one of its error messages or error diagnostics) gets
//! every answer marked incomplete with the manifest's reason as a warning, and an empty
//! answer from it is [`LspError::CannotServe`] (the callers answer from the map): jdtls
//! whose Maven import failed answers `[]` from an idle, "analysed" server.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::client::{
    CONTENT_MODIFIED, Client, INTERNAL_ERROR, REQUEST_CANCELLED, Readiness, RequestError,
    SERVER_CANCELLED,
};
use crate::error::{LspError, Result};
use crate::health::Unservable;
use crate::pool::{LspPool, STDERR_TAIL, Slot, lock};

/// Retries of an empty answer from a cold server: the first pause, and the longest.
const COLD_BACKOFF_START: Duration = Duration::from_millis(200);
const COLD_BACKOFF_MAX: Duration = Duration::from_secs(2);

const COLD_WARNING: &str = "the language server has shown no sign yet of having analysed the project \
(no diagnostics, no progress, no non-empty answer): this empty answer may only mean it is still loading";

/// Which deadline applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deadline {
    /// Most requests ([`LspConfig::deadline`](crate::LspConfig::deadline), 15 s).
    Normal,
    /// References, workspace symbols, call hierarchy
    /// ([`LspConfig::long_deadline`](crate::LspConfig::long_deadline), 30 s).
    Long,
}

tokio::task_local! {
    /// The deadline of the whole call a request is part of ([`LspPool::within`]).
    static CALL_DEADLINE: (tokio::time::Instant, Duration);
}

/// A capability the request needs, checked once the server is up.
pub(crate) type Capability = (&'static str, fn(&lsp_types::ServerCapabilities) -> bool);

pub(crate) struct Request<'a> {
    pub method: &'static str,
    pub params: Value,
    /// The document to sync first (position queries).
    pub file: Option<&'a Path>,
    pub deadline: Deadline,
    pub capability: Option<Capability>,
    /// Open some document of the server's languages first (workspace queries).
    pub needs_project: bool,
}

pub(crate) struct Raw {
    pub value: Value,
    pub complete: bool,
    pub warnings: Vec<String>,
    /// From sending the final request to its answer.
    pub server_time: Duration,
}

/// Whether a non-empty answer to `method` shows that the server has loaded its project.
/// Answers about one document (its outline, a hover, a definition in the same file) come
/// from that document alone: pyright answers them before it knows the other files, and
/// would then answer `references` with a silent `[]`. Only project-wide answers count.
fn answers_from_the_project(method: &str) -> bool {
    matches!(
        method,
        "textDocument/references"
            | "textDocument/implementation"
            | "workspace/symbol"
            | "callHierarchy/incomingCalls"
    )
}

/// An answer that says nothing: `null`, `[]`, or a hover without contents.
pub(crate) fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.get("contents").is_some_and(|c| match c {
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Object(m) => m.get("value").and_then(Value::as_str) == Some(""),
            _ => false,
        }),
        _ => false,
    }
}

/// Waits until the client is ready or `until`; returns whether it is ready.
async fn wait_ready(client: &Client, until: tokio::time::Instant, settle: Duration) -> bool {
    let mut rx = client.subscribe();
    loop {
        let readiness = rx.borrow_and_update().readiness(Instant::now(), settle);
        let pause = match readiness {
            Readiness::Ready => return true,
            Readiness::Dead => return false,
            Readiness::Settling(left) => left,
            // Progress ends are notified; the poll is a safety net.
            _ => Duration::from_millis(250),
        };
        let wake = (tokio::time::Instant::now() + pause).min(until);
        if tokio::time::Instant::now() >= until {
            return false;
        }
        tokio::select! {
            _ = rx.changed() => {}
            _ = tokio::time::sleep_until(wake) => {}
        }
    }
}

/// Waits until the client shows evidence of analysis (or dies), or `until`.
async fn wait_analysed(client: &Client, until: tokio::time::Instant) {
    let mut rx = client.subscribe();
    loop {
        {
            let h = rx.borrow_and_update();
            if h.analysed || !h.alive {
                return;
            }
        }
        tokio::select! {
            changed = rx.changed() => if changed.is_err() { return },
            _ = tokio::time::sleep_until(until) => return,
        }
    }
}

fn detail(client: &Client, settle: Duration) -> String {
    match client.health().readiness(Instant::now(), settle) {
        Readiness::Indexing(what) => format!("indexing ({what})"),
        Readiness::Starting => "starting".into(),
        Readiness::Settling(_) => "settling".into(),
        Readiness::Dead => "restarting".into(),
        Readiness::Ready => "not ready".into(),
    }
}

/// The manifest's `[[lsp.failure_hints]]` entry whose pattern the server's stderr tail
/// (which holds its error and warning messages too) contains: the server cannot serve
/// this project, and says why. Remembered for the process ([`crate::health`]), so the
/// next queries are answered at once.
fn known_failure(slot: &Slot, client: &crate::client::Client) -> Option<LspError> {
    let (reason, evidence) = failure_hint(slot, client)?;
    *lock(&slot.unservable) = Some(Unservable {
        pid: client.pid,
        reason: reason.clone(),
        evidence: evidence.clone(),
        since: Instant::now(),
    });
    Some(LspError::CannotServe { reason, evidence })
}

fn failure_hint(slot: &Slot, client: &crate::client::Client) -> Option<(String, Vec<String>)> {
    let hints = &slot.language.manifest.lsp.as_ref()?.failure_hints;
    if hints.is_empty() {
        return None;
    }
    let tail = client.stderr_tail(usize::MAX);
    let hint = hints.iter().find(|h| {
        h.patterns
            .iter()
            .any(|p| tail.iter().any(|line| line.contains(p.as_str())))
    })?;
    let evidence: Vec<String> = tail
        .iter()
        .filter(|l| hint.patterns.iter().any(|p| l.contains(p.as_str())))
        .take(3)
        .cloned()
        .collect();
    Some((hint.reason.clone(), evidence))
}

impl LspPool {
    /// The configured length of a deadline.
    pub fn deadline_of(&self, which: Deadline) -> Duration {
        match which {
            Deadline::Normal => self.inner.config.deadline,
            Deadline::Long => self.inner.config.long_deadline,
        }
    }

    /// Runs `f` (one tool call, which may ask several questions: a `nodeId`'s outline,
    /// then the tool's own query) under one deadline of kind `which`, starting now. Each
    /// request inside gets what is left of it, never a fresh deadline of its own: the
    /// documented deadline is the call's, not each request's (a frozen server used to
    /// cost 15 s for the outline *plus* 30 s for the references).
    pub async fn within<F: std::future::Future>(&self, which: Deadline, f: F) -> F::Output {
        let total = self.deadline_of(which);
        CALL_DEADLINE
            .scope((tokio::time::Instant::now() + total, total), f)
            .await
    }

    /// The deadline of a request of kind `which` starting now, and the length it is
    /// reported as: the request's own, or what is left of the call's when that is sooner.
    pub(crate) fn request_deadline(&self, which: Deadline) -> (tokio::time::Instant, Duration) {
        let total = self.deadline_of(which);
        let own = tokio::time::Instant::now() + total;
        match CALL_DEADLINE.try_with(|d| *d) {
            Ok((call, call_total)) if call < own => (call, call_total),
            _ => (own, total),
        }
    }

    /// Runs `f` under the current call's deadline, if any: for work moved to another
    /// task (task-locals do not follow `tokio::spawn`).
    pub(crate) fn keep_call_deadline<F: std::future::Future>(
        f: F,
    ) -> impl std::future::Future<Output = F::Output> {
        let call = CALL_DEADLINE.try_with(|d| *d).ok();
        async move {
            match call {
                Some(d) => CALL_DEADLINE.scope(d, f).await,
                None => f.await,
            }
        }
    }

    pub(crate) async fn run(&self, slot: &Arc<Slot>, req: Request<'_>) -> Result<Raw> {
        let config = &self.inner.config;
        let started = Instant::now();
        let (deadline, total) = self.request_deadline(req.deadline);
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            // The call's deadline was spent on an earlier question of the same call.
            return Err(LspError::Timeout {
                method: req.method.to_string(),
                after: total,
            });
        }
        // A server that said it cannot serve this project is taken at its word for a
        // while: at once, not after the 20–40 s its failure takes.
        let unservable = lock(&slot.unservable).clone();
        if let Some(u) = unservable {
            match slot.current().filter(|c| c.alive() && c.pid == u.pid) {
                Some(_) if u.since.elapsed() < config.unservable_retry => {
                    return Err(LspError::CannotServe {
                        reason: u.reason,
                        evidence: u.evidence,
                    });
                }
                Some(c) => {
                    self.restart(slot, &c, "asking again whether it can serve the project")
                        .await
                }
                None => *lock(&slot.unservable) = None,
            }
        }
        // Leave a third of the deadline for the request itself.
        let ready_by = tokio::time::Instant::now() + left * 2 / 3;
        // Why the server was restarted during this query (it was wedged on the method).
        let mut restarted: Option<String> = None;
        let settle = config.settle;
        let mut crash_retried = false;
        let mut cold_backoff = COLD_BACKOFF_START;
        // A non-empty answer given while the server was busy, kept while asking again.
        let mut held: Option<Raw> = None;
        // What the server said about setting the project up, as of its last answer.
        let mut setup_failure: Option<String> = None;
        slot.touch();
        let result: Result<Raw> = loop {
            let client = match self.ensure(slot, deadline, started).await {
                Ok(c) => c,
                Err(e) => break Err(e),
            };
            if let Some((name, has)) = req.capability {
                let caps = client.capabilities().unwrap_or_default();
                if !has(&caps) {
                    return Err(LspError::NoCapability { capability: name });
                }
            }
            if let Some(file) = req.file
                && let Err(e) = self.sync_document(slot, &client, file)
            {
                break Err(e);
            }
            self.sync_open_documents(slot, &client, req.file);
            if req.file.is_none() && req.needs_project && self.open_any_document(slot, &client) {
                // The server loads a project on its first document: let it start.
                client.mark_activity();
            }
            // Settling (no work reported, but recently active) is good enough to trust a
            // non-empty answer; an empty one is held to `Ready` below.
            let ready_before = wait_ready(&client, ready_by, settle).await
                || matches!(
                    client.health().readiness(Instant::now(), settle),
                    Readiness::Settling(_)
                );
            let epoch = client.health().busy_epoch;
            let sent = Instant::now();
            let reply = client
                .request(req.method, Some(req.params.clone()), deadline)
                .await;
            let server_time = sent.elapsed();
            setup_failure = client.health().setup_failure;
            if reply.is_ok() {
                lock(&slot.methods).answered(client.pid, req.method);
            }
            match reply {
                Ok(value) => {
                    let empty = is_empty(&value);
                    if !empty && answers_from_the_project(req.method) {
                        client.mark_analysed();
                    }
                    let health = client.health();
                    let now = health.readiness(Instant::now(), settle);
                    let steady = ready_before && health.busy_epoch == epoch;
                    if !empty {
                        // A non-empty answer is trusted unless work is under way.
                        let clean =
                            steady && !matches!(now, Readiness::Indexing(_) | Readiness::Starting);
                        if clean {
                            break Ok(Raw {
                                value,
                                complete: true,
                                warnings: Vec::new(),
                                server_time,
                            });
                        }
                        let raw = Raw {
                            value,
                            complete: false,
                            server_time,
                            warnings: vec![format!(
                                "the language server was still {} when it answered: results may be incomplete",
                                detail(&client, settle)
                            )],
                        };
                        // Work began while it answered (typescript-language-server holds
                        // a query while its project loads, then answers from part of
                        // it): once, if time allows, wait until it is done and ask again.
                        if held.is_none() && wait_ready(&client, ready_by, settle).await {
                            held = Some(raw);
                            continue;
                        }
                        break Ok(raw);
                    }
                    // An empty one only from a server that is fully ready (not even
                    // settling after a `workDoneProgress/create` whose `begin` may still
                    // be in flight) and has shown it analysed its project.
                    if steady && now == Readiness::Ready {
                        if health.analysed {
                            break Ok(Raw {
                                value,
                                complete: true,
                                warnings: Vec::new(),
                                server_time,
                            });
                        }
                        // Idle, yet no sign of analysis: a cold server answering before
                        // its project is loaded, silently. Ask again with backoff, sooner
                        // if evidence arrives, while the server is young.
                        let limit = (tokio::time::Instant::from_std(client.started)
                            + config.cold_wait)
                            .min(ready_by);
                        if tokio::time::Instant::now() < limit {
                            let until = (tokio::time::Instant::now() + cold_backoff).min(limit);
                            cold_backoff = (cold_backoff * 2).min(COLD_BACKOFF_MAX);
                            wait_analysed(&client, until).await;
                            continue;
                        }
                        break Ok(Raw {
                            value,
                            complete: false,
                            server_time,
                            warnings: vec![COLD_WARNING.to_string()],
                        });
                    }
                    // Asked again after a busy answer, and busy again: keep the first.
                    if let Some(raw) = held.take() {
                        break Ok(raw);
                    }
                    // Empty from a busy server: not an answer. Wait and ask again.
                    if !wait_ready(&client, deadline, settle).await {
                        break Err(LspError::NotReady {
                            detail: detail(&client, settle),
                            waited: started.elapsed(),
                        });
                    }
                }
                Err(RequestError::Rpc { code, message }) => {
                    if matches!(
                        code,
                        CONTENT_MODIFIED | SERVER_CANCELLED | REQUEST_CANCELLED
                    ) {
                        // The server dropped the question because its state moved under
                        // it (rust-analyzer cancels every query while its workspace loads,
                        // for as long as that takes on a loaded machine): not an answer
                        // and not a failure. Ask again once it is ready; still cancelled
                        // at the deadline, it is not ready, and the answer says so.
                        let retry_by = deadline
                            .checked_sub(Duration::from_millis(100))
                            .unwrap_or(deadline);
                        let ready = match client.health().readiness(Instant::now(), settle) {
                            Readiness::Ready => {
                                tokio::time::sleep(Duration::from_millis(100)).await;
                                true
                            }
                            _ => wait_ready(&client, retry_by, settle).await,
                        };
                        if ready && tokio::time::Instant::now() < retry_by {
                            continue;
                        }
                        break Err(LspError::NotReady {
                            detail: format!(
                                "{} (it cancelled the question: {message})",
                                detail(&client, settle)
                            ),
                            waited: started.elapsed(),
                        });
                    }
                    // A failure the manifest knows to be the machine's (a toolchain too
                    // old for the project): say so rather than "retry".
                    if let Some(e) = known_failure(slot, &client) {
                        break Err(e);
                    }
                    if code != INTERNAL_ERROR {
                        // A refusal (bad position, nothing there) is an answer.
                        lock(&slot.methods).answered(client.pid, req.method);
                        break Err(LspError::Server { code, message });
                    }
                    let wedged = lock(&slot.methods).internal_error(
                        client.pid,
                        req.method,
                        &message,
                        config.method_failures,
                    );
                    let Some(why) = wedged else {
                        break Err(LspError::Server { code, message });
                    };
                    // Wedged on this method: a fresh process, and one more try on it.
                    self.restart(slot, &client, &why).await;
                    if restarted.is_none()
                        && tokio::time::Instant::now() + Duration::from_millis(100) < deadline
                    {
                        restarted = Some(why);
                        continue;
                    }
                    break Err(LspError::Failed {
                        reason: format!("{why}; navmap restarted it: ask again"),
                        stderr_tail: lock(&slot.stderr_tail).clone(),
                    });
                }
                Err(RequestError::Timeout) => {
                    if let Some(e) = known_failure(slot, &client) {
                        break Err(e);
                    }
                    let wedged = lock(&slot.methods).timed_out(client.pid, req.method, total);
                    if let Some(why) = wedged {
                        self.restart(slot, &client, &why).await;
                        break Err(LspError::Failed {
                            reason: format!(
                                "{} got no answer within {}s: {why}; navmap restarted it: ask again",
                                req.method,
                                total.as_secs()
                            ),
                            stderr_tail: lock(&slot.stderr_tail).clone(),
                        });
                    }
                    break Err(LspError::Timeout {
                        method: req.method.to_string(),
                        after: total,
                    });
                }
                Err(RequestError::Died) => {
                    // One transparent retry on a fresh server, if time allows.
                    if !crash_retried && tokio::time::Instant::now() < deadline {
                        crash_retried = true;
                        continue;
                    }
                    break Err(LspError::Failed {
                        reason: format!(
                            "the server died during {} ({})",
                            req.method,
                            client.health().exit.unwrap_or_else(|| "exited".into())
                        ),
                        stderr_tail: client.final_stderr_tail(STDERR_TAIL).await,
                    });
                }
            }
        };
        slot.touch();
        let mut raw = match (result, held) {
            (Ok(raw), _) => raw,
            // The first, busy answer beats an error met while hoping for a better one.
            (Err(_), Some(raw)) => raw,
            (Err(e), None) => return Err(e),
        };
        // A server that could not set the project up answers from part of it, or from
        // nothing, without saying so in the answer: say it for the server.
        if let Some(reason) = setup_failure {
            // Nothing, from a server that could not set the project up, is not an
            // answer (jdtls after a failed import answers `[]` to everything): the
            // caller gives the map's answer instead.
            if is_empty(&raw.value) {
                return Err(LspError::CannotServe {
                    reason,
                    evidence: Vec::new(),
                });
            }
            raw.complete = false;
            raw.warnings.push(reason);
        }
        if let Some(why) = restarted {
            raw.warnings.push(format!(
                "navmap restarted the language server before this answer: {why}"
            ));
        }
        Ok(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_answers() {
        assert!(is_empty(&json!(null)));
        assert!(is_empty(&json!([])));
        assert!(is_empty(&json!({"contents": ""})));
        assert!(is_empty(
            &json!({"contents": {"kind": "markdown", "value": ""}})
        ));
        assert!(!is_empty(&json!({"contents": "int"})));
        assert!(!is_empty(&json!([{"uri": "file:///a"}])));
    }
}
