//! The in-memory graph: files, nodes, name indexes and adjacency lists.
//!
//! SQLite (see `db.rs`) persists it; every query and all resolution run on this copy, so
//! a one-file change costs a few hash-map updates rather than a reload. Node and file
//! indexes are their SQLite row ids (stable across edits: a definition whose ID survives
//! an edit keeps its index, so edges from other files into it stay valid).

use foldhash::{HashSet, HashSetExt};
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

pub(crate) use crate::adjacency::{Adjacency, Rows};
use crate::packed::{Mentions, Refs};
use crate::types::SkipReason;
use crate::{Confidence, EdgeKind, NodeKind};
pub(crate) use navmap_extract::facts::MentionKind;
use navmap_extract::facts::{Arity, Params};

/// An [`Arity`] in four bytes: the minimum in the high half, the maximum plus one in the
/// low half (0: variadic).
pub(crate) fn pack_arity(a: Arity) -> u32 {
    let max = a.max.map_or(0, |m| u32::from(m.min(u16::MAX - 1)) + 1);
    (u32::from(a.min) << 16) | max
}

pub(crate) fn unpack_arity(v: u32) -> Arity {
    let max = (v & 0xffff) as u16;
    Arity {
        min: (v >> 16) as u16,
        max: max.checked_sub(1),
    }
}

/// Index of a node or a file (= its SQLite row id).
pub(crate) type Ix = u32;

/// An interned name.
pub(crate) type Sym = u32;

/// A hash map with a fast, non-cryptographic hasher: the model's keys are paths, node IDs
/// and names from the repository, and the SipHash default was a tenth of a load (issue
/// 19's profile).
pub(crate) type FastMap<K, V> = foldhash::HashMap<K, V>;

/// Interns names (definition names, referenced names, imported names): every name once,
/// back to back in one string, and a hash table of symbols that hashes the names where
/// they are (issue 19: an `Arc<str>` per name, kept twice, was ≈ 90 bytes a name).
#[derive(Default)]
pub(crate) struct Interner {
    /// Every name, in symbol order.
    text: String,
    /// Symbol → the end of its name in `text` (it starts where the previous one ends).
    ends: Vec<u32>,
    /// The symbols, hashed by their names.
    table: hashbrown::HashTable<Sym>,
    hasher: foldhash::fast::FixedState,
    /// A partly loaded model's demands: a name looked up and not found may be defined in
    /// a file not loaded yet ([`Partial`]).
    demands: Option<Arc<Mutex<Demands>>>,
    /// `table` was given back ([`Interner::forget_table`]): the next `intern` hashes every
    /// name again first.
    forgotten: bool,
}

/// The name of `sym` in an interner's parts (apart, so the table can hash while it grows).
fn interned<'a>(text: &'a str, ends: &[u32], sym: Sym) -> &'a str {
    let end = ends[sym as usize] as usize;
    let start = match sym {
        0 => 0,
        _ => ends[sym as usize - 1] as usize,
    };
    &text[start..end]
}

impl Interner {
    pub fn intern(&mut self, s: &str) -> Sym {
        if self.forgotten {
            self.remember_table();
        }
        let hash = self.hasher.hash_one(s);
        let (text, ends) = (&self.text, &self.ends);
        if let Some(&sym) = self.table.find(hash, |&x| interned(text, ends, x) == s) {
            return sym;
        }
        let sym = self.ends.len() as Sym;
        self.text.push_str(s);
        self.ends.push(self.text.len() as u32);
        let (text, ends, hasher) = (&self.text, &self.ends, &self.hasher);
        self.table
            .insert_unique(hash, sym, |&x| hasher.hash_one(interned(text, ends, x)));
        sym
    }

    pub fn get(&self, s: &str) -> Option<Sym> {
        let found = match self.forgotten {
            // Not what `serve` does (its look-ups go through `names`, whose table stays):
            // right all the same.
            true => (0..self.ends.len() as Sym).find(|&x| self.str(x) == s),
            false => {
                let hash = self.hasher.hash_one(s);
                self.table.find(hash, |&x| self.str(x) == s).copied()
            }
        };
        if found.is_none()
            && let Some(d) = &self.demands
        {
            d.lock()
                .unwrap_or_else(|e| e.into_inner())
                .interned
                .insert(s.into());
        }
        found
    }

    pub fn str(&self, sym: Sym) -> &str {
        interned(&self.text, &self.ends, sym)
    }

    /// Gives back the hash table of symbols, for an interner whose names are only read
    /// by symbol from now on (the texts of a model opened for answers: issue 19, ≈ 1.3 MB
    /// of `serve`'s heap on the stdlib). The next [`Interner::intern`] (a served rebuild)
    /// builds it again; [`Interner::get`] meanwhile compares every name.
    pub fn forget_table(&mut self) {
        self.table = hashbrown::HashTable::new();
        self.forgotten = true;
    }

    /// Hashes every name into a new table ([`Interner::forget_table`]).
    fn remember_table(&mut self) {
        let (text, ends, hasher) = (&self.text, &self.ends, &self.hasher);
        let mut table = hashbrown::HashTable::with_capacity(ends.len());
        for sym in 0..ends.len() as Sym {
            let hash = hasher.hash_one(interned(text, ends, sym));
            table.insert_unique(hash, sym, |&x| hasher.hash_one(interned(text, ends, x)));
        }
        self.table = table;
        self.forgotten = false;
    }

    /// Gives back what growing reserved.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
        let (text, ends, hasher) = (&self.text, &self.ends, &self.hasher);
        self.table
            .shrink_to_fit(|&x| hasher.hash_one(interned(text, ends, x)));
    }
}

/// A node. Its ID (contract §1) is not kept: it is `<lang>:<path>#<qname>[~dup]` from the
/// node's language, its file's path, its qualified name and its duplicate number
/// ([`Model::node_id`]), and a node is found by its ID through its file
/// ([`Model::find_id`]). Its texts (qualified name, signature, doc) are symbols of
/// [`Model::texts`] (issue 19: an ID, a qualified name, a signature and a doc per node,
/// each an allocation, and the ID again as `node_by_id`'s key, were a quarter of `serve`'s
/// heap).
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub exported: bool,
    /// Language index into [`Model::langs`].
    pub lang: u16,
    pub name: Sym,
    /// In [`Model::texts`]; a file node's is its path, an external module's its package.
    pub qname: Sym,
    /// The `~n` of the ID: 1 for the first definition of its qualified name in its file.
    pub dup: u32,
    /// None for external modules.
    pub file: Opt32,
    /// The container (`contains` edge source): the file node, or the enclosing definition,
    /// or for methods declared apart from their type, that type when it is in the same file.
    pub parent: Opt32,
    pub start_line: u32,
    pub end_line: u32,
    pub name_line: u32,
    pub name_col: u32,
    /// In [`Model::texts`].
    pub signature: Opt32,
    /// In [`Model::texts`].
    pub doc: Opt32,
}

/// An optional index or symbol in four bytes, `u32::MAX` for none: an `Option<u32>` takes
/// eight, and a node's four of them made its slot 64 bytes where it is now 48 (issue 19:
/// the server's resident size). Node and file indexes are row ids and symbols count up
/// from 0, so neither reaches `u32::MAX`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Opt32(u32);

impl Opt32 {
    pub const NONE: Opt32 = Opt32(u32::MAX);

    pub fn get(self) -> Option<u32> {
        (self.0 != u32::MAX).then_some(self.0)
    }

    pub fn is_some(self) -> bool {
        self.0 != u32::MAX
    }

    pub fn is_none(self) -> bool {
        self.0 == u32::MAX
    }
}

impl From<Option<u32>> for Opt32 {
    fn from(v: Option<u32>) -> Opt32 {
        match v {
            Some(x) => {
                debug_assert!(x != u32::MAX, "an index or symbol reaches u32::MAX");
                Opt32(x)
            }
            None => Opt32::NONE,
        }
    }
}

// A node slot (`Option<Node>`: the niche of `kind`) stays 48 bytes.
const _: () = assert!(std::mem::size_of::<Option<Node>>() == 48);

impl std::fmt::Debug for Opt32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl Node {
    pub fn is_def(&self) -> bool {
        !matches!(self.kind, NodeKind::File | NodeKind::Module)
    }

    /// Found by its name ([`Model::defs_named`]): a definition, or a module a file defines
    /// (`module Util`, `namespace shop`), which open namespaces look up across files; not an
    /// external module.
    pub fn is_named(&self) -> bool {
        self.is_def() || (self.kind == NodeKind::Module && self.file.is_some())
    }
}

/// An edge into a node as kept in `inc[dst]`: `other` is the source. Its line is the
/// outgoing copy's ([`Model::incoming`]): 8 bytes, where a line made it 12 (issue 19: the
/// server's resident size).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InEdge {
    pub other: Ix,
    pub kind: EdgeKind,
    pub conf: Confidence,
}

/// A resolved (or candidate) edge as kept in `out[src]`: `other` is the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edge {
    pub other: Ix,
    pub kind: EdgeKind,
    pub conf: Confidence,
    /// 0-based line of the use in the source node's file; `NO_LINE` when none.
    pub line: u32,
}

pub(crate) const NO_LINE: u32 = u32::MAX;

/// A use of a name, as extracted (see `navmap_extract::facts::RefFact`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ref {
    /// The enclosing node (a definition, or the file node).
    pub from: Ix,
    pub kind: EdgeKind,
    pub name: Sym,
    /// Interned: qualifiers repeat (`self`, `os.path`), and a boxed string per use was
    /// the largest part of a loaded model after the `Vec`s themselves (issue 19).
    pub qualifier: Option<Sym>,
    pub line: u32,
    /// 0-based UTF-16 column of the name.
    pub col: u32,
    /// A bare call of a local (`RefFact::local`): never linked for sure.
    pub local: bool,
    /// A call's number of arguments (`RefFact::args`); `None`: unknown.
    pub args: Option<u16>,
    /// A call's arguments' kinds (`RefFact::arg_kinds`, encoded by
    /// `shapes::encode_args`, interned with the names); `None`: none known.
    pub kinds: Option<Sym>,
}

/// A mention that is not a [`Ref`]: an imported name or a value use (see
/// `navmap_extract::facts::MentionFact`). Refs and mentions together are the mention
/// index that answers about uses reconcile against (`mentions.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mention {
    /// The enclosing node (a definition, or the file node).
    pub from: Ix,
    pub kind: MentionKind,
    pub name: Sym,
    /// Interned, as [`Ref::qualifier`].
    pub qualifier: Option<Sym>,
    pub line: u32,
    pub col: u32,
}

/// Where an import leads, once resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Target {
    Files(Vec<Ix>),
    /// The external module node.
    External(Ix),
    #[default]
    Unresolved,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Import {
    pub module: Box<str>,
    /// (name, alias); the name `*` is a glob.
    pub names: Vec<(Sym, Option<Sym>)>,
    pub alias: Option<Sym>,
    pub reexport: bool,
    pub line: u32,
    pub target: Target,
}

/// A name the source binds to a type (see `navmap_extract::facts::BindingFact`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TypedName {
    /// The enclosing node (a definition, or the file node).
    pub scope: Ix,
    /// As written: `store`, `self.store`, `this.data`. In [`Model::texts`], as the types are
    /// (issue 19: three strings a binding, each an allocation).
    pub name: Sym,
    /// In [`Model::texts`] (an [`Opt32`]: 24 bytes a binding, where an `Option` made it 28).
    pub type_qualifier: Opt32,
    pub type_name: Sym,
    pub line: u32,
    /// Last line of the region the binding holds in (a match arm, a branch, a loop);
    /// `NO_LINE`: the whole scope.
    pub until: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct FileRec {
    pub path: Box<str>,
    pub lang: u16,
    pub size: u64,
    pub mtime: i64,
    pub hash: [u8; 32],
    pub skipped: Option<SkipReason>,
    pub lines: u32,
    pub had_errors: bool,
    /// The file node (indexed files only).
    pub node: Option<Ix>,
    /// Definition nodes in facts order (`RefFact::from` / `DefFact::parent` index this).
    pub defs: Vec<Ix>,
    pub refs: Refs,
    pub imports: Vec<Import>,
    pub bindings: Vec<TypedName>,
    pub mentions: Mentions,
    /// The file's mentions as stored, undecoded, when the map was opened to rebuild only
    /// ([`crate::MapConfig::rebuild_only`]): written back as they are while the file is
    /// unchanged, dropped when it is re-extracted. `mentions` is then empty.
    pub mentions_raw: Option<Box<[u8]>>,
    /// The file's references as stored, undecoded, in a partly loaded model that reads the
    /// file without re-resolving it ([`Partial`]): written back as they are. `refs` is then
    /// empty and the file is not among `users_by_name`.
    pub refs_raw: Option<Box<[u8]>>,
    /// The file's references and mentions are not held (`refs` and `mentions` are empty):
    /// they are its stored facts row's ([`crate::MapConfig::uses_on_demand`]). Answers read
    /// them from there (`db::UsesReader`), a rebuild loads them first (`Db::load_uses`).
    pub uses_on_disk: bool,
    pub stale: bool,
    /// `false` for a file of a partly loaded model ([`Partial`]) whose nodes, edges and
    /// facts are still in SQLite: only its row's figures and its file node's index are set.
    pub loaded: bool,
}

impl FileRec {
    /// A file known by its path and language only, before its figures and facts are set.
    pub fn new(path: Box<str>, lang: u16) -> FileRec {
        FileRec {
            path,
            lang,
            size: 0,
            mtime: 0,
            hash: [0; 32],
            skipped: None,
            lines: 0,
            had_errors: false,
            node: None,
            defs: vec![],
            refs: Refs::default(),
            imports: vec![],
            bindings: vec![],
            mentions: Mentions::default(),
            mentions_raw: None,
            refs_raw: None,
            uses_on_disk: false,
            stale: false,
            loaded: true,
        }
    }

    pub fn dir(&self) -> &str {
        parent_dir(&self.path)
    }
}

/// `a/b/c.x` → `a/b`; `c.x` → ``.
pub(crate) fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

#[derive(Default)]
pub(crate) struct Model {
    /// Slot = row id; slot 0 is never used.
    pub files: Vec<Option<FileRec>>,
    pub file_by_path: FastMap<Box<str>, Ix>,
    pub nodes: Vec<Option<Node>>,
    /// The arity of the function-like nodes whose language gives one (`DefFact::arity`),
    /// packed ([`pack_arity`]): apart from the node slot, which stays 48 bytes, and only
    /// for the languages whose queries capture parameters.
    pub arity: FastMap<Ix, u32>,
    /// The declared parameter shapes of the function-like nodes whose language gives them
    /// (`DefFact::params`, encoded by `shapes::encode_params`, interned with the texts):
    /// apart from the node slot, as `arity`.
    pub params: FastMap<Ix, Sym>,
    /// External module nodes by (language, package): they have no file to be found by.
    pub externals_by_name: FastMap<(u16, Sym), Ix>,
    /// A node's children (the nodes whose `parent` it is), in source order.
    pub children: Rows<Ix>,
    /// Outgoing edges by source node (`Edge::other` is the target).
    pub out: Adjacency,
    /// Incoming edges by target node (`InEdge::other` is the source), in the order they
    /// were added, as in `out`.
    pub inc: Rows<InEdge>,
    pub names: Interner,
    /// The nodes' qualified names, signatures and docs, each text once (kept apart from
    /// `names`: a name lookup must not find a signature).
    pub texts: Interner,
    /// Name → definition nodes with that name.
    pub by_name: Rows<Ix>,
    /// Name → files that use it (in a reference or an import).
    pub users_by_name: Rows<Ix>,
    /// Name → files with a [`Mention`] of it (refs are found through `users_by_name`).
    /// Kept apart so that a value mention does not make a file re-resolve.
    pub mentioners_by_name: Rows<Ix>,
    /// Language ids; `Node::lang` and `FileRec::lang` index this.
    pub langs: Vec<Arc<str>>,
    /// Set when only some files are loaded (`navmap rebuild`, see [`Partial`]).
    pub partial: Option<Box<Partial>>,
}

/// What a read of a partly loaded model found missing: the files to load, the names whose
/// defining files to load. Recorded by the accessors ([`Model::f`], [`Model::n`],
/// [`Model::defs_named`], [`Interner::get`]) while resolution runs; a resolution pass that
/// recorded any is run again once they are loaded (`build.rs`), so that what it reads is
/// what the whole model holds.
#[derive(Default, Debug)]
pub(crate) struct Demands {
    pub files: HashSet<Ix>,
    /// Every definition of these names.
    pub names: HashSet<Box<str>>,
    /// Every definition of these qualified names.
    pub qnames: HashSet<Box<str>>,
    /// Whether any file defines these names.
    pub defined: HashSet<Box<str>>,
    /// Names looked up and not interned: interned, so that the lookup goes on (and
    /// demands what it looks for).
    pub interned: HashSet<Box<str>>,
}

impl Demands {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
            && self.names.is_empty()
            && self.qnames.is_empty()
            && self.defined.is_empty()
            && self.interned.is_empty()
    }
}

/// A model of which only the files a rebuild can reach are loaded (issue 19: a one-file
/// `navmap rebuild` used to decode every file's blobs). Every file has its record (path,
/// figures, file node index); the others' nodes, edges and facts are loaded on demand
/// from SQLite with the index tables of `index.rs`.
#[derive(Default)]
pub(crate) struct Partial {
    /// Node index → its file, for the nodes of every file (`reach`); 0 for none.
    pub node_file: Vec<Ix>,
    /// Names whose every defining file is loaded: `defs_named` is whole for them.
    pub complete: HashSet<Sym>,
    /// Qualified names whose every defining file is loaded.
    pub complete_qualified: HashSet<Box<str>>,
    /// The files the name index says define a name (asked by `any_defs_named`).
    pub defined: FastMap<Box<str>, Vec<Ix>>,
    pub demands: Arc<Mutex<Demands>>,
    /// Owners (`index::owner`) whose listed incoming files are loaded.
    pub incoming_loaded: HashSet<i64>,
    /// The stored counts of the last build, and what the loaded files held of them when
    /// they were loaded: the counts now are these plus what the loaded files hold now.
    pub stored_symbols: u64,
    pub stored_edges: u64,
    pub loaded_symbols: u64,
    pub loaded_edges: u64,
}

impl Model {
    pub fn lang_ix(&mut self, lang: &str) -> u16 {
        if let Some(i) = self.langs.iter().position(|l| &**l == lang) {
            return i as u16;
        }
        self.langs.push(Arc::from(lang));
        (self.langs.len() - 1) as u16
    }

    pub fn lang(&self, ix: u16) -> &str {
        &self.langs[ix as usize]
    }

    pub fn node(&self, ix: Ix) -> Option<&Node> {
        let n = self.slot(ix);
        if n.is_none() {
            self.demand_node(ix);
        }
        n
    }

    /// The numbers of arguments a function-like node accepts; `None`: unknown (any).
    pub fn arity(&self, ix: Ix) -> Option<Arity> {
        self.arity.get(&ix).map(|&a| unpack_arity(a))
    }

    /// A function-like node's declared parameters; `None`: unknown.
    pub fn params(&self, ix: Ix) -> Option<Params> {
        self.params
            .get(&ix)
            .and_then(|&s| crate::shapes::decode_params(self.texts.str(s)))
    }

    pub fn set_params(&mut self, ix: Ix, params: Option<&Params>) {
        match params {
            Some(p) => {
                let sym = self.texts.intern(&crate::shapes::encode_params(p));
                self.params.insert(ix, sym)
            }
            None => self.params.remove(&ix),
        };
    }

    pub fn set_arity(&mut self, ix: Ix, arity: Option<Arity>) {
        match arity {
            Some(a) => self.arity.insert(ix, pack_arity(a)),
            None => self.arity.remove(&ix),
        };
    }

    /// A node's children ([`Model::n`]'s demand when it is not loaded).
    pub fn children_of(&self, ix: Ix) -> &[Ix] {
        self.n(ix);
        &self.children[ix as usize]
    }

    /// The node at `ix` as the model holds it, recording no demand.
    pub fn slot(&self, ix: Ix) -> Option<&Node> {
        self.nodes.get(ix as usize).and_then(Option::as_ref)
    }

    /// A live node; panics on a dead index (an internal invariant, never user input). In a
    /// partly loaded model, a node not loaded yet is demanded and a placeholder answered:
    /// the pass that read it runs again.
    ///
    /// Inlined, with the rare case out of line: resolution calls it for every node it
    /// looks at (a million times on a small corpus), where a call was most of its cost.
    #[inline]
    pub fn n(&self, ix: Ix) -> &Node {
        match self.nodes.get(ix as usize).and_then(Option::as_ref) {
            Some(n) => n,
            None => self.missing_node(ix),
        }
    }

    #[cold]
    #[inline(never)]
    fn missing_node(&self, ix: Ix) -> &Node {
        match self.demand_node(ix) {
            true => &PLACEHOLDER,
            false => panic!("edge or index to a removed node"),
        }
    }

    /// Records the file of an unloaded node as demanded; `true` when there is one.
    fn demand_node(&self, ix: Ix) -> bool {
        let Some(file) = self.partial_file_of(ix) else {
            return false;
        };
        if self
            .files
            .get(file as usize)
            .and_then(Option::as_ref)
            .is_some_and(|f| f.loaded)
        {
            return false;
        }
        self.demand_file(file);
        true
    }

    fn demand_file(&self, file: Ix) {
        if let Some(p) = &self.partial {
            p.demands
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .files
                .insert(file);
        }
    }

    /// The file of node `ix` in a partly loaded model (`reach`), loaded or not.
    pub fn partial_file_of(&self, ix: Ix) -> Option<Ix> {
        let p = self.partial.as_ref()?;
        p.node_file.get(ix as usize).copied().filter(|&f| f != 0)
    }

    pub fn file(&self, ix: Ix) -> Option<&FileRec> {
        let f = self.files.get(ix as usize).and_then(Option::as_ref);
        if f.is_some_and(|f| !f.loaded) {
            self.demand_file(ix);
        }
        f
    }

    pub fn f(&self, ix: Ix) -> &FileRec {
        let f = self.files[ix as usize].as_ref().expect("removed file");
        if !f.loaded {
            self.demand_file(ix);
        }
        f
    }

    /// Takes what reads of a partly loaded model found missing.
    pub fn take_demands(&self) -> Demands {
        match &self.partial {
            Some(p) => std::mem::take(&mut *p.demands.lock().unwrap_or_else(|e| e.into_inner())),
            None => Demands::default(),
        }
    }

    /// Starts recording demands (a partly loaded model): hands the interner its share.
    pub fn set_partial(&mut self, partial: Partial) {
        self.names.demands = Some(partial.demands.clone());
        self.partial = Some(Box::new(partial));
    }

    /// Every file is loaded: the model is whole again and records nothing.
    pub fn set_whole(&mut self) {
        self.names.demands = None;
        self.partial = None;
    }

    pub fn f_mut(&mut self, ix: Ix) -> &mut FileRec {
        self.files[ix as usize].as_mut().expect("removed file")
    }

    pub fn next_file_ix(&self) -> Ix {
        self.files.len().max(1) as Ix
    }

    pub fn next_node_ix(&self) -> Ix {
        self.nodes.len().max(1) as Ix
    }

    pub fn file_ixs(&self) -> impl Iterator<Item = Ix> + '_ {
        self.files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_some())
            .map(|(i, _)| i as Ix)
    }

    pub fn indexed_file_ixs(&self) -> impl Iterator<Item = Ix> + '_ {
        self.files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.as_ref().is_some_and(|f| f.node.is_some()))
            .map(|(i, _)| i as Ix)
    }

    pub fn node_ixs(&self) -> impl Iterator<Item = Ix> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.is_some())
            .map(|(i, _)| i as Ix)
    }

    /// The external module nodes (no file).
    pub fn externals(&self) -> impl Iterator<Item = Ix> + '_ {
        self.nodes.iter().enumerate().filter_map(|(i, n)| {
            n.as_ref()
                .filter(|n| n.file.is_none() && n.kind == NodeKind::Module)
                .map(|_| i as Ix)
        })
    }

    /// Every node of an indexed file: the file node first, then the definitions.
    pub fn file_nodes(&self, file: Ix) -> Vec<Ix> {
        let f = self.f(file);
        f.node.into_iter().chain(f.defs.iter().copied()).collect()
    }

    // ---- texts and IDs ---------------------------------------------------------------

    /// A text of [`Model::texts`]; `""` for [`EMPTY_TEXT`].
    pub fn text(&self, sym: Sym) -> &str {
        match sym {
            EMPTY_TEXT => "",
            s => self.texts.str(s),
        }
    }

    pub fn qname(&self, n: &Node) -> &str {
        self.text(n.qname)
    }

    pub fn signature(&self, n: &Node) -> Option<&str> {
        n.signature.get().map(|s| self.text(s))
    }

    pub fn doc(&self, n: &Node) -> Option<&str> {
        n.doc.get().map(|s| self.text(s))
    }

    /// The pieces of a node's ID, which concatenated are the ID: `<lang>:<path>` for a
    /// file node, `<lang>:<path>#<qname>[~<dup>]` for a definition, `<lang>:ext:<package>`
    /// for an external module (`id.rs`).
    fn id_pieces<'a>(&'a self, n: &'a Node, dup: &'a mut itoa_buf::Buf) -> [&'a str; 7] {
        let lang = self.lang(n.lang);
        let qname = self.qname(n);
        let path = |f: Ix| self.rec(f).map(|r| &*r.path).unwrap_or("");
        match n.file.get() {
            None => [lang, ":", "ext:", qname, "", "", ""],
            Some(f) if n.kind == NodeKind::File => [lang, ":", path(f), "", "", "", ""],
            Some(f) => {
                let (tilde, digits) = match n.dup {
                    0 | 1 => ("", ""),
                    d => ("~", dup.format(d)),
                };
                [lang, ":", path(f), "#", qname, tilde, digits]
            }
        }
    }

    /// A file's record as the model holds it, recording no demand.
    fn rec(&self, ix: Ix) -> Option<&FileRec> {
        self.files.get(ix as usize).and_then(Option::as_ref)
    }

    /// A node's ID (contract §1).
    pub fn node_id(&self, ix: Ix) -> String {
        let mut buf = itoa_buf::Buf::default();
        self.id_pieces(self.n(ix), &mut buf).concat()
    }

    /// The order of two nodes' IDs, without writing them.
    pub fn cmp_ids(&self, a: Ix, b: Ix) -> std::cmp::Ordering {
        let (mut x, mut y) = (itoa_buf::Buf::default(), itoa_buf::Buf::default());
        let pa = self.id_pieces(self.n(a), &mut x);
        let pb = self.id_pieces(self.n(b), &mut y);
        pa.iter()
            .flat_map(|p| p.bytes())
            .cmp(pb.iter().flat_map(|p| p.bytes()))
    }

    /// Whether `id` is the ID of the node at `ix`.
    fn id_is(&self, ix: Ix, id: &str) -> bool {
        let mut buf = itoa_buf::Buf::default();
        let mut rest = id;
        for p in self.id_pieces(self.n(ix), &mut buf) {
            match rest.strip_prefix(p) {
                Some(r) => rest = r,
                None => return false,
            }
        }
        rest.is_empty()
    }

    /// The node whose ID is exactly `id`, found through its file (or, for an external
    /// module, its package): IDs are not kept ([`Node`]).
    pub fn find_id(&self, id: &str) -> Option<Ix> {
        let (lang, rest) = id.split_once(':')?;
        let lang = self.langs.iter().position(|l| &**l == lang)? as u16;
        let mut found = None;
        // By comparing texts, not through `texts`' table (given back when opened for
        // answers: [`Interner::forget_table`]).
        if let Some(package) = rest.strip_prefix("ext:") {
            found = self
                .externals_by_name
                .iter()
                .find(|&(&(l, sym), _)| l == lang && self.texts.str(sym) == package)
                .map(|(_, &ix)| ix);
        }
        // A path may hold `#` and a qualified name `~`: every split is tried, and a node
        // is answered only when its ID is `id`.
        let file_node = |path: &str| self.rec(*self.file_by_path.get(path)?)?.node;
        if found.is_none()
            && let Some(ix) = file_node(rest)
        {
            found = Some(ix);
        }
        if found.is_none() {
            for (hash, _) in rest.match_indices('#') {
                let (path, symbol) = (&rest[..hash], &rest[hash + 1..]);
                let Some(&fix) = self.file_by_path.get(path) else {
                    continue;
                };
                let Some(f) = self.rec(fix) else { continue };
                let mut wanted = vec![(symbol, 1)];
                if let Some((q, n)) = symbol.rsplit_once('~')
                    && let Ok(n) = n.parse::<u32>()
                    && n >= 2
                {
                    wanted.push((q, n));
                }
                for (qname, dup) in wanted {
                    found = f.defs.iter().copied().find(|&d| {
                        self.slot(d).is_some_and(|n| {
                            n.dup.max(1) == dup && self.texts.str(n.qname) == qname
                        })
                    });
                    if found.is_some() {
                        break;
                    }
                }
                if found.is_some() {
                    break;
                }
            }
        }
        found.filter(|&ix| self.slot(ix).is_some_and(|n| n.lang == lang) && self.id_is(ix, id))
    }

    /// The edges into `dst` in `inc`'s order, each with its line: the outgoing copy's. Both
    /// lists keep the order edges were added in (every edit removes an edge from both), so
    /// the k-th edge into `dst` from a source, of a kind and confidence, is the k-th such
    /// edge in the source's outgoing list.
    pub fn incoming(&self, dst: Ix) -> impl Iterator<Item = (InEdge, u32)> + '_ {
        let mut before: FastMap<(Ix, EdgeKind, Confidence), usize> = FastMap::default();
        self.inc[dst as usize].iter().map(move |&e| {
            let k = before.entry((e.other, e.kind, e.conf)).or_default();
            let line = self.out[e.other as usize]
                .iter()
                .filter(|o| o.other == dst && o.kind == e.kind && o.conf == e.conf)
                .nth(*k)
                .map_or(NO_LINE, |o| o.line);
            *k += 1;
            (e, line)
        })
    }

    // ---- mutation -------------------------------------------------------------------

    pub fn put_file(&mut self, ix: Ix, rec: FileRec) {
        let i = ix as usize;
        if self.files.len() <= i {
            self.files.resize_with(i + 1, || None);
        }
        self.file_by_path.insert(rec.path.clone(), ix);
        self.files[i] = Some(rec);
    }

    /// Puts a node at `ix` and indexes it (id, name). Does not link it to its parent.
    pub fn put_node(&mut self, ix: Ix, node: Node) {
        let i = ix as usize;
        if self.nodes.len() <= i {
            self.nodes.resize_with(i + 1, || None);
        }
        if node.file.is_none() {
            self.externals_by_name.insert((node.lang, node.qname), ix);
        }
        if node.is_named() {
            self.by_name.push(node.name, ix);
        }
        self.nodes[i] = Some(node);
    }

    /// Removes a node and every edge touching it. Returns the files whose edges pointed
    /// at it (they must be re-resolved).
    pub fn remove_node(&mut self, ix: Ix) -> Vec<Ix> {
        let Some(node) = self.nodes[ix as usize].take() else {
            return vec![];
        };
        self.arity.remove(&ix);
        self.params.remove(&ix);
        if node.file.is_none() {
            self.externals_by_name.remove(&(node.lang, node.qname));
        }
        if node.is_named() {
            self.by_name.retain(node.name, |&n| n != ix);
        }
        let mut sources = Vec::new();
        for e in self.inc.take(ix) {
            if let Some(src) = self.node(e.other) {
                if let Some(f) = src.file.get() {
                    sources.push(f);
                }
                self.out.retain(e.other, |o| o.other != ix);
            }
        }
        for e in self.out.take(ix) {
            self.inc.retain(e.other, |i| i.other != ix);
        }
        if let Some(p) = node.parent.get()
            && self.slot(p).is_some()
        {
            self.children.retain(p, |&c| c != ix);
        }
        self.children.clear(ix);
        sources.sort_unstable();
        sources.dedup();
        sources
    }

    pub fn add_edge(&mut self, src: Ix, dst: Ix, kind: EdgeKind, conf: Confidence, line: u32) {
        self.out.push(
            src,
            Edge {
                other: dst,
                kind,
                conf,
                line,
            },
        );
        self.inc.push(
            dst,
            InEdge {
                other: src,
                kind,
                conf,
            },
        );
    }

    /// Adds edges in the order `edges` gives them, as [`Model::add_edge`] one by one would,
    /// but a cold build's many at once straight into the adjacency arrays
    /// ([`Rows::push_all`]: no list per node in an overlay, and no list of the edges:
    /// `edges` is called for each walk over them, each direction in turn).
    pub fn add_edges<I>(&mut self, edges: impl Fn() -> I)
    where
        I: Iterator<Item = (Ix, Ix, EdgeKind, Confidence, u32)>,
    {
        let edge = |other, kind, conf, line| Edge {
            other,
            kind,
            conf,
            line,
        };
        self.out
            .push_all(|| edges().map(|(s, d, k, c, l)| (s, edge(d, k, c, l))));
        self.inc.push_all(|| {
            edges().map(|(s, d, kind, conf, _)| {
                let other = s;
                (d, InEdge { other, kind, conf })
            })
        });
    }

    /// Drops the outgoing edges of a file's nodes whose kind `drop` selects.
    pub fn clear_file_edges(&mut self, file: Ix, drop: impl Fn(EdgeKind) -> bool) {
        let srcs: HashSet<Ix> = self.file_nodes(file).into_iter().collect();
        let mut dsts = HashSet::new();
        for &s in &srcs {
            for e in &self.out[s as usize] {
                if drop(e.kind) {
                    dsts.insert(e.other);
                }
            }
            self.out.retain(s, |e| !drop(e.kind));
        }
        for d in dsts {
            self.inc
                .retain(d, |e| !(srcs.contains(&e.other) && drop(e.kind)));
        }
    }

    pub fn add_user(&mut self, sym: Sym, file: Ix) {
        let list = &self.users_by_name[sym as usize];
        if list.last() != Some(&file) && !list.contains(&file) {
            self.users_by_name.push(sym, file);
        }
    }

    pub fn add_mentioner(&mut self, sym: Sym, file: Ix) {
        let list = &self.mentioners_by_name[sym as usize];
        if list.last() != Some(&file) && !list.contains(&file) {
            self.mentioners_by_name.push(sym, file);
        }
    }

    pub fn remove_mentioner(&mut self, sym: Sym, file: Ix) {
        self.mentioners_by_name.retain(sym, |&f| f != file);
    }

    /// Lets go of the references and mentions of every indexed file whose stored facts row
    /// holds them as the model does (after a load or a build has written them): answers
    /// and rebuilds read them from there ([`FileRec::uses_on_disk`]).
    pub fn put_uses_on_disk(&mut self) {
        for f in self.files.iter_mut().flatten() {
            if f.node.is_some()
                && f.loaded
                && !f.uses_on_disk
                && f.refs_raw.is_none()
                && f.mentions_raw.is_none()
            {
                f.refs = Refs::default();
                f.mentions = Mentions::default();
                f.uses_on_disk = true;
            }
        }
    }

    /// Lets go of one file's references and mentions: its stored facts row holds them as
    /// the model does ([`FileRec::uses_on_disk`]; `Db::load_uses` reads them back).
    pub fn let_go_of_uses(&mut self, file: Ix) {
        let f = self.f_mut(file);
        f.refs = Refs::default();
        f.mentions = Mentions::default();
        f.uses_on_disk = true;
    }

    /// Every name a file's [`Mention`]s hold.
    pub fn mentioned_names(&self, file: Ix) -> HashSet<Sym> {
        debug_assert!(
            !self.f(file).uses_on_disk,
            "the mentions of a file not loaded"
        );
        self.f(file).mentions.iter().map(|m| m.name).collect()
    }

    /// Files that may mention `sym`: its users (refs, imports) and its mentioners.
    pub fn files_mentioning(&self, sym: Sym) -> Vec<Ix> {
        let mut files = self.users_by_name[sym as usize].to_vec();
        files.extend_from_slice(&self.mentioners_by_name[sym as usize]);
        files.sort_unstable();
        files.dedup();
        files
    }

    pub fn remove_user(&mut self, sym: Sym, file: Ix) {
        self.users_by_name.retain(sym, |&f| f != file);
    }

    /// Every name a file uses (references and imports).
    pub fn used_names(&self, file: Ix) -> HashSet<Sym> {
        let f = self.f(file);
        debug_assert!(!f.uses_on_disk, "the references of a file not loaded");
        let mut set: HashSet<Sym> = f.refs.iter().map(|r| r.name).collect();
        for imp in &f.imports {
            for (n, a) in &imp.names {
                set.insert(*n);
                if let Some(a) = a {
                    set.insert(*a);
                }
            }
            if let Some(a) = imp.alias {
                set.insert(a);
            }
        }
        set
    }

    pub fn defs_named(&self, sym: Sym) -> &[Ix] {
        if let Some(p) = &self.partial
            && !p.complete.contains(&sym)
        {
            p.demands
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .names
                .insert(self.names.str(sym).into());
        }
        &self.by_name[sym as usize]
    }

    fn demand(&self, what: impl FnOnce(&mut Demands)) {
        if let Some(p) = &self.partial {
            what(&mut p.demands.lock().unwrap_or_else(|e| e.into_inner()));
        }
    }

    /// Whether `defs_named(sym)` would answer without loading a file: the model is whole, or
    /// every file defining `sym` is loaded.
    pub fn defs_named_loaded(&self, sym: Sym) -> bool {
        self.partial
            .as_ref()
            .is_none_or(|p| p.complete.contains(&sym))
    }

    /// Whether any file defines `sym` (`!defs_named(sym).is_empty()`, without loading the
    /// defining files of a partly loaded model).
    pub fn any_defs_named(&self, sym: Sym) -> bool {
        if let Some(p) = &self.partial
            && !p.complete.contains(&sym)
        {
            let name = self.names.str(sym);
            // The stored files that define it and are not loaded (a loaded file's
            // definitions are in `by_name`, as they are now).
            match p.defined.get(name) {
                Some(files) => {
                    if files.iter().any(|&f| {
                        self.files
                            .get(f as usize)
                            .and_then(Option::as_ref)
                            .is_some_and(|r| !r.loaded)
                    }) {
                        return true;
                    }
                }
                None => self.demand(|d| {
                    d.defined.insert(name.into());
                }),
            }
        }
        !self.named_loaded(sym).is_empty()
    }

    /// The definitions named `sym` whose qualified name is `qname` (a partly loaded model
    /// loads the files defining that qualified name, not every one defining the name).
    pub fn defs_qualified<'a>(&'a self, sym: Sym, qname: &'a str) -> impl Iterator<Item = Ix> + 'a {
        if let Some(p) = &self.partial
            && !p.complete.contains(&sym)
            && !p.complete_qualified.contains(qname)
        {
            self.demand(|d| {
                d.qnames.insert(qname.into());
            });
        }
        self.named_loaded(sym)
            .iter()
            .copied()
            .filter(move |&d| self.qname(self.n(d)) == qname)
    }

    /// The definitions named `sym` in `file`.
    pub fn defs_named_in_file(&self, sym: Sym, file: Ix) -> impl Iterator<Item = Ix> + '_ {
        if self
            .files
            .get(file as usize)
            .and_then(Option::as_ref)
            .is_some_and(|f| !f.loaded)
        {
            self.demand_file(file);
        }
        self.named_loaded(sym)
            .iter()
            .copied()
            .filter(move |&d| self.n(d).file.get() == Some(file))
    }

    /// The definitions named `sym` in `files`.
    pub fn defs_named_in<'a>(
        &'a self,
        sym: Sym,
        files: &'a HashSet<Ix>,
    ) -> impl Iterator<Item = Ix> + 'a {
        for &f in files {
            if self
                .files
                .get(f as usize)
                .and_then(Option::as_ref)
                .is_some_and(|r| !r.loaded)
            {
                self.demand_file(f);
            }
        }
        self.named_loaded(sym)
            .iter()
            .copied()
            .filter(move |&d| self.n(d).file.get().is_some_and(|f| files.contains(&f)))
    }

    /// `by_name` as loaded.
    fn named_loaded(&self, sym: Sym) -> &[Ix] {
        &self.by_name[sym as usize]
    }

    /// The definitions named `sym` whose node passes `keep`: the first step of every
    /// lookup by name (same language, a kind the edge fits, a qualified name…).
    pub fn defs_named_where<'a>(
        &'a self,
        sym: Sym,
        mut keep: impl FnMut(&Node) -> bool + 'a,
    ) -> impl Iterator<Item = Ix> + 'a {
        self.defs_named(sym)
            .iter()
            .copied()
            .filter(move |&d| keep(self.n(d)))
    }

    /// Gives back what growing the tables and lists reserved beyond their length (up to half
    /// of each, after a load), and folds the edges into their compact arrays.
    pub fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.files.shrink_to_fit();
        self.names.shrink_to_fit();
        self.texts.shrink_to_fit();
        self.externals_by_name.shrink_to_fit();
        self.arity.shrink_to_fit();
        self.params.shrink_to_fit();
        self.freeze_lists();
    }

    /// Folds every list's overlay into its arrays (a fresh build, between its transactions:
    /// the lists its files touched since are held once, not beside their frozen copies).
    pub fn freeze_lists(&mut self) {
        self.out.freeze();
        self.inc.freeze();
        self.children.freeze();
        self.by_name.freeze();
        self.users_by_name.freeze();
        self.mentioners_by_name.freeze();
    }

    /// After a build: folds the edge lists it edited into the compact arrays when they
    /// are many (a cold or full build), not for the few lists of a one-file change.
    pub fn settle_edges(&mut self) {
        self.out.settle();
        self.inc.settle();
        self.children.settle();
        self.by_name.settle();
        self.users_by_name.settle();
        self.mentioners_by_name.settle();
    }

    /// Stored edges (every kind but `contains`, which lives in `parent`/`children`).
    pub fn edge_count(&self) -> usize {
        let now = self.out.total();
        match &self.partial {
            Some(p) => (p.stored_edges + now as u64).saturating_sub(p.loaded_edges) as usize,
            None => now,
        }
    }

    pub fn symbol_count(&self) -> usize {
        let now = self
            .nodes
            .iter()
            .filter(|n| n.as_ref().is_some_and(Node::is_def))
            .count();
        match &self.partial {
            Some(p) => (p.stored_symbols + now as u64).saturating_sub(p.loaded_symbols) as usize,
            None => now,
        }
    }
}

/// Writes a duplicate number without allocating.
mod itoa_buf {
    #[derive(Default)]
    pub struct Buf([u8; 10]);

    impl Buf {
        pub fn format(&mut self, mut n: u32) -> &str {
            let mut i = self.0.len();
            loop {
                i -= 1;
                self.0[i] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            std::str::from_utf8(&self.0[i..]).unwrap_or("")
        }
    }
}

/// What [`Model::n`] answers for a node of a partly loaded model not loaded yet (the
/// read is demanded and its pass run again).
static PLACEHOLDER: std::sync::LazyLock<Node> = std::sync::LazyLock::new(|| Node {
    kind: NodeKind::File,
    name: 0,
    qname: EMPTY_TEXT,
    dup: 1,
    lang: 0,
    file: Opt32::NONE,
    parent: Opt32::NONE,
    start_line: 0,
    end_line: 0,
    name_line: 0,
    name_col: 0,
    signature: Opt32::NONE,
    doc: Opt32::NONE,
    exported: false,
});

/// No text: what [`Model::text`] reads as `""` (a placeholder's qualified name).
pub(crate) const EMPTY_TEXT: Sym = Sym::MAX;

/// Type-like kinds: what `extends`/`implements` point at, and what owns members.
pub(crate) fn is_type_like(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Class
            | NodeKind::Interface
            | NodeKind::Trait
            | NodeKind::Struct
            | NodeKind::Enum
            | NodeKind::TypeAlias
    )
}

pub(crate) fn is_function_like(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Function | NodeKind::Method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_optional_index_in_four_bytes_reads_back_as_written() {
        for v in [None, Some(0), Some(1), Some(u32::MAX - 1)] {
            let o = Opt32::from(v);
            assert_eq!(o.get(), v);
            assert_eq!(o.is_some(), v.is_some());
            assert_eq!(o.is_none(), v.is_none());
            assert_eq!(format!("{o:?}"), format!("{v:?}"));
        }
        assert_eq!(std::mem::size_of::<Opt32>(), 4);
    }

    /// An interner whose table was given back finds and interns as before: the same
    /// symbols for names it holds, new ones after them.
    #[test]
    fn an_interner_without_its_table_interns_as_before() {
        let mut i = Interner::default();
        let names = ["a", "", "b.c", "ab", "a"];
        let syms: Vec<Sym> = names.iter().map(|n| i.intern(n)).collect();
        assert_eq!(syms, [0, 1, 2, 3, 0]);
        i.forget_table();
        assert_eq!(i.get("b.c"), Some(2));
        assert_eq!(i.get("zz"), None);
        assert_eq!(i.str(3), "ab");
        assert_eq!(i.intern("ab"), 3);
        assert_eq!(i.intern("zz"), 4);
        assert_eq!(i.get("zz"), Some(4));
        assert_eq!(names.map(|n| i.intern(n)), [0, 1, 2, 3, 0]);
    }
}
