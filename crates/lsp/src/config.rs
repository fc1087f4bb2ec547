//! Tunables of the pool, with the environment overrides navmap documents.

use std::collections::BTreeMap;
use std::time::Duration;

/// How the pool runs its servers. `Default` is what navmap ships; [`LspConfig::from_env`]
/// applies the environment on top.
#[derive(Debug, Clone)]
pub struct LspConfig {
    /// Deadline of most requests (15 s).
    pub deadline: Duration,
    /// Deadline of references, workspace symbols and incoming calls (30 s).
    pub long_deadline: Duration,
    /// A server with no request for this long is shut down (10 min); `None` never.
    pub idle_timeout: Option<Duration>,
    /// With no progress active, a server counts as ready this long after its last sign of
    /// work (initialization, a progress event). Covers servers that report progress only
    /// sometimes (pyright, typescript-language-server) and the gap between `initialized`
    /// and a server's first `$/progress`.
    pub settle: Duration,
    /// How long after its start a server that has shown no sign of having analysed its
    /// project (no diagnostics, no progress, no non-empty answer) is waited for when it
    /// answers empty (20 s, within the request's deadline). Past it, an empty answer is
    /// returned flagged incomplete.
    pub cold_wait: Duration,
    /// Open documents kept per server; the least recently used is closed beyond it.
    pub max_open_documents: usize,
    /// `max_crashes` crashes within `crash_window` mark a server failed for the session.
    pub max_crashes: usize,
    pub crash_window: Duration,
    /// Restart delay after the n-th crash: `backoff_base * 2^(n-1)`, at most `backoff_max`.
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// A missing binary is looked for again after this long (1 min).
    pub unavailable_retry: Duration,
    /// Internal errors in a row to one method after which a server counts as wedged on it
    /// and is restarted (3; `NAVMAP_LSP_METHOD_FAILURES`). See [`crate::health`].
    pub method_failures: usize,
    /// How long a server that said it cannot serve this project is taken at its word
    /// (queries fail at once) before it is restarted and asked again (1 min).
    pub unservable_retry: Duration,
    /// The stderr ring: lines kept and characters per line.
    pub stderr_lines: usize,
    pub stderr_line_chars: usize,
    /// Command overrides by language id (`NAVMAP_LSP_<ID>`), replacing the manifest's.
    pub commands: BTreeMap<String, Vec<String>>,
    /// Extra environment for every server process (tests use it to steer a fake server).
    pub env: Vec<(String, String)>,
    /// navmap's data directory, where `navmap servers install` puts servers and where
    /// they are looked for first (`NAVMAP_DATA_DIR`, else `$XDG_DATA_HOME/navmap`, else
    /// `~/.local/share/navmap`; see [`crate::locate`]).
    pub data_dir: Option<std::path::PathBuf>,
    /// A folder of navmap's own where a server may keep its per-project state: a
    /// `{state}` word in a manifest's `[lsp] command` becomes `<state_dir>/<language id>`,
    /// created before the start (jdtls needs `-data <dir>`, outside the project). `None`:
    /// `<data dir>/state/<hash of the root>` (see `pool::default_state_dir`).
    pub state_dir: Option<std::path::PathBuf>,
}

impl Default for LspConfig {
    fn default() -> Self {
        LspConfig {
            deadline: Duration::from_secs(15),
            long_deadline: Duration::from_secs(30),
            idle_timeout: Some(Duration::from_secs(600)),
            settle: Duration::from_millis(400),
            cold_wait: Duration::from_secs(20),
            max_open_documents: 50,
            max_crashes: 5,
            crash_window: Duration::from_secs(120),
            backoff_base: Duration::from_millis(200),
            backoff_max: Duration::from_secs(5),
            unavailable_retry: Duration::from_secs(60),
            method_failures: 3,
            unservable_retry: Duration::from_secs(60),
            stderr_lines: 200,
            stderr_line_chars: 400,
            commands: BTreeMap::new(),
            env: Vec::new(),
            data_dir: None,
            state_dir: None,
        }
    }
}

impl LspConfig {
    /// Defaults plus the environment:
    /// - `NAVMAP_LSP_<ID>` (`NAVMAP_LSP_PY="pyright-langserver --stdio"`): the command line
    ///   of language `<id>`'s server, split like a shell would (quotes, backslashes);
    /// - `NAVMAP_LSP_TIMEOUT_MS`, `NAVMAP_LSP_LONG_TIMEOUT_MS`, `NAVMAP_LSP_IDLE_SECS`
    ///   (0 = never), `NAVMAP_LSP_SETTLE_MS`, `NAVMAP_LSP_COLD_MS`,
    ///   `NAVMAP_LSP_MAX_OPEN_DOCS`, `NAVMAP_LSP_METHOD_FAILURES`;
    /// - `NAVMAP_DATA_DIR` / `XDG_DATA_HOME` / `HOME`: the data directory
    ///   ([`crate::locate::data_dir_from_vars`]).
    ///
    /// Malformed values are ignored with a warning.
    pub fn from_env() -> Self {
        Self::from_vars(std::env::vars())
    }

    /// As [`from_env`](Self::from_env), from explicit variables.
    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> Self {
        let vars: Vec<(String, String)> = vars.into_iter().collect();
        let mut config = LspConfig {
            data_dir: crate::locate::data_dir_from_vars(|k| {
                vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
            }),
            ..LspConfig::default()
        };
        for (key, value) in vars {
            let Some(name) = key.strip_prefix("NAVMAP_LSP_") else {
                continue;
            };
            let millis = || value.trim().parse::<u64>().ok().map(Duration::from_millis);
            let applied = match name {
                "TIMEOUT_MS" => millis().map(|d| config.deadline = d).is_some(),
                "LONG_TIMEOUT_MS" => millis().map(|d| config.long_deadline = d).is_some(),
                "SETTLE_MS" => millis().map(|d| config.settle = d).is_some(),
                "COLD_MS" => millis().map(|d| config.cold_wait = d).is_some(),
                "IDLE_SECS" => value
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .map(|s| config.idle_timeout = (s > 0).then(|| Duration::from_secs(s)))
                    .is_some(),
                "METHOD_FAILURES" => value
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .map(|n| config.method_failures = n)
                    .is_some(),
                "MAX_OPEN_DOCS" => value
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .map(|n| config.max_open_documents = n)
                    .is_some(),
                id => match split_command(&value) {
                    Some(words) if !words.is_empty() => {
                        config.commands.insert(id.to_ascii_lowercase(), words);
                        true
                    }
                    _ => false,
                },
            };
            if !applied {
                tracing::warn!(%key, %value, "ignored a malformed navmap LSP setting");
            }
        }
        config
    }
}

/// Splits a command line into words: whitespace separates, single quotes are literal,
/// double quotes allow `\"` and `\\`, a backslash outside quotes escapes the next
/// character. `None` for an unterminated quote.
pub fn split_command(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\') => word.push(c),
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command(r#"node  "/opt/my tools/server.js" --stdio 'a b' c\ d """#).unwrap(),
            vec![
                "node",
                "/opt/my tools/server.js",
                "--stdio",
                "a b",
                "c d",
                ""
            ]
        );
        assert!(split_command("'open").is_none());
    }

    #[test]
    fn reads_the_environment() {
        let config = LspConfig::from_vars([
            ("NAVMAP_LSP_PY".into(), "my-server --stdio".into()),
            ("NAVMAP_LSP_TIMEOUT_MS".into(), "2500".into()),
            ("NAVMAP_LSP_IDLE_SECS".into(), "0".into()),
            ("NAVMAP_LSP_SETTLE_MS".into(), "oops".into()),
            ("PATH".into(), "/bin".into()),
        ]);
        assert_eq!(config.commands["py"], vec!["my-server", "--stdio"]);
        assert_eq!(config.deadline, Duration::from_millis(2500));
        assert_eq!(config.idle_timeout, None);
        assert_eq!(config.settle, LspConfig::default().settle);
    }
}
