//! A small language server that misbehaves on request, for navmap's fault tests.
//!
//! It is a real LSP server (tower-lsp) with a toy notion of code: the *definition* of the
//! word under the cursor is its first whole-word occurrence in the document, its
//! *references* are all occurrences in the open documents, the *outline* lists lines of
//! the form `fn NAME` as flat `SymbolInformation`, and *workspace symbols* are the `fn`
//! lines of the open documents whose name contains the query. Behaviour is chosen by
//! environment:
//!
//! | variable | effect |
//! |---|---|
//! | `FAKE_LSP_STATE` | a directory for counters and logs (`log`: methods received, `cancelled`: cancelled requests, `crashes`) |
//! | `FAKE_LSP_CRASH_TIMES=N` | exit(1) on a definition request while fewer than N crashes were recorded |
//! | `FAKE_LSP_HANG=1` | definition never answers (a cancelled one is recorded) |
//! | `FAKE_LSP_NO_CALL_HIERARCHY=1` | no `callHierarchyProvider` |
//! | `FAKE_LSP_STDERR_BYTES=N` | write N bytes of log lines to stderr at startup |
//! | `FAKE_LSP_PROGRESS_MS=N` | report `$/progress` for N ms after `initialized`; answer `[]` meanwhile |
//! | `FAKE_LSP_COLD_MS=N` | for N ms after `initialized`, answer `[]` to definition, references and workspace symbols, reporting no progress (like pyright before its program is loaded) |
//! | `FAKE_LSP_DIAGNOSTICS=1` | publish (empty) diagnostics for each opened or changed document, once no longer cold |
//! | `FAKE_LSP_GARBAGE=1` | print non-protocol lines to stdout before serving and while initializing |
//! | `FAKE_LSP_HANG_METHODS=m1,m2` | these methods (`textDocument/references`, `textDocument/documentSymbol`, …) never answer |
//! | `FAKE_LSP_WEDGE=method` | the first process answers `method` with an internal error (-32603, "this._token.cancel is not a function", as pyright after a cancel); later ones answer |
//! | `FAKE_LSP_CONTENT_MODIFIED_MS=N` | the first definition request starts N ms of work (`$/progress`) and is answered with error -32801 "content modified", as is every one during that work (rust-analyzer cancels queries so while its workspace loads) |
//! | `FAKE_LSP_LOAD_ERROR=text` | cannot load the project (as gopls on a module needing a newer Go): says `text` in a `window/showMessage` error and on stderr, and answers every query with an error `text` after `FAKE_LSP_LOAD_ERROR_MS` (default 0) |

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::RwLock;
use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types::*;
use tower_lsp::{Client, LanguageServer, LspService, Server};

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn env_num(name: &str) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn state_file(name: &str) -> Option<PathBuf> {
    std::env::var_os("FAKE_LSP_STATE").map(|d| PathBuf::from(d).join(name))
}

fn append(name: &str, line: &str) {
    if let Some(path) = state_file(name)
        && let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    {
        let _ = writeln!(f, "{line}");
    }
}

fn count(name: &str) -> usize {
    state_file(name)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

/// Records a request future dropped before it finished: tower-lsp drops it on
/// `$/cancelRequest`.
struct CancelGuard {
    method: &'static str,
    done: bool,
}

impl Drop for CancelGuard {
    fn drop(&mut self) {
        if !self.done {
            append("cancelled", self.method);
        }
    }
}

/// The faults a query method may have to show (`FAKE_LSP_HANG_METHODS`, `FAKE_LSP_WEDGE`,
/// `FAKE_LSP_LOAD_ERROR`): an error to answer, or a hang.
async fn fault(method: &str) -> Result<()> {
    let hangs = std::env::var("FAKE_LSP_HANG_METHODS").unwrap_or_default();
    if hangs.split(',').any(|m| m.trim() == method) {
        append("log", &format!("hang {method}"));
        let _guard = CancelGuard {
            method: "hang",
            done: false,
        };
        std::future::pending::<()>().await;
    }
    if std::env::var("FAKE_LSP_WEDGE").is_ok_and(|m| m == method) && count("starts") <= 1 {
        append("log", &format!("wedged {method}"));
        return Err(tower_lsp::jsonrpc::Error {
            code: tower_lsp::jsonrpc::ErrorCode::InternalError,
            message: "Request textDocument/references failed with message: this._token.cancel is not a function".into(),
            data: None,
        });
    }
    if let Ok(text) = std::env::var("FAKE_LSP_LOAD_ERROR") {
        append("log", &format!("load error {method}"));
        tokio::time::sleep(Duration::from_millis(env_num("FAKE_LSP_LOAD_ERROR_MS"))).await;
        return Err(tower_lsp::jsonrpc::Error {
            code: tower_lsp::jsonrpc::ErrorCode::InternalError,
            message: format!("no package metadata for file: {text}").into(),
            data: None,
        });
    }
    Ok(())
}

/// `$/progress` "Indexing" for `ms` milliseconds, ended when `busy` falls.
async fn work_for(client: Client, busy: Arc<AtomicBool>, ms: u64) {
    let token = begin_work(&client).await;
    end_work_after(client, busy, token, ms).await;
}

/// Ends the work of `token` after `ms`: `busy` falls, then the `end` is sent.
async fn end_work_after(client: Client, busy: Arc<AtomicBool>, token: NumberOrString, ms: u64) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    busy.store(false, Ordering::SeqCst);
    client
        .send_notification::<notification::Progress>(ProgressParams {
            token,
            value: ProgressParamsValue::WorkDone(WorkDoneProgress::End(WorkDoneProgressEnd {
                message: None,
            })),
        })
        .await;
}

/// Creates the progress token and sends its `begin`.
async fn begin_work(client: &Client) -> NumberOrString {
    let token = NumberOrString::String("fake-indexing".into());
    let _ = client
        .send_request::<request::WorkDoneProgressCreate>(WorkDoneProgressCreateParams {
            token: token.clone(),
        })
        .await;
    client
        .send_notification::<notification::Progress>(ProgressParams {
            token: token.clone(),
            value: ProgressParamsValue::WorkDone(WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title: "Indexing".into(),
                ..Default::default()
            })),
        })
        .await;
    token
}

struct Backend {
    client: Client,
    docs: RwLock<HashMap<Url, String>>,
    busy: Arc<AtomicBool>,
    /// Until when the server answers empty without saying why (`FAKE_LSP_COLD_MS`).
    cold_until: std::sync::Mutex<Option<Instant>>,
    /// Whether a definition request has started the work of `FAKE_LSP_CONTENT_MODIFIED_MS`.
    load_started: AtomicBool,
}

fn word_at(text: &str, pos: Position) -> Option<String> {
    let line = text.lines().nth(pos.line as usize)?;
    let units: Vec<u16> = line.encode_utf16().collect();
    let is_word =
        |u: u16| char::from_u32(u as u32).is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut start = (pos.character as usize).min(units.len());
    let mut end = start;
    while start > 0 && is_word(units[start - 1]) {
        start -= 1;
    }
    while end < units.len() && is_word(units[end]) {
        end += 1;
    }
    (end > start).then(|| String::from_utf16_lossy(&units[start..end]))
}

fn occurrences(text: &str, word: &str) -> Vec<Range> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let units: Vec<u16> = line.encode_utf16().collect();
        let w: Vec<u16> = word.encode_utf16().collect();
        let is_word =
            |u: u16| char::from_u32(u as u32).is_some_and(|c| c.is_alphanumeric() || c == '_');
        let mut i = 0;
        while i + w.len() <= units.len() {
            if units[i..i + w.len()] == w[..]
                && (i == 0 || !is_word(units[i - 1]))
                && (i + w.len() == units.len() || !is_word(units[i + w.len()]))
            {
                out.push(Range::new(
                    Position::new(n as u32, i as u32),
                    Position::new(n as u32, (i + w.len()) as u32),
                ));
                i += w.len();
            } else {
                i += 1;
            }
        }
    }
    out
}

impl Backend {
    fn cold_left(&self) -> Option<Duration> {
        let until = (*self.cold_until.lock().unwrap_or_else(|e| e.into_inner()))?;
        let left = until.saturating_duration_since(Instant::now());
        (!left.is_zero()).then_some(left)
    }

    fn cold(&self) -> bool {
        self.cold_left().is_some()
    }

    /// Empty diagnostics for `uri`, once the server is no longer cold.
    fn diagnose(&self, uri: Url) {
        if !env_flag("FAKE_LSP_DIAGNOSTICS") {
            return;
        }
        let client = self.client.clone();
        let wait = self.cold_left().unwrap_or_default();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            client.publish_diagnostics(uri, Vec::new(), None).await;
        });
    }

    async fn word(&self, doc: &TextDocumentPositionParams) -> Option<(String, String)> {
        let docs = self.docs.read().await;
        let text = docs.get(&doc.text_document.uri)?;
        Some((word_at(text, doc.position)?, text.clone()))
    }
}

#[tower_lsp::async_trait]
impl LanguageServer for Backend {
    async fn initialize(&self, _: InitializeParams) -> Result<InitializeResult> {
        append("log", "initialize");
        if env_flag("FAKE_LSP_GARBAGE") {
            // Nothing else is being written while the client awaits this answer.
            let mut out = std::io::stdout();
            let _ = out.write_all(b"fake-lsp: loading plugins...\n\nWARNING something odd\n");
            let _ = out.flush();
        }
        let call_hierarchy = (!env_flag("FAKE_LSP_NO_CALL_HIERARCHY"))
            .then_some(CallHierarchyServerCapability::Simple(true));
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                text_document_sync: Some(TextDocumentSyncCapability::Kind(
                    TextDocumentSyncKind::FULL,
                )),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                call_hierarchy_provider: call_hierarchy,
                workspace_symbol_provider: Some(OneOf::Left(true)),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "fake-lsp".into(),
                version: None,
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        append("log", "initialized");
        if let Ok(text) = std::env::var("FAKE_LSP_LOAD_ERROR") {
            eprintln!("fake-lsp: {text}");
            self.client.show_message(MessageType::ERROR, text).await;
        }
        let cold = env_num("FAKE_LSP_COLD_MS");
        if cold > 0 {
            *self.cold_until.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(Instant::now() + Duration::from_millis(cold));
        }
        let ms = env_num("FAKE_LSP_PROGRESS_MS");
        if ms > 0 {
            self.busy.store(true, Ordering::SeqCst);
            let client = self.client.clone();
            let busy = self.busy.clone();
            tokio::spawn(work_for(client, busy, ms));
        }
    }

    async fn shutdown(&self) -> Result<()> {
        append("log", "shutdown");
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        append("log", &format!("didOpen {}", params.text_document.uri));
        self.diagnose(params.text_document.uri.clone());
        self.docs
            .write()
            .await
            .insert(params.text_document.uri, params.text_document.text);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        append("log", &format!("didChange {}", params.text_document.uri));
        self.diagnose(params.text_document.uri.clone());
        if let Some(change) = params.content_changes.into_iter().last() {
            self.docs
                .write()
                .await
                .insert(params.text_document.uri, change.text);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        append("log", &format!("didClose {}", params.text_document.uri));
        self.docs.write().await.remove(&params.text_document.uri);
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        append("log", "definition");
        fault("textDocument/definition").await?;
        let crash_times = env_num("FAKE_LSP_CRASH_TIMES") as usize;
        if crash_times > 0 && count("crashes") < crash_times {
            append("crashes", "crash");
            eprintln!("fake-lsp: crashing on purpose during a definition request");
            std::process::exit(1);
        }
        let mut guard = CancelGuard {
            method: "textDocument/definition",
            done: false,
        };
        if env_flag("FAKE_LSP_HANG") {
            std::future::pending::<()>().await;
        }
        let load_ms = env_num("FAKE_LSP_CONTENT_MODIFIED_MS");
        if load_ms > 0 && !self.load_started.swap(true, Ordering::SeqCst) {
            // The work is under way (its begin sent) before the cancellation is answered.
            self.busy.store(true, Ordering::SeqCst);
            let token = begin_work(&self.client).await;
            let (client, busy) = (self.client.clone(), self.busy.clone());
            tokio::spawn(end_work_after(client, busy, token, load_ms));
        }
        if load_ms > 0 && self.busy.load(Ordering::SeqCst) {
            guard.done = true;
            append("log", "content modified");
            return Err(tower_lsp::jsonrpc::Error {
                code: tower_lsp::jsonrpc::ErrorCode::ServerError(-32801),
                message: "content modified".into(),
                data: None,
            });
        }
        if self.busy.load(Ordering::SeqCst) || self.cold() {
            // Like rust-analyzer before its workspace is loaded.
            guard.done = true;
            return Ok(Some(GotoDefinitionResponse::Array(Vec::new())));
        }
        let pos = &params.text_document_position_params;
        let answer = self.word(pos).await.and_then(|(word, text)| {
            let first = occurrences(&text, &word).into_iter().next()?;
            Some(GotoDefinitionResponse::Scalar(Location::new(
                pos.text_document.uri.clone(),
                first,
            )))
        });
        guard.done = true;
        Ok(answer)
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        append("log", "references");
        fault("textDocument/references").await?;
        if self.cold() {
            return Ok(Some(Vec::new()));
        }
        let Some((word, _)) = self.word(&params.text_document_position).await else {
            return Ok(None);
        };
        let docs = self.docs.read().await;
        let mut out = Vec::new();
        for (uri, text) in docs.iter() {
            for r in occurrences(text, &word) {
                out.push(Location::new(uri.clone(), r));
            }
        }
        Ok(Some(out))
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<Vec<SymbolInformation>>> {
        append("log", "workspace/symbol");
        fault("workspace/symbol").await?;
        if self.cold() {
            return Ok(Some(Vec::new()));
        }
        let docs = self.docs.read().await;
        let mut out = Vec::new();
        for (uri, text) in docs.iter() {
            for (n, line) in text.lines().enumerate() {
                let Some(rest) = line.trim_start().strip_prefix("fn ") else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.contains(&params.query) {
                    continue;
                }
                let col = (line.len() - line.trim_start().len() + 3) as u32;
                #[allow(deprecated)]
                out.push(SymbolInformation {
                    name: name.clone(),
                    kind: SymbolKind::FUNCTION,
                    tags: None,
                    deprecated: None,
                    location: Location::new(
                        uri.clone(),
                        Range::new(
                            Position::new(n as u32, col),
                            Position::new(n as u32, col + name.encode_utf16().count() as u32),
                        ),
                    ),
                    container_name: None,
                });
            }
        }
        Ok(Some(out))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        fault("textDocument/hover").await?;
        Ok(self
            .word(&params.text_document_position_params)
            .await
            .map(|(word, _)| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: format!("`{word}`"),
                }),
                range: None,
            }))
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        append("log", "documentSymbol");
        fault("textDocument/documentSymbol").await?;
        let docs = self.docs.read().await;
        let Some(text) = docs.get(&params.text_document.uri) else {
            return Ok(None);
        };
        // A function runs from its `fn NAME` line to the line before the next one.
        let lines: Vec<&str> = text.lines().collect();
        let starts: Vec<(usize, String)> = lines
            .iter()
            .enumerate()
            .filter_map(|(n, line)| {
                let name = line.trim_start().strip_prefix("fn ")?;
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                Some((n, name))
            })
            .collect();
        #[allow(deprecated)]
        let flat = starts
            .iter()
            .enumerate()
            .map(|(i, (n, name))| {
                let last = starts
                    .get(i + 1)
                    .map(|(m, _)| m - 1)
                    .unwrap_or(lines.len() - 1);
                SymbolInformation {
                    name: name.clone(),
                    kind: SymbolKind::FUNCTION,
                    tags: None,
                    deprecated: None,
                    location: Location::new(
                        params.text_document.uri.clone(),
                        Range::new(
                            Position::new(*n as u32, 0),
                            Position::new(last as u32, lines[last].encode_utf16().count() as u32),
                        ),
                    ),
                    container_name: None,
                }
            })
            .collect();
        Ok(Some(DocumentSymbolResponse::Flat(flat)))
    }

    async fn prepare_call_hierarchy(
        &self,
        params: CallHierarchyPrepareParams,
    ) -> Result<Option<Vec<CallHierarchyItem>>> {
        fault("textDocument/prepareCallHierarchy").await?;
        let pos = &params.text_document_position_params;
        let Some((word, _)) = self.word(pos).await else {
            return Ok(None);
        };
        let range = Range::new(pos.position, pos.position);
        Ok(Some(vec![CallHierarchyItem {
            name: word,
            kind: SymbolKind::FUNCTION,
            tags: None,
            detail: None,
            uri: pos.text_document.uri.clone(),
            range,
            selection_range: range,
            data: None,
        }]))
    }

    async fn incoming_calls(
        &self,
        _: CallHierarchyIncomingCallsParams,
    ) -> Result<Option<Vec<CallHierarchyIncomingCall>>> {
        Ok(Some(Vec::new()))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    append("log", "start");
    append("starts", "start");
    let stderr_bytes = env_num("FAKE_LSP_STDERR_BYTES");
    if stderr_bytes > 0 {
        let line = format!("{}\n", "fake-lsp log line ".repeat(6));
        let mut err = std::io::stderr().lock();
        let mut written = 0u64;
        while written < stderr_bytes {
            if err.write_all(line.as_bytes()).is_err() {
                break;
            }
            written += line.len() as u64;
        }
        let _ = writeln!(err, "fake-lsp: last stderr line");
    }
    if env_flag("FAKE_LSP_GARBAGE") {
        let mut out = std::io::stdout();
        let _ = out.write_all(b"fake-lsp 0.0 starting (this is not a protocol frame)\n");
        let _ = out.flush();
    }
    let (service, socket) = LspService::new(|client| Backend {
        client,
        docs: RwLock::new(HashMap::new()),
        busy: Arc::new(AtomicBool::new(false)),
        cold_until: std::sync::Mutex::new(None),
        load_started: AtomicBool::new(false),
    });
    Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
        .serve(service)
        .await;
}
