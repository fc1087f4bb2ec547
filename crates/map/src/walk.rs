//! Walking the root: which files are part of the map.
//!
//! gitignore-aware (the `ignore` crate, ripgrep's walker; `.gitignore`, `.ignore` and
//! `.git/info/exclude` inside the root are honoured, with or without a git repository),
//! hidden files skipped, and these directories always skipped: `.git`, `node_modules`,
//! `target`, `.venv`, `dist`, `build` and navmap's own `.navmap`. Symlinks are never
//! followed (a link inside the root is indexed at its real path; one leading outside
//! must not be read at all). Nothing outside the root is read: ignore files of parent
//! directories and the user's global gitignore are not consulted.

use std::path::Path;
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use navmap_language::{Language, Registry};

use crate::error::{MapError, Result};
use crate::id::check_path;

pub(crate) const ALWAYS_SKIPPED_DIRS: [&str; 7] = [
    ".git",
    "node_modules",
    "target",
    ".venv",
    "dist",
    "build",
    ".navmap",
];

/// A file of a known language found on disk.
#[derive(Clone)]
pub(crate) struct Seen {
    pub path: String,
    /// The absolute path to read.
    pub abs: std::path::PathBuf,
    pub lang: Arc<Language>,
    pub size: u64,
    /// Nanoseconds since the epoch.
    pub mtime: i64,
}

/// Root-relative paths a rebuild is limited to (`None` = everything).
#[derive(Debug, Clone)]
pub(crate) struct Scope(Option<Vec<String>>);

impl Scope {
    pub fn new(paths: Option<&[String]>) -> Result<Scope> {
        let Some(paths) = paths else {
            return Ok(Scope(None));
        };
        let mut out = Vec::new();
        for p in paths {
            let p = p.trim().trim_start_matches("./").trim_end_matches('/');
            if p.is_empty() || p == "." {
                return Ok(Scope(None));
            }
            check_path(p).map_err(|e| MapError::bad_args("paths", format!("{p:?}: {e}")))?;
            out.push(p.to_string());
        }
        Ok(Scope(Some(out)))
    }

    pub fn is_all(&self) -> bool {
        self.0.is_none()
    }

    /// The path (a file, or a directory on the way to one) is in scope.
    pub fn contains(&self, path: &str) -> bool {
        match &self.0 {
            None => true,
            Some(ps) => ps.iter().any(|s| under(path, s)),
        }
    }

    /// A directory that is in scope or leads to something in scope.
    fn enters(&self, dir: &str) -> bool {
        match &self.0 {
            None => true,
            Some(ps) => ps.iter().any(|s| under(dir, s) || under(s, dir)),
        }
    }
}

fn under(path: &str, dir: &str) -> bool {
    path == dir
        || (path.len() > dir.len() && path.starts_with(dir) && path.as_bytes()[dir.len()] == b'/')
}

fn rel_path(root: &Path, p: &Path) -> Option<String> {
    let rel = p.strip_prefix(root).ok()?;
    let mut out = String::new();
    for c in rel.components() {
        let s = c.as_os_str().to_str()?;
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(s);
    }
    (!out.is_empty()).then_some(out)
}

pub(crate) fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// What a walk found.
#[derive(Clone)]
pub(crate) struct Walked {
    /// Files of a known language, by path.
    pub files: Vec<Seen>,
    /// Files that configure import resolution (`tsconfig.json`, `go.mod`, …), by path.
    pub configs: Vec<String>,
}

/// Every file of a known language, and every resolver config file, under `root` within
/// `scope`.
pub(crate) fn walk(
    root: &Path,
    registry: &Registry,
    scope: &Scope,
    is_config: &dyn Fn(&str) -> bool,
) -> Walked {
    let mut wb = ignore::WalkBuilder::new(root);
    wb.hidden(true)
        .parents(false)
        .git_global(false)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .require_git(false)
        .follow_links(false);
    let root_owned = root.to_path_buf();
    let scope_f = scope.clone();
    wb.filter_entry(move |e| {
        if e.depth() == 0 {
            return true;
        }
        let is_dir = e.file_type().is_some_and(|t| t.is_dir());
        if is_dir
            && e.file_name()
                .to_str()
                .is_some_and(|n| ALWAYS_SKIPPED_DIRS.contains(&n))
        {
            return false;
        }
        if scope_f.is_all() {
            return true;
        }
        match rel_path(&root_owned, e.path()) {
            Some(rel) if is_dir => scope_f.enters(&rel),
            Some(rel) => scope_f.contains(&rel),
            None => false,
        }
    });
    let mut out = Vec::new();
    let mut configs = Vec::new();
    let mut listings = Listings::default();
    for entry in wb.build() {
        let Ok(entry) = entry else {
            continue;
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(rel) = rel_path(root, entry.path()) else {
            continue;
        };
        let Some(lang) = language_of(registry, &rel, entry.path(), &mut listings) else {
            if is_config(&rel) {
                configs.push(rel);
            }
            continue;
        };
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        out.push(Seen {
            abs: entry.path().to_path_buf(),
            path: rel,
            lang: lang.clone(),
            size: meta.len(),
            mtime: mtime_ns(&meta),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    configs.sort();
    Walked {
        files: out,
        configs,
    }
}

/// Directory listings asked for by claims, each read once per walk.
type Listings = std::collections::HashMap<std::path::PathBuf, Vec<String>>;

/// How much of a file a claim reads to recognise its language's syntax.
const CLAIM_READ_BYTES: u64 = 64 * 1024;

/// The language of a file: its extension's, unless another language's `[[claims]]` hold
/// for it (a C++ `.h`): decided from its directory's file names and its start, both
/// read only for a claimed extension. Per file, so that a scoped rebuild decides as the
/// full build did.
pub(crate) fn language_of<'r>(
    registry: &'r Registry,
    rel: &str,
    abs: &Path,
    listings: &mut Listings,
) -> Option<&'r Arc<Language>> {
    let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
    let listing = std::cell::RefCell::new(listings);
    registry.for_file(
        rel,
        &|| {
            let mut l = listing.borrow_mut();
            l.entry(dir.clone())
                .or_insert_with(|| {
                    std::fs::read_dir(&dir)
                        .map(|rd| {
                            rd.flatten()
                                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .clone()
        },
        &|| {
            use std::io::Read;
            let file = std::fs::File::open(abs).ok()?;
            let mut buf = Vec::new();
            file.take(CLAIM_READ_BYTES).read_to_end(&mut buf).ok()?;
            Some(String::from_utf8_lossy(&buf).into_owned())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_matching() {
        let s = Scope::new(Some(&["src/a".to_string()])).unwrap();
        assert!(s.contains("src/a"));
        assert!(s.contains("src/a/b.x"));
        assert!(!s.contains("src/ab.x"));
        assert!(s.enters("src"));
        assert!(!s.enters("lib"));
        assert!(Scope::new(Some(&["../x".to_string()])).is_err());
        assert!(Scope::new(Some(&["/etc".to_string()])).is_err());
        assert!(Scope::new(Some(&[".".to_string()])).unwrap().is_all());
    }
}
