//! `navmap serve --http ADDR`: MCP over rmcp's streamable HTTP server transport, so that
//! several agents share one navmap — one map, one [`Engine`], one `LspPool` (one language
//! server per language for all of them).
//!
//! Every MCP session gets its own [`NavmapServer`], and every one of them holds the same
//! `Arc<Engine>`: what a session does not share is only its protocol state.
//!
//! **Where it listens.** A loopback address (127.0.0.1, ::1, `localhost`) is the default
//! and needs nothing more. Any other address exposes the repository's code to the network,
//! so it is refused unless the command line says so twice: `--allow-remote` *and* a token
//! (`--token` or `NAVMAP_HTTP_TOKEN`). With a token, every request without
//! `Authorization: Bearer <token>` is answered 401 before it reaches MCP. rmcp's own
//! Host-header check (against DNS rebinding) stays on for loopback; a remote bind accepts
//! any Host, the token being the guard.
//!
//! The endpoint is `http://ADDR/mcp`; the address actually bound (port 0 picks a free
//! one) is printed on stderr. SIGINT or SIGTERM ends the server; the caller then shuts the
//! language servers down.

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::Engine;
use crate::mcp::NavmapServer;

/// The path of the MCP endpoint.
pub const ENDPOINT: &str = "/mcp";

/// The environment variable a token may come from instead of `--token` (a command line
/// is visible to every user of the machine in `ps`).
pub const TOKEN_ENV: &str = "NAVMAP_HTTP_TOKEN";

/// How `serve --http` was asked to listen.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// `HOST:PORT` as given.
    pub addr: String,
    /// `--allow-remote`: a non-loopback address may be bound (with a token).
    pub allow_remote: bool,
    /// The bearer token every request must carry, if any.
    pub token: Option<String>,
}

/// Where to bind, after the checks of the module docs; the error is one line for stderr.
pub fn bind_address(opts: &HttpOptions) -> Result<SocketAddr, String> {
    let addrs: Vec<SocketAddr> = opts
        .addr
        .to_socket_addrs()
        .map_err(|e| {
            format!(
                "--http {}: not an address to listen on ({e}); use HOST:PORT, e.g. 127.0.0.1:7800",
                opts.addr
            )
        })?
        .collect();
    let Some(first) = addrs.first().copied() else {
        return Err(format!(
            "--http {}: the name resolves to no address",
            opts.addr
        ));
    };
    if opts.token.as_deref().is_some_and(str::is_empty) {
        return Err(format!(
            "{TOKEN_ENV} / --token is empty: give a token of your own"
        ));
    }
    if addrs.iter().all(|a| a.ip().is_loopback()) {
        return Ok(first);
    }
    match (opts.allow_remote, opts.token.is_some()) {
        (true, true) => Ok(first),
        _ => Err(format!(
            "--http {}: not a loopback address; navmap serves a repository's code, so it \
             listens on 127.0.0.1 or ::1 only, unless you pass --allow-remote and a token \
             (--token or {TOKEN_ENV}); clients then send Authorization: Bearer <token>",
            opts.addr
        )),
    }
}

/// Binds where `opts` says, after [`bind_address`]'s checks; the error is one line for
/// stderr.
pub async fn listen(opts: &HttpOptions) -> Result<TcpListener, String> {
    let addr = bind_address(opts)?;
    TcpListener::bind(addr)
        .await
        .map_err(|e| format!("--http {}: cannot listen on {addr}: {e}", opts.addr))
}

/// Serves MCP over streamable HTTP on `listener` until SIGINT or SIGTERM.
pub async fn serve_http(
    engine: Arc<Engine>,
    listener: TcpListener,
    token: Option<String>,
) -> anyhow::Result<()> {
    let bound = listener.local_addr()?;
    let mut config = StreamableHttpServerConfig::default();
    if !bound.ip().is_loopback() {
        // Clients name the machine by whatever name they reach it with; the token guards.
        config = config.disable_allowed_hosts();
    }
    let stop = config.cancellation_token.clone();
    let service = StreamableHttpService::new(
        move || Ok(NavmapServer::new(engine.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mut router = axum::Router::new().nest_service(ENDPOINT, service);
    if let Some(token) = token {
        let expected: Arc<str> = format!("Bearer {token}").into();
        router = router.layer(axum::middleware::from_fn_with_state(
            expected,
            require_token,
        ));
    }
    eprintln!("navmap: serving MCP over streamable HTTP at http://{bound}{ENDPOINT}");
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            stop_signal().await;
            // Ends the sessions' open event streams, which graceful shutdown waits for.
            stop.cancel();
        })
        .await?;
    Ok(())
}

/// 401 for a request without the bearer token (compared in constant time).
async fn require_token(State(expected): State<Arc<str>>, req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .map(HeaderValue::as_bytes)
        .unwrap_or_default();
    if same_bytes(given, expected.as_bytes()) {
        return next.run(req).await;
    }
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, "Bearer")],
        "navmap: this server needs the header Authorization: Bearer <token>\n",
    )
        .into_response()
}

/// Equality that does not stop at the first differing byte.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => {
            let _ = ctrl_c.await;
            return;
        }
    };
    tokio::select! {
        _ = ctrl_c => {}
        _ = term.recv() => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(addr: &str, allow_remote: bool, token: Option<&str>) -> HttpOptions {
        HttpOptions {
            addr: addr.into(),
            allow_remote,
            token: token.map(Into::into),
        }
    }

    #[test]
    fn loopback_is_bound_without_flags() {
        for a in ["127.0.0.1:0", "[::1]:0", "localhost:0"] {
            assert!(bind_address(&opts(a, false, None)).is_ok(), "{a}");
        }
    }

    #[test]
    fn elsewhere_needs_the_flag_and_a_token() {
        for (allow, token) in [(false, None), (true, None), (false, Some("t"))] {
            let err = bind_address(&opts("0.0.0.0:0", allow, token)).unwrap_err();
            assert!(
                err.contains("--allow-remote") && err.contains("token"),
                "{err}"
            );
        }
        assert!(bind_address(&opts("0.0.0.0:0", true, Some("t"))).is_ok());
        let err = bind_address(&opts("0.0.0.0:0", true, Some(""))).unwrap_err();
        assert!(err.contains("empty"), "{err}");
    }

    #[test]
    fn a_bad_address_says_what_to_give() {
        let err = bind_address(&opts("7800", false, None)).unwrap_err();
        assert!(err.contains("HOST:PORT"), "{err}");
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same_bytes(b"Bearer abc", b"Bearer abc"));
        assert!(!same_bytes(b"Bearer abd", b"Bearer abc"));
        assert!(!same_bytes(b"Bearer ab", b"Bearer abc"));
        assert!(!same_bytes(b"", b"Bearer abc"));
    }
}
