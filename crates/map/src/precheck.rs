//! A rebuild with nothing to do, decided from SQLite alone, before anything is loaded.
//!
//! `navmap rebuild` on an unchanged repository used to open the map (decode every node,
//! fact and edge, recompute rank, clusters and the search index), walk the root, find
//! nothing changed and free it all again. [`Map::precheck`] walks the root and
//! compares it with the `files` table (paths, sizes, mtimes) and the resolver config
//! hashes in `meta`: when everything matches, the summary comes from the stored counts and
//! nothing else is read.
//!
//! It answers "unchanged" only when a full rebuild would change nothing either: the same
//! rule as the rebuild (size + mtime decide what to re-read; an mtime of 0 — unknown, or
//! written within two seconds of the last build — means "compare the content": up to
//! [`MAX_RACY_HASHED`] such files are hashed against the recorded hash), the same walk,
//! a clean (`dirty = 0`), built map of this schema version. Anything else, including a map
//! built before the `counts` meta key existed, answers `None`: the caller then opens the
//! map and rebuilds as before. It only reads.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use navmap_language::Registry;
use rusqlite::{Connection, OpenFlags};

use crate::Map;
use crate::build::config_hashes;
use crate::db::{self, Db, SCHEMA_VERSION};
use crate::error::MapError;
use crate::frontend::{Extract, Frontend};
use crate::types::{MapConfig, PriorWalk, RebuildSummary, SkipReason};
use crate::walk::{self, Scope};

/// A file as the last build recorded it.
struct Recorded {
    size: u64,
    mtime: i64,
    hash: [u8; 32],
    skipped: Option<SkipReason>,
}

/// Files recorded with an unknown mtime that the check hashes before it gives up and lets
/// the caller load the map.
const MAX_RACY_HASHED: usize = 64;

impl Map {
    /// What a rebuild would find, decided from SQLite and a walk without loading the model:
    /// in `unchanged`, the summary of a rebuild with nothing to do, or `None` when there may
    /// be something to do (or the map cannot tell without loading); in `walk`, the walk it
    /// made (when it got that far), which a rebuild opened next with it in
    /// [`MapConfig::walked`] reads instead of walking the root again. `config.root` must be
    /// the canonical root, as [`Map::open`] makes it. Reads the database read-only; never
    /// creates or repairs it.
    pub fn precheck(config: &MapConfig, registry: &Registry) -> Result<Precheck, MapError> {
        let started = std::time::Instant::now();
        let root = &config.root;
        let db_path = config
            .db_path
            .clone()
            .unwrap_or_else(|| root.join(".navmap").join("map.db"));
        if db_path.as_os_str() == db::IN_MEMORY || !db_path.is_file() {
            return Ok(Precheck::default());
        }
        if db::our_schema_version(&db_path).ok().flatten() != Some(SCHEMA_VERSION) {
            return Ok(Precheck::default());
        }
        let Ok(conn) = Connection::open_with_flags(&db_path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        else {
            return Ok(Precheck::default());
        };
        let db = Db {
            conn,
            path: db_path,
        };
        let Ok(meta) = db.read_meta() else {
            return Ok(Precheck::default());
        };
        let Some((symbols, edges)) = meta.counts else {
            return Ok(Precheck::default());
        };
        if meta.dirty || meta.generation == 0 || meta.built_at.is_none() {
            return Ok(Precheck::default());
        }
        // Built with other queries or rules: the open rebuilds it from scratch.
        if meta.extraction.as_deref() != Some(&crate::fingerprint::extraction_fingerprint(registry))
        {
            return Ok(Precheck::default());
        }
        let Ok(recorded) = recorded_files(&db.conn) else {
            return Ok(Precheck::default());
        };

        let frontend = Extract::new(registry);
        let walked = walk::walk(root, registry, &Scope::new(None)?, &|p| {
            frontend.is_config_file(p)
        });
        let unchanged = compare(config, &walked, &recorded, &meta, symbols, edges, started);
        Ok(Precheck {
            unchanged,
            walk: Some(PriorWalk {
                root: root.clone(),
                walked: Arc::new(walked),
            }),
        })
    }
}

/// What [`Map::precheck`] found: the summary of a rebuild with nothing to do (`None`: there
/// may be something to do), and the walk of the root it made, if it made one.
#[derive(Debug, Default)]
pub struct Precheck {
    pub unchanged: Option<RebuildSummary>,
    pub walk: Option<PriorWalk>,
}

/// The walk against the last build's records: the summary when nothing differs.
fn compare(
    config: &MapConfig,
    walked: &walk::Walked,
    recorded: &HashMap<String, Recorded>,
    meta: &db::Meta,
    symbols: u64,
    edges: u64,
    started: std::time::Instant,
) -> Option<RebuildSummary> {
    let root = &config.root;
    if walked.files.len() != recorded.len() {
        return None;
    }
    // A file the last build saw within two seconds of its write has mtime 0 (a write in
    // the same tick would not move the mtime): a rebuild re-reads it and compares its
    // hash, and so does this check, for a few such files (a tool that writes and then
    // re-indexes at once would otherwise load the whole map for nothing).
    let mut racy = Vec::new();
    for s in &walked.files {
        let r = recorded.get(s.path.as_str())?;
        if r.size != s.size {
            return None;
        }
        if r.mtime == 0 && r.skipped.is_none() {
            racy.push((s, r));
        } else if r.mtime == 0 || r.mtime != s.mtime {
            return None;
        }
    }
    if racy.len() > MAX_RACY_HASHED {
        return None;
    }
    for (s, r) in racy {
        let bytes = std::fs::read(&s.abs).ok()?;
        if bytes.len() as u64 != r.size || *blake3::hash(&bytes).as_bytes() != r.hash {
            return None;
        }
    }
    let configs = config_hashes(root, config.max_file_bytes, &walked.configs, &meta.config);
    if configs != meta.config {
        return None;
    }

    let mut files_skipped: BTreeMap<SkipReason, u64> = BTreeMap::new();
    for r in recorded.values() {
        if let Some(why) = r.skipped {
            *files_skipped.entry(why).or_insert(0) += 1;
        }
    }
    let skipped: u64 = files_skipped.values().sum();
    Some(RebuildSummary {
        files_scanned: walked.files.len() as u64,
        files: recorded.len() as u64 - skipped,
        files_skipped,
        symbols,
        edges,
        generation: meta.generation,
        duration_ms: started.elapsed().as_millis() as u64,
        ..Default::default()
    })
}

/// Every file row's path, size, mtime and skip reason; an unknown skip reason is an error
/// (the map is from another version: let the caller open it properly).
fn recorded_files(conn: &Connection) -> Result<HashMap<String, Recorded>, MapError> {
    let mut stmt = conn.prepare("SELECT path, size, mtime, skipped, hash FROM files")?;
    let mut rows = stmt.query([])?;
    let mut out = HashMap::new();
    while let Some(r) = rows.next()? {
        let path: String = r.get(0)?;
        let size: i64 = r.get(1)?;
        let mtime: i64 = r.get(2)?;
        let skipped: Option<String> = r.get(3)?;
        let hash: Vec<u8> = r.get(4)?;
        let hash: [u8; 32] = hash
            .try_into()
            .map_err(|_| MapError::internal("a file hash is not 32 bytes"))?;
        let skipped = match skipped {
            None => None,
            Some(s) => Some(
                SkipReason::parse(&s)
                    .ok_or_else(|| MapError::internal(format!("unknown skip reason {s}")))?,
            ),
        };
        out.insert(
            path,
            Recorded {
                size: size as u64,
                mtime,
                hash,
                skipped,
            },
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;
    use std::time::{Duration, SystemTime};

    use crate::{Map, MapConfig, RebuildOptions};

    /// Writes `files` with an mtime a minute in the past: a file written within two
    /// seconds of a build is recorded with mtime 0 (re-read next time), which would make
    /// every check below answer "maybe changed" for that reason alone.
    fn write_old(root: &Path, files: &[(&str, &str)]) {
        for (p, text) in files {
            let abs = root.join(p);
            std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
            std::fs::write(&abs, text).unwrap();
            let f = std::fs::File::options().write(true).open(&abs).unwrap();
            f.set_modified(SystemTime::now() - Duration::from_secs(60))
                .unwrap();
        }
    }

    fn built(files: &[(&str, &str)]) -> (tempfile::TempDir, MapConfig, crate::RebuildSummary) {
        let dir = tempfile::tempdir().unwrap();
        write_old(dir.path(), files);
        let config = MapConfig::new(dir.path().canonicalize().unwrap());
        let (map, _) = Map::open(config.clone(), Arc::new(navmap_grammars::registry())).unwrap();
        let summary = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        (dir, config, summary)
    }

    fn check(config: &MapConfig) -> Option<crate::RebuildSummary> {
        Map::precheck(config, &navmap_grammars::registry())
            .unwrap()
            .unchanged
    }

    const FILES: &[(&str, &str)] = &[
        (
            "app/a.py",
            "from app.b import helper\n\ndef main():\n    helper()\n",
        ),
        ("app/b.py", "def helper():\n    return 1\n"),
        ("app/big.py", "x = 1\n"),
        ("go.mod", "module example.com/m\n\ngo 1.22\n"),
    ];

    #[test]
    fn an_unchanged_repository_is_told_from_sqlite_with_the_builds_figures() {
        let (_dir, config, built) = built(FILES);
        let s = check(&config).expect("nothing changed");
        assert_eq!(s.files_indexed, 0);
        assert_eq!(
            (s.files, s.symbols, s.edges, s.generation, s.files_scanned),
            (
                built.files,
                built.symbols,
                built.edges,
                built.generation,
                built.files_scanned
            )
        );
    }

    #[test]
    fn any_change_a_rebuild_would_see_answers_none() {
        type Change = fn(&Path);
        let changes: [(&str, Change); 5] = [
            ("an edited file", |r| {
                write_old(r, &[("app/b.py", "def helper():\n    return 22\n")])
            }),
            ("a new file", |r| {
                write_old(r, &[("app/c.py", "def c():\n    pass\n")])
            }),
            ("a deleted file", |r| {
                std::fs::remove_file(r.join("app/big.py")).unwrap()
            }),
            ("a resolver config file", |r| {
                write_old(r, &[("go.mod", "module example.com/other\n\ngo 1.22\n")])
            }),
            ("a touched file (same size, new mtime)", |r| {
                let f = std::fs::File::options()
                    .write(true)
                    .open(r.join("app/a.py"))
                    .unwrap();
                f.set_modified(SystemTime::now() - Duration::from_secs(30))
                    .unwrap();
            }),
        ];
        for (what, change) in changes {
            let (dir, config, _) = built(FILES);
            assert!(check(&config).is_some(), "{what}: unchanged before");
            change(dir.path());
            assert!(check(&config).is_none(), "{what}: not seen");
        }
    }

    /// `navmap rebuild` walks the root once: the rebuild opened after the no-op check reads
    /// the check's walk. A file written between the two is not seen by that rebuild (it
    /// did not walk again) and is by the next one (the walk is used once).
    #[test]
    fn a_rebuild_opened_with_the_checks_walk_does_not_walk_again() {
        let (dir, mut config, first) = built(FILES);
        write_old(
            dir.path(),
            &[("app/b.py", "def helper():\n    return 22\n")],
        );
        let pre = Map::precheck(&config, &navmap_grammars::registry()).unwrap();
        assert!(pre.unchanged.is_none(), "an edited file");
        config.walked = Some(pre.walk.expect("the check walked"));
        write_old(dir.path(), &[("app/c.py", "def c():\n    pass\n")]);
        let (map, _) = Map::open(config.clone(), Arc::new(navmap_grammars::registry())).unwrap();
        let s = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert_eq!(
            (s.files_scanned, s.files_indexed),
            (first.files_scanned, 1),
            "the check's walk: the edit, not the new file"
        );
        let again = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert_eq!(
            (again.files_scanned, again.files_indexed),
            (first.files_scanned + 1, 1),
            "walked again: the new file"
        );

        // A walk of another root is not used.
        let (other, other_config, _) = built(FILES);
        let mut config = MapConfig::new(dir.path().canonicalize().unwrap());
        config.walked = Map::precheck(&other_config, &navmap_grammars::registry())
            .unwrap()
            .walk;
        assert!(config.walked.is_some());
        write_old(dir.path(), &[("app/d.py", "def d():\n    pass\n")]);
        let (map, _) = Map::open(config, Arc::new(navmap_grammars::registry())).unwrap();
        let s = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert_eq!(
            (s.files_scanned, s.files_indexed),
            (first.files_scanned + 2, 1)
        );
        drop(other);
    }

    /// A CLI process ends without closing SQLite: the write-ahead log must already be
    /// empty when a build returns, or the next process reads all of it on open.
    #[test]
    fn a_build_leaves_an_empty_write_ahead_log() {
        let dir = tempfile::tempdir().unwrap();
        write_old(dir.path(), FILES);
        let config = MapConfig::new(dir.path().canonicalize().unwrap());
        let wal = config.root.join(".navmap/map.db-wal");
        let (map, _) = Map::open(config.clone(), Arc::new(navmap_grammars::registry())).unwrap();
        map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        let len = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        assert_eq!(len(&wal), 0, "after the cold build, the map still open");
        write_old(
            dir.path(),
            &[("app/b.py", "def helper():\n    return 22\n")],
        );
        let s = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert_eq!(s.files_indexed, 1);
        assert_eq!(len(&wal), 0, "after an incremental build");
        assert!(len(&config.root.join(".navmap/map.db")) > 0);
    }

    /// Files written just before the build are recorded with mtime 0: their content
    /// decides, as in a rebuild. (The bench's one-file re-index loaded the whole map for a
    /// no-op after writing a file.)
    #[test]
    fn files_written_just_before_the_build_are_compared_by_content() {
        let dir = tempfile::tempdir().unwrap();
        for (p, text) in FILES {
            let abs = dir.path().join(p);
            std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
            std::fs::write(abs, text).unwrap();
        }
        let config = MapConfig::new(dir.path().canonicalize().unwrap());
        let (map, _) = Map::open(config.clone(), Arc::new(navmap_grammars::registry())).unwrap();
        let built = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        drop(map);
        let racy: i64 = rusqlite::Connection::open(config.root.join(".navmap/map.db"))
            .unwrap()
            .query_row("SELECT COUNT(*) FROM files WHERE mtime = 0", [], |r| {
                r.get(0)
            })
            .unwrap();
        let s = check(&config).expect("the same content");
        assert_eq!(s.symbols, built.symbols);
        // Same size, other content: seen (whatever the mtime says).
        std::fs::write(dir.path().join("app/b.py"), "def helper():\n    return 2\n").unwrap();
        assert!(check(&config).is_none(), "an edit of the same size");
        if racy == 0 {
            // A very slow machine: more than two seconds between the writes and the build.
            eprintln!("no file was recorded as just written: the first check was the plain one");
        }
    }

    #[test]
    fn a_map_that_cannot_tell_answers_none_until_a_rebuild_records_its_counts() {
        let (_dir, config, _) = built(FILES);
        let db = config.root.join(".navmap/map.db");
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute("DELETE FROM meta WHERE key = 'counts'", [])
            .unwrap();
        assert!(check(&config).is_none(), "built before counts existed");
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'dirty'", [])
            .unwrap();
        assert!(check(&config).is_none(), "dirty");
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'dirty'", [])
            .unwrap();
        drop(conn);
        let (map, _) = Map::open(config.clone(), Arc::new(navmap_grammars::registry())).unwrap();
        let again = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert_eq!(again.files_indexed, 0);
        assert_eq!(check(&config).map(|s| s.symbols), Some(again.symbols));
        let missing = MapConfig::new(config.root.join("app"));
        assert!(check(&missing).is_none(), "no map at all");
    }
}
