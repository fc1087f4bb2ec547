//! `navmap serve --http`: MCP over streamable HTTP, driven by a client nobody here wrote —
//! the official MCP Python SDK (`tests/http_clients.py`), several sessions at once on one
//! navmap, one map and one language server per language for all of them; the token and
//! the refusal to listen beyond loopback without one.
//!
//! The SDK lives in a venv of the tools folder (`.tools/mcp-sdk`, made by
//! `scripts/install-servers.sh`); `NAVMAP_TEST_MCP_PYTHON` names another interpreter that
//! has it. Missing, the tests that need it fail under `CI` and skip otherwise.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::{NAVMAP, data_dir, fixture, ok};
use serde_json::{Value, json};

/// A Python with the MCP SDK's streamable HTTP client, or `None` (skipped; under CI the
/// test fails).
fn mcp_python() -> Option<PathBuf> {
    let python = std::env::var_os("NAVMAP_TEST_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| data_dir().join("mcp-sdk/bin/python"));
    let has_sdk = Command::new(&python)
        .args(["-c", "import mcp.client.streamable_http"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if has_sdk {
        return Some(python);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "the MCP Python SDK is not in {} but CI is set: run scripts/install-servers.sh",
            python.display()
        );
    }
    eprintln!(
        "skipped: the MCP Python SDK is not installed in {} (run scripts/install-servers.sh)",
        python.display()
    );
    None
}

/// `navmap serve --http <addr> --root root <flags>` as a child, with the environment
/// `common::client_with` gives a stdio server.
fn spawn_http(root: &Path, addr: &str, flags: &[&str]) -> Child {
    let mut cmd = Command::new(NAVMAP);
    cmd.args(["serve", "--no-watch", "--http", addr, "--root"])
        .arg(root)
        .args(flags)
        .env("PATH", common::tools_path())
        .env("NAVMAP_DB", root.join(".navmap/map.db"))
        .env("NAVMAP_DATA_DIR", data_dir())
        .env("NAVMAP_LSP_TIMEOUT_MS", common::LIVE_DEADLINE_MS)
        .env("NAVMAP_LSP_LONG_TIMEOUT_MS", common::LIVE_DEADLINE_MS)
        .env_remove("NAVMAP_HTTP_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.spawn().expect("spawn navmap serve --http")
}

/// The endpoint URL navmap prints on stderr once it listens; the rest of stderr is passed
/// on to the test's own (so the pipe never fills).
fn endpoint(child: &mut Child) -> String {
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines
            .next()
            .expect("navmap ended before it listened")
            .unwrap();
        eprintln!("navmap: {line}");
        if let Some(at) = line.find("http://") {
            break line[at..].trim().to_string();
        }
    };
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            eprintln!("navmap: {line}");
        }
    });
    url
}

/// `tests/http_clients.py`: `clients` sessions at once, each making `calls`; they stay
/// open until [`Clients::close`].
struct Clients {
    child: Child,
    /// What every session was answered.
    answers: Value,
}

impl Clients {
    fn start(python: &Path, url: &str, clients: usize, calls: &Value, token: Option<&str>) -> Self {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/http_clients.py");
        let mut cmd = Command::new(python);
        cmd.arg(script)
            .arg(url)
            .args([
                "--clients",
                &clients.to_string(),
                "--calls",
                &calls.to_string(),
            ])
            .arg("--hold")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        if let Some(t) = token {
            cmd.args(["--token", t]);
        }
        let mut child = cmd.spawn().expect("run the Python clients");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        if line.is_empty() {
            let status = child.wait().unwrap();
            panic!("the Python clients failed ({status}); their error is above");
        }
        let answers = serde_json::from_str(&line).expect("the clients' JSON");
        Clients { child, answers }
    }

    /// Ends the sessions; the clients must exit cleanly.
    fn close(mut self) {
        writeln!(self.child.stdin.take().unwrap()).unwrap();
        assert!(
            self.child.wait().unwrap().success(),
            "the Python clients failed"
        );
    }
}

/// The processes whose parent is `pid`, as (pid, command line).
fn children(pid: u32) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid …: comm may hold spaces and parentheses.
        let after_comm = &stat[stat.rfind(')').unwrap() + 2..];
        let ppid: u32 = after_comm.split(' ').nth(1).unwrap().parse().unwrap();
        if ppid == pid {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            out.push((child, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    out
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| !s[s.rfind(')').unwrap() + 2..].starts_with('Z'))
}

fn terminate(child: &mut Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
}

/// Issue 20: three agents on one navmap over streamable HTTP — each is answered, live
/// answers included, and they share one map and one pyright; SIGTERM ends navmap and its
/// language server.
#[test]
fn three_concurrent_clients_share_one_map_and_one_server_per_language() {
    if !common::require("pyright-langserver", true) {
        return;
    }
    let Some(python) = mcp_python() else { return };
    let dir = fixture("py");
    let mut navmap = spawn_http(dir.path(), "127.0.0.1:0", &[]);
    let url = endpoint(&mut navmap);
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );

    let pos = |file: &str, line: u64, col: u64| json!({"file": file, "line": line, "col": col});
    let calls = json!([
        ["map_status", {}],
        ["nav_definition", pos("shop/api.py", 15, 33)],
        ["nav_references", pos("shop/store.py", 27, 9)],
    ]);
    let sessions = Clients::start(&python, &url, 3, &calls, None);
    let out = &sessions.answers;
    let clients = out["clients"].as_array().unwrap();
    assert_eq!(clients.len(), 3, "{out}");
    for (i, c) in clients.iter().enumerate() {
        assert_eq!(c["tools"].as_array().unwrap().len(), 14, "client {i}: {c}");
        let answers = c["answers"].as_array().unwrap();
        let languages = ok(&answers[0])["languages"].to_string();
        assert!(languages.contains("py"), "client {i}: map_status {c}");
        let defs = common::anchors(&ok(&answers[1])["locations"]);
        assert!(
            defs.to_string().contains("shop/store.py") && defs.to_string().contains("27"),
            "client {i}: definition {defs}"
        );
        let refs = common::anchors(&ok(&answers[2])["locations"]);
        assert!(
            refs.to_string().contains("shop/api.py"),
            "client {i}: references {refs}"
        );
    }

    // One language server for the three sessions, while all three are open.
    let servers = children(navmap.id());
    let pyrights: Vec<_> = servers
        .iter()
        .filter(|(_, c)| c.contains("pyright"))
        .collect();
    assert_eq!(
        pyrights.len(),
        1,
        "one pyright for all sessions: {servers:?}"
    );
    sessions.close();

    // No language server outlives navmap.
    let pyright = pyrights[0].0;
    terminate(&mut navmap);
    for _ in 0..100 {
        if !alive(pyright) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(!alive(pyright), "pyright {pyright} outlived navmap");
}

/// With a token, a request without `Authorization: Bearer <token>` is refused before it
/// reaches MCP; the SDK's client that sends it is answered.
#[test]
fn a_token_guards_every_request() {
    let Some(python) = mcp_python() else { return };
    let dir = fixture("py");
    let mut navmap = spawn_http(
        dir.path(),
        "127.0.0.1:0",
        &["--no-build", "--token", "s3cret"],
    );
    let url = endpoint(&mut navmap);
    let authority = url.trim_start_matches("http://").trim_end_matches("/mcp");

    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}})
    .to_string();
    for auth in [
        "",
        "Authorization: Bearer wrong\r\n",
        "Authorization: s3cret\r\n",
    ] {
        let mut tcp = std::net::TcpStream::connect(authority).unwrap();
        write!(
            tcp,
            "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\n{auth}Content-Length: {}\r\n\
             Connection: close\r\n\r\n{initialize}",
            initialize.len()
        )
        .unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 401"), "{auth:?}: {answer}");
        assert!(answer.contains("Authorization: Bearer"), "{answer}");
    }

    let sessions = Clients::start(
        &python,
        &url,
        1,
        &json!([["map_status", {}]]),
        Some("s3cret"),
    );
    ok(&sessions.answers["clients"][0]["answers"][0]);
    sessions.close();
    terminate(&mut navmap);
}

/// An address beyond loopback is refused (exit 2, saying what would allow it) unless both
/// `--allow-remote` and a token are given; then navmap listens there.
#[test]
fn listening_beyond_loopback_needs_the_flag_and_a_token() {
    let dir = fixture("");
    for flags in [&[][..], &["--allow-remote"], &["--token", "s3cret"]] {
        let out = Command::new(NAVMAP)
            .args(["serve", "--http", "0.0.0.0:0", "--root"])
            .arg(dir.path())
            .args(flags)
            .env_remove("NAVMAP_HTTP_TOKEN")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(
            stderr.contains("not a loopback address") && stderr.contains("--allow-remote"),
            "{flags:?}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    }
    let mut navmap = spawn_http(
        dir.path(),
        "0.0.0.0:0",
        &["--no-build", "--allow-remote", "--token", "s3cret"],
    );
    let url = endpoint(&mut navmap);
    assert!(url.starts_with("http://0.0.0.0:"), "{url}");

    // A port in use is refused as plainly, before anything is served.
    let port = url
        .trim_start_matches("http://0.0.0.0:")
        .trim_end_matches("/mcp");
    let out = Command::new(NAVMAP)
        .args(["serve", "--http", &format!("127.0.0.1:{port}"), "--root"])
        .arg(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot listen on"), "{stderr}");
    terminate(&mut navmap);
}
