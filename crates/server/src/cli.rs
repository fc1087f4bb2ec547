//! The command line: `navmap serve [--http]`, `navmap status`, `navmap call`, `navmap rebuild`,
//! `navmap servers [install]`, `navmap setup <client>`.
//!
//! Exit codes: 0 success; 1 a tool answered `ok:false`; 2 bad usage or an unusable root
//! (one line on stderr). stdout carries only MCP frames (`serve`), the envelope (`call`,
//! `status --json`) or the human summary (`status`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args as ClapArgs, Parser, Subcommand};
use navmap_envelope::{Budget, ToolError, render_error};
use serde_json::{Map, Value};

use crate::stdout::outln;
use crate::{Engine, ServerContext};

#[derive(Debug, Parser)]
#[command(
    name = "navmap",
    version,
    about = "Code navigation for coding agents: a tree-sitter map plus live language servers, over MCP."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve a repository over MCP on stdin/stdout, or over streamable HTTP with --http
    /// (the map builds in the background).
    Serve {
        #[command(flatten)]
        root: RootArgs,
        /// Serve MCP over streamable HTTP at http://HOST:PORT/mcp instead of stdio: several
        /// agents then share one map and one set of language servers. Loopback only unless
        /// --allow-remote and a token are given.
        #[arg(long, value_name = "HOST:PORT")]
        http: Option<String>,
        /// With --http: allow a non-loopback address (needs a token).
        #[arg(long, requires = "http")]
        allow_remote: bool,
        /// With --http: every request must carry `Authorization: Bearer TOKEN` (also read
        /// from NAVMAP_HTTP_TOKEN, which `ps` does not show).
        #[arg(long, requires = "http", value_name = "TOKEN")]
        token: Option<String>,
        /// Do not start building the map at once (map tools answer MAP_NOT_BUILT until
        /// map_rebuild is called).
        #[arg(long)]
        no_build: bool,
        /// Do not watch the root for changes (the map is refreshed by map_rebuild and at
        /// start-up only).
        #[arg(long)]
        no_watch: bool,
    },
    /// Print the map's status.
    Status {
        #[command(flatten)]
        root: RootArgs,
        /// Print the map_status envelope instead of a summary.
        #[arg(long)]
        json: bool,
    },
    /// Run one tool in-process and print its envelope.
    Call {
        /// Tool name, e.g. map_search.
        tool: String,
        /// Arguments as a JSON object, e.g. '{"query":"Cart"}'.
        #[arg(default_value = "{}")]
        args: String,
        #[command(flatten)]
        root: RootArgs,
    },
    /// Build or refresh the map (incremental unless --full); a progress bar on stderr and
    /// a one-line summary on stdout.
    Rebuild {
        #[command(flatten)]
        root: RootArgs,
        /// Re-index every file, ignoring what is unchanged.
        #[arg(long)]
        full: bool,
    },
    /// List each language's server: where it is found (navmap's data dir, the project's
    /// node_modules/.bin, PATH) and its version; `servers install` installs them.
    Servers {
        #[command(subcommand)]
        action: Option<ServersAction>,
        /// The project whose node_modules/.bin is searched (default: the current directory).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Print JSON instead of one line per language.
        #[arg(long)]
        json: bool,
    },
    /// Add navmap to an MCP client's configuration file (claude, codex, cursor, vscode,
    /// gemini, windsurf), keeping its other entries; prints what it wrote.
    Setup {
        /// claude, codex, cursor, vscode, gemini or windsurf.
        client: String,
        /// project: the project's own file (default; Windsurf has none); user: the
        /// user's file, for every project.
        #[arg(long, value_name = "project|user")]
        scope: Option<String>,
        /// The project (default: the current directory). When given, the entry serves
        /// it by `--root`; without it the client's working directory is served.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Print what would be written, write nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ServersAction {
    /// Install servers a package registry provides (npm, pip, rustup, apt as root) into
    /// navmap's data dir (NAVMAP_DATA_DIR, else $XDG_DATA_HOME/navmap, else
    /// ~/.local/share/navmap). No LANG: every language with an install recipe.
    Install {
        /// Language ids (py, ts, go, …).
        langs: Vec<String>,
    },
}

#[derive(Debug, Clone, ClapArgs)]
pub struct RootArgs {
    /// The repository root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// The map database file (default: NAVMAP_DB, else <root>/.navmap/map.db).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
}

impl RootArgs {
    pub(crate) fn context(&self) -> Result<Arc<ServerContext>, ExitCode> {
        self.open(ServerContext::new)
    }

    /// [`RootArgs::context`] for `rebuild`: the map is opened to rebuild only.
    /// With the walk of the no-op check ([`RootArgs::precheck`]), if it made one.
    pub(crate) fn rebuild_context(
        &self,
        walked: Option<navmap_map::PriorWalk>,
    ) -> Result<Arc<ServerContext>, ExitCode> {
        Self::opened(ServerContext::for_rebuild_walked(
            &self.root_path(),
            self.db.clone(),
            walked,
        ))
    }

    /// [`RootArgs::context`] for `rebuild --full`: the previous build is not loaded.
    pub(crate) fn full_rebuild_context(&self) -> Result<Arc<ServerContext>, ExitCode> {
        self.open(ServerContext::for_full_rebuild)
    }

    /// [`ServerContext::precheck`] for this root and `--db`.
    pub(crate) fn precheck(&self) -> navmap_map::Precheck {
        ServerContext::precheck(&self.root_path(), self.db.clone())
    }

    /// `--root`, or the working directory.
    fn root_path(&self) -> PathBuf {
        match &self.root {
            Some(r) => r.clone(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }

    /// [`RootArgs::context`] for `serve`: a refused map folder keeps the map in memory.
    fn serve_context(&self) -> Result<Arc<ServerContext>, ExitCode> {
        self.open(ServerContext::for_serve)
    }

    fn open(
        &self,
        make: fn(&std::path::Path, Option<PathBuf>) -> Result<ServerContext, crate::ContextError>,
    ) -> Result<Arc<ServerContext>, ExitCode> {
        Self::opened(make(&self.root_path(), self.db.clone()))
    }

    fn opened(
        made: Result<ServerContext, crate::ContextError>,
    ) -> Result<Arc<ServerContext>, ExitCode> {
        made.map(Arc::new).map_err(|e| {
            eprintln!("navmap: {e}");
            ExitCode::from(2)
        })
    }
}

/// Runs a parsed command line.
pub async fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Serve {
            root,
            http,
            allow_remote,
            token,
            no_build,
            no_watch,
        } => {
            let http = http.map(|addr| crate::http::HttpOptions {
                addr,
                allow_remote,
                token: token.or_else(|| std::env::var(crate::http::TOKEN_ENV).ok()),
            });
            serve(root, http, no_build, no_watch).await
        }
        Command::Rebuild { root, full } => crate::rebuild_cli::rebuild(root, full).await,
        Command::Status { root, json } => status(root, json).await,
        Command::Call { tool, args, root } => call(root, &tool, &args).await,
        Command::Setup {
            client,
            scope,
            root,
            dry_run,
        } => Ok(crate::setup_cli::setup(&crate::setup_cli::SetupArgs {
            client,
            scope,
            root,
            dry_run,
        })),
        Command::Servers { action, root, json } => Ok(match action {
            None => crate::servers_cli::list(root, json),
            Some(ServersAction::Install { langs }) => {
                tokio::task::spawn_blocking(move || crate::servers_cli::install_servers(&langs))
                    .await
                    .unwrap_or(ExitCode::FAILURE)
            }
        }),
    };
    result.unwrap_or_else(|code| code)
}

async fn serve(
    root: RootArgs,
    http: Option<crate::http::HttpOptions>,
    no_build: bool,
    no_watch: bool,
) -> Result<ExitCode, ExitCode> {
    // A root that is unusable is still exit 2 before anything is served (cheap checks);
    // opening the map (loading a previous build) is not: it runs in the background and
    // `initialize` is answered meanwhile (`crate::startup`).
    let dir = root
        .root
        .clone()
        .unwrap_or_else(|| std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")));
    if let Err(e) = crate::context::check_root(&dir) {
        eprintln!("navmap: {e}");
        return Err(ExitCode::from(2));
    }
    // Where to listen is checked, and bound, before anything starts, as the root is: a
    // refused address or a port in use is exit 2.
    let http = match http {
        Some(opts) => match crate::http::listen(&opts).await {
            Ok(listener) => Some((listener, opts.token)),
            Err(e) => {
                eprintln!("navmap: {e}");
                return Err(ExitCode::from(2));
            }
        },
        None => None,
    };
    let (opened, opening) = tokio::sync::watch::channel(None);
    // On stdio the open starts once `initialize` is answered (or a moment has passed):
    // it would take a core from the answer (`FirstAnswer`). Over HTTP at once.
    let first_answer = http
        .is_none()
        .then(|| Arc::new(crate::startup::FirstAnswer::default()));
    let open_after = first_answer.clone();
    let opener = tokio::task::spawn_blocking(move || {
        if let Some(first) = open_after {
            first.wait(crate::startup::OPEN_AFTER_ANSWER_MAX);
        }
        crate::startup::open_gate_for_tests();
        let ctx = match root.serve_context() {
            Ok(ctx) => ctx,
            Err(_) => {
                let _ = opened.send(Some(Err("the map could not be opened (see stderr)".into())));
                return None;
            }
        };
        tracing::info!(root = %ctx.root.display(), "map open");
        crate::memory::release_freed();
        crate::memory::release_code_of_open();
        if no_build {
            ctx.build_on_first_call
                .store(false, std::sync::atomic::Ordering::Relaxed);
        }
        // The start-up check against the disk, the background build and the watcher.
        crate::freshness::start(
            &ctx,
            crate::freshness::StartOptions {
                build: !no_build,
                watch: !no_watch,
            },
        );
        let _ = opened.send(Some(Ok(ctx.clone())));
        Some(ctx)
    });
    // One engine for every session: one map, one pool of language servers.
    let engine = Arc::new(Engine::opening(opening, crate::tools::all()));
    let served = match http {
        Some((listener, token)) => crate::http::serve_http(engine, listener, token).await,
        None => {
            tracing::info!(root = %dir.display(), "serving MCP on stdio");
            crate::mcp::serve_stdio(engine, first_answer).await
        }
    };
    // No language server outlives navmap (the map may still be opening: wait for it).
    if let Ok(Some(ctx)) = opener.await {
        ctx.lsp.shutdown_all().await;
    }
    match served {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("navmap: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

async fn status(root: RootArgs, json: bool) -> Result<ExitCode, ExitCode> {
    let ctx = root.context()?;
    check_freshness(&ctx).await;
    let engine = Engine::new(ctx);
    let out = engine.call("map_status", None).await;
    if json || !out.ok {
        outln!("{}", out.text);
        return Ok(exit_for(out.ok));
    }
    let env: Value = serde_json::from_str(&out.text).unwrap_or_default();
    let d = &env["data"];
    let num = |k: &str| d[k].as_u64().unwrap_or(0);
    let built = if d["built"] == true {
        format!(
            "built at {} (generation {})",
            d["builtAt"].as_str().unwrap_or("?"),
            num("generation")
        )
    } else {
        "not built".to_string()
    };
    let languages: Vec<&str> = d["languages"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    outln!(
        "navmap {} · root {}",
        d["version"].as_str().unwrap_or("?"),
        d["root"].as_str().unwrap_or("?")
    );
    outln!("map: {built}");
    outln!(
        "files {} · symbols {} · edges {} · stale files {} · watching {}",
        num("files"),
        num("symbols"),
        num("edges"),
        num("staleFiles"),
        d["watching"]["mode"].as_str().unwrap_or("off")
    );
    outln!("languages: {}", languages.join(", "));
    if let Some(lsp) = d["lsp"].as_object() {
        for (lang, s) in lsp {
            outln!(
                "lsp {lang}: {} {}",
                s["state"].as_str().unwrap_or("?"),
                s["detail"].as_str().unwrap_or("")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `serve`'s start-up check for one-shot commands: changed files marked stale, and
/// re-indexed first when they are few (`Freshness::check_now`).
async fn check_freshness(ctx: &Arc<ServerContext>) {
    let c = ctx.clone();
    if let Err(e) = tokio::task::spawn_blocking(move || c.freshness.check_now()).await {
        tracing::warn!("freshness check failed: {e}");
    }
}

async fn call(root: RootArgs, tool: &str, args: &str) -> Result<ExitCode, ExitCode> {
    let ctx = root.context()?;
    check_freshness(&ctx).await;
    let engine = Engine::new(ctx.clone());
    let parsed: Result<Map<String, Value>, String> = match serde_json::from_str::<Value>(args) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!("expected a JSON object, got {other}")),
        Err(e) => Err(format!("not valid JSON: {e}")),
    };
    let out = match parsed {
        Ok(map) => engine.call(tool, Some(map)).await,
        Err(why) => render_error(
            &ToolError::bad_args(
                format!("arguments: {why}"),
                "Pass the arguments as one JSON object, e.g. '{\"query\":\"Cart\"}'.",
            )
            .with_extra("field", "arguments"),
            Budget::from_request(None),
        ),
    };
    ctx.lsp.shutdown_all().await;
    outln!("{}", out.text);
    Ok(exit_for(out.ok))
}

fn exit_for(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
