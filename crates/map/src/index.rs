//! The index tables that let `navmap rebuild` load only the files a change can reach
//! (issue 19), instead of decoding every file's blobs:
//!
//! - `names(bucket, data)`: a name → the files defining it (named nodes) and the files
//!   using it (references, imports), hashed into [`NAME_BUCKETS`] rows so that a cold
//!   build writes thousands of rows, not one per name. The resolver's lookups by name
//!   (`defs_named`) and "the users of a changed name" read it.
//! - `reach(file, nodes)`: a file's node indexes (its file node first): an edge's target
//!   index leads to the file that must be loaded to follow it.
//! - `incoming(owner, srcs)`: the files with edges into a file's nodes (`owner` = the file's
//!   index) or into an external module (`owner` = minus its node index). A superset: a
//!   rebuild adds the files whose new edges point at an owner and never takes one away
//!   (a file listed that no longer points there only costs a load); a fresh build writes
//!   it exact. Read when a change removes definitions (the files whose edges pointed at
//!   them are re-resolved) and before an external module is dropped as imported by none.
//!
//! `names` also maps a qualified name (`Store.put`, kept under a key no name can be) to the
//! files defining it: most lookups want one qualified name (a top-level `get`, the method
//! `T.get`), and loading every file that defines some `__init__` was most of a partial
//! load. `names` is kept exact: each rebuild compares a changed file's names before and
//! after.

use std::collections::{BTreeMap, BTreeSet};

use foldhash::{HashMap, HashMapExt, HashSet};

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::codec::{DecodeError, Reader, Writer};
use crate::error::{MapError, Result};
use crate::model::{Ix, Model, Sym};

/// Rows of the `names` table.
pub(crate) const NAME_BUCKETS: u32 = 4096;

/// The row of `names` that holds `name` (FNV-1a: stable across builds and versions).
pub(crate) fn bucket(name: &str) -> u32 {
    bucket_of_bytes(name.bytes())
}

/// [`bucket`] of `qualified_key(qname)`, without making the key (a build asks it of every
/// node).
fn qualified_bucket(qname: &str) -> u32 {
    bucket_of_bytes(QUALIFIED_PREFIX.bytes().chain(qname.bytes()))
}

fn bucket_of_bytes(bytes: impl Iterator<Item = u8>) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % NAME_BUCKETS as u64) as u32
}

/// The files that define and use one name.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct NameFiles {
    pub defs: BTreeSet<Ix>,
    pub users: BTreeSet<Ix>,
}

type Bucket = BTreeMap<String, NameFiles>;

fn encode_bucket(b: &Bucket) -> Vec<u8> {
    let mut w = Writer::default();
    w.u64(b.len() as u64);
    for (name, nf) in b {
        w.str(name);
        for list in [&nf.defs, &nf.users] {
            w.u64(list.len() as u64);
            for &f in list {
                w.u32(f);
            }
        }
    }
    w.buf
}

fn decode_bucket(blob: &[u8]) -> std::result::Result<Bucket, DecodeError> {
    let mut r = Reader::new(blob);
    let mut b = Bucket::new();
    for _ in 0..r.u64()? {
        let name = r.str()?.to_string();
        let mut nf = NameFiles::default();
        for list in [&mut nf.defs, &mut nf.users] {
            for _ in 0..r.u64()? {
                list.insert(r.u32()?);
            }
        }
        b.insert(name, nf);
    }
    if !r.done() {
        return Err(DecodeError);
    }
    Ok(b)
}

fn corrupt(what: &str) -> MapError {
    MapError::Internal(format!("corrupt map database: {what}"))
}

fn read_bucket(conn: &Connection, b: u32) -> Result<Bucket> {
    let blob: Option<Vec<u8>> = conn
        .prepare_cached("SELECT data FROM names WHERE bucket = ?1")?
        .query_row(params![b], |r| r.get(0))
        .optional()?;
    match blob {
        Some(blob) => decode_bucket(&blob).map_err(|_| corrupt("name index")),
        None => Ok(Bucket::new()),
    }
}

/// The files that define and use `name`, as stored.
pub(crate) fn name_files(conn: &Connection, name: &str) -> Result<NameFiles> {
    Ok(read_bucket(conn, bucket(name))?
        .remove(name)
        .unwrap_or_default())
}

/// A qualified name's entry in `names`: its `defs` are the files defining it (a
/// qualified name is never a name: no name holds this byte).
fn qualified_key(qname: &str) -> String {
    let mut key = String::with_capacity(QUALIFIED_PREFIX.len() + qname.len());
    qualified_key_into(qname, &mut key);
    key
}

/// [`qualified_key`] written over `key` (a build makes one per definition: one buffer).
fn qualified_key_into(qname: &str, key: &mut String) {
    // Joined by hand: `format!`'s machinery was ≈ 700 instructions a call (issue 19).
    key.clear();
    key.push_str(QUALIFIED_PREFIX);
    key.push_str(qname);
}

/// What starts a qualified name's key in `names`.
const QUALIFIED_PREFIX: &str = "\u{1}";

/// The files that define the qualified name `qname`, as stored.
pub(crate) fn qualified_files(conn: &Connection, qname: &str) -> Result<BTreeSet<Ix>> {
    Ok(name_files(conn, &qualified_key(qname))?.defs)
}

/// What one file contributes to `names`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct FileNames {
    pub defs: HashSet<Sym>,
    pub users: HashSet<Sym>,
    pub qualified: HashSet<Box<str>>,
}

/// A file's names in the model (empty for a file that is gone or not indexed).
pub(crate) fn file_names(model: &Model, fix: Ix) -> FileNames {
    let Some(f) = model.files.get(fix as usize).and_then(Option::as_ref) else {
        return FileNames::default();
    };
    let named: Vec<_> = f
        .defs
        .iter()
        .filter_map(|&d| model.slot(d))
        .filter(|n| n.is_named())
        .collect();
    FileNames {
        defs: named.iter().map(|n| n.name).collect(),
        users: model.used_names(fix),
        qualified: named.iter().map(|n| model.qname(n).into()).collect(),
    }
}

/// Rewrites the `names` rows of what the files of `before` (their names before this
/// build) define and use now.
pub(crate) fn update_names(
    tx: &Transaction,
    model: &Model,
    before: &HashMap<Ix, FileNames>,
) -> Result<()> {
    // (bucket → name → [(file, is_def, add)])
    let mut edits: BTreeMap<u32, Vec<(String, Ix, bool, bool)>> = BTreeMap::new();
    for (&fix, old) in before {
        let new = file_names(model, fix);
        if &new == old {
            continue;
        }
        let mut edit = |sym: Sym, is_def: bool, add: bool| {
            let name = model.names.str(sym);
            edits
                .entry(bucket(name))
                .or_default()
                .push((name.to_string(), fix, is_def, add));
        };
        for &s in old.defs.difference(&new.defs) {
            edit(s, true, false);
        }
        for &s in new.defs.difference(&old.defs) {
            edit(s, true, true);
        }
        for &s in old.users.difference(&new.users) {
            edit(s, false, false);
        }
        for &s in new.users.difference(&old.users) {
            edit(s, false, true);
        }
        let mut qedit = |q: &str, add: bool| {
            let key = qualified_key(q);
            edits
                .entry(bucket(&key))
                .or_default()
                .push((key, fix, true, add));
        };
        for q in old.qualified.difference(&new.qualified) {
            qedit(q, false);
        }
        for q in new.qualified.difference(&old.qualified) {
            qedit(q, true);
        }
    }
    for (b, list) in edits {
        let mut bucket = read_bucket(tx, b)?;
        for (name, fix, is_def, add) in list {
            let nf = bucket.entry(name.clone()).or_default();
            let set = if is_def { &mut nf.defs } else { &mut nf.users };
            if add {
                set.insert(fix);
            } else {
                set.remove(&fix);
            }
            if nf.defs.is_empty() && nf.users.is_empty() {
                bucket.remove(&name);
            }
        }
        write_bucket(tx, b, &bucket)?;
    }
    Ok(())
}

fn write_bucket(tx: &Transaction, b: u32, bucket: &Bucket) -> Result<()> {
    if bucket.is_empty() {
        tx.prepare_cached("DELETE FROM names WHERE bucket = ?1")?
            .execute(params![b])?;
    } else {
        tx.prepare_cached("INSERT OR REPLACE INTO names(bucket, data) VALUES (?1, ?2)")?
            .execute(params![b, encode_bucket(bucket)])?;
    }
    Ok(())
}

/// The `incoming` key of the node `ix`: its file, or minus its index for an external
/// module. `None` for a node the model does not know.
pub(crate) fn owner(model: &Model, ix: Ix) -> Option<i64> {
    match model.slot(ix) {
        Some(n) => Some(match n.file.get() {
            Some(f) => f as i64,
            None => -(ix as i64),
        }),
        None => model.partial_file_of(ix).map(|f| f as i64),
    }
}

/// Writes `names` and `incoming` whole from the model (a fresh build).
pub(crate) fn write_all(tx: &Transaction, model: &Model) -> Result<()> {
    tx.execute_batch("DELETE FROM names; DELETE FROM incoming;")?;
    write_all_names(tx, model)?;
    let mut incoming: HashMap<i64, BTreeSet<Ix>> = HashMap::new();
    for dst in 0..model.nodes.len() as Ix {
        let list = &model.inc[dst as usize];
        if list.is_empty() {
            continue;
        }
        let Some(key) = owner(model, dst) else {
            continue;
        };
        for e in list {
            if let Some(f) = model.slot(e.other).and_then(|n| n.file.get()) {
                incoming.entry(key).or_default().insert(f);
            }
        }
    }
    for (key, srcs) in &incoming {
        write_incoming(tx, *key, srcs)?;
    }
    Ok(())
}

/// Rows of `names` a fresh build assembles at once: the whole table at once held every
/// name and qualified name as a string with its file sets (tens of MB at a cold build's
/// peak); a slice of the rows at a time holds a slice of them.
const BUCKETS_PER_PASS: u32 = NAME_BUCKETS / 8;

/// Writes every row of `names` from the model, [`BUCKETS_PER_PASS`] rows at a time.
fn write_all_names(tx: &Transaction, model: &Model) -> Result<()> {
    // Each name's and each node's qualified key's row, hashed once for all passes.
    let name_rows: Vec<u32> = (0..model.by_name.len().max(model.users_by_name.len()))
        .map(|sym| bucket(model.names.str(sym as Sym)))
        .collect();
    let qualified_rows: Vec<Option<u32>> = (0..model.nodes.len() as Ix)
        .map(|ix| model.slot(ix).map(|n| qualified_bucket(model.qname(n))))
        .collect();
    let mut qkey = String::new();
    let mut lo = 0;
    while lo < NAME_BUCKETS {
        let hi = lo + BUCKETS_PER_PASS;
        let here = |row: u32| (lo..hi).contains(&row);
        let mut buckets: HashMap<u32, Bucket> = HashMap::new();
        // The key is copied only when it is new: most names are defined or used in more
        // than one place (issue 19: a `String` made and dropped per definition and use).
        fn entry<'b>(
            buckets: &'b mut HashMap<u32, Bucket>,
            row: u32,
            key: &str,
        ) -> &'b mut NameFiles {
            let bucket = buckets.entry(row).or_default();
            if !bucket.contains_key(key) {
                bucket.insert(key.to_string(), NameFiles::default());
            }
            bucket.get_mut(key).expect("inserted above")
        }
        for (sym, defs) in model.by_name.rows() {
            for &d in defs {
                let Some(f) = model.slot(d).and_then(|n| n.file.get()) else {
                    continue;
                };
                if here(name_rows[sym]) {
                    entry(&mut buckets, name_rows[sym], model.names.str(sym as Sym))
                        .defs
                        .insert(f);
                }
                if let Some(row) = qualified_rows[d as usize].filter(|&r| here(r)) {
                    qualified_key_into(model.qname(model.slot(d).expect("a slot")), &mut qkey);
                    entry(&mut buckets, row, &qkey).defs.insert(f);
                }
            }
        }
        for (sym, users) in model.users_by_name.rows() {
            if !users.is_empty() && here(name_rows[sym]) {
                entry(&mut buckets, name_rows[sym], model.names.str(sym as Sym))
                    .users
                    .extend(users.iter().copied());
            }
        }
        for (b, bucket) in &buckets {
            write_bucket(tx, *b, bucket)?;
        }
        lo = hi;
    }
    Ok(())
}

fn encode_ixs<'a>(ixs: impl ExactSizeIterator<Item = &'a Ix>) -> Vec<u8> {
    let mut w = Writer::default();
    w.u64(ixs.len() as u64);
    for &i in ixs {
        w.u32(i);
    }
    w.buf
}

pub(crate) fn decode_ixs(blob: &[u8]) -> std::result::Result<Vec<Ix>, DecodeError> {
    let mut r = Reader::new(blob);
    let n = r.u64()?;
    let mut out = Vec::with_capacity(n.min(blob.len() as u64) as usize);
    for _ in 0..n {
        out.push(r.u32()?);
    }
    if !r.done() {
        return Err(DecodeError);
    }
    Ok(out)
}

fn write_incoming(tx: &Transaction, key: i64, srcs: &BTreeSet<Ix>) -> Result<()> {
    tx.prepare_cached("INSERT OR REPLACE INTO incoming(owner, srcs) VALUES (?1, ?2)")?
        .execute(params![key, encode_ixs(srcs.iter())])?;
    Ok(())
}

/// The files listed with edges into `key`'s nodes.
pub(crate) fn incoming(conn: &Connection, key: i64) -> Result<BTreeSet<Ix>> {
    let blob: Option<Vec<u8>> = conn
        .prepare_cached("SELECT srcs FROM incoming WHERE owner = ?1")?
        .query_row(params![key], |r| r.get(0))
        .optional()?;
    match blob {
        Some(b) => Ok(decode_ixs(&b)
            .map_err(|_| corrupt("incoming index"))?
            .into_iter()
            .collect()),
        None => Ok(BTreeSet::new()),
    }
}

/// Adds each of `files` to the `incoming` rows of what its edges now point at.
pub(crate) fn add_incoming(tx: &Transaction, model: &Model, files: &HashSet<Ix>) -> Result<()> {
    let mut rows: HashMap<i64, (BTreeSet<Ix>, bool)> = HashMap::new();
    let mut sorted: Vec<Ix> = files.iter().copied().collect();
    sorted.sort_unstable();
    for fix in sorted {
        if model
            .files
            .get(fix as usize)
            .and_then(Option::as_ref)
            .is_none()
        {
            continue;
        }
        let mut keys = BTreeSet::new();
        for s in model.file_nodes(fix) {
            for e in &model.out[s as usize] {
                if let Some(k) = owner(model, e.other) {
                    keys.insert(k);
                }
            }
        }
        for k in keys {
            let (srcs, dirty) = match rows.entry(k) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => e.insert((incoming(tx, k)?, false)),
            };
            if srcs.insert(fix) {
                *dirty = true;
            }
        }
    }
    for (k, (srcs, dirty)) in rows {
        if dirty {
            write_incoming(tx, k, &srcs)?;
        }
    }
    Ok(())
}

pub(crate) fn delete_incoming(tx: &Transaction, key: i64) -> Result<()> {
    tx.prepare_cached("DELETE FROM incoming WHERE owner = ?1")?
        .execute(params![key])?;
    Ok(())
}

/// Writes a file's node indexes (file node first) to `reach`.
pub(crate) fn write_reach(tx: &Transaction, model: &Model, fix: Ix) -> Result<()> {
    let nodes = model.file_nodes(fix);
    tx.prepare_cached("INSERT OR REPLACE INTO reach(file, nodes) VALUES (?1, ?2)")?
        .execute(params![fix, encode_ixs(nodes.iter())])?;
    Ok(())
}

pub(crate) fn delete_reach(tx: &Transaction, fix: Ix) -> Result<()> {
    tx.prepare_cached("DELETE FROM reach WHERE file = ?1")?
        .execute(params![fix])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_round_trip() {
        let mut b = Bucket::new();
        b.insert(
            "get".into(),
            NameFiles {
                defs: [1, 5].into(),
                users: [2, 3, 900].into(),
            },
        );
        b.insert("x".into(), NameFiles::default());
        assert_eq!(decode_bucket(&encode_bucket(&b)).unwrap(), b);
        assert!(decode_bucket(&encode_bucket(&b)[..3]).is_err());
        assert!(bucket("get") < NAME_BUCKETS);
        for q in ["", "a", "crate.mod.Type.method", "ünï.cödé"] {
            assert_eq!(qualified_bucket(q), bucket(&qualified_key(q)));
        }
        assert_eq!(bucket("get"), bucket("get"));
    }
}
