//! The command line: `status`, `call`, `servers`, and the exit codes.

use std::process::{Command, Output};

use serde_json::Value;

const NAVMAP: &str = env!("CARGO_BIN_EXE_navmap");

fn navmap(args: &[&str]) -> Output {
    Command::new(NAVMAP)
        .args(args)
        .env_remove("NAVMAP_TEST_PANIC_TOOL")
        .env_remove("NAVMAP_TOKEN_BUDGET")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn a_missing_or_non_directory_root_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "x").unwrap();
    let missing = dir.path().join("nope");
    for (root, words) in [(&missing, "does not exist"), (&file, "is not a directory")] {
        for cmd in [vec!["serve"], vec!["status"], vec!["call", "map_status"]] {
            let mut args = cmd.clone();
            args.extend(["--root", root.to_str().unwrap()]);
            let o = navmap(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(o.stdout.is_empty(), "{args:?}");
            let err = String::from_utf8(o.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with("navmap: root ") && err.contains(words),
                "{err}"
            );
        }
    }
}

#[test]
fn call_prints_one_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    // The status lists every configured language's server with its install hint: with
    // many languages that needs more than a few hundred tokens, and a status that does not
    // fit is dropped whole (not cut), so ask for enough.
    let o = navmap(&[
        "call",
        "map_status",
        r#"{"tokenBudget":1500}"#,
        "--root",
        root,
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1);
    let env: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(env["ok"], true);
    assert_eq!(env["data"]["built"], false);
    assert_eq!(env["tokenBudget"]["requested"], 1500);

    let o = navmap(&[
        "call",
        "map_search",
        r#"{"query":"Cart","kind":"gizmo"}"#,
        "--root",
        root,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let env: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(env["error"]["code"], "BAD_ARGS");
    assert_eq!(env["error"]["field"], "kind");

    let o = navmap(&["call", "map_status", "{not json", "--root", root]);
    assert_eq!(o.status.code(), Some(1));
    let env: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(env["error"]["code"], "BAD_ARGS");
}

#[test]
fn status_summarises_and_json_prints_the_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let o = navmap(&["status", "--root", root]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.contains("map: not built"), "{text}");
    assert!(text.contains("languages: py"), "{text}");

    let o = navmap(&["status", "--json", "--root", root]);
    let env: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        env["data"]["root"],
        dir.path().canonicalize().unwrap().display().to_string()
    );
}

#[test]
fn root_defaults_to_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(NAVMAP)
        .args(["call", "map_status"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let env: Value = serde_json::from_str(&String::from_utf8(o.stdout).unwrap()).unwrap();
    assert_eq!(
        env["data"]["root"],
        dir.path().canonicalize().unwrap().display().to_string()
    );
}

#[test]
fn the_budget_default_comes_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(NAVMAP)
        .args(["call", "map_status", "--root", dir.path().to_str().unwrap()])
        .env("NAVMAP_TOKEN_BUDGET", "700")
        .output()
        .unwrap();
    let env: Value = serde_json::from_str(&String::from_utf8(o.stdout).unwrap()).unwrap();
    // Reported although the call passed none: it is not the documented 2000.
    assert_eq!(env["tokenBudget"]["requested"], 700);
}

/// `navmap call` does what `serve` does at start-up: a file changed since the last index
/// is noticed (size/mtime), re-indexed first when few changed, never served stale silently.
#[test]
fn call_notices_files_changed_since_the_last_index() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let file = dir.path().join("mod.py");
    std::fs::write(&file, "def target():\n    return 1\n").unwrap();
    let o = navmap(&["rebuild", "--root", root]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let search = || {
        let o = navmap(&[
            "call",
            "map_search",
            r#"{"query":"target"}"#,
            "--root",
            root,
        ]);
        let env: Value = serde_json::from_str(&stdout(&o)).unwrap();
        env["data"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "py:mod.py#target")
            .cloned()
            .unwrap_or_else(|| panic!("{env}"))
    };
    assert_eq!(search()["line"], 1);
    // Three lines above it: the next call sees them.
    std::fs::write(&file, "import os\n\n\ndef target():\n    return os.sep\n").unwrap();
    let hit = search();
    assert_eq!(hit["line"], 4, "{hit}");
    assert!(hit.get("stale").is_none_or(|s| s == false), "{hit}");
}

/// `navmap rebuild` on an unchanged repository answers from SQLite without loading the map
/// ("up to date", the last build's figures); any change goes through the real rebuild.
#[test]
fn rebuild_with_nothing_changed_is_told_without_loading_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let write_old = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        // Older than two seconds: a just-written file is re-read by the next build anyway.
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(60))
            .unwrap();
    };
    write_old(
        "a.py",
        "from b import helper\n\ndef main():\n    helper()\n",
    );
    write_old("b.py", "def helper():\n    return 1\n");
    let rebuild = || {
        let o = navmap(&["rebuild", "--root", root]);
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        stdout(&o).trim().to_string()
    };
    let first = rebuild();
    assert!(
        first.starts_with("2 files (2 indexed, 0 deleted)"),
        "{first}"
    );
    assert!(!first.ends_with("up to date"), "{first}");
    let second = rebuild();
    assert!(
        second.starts_with("2 files (0 indexed, 0 deleted)"),
        "{second}"
    );
    assert!(second.ends_with(", up to date"), "{second}");
    // Same symbols and edges as the build that made the map.
    let figures = |l: &str| {
        l.split(", ")
            .skip(2)
            .take(2)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(figures(&first), figures(&second));
    write_old("b.py", "def helper():\n    return 22\n");
    let third = rebuild();
    assert!(
        third.starts_with("2 files (1 indexed, 0 deleted)"),
        "{third}"
    );
    assert!(!third.ends_with("up to date"), "{third}");
    // `--full` makes the map anew (without loading the old one): every file, the same
    // figures; the map it leaves is as good as any (the next rebuild is up to date).
    let o = navmap(&["rebuild", "--full", "--root", root]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let full = stdout(&o).trim().to_string();
    assert!(full.starts_with("2 files (2 indexed, 0 deleted)"), "{full}");
    assert_eq!(figures(&third), figures(&full));
    assert!(rebuild().ends_with(", up to date"));
    let status = navmap(&["status", "--root", root, "--json"]);
    let env: Value = serde_json::from_str(&stdout(&status)).unwrap();
    assert_eq!(env["data"]["generation"], 3, "{env}");
}

/// `navmap servers` and `navmap servers install` on a machine with no server and no package
/// tool (an empty `PATH` and data dir): every server is listed as missing with its install
/// command, an unknown language is exit 2, and an install that no registry here can do is
/// exit 1 naming the tool its recipe needs — no network, nothing written but the data dir.
#[test]
fn servers_lists_and_install_reports_what_it_cannot_do() {
    let data = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(NAVMAP)
            .args(args)
            .env("PATH", "/nonexistent")
            .env("NAVMAP_DATA_DIR", data.path())
            .current_dir(data.path())
            .output()
            .unwrap()
    };

    let o = run(&["servers", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let listing: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        listing["dataDir"].as_str(),
        Some(data.path().to_str().unwrap())
    );
    let servers = listing["servers"].as_array().unwrap();
    assert!(!servers.is_empty(), "{listing}");
    for s in servers {
        assert!(s["found"].is_null(), "{s}");
        assert!(s["command"].as_str().is_some_and(|c| !c.is_empty()), "{s}");
        assert!(s["install"].as_str().is_some_and(|c| !c.is_empty()), "{s}");
    }
    // A language with a recipe is installed by navmap itself.
    let with_recipe = servers
        .iter()
        .find(|s| {
            s["install"]
                .as_str()
                .unwrap()
                .starts_with("navmap servers install ")
        })
        .expect("some language has an [lsp.install] recipe");
    let lang = with_recipe["language"].as_str().unwrap();
    assert_eq!(
        with_recipe["install"],
        format!("navmap servers install {lang}")
    );

    let text = stdout(&run(&["servers"]));
    assert!(
        text.contains("missing — install: navmap servers install"),
        "{text}"
    );
    // One column for the state, whatever the length of a language's id or command.
    let starts: Vec<usize> = text
        .lines()
        .skip(1)
        .map(|l| l.find(" missing — ").expect(l))
        .collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{text}");

    let o = run(&["servers", "install", "no-such-language"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("unknown language `no-such-language`"),
        "{o:?}"
    );

    let o = run(&["servers", "install", lang]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let text = stdout(&o);
    assert!(
        text.starts_with(&format!(
            "{lang}: no usable package tool here (its recipe needs "
        )),
        "{text}"
    );
    assert!(std::fs::read_dir(data.path()).unwrap().next().is_none());
}

/// `navmap call … | head -c0`: a reader that is gone ends navmap quietly (status 0, no
/// panic message), as for any Unix filter; `println!` would panic on the broken pipe.
#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    for args in [
        vec!["call", "map_status", "--root", root],
        vec!["status", "--root", root],
        vec!["servers"],
    ] {
        let mut child = Command::new(NAVMAP)
            .args(&args)
            .env_remove("NAVMAP_TEST_PANIC_TOOL")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before navmap writes anything.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
    }
}
