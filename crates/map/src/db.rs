//! SQLite persistence of the model: schema, versioning, loading and writing changes.
//!
//! Tables: `meta` (schema version, generation, build time, the dirty flag, config-file
//! hashes), `files` (one small row per file of a known language: path, figures, hash —
//! what the no-op check and a partial load read whole), `contents` and `edges` (an indexed
//! file's nodes — the file node and its definitions, each with its index —, its
//! references, imports, bindings and resolved outgoing edges as blobs, see `codec.rs`) and `externals` (one row per external
//! module node). Node indexes are stored, never reassigned: they are stable across edits.
//! `names`, `reach` and `incoming` index them so that a rebuild can load only the files a
//! change reaches (`index.rs`, [`Db::load_partial`]).
//!
//! Crash safety: every file's rows are written in one transaction (a file is never
//! half-written); `dirty` is set before the first write of a build and cleared in its last
//! transaction. A map opened dirty has consistent facts but possibly stale edges: it
//! counts as not built and the next rebuild re-resolves everything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::codec::{DecodeError, Reader, Writer};
use crate::error::{MapError, Result};
use crate::index;
use crate::model::{
    FileRec, Import, Ix, Mention, MentionKind, Model, NO_LINE, Node, Opt32, Ref, Sym, Target,
    TypedName,
};
use crate::types::SkipReason;
use crate::{Confidence, EdgeKind, NodeKind};

/// Bump on any change to the tables or blob encodings (8: a binding's region; 9: the
/// blobs in `contents`, the index tables of the partial rebuild — two changes that met
/// on main under one number; 10: a definition's arity, a call's number of arguments).
pub(crate) const SCHEMA_VERSION: i64 = 11;

const SCHEMA: &str = "
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    lang TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime INTEGER NOT NULL,
    hash BLOB NOT NULL,
    skipped TEXT,
    lines INTEGER NOT NULL,
    had_errors INTEGER NOT NULL
);
CREATE TABLE contents(
    file INTEGER PRIMARY KEY,
    nodes BLOB NOT NULL,
    facts BLOB NOT NULL
);
CREATE TABLE edges(
    file INTEGER PRIMARY KEY,
    data BLOB NOT NULL
);
CREATE TABLE externals(
    id INTEGER PRIMARY KEY,
    lang TEXT NOT NULL,
    package TEXT NOT NULL
);
CREATE TABLE names(bucket INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE reach(file INTEGER PRIMARY KEY, nodes BLOB NOT NULL);
CREATE TABLE incoming(owner INTEGER PRIMARY KEY, srcs BLOB NOT NULL);
";

/// What `meta` holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Meta {
    pub generation: u64,
    pub built_at: Option<u64>,
    pub dirty: bool,
    /// Config file (root-relative) → blake3 hex, as of the last build.
    pub config: BTreeMap<String, String>,
    /// Symbols and edges of the last build, so that a rebuild with nothing to do can say
    /// them without loading the model (`precheck.rs`). `None` in maps built before.
    pub counts: Option<(u64, u64)>,
    /// What the last build's facts were extracted with (`fingerprint.rs`); `None` in maps
    /// built before it was recorded.
    pub extraction: Option<String>,
    /// Compiled queries' pattern analyses kept by earlier builds (`query_analyses.rs`).
    pub query_analyses: Vec<(String, Vec<u8>)>,
}

/// The `counts` meta value: `"<symbols> <edges>"`.
pub(crate) fn counts_value(symbols: u64, edges: u64) -> String {
    format!("{symbols} {edges}")
}

pub(crate) struct Db {
    pub conn: Connection,
    pub path: PathBuf,
}

fn remove_db_files(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

impl Db {
    /// SQLite's page cache for this connection (`PRAGMA cache_size`, as it is set:
    /// negative for KiB, positive for pages).
    pub(crate) fn cache_size(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "cache_size", |r| r.get(0))?)
    }

    /// Sets SQLite's page cache for this connection (as [`Db::cache_size`] gives it).
    pub(crate) fn set_cache_size(&self, size: i64) -> Result<()> {
        Ok(self.conn.pragma_update(None, "cache_size", size)?)
    }

    /// Frees the pages SQLite keeps cached (`PRAGMA shrink_memory`): after a load, they
    /// are pages no answer reads again (answers come from the model).
    pub(crate) fn release_memory(&self) {
        let _ = self.conn.execute_batch("PRAGMA shrink_memory");
    }
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    conn.set_prepared_statement_cache_capacity(32);
    Ok(())
}

fn create(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    configure(&conn)?;
    conn.execute_batch(SCHEMA)?;
    conn.execute(
        "INSERT INTO meta(key, value) VALUES ('schema_version', ?1), ('generation', '0'), ('dirty', '0')",
        params![SCHEMA_VERSION.to_string()],
    )?;
    Ok(conn)
}

fn schema_version(conn: &Connection) -> rusqlite::Result<Option<i64>> {
    let v: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    Ok(v.and_then(|s| s.parse().ok()))
}

/// The `db_path` of a map kept in memory only: nothing is written to disk (`navmap
/// serve` when the map folder is refused).
pub const IN_MEMORY: &str = ":memory:";

pub(crate) fn is_in_memory(path: &Path) -> bool {
    path.as_os_str() == IN_MEMORY
}

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Whether the file at `path` is navmap's map: an SQLite database whose `meta` table
/// holds a `schema_version` (any version). `Ok(None)` when it is ours with that version
/// unreadable as a number; `Err(why)` when it is not provably ours, and so must not be
/// deleted or overwritten.
pub(crate) fn our_schema_version(path: &Path) -> std::result::Result<Option<i64>, String> {
    use std::io::Read;
    let mut head = [0u8; 16];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(|e| format!("cannot be read ({e})"))?;
    if n < head.len() || &head != SQLITE_HEADER {
        return Err("is not an SQLite database".into());
    }
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("cannot be opened ({e})"))?;
    let v: String = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| format!("is an SQLite database but not navmap's map ({e})"))?
        .ok_or_else(|| {
            "is an SQLite database but not navmap's map (no schema_version)".to_string()
        })?;
    Ok(v.parse().ok())
}

impl Db {
    /// Opens the database, recreating it (with a warning) when it is navmap's map from
    /// another schema version or unreadable. A file at `path` that is not provably
    /// navmap's map (not SQLite, or SQLite without navmap's `meta`) is an error: navmap
    /// never deletes or overwrites a file it did not create.
    pub fn open(path: &Path, warnings: &mut Vec<String>) -> Result<Db> {
        if is_in_memory(path) {
            let conn = create(path).map_err(|e| {
                MapError::internal(format!("creating an in-memory map database: {e}"))
            })?;
            return Ok(Db {
                conn,
                path: path.to_path_buf(),
            });
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| MapError::internal(format!("creating {}: {e}", dir.display())))?;
        }
        if std::fs::symlink_metadata(path).is_ok() {
            let version = our_schema_version(path).map_err(|why| {
                MapError::Refused(format!(
                    "{} {why}: navmap never deletes or overwrites a file it did not create; move it away or pass another --db",
                    path.display()
                ))
            })?;
            let existing = Connection::open(path).and_then(|c| {
                configure(&c)?;
                let v = schema_version(&c)?;
                Ok((c, v))
            });
            match existing {
                Ok((conn, Some(SCHEMA_VERSION))) if version == Some(SCHEMA_VERSION) => {
                    return Ok(Db {
                        conn,
                        path: path.to_path_buf(),
                    });
                }
                Ok((conn, v)) => {
                    drop(conn);
                    warnings.push(format!(
                        "map database {} has schema version {}, expected {SCHEMA_VERSION}: rebuilding it",
                        path.display(),
                        v.map(|v| v.to_string()).unwrap_or_else(|| "none".into())
                    ));
                }
                Err(e) => warnings.push(format!(
                    "map database {} is unreadable ({e}): rebuilding it",
                    path.display()
                )),
            }
            remove_db_files(path);
        }
        let conn = create(path).map_err(|e| {
            MapError::internal(format!("creating map database {}: {e}", path.display()))
        })?;
        Ok(Db {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Drops everything and starts an empty database (after a load failure).
    pub fn recreate(&mut self) -> Result<()> {
        let tmp = Connection::open_in_memory()?;
        let old = std::mem::replace(&mut self.conn, tmp);
        drop(old);
        if !is_in_memory(&self.path) {
            remove_db_files(&self.path);
        }
        self.conn = create(&self.path)?;
        Ok(())
    }

    pub fn read_meta(&self) -> Result<Meta> {
        let mut stmt = self.conn.prepare("SELECT key, value FROM meta")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        let mut meta = Meta::default();
        for row in rows {
            let (k, v) = row?;
            match k.as_str() {
                // A value that does not parse is a corrupt map, not an unbuilt one.
                "generation" => {
                    meta.generation = v.parse().map_err(|_| {
                        MapError::Internal(format!(
                            "corrupt map database: generation {v:?} is not a number"
                        ))
                    })?
                }
                "built_at" => {
                    meta.built_at = Some(v.parse().map_err(|_| {
                        MapError::Internal(format!(
                            "corrupt map database: built_at {v:?} is not a number"
                        ))
                    })?)
                }
                "dirty" => meta.dirty = v == "1",
                "extraction" => meta.extraction = Some(v),
                k if k.starts_with(crate::query_analyses::PREFIX) => {
                    meta.query_analyses
                        .extend(crate::query_analyses::parse(k, &v));
                }
                "config" => meta.config = serde_json::from_str(&v).unwrap_or_default(),
                "counts" => {
                    meta.counts = v
                        .split_once(' ')
                        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                }
                _ => {}
            }
        }
        Ok(meta)
    }

    /// Every external module node (import targets refer to them).
    pub(crate) fn load_externals(&self, model: &mut Model) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, lang, package FROM externals")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let ix: Ix = r.get(0)?;
            let lang: String = r.get(1)?;
            let package: String = r.get(2)?;
            let lang_ix = model.lang_ix(&lang);
            let name = model.names.intern(&package);
            let qname = model.texts.intern(&package);
            model.put_node(
                ix,
                Node {
                    kind: NodeKind::Module,
                    name,
                    qname,
                    dup: 1,
                    lang: lang_ix,
                    file: Opt32::NONE,
                    parent: Opt32::NONE,
                    start_line: 0,
                    end_line: 0,
                    name_line: 0,
                    name_col: 0,
                    signature: Opt32::NONE,
                    doc: Opt32::NONE,
                    exported: true,
                },
            );
        }
        Ok(())
    }

    /// Loads the whole model. A decoding failure means a corrupt database. `rebuild_only`:
    /// mentions stay encoded (`FileRec::mentions_raw`): only answers about uses read them.
    /// `uses_on_disk`: each file's references and mentions are indexed by name (the users
    /// and mentioners of a name) and let go of at once, left in the database
    /// (`FileRec::uses_on_disk`).
    pub fn load(&self, model: &mut Model, rebuild_only: bool, uses_on_disk: bool) -> Result<()> {
        // A small page cache while every row is read once: SQLite's default (2 MB) filled
        // a page at a time among the files' long-lived lists and freed after the load,
        // left holes of a page each in the heap of `serve` (issue 19). Put back after.
        let cache = self.cache_size()?;
        self.set_cache_size(-LOAD_CACHE_KIB)?;
        let loaded = self.load_rows(model, rebuild_only, uses_on_disk);
        self.set_cache_size(cache)?;
        loaded
    }

    fn load_rows(&self, model: &mut Model, rebuild_only: bool, uses_on_disk: bool) -> Result<()> {
        let bad = |what: &str| MapError::Internal(format!("corrupt map database: {what}"));
        // External modules first: import targets refer to them.
        self.load_externals(model)?;
        let mut stmt = self.conn.prepare(
            "SELECT f.id, f.path, f.lang, f.size, f.mtime, f.hash, f.skipped, f.lines, f.had_errors,
                    c.nodes, c.facts, e.data
             FROM files f LEFT JOIN contents c ON c.file = f.id LEFT JOIN edges e ON e.file = f.id
             ORDER BY f.id",
        )?;
        // Every file's edges, back to back in one block sized exactly, decoded once every
        // node is loaded (an edge may point into a later file): a copy of each file's blob
        // apart, held between the files' long-lived lists and freed at the end, left
        // 2–3 MB of small holes resident in the heap of `serve` (issue 19).
        let edge_bytes: i64 = self.conn.query_row(
            "SELECT COALESCE(SUM(LENGTH(data)), 0) FROM edges",
            [],
            |r| r.get(0),
        )?;
        let mut edge_data: Vec<u8> = Vec::with_capacity(usize::try_from(edge_bytes).unwrap_or(0));
        let mut edge_blobs: Vec<(Ix, std::ops::Range<usize>)> = Vec::new();
        // Who uses and mentions each name, as (name, file) in file order, written into the
        // name lists at once at the end (`Rows::push_all`: what pushing them one by one
        // leaves, without a list per name in the overlay, grown and freed between the
        // files' long-lived lists: issue 19, the heap of `serve`).
        let (mut users, mut mentioners) = (Vec::new(), Vec::new());
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let ix: Ix = r.get(0)?;
            let path: String = r.get(1)?;
            let lang: String = r.get(2)?;
            let lang = model.lang_ix(&lang);
            let hash_v: Vec<u8> = r.get(5)?;
            let hash: [u8; 32] = hash_v.try_into().map_err(|_| bad("file hash"))?;
            let skipped: Option<String> = r.get(6)?;
            let skipped = match skipped {
                Some(s) => Some(SkipReason::parse(&s).ok_or_else(|| bad("skip reason"))?),
                None => None,
            };
            // Borrowed from SQLite's row, not copied: a copy of every blob was a tenth of
            // a one-file rebuild's page faults (issue 19).
            let blob = |i: usize| -> Result<Option<&[u8]>> {
                r.get_ref(i)?
                    .as_blob_or_null()
                    .map_err(|e| MapError::Internal(format!("corrupt map database: {e}")))
            };
            let nodes = blob(9)?;
            let facts = blob(10)?;
            if let Some(e) = blob(11)? {
                let start = edge_data.len();
                edge_data.extend_from_slice(e);
                edge_blobs.push((ix, start..edge_data.len()));
            }
            let mut rec = FileRec {
                size: r.get::<_, i64>(3)? as u64,
                mtime: r.get(4)?,
                hash,
                skipped,
                lines: r.get(7)?,
                had_errors: r.get::<_, i64>(8)? != 0,
                ..FileRec::new(path.into_boxed_str(), lang)
            };
            if let Some(nodes) = nodes {
                decode_nodes(nodes, model, ix, &mut rec).map_err(|_| bad("file nodes"))?;
            }
            if let Some(facts) = facts {
                decode_facts(facts, model, &mut rec, rebuild_only)
                    .map_err(|_| bad("file facts"))?;
            }
            model.put_file(ix, rec);
            if uses_on_disk && !rebuild_only && facts.is_some() {
                uses_of(model, ix, &mut users, &mut mentioners);
                let f = model.f_mut(ix);
                f.refs = Default::default();
                f.mentions = Default::default();
                f.uses_on_disk = true;
            }
        }
        drop(rows);
        // Containers: every node's parent is in its own file (written at once, as the
        // users above).
        let mut children = Vec::new();
        for ix in model.node_ixs() {
            if let Some(p) = model.n(ix).parent.get() {
                if model.slot(p).is_none() {
                    return Err(bad("parent of a node is missing"));
                }
                children.push((p, ix));
            }
        }
        model.children.push_all(|| children.iter().copied());
        drop(children);
        for fix in model.file_ixs().collect::<Vec<_>>() {
            if !model.f(fix).uses_on_disk {
                uses_of(model, fix, &mut users, &mut mentioners);
            }
        }
        model.users_by_name.push_all(|| users.iter().copied());
        model
            .mentioners_by_name
            .push_all(|| mentioners.iter().copied());
        drop((users, mentioners));
        for (fix, span) in edge_blobs {
            decode_edges(&edge_data[span], model)
                .map_err(|_| bad(&format!("edges of file {fix}")))?;
        }
        drop(edge_data);
        model.shrink_to_fit();
        if uses_on_disk && !rebuild_only {
            // Opened for answers: texts are read by symbol only.
            model.texts.forget_table();
        }
        Ok(())
    }

    /// Copies the write-ahead log into the database and empties it, at the end of a build.
    /// A log left behind (a CLI process ends without closing SQLite) is read and
    /// checksummed whole by the next process that opens the map — for a 30 MB log that was
    /// a seventh of a one-file `navmap rebuild` (issue 19's profile). Best effort: a reader
    /// holding a snapshot only delays it to the next build.
    pub fn checkpoint(&self) {
        if let Err(e) = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        {
            tracing::debug!("wal checkpoint: {e}");
        }
    }

    pub fn transaction(&mut self) -> Result<Transaction<'_>> {
        Ok(self.conn.transaction()?)
    }
}

/// The names a file uses (its references and imports) and those it mentions, as (name,
/// file) pairs for [`Rows::push_all`] into the model's lists of users and mentioners
/// (what [`Model::add_user`] and [`Model::add_mentioner`] would leave for a file loaded
/// after every other: each name once).
fn uses_of(model: &Model, fix: Ix, users: &mut Vec<(Sym, Ix)>, mentioners: &mut Vec<(Sym, Ix)>) {
    users.extend(model.used_names(fix).into_iter().map(|sym| (sym, fix)));
    mentioners.extend(model.mentioned_names(fix).into_iter().map(|sym| (sym, fix)));
}

pub(crate) fn set_meta(tx: &Transaction, key: &str, value: &str) -> Result<()> {
    tx.prepare_cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)")?
        .execute(params![key, value])?;
    Ok(())
}

pub(crate) fn write_file_row(tx: &Transaction, model: &Model, fix: Ix) -> Result<()> {
    let f = model.f(fix);
    if !f.loaded {
        return Err(MapError::Internal(format!(
            "file {} was written before it was loaded",
            f.path
        )));
    }
    tx.prepare_cached(
        "INSERT OR REPLACE INTO files(id, path, lang, size, mtime, hash, skipped, lines, had_errors)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        fix,
        &*f.path,
        model.lang(f.lang),
        f.size as i64,
        f.mtime,
        &f.hash[..],
        f.skipped.map(SkipReason::as_str),
        f.lines,
        f.had_errors as i64,
    ])?;
    if f.node.is_some() {
        tx.prepare_cached(
            "INSERT OR REPLACE INTO contents(file, nodes, facts) VALUES (?1, ?2, ?3)",
        )?
        .execute(params![
            fix,
            encode_nodes(model, fix),
            encode_facts(model, fix)
        ])?;
        index::write_reach(tx, model, fix)?;
    } else {
        tx.prepare_cached("DELETE FROM contents WHERE file = ?1")?
            .execute(params![fix])?;
        index::delete_reach(tx, fix)?;
    }
    Ok(())
}

pub(crate) fn touch_file_row(tx: &Transaction, model: &Model, fix: Ix) -> Result<()> {
    let f = model.f(fix);
    tx.prepare_cached("UPDATE files SET size = ?2, mtime = ?3 WHERE id = ?1")?
        .execute(params![fix, f.size as i64, f.mtime])?;
    Ok(())
}

pub(crate) fn delete_file_row(tx: &Transaction, fix: Ix) -> Result<()> {
    tx.prepare_cached("DELETE FROM files WHERE id = ?1")?
        .execute(params![fix])?;
    tx.prepare_cached("DELETE FROM edges WHERE file = ?1")?
        .execute(params![fix])?;
    tx.prepare_cached("DELETE FROM contents WHERE file = ?1")?
        .execute(params![fix])?;
    index::delete_reach(tx, fix)?;
    index::delete_incoming(tx, fix as i64)?;
    Ok(())
}

/// Persists an external module node (file-owned nodes live in their file's row).
pub(crate) fn write_node_row(tx: &Transaction, model: &Model, ix: Ix) -> Result<()> {
    let n = model.n(ix);
    if n.file.is_some() {
        return Ok(());
    }
    tx.prepare_cached("INSERT OR REPLACE INTO externals(id, lang, package) VALUES (?1, ?2, ?3)")?
        .execute(params![ix, model.lang(n.lang), model.qname(n)])?;
    Ok(())
}

pub(crate) fn delete_node_row(tx: &Transaction, ix: Ix) -> Result<()> {
    tx.prepare_cached("DELETE FROM externals WHERE id = ?1")?
        .execute(params![ix])?;
    index::delete_incoming(tx, -(ix as i64))?;
    Ok(())
}

pub(crate) fn write_edges(tx: &Transaction, model: &Model, fix: Ix) -> Result<()> {
    if !model.f(fix).loaded {
        return Err(MapError::Internal(format!(
            "the edges of {} were written before they were loaded",
            model.f(fix).path
        )));
    }
    match model.f(fix).node {
        Some(_) => {
            tx.prepare_cached("INSERT OR REPLACE INTO edges(file, data) VALUES (?1, ?2)")?
                .execute(params![fix, encode_edges(model, fix)])?;
        }
        None => {
            tx.prepare_cached("DELETE FROM edges WHERE file = ?1")?
                .execute(params![fix])?;
        }
    }
    Ok(())
}

/// Set in a ref's kind byte when the ref is a call of a local (`Ref::local`).
const LOCAL_BIT: u8 = 0x80;

fn kind_code(k: EdgeKind) -> u8 {
    EdgeKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as u8
}

fn kind_from(c: u8) -> Result<EdgeKind, DecodeError> {
    EdgeKind::ALL.get(c as usize).copied().ok_or(DecodeError)
}

const CONFIDENCES: [Confidence; 4] = [
    Confidence::Exact,
    Confidence::Import,
    Confidence::Name,
    Confidence::Candidate,
];

fn conf_code(c: Confidence) -> u8 {
    CONFIDENCES.iter().position(|&x| x == c).unwrap_or(3) as u8
}

fn conf_from(c: u8) -> Result<Confidence, DecodeError> {
    CONFIDENCES.get(c as usize).copied().ok_or(DecodeError)
}

fn kind_index(k: NodeKind) -> u8 {
    NodeKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as u8
}

/// The file node, then the definitions in facts order.
fn encode_nodes(model: &Model, fix: Ix) -> Vec<u8> {
    let mut w = Writer::default();
    let ixs = model.file_nodes(fix);
    w.u64(ixs.len() as u64);
    for ix in ixs {
        let n = model.n(ix);
        w.u32(ix);
        w.u8(kind_index(n.kind));
        w.str(&model.node_id(ix));
        w.str(model.names.str(n.name));
        w.str(model.qname(n));
        w.u32(n.parent.get().map(|p| p + 1).unwrap_or(0));
        w.u32(n.start_line);
        w.u32(n.end_line);
        w.u32(n.name_line);
        w.u32(n.name_col);
        w.opt_str(model.signature(n));
        w.opt_str(model.doc(n));
        w.u8(n.exported as u8);
        // The packed arity plus one; 0: unknown.
        w.u64(model.arity.get(&ix).map_or(0, |&a| u64::from(a) + 1));
        w.opt_str(model.params.get(&ix).map(|&p| model.texts.str(p)));
    }
    w.buf
}

pub(crate) fn decode_nodes(
    blob: &[u8],
    model: &mut Model,
    fix: Ix,
    rec: &mut FileRec,
) -> Result<(), DecodeError> {
    let mut r = Reader::new(blob);
    let n = r.u64()?;
    // Exact (a count is never more than the bytes left): pushed one by one, up to half of
    // every file's list was spare.
    rec.defs
        .reserve_exact((n.min(blob.len() as u64) as usize).saturating_sub(1));
    for i in 0..n {
        let ix = r.u32()?;
        let kind = *NodeKind::ALL.get(r.u8()? as usize).ok_or(DecodeError)?;
        let id = r.str()?;
        let name = model.names.intern(r.str()?);
        let qname_text = r.str()?;
        let qname = model.texts.intern(qname_text);
        // The ID is derived again from the rest: only its duplicate number is read.
        let dup = match id.strip_suffix(qname_text) {
            Some(head) if head.ends_with(['#', ':']) => 1,
            _ => id
                .rsplit_once('~')
                .and_then(|(_, n)| n.parse().ok())
                .ok_or(DecodeError)?,
        };
        let parent = r.u32()?.checked_sub(1);
        let node = Node {
            kind,
            name,
            qname,
            dup,
            lang: rec.lang,
            file: Some(fix).into(),
            parent: parent.into(),
            start_line: r.u32()?,
            end_line: r.u32()?,
            name_line: r.u32()?,
            name_col: r.u32()?,
            signature: r.opt_str()?.map(|s| model.texts.intern(s)).into(),
            doc: r.opt_str()?.map(|s| model.texts.intern(s)).into(),
            exported: r.u8()? != 0,
        };
        let arity = r.u64()?.checked_sub(1).map(u32::try_from);
        let params = r.opt_str()?.map(|p| model.texts.intern(p));
        if model.slot(ix).is_some() || (i == 0) != (kind == NodeKind::File) {
            return Err(DecodeError);
        }
        model.put_node(ix, node);
        if let Some(a) = arity {
            model.arity.insert(ix, a.map_err(|_| DecodeError)?);
        }
        if let Some(p) = params {
            model.params.insert(ix, p);
        }
        if i == 0 {
            rec.node = Some(ix);
        } else {
            rec.defs.push(ix);
        }
    }
    if !r.done() {
        return Err(DecodeError);
    }
    Ok(())
}

fn encode_facts(model: &Model, fix: Ix) -> Vec<u8> {
    let f = model.f(fix);
    let mut w = Writer::default();
    if let Some(raw) = &f.refs_raw {
        w.buf.extend_from_slice(raw);
    } else {
        encode_refs(model, fix, &mut w);
    }
    encode_facts_after_refs(model, fix, w)
}

fn encode_refs(model: &Model, fix: Ix, w: &mut Writer) {
    let f = model.f(fix);
    w.u64(f.refs.len() as u64);
    for r in f.refs.iter() {
        w.u32(r.from);
        // The high bit of the kind byte: a call of a local.
        w.u8(kind_code(r.kind) | if r.local { LOCAL_BIT } else { 0 });
        w.str(model.names.str(r.name));
        w.opt_str(r.qualifier.map(|q| model.names.str(q)));
        w.u32(r.line);
        w.u32(r.col);
        w.u64(r.args.map_or(0, |n| u64::from(n) + 1));
        w.opt_str(r.kinds.map(|k| model.names.str(k)));
    }
}

fn encode_facts_after_refs(model: &Model, fix: Ix, mut w: Writer) -> Vec<u8> {
    let f = model.f(fix);
    w.u64(f.imports.len() as u64);
    for i in &f.imports {
        w.str(&i.module);
        w.opt_str(i.alias.map(|a| model.names.str(a)));
        w.u8(i.reexport as u8);
        w.u32(i.line);
        w.u64(i.names.len() as u64);
        for (n, a) in &i.names {
            w.str(model.names.str(*n));
            w.opt_str(a.map(|a| model.names.str(a)));
        }
        match &i.target {
            Target::Unresolved => w.u8(0),
            Target::Files(fs) => {
                w.u8(1);
                w.u64(fs.len() as u64);
                for &f in fs {
                    w.u32(f);
                }
            }
            Target::External(x) => {
                w.u8(2);
                w.u32(*x);
            }
        }
    }
    w.u64(f.bindings.len() as u64);
    for b in &f.bindings {
        w.u32(b.scope);
        w.str(model.text(b.name));
        w.opt_str(b.type_qualifier.get().map(|q| model.text(q)));
        w.str(model.text(b.type_name));
        w.u32(b.line);
        w.u32(b.until);
    }
    if let Some(raw) = &f.mentions_raw {
        w.buf.extend_from_slice(raw);
        return w.buf;
    }
    w.u64(f.mentions.len() as u64);
    for m in f.mentions.iter() {
        w.u32(m.from);
        w.u8(mention_code(m.kind));
        w.str(model.names.str(m.name));
        w.opt_str(m.qualifier.map(|q| model.names.str(q)));
        w.u32(m.line);
        w.u32(m.col);
    }
    w.buf
}

pub(crate) fn decode_facts(
    blob: &[u8],
    model: &mut Model,
    rec: &mut FileRec,
    mentions_raw: bool,
) -> Result<(), DecodeError> {
    decode_facts_with(blob, model, rec, mentions_raw, false)
}

/// [`decode_facts`]; `refs_raw`: the references stay encoded (`FileRec::refs_raw`), for a
/// file a partly loaded model reads but does not re-resolve.
pub(crate) fn decode_facts_with(
    blob: &[u8],
    model: &mut Model,
    rec: &mut FileRec,
    mentions_raw: bool,
    refs_raw: bool,
) -> Result<(), DecodeError> {
    let mut r = Reader::new(blob);
    // Exact sizes (a count is never more than the bytes left): a doubled `Vec` wasted up
    // to half of every file's refs and mentions.
    let exact = |n: u64| n.min(blob.len() as u64) as usize;
    if refs_raw {
        let start = blob.len() - r.remaining();
        skip_refs(&mut r)?;
        rec.refs_raw = Some(blob[start..blob.len() - r.remaining()].into());
    } else {
        decode_refs(&mut r, model, rec)?;
    }
    let n = r.u64()?;
    rec.imports.reserve_exact(exact(n));
    for _ in 0..n {
        let module = Box::from(r.str()?);
        let alias = r.opt_str()?.map(|a| model.names.intern(a));
        let reexport = r.u8()? != 0;
        let line = r.u32()?;
        let count = r.u64()?;
        let mut names = Vec::with_capacity(exact(count));
        for _ in 0..count {
            let name = model.names.intern(r.str()?);
            let alias = r.opt_str()?.map(|a| model.names.intern(a));
            names.push((name, alias));
        }
        let target = match r.u8()? {
            0 => Target::Unresolved,
            1 => {
                let c = r.u64()?;
                let mut fs = Vec::new();
                for _ in 0..c {
                    fs.push(r.u32()?);
                }
                Target::Files(fs)
            }
            2 => Target::External(r.u32()?),
            _ => return Err(DecodeError),
        };
        rec.imports.push(Import {
            module,
            names,
            alias,
            reexport,
            line,
            target,
        });
    }
    let n = r.u64()?;
    rec.bindings.reserve_exact(exact(n));
    for _ in 0..n {
        let scope = r.u32()?;
        if model.slot(scope).is_none() {
            return Err(DecodeError);
        }
        rec.bindings.push(TypedName {
            scope,
            name: model.texts.intern(r.str()?),
            type_qualifier: r.opt_str()?.map(|q| model.texts.intern(q)).into(),
            type_name: model.texts.intern(r.str()?),
            line: r.u32()?,
            until: r.u32()?,
        });
    }
    if mentions_raw {
        rec.mentions_raw = Some(r.rest().into());
        return Ok(());
    }
    decode_mentions(&mut r, model, rec)
}

/// Skips the references of a facts blob (where it starts), reading no name (nor checking
/// it is UTF-8: what is skipped is kept as bytes or not at all): the fields of
/// `decode_refs`.
fn skip_refs(r: &mut Reader) -> Result<(), DecodeError> {
    for _ in 0..r.u64()? {
        r.u32()?;
        r.u8()?;
        r.bytes()?;
        r.opt_bytes()?;
        r.u32()?;
        r.u32()?;
        r.u64()?;
        r.opt_bytes()?;
    }
    Ok(())
}

/// A reference's number of arguments as `encode_refs` writes it: 0 unknown, else `n + 1`.
fn read_args(r: &mut Reader) -> Result<Option<u16>, DecodeError> {
    match r.u64()? {
        0 => Ok(None),
        n => u16::try_from(n - 1).map(Some).map_err(|_| DecodeError),
    }
}

/// The references part of a facts blob (where `decode_facts` starts).
fn decode_refs(r: &mut Reader, model: &mut Model, rec: &mut FileRec) -> Result<(), DecodeError> {
    let n = r.u64()?;
    let mut refs = Vec::with_capacity(n.min(r.remaining() as u64) as usize);
    for _ in 0..n {
        let from = r.u32()?;
        let code = r.u8()?;
        let kind = kind_from(code & !LOCAL_BIT)?;
        let local = code & LOCAL_BIT != 0;
        let name = model.names.intern(r.str()?);
        let qualifier = r.opt_str()?.map(|q| model.names.intern(q));
        let line = r.u32()?;
        let col = r.u32()?;
        let args = read_args(r)?;
        let kinds = r.opt_str()?.map(|k| model.names.intern(k));
        if model.slot(from).is_none() {
            return Err(DecodeError);
        }
        refs.push(Ref {
            from,
            kind,
            name,
            qualifier,
            line,
            col,
            local,
            args,
            kinds,
        });
    }
    rec.refs = refs.into_iter().collect();
    Ok(())
}

/// Decodes the references a partly loaded model kept encoded, for a file about to be
/// re-resolved or rewritten, and counts the file as a user of their names.
pub(crate) fn decode_kept_refs(model: &mut Model, fix: Ix) -> Result<()> {
    let Some(raw) = model.f_mut(fix).refs_raw.take() else {
        return Ok(());
    };
    let mut rec = std::mem::replace(model.f_mut(fix), FileRec::new(Box::from(""), 0));
    let mut r = Reader::new(&raw);
    let decoded = decode_refs(&mut r, model, &mut rec)
        .and_then(|()| if r.done() { Ok(()) } else { Err(DecodeError) });
    *model.f_mut(fix) = rec;
    decoded.map_err(|_| {
        MapError::Internal(format!("corrupt map database: references of file {fix}"))
    })?;
    for sym in model.used_names(fix) {
        model.add_user(sym, fix);
    }
    Ok(())
}

/// The mentions part of a facts blob (where `decode_facts` stopped), to its end.
fn decode_mentions(
    r: &mut Reader,
    model: &mut Model,
    rec: &mut FileRec,
) -> Result<(), DecodeError> {
    let n = r.u64()?;
    let mut mentions = Vec::with_capacity(n.min(r.remaining() as u64) as usize);
    for _ in 0..n {
        let from = r.u32()?;
        if model.slot(from).is_none() {
            return Err(DecodeError);
        }
        mentions.push(Mention {
            from,
            kind: mention_from(r.u8()?)?,
            name: model.names.intern(r.str()?),
            qualifier: r.opt_str()?.map(|q| model.names.intern(q)),
            line: r.u32()?,
            col: r.u32()?,
        });
    }
    if !r.done() {
        return Err(DecodeError);
    }
    rec.mentions = mentions.into_iter().collect();
    Ok(())
}

/// Decodes the mentions a map opened to rebuild only kept encoded, for a file about to be
/// re-resolved: resolution reads its value mentions (a value use links as a reference).
pub(crate) fn decode_kept_mentions(model: &mut Model, fix: Ix) -> Result<()> {
    let Some(raw) = model.f_mut(fix).mentions_raw.take() else {
        return Ok(());
    };
    let mut rec = std::mem::replace(model.f_mut(fix), FileRec::new(Box::from(""), 0));
    let decoded = decode_mentions(&mut Reader::new(&raw), model, &mut rec);
    *model.f_mut(fix) = rec;
    decoded.map_err(|_| MapError::Internal(format!("corrupt map database: mentions of file {fix}")))
}

/// Skips the imports and bindings of a facts blob (between its references and mentions),
/// checking no string (as `skip_refs`).
fn skip_imports_and_bindings(r: &mut Reader) -> Result<(), DecodeError> {
    for _ in 0..r.u64()? {
        r.bytes()?;
        r.opt_bytes()?;
        r.u8()?;
        r.u32()?;
        for _ in 0..r.u64()? {
            r.bytes()?;
            r.opt_bytes()?;
        }
        match r.u8()? {
            0 => {}
            1 => {
                for _ in 0..r.u64()? {
                    r.u32()?;
                }
            }
            2 => {
                r.u32()?;
            }
            _ => return Err(DecodeError),
        }
    }
    for _ in 0..r.u64()? {
        r.u32()?;
        r.bytes()?;
        r.opt_bytes()?;
        r.bytes()?;
        r.u32()?;
        r.u32()?;
    }
    Ok(())
}

impl Db {
    /// Loads the references and mentions a file left in the database
    /// (`FileRec::uses_on_disk`), before a rebuild reads them (to re-resolve the file, to
    /// update the name indexes when it changes) or writes its row again.
    pub(crate) fn load_uses(&self, model: &mut Model, fix: Ix) -> Result<()> {
        if !model.file(fix).is_some_and(|f| f.uses_on_disk) {
            return Ok(());
        }
        let blob: Vec<u8> = self
            .conn
            .prepare_cached("SELECT facts FROM contents WHERE file = ?1")?
            .query_row(params![fix], |r| r.get(0))?;
        let mut rec = std::mem::replace(model.f_mut(fix), FileRec::new(Box::from(""), 0));
        let mut r = Reader::new(&blob);
        let decoded = decode_refs(&mut r, model, &mut rec)
            .and_then(|()| skip_imports_and_bindings(&mut r))
            .and_then(|()| decode_mentions(&mut r, model, &mut rec));
        rec.uses_on_disk = decoded.is_err();
        *model.f_mut(fix) = rec;
        decoded.map_err(|_| {
            MapError::Internal(format!("corrupt map database: the facts of file {fix}"))
        })
    }
}

/// Writes the row of a file whose references and mentions are left in the database
/// (`FileRec::uses_on_disk`) again, with those of the stored row as they are (undecoded,
/// as `FileRec::refs_raw` and `mentions_raw`): its other facts changed (a fresh build's
/// import targets, resolved after its rows were first written). Nothing of the file's
/// uses is held once it returns.
pub(crate) fn rewrite_file_row_keeping_uses(
    tx: &Transaction,
    model: &mut Model,
    fix: Ix,
) -> Result<()> {
    let blob: Vec<u8> = tx
        .prepare_cached("SELECT facts FROM contents WHERE file = ?1")?
        .query_row(params![fix], |r| r.get(0))?;
    let mut r = Reader::new(&blob);
    let parts = skip_refs(&mut r).and_then(|()| {
        let refs: Box<[u8]> = blob[..blob.len() - r.remaining()].into();
        skip_imports_and_bindings(&mut r)?;
        Ok((refs, Box::<[u8]>::from(r.rest())))
    });
    let (refs, mentions) = parts.map_err(|_| {
        MapError::Internal(format!("corrupt map database: the facts of file {fix}"))
    })?;
    drop(blob);
    let f = model.f_mut(fix);
    f.refs_raw = Some(refs);
    f.mentions_raw = Some(mentions);
    let written = write_file_row(tx, model, fix);
    let f = model.f_mut(fix);
    f.refs_raw = None;
    f.mentions_raw = None;
    written
}

/// Which references and mentions of a file an answer reads ([`UsesReader::read`]).
#[derive(Clone, Copy)]
pub(crate) enum UsesOf {
    /// Those of a name.
    Name(Sym),
    /// Those a node encloses.
    From(Ix),
}

impl UsesOf {
    pub fn keeps(self, from: Ix, name: Sym) -> bool {
        match self {
            UsesOf::Name(s) => name == s,
            UsesOf::From(n) => from == n,
        }
    }
}

/// A file's references and mentions as an answer reads them.
#[derive(Default)]
pub(crate) struct Uses {
    pub refs: Vec<Ref>,
    pub mentions: Vec<Mention>,
}

/// Reads the references and mentions a model left in the database
/// ([`crate::MapConfig::uses_on_demand`]) for answers about uses, on a connection of its
/// own, read-only (a rebuild's writes never wait for it, nor it for them: SQLite's
/// write-ahead log).
pub(crate) struct UsesReader {
    path: PathBuf,
    conn: std::sync::Mutex<Option<Connection>>,
}

/// SQLite pages a fresh build keeps cached (`Inner::fresh_build`): its rows are written
/// once, in file order, and read back once (the uses of a file being resolved); the
/// default 2 MB of cache sat full beside the model through resolution (issue 19: the
/// cold peak).
pub(crate) const BUILD_CACHE_KIB: i64 = 256;

/// SQLite pages a load keeps cached ([`Db::load`]: each row is read once; the tables'
/// inner pages stay).
const LOAD_CACHE_KIB: i64 = 256;

/// SQLite pages the reader keeps cached (a file's facts are a few pages; the operating
/// system caches the rest).
const READER_CACHE_KIB: i64 = 256;

impl UsesReader {
    pub fn new(path: &Path) -> UsesReader {
        UsesReader {
            path: path.to_path_buf(),
            conn: std::sync::Mutex::new(None),
        }
    }

    fn open(&self) -> rusqlite::Result<Connection> {
        let conn = Connection::open_with_flags(
            &self.path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.pragma_update(None, "cache_size", -READER_CACHE_KIB)?;
        conn.busy_timeout(std::time::Duration::from_secs(2))?;
        Ok(conn)
    }

    /// The references and mentions of file `fix` that `which` selects, as the model of
    /// build `generation` has them. The stored row must be the one the model was loaded
    /// or built with: the database at that generation and not being rebuilt, the file's
    /// content hash the same, every enclosing node one of the file's, every name
    /// interned. When it is not (a rebuild from scratch is rewriting the database,
    /// another process rebuilt it) or the database cannot be read,
    /// [`MapError::Unreadable`]: never another build's facts.
    pub fn read(&self, m: &Model, generation: u64, fix: Ix, which: UsesOf) -> Result<Uses> {
        let f = m.f(fix);
        let changed = || {
            MapError::Unreadable(format!(
                "The map database no longer holds {} as this map indexed it (rebuilt since, or being rebuilt)",
                f.path
            ))
        };
        // One statement, one snapshot: the row and the build it belongs to. The blob is
        // decoded where SQLite holds it (no copy).
        let read = self.with_conn(|conn| {
            conn.prepare_cached(
                "SELECT f.hash, c.facts,
                        (SELECT value FROM meta WHERE key = 'generation'),
                        (SELECT value FROM meta WHERE key = 'dirty')
                 FROM files f JOIN contents c ON c.file = f.id WHERE f.id = ?1",
            )
            .and_then(|mut s| {
                s.query_row(params![fix], |r| {
                    let same_build = r.get_ref(2)?.as_str_or_null()?
                        == Some(&*generation.to_string())
                        && r.get_ref(3)?.as_str_or_null()? == Some("0");
                    let same_file = r.get_ref(0)?.as_blob()? == &f.hash[..];
                    if !(same_build && same_file) {
                        return Ok(None);
                    }
                    Ok(decode_uses(r.get_ref(1)?.as_blob()?, m, fix, which).ok())
                })
                .optional()
            })
        })?;
        match read {
            Some(Some(uses)) => Ok(uses),
            _ => Err(changed()),
        }
    }

    /// The generation of the build the database holds, and whether a rebuild is writing
    /// it (or left it unfinished): one snapshot of its `meta` rows.
    pub fn build_held(&self) -> Result<(u64, bool)> {
        self.with_conn(|conn| {
            conn.prepare_cached(
                "SELECT (SELECT value FROM meta WHERE key = 'generation'),
                        (SELECT value FROM meta WHERE key = 'dirty')",
            )
            .and_then(|mut s| {
                s.query_row([], |r| {
                    let generation = r.get::<_, Option<String>>(0)?;
                    let dirty = r.get::<_, Option<String>>(1)?;
                    Ok((generation, dirty))
                })
            })
        })
        .map(|(generation, dirty)| {
            (
                generation.and_then(|g| g.parse().ok()).unwrap_or(0),
                dirty.as_deref() != Some("0"),
            )
        })
    }

    /// Runs `read` on the reader's connection, opened on first use; a connection that
    /// failed is opened again next time.
    fn with_conn<T>(&self, read: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        let mut guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(self.open().map_err(|e| unreadable(&self.path, e))?);
        }
        let conn = guard.as_ref().expect("opened");
        read(conn).map_err(|e| {
            *guard = None;
            unreadable(&self.path, e)
        })
    }
}

fn unreadable(path: &Path, e: rusqlite::Error) -> MapError {
    MapError::Unreadable(format!(
        "The map database {} cannot be read: {e}",
        path.display()
    ))
}

/// The references and mentions of a stored facts blob that `which` selects, without
/// interning (a name the model does not know, or an enclosing node not of the file, is
/// a blob the model was not made from).
fn decode_uses(blob: &[u8], m: &Model, fix: Ix, which: UsesOf) -> Result<Uses, DecodeError> {
    let mut r = Reader::new(blob);
    let mut out = Uses::default();
    let of_file = |from: Ix| m.slot(from).is_some_and(|n| n.file.get() == Some(fix));
    let sym = |s: &[u8]| {
        let s = std::str::from_utf8(s).map_err(|_| DecodeError)?;
        m.names.get(s).ok_or(DecodeError)
    };
    let wanted = match which {
        UsesOf::Name(s) => Some(m.names.str(s).as_bytes()),
        UsesOf::From(_) => None,
    };
    for _ in 0..r.u64()? {
        let from = r.u32()?;
        let code = r.u8()?;
        let name = r.bytes()?;
        let qualifier = r.opt_bytes()?;
        let (line, col) = (r.u32()?, r.u32()?);
        let args = read_args(&mut r)?;
        // The arguments' kinds choose overloads in resolution; uses read here are only
        // compared with the edges.
        r.opt_bytes()?;
        if !of_file(from) {
            return Err(DecodeError);
        }
        if wanted.is_some_and(|w| w != name) {
            continue;
        }
        let name = sym(name)?;
        if !which.keeps(from, name) {
            continue;
        }
        out.refs.push(Ref {
            from,
            kind: kind_from(code & !LOCAL_BIT)?,
            name,
            qualifier: qualifier.map(sym).transpose()?,
            line,
            col,
            local: code & LOCAL_BIT != 0,
            args,
            kinds: None,
        });
    }
    skip_imports_and_bindings(&mut r)?;
    for _ in 0..r.u64()? {
        let from = r.u32()?;
        let kind = mention_from(r.u8()?)?;
        let name = r.bytes()?;
        let qualifier = r.opt_bytes()?;
        let (line, col) = (r.u32()?, r.u32()?);
        if !of_file(from) {
            return Err(DecodeError);
        }
        if wanted.is_some_and(|w| w != name) {
            continue;
        }
        let name = sym(name)?;
        if !which.keeps(from, name) {
            continue;
        }
        out.mentions.push(Mention {
            from,
            kind,
            name,
            qualifier: qualifier.map(sym).transpose()?,
            line,
            col,
        });
    }
    if !r.done() {
        return Err(DecodeError);
    }
    Ok(out)
}

fn mention_code(k: MentionKind) -> u8 {
    match k {
        MentionKind::Import => 0,
        MentionKind::Value => 1,
        MentionKind::Text => 2,
    }
}

fn mention_from(c: u8) -> Result<MentionKind, DecodeError> {
    match c {
        0 => Ok(MentionKind::Import),
        1 => Ok(MentionKind::Value),
        2 => Ok(MentionKind::Text),
        _ => Err(DecodeError),
    }
}

fn encode_edges(model: &Model, fix: Ix) -> Vec<u8> {
    let mut w = Writer::default();
    let srcs = model.file_nodes(fix);
    let count: usize = srcs.iter().map(|&s| model.out[s as usize].len()).sum();
    w.u64(count as u64);
    for s in srcs {
        for e in &model.out[s as usize] {
            w.u32(s);
            w.u32(e.other);
            w.u8(kind_code(e.kind));
            w.u8(conf_code(e.conf));
            w.u32(if e.line == NO_LINE { 0 } else { e.line + 1 });
        }
    }
    w.buf
}

/// Returns the number of edges.
pub(crate) fn decode_edges(blob: &[u8], model: &mut Model) -> Result<u64, DecodeError> {
    let mut r = Reader::new(blob);
    let n = r.u64()?;
    for _ in 0..n {
        let src = r.u32()?;
        let dst = r.u32()?;
        let kind = kind_from(r.u8()?)?;
        let conf = conf_from(r.u8()?)?;
        let line = r.u32()?;
        // A partly loaded model holds edges into files not loaded yet.
        let dst_known = match &model.partial {
            Some(_) => (dst as usize) < model.nodes.len(),
            None => model.slot(dst).is_some(),
        };
        if model.slot(src).is_none() || !dst_known {
            return Err(DecodeError);
        }
        let line = if line == 0 { NO_LINE } else { line - 1 };
        model.add_edge(src, dst, kind, conf, line);
    }
    if !r.done() {
        return Err(DecodeError);
    }
    Ok(n)
}
