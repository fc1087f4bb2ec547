//! Walking the root with the filter: directories to watch, and the size/mtime snapshot that
//! polling compares.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::time::SystemTime;

use crate::filter::{IgnoreFilter, relative};

/// Walks the kept tree below `start` (an absolute directory inside the filter's root, itself
/// not judged): `on_dir` for `start` and every kept directory below it, `on_file` for every
/// kept regular file with its root-relative name. Symlinks are neither followed nor reported.
/// Unreadable directories are skipped (they may vanish mid-walk). `on_dir` may stop the walk
/// with an error, which is returned.
pub(crate) fn walk<E>(
    filter: &mut IgnoreFilter,
    start: &Path,
    on_dir: &mut dyn FnMut(&Path) -> Result<(), E>,
    on_file: &mut dyn FnMut(String, &fs::Metadata),
) -> Result<(), E> {
    let root = filter.root().to_path_buf();
    let mut stack = vec![start.to_path_buf()];
    while let Some(dir) = stack.pop() {
        on_dir(&dir)?;
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if !kind.is_dir() && !kind.is_file() {
                continue;
            }
            let abs = entry.path();
            let Some((rel, text)) = relative(&root, &abs) else {
                continue;
            };
            if filter.is_ignored_entry(&rel, kind.is_dir()) {
                continue;
            }
            if kind.is_dir() {
                stack.push(abs);
            } else if let Ok(meta) = entry.metadata() {
                on_file(text, &meta);
            }
        }
    }
    Ok(())
}

/// What polling remembers of a file.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

/// Every kept file of the tree with its size and mtime. Its memory grows with the number of
/// files in the repository (as the map's own does), not with the number of changes.
#[derive(Default)]
pub(crate) struct Snapshot {
    files: HashMap<String, Stamp>,
}

impl Snapshot {
    pub(crate) fn take(filter: &mut IgnoreFilter) -> Snapshot {
        let mut files = HashMap::new();
        let root = filter.root().to_path_buf();
        let _ = walk::<()>(filter, &root, &mut |_| Ok(()), &mut |text, meta| {
            let stamp = Stamp {
                len: meta.len(),
                modified: meta.modified().ok(),
            };
            files.insert(text, stamp);
        });
        Snapshot { files }
    }

    /// Paths added, removed or whose size or mtime differ, sorted.
    pub(crate) fn diff(&self, newer: &Snapshot) -> Vec<String> {
        let mut changed: Vec<String> = newer
            .files
            .iter()
            .filter(|(path, stamp)| self.files.get(*path) != Some(stamp))
            .map(|(path, _)| path.clone())
            .chain(
                self.files
                    .keys()
                    .filter(|path| !newer.files.contains_key(*path))
                    .cloned(),
            )
            .collect();
        changed.sort_unstable();
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_sees_added_removed_and_resized() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("a/node_modules")).unwrap();
        fs::write(root.join("a/keep.py"), "x").unwrap();
        fs::write(root.join("a/gone.py"), "x").unwrap();
        fs::write(root.join("a/node_modules/m.js"), "x").unwrap();
        let mut filter = IgnoreFilter::new(&root);
        let before = Snapshot::take(&mut filter);
        assert_eq!(before.files.len(), 2);

        fs::write(root.join("a/keep.py"), "longer").unwrap();
        fs::remove_file(root.join("a/gone.py")).unwrap();
        fs::write(root.join("new.py"), "").unwrap();
        fs::write(root.join("a/node_modules/m.js"), "changed").unwrap();
        let after = Snapshot::take(&mut filter);
        assert_eq!(before.diff(&after), ["a/gone.py", "a/keep.py", "new.py"]);
        assert!(after.diff(&after).is_empty());
    }
}
