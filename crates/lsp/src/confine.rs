//! The confinement rule: one check for every path that reaches an answer or a language
//! server (a location, an anchor, a snippet read, a `didOpen`, a symbol's file, a
//! call-hierarchy item).
//!
//! A repository is untrusted input: a file inside the root may be a symlink to
//! `/etc/passwd`, a folder may point at the user's home. The rule, in [`classify`]:
//! - a path whose real path (symlinks resolved) lies inside the root is [`Place::Inside`];
//! - a path under the root (as written) whose real path does not, or cannot be resolved
//!   (a symlink loop, a dangling link), is [`Place::Escapes`]: never read, never opened,
//!   never shown; callers leave it out and count it in a warning;
//! - a path outside the root as written (site-packages, the stdlib, a `node_modules`
//!   elsewhere) is [`Place::Library`]: shown by its file name alone, never read.
//!
//! Reading goes through [`read_inside`] so that a read can only happen after the check.
//! The server crate's argument check (`paths.rs`) and its anchors use the same function.

use std::path::{Component, Path, PathBuf};

/// Where a path lies, for the purpose of reading and showing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Inside the root, also after resolving symlinks: root-relative, `/`-separated (as
    /// the path was written when it was written under the root, else the real path's).
    Inside(String),
    /// Under the root as written, but it resolves outside (or cannot be resolved).
    Escapes,
    /// Outside the root as written: library code, named by its file name alone.
    Library(String),
}

/// The file name alone (`posixpath.pyi`), never the path.
pub fn lib_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `a/./b/../c` → `a/c`, without touching the disk (`..` above the start is kept).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

fn rel_string(rel: &Path) -> String {
    rel.to_string_lossy().replace('\\', "/")
}

/// Whether `path` (absolute, under `root`) really lies inside `root` (canonical). A path
/// that does not exist is judged by its deepest existing ancestor (a deleted file is not
/// an escape); one that exists but cannot be resolved (a loop) is outside.
pub fn resolves_inside(root: &Path, path: &Path) -> bool {
    let mut probe = path.to_path_buf();
    loop {
        match probe.canonicalize() {
            Ok(real) => return real.starts_with(root),
            Err(e) => {
                let exists = std::fs::symlink_metadata(&probe).is_ok();
                if exists || e.kind() != std::io::ErrorKind::NotFound {
                    // It is there (a loop, a link to nowhere, no permission): not proven
                    // inside.
                    return false;
                }
                if !probe.pop() || !probe.starts_with(root) {
                    return false;
                }
            }
        }
    }
}

/// The rule. `root` must be canonical; `path` absolute (a relative one is taken from
/// the root).
pub fn classify(root: &Path, path: &Path) -> Place {
    let abs = if path.is_absolute() {
        lexical(path)
    } else {
        lexical(&root.join(path))
    };
    if let Ok(rel) = abs.strip_prefix(root) {
        if rel.as_os_str().is_empty() {
            return Place::Escapes;
        }
        return if resolves_inside(root, &abs) {
            Place::Inside(rel_string(rel))
        } else {
            Place::Escapes
        };
    }
    // Written outside: inside after all when it resolves there (a root reached through
    // another spelling, e.g. /tmp vs /private/tmp).
    if let Ok(real) = abs.canonicalize()
        && let Ok(rel) = real.strip_prefix(root)
        && !rel.as_os_str().is_empty()
    {
        return Place::Inside(rel_string(rel));
    }
    Place::Library(lib_name(&abs))
}

/// True when the path escapes the root: written under it but resolving outside.
pub fn escapes(root: &Path, path: &Path) -> bool {
    classify(root, path) == Place::Escapes
}

/// Reads a file of the root, `None` when it is not [`Place::Inside`] or unreadable.
pub fn read_inside(root: &Path, path: &Path) -> Option<Vec<u8>> {
    match classify(root, path) {
        Place::Inside(rel) => std::fs::read(root.join(rel)).ok(),
        _ => None,
    }
}

/// The first of `patterns` (root-relative, `/`-separated; `*` in a segment matches any
/// characters of one file or folder name, `cmake-build-*`) that names a file
/// [`Place::Inside`] the root: its root-relative path. Patterns are tried in order, the
/// matches of one pattern in name order.
pub fn find_inside(root: &Path, patterns: &[String]) -> Option<String> {
    patterns.iter().find_map(|p| {
        let segments: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        let mut found = vec![String::new()];
        for seg in &segments {
            let mut next = Vec::new();
            for prefix in &found {
                if !seg.contains('*') {
                    next.push(join_rel(prefix, seg));
                    continue;
                }
                let Ok(entries) = std::fs::read_dir(root.join(prefix)) else {
                    continue;
                };
                let mut names: Vec<String> = entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| wildcard(seg, n))
                    .collect();
                names.sort();
                next.extend(names.iter().map(|n| join_rel(prefix, n)));
            }
            found = next;
        }
        found.into_iter().find(|rel| {
            !rel.is_empty()
                && matches!(classify(root, Path::new(rel)), Place::Inside(_))
                && root.join(rel).is_file()
        })
    })
}

fn join_rel(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}

/// `*` matches any run of characters, everything else itself.
fn wildcard(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return pattern == name;
    }
    if !name.starts_with(first) || name.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    if !name.ends_with(last) {
        return false;
    }
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// How a withheld hover's warning starts.
pub const HOVER_LEFT_OUT: &str = "hover text left out";

/// How [`left_out_warning`] ends its count.
pub const LEFT_OUT: &str = "result(s) left out: their files";

/// The warning for `n` results left out because they resolve outside the root.
pub fn left_out_warning(n: usize) -> Option<String> {
    (n > 0).then(|| {
        format!(
            "{n} {LEFT_OUT} are in the root but resolve (through a symlink) outside it, and navmap shows nothing from outside the root"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn find_inside_tries_patterns_in_order_with_one_segment_wildcards() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for f in [
            "cmake-build-release/cc.json",
            "cmake-build-debug/cc.json",
            "b/x.txt",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "{}").unwrap();
        }
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("cc.json"), "[]").unwrap();
        symlink(outside.path(), root.join("out")).unwrap();
        let find =
            |ps: &[&str]| find_inside(&root, &ps.iter().map(|p| p.to_string()).collect::<Vec<_>>());
        assert_eq!(find(&["cc.json", "b/x.txt"]).as_deref(), Some("b/x.txt"));
        assert_eq!(
            find(&["cmake-build-*/cc.json"]).as_deref(),
            Some("cmake-build-debug/cc.json"),
            "name order"
        );
        assert_eq!(find(&["out/cc.json"]), None, "a symlink out of the root");
        assert_eq!(find(&["b"]), None, "a folder is not a file");
        assert!(wildcard("a*b*c", "aXbYc") && wildcard("a*", "a"));
        assert!(!wildcard("a*b", "abc") && !wildcard("cmake-*", "build"));
    }

    #[test]
    fn symlinks_out_escape_and_libraries_keep_their_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("src")).unwrap();
        let root = root.canonicalize().unwrap();
        std::fs::write(root.join("src/a.py"), "x = 1\n").unwrap();
        let outside = dir.path().canonicalize().unwrap().join("secret.py");
        std::fs::write(&outside, "s = 1\n").unwrap();
        symlink(&outside, root.join("link.py")).unwrap();
        symlink(dir.path(), root.join("up")).unwrap();
        symlink(root.join("src"), root.join("alias")).unwrap();
        symlink(root.join("loop"), root.join("loop")).unwrap();
        symlink("/nonexistent/x", root.join("dangling.py")).unwrap();

        let inside = |p: &str| Place::Inside(p.to_string());
        assert_eq!(classify(&root, &root.join("src/a.py")), inside("src/a.py"));
        assert_eq!(classify(&root, Path::new("src/a.py")), inside("src/a.py"));
        assert_eq!(
            classify(&root, &root.join("alias/a.py")),
            inside("alias/a.py")
        );
        // Deleted files are judged by their folder.
        assert_eq!(
            classify(&root, &root.join("src/gone.py")),
            inside("src/gone.py")
        );
        for bad in [
            "link.py",
            "up/secret.py",
            "loop",
            "dangling.py",
            "src/../link.py",
        ] {
            assert_eq!(classify(&root, &root.join(bad)), Place::Escapes, "{bad}");
            assert!(read_inside(&root, &root.join(bad)).is_none(), "{bad}");
        }
        assert_eq!(
            classify(&root, &root.join("src/../../secret.py")),
            Place::Library("secret.py".into())
        );
        assert_eq!(
            classify(&root, &outside),
            Place::Library("secret.py".into())
        );
        assert!(read_inside(&root, &outside).is_none());
        assert_eq!(
            read_inside(&root, &root.join("src/a.py")).unwrap(),
            b"x = 1\n"
        );
    }
}
