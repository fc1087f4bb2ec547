//! Never outside the root (issue 15, docs/security.md): a hostile repository full of
//! symlinks that point out of the root cannot make navmap show a byte of a file outside
//! it, nor write or delete anything outside it. Real pyright answers the nav tools.

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::{Value, json};

/// Appears only in files outside the root: no answer may hold it.
const SECRET: &str = "TOPSECRET";

/// What the outside world holds: a secret module, a secret package, a precious map file.
struct Outside {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Outside {
    fn new() -> Outside {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().canonicalize().unwrap();
        let module = format!(
            "TOKEN = \"{SECRET}_token\"\n\n\ndef leak(n):\n    \"\"\"{SECRET}_doc\"\"\"\n    return TOKEN * n\n\n\nclass Vault:\n    def open(self):\n        return leak(1)\n"
        );
        std::fs::write(path.join("secret.py"), &module).unwrap();
        std::fs::create_dir_all(path.join("pkg")).unwrap();
        std::fs::write(path.join("pkg/__init__.py"), "").unwrap();
        std::fs::write(path.join("pkg/mod.py"), &module).unwrap();
        std::fs::create_dir_all(path.join("mapdir")).unwrap();
        std::fs::write(path.join("mapdir/map.db"), format!("{SECRET} precious\n")).unwrap();
        Outside { _dir: dir, path }
    }

    /// Every file and link under the outside folder with its bytes (a checksum
    /// that cannot collide).
    fn checksums(&self) -> BTreeMap<String, String> {
        fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, String>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                let rel = p.strip_prefix(base).unwrap().display().to_string();
                let kind = e.file_type().unwrap();
                if kind.is_dir() {
                    out.insert(rel.clone(), "dir".into());
                    walk(&p, base, out);
                } else if kind.is_symlink() {
                    out.insert(rel, format!("link {:?}", std::fs::read_link(&p).unwrap()));
                } else {
                    // The bytes themselves: the files are small.
                    let bytes = std::fs::read(&p).unwrap();
                    out.insert(rel, String::from_utf8_lossy(&bytes).into_owned());
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.path, &self.path, &mut out);
        out
    }
}

/// A py root whose own files use modules that are symlinks out of it.
fn hostile_root(outside: &Outside) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let o = &outside.path;
    symlink(o.join("secret.py"), root.join("cfg.py")).unwrap(); // a file out
    symlink(o.join("pkg"), root.join("lib")).unwrap(); // a folder out
    symlink(o.join("mapdir"), root.join(".navmap")).unwrap(); // a planted map folder
    symlink(root.join("loop"), root.join("loop")).unwrap(); // a loop
    symlink("/nonexistent/dangling.py", root.join("dangling.py")).unwrap();
    std::fs::create_dir_all(root.join("app")).unwrap();
    symlink(root.join("app"), root.join("app/again")).unwrap(); // a folder loop
    std::fs::write(
        root.join("app/use.py"),
        "from cfg import TOKEN, leak, Vault\nfrom lib.mod import leak as leak2\n\n\ndef run():\n    print(TOKEN)\n    leak(2)\n    leak2(3)\n    return Vault().open()\n",
    )
    .unwrap();
    std::fs::write(
        root.join("app/own.py"),
        "def helper():\n    return 1\n\n\ndef caller():\n    return helper()\n",
    )
    .unwrap();
    dir
}

fn no_secret(tool: &str, env: &Value) {
    let text = env.to_string();
    assert!(
        !text.contains(SECRET),
        "{tool} leaked a byte from outside the root: {text}"
    );
}

/// The serve session of the hostile tests: the map folder as navmap picks it (no
/// `NAVMAP_DB`: the planted `.navmap` must be met, not bypassed).
async fn serve(root: &Path) -> Client {
    client_with(root, &[], &[("NAVMAP_DB", String::new())], None).await
}

/// Item 1: the nav tools through pyright on a root whose modules are symlinks out: the
/// answers leave those locations out and say so.
#[tokio::test]
async fn symlinks_out_never_leak_through_the_language_server() {
    if !require("pyright-langserver", true) {
        return;
    }
    let outside = Outside::new();
    let dir = hostile_root(&outside);
    let c = serve(dir.path()).await;
    let at = |line: u32, col: u32| json!({"file": "app/use.py", "line": line, "col": col});

    // `TOKEN` (line 6), `leak` (line 7), `leak2` (line 8): defined in files out.
    let def = call(&c, "nav_definition", at(6, 11)).await;
    no_secret("nav_definition", &def);
    assert!(
        ok(&def)["locations"].as_array().unwrap().is_empty(),
        "{def}"
    );
    assert!(warned(&def, "left out"), "{def}");

    let def2 = call(&c, "nav_definition", at(8, 5)).await;
    no_secret("nav_definition", &def2);
    assert!(warned(&def2, "left out"), "{def2}");

    let hover = call(&c, "nav_type", at(7, 5)).await;
    no_secret("nav_type", &hover);
    assert!(warned(&hover, "hover text left out"), "{hover}");

    let refs = call(&c, "nav_references", at(7, 5)).await;
    no_secret("nav_references", &refs);
    assert!(warned(&refs, "left out"), "{refs}");

    let ws = call(&c, "nav_workspaceSymbols", json!({"query": "leak"})).await;
    no_secret("nav_workspaceSymbols", &ws);
    let files: Vec<String> = ok(&ws)["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["file"].as_str().map(String::from))
        .collect();
    assert!(
        files
            .iter()
            .all(|f| f.starts_with("app/") && !f.starts_with("app/again")),
        "{ws}"
    );

    let calls = call(
        &c,
        "nav_callHierarchy",
        json!({"file": "app/use.py", "line": 5, "col": 5, "direction": "outgoing"}),
    )
    .await;
    no_secret("nav_callHierarchy", &calls);

    // A file argument through a symlink out is refused before any server sees it.
    for file in ["cfg.py", "lib/mod.py", "loop", "dangling.py"] {
        let env = call(&c, "nav_symbols", json!({"file": file})).await;
        assert_eq!(err_code(&env), "BAD_ARGS", "{file}: {env}");
        no_secret("nav_symbols", &env);
    }
    c.cancel().await.unwrap();
}

/// Every tool over MCP on the hostile root: no answer holds a byte of a file outside the
/// root, and nothing outside the root changed (checksums before and after).
#[tokio::test]
async fn a_hostile_repository_cannot_reach_outside_the_root() {
    let with_server = require("pyright-langserver", true);
    let outside = Outside::new();
    let before = outside.checksums();
    let dir = hostile_root(&outside);
    let c = serve(dir.path()).await;

    let mut answers: Vec<(String, Value)> = Vec::new();
    let mut ask = async |tool: &str, args: Value| {
        let env = call(&c, tool, args.clone()).await;
        no_secret(&format!("{tool} {args}"), &env);
        answers.push((tool.to_string(), env.clone()));
        env
    };
    let status = ask("map_status", json!({})).await;
    assert!(warned(&status, "MAP_FOLDER_REFUSED"), "{status}");
    ok(&ask("map_rebuild", json!({"full": true})).await);
    ask("map_overview", json!({})).await;
    let found = ask("map_search", json!({"query": "leak"})).await;
    for q in ["TOKEN", "Vault", "helper", "mod"] {
        ask("map_search", json!({"query": q})).await;
    }
    // What the map knows lies inside the root, and its IDs lead nowhere outside.
    let ids: Vec<String> = ok(&found)["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["id"].as_str().map(String::from))
        .collect();
    let file_id = "py:app/use.py".to_string();
    for id in ids.iter().chain([&file_id]) {
        ask("map_neighbors", json!({"nodeId": id, "depth": 2})).await;
        ask("map_path", json!({"from": id, "to": "py:app/own.py"})).await;
        if with_server {
            ask("resolve", json!({"nodeId": id})).await;
        }
    }
    for id in [
        "py:cfg.py",
        "py:lib/mod.py#leak",
        "py:cfg.py#TOKEN",
        "py:loop",
    ] {
        ask("map_neighbors", json!({"nodeId": id})).await;
        ask("resolve", json!({"nodeId": id})).await;
        ask("nav_definition", json!({"nodeId": id})).await;
    }
    for file in [
        "cfg.py",
        "lib/mod.py",
        "loop",
        "app/again/use.py",
        "dangling.py",
    ] {
        let env = ask("nav_symbols", json!({"file": file})).await;
        if file != "app/again/use.py" {
            assert_eq!(err_code(&env), "BAD_ARGS", "{file}: {env}");
        }
        ask("nav_definition", json!({"file": file, "line": 1})).await;
        ask("resolve", json!({"file": file, "line": 1})).await;
    }
    if with_server {
        for (line, col) in [
            (1, 17),
            (1, 24),
            (1, 30),
            (2, 28),
            (6, 11),
            (7, 5),
            (8, 5),
            (9, 12),
            (9, 20),
        ] {
            let at = json!({"file": "app/use.py", "line": line, "col": col});
            for tool in [
                "nav_definition",
                "nav_references",
                "nav_type",
                "nav_implementations",
            ] {
                ask(tool, at.clone()).await;
            }
            for direction in ["incoming", "outgoing"] {
                let mut args = at.clone();
                args["direction"] = json!(direction);
                ask("nav_callHierarchy", args).await;
            }
        }
        // The server really answers inside the root.
        let own = ask(
            "nav_definition",
            json!({"file": "app/own.py", "line": 6, "col": 12}),
        )
        .await;
        assert_eq!(ok(&own)["locations"][0]["file"], "app/own.py", "{own}");
        ask("nav_symbols", json!({"file": "app/use.py"})).await;
        for q in ["leak", "Vault", "TOKEN", "open"] {
            ask("nav_workspaceSymbols", json!({"query": q})).await;
        }
        ask(
            "nav_callHierarchy",
            json!({"file": "app/own.py", "line": 1, "col": 5, "direction": "incoming", "depth": 3}),
        )
        .await;
    }
    c.cancel().await.unwrap();

    assert!(answers.len() > 30, "{} answers", answers.len());
    assert_eq!(
        outside.checksums(),
        before,
        "something outside the root changed"
    );
    // The map was kept in memory: nothing was written through the planted folder.
    assert!(!outside.path.join("mapdir/.gitignore").exists());
}

/// Item 2 in the CLI: a planted `.navmap` is refused with exit 2 and a clear message,
/// and a file at the map path that is not navmap's map is never overwritten.
#[test]
fn a_planted_map_folder_is_refused_and_nothing_is_overwritten() {
    let outside = Outside::new();
    let before = outside.checksums();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "def fetch():\n    return 1\n").unwrap();
    symlink(outside.path.join("mapdir"), dir.path().join(".navmap")).unwrap();
    let run = |root: &Path, extra: &[&str]| {
        std::process::Command::new(NAVMAP)
            .args(["call", "map_search", r#"{"query":"fetch"}"#, "--root"])
            .arg(root)
            .args(extra)
            .env_remove("NAVMAP_DB")
            .output()
            .unwrap()
    };
    let out = run(dir.path(), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("MAP_FOLDER_REFUSED") && err.contains("symlink"),
        "{err}"
    );
    assert_eq!(outside.checksums(), before);

    // Not a symlink, but a file there that is not navmap's map: an error, untouched.
    std::fs::remove_file(dir.path().join(".navmap")).unwrap();
    std::fs::create_dir(dir.path().join(".navmap")).unwrap();
    std::fs::write(dir.path().join(".navmap/map.db"), "precious\n").unwrap();
    let out = run(dir.path(), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not an SQLite database"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".navmap/map.db")).unwrap(),
        "precious\n"
    );

    // Named explicitly, a database elsewhere is the user's choice.
    let db = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["--db", db.path().join("m.db").to_str().unwrap()],
    );
    // Not refused: the first call builds the map there and answers.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("py:a.py#fetch"), "{stdout}");
    assert!(db.path().join("m.db").exists());
    assert_eq!(outside.checksums(), before);
}

/// Item 6: a file the map skips (binary, invalid UTF-8) is answered at once, never sent
/// to the language server (which timed out on it).
#[tokio::test]
async fn skipped_files_are_not_sent_to_the_language_server() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bin.py"), b"x = 1\n\0\0\x01binary\n").unwrap();
    std::fs::write(dir.path().join("latin.py"), b"s = '\xe9t\xe9'\n").unwrap();
    let c = client_with(dir.path(), &["--no-build"], &[], None).await;
    for (file, why) in [("bin.py", "binary"), ("latin.py", "invalid_utf8")] {
        for tool in ["nav_definition", "nav_type", "nav_references"] {
            let env = call(&c, tool, json!({"file": file, "line": 1, "col": 1})).await;
            assert_eq!(err_code(&env), "BAD_ARGS", "{tool} {file}: {env}");
            assert_eq!(env["error"]["skipped"], why, "{env}");
            assert_eq!(env["error"]["field"], "file", "{env}");
        }
    }
    c.cancel().await.unwrap();
}

/// A repository that plants a program where a language's server would be looked for (its
/// own `node_modules/.bin`) does not get it run: the project's programs are searched only
/// when the user trusts them (`NAVMAP_PROJECT_SERVERS=1`). Kotlin's server is not installed
/// here, so the planted one is all there is.
#[tokio::test]
async fn a_server_program_planted_in_the_project_never_runs() {
    let outside = tempfile::tempdir().unwrap();
    let marker = outside.path().join("ran");
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    let planted = bin.join("kotlin-language-server");
    std::fs::write(
        &planted,
        format!("#!/bin/sh\ntouch '{}'\nsleep 5\n", marker.display()),
    )
    .unwrap();
    let mut perm = std::fs::metadata(&planted).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&planted, perm).unwrap();
    std::fs::write(
        dir.path().join("A.kt"),
        "class A {\n    fun run(): Int = 1\n}\n",
    )
    .unwrap();
    let c = client_with(
        dir.path(),
        &["--no-build"],
        &[("NAVMAP_PROJECT_SERVERS", String::new())],
        None,
    )
    .await;
    let env = call(&c, "nav_symbols", json!({"file": "A.kt"})).await;
    c.cancel().await.unwrap();
    assert!(!marker.exists(), "the planted program ran: {env}");
    if env["ok"] == false {
        assert_eq!(err_code(&env), "LSP_UNAVAILABLE", "{env}");
    }
}
