//! What can go wrong with a language-server query. The server crate maps each variant to
//! a contract error code (`LSP_UNAVAILABLE`, `LSP_NOT_READY`, `LSP_FAILED`, `LSP_TIMEOUT`).

use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum LspError {
    /// The file's language has no `[lsp]` in its manifest, or no language claims the file.
    #[error("no language server is configured for {what}")]
    NoServer { what: String },
    /// The server binary is not installed (looked for again after a minute).
    #[error("language server `{command}` is not installed")]
    Unavailable {
        command: String,
        install_hint: String,
    },
    /// The server is still starting or indexing at the deadline, and had nothing to say.
    #[error("language server still {detail} after {waited:?}")]
    NotReady { detail: String, waited: Duration },
    /// The server crashed repeatedly (failed for the session), crashed during this request
    /// with no time left to retry, or broke the protocol.
    #[error("language server failed: {reason}")]
    Failed {
        reason: String,
        stderr_tail: Vec<String>,
    },
    /// The server said it cannot serve this project (its manifest's
    /// `[[lsp.failure_hints]]` matched what it said, or it failed to start twice): `reason`
    /// says why and what would fix it; `evidence` holds the server's own lines. Answered at
    /// once until the server is asked again ([`crate::health`]).
    #[error("language server cannot serve this project: {reason}")]
    CannotServe {
        reason: String,
        evidence: Vec<String>,
    },
    /// The request got no answer by its deadline; it was cancelled (`$/cancelRequest`).
    #[error("{method} got no answer within {after:?}")]
    Timeout { method: String, after: Duration },
    /// The server does not offer what the request needs (`implementationProvider`, …).
    #[error("the language server lacks the {capability} capability")]
    NoCapability { capability: &'static str },
    /// The server answered with a JSON-RPC error.
    #[error("language server error {code}: {message}")]
    Server { code: i64, message: String },
    /// Reading the document to sync it, or talking to the process.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl LspError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        LspError::Io {
            context: context.into(),
            source,
        }
    }
}

pub type Result<T, E = LspError> = std::result::Result<T, E>;
