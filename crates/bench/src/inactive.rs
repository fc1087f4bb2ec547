//! The regions of a C/C++ corpus that clangd does not analyse: preprocessor branches that
//! are off under the compilation database (`#ifdef __wasm__`, `#if TREE_SITTER_FEATURE_WASM`,
//! a macro defined under `#ifdef DEBUG`). clangd has no references there, so a use the map
//! reads in such a region can be neither confirmed nor refuted by it: `navmap-bench
//! accuracy` counts those apart ("inactive") instead of scoring them.
//!
//! The regions are clangd's own: it is started on the corpus (the same compilation
//! database the truth uses), every C/C++ file is opened, and the
//! `textDocument/inactiveRegions` notifications it sends (clangd ≥ 17, with the client
//! capability `textDocument.inactiveRegionsCapabilities.inactiveRegions`) are collected.
//! A plain LSP conversation by hand (`Content-Length` frames over stdio), nothing else.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Inactive line ranges (1-based, inclusive) per root-relative file.
#[derive(Debug, Default, Clone)]
pub struct Inactive {
    pub files: HashMap<String, Vec<(u32, u32)>>,
}

impl Inactive {
    /// Whether `line` (1-based) of `file` is in a region clangd does not analyse.
    pub fn holds(&self, file: &str, line: u32) -> bool {
        self.files
            .get(file)
            .is_some_and(|r| r.iter().any(|(a, b)| *a <= line && line <= *b))
    }

    /// Adds the regions of one `textDocument/inactiveRegions` notification (`params`),
    /// its URI made relative to `root`.
    pub fn add_notification(&mut self, root: &Path, params: &Value) {
        let Some(uri) = params["textDocument"]["uri"].as_str() else {
            return;
        };
        let path = uri.strip_prefix("file://").unwrap_or(uri);
        let rel = Path::new(path)
            .strip_prefix(root)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| path.to_string());
        let regions = params["regions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| {
                let a = r["start"]["line"].as_u64()? as u32 + 1;
                let b = r["end"]["line"].as_u64()? as u32 + 1;
                Some((a, b))
            })
            .collect();
        // The latest notification for a file replaces the earlier ones.
        self.files.insert(rel, regions);
    }
}

fn frame(v: &Value) -> Vec<u8> {
    let body = v.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Reads `Content-Length` frames from clangd into a channel.
fn reader(out: impl Read + Send + 'static) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(out);
        loop {
            let mut len = None;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length:") {
                    len = n.trim().parse::<usize>().ok();
                }
            }
            let Some(len) = len else { return };
            let mut body = vec![0; len];
            if r.read_exact(&mut body).is_err() {
                return;
            }
            if let Ok(v) = serde_json::from_slice::<Value>(&body)
                && tx.send(v).is_err()
            {
                return;
            }
        }
    });
    rx
}

/// Asks clangd (`command`, run in `root` with `PATH` `path_env`) for the inactive regions
/// of `files` (root-relative, each with its LSP language id). Waits until every file has
/// been analysed (its diagnostics published) or `limit` has passed.
pub fn probe(
    command: &[String],
    path_env: &str,
    root: &Path,
    files: &[(String, String)],
    limit: Duration,
) -> Result<Inactive, String> {
    let (prog, args) = command.split_first().ok_or("no clangd command")?;
    let mut child = Command::new(prog)
        .args(args)
        .current_dir(root)
        .env("PATH", path_env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {prog}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let rx = reader(child.stdout.take().ok_or("no stdout")?);
    let root_uri = format!("file://{}", root.display());
    let mut send = |v: Value| stdin.write_all(&frame(&v)).map_err(|e| e.to_string());
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": std::process::id(), "rootUri": root_uri,
            "capabilities": {"textDocument": {
                "inactiveRegionsCapabilities": {"inactiveRegions": true},
                "publishDiagnostics": {}
            }}
        }}),
    )?;
    let deadline = Instant::now() + limit;
    let mut out = Inactive::default();
    let mut analysed = std::collections::HashSet::new();
    let mut initialized = false;
    while Instant::now() < deadline {
        let Ok(msg) = rx.recv_timeout(Duration::from_millis(500)) else {
            if initialized && analysed.len() >= files.len() {
                break;
            }
            continue;
        };
        if msg["id"] == 1 && msg.get("result").is_some() && !initialized {
            initialized = true;
            send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))?;
            for (f, lang) in files {
                let text = std::fs::read_to_string(root.join(f)).unwrap_or_default();
                send(
                    json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                        "textDocument": {"uri": format!("{root_uri}/{f}"), "languageId": lang,
                                         "version": 1, "text": text}
                    }}),
                )?;
            }
            continue;
        }
        match (msg["method"].as_str(), msg.get("id")) {
            // A request of the server's (progress tokens, configuration): a null answer.
            (Some(_), Some(id)) => {
                send(json!({"jsonrpc": "2.0", "id": id, "result": null}))?;
            }
            (Some("textDocument/inactiveRegions"), None) => {
                out.add_notification(root, &msg["params"]);
            }
            (Some("textDocument/publishDiagnostics"), None) => {
                if let Some(u) = msg["params"]["uri"].as_str() {
                    analysed.insert(u.to_string());
                }
            }
            _ => {}
        }
    }
    let _ = send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    let _ = send(json!({"jsonrpc": "2.0", "method": "exit"}));
    // Closing clangd's input ends it should it not exit by itself.
    drop(stdin);
    let waited = Instant::now();
    while waited.elapsed() < Duration::from_secs(3) {
        if let Ok(Some(_)) = child.try_wait() {
            return Ok(out);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notification_gives_one_based_inclusive_lines_relative_to_the_root() {
        let mut i = Inactive::default();
        i.add_notification(
            Path::new("/tmp/c"),
            &json!({"textDocument": {"uri": "file:///tmp/c/src/wasm_store.c"},
                    "regions": [{"start": {"line": 9, "character": 0},
                                 "end": {"line": 19, "character": 6}}]}),
        );
        assert!(i.holds("src/wasm_store.c", 10) && i.holds("src/wasm_store.c", 20));
        assert!(!i.holds("src/wasm_store.c", 9) && !i.holds("src/wasm_store.c", 21));
        assert!(!i.holds("src/parser.c", 10));
    }
}
