//! `navmap setup <client>`: the binary writes each client's own file in its own format,
//! read back here: other entries kept, a second run changes nothing, `--dry-run` writes
//! nothing, `NAVMAP_DATA_DIR` carried only when it is not the default.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// `navmap setup args…` in `project`, with `home` as HOME and `data` as NAVMAP_DATA_DIR.
fn setup(project: &Path, home: &Path, data: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(common::NAVMAP);
    cmd.arg("setup").args(args).current_dir(project);
    for (k, _) in std::env::vars() {
        if k.starts_with("NAVMAP_")
            || k == "XDG_DATA_HOME"
            || k == "XDG_CONFIG_HOME"
            || k == "CODEX_HOME"
        {
            cmd.env_remove(k);
        }
    }
    cmd.env("HOME", home);
    if let Some(d) = data {
        cmd.env("NAVMAP_DATA_DIR", d);
    }
    let out = cmd.output().expect("run navmap setup");
    assert!(
        out.status.success(),
        "navmap setup {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn navmap_exe() -> String {
    Path::new(common::NAVMAP)
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

/// Every JSON client, both scopes where it has them: the file it reads, under the key it
/// reads, with the entry it runs.
#[test]
fn json_clients_get_their_own_file_and_key() {
    let cases: &[(&str, &str, &str, &str, bool)] = &[
        // client, scope, file (relative to project or home), servers key, "type": "stdio"
        ("claude", "project", "P/.mcp.json", "mcpServers", true),
        ("claude", "user", "H/.claude.json", "mcpServers", true),
        (
            "cursor",
            "project",
            "P/.cursor/mcp.json",
            "mcpServers",
            false,
        ),
        ("cursor", "user", "H/.cursor/mcp.json", "mcpServers", false),
        ("vscode", "project", "P/.vscode/mcp.json", "servers", true),
        (
            "vscode",
            "user",
            "H/.config/Code/User/mcp.json",
            "servers",
            true,
        ),
        (
            "gemini",
            "project",
            "P/.gemini/settings.json",
            "mcpServers",
            false,
        ),
        (
            "gemini",
            "user",
            "H/.gemini/settings.json",
            "mcpServers",
            false,
        ),
        (
            "windsurf",
            "user",
            "H/.codeium/windsurf/mcp_config.json",
            "mcpServers",
            false,
        ),
    ];
    for &(client, scope, file, key, typed) in cases {
        let t = tempfile::tempdir().unwrap();
        let (project, home) = (t.path().join("p"), t.path().join("h"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let path = match file.split_once('/').unwrap() {
            ("P", rest) => project.join(rest),
            (_, rest) => home.join(rest),
        };
        // Someone else's entry and a setting of the client's own, written first.
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            format!(r#"{{"theme": "dark", "{key}": {{"other": {{"command": "x", "args": []}}}}}}"#),
        )
        .unwrap();
        let out = setup(&project, &home, None, &[client, "--scope", scope]);
        let v = json(&path);
        let e = &v[key]["navmap"];
        assert_eq!(e["command"], navmap_exe(), "{client} {scope}: {v}");
        assert_eq!(e["args"][0], "serve", "{client} {scope}: {v}");
        assert_eq!(e.get("type").is_some(), typed, "{client} {scope}: {v}");
        if typed {
            assert_eq!(e["type"], "stdio");
        }
        // The default data dir: no env.
        assert!(e.get("env").is_none(), "{client} {scope}: {v}");
        if client == "vscode" {
            assert_eq!(
                e["args"],
                serde_json::json!(["serve", "--root", "${workspaceFolder}"])
            );
        } else {
            assert_eq!(e["args"], serde_json::json!(["serve"]), "{client}");
            assert!(
                stdout(&out).contains("working directory"),
                "{}",
                stdout(&out)
            );
        }
        assert_eq!(v["theme"], "dark", "{client} {scope}: {v}");
        assert_eq!(v[key]["other"]["command"], "x", "{client} {scope}: {v}");
        assert!(
            stdout(&out).contains(&path.display().to_string()),
            "{}",
            stdout(&out)
        );
        assert!(stdout(&out).contains("wrote"), "{}", stdout(&out));

        // Idempotent: the same bytes, and says so.
        let before = std::fs::read(&path).unwrap();
        let again = setup(&project, &home, None, &[client, "--scope", scope]);
        assert_eq!(std::fs::read(&path).unwrap(), before, "{client} {scope}");
        assert!(stdout(&again).contains("already has"), "{}", stdout(&again));
    }
}

/// The default scope is the project's file; a dry run prints the entry and writes nothing.
#[test]
fn dry_run_writes_nothing_and_default_scope_is_project() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("h");
    std::fs::create_dir_all(&home).unwrap();
    let out = setup(t.path(), &home, None, &["cursor", "--dry-run"]);
    assert!(!t.path().join(".cursor").exists());
    assert!(std::fs::read_dir(&home).unwrap().next().is_none());
    let text = stdout(&out);
    assert!(text.contains("would write"), "{text}");
    assert!(text.contains("\"mcpServers\""), "{text}");
    assert!(text.contains(&navmap_exe()), "{text}");
    setup(t.path(), &home, None, &["cursor"]);
    assert!(t.path().join(".cursor/mcp.json").is_file());
}

/// Codex's TOML: `[mcp_servers.navmap]` beside the user's own settings and comments.
#[test]
fn codex_toml_keeps_the_rest_of_the_file() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("h");
    let path = home.join(".codex/config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mine =
        "# my settings\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\nargs = [\"-y\"]\n";
    std::fs::write(&path, mine).unwrap();
    let data = t.path().join("servers");
    std::fs::create_dir_all(&data).unwrap();
    setup(t.path(), &home, Some(&data), &["codex", "--scope", "user"]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(mine), "{text}");
    let v: toml::Value = toml::from_str(&text).unwrap();
    let e = &v["mcp_servers"]["navmap"];
    assert_eq!(e["command"].as_str(), Some(navmap_exe().as_str()), "{text}");
    assert_eq!(e["args"].as_array().unwrap()[0].as_str(), Some("serve"));
    // Servers installed to a non-default data dir: the client must pass it on.
    assert_eq!(
        e["env"]["NAVMAP_DATA_DIR"].as_str(),
        Some(data.canonicalize().unwrap().display().to_string().as_str()),
        "{text}"
    );
    assert_eq!(v["mcp_servers"]["other"]["command"].as_str(), Some("x"));
    let again = setup(t.path(), &home, Some(&data), &["codex", "--scope", "user"]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert!(stdout(&again).contains("already has"));
    // Project scope: the project's .codex/config.toml.
    setup(t.path(), &home, None, &["codex"]);
    let v: toml::Value =
        toml::from_str(&std::fs::read_to_string(t.path().join(".codex/config.toml")).unwrap())
            .unwrap();
    assert!(v["mcp_servers"]["navmap"].get("env").is_none());
}

/// `--root` is written as an absolute path; the default data dir is not written as env.
#[test]
fn root_and_default_data_dir() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("h");
    std::fs::create_dir_all(t.path().join("repo")).unwrap();
    // NAVMAP_DATA_DIR set to exactly the default ($HOME/.local/share/navmap): no env.
    let default = home.join(".local/share/navmap");
    setup(
        t.path(),
        &home,
        Some(&default),
        &["claude", "--root", "repo"],
    );
    let v = json(&t.path().join("repo/.mcp.json"));
    let e = &v["mcpServers"]["navmap"];
    let repo = t.path().join("repo").canonicalize().unwrap();
    assert_eq!(
        e["args"],
        serde_json::json!(["serve", "--root", repo.display().to_string()])
    );
    assert!(e.get("env").is_none(), "{v}");
}

/// Bad input: an unknown client or scope, Windsurf's missing project scope, and a file
/// that is not plain JSON (left as it was).
#[test]
fn refusals_are_clear_and_touch_nothing() {
    let t = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(common::NAVMAP)
            .arg("setup")
            .args(args)
            .current_dir(t.path())
            .env("HOME", t.path())
            .output()
            .unwrap()
    };
    let o = run(&["emacs"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("known: claude, codex"));
    let o = run(&["claude", "--scope", "team"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["windsurf", "--scope", "project"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--scope user"));
    let path = t.path().join(".vscode/mcp.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let commented = "{\n  // mine\n  \"servers\": {}\n}\n";
    std::fs::write(&path, commented).unwrap();
    let o = run(&["vscode"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not plain JSON"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), commented);
}
