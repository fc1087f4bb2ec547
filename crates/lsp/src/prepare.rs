//! What a server gets from its manifest before it starts, besides its command line:
//! navmap's own folders for it (the words `{state}` and `{cache}`), the files it asks for
//! in them (`[[lsp.files]]`) and additions to its environment (`[[lsp.env]]`).
//!
//! - `{state}`: `<state dir>/<language id>`, this project's folder (jdtls's Eclipse
//!   workspace); per root.
//! - `{cache}`: `<data dir>/cache/<language id>`, shared by the server's starts in every
//!   project (jdtls's Maven repository): what one project fetched, the next reuses.
//!
//! Both are outside the project: files are written only under them, never anywhere a
//! manifest's text could point (`..` is refused), so navmap still writes nothing into the
//! served repository.

use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use navmap_language::{EnvAddition, ServerFile};
use serde_json::Value;

/// The manifest word for the server's per-project state folder.
pub const STATE_WORD: &str = "{state}";
/// The manifest word for the server's folder shared across projects.
pub const CACHE_WORD: &str = "{cache}";

/// A server's two folders, and which of them its manifest used (those are created).
pub struct Folders {
    state: PathBuf,
    cache: PathBuf,
    used_state: AtomicBool,
    used_cache: AtomicBool,
}

impl Folders {
    pub fn new(state: PathBuf, cache: PathBuf) -> Self {
        Folders {
            state,
            cache,
            used_state: AtomicBool::new(false),
            used_cache: AtomicBool::new(false),
        }
    }

    pub fn state(&self) -> &Path {
        &self.state
    }

    /// `text` with `{state}` and `{cache}` replaced by the folders' paths.
    pub fn expand(&self, text: &str) -> String {
        let mut out = text.to_string();
        if out.contains(STATE_WORD) {
            self.used_state.store(true, Ordering::Relaxed);
            out = out.replace(STATE_WORD, &self.state.to_string_lossy());
        }
        if out.contains(CACHE_WORD) {
            self.used_cache.store(true, Ordering::Relaxed);
            out = out.replace(CACHE_WORD, &self.cache.to_string_lossy());
        }
        out
    }

    /// Every string in `value` (settings, initialization options) expanded.
    pub fn expand_json(&self, value: &mut Value) {
        match value {
            Value::String(s) => *s = self.expand(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.expand_json(v)),
            Value::Object(map) => map.values_mut().for_each(|v| self.expand_json(v)),
            _ => {}
        }
    }

    /// Creates the folders the expansions so far used. A server that cannot keep its
    /// state fails its start like any other, so errors are left to it.
    pub fn create_used(&self) {
        if self.used_state.load(Ordering::Relaxed) {
            let _ = std::fs::create_dir_all(&self.state);
        }
        if self.used_cache.load(Ordering::Relaxed) {
            let _ = std::fs::create_dir_all(&self.cache);
        }
    }

    /// Writes the manifest's `[[lsp.files]]`. A path outside the two folders (not
    /// starting with one of the words, or with `..` after it) is refused: `Err` names it.
    /// Only the manifest's part is checked for `..`: the folders themselves come from the
    /// data dir, which may be written with `..` (`NAVMAP_DATA_DIR=crates/bench/../../.tools`).
    pub fn write_files(&self, files: &[ServerFile]) -> Result<(), String> {
        for file in files {
            let inside = [STATE_WORD, CACHE_WORD].iter().any(|w| {
                file.path.strip_prefix(w).is_some_and(|rest| {
                    rest.starts_with('/')
                        && !Path::new(rest)
                            .components()
                            .any(|c| matches!(c, Component::ParentDir))
                })
            });
            let path = PathBuf::from(self.expand(&file.path));
            if !inside {
                return Err(format!(
                    "[[lsp.files]] path {:?} is not inside {STATE_WORD}/ or {CACHE_WORD}/",
                    file.path
                ));
            }
            let text = self.expand(&file.text);
            self.create_used();
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            // Unchanged files are left alone (their modification time too).
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        Ok(())
    }

    /// The variables `[[lsp.env]]` sets: each addition after the value the variable has in
    /// `base` (the pool's configured environment, else navmap's own), in the manifest's
    /// order; an addition whose `when_exists` names no file here is left out.
    pub fn env(
        &self,
        additions: &[EnvAddition],
        base: impl Fn(&str) -> Option<String>,
        is_file: impl Fn(&Path) -> bool,
    ) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for add in additions {
            let value = if add.when_exists.is_empty() {
                add.value.clone()
            } else {
                match add.when_exists.iter().find(|p| is_file(Path::new(p))) {
                    Some(file) => add.value.replace("{file}", file),
                    None => continue,
                }
            };
            let value = self.expand(&value);
            match out.iter_mut().find(|(k, _)| *k == add.name) {
                Some((_, v)) => {
                    v.push_str(&add.separator);
                    v.push_str(&value);
                }
                None => {
                    let joined = match base(&add.name).filter(|v| !v.is_empty()) {
                        Some(before) => format!("{before}{}{value}", add.separator),
                        None => value,
                    };
                    out.push((add.name.clone(), joined));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn folders(dir: &Path) -> Folders {
        Folders::new(dir.join("state/x"), dir.join("cache/x"))
    }

    #[test]
    fn words_expand_in_strings_and_json_and_only_used_folders_are_created() {
        let dir = tempfile::tempdir().unwrap();
        let f = folders(dir.path());
        let mut v = json!({"a": ["{cache}/s.xml", 1], "b": {"c": "plain"}});
        f.expand_json(&mut v);
        let cache = dir.path().join("cache/x");
        assert_eq!(v["a"][0], format!("{}/s.xml", cache.display()));
        assert_eq!(v["b"]["c"], "plain");
        f.create_used();
        assert!(cache.is_dir());
        assert!(!dir.path().join("state/x").exists());
    }

    #[test]
    fn files_are_written_in_navmaps_folders_only() {
        let dir = tempfile::tempdir().unwrap();
        let f = folders(dir.path());
        let file = |path: &str| ServerFile {
            path: path.into(),
            text: "<repo>{cache}/m2</repo>".into(),
        };
        f.write_files(&[file("{cache}/conf/settings.xml")]).unwrap();
        let cache = dir.path().join("cache/x");
        assert_eq!(
            std::fs::read_to_string(cache.join("conf/settings.xml")).unwrap(),
            format!("<repo>{}/m2</repo>", cache.display())
        );
        for bad in [
            "/tmp/settings.xml",
            "{cache}/../../escape",
            "{cache}x/y",
            "a/{state}/b",
        ] {
            assert!(f.write_files(&[file(bad)]).is_err(), "{bad}");
        }
        assert!(!dir.path().join("escape").exists());
    }

    #[test]
    fn a_data_dir_written_with_dot_dot_is_no_escape() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("crates/bench")).unwrap();
        let data = dir.path().join("crates/bench/../../.tools");
        let f = Folders::new(data.join("state/x"), data.join("cache/x"));
        let file = ServerFile {
            path: "{cache}/conf/settings.xml".into(),
            text: "s".into(),
        };
        f.write_files(&[file]).unwrap();
        let written = dir.path().join(".tools/cache/x/conf/settings.xml");
        assert_eq!(std::fs::read_to_string(written).unwrap(), "s");
    }

    #[test]
    fn env_additions_follow_the_inherited_value_and_need_their_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = folders(dir.path());
        let add = |value: &str, when: &[&str]| EnvAddition {
            name: "OPTS".into(),
            value: value.into(),
            when_exists: when.iter().map(|s| s.to_string()).collect(),
            separator: " ".into(),
        };
        let adds = [
            add("-Dtrust={file}", &["/no/such", "/etc/store"]),
            add("-Dmissing={file}", &["/no/such"]),
            add("-Dindex={cache}/i", &[]),
        ];
        let env = f.env(
            &adds,
            |k| (k == "OPTS").then(|| "-Dmine=1".to_string()),
            |p| p == Path::new("/etc/store"),
        );
        let cache = dir.path().join("cache/x");
        assert_eq!(
            env,
            vec![(
                "OPTS".to_string(),
                format!("-Dmine=1 -Dtrust=/etc/store -Dindex={}/i", cache.display())
            )]
        );
        assert!(f.env(&adds[1..2], |_| None, |_| false).is_empty());
    }
}
