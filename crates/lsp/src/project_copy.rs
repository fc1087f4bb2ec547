//! Copies of project files that a server is pointed at (`[[lsp.project_args]]` with
//! `copy = true`), kept in navmap's state folder for that server.
//!
//! Why: clangd writes its background index beside the compilation database it is given
//! (`.cache/clangd/index`). Given the project's own `build/compile_commands.json`, it would
//! write into the repository, and navmap writes only its own folders. Given a copy in the
//! state folder, the index lands there.
//!
//! A compilation database (a JSON array of `{directory, file, …}`) is also confined: each
//! entry's `directory` is made absolute (it may be relative to the database's folder) and
//! an entry whose file is not inside the root is dropped, so that a cloned repository
//! cannot make the server index files elsewhere. Any other file is copied as it is.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The largest file copied. A compilation database of a very large project is tens of
/// megabytes; a file beyond this is not read whole into memory at every server start (the
/// server then starts as if nothing had been found).
const MAX_COPY_BYTES: u64 = 256 * 1024 * 1024;

/// Copies `found` (root-relative) into `state_dir/project/`, under its own file name, and
/// returns the copy's absolute path; `None` when it cannot be read or written, or is larger
/// than [`MAX_COPY_BYTES`] (the server then starts as if nothing had been found). A copy
/// that is already up to date is not written again.
pub(crate) fn copy_into_state(root: &Path, found: &str, state_dir: &Path) -> Option<PathBuf> {
    let source = root.join(found);
    if std::fs::metadata(&source).ok()?.len() > MAX_COPY_BYTES {
        return None;
    }
    let text = std::fs::read_to_string(&source).ok()?;
    let folder = source.parent().unwrap_or(root);
    let text = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Array(entries)) => {
            serde_json::to_string_pretty(&confined_entries(root, folder, entries)).ok()?
        }
        _ => text,
    };
    let dir = state_dir.join("project");
    std::fs::create_dir_all(&dir).ok()?;
    let copy = dir.join(source.file_name()?);
    let unchanged = std::fs::read(&copy).is_ok_and(|old| old == text.as_bytes());
    if !unchanged {
        std::fs::write(&copy, text).ok()?;
    }
    Some(copy)
}

/// The entries of a compilation database whose file is inside `root`, with absolute
/// `directory`s (`folder` is where the database was).
fn confined_entries(root: &Path, folder: &Path, entries: Vec<Value>) -> Vec<Value> {
    let Ok(root) = root.canonicalize() else {
        return Vec::new();
    };
    entries
        .into_iter()
        .filter_map(|mut e| {
            let dir = folder.join(e.get("directory")?.as_str()?);
            let file = dir.join(e.get("file")?.as_str()?);
            let inside = file.canonicalize().is_ok_and(|f| f.starts_with(&root));
            if !inside {
                return None;
            }
            e["directory"] = Value::String(dir.to_string_lossy().into_owned());
            Some(e)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compilation_database_is_copied_with_only_the_roots_files() {
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        let root = project.path().canonicalize().unwrap();
        std::fs::write(root.join("a.c"), "int a;\n").unwrap();
        std::fs::create_dir(root.join("build")).unwrap();
        std::fs::write(outside.path().join("secret.c"), "int s;\n").unwrap();
        let db = serde_json::json!([
            {"directory": "..", "file": "a.c", "arguments": ["cc", "-c", "a.c"]},
            {"directory": outside.path(), "file": "secret.c", "arguments": ["cc"]},
            {"directory": root, "file": "../../etc/passwd", "arguments": ["cc"]},
            {"directory": root, "file": "missing.c", "arguments": ["cc"]},
        ]);
        std::fs::write(root.join("build/compile_commands.json"), db.to_string()).unwrap();
        let copy = copy_into_state(&root, "build/compile_commands.json", state.path()).unwrap();
        assert!(copy.starts_with(state.path()));
        let kept: Value = serde_json::from_str(&std::fs::read_to_string(&copy).unwrap()).unwrap();
        let kept = kept.as_array().unwrap();
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!(kept[0]["file"], "a.c");
        let dir = PathBuf::from(kept[0]["directory"].as_str().unwrap());
        assert!(dir.is_absolute());
        assert_eq!(dir.join("a.c").canonicalize().unwrap(), root.join("a.c"));
        // The project's own file is untouched.
        let original = std::fs::read_to_string(root.join("build/compile_commands.json")).unwrap();
        assert_eq!(original, db.to_string());
    }

    #[test]
    fn another_file_is_copied_as_it_is() {
        let project = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("compile_flags.txt"), "-Iinclude\n").unwrap();
        let copy = copy_into_state(project.path(), "compile_flags.txt", state.path()).unwrap();
        assert_eq!(std::fs::read_to_string(copy).unwrap(), "-Iinclude\n");
        assert!(copy_into_state(project.path(), "missing.json", state.path()).is_none());
    }

    #[test]
    fn a_changed_file_replaces_its_copy_and_an_unchanged_one_keeps_it() {
        let project = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        let flags = project.path().join("compile_flags.txt");
        std::fs::write(&flags, "-Iinclude\n").unwrap();
        let copy = copy_into_state(project.path(), "compile_flags.txt", state.path()).unwrap();
        let again = copy_into_state(project.path(), "compile_flags.txt", state.path()).unwrap();
        assert_eq!(copy, again);
        assert_eq!(std::fs::read_to_string(&again).unwrap(), "-Iinclude\n");
        std::fs::write(&flags, "-Isrc\n").unwrap();
        let changed = copy_into_state(project.path(), "compile_flags.txt", state.path()).unwrap();
        assert_eq!(std::fs::read_to_string(changed).unwrap(), "-Isrc\n");
    }
}
