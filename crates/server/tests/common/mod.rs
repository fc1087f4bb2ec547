//! Helpers shared by the server's integration tests: the repository and its tools folder,
//! requiring a language server (a missing one fails under `CI`, else the test says
//! "skipped"), copying a fixture to a temp dir, spawning `navmap serve` as a real MCP
//! client (rmcp over the child's stdio), calling a tool and reading its envelope.
//!
//! Each test file does `mod common;` and uses what it needs; helpers that only one file
//! needs stay in that file.
#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};

use rmcp::model::{CallToolRequestParams, NumberOrString, ProgressToken, RequestMetaObject};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;

pub const NAVMAP: &str = env!("CARGO_BIN_EXE_navmap");

pub type Client = RunningService<RoleClient, ()>;

/// The repository root (this checkout).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The git-ignored folder `scripts/install-servers.sh` installs servers into: navmap's data
/// dir for the tests (`NAVMAP_DATA_DIR`), so installs stay in the checkout.
pub fn data_dir() -> PathBuf {
    let d = repo().join(".tools");
    d.canonicalize().unwrap_or(d)
}

/// The data dir's npm bin folder (pyright, typescript-language-server, …).
pub fn tools_dir() -> PathBuf {
    data_dir().join("npm/node_modules/.bin")
}

/// The data dir's bin folders, as navmap searches them (`navmap_lsp::locate`).
pub fn data_bin_dirs() -> Vec<PathBuf> {
    navmap_lsp::locate::data_bin_dirs(&data_dir())
}

/// `PATH` for the child: the data dir's bin folders first, then the test's own `PATH`.
/// navmap finds servers in the data dir without it (the child gets `NAVMAP_DATA_DIR`); the
/// `PATH` is for [`require`] and for tests that spawn servers directly.
pub fn tools_path() -> String {
    let mut dirs: Vec<String> = data_bin_dirs()
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    dirs.push(std::env::var("PATH").unwrap_or_default());
    dirs.join(":")
}

/// Is `program` installed (tools folder or `PATH`)? With `CI` set and `required_in_ci`, a
/// missing server fails the test rather than skipping it.
pub fn require(program: &str, required_in_ci: bool) -> bool {
    let found = tools_path()
        .split(':')
        .map(|d| Path::new(d).join(program))
        .find(|p| p.is_file())
        .is_some_and(|p| !is_rustup_proxy(&p) || runs(&p));
    if found {
        eprintln!("server ran: {program}");
        return true;
    }
    if required_in_ci && std::env::var_os("CI").is_some() {
        panic!("{program} is not installed but CI is set: run scripts/install-servers.sh");
    }
    eprintln!("skipped: {program} not installed (run scripts/install-servers.sh)");
    false
}

/// A rustup proxy (`~/.cargo/bin/rust-analyzer` is `rustup` under another name) exists
/// whether or not its component is installed.
fn is_rustup_proxy(p: &Path) -> bool {
    let rustup = p.with_file_name("rustup");
    match (std::fs::canonicalize(p), std::fs::canonicalize(&rustup)) {
        (Ok(a), Ok(b)) if a == b => return true,
        _ => {}
    }
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(p), std::fs::metadata(&rustup)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Does `program --version` succeed (a rustup proxy whose component is missing fails)?
fn runs(program: &Path) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success())
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A temp copy of `fixtures/<name>` (tests change their copy, never the fixture); an empty
/// temp dir for `name == ""`.
pub fn fixture(name: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("navmap-test-")
        .tempdir()
        .unwrap();
    if !name.is_empty() {
        copy_dir(&repo().join("fixtures").join(name), dir.path());
    }
    dir
}

/// Removes what servers kept for the project at `root` in the data dir (jdtls's Eclipse
/// workspace, ~30 MB): each test root is a new temp folder, so nothing would reuse it.
/// Waits a little for the server to finish writing it as it shuts down.
pub fn remove_server_state(root: &Path) {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let state = navmap_lsp::pool::default_state_dir(&root, Some(data_dir()));
    for _ in 0..20 {
        if !state.exists() || std::fs::remove_dir_all(&state).is_ok() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
}

/// The fake language server (`tests/fake-lsp`), built on first use.
pub fn fake_lsp() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = std::env::current_exe().unwrap();
            let profile_dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
            let mut args = vec!["build", "--quiet", "-p", "fake-lsp"];
            if profile_dir.ends_with("release") {
                args.push("--release");
            }
            let status = std::process::Command::new(env!("CARGO"))
                .args(args)
                .current_dir(repo())
                .status()
                .expect("cargo build -p fake-lsp");
            assert!(status.success());
            profile_dir.join("fake-lsp")
        })
        .clone()
}

/// The request deadline of the servers that tests start (`NAVMAP_LSP_TIMEOUT_MS`).
pub const LIVE_DEADLINE_MS: &str = "60000";

/// `navmap serve --root root <flags>` as a real MCP client. The child's environment has no
/// `NAVMAP_*` / `FAKE_LSP_*` variables of the test's own, its `PATH` is `path` (default:
/// [`tools_path`]), its data dir is the checkout's `.tools/` ([`data_dir`]), its map lives
/// in the root's `.navmap/`, its LSP deadlines are [`LIVE_DEADLINE_MS`], and `env` is set
/// last.
pub async fn client_with(
    root: &Path,
    flags: &[&str],
    env: &[(&str, String)],
    path: Option<String>,
) -> Client {
    let transport = TokioChildProcess::new(tokio::process::Command::new(NAVMAP).configure(|cmd| {
        cmd.arg("serve").arg("--root").arg(root).args(flags);
        cmd.env("PATH", path.clone().unwrap_or_else(tools_path));
        for (k, _) in std::env::vars() {
            if k.starts_with("NAVMAP_") || k.starts_with("FAKE_LSP_") {
                cmd.env_remove(k);
            }
        }
        // Fixture copies live in temp dirs: keep the map there too.
        cmd.env("NAVMAP_DB", root.join(".navmap/map.db"));
        cmd.env("NAVMAP_DATA_DIR", data_dir());
        // The tests check answers, not latency: a cold server (rust-analyzer loading the
        // standard library, tsserver its project) on a loaded 2-core machine may need more
        // than the default 15 s / 30 s. Tests of the deadlines themselves set their own.
        cmd.env("NAVMAP_LSP_TIMEOUT_MS", LIVE_DEADLINE_MS);
        cmd.env("NAVMAP_LSP_LONG_TIMEOUT_MS", LIVE_DEADLINE_MS);
        for (k, v) in env {
            cmd.env(k, v);
        }
    }))
    .expect("spawn navmap serve");
    ().serve(transport).await.expect("initialize")
}

/// Calls `tool` and returns its envelope; checks that `isError` matches `ok` and that an
/// answer fits its budget. Any client handler (a test may record notifications).
pub async fn call<H: ClientHandler>(
    c: &RunningService<RoleClient, H>,
    tool: &str,
    args: Value,
) -> Value {
    call_with_progress(c, tool, args, None).await
}

/// [`call`] with a progress token in the request's `_meta` (the server then sends
/// `notifications/progress`).
pub async fn call_with_progress<H: ClientHandler>(
    c: &RunningService<RoleClient, H>,
    tool: &str,
    args: Value,
    progress: Option<i64>,
) -> Value {
    let mut params = CallToolRequestParams::new(tool.to_string());
    params.arguments = args.as_object().cloned();
    if let Some(t) = progress {
        let mut meta = RequestMetaObject::new();
        meta.set_progress_token(ProgressToken(NumberOrString::Number(t)));
        params.meta = Some(meta);
    }
    let result = c
        .call_tool(params)
        .await
        .unwrap_or_else(|e| panic!("{tool}: protocol error {e}"));
    let text = &result.content[0].as_text().expect("text").text;
    let env: Value = serde_json::from_str(text).expect("a JSON envelope");
    assert_eq!(result.is_error, Some(env["ok"] == false), "{text}");
    if env["ok"] == true {
        assert_fits_budget(text, &env, &args);
    }
    env
}

/// `map_neighbors` towards `node_id` (its callers, users, subclasses, importers): the
/// question most tests of the map's links ask.
pub async fn incoming(c: &Client, node_id: &str) -> Value {
    call(
        c,
        "map_neighbors",
        serde_json::json!({"nodeId": node_id, "direction": "in"}),
    )
    .await
}

/// Asks `tool` until `done` holds for the answer, for at most `within`: a server that is
/// still starting or indexing may answer "not yet" (`LSP_NOT_READY`, or `LSP_TIMEOUT`
/// from a cold JVM on a loaded machine) or an answer marked incomplete; both are asked
/// again, after a pause. Returns the first answer `done` accepts, or the last one when
/// time runs out, for the caller's assertions to judge (every answer asked again is
/// printed). For servers whose first start on a fresh machine fetches and indexes for
/// minutes (jdtls's Maven import downloads Maven's plugins into an empty repository).
pub async fn ask_until(
    c: &Client,
    tool: &str,
    args: Value,
    within: std::time::Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let until = std::time::Instant::now() + within;
    loop {
        let env = call(c, tool, args.clone()).await;
        let not_yet = if env["ok"] == false {
            matches!(err_code(&env), "LSP_NOT_READY" | "LSP_TIMEOUT")
        } else {
            !done(&env)
        };
        if !not_yet || std::time::Instant::now() >= until {
            return env;
        }
        eprintln!("{tool}: asked again after {env}");
        tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    }
}

/// How long a test asks again while a server answers "not ready" (`LSP_NOT_READY` /
/// `LSP_TIMEOUT`: retry, as their hints say). rust-analyzer cancels every query while it
/// loads its workspace, which took over 60 s on a loaded 2-core CI machine beside a jdtls.
pub const SERVER_SETTLES: std::time::Duration = std::time::Duration::from_secs(180);

/// Asks as an agent following the hints would: again while the server is not ready
/// ([`SERVER_SETTLES`]); any other answer, an error included, is returned as it is.
pub async fn ask_ready(c: &Client, tool: &str, args: Value) -> Value {
    ask_until(c, tool, args, SERVER_SETTLES, |_| true).await
}

/// An answer that does not say it may be incomplete (`complete` is only written when
/// false).
pub fn complete(env: &Value) -> bool {
    env["data"]["complete"] != false
}

/// An answer is within its budget: `tokenBudget.used` (equal to the text's chars/4) when
/// the envelope reports it, else the text's chars/4 against the default budget — the
/// envelope leaves `tokenBudget` off only for the default budget of an uncut answer.
pub fn assert_fits_budget(text: &str, env: &Value, args: &Value) {
    let tokens = text.chars().count().div_ceil(4) as u64;
    match env.get("tokenBudget") {
        Some(tb) => {
            assert_eq!(tb["used"].as_u64(), Some(tokens), "{text}");
            assert!(tokens <= tb["max"].as_u64().unwrap(), "{text}");
        }
        None => {
            assert!(env.get("truncated").is_none(), "{text}");
            let asked = args["tokenBudget"].as_i64();
            assert!(asked.is_none_or(|b| b == 2000), "{text}");
            assert!(tokens <= 2000, "{text}");
        }
    }
}

/// The tokens an envelope costs (chars/4 of its compact text), whether or not it
/// reports `tokenBudget`.
pub fn envelope_tokens(env: &Value) -> u64 {
    env.to_string().chars().count().div_ceil(4) as u64
}

pub fn ok(env: &Value) -> &Value {
    assert_eq!(env["ok"], true, "{env}");
    &env["data"]
}

pub fn err_code(env: &Value) -> &str {
    assert_eq!(env["ok"], false, "{env}");
    env["error"]["code"].as_str().unwrap()
}

pub fn warnings(env: &Value) -> Vec<String> {
    env["warnings"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|w| w.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

pub fn warned(env: &Value, words: &str) -> bool {
    warnings(env).iter().any(|w| w.contains(words))
}

/// `navmap serve` on `root` with the default environment, its map built (one
/// `map_rebuild`, which also waits for the background build).
pub async fn serve_built(root: &Path) -> Client {
    let c = client_with(root, &[], &[], None).await;
    ok(&call(&c, "map_rebuild", serde_json::json!({})).await);
    c
}

/// The `dropped.note` of an envelope ("" when nothing was dropped).
pub fn note(env: &Value) -> String {
    env["dropped"]["note"].as_str().unwrap_or("").to_string()
}

/// An anchor row `<line>:<col>[-<endLine>][ <snippet>]` read back into `{line, col,
/// endLine?, snippet?}`. Panics on a row that does not parse.
pub fn anchor_row(row: &str) -> Value {
    let (pos, snippet) = match row.split_once(' ') {
        Some((p, s)) => (p, Some(s)),
        None => (row, None),
    };
    let (line, cols) = pos.split_once(':').unwrap_or_else(|| panic!("{row:?}"));
    let (col, end) = match cols.split_once('-') {
        Some((c, e)) => (c, Some(e)),
        None => (cols, None),
    };
    let num = |s: &str| -> u64 { s.parse().unwrap_or_else(|_| panic!("{s:?} in {row:?}")) };
    let mut a = serde_json::json!({"line": num(line), "col": num(col)});
    if let Some(e) = end {
        a["endLine"] = num(e).into();
    }
    if let Some(s) = snippet {
        a["snippet"] = s.into();
    }
    a
}

/// The anchors of a nav answer's grouped list (`[{file, at: ["<line>:<col> …"]}]`,
/// docs/answers.md), flattened back to `{file, line, col, …}` (outside the root:
/// `{external: true, lib, line, col}`), in the answer's order, as a JSON array.
pub fn anchors(groups: &Value) -> Value {
    let mut out = Vec::new();
    for g in groups.as_array().expect("a grouped anchor list") {
        for a in g["at"].as_array().expect("`at` in every group") {
            let mut a = match a.as_str() {
                Some(row) => anchor_row(row),
                None => a.clone(),
            };
            for key in ["file", "external", "lib"] {
                if let Some(v) = g.get(key) {
                    a[key] = v.clone();
                }
            }
            out.push(a);
        }
    }
    Value::from(out)
}

/// A `nav_symbols` list (rows `<line>:<col>[-<endLine>] <kind> <name>[ — <detail>][ (in
/// <parent>)]`, a parent as `{symbol: row, children}`, docs/answers.md) read back into
/// objects `{line, col, endLine?, kind, name, detail?, in?, children?}`, so that tests
/// check fields rather than string layouts. Panics on a row that does not parse.
pub fn symbols(list: &Value) -> Value {
    fn one(v: &Value) -> Value {
        let (row, children) = match v {
            Value::String(r) => (r.as_str(), None),
            _ => (
                v["symbol"].as_str().expect("`symbol` row"),
                Some(symbols(&v["children"])),
            ),
        };
        let (mut rest, parent) = match row.strip_suffix(')').and_then(|r| r.rsplit_once(" (in ")) {
            Some((r, p)) => (r, Some(p)),
            None => (row, None),
        };
        let mut detail = None;
        if let Some((r, d)) = rest.split_once(" — ") {
            rest = r;
            detail = Some(d);
        }
        let mut parts = rest.splitn(3, ' ');
        let (pos, kind, name) = (
            parts.next().unwrap(),
            parts.next().unwrap_or_else(|| panic!("kind in {row:?}")),
            parts.next().unwrap_or_else(|| panic!("name in {row:?}")),
        );
        let (line, cols) = pos.split_once(':').unwrap_or_else(|| panic!("{row:?}"));
        let (col, end) = match cols.split_once('-') {
            Some((c, e)) => (c, Some(e)),
            None => (cols, None),
        };
        let num = |s: &str| -> u64 { s.parse().unwrap_or_else(|_| panic!("{s:?} in {row:?}")) };
        let mut o =
            serde_json::json!({"line": num(line), "col": num(col), "kind": kind, "name": name});
        if let Some(e) = end {
            o["endLine"] = num(e).into();
        }
        if let Some(d) = detail {
            o["detail"] = d.into();
        }
        if let Some(p) = parent {
            o["in"] = p.into();
        }
        if let Some(c) = children {
            o["children"] = c;
        }
        o
    }
    Value::from(
        list.as_array()
            .expect("a symbol list")
            .iter()
            .map(one)
            .collect::<Vec<_>>(),
    )
}

/// `navmap <args> --root root` as a one-shot command, with no `NAVMAP_*` variable of the
/// test's own and its map in the root's `.navmap/`.
pub fn navmap_cli(root: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(NAVMAP);
    cmd.args(args).arg("--root").arg(root);
    for (k, _) in std::env::vars() {
        if k.starts_with("NAVMAP_") || k.starts_with("FAKE_LSP_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("NAVMAP_DATA_DIR", data_dir());
    cmd.output().expect("run navmap")
}

/// Writes `files` (root-relative path, text) under `root`, creating their folders.
pub fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// The groups of a mention tier (`unlinked` or `unverified`, docs/answers.md "Unlinked
/// mentions") as `(file, in or "", rows)`, one a definition (a file's `groups` flattened);
/// empty when absent.
pub fn mention_groups(d: &Value, tier: &str) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for g in d[tier].as_array().into_iter().flatten() {
        let file = g["file"].as_str().unwrap().to_string();
        let inner: Vec<&Value> = match g["groups"].as_array() {
            Some(gs) => gs.iter().collect(),
            None => vec![g],
        };
        for i in inner {
            out.push((
                file.clone(),
                i["in"].as_str().unwrap_or("").to_string(),
                i["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().to_string())
                    .collect(),
            ));
        }
    }
    out
}

/// Whether a mention tier holds a row at `line` of `file`.
pub fn tier_has_line(d: &Value, tier: &str, file: &str, line: u32) -> bool {
    let at = format!("{line}:");
    mention_groups(d, tier)
        .iter()
        .any(|(f, _, rows)| f == file && rows.iter().any(|r| r.starts_with(&at)))
}

/// `(file, in, rows)` of the `unlinked` tier; panics when the answer has none.
pub fn unlinked_tier(d: &Value) -> Vec<(String, String, Vec<String>)> {
    assert!(d["unlinked"].is_array(), "no unlinked tier in {d}");
    mention_groups(d, "unlinked")
}

/// The files of an answer's `unverified` groups.
pub fn unverified_files(d: &Value) -> Vec<&str> {
    d["unverified"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|g| g["file"].as_str())
        .collect()
}

/// Every row of an answer's mention tier (`unlinked` or `unverified`) as `file row`.
pub fn tier_rows(d: &Value, tier: &str) -> Vec<String> {
    mention_groups(d, tier)
        .into_iter()
        .flat_map(|(f, _, rows)| rows.into_iter().map(move |r| format!("{f} {r}")))
        .collect()
}

/// Whether a `map_neighbors` answer accounts for the use at `file:line` (1-based) from
/// `from`: `from` is a neighbor by a use (not its container), or the unlinked tier has a
/// row of `file` at that line. What `navmap-bench accuracy` calls "not silent".
pub fn accounts_for(d: &Value, from: &str, file: &str, line: u32) -> bool {
    let listed = d["neighbors"].as_array().is_some_and(|ns| {
        ns.iter()
            .any(|n| (n["id"] == from || n["name"] == from) && n["edge"] != "contains")
    });
    let prefix = format!("{line}:");
    listed
        || mention_groups(d, "unlinked")
            .iter()
            .any(|(f, _, rows)| f == file && rows.iter().any(|r| r.starts_with(&prefix)))
}

/// The IDs (or, in a one-file list, the names) of a `map_neighbors` answer's neighbors.
pub fn neighbor_names(d: &Value) -> Vec<String> {
    d["neighbors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            n["id"]
                .as_str()
                .or(n["name"].as_str())
                .or(n.as_str())
                .unwrap()
                .to_string()
        })
        .collect()
}

/// The full IDs of `map_neighbors`' list, whatever its shape: `file` + `name`s (or rows
/// `<line> <kind> <name>[ (<confidence>)]`) when all are in one file; groups `{file, at}`
/// of such names or rows for a structural list over several files; else each `id`.
pub fn neighbor_ids(d: &Value) -> Vec<String> {
    fn in_file(f: &str, n: &Value) -> String {
        match n.as_str() {
            Some(row) => format!("{f}#{}", row.split(' ').nth(2).unwrap()),
            None => {
                assert!(n.get("id").is_none(), "{n}");
                format!("{f}#{}", n["name"].as_str().unwrap())
            }
        }
    }
    let list = d["neighbors"]
        .as_array()
        .unwrap_or_else(|| panic!("neighbors in {d}"));
    let mut out = vec![];
    for n in list {
        match (d["file"].as_str(), n["at"].as_array()) {
            (Some(f), _) => out.push(in_file(f, n)),
            (None, Some(at)) => {
                let f = n["file"].as_str().unwrap();
                out.extend(at.iter().map(|r| in_file(f, r)));
            }
            _ => out.push(n["id"].as_str().unwrap().to_string()),
        }
    }
    out
}
