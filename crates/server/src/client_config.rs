//! Registering navmap with an MCP client (`navmap setup <client>`): which file each client
//! reads, in which format, and merging navmap's entry into it without touching the rest.
//!
//! The formats, from each client's documentation (checked 2026-11):
//!
//! | client | project scope | user scope | shape |
//! |---|---|---|---|
//! | Claude Code | `.mcp.json` | `~/.claude.json` | JSON `mcpServers.<name>` `{type: "stdio", command, args, env}` |
//! | Codex CLI | `.codex/config.toml` (trusted projects) | `$CODEX_HOME/config.toml` (`~/.codex`) | TOML `[mcp_servers.<name>]` `command`, `args`, `env` |
//! | Cursor | `.cursor/mcp.json` | `~/.cursor/mcp.json` | JSON `mcpServers.<name>` `{command, args, env}` |
//! | VS Code | `.vscode/mcp.json` | the profile's `mcp.json` (`~/.config/Code/User/mcp.json`) | JSON `servers.<name>` `{type: "stdio", command, args, env}` |
//! | Gemini CLI | `.gemini/settings.json` | `~/.gemini/settings.json` | JSON `mcpServers.<name>` `{command, args, env}` |
//! | Windsurf | (none) | `~/.codeium/windsurf/mcp_config.json` | JSON `mcpServers.<name>` `{command, args, env}` |
//!
//! A merge replaces only `<servers key>.navmap`; every other key and value of the file
//! stays (a JSON file is written back pretty-printed with its keys in serde_json's order;
//! a TOML file keeps its layout and comments). A file that does not parse (JSON with comments, broken TOML) is left alone with an
//! error rather than rewritten.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// The clients `navmap setup` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    Claude,
    Codex,
    Cursor,
    VsCode,
    Gemini,
    Windsurf,
}

/// Where the entry goes: the project's own file or the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Project,
    User,
}

/// The server entry: what the client runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub command: String,
    pub args: Vec<String>,
    /// Variables the client sets for navmap (sorted by name).
    pub env: Vec<(String, String)>,
}

/// The name of navmap's entry in every client's file.
pub const NAME: &str = "navmap";

impl Client {
    pub const ALL: [Client; 6] = [
        Client::Claude,
        Client::Codex,
        Client::Cursor,
        Client::VsCode,
        Client::Gemini,
        Client::Windsurf,
    ];

    /// The name on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Codex => "codex",
            Client::Cursor => "cursor",
            Client::VsCode => "vscode",
            Client::Gemini => "gemini",
            Client::Windsurf => "windsurf",
        }
    }

    pub fn from_id(id: &str) -> Option<Client> {
        let id = id.to_ascii_lowercase();
        let id = match id.as_str() {
            "claude-code" => "claude",
            "code" | "vs-code" => "vscode",
            "gemini-cli" => "gemini",
            "codex-cli" => "codex",
            other => other,
        };
        Client::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The client's name as its documentation writes it.
    pub fn title(self) -> &'static str {
        match self {
            Client::Claude => "Claude Code",
            Client::Codex => "Codex CLI",
            Client::Cursor => "Cursor",
            Client::VsCode => "VS Code",
            Client::Gemini => "Gemini CLI",
            Client::Windsurf => "Windsurf",
        }
    }

    /// The scope used when none is asked for: the project's file where the client has
    /// one (shared with the team, found by the client in that project only).
    pub fn default_scope(self) -> Scope {
        match self {
            Client::Windsurf => Scope::User,
            _ => Scope::Project,
        }
    }

    /// The configuration file for `scope`, or why the client has none there.
    /// `home` is the user's home; `codex_home` Codex's `CODEX_HOME` when set.
    pub fn path(
        self,
        scope: Scope,
        project: &Path,
        home: &Path,
        codex_home: Option<&Path>,
    ) -> Result<PathBuf, String> {
        Ok(match (self, scope) {
            (Client::Claude, Scope::Project) => project.join(".mcp.json"),
            (Client::Claude, Scope::User) => home.join(".claude.json"),
            (Client::Codex, Scope::Project) => project.join(".codex/config.toml"),
            (Client::Codex, Scope::User) => codex_home
                .map(Path::to_path_buf)
                .unwrap_or_else(|| home.join(".codex"))
                .join("config.toml"),
            (Client::Cursor, Scope::Project) => project.join(".cursor/mcp.json"),
            (Client::Cursor, Scope::User) => home.join(".cursor/mcp.json"),
            (Client::VsCode, Scope::Project) => project.join(".vscode/mcp.json"),
            (Client::VsCode, Scope::User) => vscode_user_dir(home).join("mcp.json"),
            (Client::Gemini, Scope::Project) => project.join(".gemini/settings.json"),
            (Client::Gemini, Scope::User) => home.join(".gemini/settings.json"),
            (Client::Windsurf, Scope::User) => home.join(".codeium/windsurf/mcp_config.json"),
            (Client::Windsurf, Scope::Project) => {
                return Err(
                    "Windsurf reads MCP servers only from the user's ~/.codeium/windsurf/mcp_config.json: use --scope user"
                        .into(),
                );
            }
        })
    }

    /// The top-level key holding the servers.
    fn servers_key(self) -> &'static str {
        match self {
            Client::VsCode => "servers",
            Client::Codex => "mcp_servers",
            _ => "mcpServers",
        }
    }

    /// Whether the entry says `"type": "stdio"` (the clients whose documented stdio
    /// entries carry it; VS Code requires it).
    fn typed(self) -> bool {
        matches!(self, Client::Claude | Client::VsCode)
    }
}

/// VS Code's user folder (`Code/User`), whose `mcp.json` holds the default profile's
/// servers.
fn vscode_user_dir(home: &Path) -> PathBuf {
    if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Code/User")
    } else {
        std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".config"))
            .join("Code/User")
    }
}

/// What merging produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The whole new file.
    pub text: String,
    /// The file already held exactly this entry: nothing to write.
    pub unchanged: bool,
    /// navmap's entry as written, for the summary.
    pub entry_text: String,
}

/// Merges `entry` into `existing` (the file's text, `None` when there is no file) in the
/// client's format.
pub fn merge(client: Client, existing: Option<&str>, entry: &Entry) -> Result<Merged, String> {
    if client == Client::Codex {
        merge_toml(existing, entry)
    } else {
        merge_json(client, existing, entry)
    }
}

fn json_entry(client: Client, entry: &Entry) -> Value {
    let mut m = Map::new();
    if client.typed() {
        m.insert("type".into(), "stdio".into());
    }
    m.insert("command".into(), entry.command.clone().into());
    m.insert(
        "args".into(),
        Value::Array(entry.args.iter().cloned().map(Value::from).collect()),
    );
    if !entry.env.is_empty() {
        let env: Map<String, Value> = entry
            .env
            .iter()
            .map(|(k, v)| (k.clone(), Value::from(v.clone())))
            .collect();
        m.insert("env".into(), Value::Object(env));
    }
    Value::Object(m)
}

fn merge_json(client: Client, existing: Option<&str>, entry: &Entry) -> Result<Merged, String> {
    let mut root = match existing.map(str::trim) {
        None | Some("") => Value::Object(Map::new()),
        Some(text) => serde_json::from_str::<Value>(text).map_err(|e| {
            format!("it is not plain JSON ({e}); navmap leaves it alone: add the entry by hand")
        })?,
    };
    let Some(obj) = root.as_object_mut() else {
        return Err("its top level is not a JSON object; navmap leaves it alone".into());
    };
    let key = client.servers_key();
    let servers = obj
        .entry(key.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(servers) = servers.as_object_mut() else {
        return Err(format!(
            "its `{key}` is not an object; navmap leaves it alone"
        ));
    };
    let new = json_entry(client, entry);
    let unchanged = servers.get(NAME) == Some(&new);
    servers.insert(NAME.to_string(), new.clone());
    let text = serde_json::to_string_pretty(&root).map_err(|e| e.to_string())? + "\n";
    let entry_text = serde_json::to_string_pretty(&serde_json::json!({ key: { NAME: new } }))
        .map_err(|e| e.to_string())?;
    Ok(Merged {
        text,
        unchanged,
        entry_text,
    })
}

fn merge_toml(existing: Option<&str>, entry: &Entry) -> Result<Merged, String> {
    use toml_edit::{Array, DocumentMut, Item, Table, value};
    let mut doc: DocumentMut = existing.unwrap_or("").parse().map_err(|e| {
        format!("it is not valid TOML ({e}); navmap leaves it alone: add the entry by hand")
    })?;
    let mut t = Table::new();
    t.insert("command", value(entry.command.as_str()));
    let args: Array = entry.args.iter().map(String::as_str).collect();
    t.insert("args", value(args));
    if !entry.env.is_empty() {
        let mut env = toml_edit::InlineTable::new();
        for (k, v) in &entry.env {
            env.insert(k, v.as_str().into());
        }
        t.insert("env", value(env));
    }
    let servers = doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut t = Table::new();
            // `[mcp_servers.navmap]` alone, no empty `[mcp_servers]` header.
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_mut()
        .ok_or("its `mcp_servers` is not a table; navmap leaves it alone")?;
    let same = |old: &Item| {
        old.as_table()
            .is_some_and(|o| o.to_string() == t.to_string())
    };
    let unchanged = servers.get(NAME).is_some_and(same);
    if !unchanged {
        servers.insert(NAME, Item::Table(t.clone()));
    }
    let mut shown = DocumentMut::new();
    let mut parent = Table::new();
    parent.set_implicit(true);
    parent.insert(NAME, Item::Table(t));
    shown.insert("mcp_servers", Item::Table(parent));
    Ok(Merged {
        text: doc.to_string(),
        unchanged,
        entry_text: shown.to_string().trim_end().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            command: "/bin/navmap".into(),
            args: vec!["serve".into()],
            env: vec![("NAVMAP_DATA_DIR".into(), "/d".into())],
        }
    }

    #[test]
    fn json_keeps_other_entries() {
        let before = r#"{"z": 1, "mcpServers": {"other": {"command": "x"}}, "a": [1]}"#;
        let m = merge(Client::Cursor, Some(before), &entry()).unwrap();
        let v: Value = serde_json::from_str(&m.text).unwrap();
        assert_eq!(v["mcpServers"]["other"]["command"], "x");
        assert_eq!(v["mcpServers"]["navmap"]["args"][0], "serve");
        assert_eq!(v["mcpServers"]["navmap"]["env"]["NAVMAP_DATA_DIR"], "/d");
        assert_eq!(v["z"], 1);
        assert_eq!(v["a"], serde_json::json!([1]));
        assert!(!m.unchanged);
        let again = merge(Client::Cursor, Some(&m.text), &entry()).unwrap();
        assert!(again.unchanged);
        assert_eq!(again.text, m.text);
    }

    #[test]
    fn vscode_uses_servers_with_a_type() {
        let m = merge(Client::VsCode, None, &entry()).unwrap();
        let v: Value = serde_json::from_str(&m.text).unwrap();
        assert_eq!(v["servers"]["navmap"]["type"], "stdio");
        assert!(v.get("mcpServers").is_none());
    }

    #[test]
    fn toml_keeps_comments_and_other_tables() {
        let before = "# mine\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let m = merge(Client::Codex, Some(before), &entry()).unwrap();
        assert!(m.text.starts_with("# mine\nmodel = \"o3\"\n"), "{}", m.text);
        let v: toml::Value = toml::from_str(&m.text).unwrap();
        assert_eq!(v["mcp_servers"]["other"]["command"].as_str(), Some("x"));
        assert_eq!(
            v["mcp_servers"]["navmap"]["command"].as_str(),
            Some("/bin/navmap")
        );
        assert_eq!(
            v["mcp_servers"]["navmap"]["env"]["NAVMAP_DATA_DIR"].as_str(),
            Some("/d")
        );
        let again = merge(Client::Codex, Some(&m.text), &entry()).unwrap();
        assert!(again.unchanged, "{}", m.text);
        assert_eq!(again.text, m.text);
        assert!(!m.text.contains("[mcp_servers]\n"), "{}", m.text);
    }

    #[test]
    fn unparsable_files_are_refused() {
        assert!(merge(Client::VsCode, Some("{ // comment\n}"), &entry()).is_err());
        assert!(merge(Client::Codex, Some("[[["), &entry()).is_err());
        assert!(merge(Client::Claude, Some("[1]"), &entry()).is_err());
        assert!(merge(Client::Claude, Some(r#"{"mcpServers": 3}"#), &entry()).is_err());
    }
}
