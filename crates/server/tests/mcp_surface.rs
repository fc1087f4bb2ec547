//! The MCP surface as a real client sees it: the built `navmap` binary driven over stdio
//! by rmcp's client (child-process transport), plus a raw run that checks stdout carries
//! nothing but JSON-RPC frames.

use std::process::Stdio;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

const NAVMAP: &str = env!("CARGO_BIN_EXE_navmap");

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.py"), "class Cart:\n    pass\n").unwrap();
    dir
}

async fn client(root: &std::path::Path, panic_tool: bool) -> RunningService<RoleClient, ()> {
    let transport = TokioChildProcess::new(tokio::process::Command::new(NAVMAP).configure(|cmd| {
        // These tests look at the unbuilt map: no background build.
        cmd.arg("serve").arg("--no-build").arg("--root").arg(root);
        if panic_tool {
            cmd.env("NAVMAP_TEST_PANIC_TOOL", "1");
        } else {
            cmd.env_remove("NAVMAP_TEST_PANIC_TOOL");
        }
        cmd.env_remove("NAVMAP_TOKEN_BUDGET");
    }))
    .expect("spawn navmap serve");
    ().serve(transport).await.expect("initialize")
}

/// Calls a tool; a JSON-RPC error fails the test (domain failures must be envelopes).
async fn call(
    c: &RunningService<RoleClient, ()>,
    tool: &str,
    args: Value,
) -> (CallToolResult, Value) {
    let mut params = CallToolRequestParams::new(tool.to_string());
    params.arguments = args.as_object().cloned();
    let result = c
        .call_tool(params)
        .await
        .unwrap_or_else(|e| panic!("{tool}: a protocol error instead of an envelope: {e}"));
    assert_eq!(result.content.len(), 1, "exactly one content part");
    let text = &result.content[0].as_text().expect("a text part").text;
    let env: Value = serde_json::from_str(text).expect("the text is a JSON envelope");
    assert!(!text.contains('\n'), "compact JSON");
    assert_eq!(
        result.is_error,
        Some(env["ok"] == false),
        "isError = !ok: {text}"
    );
    (result, env)
}

fn assert_bad_args(env: &Value, field: &str) {
    assert_eq!(env["ok"], false, "{env}");
    assert_eq!(env["error"]["code"], "BAD_ARGS", "{env}");
    assert_eq!(env["error"]["field"], field, "{env}");
    let message = env["error"]["message"].as_str().unwrap();
    assert!(message.starts_with(&format!("{field}: ")), "{message}");
    assert!(!env["error"]["hint"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn a_real_client_initializes_lists_and_calls() {
    let dir = repo();
    let c = client(dir.path(), true).await;

    let info = c.peer_info().expect("server info");
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(server.name, "navmap");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    let instructions = info.instructions.as_deref().unwrap_or_default();
    for words in ["map_", "nav_", "resolve"] {
        assert!(instructions.contains(words), "{instructions}");
    }

    let tools = c.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(
        names.contains(&"map_status") && names.contains(&"map_search"),
        "{names:?}"
    );
    assert!(names.contains(&"debug_panic"), "{names:?}");
    for t in &tools {
        // Only the tool that writes is annotated (the instructions say the rest is
        // read-only): it is neither destructive nor different when repeated.
        match t.annotations.as_ref() {
            Some(a) => {
                assert_eq!(t.name, "map_rebuild");
                assert_eq!(a.read_only_hint, Some(false));
                assert_eq!(a.destructive_hint, Some(false));
                assert_eq!(a.idempotent_hint, Some(true));
            }
            None => assert_ne!(t.name, "map_rebuild"),
        }
        let schema = Value::Object((*t.input_schema).clone());
        assert_eq!(schema["type"], "object");
        // Not in the schema (the instructions say it once), but enforced: see below.
        assert!(schema.get("additionalProperties").is_none(), "{}", t.name);
        assert_eq!(
            schema["properties"]["tokenBudget"]["type"], "integer",
            "{}",
            t.name
        );
        assert!(!t.description.as_deref().unwrap_or_default().is_empty());
    }

    // An argument no tool declares is refused although the schema does not say so.
    let (_, env) = call(&c, "map_status", json!({"bogus": 1})).await;
    assert_eq!(env["error"]["code"], "BAD_ARGS", "{env}");

    // map_status before any map exists.
    let (_, env) = call(&c, "map_status", json!({})).await;
    assert_eq!(env["ok"], true);
    let d = &env["data"];
    assert_eq!(d["built"], false);
    assert_eq!(d["builtAt"], Value::Null);
    assert_eq!(d["generation"], 0);
    assert_eq!(
        d["root"],
        dir.path().canonicalize().unwrap().display().to_string()
    );
    assert_eq!(d["version"], env!("CARGO_PKG_VERSION"));
    for k in ["files", "symbols", "edges", "staleFiles"] {
        assert_eq!(d[k], 0, "{k}");
    }
    // `serve` watches the root even without a build (crate::freshness).
    let mode = d["watching"]["mode"].as_str().unwrap_or_default();
    assert!(["native", "polling", "starting"].contains(&mode), "{d}");
    // Every language with a server configured is listed; map_status starts none.
    let lsp = d["lsp"].as_object().expect("lsp is an object");
    assert!(lsp.contains_key("py"), "{lsp:?}");
    for (lang, s) in lsp {
        let state = s["state"].as_str().unwrap_or_default();
        assert!(["unspawned", "unavailable"].contains(&state), "{lang}: {s}");
    }
    let languages: Vec<&str> = d["languages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for id in ["py", "ts", "js", "rs", "go"] {
        assert!(languages.contains(&id), "{languages:?}");
    }
    // Defaults are left off the wire (contract §2).
    assert!(env.get("truncated").is_none(), "{env}");
    assert!(env.get("warnings").is_none(), "{env}");
    // So is the default budget of an answer that was not cut (issue 18).
    assert!(env.get("tokenBudget").is_none(), "{env}");
    let (_, env) = call(&c, "map_status", json!({"tokenBudget": 3000})).await;
    let tb = &env["tokenBudget"];
    assert_eq!(tb["requested"], 3000);
    assert_eq!(tb["max"], 10_000);
    assert_eq!(
        tb["used"].as_u64().unwrap() as usize,
        env.to_string().chars().count().div_ceil(4)
    );

    // A tiny budget is clamped, echoed and respected.
    let (_, env) = call(&c, "map_status", json!({"tokenBudget": 5})).await;
    assert_eq!(env["tokenBudget"]["requested"], 5);
    assert!(env["tokenBudget"]["used"].as_u64().unwrap() <= 100);

    // Bad arguments: envelopes naming the field, never protocol errors.
    let (_, env) = call(&c, "map_status", json!({"tokenBudget": "lots"})).await;
    assert_bad_args(&env, "tokenBudget");
    assert!(
        env["error"]["message"]
            .as_str()
            .unwrap()
            .contains("integer")
    );
    let (_, env) = call(&c, "map_search", json!({})).await;
    assert_bad_args(&env, "query");
    let (_, env) = call(&c, "map_search", json!({"query": "Cart", "kind": "gizmo"})).await;
    assert_bad_args(&env, "kind");
    assert!(
        env["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"function\"")
    );
    let (_, env) = call(&c, "map_search", json!({"query": "Cart", "limit": 1000})).await;
    assert_bad_args(&env, "limit");
    let (_, env) = call(&c, "map_status", json!({"bogus": 1})).await;
    assert_bad_args(&env, "bogus");
    let (_, env) = call(
        &c,
        "map_search",
        json!({"query": "Cart", "cursor": "not-a-cursor!"}),
    )
    .await;
    assert_bad_args(&env, "cursor");

    // Valid arguments, no map yet: the honest answer.
    let (_, env) = call(&c, "map_search", json!({"query": "Cart"})).await;
    assert_eq!(env["error"]["code"], "MAP_NOT_BUILT", "{env}");

    // An unknown tool is a BAD_ARGS envelope too (our documented choice).
    let (_, env) = call(&c, "map_teleport", json!({})).await;
    assert_bad_args(&env, "name");
    assert!(
        env["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("map_status")
    );

    // A panic inside a tool: INTERNAL, and the server keeps serving.
    let (_, env) = call(&c, "debug_panic", json!({})).await;
    assert_eq!(env["error"]["code"], "INTERNAL", "{env}");
    assert!(
        env["error"]["message"]
            .as_str()
            .unwrap()
            .contains("panicked")
    );
    let (_, env) = call(&c, "map_status", json!({})).await;
    assert_eq!(env["ok"], true);

    c.cancel().await.unwrap();
}

#[tokio::test]
async fn the_panic_tool_exists_only_when_asked_for() {
    let dir = repo();
    let c = client(dir.path(), false).await;
    let tools = c.list_all_tools().await.unwrap();
    assert!(tools.iter().all(|t| t.name != "debug_panic"));
    let (_, env) = call(&c, "debug_panic", json!({})).await;
    assert_bad_args(&env, "name");
    c.cancel().await.unwrap();
}

/// `tools/list` is context the agent pays for in every session (issue 9): at most 1,800
/// tokens (chars/4 of the compact JSON result), each thing said once, and the descriptions
/// still teach the path: orient with map_*, drill with nav_*, cross with resolve.
#[tokio::test]
async fn tools_list_is_compact_and_teaches_the_path() {
    let dir = repo();
    let c = client(dir.path(), false).await;
    let tools = c.list_all_tools().await.unwrap();
    let list = serde_json::to_string(&json!({ "tools": tools })).unwrap();
    let tokens = list.chars().count().div_ceil(4);
    eprintln!(
        "tools/list: {} chars, {tokens} tokens",
        list.chars().count()
    );
    assert!(tokens <= 1800, "tools/list costs {tokens} tokens: {list}");
    assert_eq!(tools.len(), 14, "{list}");
    for t in &tools {
        let name = t.name.as_ref();
        let description = t.description.as_deref().unwrap_or_default();
        let taught = match name {
            "map_rebuild" => "map",
            n if n.starts_with("map_") => "Orient",
            n if n.starts_with("nav_") => "Drill",
            _ => "Cross",
        };
        assert!(description.contains(taught), "{name}: {description}");
        let props = &t.input_schema["properties"];
        // tokenBudget and cursor are explained once, in the instructions; the schema
        // gives the budget's range.
        assert_eq!(
            props["tokenBudget"],
            json!({"type": "integer", "description": "100-10000"}),
            "{name}"
        );
        // Every parameter says what it is, unless its name and schema do: a flag (false
        // unless set), a count whose range the schema shows.
        for (param, p) in props.as_object().unwrap() {
            let says_itself = p["type"] == "boolean" || p.get("maximum").is_some();
            assert!(
                says_itself || p["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{name}.{param} has no description: {p}"
            );
        }
        // Positions: 1-based lines, 1-based UTF-16 columns.
        if let Some(col) = props.get("col") {
            assert_eq!(col["description"], "1-based UTF-16", "{name}");
            assert_eq!(props["line"]["description"], "1-based", "{name}");
        }
        // cursor only where a list can be cut.
        let paged = ![
            "map_status",
            "map_path",
            "map_rebuild",
            "nav_type",
            "resolve",
        ]
        .contains(&name);
        assert_eq!(props.get("cursor").is_some(), paged, "{name}");
        for pos in ["line", "col"] {
            if let Some(p) = props.get(pos) {
                assert!(p.get("maximum").is_none(), "{name}.{pos}: {p}");
            }
        }
    }
    let info = c.peer_info().unwrap();
    let instructions = info.instructions.as_deref().unwrap_or_default();
    for words in [
        "tokenBudget",
        "100-10000",
        "cursor",
        "UTF-16",
        "<lang>:<path>#<Qualified.name>",
        "Node kinds",
        "Edge kinds",
        "only map_rebuild writes",
        "Orient",
        "drill",
        "resolve",
    ] {
        assert!(instructions.contains(words), "{words}: {instructions}");
    }
}

/// Raw stdio: every line navmap writes to stdout is a JSON-RPC 2.0 frame, even around a
/// panic and bad input; logs and the panic message go to stderr.
#[tokio::test]
async fn stdout_carries_only_json_rpc_frames() {
    let dir = repo();
    let mut child = tokio::process::Command::new(NAVMAP)
        .arg("serve")
        .arg("--root")
        .arg(dir.path())
        .env("NAVMAP_TEST_PANIC_TOOL", "1")
        .env("NAVMAP_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2024-11-05", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "map_status", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "debug_panic", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "map_search", "arguments": {"query": 7}}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "map_status"}}),
        // Params MCP's shape rejects (rmcp cannot parse them as a tools/call): still
        // BAD_ARGS envelopes, never JSON-RPC -32601.
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "map_search", "arguments": "notanobject"}}),
        json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": 5, "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "map_search", "arguments": [1]}}),
    ];
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = tokio::spawn(async move {
        let mut err = String::new();
        stderr.read_to_string(&mut err).await.unwrap();
        err
    });
    let mut lines = BufReader::new(stdout).lines();
    let mut answered: Map<String, Value> = Map::new();
    let mut read_until = async |id: u64, answered: &mut Map<String, Value>| {
        while !answered.contains_key(&id.to_string()) {
            let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
                .await
                .expect("navmap answers")
                .unwrap()
                .expect("stdout still open");
            check_frame(&line, answered);
        }
    };
    // initialize must be answered before anything else is sent.
    stdin
        .write_all(format!("{}\n", requests[0]).as_bytes())
        .await
        .unwrap();
    read_until(1, &mut answered).await;
    for r in &requests[1..] {
        stdin.write_all(format!("{r}\n").as_bytes()).await.unwrap();
    }
    for id in 2..=9 {
        read_until(id, &mut answered).await;
    }
    // Closing stdin ends the session; whatever else navmap writes must be frames too.
    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("navmap exits when stdin closes")
        .unwrap();
    assert!(status.success(), "{status}");
    while let Some(line) = lines.next_line().await.unwrap() {
        check_frame(&line, &mut answered);
    }
    let err = err_reader.await.unwrap();

    let text = |id: &str| -> Value {
        serde_json::from_str(
            answered[id]["result"]["content"][0]["text"]
                .as_str()
                .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(text("4")["error"]["code"], "INTERNAL");
    assert_eq!(answered["4"]["result"]["isError"], true);
    assert_eq!(text("5")["error"]["field"], "query");
    assert_eq!(text("6")["ok"], true);
    for (id, field, says) in [
        ("7", "arguments", "a string"),
        ("8", "name", "a number"),
        ("9", "arguments", "an array"),
    ] {
        let env = text(id);
        assert_eq!(answered[id]["result"]["isError"], true, "{env}");
        assert_eq!(env["error"]["code"], "BAD_ARGS", "{env}");
        assert_eq!(env["error"]["field"], field, "{env}");
        assert!(
            env["error"]["message"].as_str().unwrap().contains(says),
            "{env}"
        );
    }
    assert!(
        err.contains("deliberate panic"),
        "the panic is reported on stderr: {err}"
    );
}

fn check_frame(line: &str, answered: &mut Map<String, Value>) {
    let frame: Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("non-JSON on stdout ({e}): {line:?}"));
    assert_eq!(frame["jsonrpc"], "2.0", "{line}");
    assert!(frame.get("error").is_none(), "no JSON-RPC errors: {line}");
    if let Some(id) = frame.get("id") {
        answered.insert(id.to_string(), frame.clone());
    }
}

/// Protocol errors (issue 15): every error frame has an `id` (the request's, or `null`),
/// unparseable JSON gets -32700, a 20 MB line gets an error, and the session goes on.
/// rmcp's stdio transport alone answers these without `id` or not at all.
#[tokio::test]
async fn every_protocol_error_has_an_id_and_the_session_goes_on() {
    let dir = repo();
    let mut child = tokio::process::Command::new(NAVMAP)
        .args(["serve", "--no-build", "--no-watch", "--root"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .expect("navmap answers within 30 s")
            .unwrap()
            .expect("stdout still open");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("non-JSON ({e}): {line}"))
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    stdin
        .write_all(format!("{init}\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(next().await["id"], 1);
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .unwrap();
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}",
        "x".repeat(20 * 1024 * 1024)
    );
    // (line, expected id, expected code); each is followed by a ping that must be answered.
    let cases: Vec<(String, Value, i64)> = vec![
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#.into(),
            Value::Null,
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#.into(),
            Value::Null,
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#.into(),
            Value::Null,
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":31,"method":7}"#.into(),
            json!(31),
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":32,"method":"ping","params":[1,2]}"#.into(),
            json!(32),
            -32602,
        ),
        (
            r#"[{"jsonrpc":"2.0","id":33,"method":"ping"}]"#.into(),
            Value::Null,
            -32600,
        ),
        ("{this is not json".into(), Value::Null, -32700),
        (huge, Value::Null, -32600),
    ];
    for (i, (line, id, code)) in cases.into_iter().enumerate() {
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        let ping = 1000 + i as u64;
        stdin
            .write_all(
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{ping},\"method\":\"ping\"}}\n").as_bytes(),
            )
            .await
            .unwrap();
        let shown: String = line.chars().take(80).collect();
        let (mut error, mut pong) = (None, false);
        while error.is_none() || !pong {
            let frame = next().await;
            assert_eq!(frame["jsonrpc"], "2.0", "{frame}");
            let obj = frame.as_object().unwrap();
            assert!(
                obj.contains_key("id"),
                "a frame without id after {shown}: {frame}"
            );
            if frame["id"] == json!(ping) {
                assert!(obj.contains_key("result"), "{frame}");
                pong = true;
            } else {
                assert!(error.is_none(), "two answers to {shown}: {frame}");
                error = Some(frame);
            }
        }
        let error = error.unwrap();
        assert_eq!(error["id"], id, "{shown}: {error}");
        assert_eq!(error["error"]["code"], code, "{shown}: {error}");
    }
    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("navmap exits when stdin closes")
        .unwrap();
    assert!(status.success(), "{status}");
}

/// The field names a `BAD_ARGS` hint offers (`Expected arguments: tool {a?: string, …}.`).
fn hinted_fields(hint: &str) -> Vec<String> {
    let inner = &hint[hint.find('{').expect(hint) + 1..hint.rfind('}').expect(hint)];
    inner
        .split(", ")
        .map(|f| {
            f.split(':')
                .next()
                .unwrap()
                .trim_end_matches('?')
                .to_string()
        })
        .collect()
}

/// An error hint names only parameters the tool's schema has (issue 20: `resolve`'s hint
/// offered a `cursor` its schema lacks), for every tool, and so does the list of fields
/// an unknown one is checked against.
#[tokio::test]
async fn error_hints_name_only_parameters_that_exist() {
    let dir = repo();
    let c = client(dir.path(), false).await;
    for tool in c.list_all_tools().await.unwrap() {
        let name = tool.name.as_ref();
        let props = tool.input_schema["properties"].as_object().unwrap();
        let (_, env) = call(&c, name, json!({"bogusField": 1})).await;
        assert_bad_args(&env, "bogusField");
        let hint = env["error"]["hint"].as_str().unwrap();
        let fields = hinted_fields(hint);
        for f in &fields {
            assert!(props.contains_key(f), "{name}: the hint offers {f}: {hint}");
        }
        assert_eq!(fields.len(), props.len(), "{name}: {hint}");
        let expected = env["error"]["expected"].as_str().unwrap();
        for f in props.keys() {
            assert!(expected.contains(&format!("\"{f}\"")), "{name}: {expected}");
        }
        if !props.contains_key("cursor") {
            assert!(!expected.contains("cursor"), "{name}: {expected}");
        }
    }
    c.cancel().await.unwrap();
}
