//! Compiled queries' pattern analyses kept in the map, so that the next process compiles
//! its queries without analysing their patterns again.
//!
//! tree-sitter analyses a query's patterns against its grammar's whole parse table when it
//! compiles it: for Rust's queries ≈ 50 ms, half of a one-file `navmap rebuild`'s CPU
//! (issue 19). The results depend only on the query's source and the grammar
//! (`navmap_extract::query_analyses`, keyed by a hash of both), so a build stores the ones
//! its process computed in `meta` (`query_analysis <key>` → hex), and opening a map offers
//! them to extraction (`navmap_extract::offer_query_analyses`). A database another navmap
//! wrote may hold keys no query of this one has: they are never used. One whose bytes do
//! not fit its query is ignored by tree-sitter (it analyses the patterns instead); a map
//! database is read as data either way, never trusted for memory safety (the bytes are
//! flags and symbol numbers, checked for length against the query they are applied to).

use rusqlite::Transaction;

use crate::db;
use crate::error::Result;

/// The `meta` key prefix of a kept analysis.
pub(crate) const PREFIX: &str = "query_analysis ";

/// The analysis kept under `meta` key `key`, when the key is one and its value is hex.
pub(crate) fn parse(key: &str, value: &str) -> Option<(String, Vec<u8>)> {
    let key = key.strip_prefix(PREFIX)?;
    Some((key.to_string(), navmap_language::analysis_from_hex(value)?))
}

/// Stores the analyses this process computed (none when every query it compiled was
/// built from a kept one), in the build's final transaction.
pub(crate) fn store_new(tx: &Transaction) -> Result<()> {
    for (key, bytes) in navmap_extract::query_analyses() {
        let hex = navmap_language::analysis_to_hex(&bytes);
        db::set_meta(tx, &format!("{PREFIX}{key}"), &hex)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Map, MapConfig, RebuildOptions};

    /// Python under another id, with none of the registry's shipped analyses: its query
    /// is analysed by the process that compiles it (and its compile is this test's own,
    /// whatever other tests of the process compiled).
    fn python_without_shipped_analyses() -> navmap_language::Registry {
        let mut py = (**navmap_grammars::registry().by_id("py").unwrap()).clone();
        py.manifest.id = "pyk".into();
        py.manifest.extensions = vec!["pyk".into()];
        py.query_analyses.clear();
        navmap_language::Registry::new(vec![py])
    }

    #[test]
    fn a_build_keeps_the_analyses_of_the_queries_it_compiled() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.pyk"), "def a():\n    return b()\n").unwrap();
        let (map, _) = Map::open(
            MapConfig::new(dir.path()),
            Arc::new(python_without_shipped_analyses()),
        )
        .unwrap();
        map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        let db_path = map.db_path().to_path_buf();
        drop(map);
        let conn = rusqlite::Connection::open(db_path).unwrap();
        let mut stmt = conn.prepare("SELECT key, value FROM meta").unwrap();
        let kept: Vec<(String, Vec<u8>)> = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .unwrap()
            .filter_map(|row| {
                let (k, v) = row.unwrap();
                parse(&k, &v)
            })
            .collect();
        let py: Vec<_> = kept.iter().filter(|(k, _)| k.starts_with("pyk/")).collect();
        assert_eq!(py.len(), 1, "{kept:?}");
        // This process compiled Python's query itself (nothing was offered from a new
        // map), so what it kept is what extraction reports for that key.
        let computed = navmap_extract::query_analyses();
        let (_, bytes) = computed
            .iter()
            .find(|(k, _)| *k == py[0].0)
            .expect("the kept key is the compiled query's");
        assert_eq!(*bytes, py[0].1);
        assert!(bytes.starts_with(b"nmqa"), "tree-sitter's analysis layout");
    }

    #[test]
    fn a_kept_analysis_reads_back_and_a_damaged_one_is_none() {
        assert_eq!(
            parse("query_analysis rs/rust/00ff", "00ff7a"),
            Some(("rs/rust/00ff".to_string(), vec![0x00, 0xff, 0x7a]))
        );
        assert_eq!(parse("query_analysis k", "0"), None, "odd length");
        assert_eq!(parse("query_analysis k", "zz"), None, "not hex");
        assert_eq!(parse("query_analysis k", "é0"), None, "not ASCII");
        assert_eq!(parse("dirty", "00"), None, "another key");
    }
}
