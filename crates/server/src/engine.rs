//! The engine: one tool call from raw JSON arguments to a finished envelope.
//!
//! Shared by the MCP server and `navmap call`. For every tool alike it resolves the
//! budget, finds the tool (an unknown name is a `BAD_ARGS` envelope), validates the
//! arguments, decodes the cursor, runs the tool on its own task so a panic becomes
//! `INTERNAL` instead of taking the server down, and renders the envelope.
//!
//! When the caller stops waiting (the client cancels, the connection closes) the tool's
//! task is aborted. Work that must finish regardless (a map rebuild others may join)
//! belongs on its own `tokio::spawn`ed task that the tool awaits.

use std::sync::Arc;
use std::time::Instant;

use navmap_envelope::{
    Budget, Cursor, Rendered, Request, ToolError, args_hash, render, render_error,
};
use serde_json::{Map, Value};

use crate::ServerContext;
use crate::tools::{self, Params, Tool};

/// A tool with its declaration computed once.
pub struct Registered {
    pub tool: Arc<dyn Tool>,
    pub params: Params,
}

/// The context as `navmap serve` opens it in the background: `None` while opening, then
/// the context, or why it could not be opened.
pub type Opening = tokio::sync::watch::Receiver<Option<Result<Arc<ServerContext>, String>>>;

pub struct Engine {
    ctx: Opening,
    tools: Vec<Registered>,
}

impl Engine {
    /// The engine with every tool of [`tools::all`].
    pub fn new(ctx: Arc<ServerContext>) -> Self {
        Engine::with_tools(ctx, tools::all())
    }

    pub fn with_tools(ctx: Arc<ServerContext>, tools: Vec<Arc<dyn Tool>>) -> Self {
        let (_, ready) = tokio::sync::watch::channel(Some(Ok(ctx)));
        Engine::opening(ready, tools)
    }

    /// An engine whose context is still opening (`navmap serve`, [`crate::startup`]): calls
    /// wait for it, up to [`crate::startup::wait_bound`].
    pub fn opening(ctx: Opening, tools: Vec<Arc<dyn Tool>>) -> Self {
        let tools = tools
            .into_iter()
            .map(|tool| Registered {
                params: tool.params().paged(tool.paged()),
                tool,
            })
            .collect();
        Engine { ctx, tools }
    }

    /// The context, once open.
    pub fn context(&self) -> Option<Arc<ServerContext>> {
        self.ctx
            .borrow()
            .as_ref()
            .and_then(|r| r.as_ref().ok().cloned())
    }

    /// The context, waiting for it to open (bounded), and how long that took.
    pub async fn ready(&self) -> Result<(Arc<ServerContext>, std::time::Duration), ToolError> {
        let started = Instant::now();
        let mut rx = self.ctx.clone();
        let opened =
            tokio::time::timeout(crate::startup::wait_bound(), rx.wait_for(Option::is_some)).await;
        match opened {
            Ok(Ok(v)) => match v.as_ref() {
                Some(Ok(ctx)) => Ok((ctx.clone(), started.elapsed())),
                Some(Err(why)) => Err(ToolError::internal(why.clone())),
                None => Err(crate::startup::still_opening()),
            },
            Ok(Err(_)) => Err(ToolError::internal("the map could not be opened")),
            Err(_) => Err(crate::startup::still_opening()),
        }
    }

    pub fn tools(&self) -> &[Registered] {
        &self.tools
    }

    /// Runs one call; always an envelope, never a protocol error.
    pub async fn call(&self, name: &str, args: Option<Map<String, Value>>) -> Rendered {
        let started = Instant::now();
        let rendered = self.call_inner(name, args).await;
        tracing::debug!(
            tool = name,
            ok = rendered.ok,
            tokens = rendered.tokens,
            ms = started.elapsed().as_millis() as u64,
            "tool call"
        );
        crate::memory::answered(started.elapsed());
        rendered
    }

    async fn call_inner(&self, name: &str, args: Option<Map<String, Value>>) -> Rendered {
        // The asked number as sent (echoed unclamped as `requested`); the default when it
        // is not a number. Errors use it too.
        let asked = args
            .as_ref()
            .and_then(|a| a.get("tokenBudget"))
            .filter(|v| v.is_number())
            .cloned();
        let budget = Budget::from_arg(asked.as_ref());

        let Some(entry) = self.tools.iter().find(|t| t.tool.name() == name) else {
            let names: Vec<&str> = self.tools.iter().map(|t| t.tool.name()).collect();
            let err = ToolError::bad_args(
                format!("name: unknown tool {name:?}"),
                format!("Available tools: {}.", names.join(", ")),
            )
            .with_extra("field", "name")
            .with_extra("expected", Value::from(names));
            return render_error(&err, budget);
        };

        // What the call set itself (not defaults): notes never suggest these.
        let given: Vec<String> = args
            .as_ref()
            .map(|a| {
                a.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, _)| k.clone())
                    .collect()
            })
            .unwrap_or_default();
        let mut args = match entry.params.validate(name, args.as_ref()) {
            Ok(args) => args,
            Err(err) => return render_error(&err, budget),
        };
        // Validated above (an integer); the raw value keeps `requested` exact.
        args.take("tokenBudget");
        let cursor = match args.take("cursor") {
            Some(Value::String(text)) => match Cursor::decode(&text) {
                Ok(c) => Some(c),
                Err(err) => return render_error(&err, budget),
            },
            _ => None,
        };
        let hash = args_hash(args.values());

        // Arguments checked; now the map must be open (navmap serve opens it in the
        // background). A noticeable wait is stated in the answer.
        let (ctx, waited) = match self.ready().await {
            Ok(ready) => ready,
            Err(err) => return render_error(&err, budget),
        };
        let waited = crate::startup::waited_warning("the map to open", waited);

        // Its own task: a panic in the tool (or in a ranker while rendering) ends only
        // that task, and we answer INTERNAL.
        let tool = entry.tool.clone();
        let mut task = AbortOnDrop(tokio::spawn(async move {
            let mut args = args;
            let deadline = tool.deadline();
            // One deadline for every language-server request of the call.
            let result = ctx
                .lsp
                .within(deadline, async {
                    // A `symbol` becomes the `nodeId` it names; the answer says which it chose.
                    match crate::tools::symbol::resolve_symbol_arg(&ctx, &mut args).await {
                        Ok(chosen) => tool.call(&ctx, args).await.map(|mut p| {
                            if let Some(c) = chosen {
                                c.annotate(&mut p.data, "nodeId");
                            }
                            if let Some(w) = waited {
                                p = p.warn(w);
                            }
                            p.given(given)
                        }),
                        Err(e) => Err(e),
                    }
                })
                .await;
            let request = Request {
                budget,
                cursor: cursor.as_ref(),
                args_hash: hash,
            };
            render(result, &request)
        }));
        match (&mut task.0).await {
            Ok(rendered) => rendered,
            Err(join) => {
                let why = if join.is_panic() {
                    let payload = join.into_panic();
                    let msg = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic payload".into());
                    format!("{name} panicked: {msg}")
                } else {
                    format!("{name} was cancelled")
                };
                tracing::error!("{why}");
                render_error(&ToolError::internal(why), budget)
            }
        }
    }
}

/// Aborts the tool's task when the caller stops waiting (the client cancelled the
/// request, or the connection closed), so abandoned calls do not keep working.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use navmap_envelope::{ListSpec, Payload};
    use serde_json::json;

    use super::*;
    use crate::tools::{Args, Param, ToolFuture};

    /// 200 numbered items ranked by number; the generation can be bumped like a rebuild.
    struct Numbers {
        generation: AtomicU64,
    }

    impl Tool for Numbers {
        fn name(&self) -> &'static str {
            "numbers"
        }
        fn description(&self) -> &'static str {
            "test"
        }
        fn params(&self) -> Params {
            Params::new().param(Param::string("label", "label").default("n"))
        }
        fn call<'a>(&'a self, _ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
            Box::pin(async move {
                let label = args.str("label")?.to_string();
                let items: Vec<Value> = (0..200)
                    .rev()
                    .map(|i| json!({"n": i, "label": label}))
                    .collect();
                Ok(Payload::new(json!({"items": items}))
                    .list(
                        ListSpec::new("/items", "items")
                            .ranked_by(|a, b| a["n"].as_i64().cmp(&b["n"].as_i64())),
                    )
                    .generation(self.generation.load(Ordering::SeqCst)))
            })
        }
    }

    fn engine() -> (tempfile::TempDir, Engine, Arc<Numbers>) {
        let dir = tempfile::tempdir().unwrap();
        let ctx = Arc::new(ServerContext::new(dir.path(), None).unwrap());
        let tool = Arc::new(Numbers {
            generation: AtomicU64::new(1),
        });
        let engine = Engine::with_tools(ctx, vec![tool.clone()]);
        (dir, engine, tool)
    }

    async fn call(engine: &Engine, args: Value) -> Value {
        let out = engine.call("numbers", args.as_object().cloned()).await;
        serde_json::from_str(&out.text).unwrap()
    }

    #[tokio::test]
    async fn requested_echoes_the_budget_as_asked() {
        let (_dir, engine, _tool) = engine();
        let args: Value = serde_json::from_str(r#"{"tokenBudget": 18446744073709551615}"#).unwrap();
        let out = engine.call("numbers", args.as_object().cloned()).await;
        assert!(
            out.text.contains(r#""requested":18446744073709551615,"#),
            "{}",
            out.text
        );
        assert!(out.tokens <= 10_000);
        let env = call(&engine, json!({"tokenBudget": -7})).await;
        assert_eq!(env["tokenBudget"]["requested"], -7);
        assert!(env["tokenBudget"]["used"].as_u64().unwrap() <= 100);
    }

    #[tokio::test]
    async fn cursors_page_through_the_engine_and_go_stale() {
        let (_dir, engine, tool) = engine();
        let first = call(&engine, json!({"tokenBudget": 300})).await;
        assert_eq!(first["truncated"], true);
        assert_eq!(first["data"]["items"][0]["n"], 0);
        let kept = first["data"]["items"].as_array().unwrap().len();
        let cursor = first["cursor"].as_str().unwrap().to_string();

        // Same arguments (a different budget is fine): the next slice.
        let second = call(&engine, json!({"tokenBudget": 400, "cursor": cursor})).await;
        assert_eq!(second["data"]["items"][0]["n"], kept as u64);

        // Different arguments: stale.
        let other = call(&engine, json!({"label": "m", "cursor": cursor})).await;
        assert_eq!(other["error"]["code"], "CURSOR_STALE");

        // The explicit default is the same call as the omitted one.
        let same = call(&engine, json!({"label": "n", "cursor": cursor})).await;
        assert_eq!(same["ok"], true);

        // A new generation (a rebuild): stale, never a wrong page.
        tool.generation.store(2, Ordering::SeqCst);
        let stale = call(&engine, json!({"cursor": cursor})).await;
        assert_eq!(stale["error"]["code"], "CURSOR_STALE");
    }
}
