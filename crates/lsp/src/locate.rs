//! Where a language server's program is found, without the user editing `PATH`.
//!
//! A server command's program (`pyright-langserver`, `gopls`) is looked for, in order:
//! 1. navmap's own data directory, where `navmap servers install` puts servers
//!    (`<data>/npm/node_modules/.bin`, `<data>/venv/bin`, `<data>/go/bin`,
//!    `<data>/cargo/bin`, `<data>/bin`);
//! 2. the project's `node_modules/.bin` (servers a JavaScript project already depends on),
//!    **only when the user trusts the project's programs** (`NAVMAP_PROJECT_SERVERS=1`):
//!    a cloned repository is untrusted input, and an executable it plants there would
//!    otherwise run as its language's server (docs/security.md);
//! 3. the `PATH` navmap was started with.
//!
//! The program is resolved to a full path before spawning, and the child gets a `PATH` with
//! the same directories in front, so that a server that runs helpers by name
//! (typescript-language-server starting `tsserver`, a venv script starting `java` from its
//! own `bin/`) finds them too. The data directory is `NAVMAP_DATA_DIR`, else
//! `$XDG_DATA_HOME/navmap`, else `~/.local/share/navmap`.
//!
//! ```
//! use navmap_lsp::locate::{Search, Origin};
//! let s = Search::new("/repo", Some("/data".into()), Some("/usr/bin:/bin".into()));
//! assert_eq!(s.dirs()[0].1, Origin::DataDir);
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where a program was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// navmap's data directory (installed by `navmap servers install`).
    DataDir,
    /// The project's own `node_modules/.bin`.
    Project,
    /// The `PATH` navmap was started with.
    Path,
    /// The command named a path (`./bin/server`, `/opt/x/server`).
    Explicit,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::DataDir => "data dir",
            Origin::Project => "project",
            Origin::Path => "PATH",
            Origin::Explicit => "explicit path",
        }
    }
}

/// A program found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub program: PathBuf,
    pub origin: Origin,
}

/// navmap's data directory from the environment: `NAVMAP_DATA_DIR`, else
/// `$XDG_DATA_HOME/navmap`, else `$HOME/.local/share/navmap`. `None` with none of these.
pub fn data_dir_from_vars<'a>(get: impl Fn(&str) -> Option<&'a str>) -> Option<PathBuf> {
    let set = |k: &str| get(k).filter(|v| !v.trim().is_empty());
    if let Some(d) = set("NAVMAP_DATA_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(x) = set("XDG_DATA_HOME") {
        return Some(Path::new(x).join("navmap"));
    }
    set("HOME").map(|h| Path::new(h).join(".local/share/navmap"))
}

/// [`data_dir_from_vars`] over the process environment.
pub fn data_dir() -> Option<PathBuf> {
    let vars: Vec<(String, String)> = std::env::vars().collect();
    data_dir_from_vars(|k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str()))
}

/// The directories of the data dir that hold server programs, in search order.
pub fn data_bin_dirs(data: &Path) -> Vec<PathBuf> {
    vec![
        data.join("npm/node_modules/.bin"),
        data.join("venv/bin"),
        data.join("go/bin"),
        data.join("cargo/bin"),
        data.join("bin"),
    ]
}

/// The places one root's servers are looked for.
#[derive(Debug, Clone)]
pub struct Search {
    pub root: PathBuf,
    pub data_dir: Option<PathBuf>,
    /// The `PATH` navmap was started with (or a test's override).
    pub path: Option<OsString>,
    /// Whether the project's own `node_modules/.bin` is searched (off unless the user
    /// says `NAVMAP_PROJECT_SERVERS=1`: see [`project_servers_trusted`]).
    pub project_servers: bool,
}

/// Whether the user trusts the programs of the projects navmap serves
/// (`NAVMAP_PROJECT_SERVERS` set to `1`, `true` or `yes`).
pub fn project_servers_trusted() -> bool {
    std::env::var("NAVMAP_PROJECT_SERVERS")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

impl Search {
    pub fn new(
        root: impl Into<PathBuf>,
        data_dir: Option<PathBuf>,
        path: Option<OsString>,
    ) -> Self {
        Search {
            root: root.into(),
            data_dir,
            path,
            project_servers: project_servers_trusted(),
        }
    }

    /// The same search with the project's `node_modules/.bin` in (`true`) or out.
    pub fn with_project_servers(mut self, trusted: bool) -> Self {
        self.project_servers = trusted;
        self
    }

    /// Every directory searched, in order, with what it stands for.
    pub fn dirs(&self) -> Vec<(PathBuf, Origin)> {
        let mut out = Vec::new();
        if let Some(d) = &self.data_dir {
            out.extend(data_bin_dirs(d).into_iter().map(|p| (p, Origin::DataDir)));
        }
        if self.project_servers {
            out.push((self.root.join("node_modules/.bin"), Origin::Project));
        }
        if let Some(p) = &self.path {
            out.extend(std::env::split_paths(p).map(|p| (p, Origin::Path)));
        }
        out
    }

    /// The full path of `program`, or `None` when it is nowhere. A program containing a
    /// `/` is taken as a path (relative to the root).
    pub fn find(&self, program: &str) -> Option<Found> {
        if program.contains('/') {
            let p = self.root.join(program);
            return is_executable(&p).then_some(Found {
                program: p,
                origin: Origin::Explicit,
            });
        }
        self.dirs().into_iter().find_map(|(dir, origin)| {
            let p = dir.join(program);
            is_executable(&p).then_some(Found { program: p, origin })
        })
    }

    /// The `PATH` for a server process: the data dir's and the project's bin directories
    /// (those that exist) before the inherited `PATH`.
    pub fn child_path(&self) -> OsString {
        self.child_path_with(&[])
    }

    /// [`child_path`](Self::child_path) with a manifest's `data_path` patterns (relative to
    /// the data dir, `*` = one segment) in front, those that exist.
    pub fn child_path_with(&self, data_path: &[String]) -> OsString {
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(data) = &self.data_dir {
            for pattern in data_path {
                dirs.extend(expand(data, pattern));
            }
        }
        dirs.extend(
            self.dirs()
                .into_iter()
                .filter(|(d, o)| *o == Origin::Path || d.is_dir())
                .map(|(d, _)| d),
        );
        std::env::join_paths(dirs).unwrap_or_else(|_| self.path.clone().unwrap_or_default())
    }
}

/// Existing directories matching `pattern` under `base`; `*` in a segment matches any run
/// of characters within that segment. Sorted, so the result does not depend on the disk.
pub fn expand(base: &Path, pattern: &str) -> Vec<PathBuf> {
    let mut current = vec![base.to_path_buf()];
    for seg in pattern.split('/').filter(|s| !s.is_empty()) {
        let mut next = Vec::new();
        for dir in &current {
            if !seg.contains('*') {
                let p = dir.join(seg);
                if p.exists() {
                    next.push(p);
                }
                continue;
            }
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| glob_segment(seg, n))
                .collect();
            names.sort();
            next.extend(names.into_iter().map(|n| dir.join(n)));
        }
        current = next;
    }
    current.retain(|p| p.is_dir());
    current
}

fn glob_segment(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || !name[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    name.len() >= first.len() + last.len()
}

fn is_executable(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| {
        m.is_file() && std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exe(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "#!/bin/sh\n").unwrap();
        let mut perm = std::fs::metadata(p).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
        std::fs::set_permissions(p, perm).unwrap();
    }

    #[test]
    fn data_dir_then_project_then_path() {
        let t = tempfile::tempdir().unwrap();
        let (root, data, sys) = (t.path().join("r"), t.path().join("d"), t.path().join("s"));
        exe(&sys.join("srv"));
        let s = Search::new(&root, Some(data.clone()), Some(sys.clone().into()))
            .with_project_servers(true);
        assert_eq!(s.find("srv").unwrap().origin, Origin::Path);
        exe(&root.join("node_modules/.bin/srv"));
        assert_eq!(s.find("srv").unwrap().origin, Origin::Project);
        // Untrusted (the default): a program the repository planted is never run.
        let untrusted = s.clone().with_project_servers(false);
        assert_eq!(untrusted.find("srv").unwrap().origin, Origin::Path);
        assert!(!untrusted.dirs().iter().any(|(_, o)| *o == Origin::Project));
        exe(&data.join("venv/bin/srv"));
        let f = s.find("srv").unwrap();
        assert_eq!(
            (f.origin, f.program.clone()),
            (Origin::DataDir, data.join("venv/bin/srv"))
        );
        assert!(s.find("nothing").is_none());
        // Not executable: not found.
        std::fs::write(sys.join("plain"), "").unwrap();
        assert!(s.find("plain").is_none());
        // The child's PATH: existing bin dirs first, then the inherited PATH.
        let path: Vec<PathBuf> = std::env::split_paths(&s.child_path()).collect();
        assert_eq!(
            path,
            [data.join("venv/bin"), root.join("node_modules/.bin"), sys]
        );
    }

    #[test]
    fn data_path_patterns_expand_to_existing_dirs() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        std::fs::create_dir_all(d.join("venv/lib/python3.11/site-packages/rt/bin")).unwrap();
        std::fs::create_dir_all(d.join("venv/lib/other/site-packages/rt/bin")).unwrap();
        assert_eq!(
            expand(d, "venv/lib/python*/site-packages/rt/bin"),
            [d.join("venv/lib/python3.11/site-packages/rt/bin")]
        );
        assert!(expand(d, "venv/lib/python*/nothing").is_empty());
        let s = Search::new("/nonexistent", Some(d.to_path_buf()), Some("/bin".into()));
        let path: Vec<PathBuf> =
            std::env::split_paths(&s.child_path_with(&["venv/lib/*/site-packages/rt/bin".into()]))
                .collect();
        assert_eq!(
            path,
            [
                d.join("venv/lib/other/site-packages/rt/bin"),
                d.join("venv/lib/python3.11/site-packages/rt/bin"),
                PathBuf::from("/bin")
            ]
        );
    }

    #[test]
    fn data_dir_from_the_environment() {
        let get = |vars: &'static [(&'static str, &'static str)]| {
            data_dir_from_vars(|k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| *v))
        };
        assert_eq!(
            get(&[("NAVMAP_DATA_DIR", "/d"), ("HOME", "/h")]),
            Some("/d".into())
        );
        assert_eq!(
            get(&[("XDG_DATA_HOME", "/x"), ("HOME", "/h")]),
            Some("/x/navmap".into())
        );
        assert_eq!(
            get(&[("HOME", "/h")]),
            Some("/h/.local/share/navmap".into())
        );
        assert_eq!(get(&[]), None);
    }
}
