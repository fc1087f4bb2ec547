//! Freshness checks against the disk, for whoever keeps the map fresh (the server's
//! watcher and its start-up check): which indexed files no longer match what was indexed.
//!
//! A cheap `stat` per file, the same size + mtime test a rebuild uses to decide what to
//! re-read: it never reads file contents, so a rewrite that keeps both size and mtime is
//! not seen (the rebuild's content hash would not care either).

use crate::error::MapError;
use crate::walk::mtime_ns;
use crate::{Map, poisoned};

impl Map {
    /// Files of the map (indexed or skipped) whose size or mtime on disk differ from what
    /// the map recorded, or that are gone: the files a rebuild would re-read or drop.
    /// `paths` limits the check to those root-relative files (paths the map does not know
    /// are ignored); `None` checks every file. Sorted.
    ///
    /// The state lock is held only to copy the records, not while calling `stat`.
    pub fn changed_on_disk(&self, paths: Option<&[String]>) -> Result<Vec<String>, MapError> {
        let known: Vec<(String, u64, i64)> = {
            let st = self.inner.state.read().map_err(poisoned)?;
            let m = &st.model;
            let rec = |f: u32| {
                let r = m.f(f);
                (r.path.to_string(), r.size, r.mtime)
            };
            match paths {
                None => m.file_ixs().map(rec).collect(),
                Some(ps) => ps
                    .iter()
                    .filter_map(|p| m.file_by_path.get(p.as_str()).map(|&f| rec(f)))
                    .collect(),
            }
        };
        let mut changed: Vec<String> = known
            .into_iter()
            .filter(|(path, size, mtime)| {
                match std::fs::symlink_metadata(self.inner.root.join(path)) {
                    Ok(meta) if meta.is_file() => {
                        let now = mtime_ns(&meta);
                        // An unknown mtime (0) on either side: the size alone decides.
                        meta.len() != *size || (*mtime != 0 && now != 0 && now != *mtime)
                    }
                    _ => true,
                }
            })
            .map(|(path, _, _)| path)
            .collect();
        changed.sort();
        changed.dedup();
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{Map, MapConfig, RebuildOptions};

    fn map_of(files: &[(&str, &str)]) -> (tempfile::TempDir, Map) {
        let dir = tempfile::tempdir().unwrap();
        for (p, text) in files {
            let abs = dir.path().join(p);
            std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
            std::fs::write(abs, text).unwrap();
        }
        let (map, _) = Map::open(
            MapConfig::new(dir.path()),
            Arc::new(navmap_grammars::registry()),
        )
        .unwrap();
        map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        (dir, map)
    }

    #[test]
    fn sees_edits_and_deletions_by_stat() {
        let (dir, map) = map_of(&[
            ("a.py", "def a():\n    pass\n"),
            ("b.py", "def b():\n    pass\n"),
            ("c.py", "def c():\n    pass\n"),
        ]);
        assert!(map.changed_on_disk(None).unwrap().is_empty());
        std::fs::write(dir.path().join("a.py"), "def a():\n    return 1\n").unwrap();
        std::fs::remove_file(dir.path().join("b.py")).unwrap();
        assert_eq!(map.changed_on_disk(None).unwrap(), vec!["a.py", "b.py"]);
        // Limited to the paths asked about; unknown paths are ignored.
        let only = ["b.py".to_string(), "new.py".to_string(), "c.py".to_string()];
        assert_eq!(map.changed_on_disk(Some(&only)).unwrap(), vec!["b.py"]);
        // A rebuild brings the map back in line with the disk.
        map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert!(map.changed_on_disk(None).unwrap().is_empty());
    }
}
