//! Loading part of the model (issue 19): `navmap rebuild` opens the map with every file's
//! record but no file's nodes, edges or facts ([`Db::load_partial`]), then loads the files
//! a change reaches ([`Db::load_files`]): the changed files, the files with edges into them,
//! the users of a name whose definitions changed, and whatever resolution reads — its
//! reads of files, nodes and names not loaded are recorded as demands
//! (`model::Demands`) and the pass runs again once they are loaded
//! ([`Db::load_demands`]). A change the partial model does not handle (files added,
//! removed or newly skipped, a resolver config edited, a dirty map) loads the rest first
//! ([`Db::load_rest`]) and runs as on a whole model.

use std::collections::BTreeSet;

use crate::db::{self, Db};
use crate::error::{MapError, Result};
use crate::index;
use crate::model::{FileRec, Ix, Model, Node, Partial};
use crate::types::SkipReason;

fn bad(what: &str) -> MapError {
    MapError::Internal(format!("corrupt map database: {what}"))
}

impl Db {
    /// Every file's record and every external module, and nothing of any file's content.
    /// `Ok(false)` when the database cannot say what a partial load needs (no stored
    /// counts, a file without its `reach` row): the caller loads the whole model.
    pub(crate) fn load_partial(
        &self,
        model: &mut Model,
        counts: Option<(u64, u64)>,
    ) -> Result<bool> {
        let Some((symbols, edges)) = counts else {
            return Ok(false);
        };
        self.load_externals(model)?;
        let mut stmt = self.conn.prepare(
            "SELECT id, path, lang, size, mtime, hash, skipped, lines, had_errors
             FROM files ORDER BY id",
        )?;
        let mut rows = stmt.query([])?;
        let mut indexed = Vec::new();
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
            if skipped.is_none() {
                indexed.push(ix);
            }
            let rec = FileRec {
                size: r.get::<_, i64>(3)? as u64,
                mtime: r.get(4)?,
                hash,
                skipped,
                lines: r.get(7)?,
                had_errors: r.get::<_, i64>(8)? != 0,
                loaded: false,
                ..FileRec::new(path.into_boxed_str(), lang)
            };
            model.put_file(ix, rec);
        }
        drop(rows);
        let mut node_file: Vec<Ix> = Vec::new();
        let mut stmt = self.conn.prepare("SELECT file, nodes FROM reach")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let file: Ix = r.get(0)?;
            let nodes =
                index::decode_ixs(r.get_ref(1)?.as_blob().map_err(|e| bad(&e.to_string()))?)
                    .map_err(|_| bad("reach"))?;
            let Some(Some(rec)) = model.files.get_mut(file as usize) else {
                return Err(bad("reach row of no file"));
            };
            rec.node = nodes.first().copied();
            for n in nodes {
                let i = n as usize;
                if node_file.len() <= i {
                    node_file.resize(i + 1, 0);
                }
                node_file[i] = file;
            }
        }
        drop(rows);
        if indexed.iter().any(|&f| {
            model.files[f as usize]
                .as_ref()
                .is_some_and(|r| r.node.is_none())
        }) {
            return Ok(false);
        }
        // Slots for every stored node: a node created by this rebuild gets the index it
        // would get in a whole model (one past the highest).
        let len = node_file.len().max(model.nodes.len());
        model.nodes.resize_with(len, || None);
        model.set_partial(Partial {
            node_file,
            stored_symbols: symbols,
            stored_edges: edges,
            ..Partial::default()
        });
        Ok(true)
    }

    /// Loads the nodes, facts (references and mentions kept encoded:
    /// `db::decode_kept_refs` decodes them for a file about to be re-resolved) and
    /// outgoing edges of `files` that are not loaded yet.
    pub(crate) fn load_files(
        &self,
        model: &mut Model,
        files: impl IntoIterator<Item = Ix>,
    ) -> Result<()> {
        let todo: BTreeSet<Ix> = files
            .into_iter()
            .filter(|&f| {
                model
                    .files
                    .get(f as usize)
                    .and_then(Option::as_ref)
                    .is_some_and(|r| !r.loaded)
            })
            .collect();
        if todo.is_empty() {
            return Ok(());
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.nodes, c.facts, e.data FROM contents c LEFT JOIN edges e ON e.file = c.file
             WHERE c.file = ?1",
        )?;
        for fix in todo {
            let rec = model.files[fix as usize].as_mut().expect("stub");
            if rec.node.is_none() {
                // Skipped: its record is all there is.
                rec.loaded = true;
                continue;
            }
            let mut rows = stmt.query([fix])?;
            let Some(r) = rows.next()? else {
                return Err(bad("a file row went missing"));
            };
            let blob = |i: usize| -> Result<Option<&[u8]>> {
                r.get_ref(i)?
                    .as_blob_or_null()
                    .map_err(|e| bad(&e.to_string()))
            };
            let placeholder = FileRec::new(Box::from(""), 0);
            let mut rec = std::mem::replace(
                model.files[fix as usize].as_mut().expect("stub"),
                placeholder,
            );
            rec.node = None;
            rec.defs.clear();
            if let Some(nodes) = blob(0)? {
                db::decode_nodes(nodes, model, fix, &mut rec).map_err(|_| bad("file nodes"))?;
            }
            if let Some(facts) = blob(1)? {
                db::decode_facts_with(facts, model, &mut rec, true, true)
                    .map_err(|_| bad("file facts"))?;
            }
            rec.loaded = true;
            let mut own: Vec<Ix> = rec
                .node
                .into_iter()
                .chain(rec.defs.iter().copied())
                .collect();
            let symbols = rec
                .defs
                .iter()
                .filter(|&&d| model.slot(d).is_some_and(Node::is_def))
                .count();
            model.files[fix as usize] = Some(rec);
            own.sort_unstable();
            for ix in own {
                if let Some(p) = model.slot(ix).and_then(|n| n.parent.get()) {
                    if model.slot(p).is_none() {
                        return Err(bad("parent of a node is missing"));
                    }
                    model.children.push(p, ix);
                }
            }
            let edges = match blob(2)? {
                Some(e) => {
                    db::decode_edges(e, model).map_err(|_| bad(&format!("edges of file {fix}")))?
                }
                None => 0,
            };
            if let Some(p) = model.partial.as_mut() {
                p.loaded_symbols += symbols as u64;
                p.loaded_edges += edges;
            }
        }
        Ok(())
    }

    /// Loads what a resolution pass found missing; `false` when it found nothing.
    pub(crate) fn load_demands(&self, model: &mut Model) -> Result<bool> {
        let d = model.take_demands();
        if d.is_empty() {
            return Ok(false);
        }
        let mut files: BTreeSet<Ix> = d.files.into_iter().collect();
        let mut names = Vec::new();
        for name in d.names {
            let defs = index::name_files(&self.conn, &name)?.defs;
            tracing::trace!(name = &*name, files = defs.len(), "demanded");
            files.extend(defs);
            names.push(name);
        }
        let mut qnames = Vec::new();
        for q in d.qnames {
            let defs = index::qualified_files(&self.conn, &q)?;
            tracing::trace!(qname = &*q, files = defs.len(), "demanded");
            files.extend(defs);
            qnames.push(q);
        }
        let mut defined = Vec::new();
        for name in d.defined {
            let files: Vec<Ix> = index::name_files(&self.conn, &name)?
                .defs
                .into_iter()
                .collect();
            defined.push((name, files));
        }
        self.load_files(model, files)?;
        for name in d.interned {
            model.names.intern(&name);
        }
        for name in names {
            let sym = model.names.intern(&name);
            if let Some(p) = model.partial.as_mut() {
                p.complete.insert(sym);
            }
        }
        if let Some(p) = model.partial.as_mut() {
            p.complete_qualified.extend(qnames);
            p.defined.extend(defined);
        }
        Ok(true)
    }

    /// Loads the files stored with edges into the nodes of `key` (`index::owner`).
    pub(crate) fn load_incoming(&self, model: &mut Model, key: i64) -> Result<()> {
        if model
            .partial
            .as_ref()
            .is_none_or(|p| p.incoming_loaded.contains(&key))
        {
            return Ok(());
        }
        let srcs = index::incoming(&self.conn, key)?;
        self.load_files(model, srcs)?;
        if let Some(p) = model.partial.as_mut() {
            p.incoming_loaded.insert(key);
        }
        Ok(())
    }

    /// Loads the files stored as users of `names`, and returns them.
    pub(crate) fn load_users(
        &self,
        model: &mut Model,
        names: impl IntoIterator<Item = String>,
    ) -> Result<BTreeSet<Ix>> {
        let mut files = BTreeSet::new();
        if model.partial.is_none() {
            return Ok(files);
        }
        for name in names {
            files.extend(index::name_files(&self.conn, &name)?.users);
        }
        self.load_files(model, files.iter().copied())?;
        Ok(files)
    }

    /// Loads every file not loaded yet: the model is whole from here on.
    pub(crate) fn load_rest(&self, model: &mut Model) -> Result<()> {
        if model.partial.is_none() {
            return Ok(());
        }
        let all: Vec<Ix> = model.file_ixs().collect();
        self.load_files(model, all.iter().copied())?;
        for f in all {
            db::decode_kept_refs(model, f)?;
        }
        model.set_whole();
        for fix in model.file_ixs().collect::<Vec<_>>() {
            for sym in model.mentioned_names(fix) {
                model.add_mentioner(sym, fix);
            }
        }
        Ok(())
    }
}
