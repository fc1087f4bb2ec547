//! Applying one file's extraction result (or its removal) to the model, recording what
//! changed so that resolution can be limited to what the change can affect and the
//! database writer knows which rows to touch.

use foldhash::{HashMap, HashMapExt, HashSet};

use navmap_extract::facts::FileFacts;

use crate::NodeKind;
use crate::id;
use crate::index;
use crate::model::{
    FileRec, Import, Ix, Mention, Model, NO_LINE, Node, Opt32, Ref, Sym, Target, TypedName,
};
use crate::types::SkipReason;

/// What the build found for one file on disk.
pub(crate) struct FileUpdate {
    pub path: String,
    pub lang: String,
    pub size: u64,
    pub mtime: i64,
    pub hash: [u8; 32],
    pub content: Content,
}

pub(crate) enum Content {
    Facts(Box<FileFacts>),
    Skipped(SkipReason),
}

/// Everything a batch of updates changed.
#[derive(Default)]
pub(crate) struct Changes {
    /// Names whose set of definitions (or their kind, visibility or signature) changed:
    /// references to them elsewhere must be re-resolved.
    pub changed_names: HashSet<Sym>,
    /// Files that must be re-resolved completely (re-indexed ones, and those whose edges
    /// pointed into removed nodes).
    pub resolve_files: HashSet<Ix>,
    /// Files added or removed (or newly skipped): import targets may change everywhere.
    pub file_set_changed: bool,
    pub files_upserted: HashSet<Ix>,
    pub files_deleted: HashSet<Ix>,
    pub nodes_upserted: HashSet<Ix>,
    pub nodes_deleted: HashSet<Ix>,
    /// Files whose stored edges must be rewritten.
    pub edges_dirty: HashSet<Ix>,
    /// Files whose row changed only in size/mtime (same content).
    pub files_touched: HashSet<Ix>,
    /// A node was created (ranks must be recomputed).
    pub nodes_added: bool,
    /// A resolver config file changed: every import is resolved again.
    pub config_changed: bool,
    /// What each file changed by this batch defined and used before it (the `names` index
    /// is rewritten for the difference); `None` where the index is written whole (a fresh
    /// build).
    pub names_before: Option<HashMap<Ix, index::FileNames>>,
    /// In a partly loaded model: the external modules that loaded files had edges into
    /// before the change (one left with none may still be imported by a file not loaded).
    pub externals_before: Vec<Ix>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.files_upserted.is_empty()
            && self.files_deleted.is_empty()
            && self.nodes_upserted.is_empty()
            && self.nodes_deleted.is_empty()
            && self.edges_dirty.is_empty()
    }

    /// Records a file's names before this batch changes it (the first time only).
    fn note_names(&mut self, model: &Model, fix: Ix) {
        if let Some(before) = &mut self.names_before {
            before
                .entry(fix)
                .or_insert_with(|| index::file_names(model, fix));
        }
    }
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Removes every node of a file (file node and definitions), keeping the file record.
fn clear_file_nodes(model: &mut Model, fix: Ix, ch: &mut Changes) {
    ch.note_names(model, fix);
    let (node, defs) = {
        let f = model.f_mut(fix);
        (f.node.take(), std::mem::take(&mut f.defs))
    };
    for ix in defs.into_iter().rev().chain(node) {
        if let Some(n) = model.node(ix)
            && n.is_named()
        {
            ch.changed_names.insert(n.name);
        }
        for src_file in model.remove_node(ix) {
            if src_file != fix {
                ch.resolve_files.insert(src_file);
                ch.edges_dirty.insert(src_file);
            }
        }
        ch.nodes_upserted.remove(&ix);
        ch.nodes_deleted.insert(ix);
    }
    let used = model.used_names(fix);
    for sym in used {
        model.remove_user(sym, fix);
    }
    for sym in model.mentioned_names(fix) {
        model.remove_mentioner(sym, fix);
    }
    let f = model.f_mut(fix);
    f.refs = Default::default();
    f.imports.clear();
    f.bindings.clear();
    f.mentions = Default::default();
    f.mentions_raw = None;
    f.uses_on_disk = false;
}

/// Removes a file that is gone from disk.
pub(crate) fn remove_file(model: &mut Model, fix: Ix, ch: &mut Changes) {
    clear_file_nodes(model, fix, ch);
    if let Some(rec) = model.files[fix as usize].take() {
        model.file_by_path.remove(&rec.path);
    }
    ch.file_set_changed = true;
    ch.files_upserted.remove(&fix);
    ch.resolve_files.remove(&fix);
    ch.edges_dirty.remove(&fix);
    ch.files_deleted.insert(fix);
}

/// Records a new size/mtime for a file whose content did not change.
pub(crate) fn touch_file(model: &mut Model, fix: Ix, size: u64, mtime: i64, ch: &mut Changes) {
    let f = model.f_mut(fix);
    if f.size != size || f.mtime != mtime {
        f.size = size;
        f.mtime = mtime;
        ch.files_touched.insert(fix);
    }
}

/// The node IDs of a file's definitions, in facts order (a qualified name defined twice
/// is numbered).
pub(crate) fn def_ids(lang_id: &str, path: &str, facts: &FileFacts) -> Vec<String> {
    ids_of(lang_id, path, facts, &def_dups(facts))
}

/// The IDs of a file's definitions, in facts order, from their duplicate numbers.
fn ids_of(lang_id: &str, path: &str, facts: &FileFacts, dups: &[u32]) -> Vec<String> {
    facts
        .defs
        .iter()
        .zip(dups)
        .map(|(d, &dup)| id::symbol_id(lang_id, path, &d.qualified_name, dup))
        .collect()
}

/// The duplicate numbers of a file's definitions, in facts order: 1 for the first of a
/// qualified name, then 2, 3… (the `~n` of their IDs).
pub(crate) fn def_dups(facts: &FileFacts) -> Vec<u32> {
    let mut dup_count: HashMap<&str, u32> = HashMap::new();
    facts
        .defs
        .iter()
        .map(|d| {
            let dup = dup_count.entry(d.qualified_name.as_str()).or_insert(0);
            *dup += 1;
            *dup
        })
        .collect()
}

/// Applies one file's new content. Definitions whose node ID survives keep their index.
pub(crate) fn apply_file(model: &mut Model, u: FileUpdate, ch: &mut Changes) -> Ix {
    let lang = model.lang_ix(&u.lang);
    let fix = match model.file_by_path.get(u.path.as_str()) {
        Some(&fix) => fix,
        None => {
            let fix = model.next_file_ix();
            model.put_file(fix, FileRec::new(u.path.clone().into_boxed_str(), lang));
            ch.file_set_changed = true;
            fix
        }
    };
    ch.note_names(model, fix);
    ch.files_upserted.insert(fix);
    ch.files_deleted.remove(&fix);
    {
        let f = model.f_mut(fix);
        f.size = u.size;
        f.mtime = u.mtime;
        f.hash = u.hash;
        f.lang = lang;
        f.stale = false;
    }
    let facts = match u.content {
        Content::Skipped(reason) => {
            let was_indexed = model.f(fix).node.is_some();
            clear_file_nodes(model, fix, ch);
            let f = model.f_mut(fix);
            f.skipped = Some(reason);
            f.lines = 0;
            f.had_errors = false;
            if was_indexed {
                ch.file_set_changed = true;
            }
            ch.resolve_files.remove(&fix);
            ch.edges_dirty.insert(fix);
            return fix;
        }
        Content::Facts(facts) => facts,
    };
    if model.f(fix).skipped.is_some() {
        ch.file_set_changed = true;
    }
    ch.resolve_files.insert(fix);
    ch.edges_dirty.insert(fix);

    // The file node: same index when it existed.
    let lang_id = model.lang(lang).to_string();
    let file_node = match model.f(fix).node {
        Some(ix) => ix,
        None => {
            let ix = model.next_node_ix();
            let name = model.names.intern(basename(&u.path));
            let qname = model.texts.intern(&u.path);
            model.put_node(
                ix,
                Node {
                    kind: NodeKind::File,
                    name,
                    qname,
                    dup: 1,
                    lang,
                    file: Some(fix).into(),
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
            ch.nodes_added = true;
            ix
        }
    };
    {
        let n = model.nodes[file_node as usize].as_mut().expect("file node");
        n.end_line = facts.lines.saturating_sub(1);
    }
    ch.nodes_upserted.insert(file_node);

    // Definitions: match by node ID.
    let old_defs = std::mem::take(&mut model.f_mut(fix).defs);
    let mut old_by_id: HashMap<String, Ix> =
        old_defs.iter().map(|&ix| (model.node_id(ix), ix)).collect();
    let mut new_defs = Vec::with_capacity(facts.defs.len());
    let dups = def_dups(&facts);
    // The new definitions' IDs only where there are old ones to match: a file new to the
    // model (every file of a fresh build) would format one string per definition for
    // nothing.
    let ids: Vec<String> = if old_by_id.is_empty() {
        Vec::new()
    } else {
        ids_of(&lang_id, &u.path, &facts, &dups)
    };
    for (i, (d, dup)) in facts.defs.iter().zip(dups).enumerate() {
        let name = model.names.intern(&d.name);
        let signature = d.signature.as_deref().map(|s| model.texts.intern(s));
        let doc = d.doc.as_deref().map(|s| model.texts.intern(s));
        let old = ids.get(i).and_then(|id| old_by_id.remove(id.as_str()));
        let ix = match old {
            Some(ix) => {
                let old = model.n(ix);
                if old.kind != d.kind
                    || old.exported != d.exported
                    || old.signature != signature.into()
                    || old.name != name
                {
                    ch.changed_names.insert(name);
                    ch.changed_names.insert(old.name);
                }
                if old.name != name {
                    let old_name = old.name;
                    model.by_name.retain(old_name, |&n| n != ix);
                    model.by_name.push(name, ix);
                }
                let n = model.nodes[ix as usize].as_mut().expect("live def");
                n.kind = d.kind;
                n.name = name;
                n.start_line = d.start_line;
                n.end_line = d.end_line;
                n.name_line = d.name_line;
                n.name_col = d.name_col;
                n.signature = signature.into();
                n.doc = doc.into();
                n.exported = d.exported;
                ix
            }
            None => {
                let ix = model.next_node_ix();
                let qname = model.texts.intern(&d.qualified_name);
                model.put_node(
                    ix,
                    Node {
                        kind: d.kind,
                        name,
                        qname,
                        dup,
                        lang,
                        file: Some(fix).into(),
                        parent: Opt32::NONE,
                        start_line: d.start_line,
                        end_line: d.end_line,
                        name_line: d.name_line,
                        name_col: d.name_col,
                        signature: signature.into(),
                        doc: doc.into(),
                        exported: d.exported,
                    },
                );
                ch.changed_names.insert(name);
                ch.nodes_added = true;
                ix
            }
        };
        model.set_arity(ix, d.arity);
        model.set_params(ix, d.params.as_ref());
        ch.nodes_upserted.insert(ix);
        new_defs.push(ix);
    }
    // Definitions that disappeared.
    let mut gone: Vec<Ix> = old_by_id.into_values().collect();
    gone.sort_unstable();
    for ix in gone {
        ch.changed_names.insert(model.n(ix).name);
        for src_file in model.remove_node(ix) {
            if src_file != fix {
                ch.resolve_files.insert(src_file);
                ch.edges_dirty.insert(src_file);
            }
        }
        ch.nodes_upserted.remove(&ix);
        ch.nodes_deleted.insert(ix);
    }

    // Containers: rebuilt from scratch for the whole file.
    model.children.clear(file_node);
    for &ix in &new_defs {
        model.children.clear(ix);
    }
    let by_qname: HashMap<&str, Ix> = facts
        .defs
        .iter()
        .zip(&new_defs)
        .rev()
        .map(|(d, &ix)| (d.qualified_name.as_str(), ix))
        .collect();
    for (i, d) in facts.defs.iter().enumerate() {
        let ix = new_defs[i];
        let parent = d
            .parent
            .filter(|&p| p < i)
            .map(|p| new_defs[p])
            .or_else(|| {
                d.qualified_name
                    .rsplit_once('.')
                    .and_then(|(prefix, _)| by_qname.get(prefix).copied())
                    .filter(|&p| p != ix)
            })
            .unwrap_or(file_node);
        model.nodes[ix as usize].as_mut().expect("def").parent = Some(parent).into();
        model.children.push(parent, ix);
    }

    // References and imports.
    let old_used = model.used_names(fix);
    let refs: Vec<Ref> = facts
        .refs
        .iter()
        .map(|r| Ref {
            from: r
                .from
                .and_then(|i| new_defs.get(i).copied())
                .unwrap_or(file_node),
            kind: r.kind,
            name: model.names.intern(&r.name),
            qualifier: r
                .qualifier
                .as_deref()
                .filter(|q| !q.is_empty())
                .map(|q| model.names.intern(q)),
            line: r.line,
            col: r.col,
            local: r.local,
            args: r.args,
            kinds: (!r.arg_kinds.is_empty()).then(|| {
                model
                    .names
                    .intern(&crate::shapes::encode_args(&r.arg_kinds))
            }),
        })
        .collect();
    let old_mentioned = model.mentioned_names(fix);
    let mentions: Vec<Mention> = facts
        .mentions
        .iter()
        .map(|m| Mention {
            from: m
                .from
                .and_then(|i| new_defs.get(i).copied())
                .unwrap_or(file_node),
            kind: m.kind,
            name: model.names.intern(&m.name),
            qualifier: m
                .qualifier
                .as_deref()
                .filter(|q| !q.is_empty())
                .map(|q| model.names.intern(q)),
            line: m.line,
            col: m.col,
        })
        .collect();
    let mut imports: Vec<Import> = facts
        .imports
        .iter()
        .map(|i| Import {
            module: i.module.as_str().into(),
            names: i
                .names
                .iter()
                .map(|n| {
                    (
                        model.names.intern(&n.name),
                        n.alias.as_deref().map(|a| model.names.intern(a)),
                    )
                })
                .collect(),
            alias: i.alias.as_deref().map(|a| model.names.intern(a)),
            reexport: i.reexport,
            line: i.line,
            target: Target::Unresolved,
        })
        .collect();
    let bindings: Vec<TypedName> = facts
        .bindings
        .iter()
        .map(|b| TypedName {
            scope: b
                .scope
                .and_then(|i| new_defs.get(i).copied())
                .unwrap_or(file_node),
            name: model.texts.intern(&b.name),
            type_qualifier: b
                .type_qualifier
                .as_deref()
                .filter(|q| !q.is_empty())
                .map(|q| model.texts.intern(q))
                .into(),
            type_name: model.texts.intern(&b.type_name),
            line: b.line,
            until: b.until.unwrap_or(NO_LINE),
        })
        .collect();
    let old_imports_shape: Vec<_> = model
        .f(fix)
        .imports
        .iter()
        .map(|i| (i.module.clone(), i.names.clone(), i.alias, i.reexport))
        .collect();
    let new_imports_shape: Vec<_> = imports
        .iter()
        .map(|i| (i.module.clone(), i.names.clone(), i.alias, i.reexport))
        .collect();
    if old_imports_shape == new_imports_shape {
        // The same imports resolve as before until the file set or a resolver config
        // changes (and then `finish` re-targets every file): keep their targets, so that
        // `finish` sees them unchanged and does not re-resolve every user of what this
        // file re-exports (a C header's edit used to re-resolve every includer).
        for (new, old) in imports.iter_mut().zip(&model.f(fix).imports) {
            new.target = old.target.clone();
        }
    } else {
        // What this file re-exports may have changed: its importers use these names.
        for (_, names, alias, _) in old_imports_shape.iter().chain(&new_imports_shape) {
            for (n, a) in names {
                ch.changed_names.insert(*n);
                if let Some(a) = a {
                    ch.changed_names.insert(*a);
                }
            }
            if let Some(a) = alias {
                ch.changed_names.insert(*a);
            }
        }
    }
    {
        let f = model.f_mut(fix);
        f.node = Some(file_node);
        f.defs = new_defs;
        f.refs = refs.into_iter().collect();
        f.imports = imports;
        f.bindings = bindings;
        f.mentions = mentions.into_iter().collect();
        f.mentions_raw = None;
        f.uses_on_disk = false;
        f.skipped = None;
        f.lines = facts.lines;
        f.had_errors = facts.had_errors;
    }
    let new_used = model.used_names(fix);
    for sym in old_used.difference(&new_used) {
        model.remove_user(*sym, fix);
    }
    for sym in new_used {
        model.add_user(sym, fix);
    }
    let new_mentioned = model.mentioned_names(fix);
    for sym in old_mentioned.difference(&new_mentioned) {
        model.remove_mentioner(*sym, fix);
    }
    for sym in new_mentioned {
        model.add_mentioner(sym, fix);
    }
    fix
}
