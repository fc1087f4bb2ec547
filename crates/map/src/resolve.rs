//! Resolution: the names in a file's facts → edges with a confidence (contract §3).
//!
//! Per reference, in order:
//! 1. `self`/`this`/`cls`/`Self` members and the scope walk (enclosing functions, then the
//!    file's top level) → `exact`;
//!    In languages whose manifest sets `implicit_receiver`, a bare call also tries the
//!    members of each type the walk passes (`get(key)` in a method) → `exact`.
//! 2. through the file's imports, following re-exports a few levels → `import`; a
//!    receiver whose declared type resolves (`store: SessionStore`, `= new SessionStore()`,
//!    see `infer.rs`) gives the member of that type, with the type's confidence; so does
//!    a receiver bound to a part of a value inside the region it holds in (a pattern's
//!    field: `Extension(ref s)` is the variant's payload; a loop's element over a
//!    `Vec<T>` field; `x` inside `if (x instanceof C)`), and a call's result
//!    (`T.create(…).rest()`: the callee's declared result type, `new X(…)`: `X`);
//!    where the manifest says `implicit_receiver`, a bare name or a receiver nothing else
//!    names may be a member of the enclosing type (`get(key)`, `store_->refresh()`);
//!    a name that several everything-imports (`*`) define is ambiguous → `candidate`;
//! 3. the only visible (exported, or in the same directory) top-level definition of that
//!    name in the repository → `name`;
//! 4. otherwise up to five ranked candidates (same file > same directory > longest common
//!    path prefix) → `candidate`.
//!
//! Per language (manifest): `open_modules` looks a name up in the namespaces around its use
//! across files before the imports (`namespaces.rs`: `B` inside `module A` is `A.B`, one
//! class across its reopenings, `include M` an `implements` base); `extension_functions`
//! links a call on a receiver nothing typed to the one extension function of that name
//! (`extensions.rs`). What an import reached only by the namespaces files declare (no
//! configuration maps it) is `name`, not `import` (`binding_conf`).
//!
//! Scope wins over all of these: a bare call of a local (a parameter, a local variable, a
//! closure parameter; `RefFact::local`) is never linked for sure, only to candidates.
//!
//! Whatever path found a function, its overloads (`~N` siblings) are weighed last: the one
//! that accepts the call's number of arguments, else candidates (`by_arity`); of several
//! that accept, the arguments' known kinds rule out those they cannot initialise and pick
//! the one they match exactly where the overloads differ (`by_kinds`, `shapes.rs`).
//!
//! An `extends` use that lands on an interface/trait from a type that is not one is recorded
//! as `implements` (base lists that don't say which: `class A : B, I`).
//!
//! What is *not* linked, on purpose: anything reached through an external module
//! (`json.dumps`, `osp.exists`, `SystemTime::now`), members of a receiver whose type is
//! declared but not in the repository (`this.data: Map` → `data.get`), and members of
//! receivers we cannot type (`self._data.get`, `r.URL.Query().Get`). An unknown
//! single-name receiver (`checker.validate`) yields candidates among the top-level
//! definitions of the modules the file imports, or where they define no such function,
//! among the methods of that name of their types — never an exact/import/name edge. This
//! trades recall for precision: the live layer (`nav_references`) is authoritative.

mod extensions;
mod namespaces;

use std::cell::{Cell, OnceCell, RefCell};
use std::sync::Arc;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use navmap_extract::ImportTarget;
use navmap_language::{Language, Registry};

use crate::frontend::ModuleResolver;
use crate::infer;
use crate::model::{
    Ix, MentionKind, Model, NO_LINE, Sym, Target, is_function_like, is_type_like, parent_dir,
};
use crate::shapes;
use crate::{Confidence, EdgeKind, NodeKind};
use navmap_extract::facts::{ArgKind, Params};

/// How many candidates an unresolved reference keeps.
pub(crate) const MAX_CANDIDATES: usize = 5;
/// How many types may implement an interface for a call through it to be linked to each
/// implementation (`Resolver::implementations`): x/mod's `Expr` has six; an `error`-like
/// interface, implemented by every error type of a module (x/mod has fourteen `Error`
/// methods), would make every call of it a row of each.
const MAX_IMPLEMENTATIONS: usize = 10;
/// How many re-export hops an import is followed through.
const MAX_REEXPORT_DEPTH: u8 = 4;
/// Recursion bound for receiver typing. A call chain takes one level a link plus one for
/// the last link's type: 8 types a fluent builder's five links (commons-cli's
/// `Option.builder(o).hasArg(…).required(…).type(t).get()`; 4 stopped at three).
const MAX_DEPTH: u8 = 8;
/// How many bases deep a member is looked for (each level tries every base: kept at the
/// bound receiver typing had before chains needed more).
const MAX_BASE_DEPTH: u8 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NewEdge {
    pub src: Ix,
    pub dst: Ix,
    pub kind: EdgeKind,
    pub conf: Confidence,
    pub line: u32,
}

/// Which edges a pass produces: structure first (imports, exports, extends,
/// implements), because member lookup through base types needs those edges in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    Structure,
    Uses,
}

impl Pass {
    pub fn owns(self, kind: EdgeKind) -> bool {
        let structural = matches!(
            kind,
            EdgeKind::Imports | EdgeKind::Exports | EdgeKind::Extends | EdgeKind::Implements
        );
        match self {
            Pass::Structure => structural,
            Pass::Uses => !structural && kind != EdgeKind::Contains,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Resolved(Ix, Confidence),
    Candidates(Vec<Ix>),
    Drop,
}

/// The module-path words of a language's manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PathWord {
    Root,
    Current,
    Parent,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Lookup {
    Found(Ix),
    Module(Vec<Ix>),
    External,
    NotFound,
}

#[derive(Debug, Clone)]
enum Binding<'m> {
    /// A module: its files and the specifier as written (`flask`, `crate::util`).
    Module(&'m [Ix], &'m str),
    Symbol {
        files: &'m [Ix],
        name: Sym,
        module: &'m str,
    },
    External,
    Unresolved,
}

/// Converts a resolver answer into file indexes / an external package name.
pub(crate) fn target_files(model: &Model, t: &ImportTarget) -> Option<Vec<Ix>> {
    match t {
        ImportTarget::Files(paths) => Some(
            paths
                .iter()
                .filter_map(|p| model.file_by_path.get(p.as_str()).copied())
                .filter(|&f| model.f(f).node.is_some())
                .collect(),
        ),
        _ => None,
    }
}

pub(crate) struct Resolver<'a> {
    pub model: &'a Model,
    pub modres: &'a dyn ModuleResolver,
    /// The registry's language of each of the model's language numbers (`Model::langs`):
    /// `Registry::by_id` compares the id with every language's in turn, and resolution
    /// asked it about once per use (issue 19: ≈ 0.7 % of a cold build).
    languages: Vec<Option<&'a Arc<Language>>>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(
        model: &'a Model,
        modres: &'a dyn ModuleResolver,
        registry: &'a Registry,
    ) -> Resolver<'a> {
        let languages = model.langs.iter().map(|id| registry.by_id(id)).collect();
        Resolver {
            model,
            modres,
            languages,
        }
    }

    /// The language of the model's language number `lang`.
    fn language(&self, lang: u16) -> Option<&'a Arc<Language>> {
        self.languages.get(usize::from(lang)).copied().flatten()
    }
}

/// The types a file's everything-imports name, with the confidence each was found at.
type GlobTypes = std::rc::Rc<[(Ix, Confidence)]>;

struct FileCx<'m> {
    file: Ix,
    lang: u16,
    path: &'m str,
    bindings: HashMap<&'m str, Binding<'m>>,
    globs: Vec<&'m [Ix]>,
    /// Everything-imports of a path no file answers (`use self::Strategy::*`): a type's
    /// members (an enum's variants) may be what they bring into scope.
    type_globs: Vec<&'m str>,
    /// The types `type_globs` name, resolved once per file (`None` while resolving them:
    /// a glob's own path is not looked up through the globs).
    glob_types: RefCell<Option<GlobTypes>>,
    resolving_globs: Cell<bool>,
    /// Per callee name: whether a definition of it could type its call's result.
    returns_a_type: RefCell<HashMap<Sym, bool>>,
    /// Per interface method: the methods of the types that implement its interface
    /// (`structural_interfaces`, `implementations`).
    implementations: RefCell<HashMap<Ix, std::rc::Rc<[Ix]>>>,
    reachable: OnceCell<HashSet<Ix>>,
    /// The children of the file's nodes as (`scope_key` of their parent and name, child),
    /// sorted by key and, within one, in the children's order: the scope walk of a bare name
    /// (`resolve_bare`) finds a scope's children of that name by a binary search instead
    /// of reading every child's node (issue 19: a million node reads on a small corpus).
    /// Built on the first bare name.
    scope_children: OnceCell<Vec<(u64, Ix)>>,
    /// The file's bindings as (scope, index in `FileRec::bindings`), sorted by scope and,
    /// within one, in the bindings' order: `typed_binding` reads a scope's bindings
    /// instead of every binding of the file for each scope it walks through (issue 19).
    /// Built on the first lookup.
    binding_scopes: OnceCell<Vec<(Ix, u32)>>,
    /// The line of the use being resolved (`NO_LINE`: none): bindings that hold only in a
    /// region (a match arm, a branch, a loop) type the uses inside it.
    line: Cell<u32>,
}

/// A scope and a name in one number, ordered by scope, then name (`FileCx::scope_children`).
fn scope_key(scope: Ix, name: Sym) -> u64 {
    u64::from(scope) << 32 | u64::from(name)
}

/// The entries of `sorted` (sorted by key) whose key is `key`, in their order.
fn entries_of<K: Ord + Copy, V>(sorted: &[(K, V)], key: K) -> &[(K, V)] {
    let start = sorted.partition_point(|&(k, _)| k < key);
    let len = sorted[start..].partition_point(|&(k, _)| k == key);
    &sorted[start..start + len]
}

fn fits(kind: EdgeKind, target: NodeKind) -> bool {
    match kind {
        EdgeKind::Extends | EdgeKind::Implements => is_type_like(target),
        EdgeKind::Calls => !matches!(
            target,
            NodeKind::File
                | NodeKind::Module
                | NodeKind::Interface
                | NodeKind::Trait
                | NodeKind::TypeAlias
        ),
        _ => !matches!(target, NodeKind::File | NodeKind::Module),
    }
}

/// A method outside any type: a member of an object value (`{ render() {…} }` in a
/// function or at the top level), reached only through that value, never a name in scope
/// (a bare `render()` beside it calls the imported `render`, not it). Where the receiver
/// may go unsaid (`implicit_receiver`), the scope walk still sees it: an anonymous class's
/// methods call each other bare.
fn is_value_member(m: &Model, node: &crate::model::Node) -> bool {
    node.kind == NodeKind::Method && node.parent.get().is_none_or(|p| !is_type_like(m.n(p).kind))
}

fn common_prefix_segments(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// The name a module import binds when it has no alias: the last path segment without
/// its extension (`./util/token.js` → `token`, `example.com/shop/store` → `store`,
/// `crate::store` → `store`); dotted modules (`os.path`) are bound by their full text.
fn default_binding(module: &str) -> Option<&str> {
    let m = module.trim_end_matches('/');
    let last = if let Some((_, l)) = m.rsplit_once("::") {
        l
    } else if let Some((_, l)) = m.rsplit_once('/') {
        l.split('.').next().unwrap_or(l)
    } else {
        return None;
    };
    (!last.is_empty()
        && last
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    .then_some(last)
}

impl<'a> Resolver<'a> {
    /// The edges of one file for one pass. Pure: reads the model only.
    pub fn resolve_file(&self, file: Ix, pass: Pass) -> Vec<NewEdge> {
        let m = self.model;
        let f = m.f(file);
        let Some(file_node) = f.node else {
            return vec![];
        };
        let cx = self.file_cx(file);
        let mut out = Vec::new();
        if pass == Pass::Structure {
            self.import_edges(&cx, file_node, &mut out);
        }
        for r in f.refs.iter() {
            if !pass.owns(r.kind) {
                continue;
            }
            cx.line.set(r.line);
            let outcome = match r.qualifier.map(|q| m.names.str(q)) {
                None if r.local => self.local_call(&cx, r.name, r.kind),
                None => self.resolve_bare(&cx, r.from, r.name, r.kind, 0),
                Some(q) => self.resolve_qualified(&cx, r.from, q, r.name, r.kind, 0),
            };
            // A call on a receiver nothing typed: an extension function of that name.
            let outcome = match outcome {
                Outcome::Drop
                    if r.kind == EdgeKind::Calls
                        && r.qualifier.is_some()
                        && self.extension_functions(&cx) =>
                {
                    self.extension_call(&cx, r.name).unwrap_or(Outcome::Drop)
                }
                other => other,
            };
            match self.by_arity(&cx, outcome, r.args, r.kinds, r.from) {
                Outcome::Resolved(dst, conf) => {
                    out.push(NewEdge {
                        src: r.from,
                        dst,
                        kind: self.inheritance_kind(r.kind, r.from, dst),
                        conf,
                        line: r.line,
                    });
                    // A call through an interface (Go: `s.ops.Lookup(…)` on a field typed
                    // `ServerOps`) may run the method of each type that implements it.
                    if r.kind == EdgeKind::Calls && conf != Confidence::Candidate {
                        for &dst in self.implementations(&cx, dst).iter() {
                            out.push(NewEdge {
                                src: r.from,
                                dst,
                                kind: EdgeKind::Calls,
                                conf: Confidence::Name,
                                line: r.line,
                            });
                        }
                    }
                }
                Outcome::Candidates(c) => {
                    for dst in c {
                        out.push(NewEdge {
                            src: r.from,
                            dst,
                            kind: self.inheritance_kind(r.kind, r.from, dst),
                            conf: Confidence::Candidate,
                            line: r.line,
                        });
                    }
                }
                Outcome::Drop => {}
            }
        }
        if pass == Pass::Uses {
            self.value_edges(&cx, file, &mut out);
        }
        dedup_edges(&mut out);
        out
    }

    /// Names used as values (`cls = JSONEncoder`, `{Validate: email.Validate}`, a property
    /// read `self.local_part`, a method passed as a callback): a `references` edge where
    /// the name is known for sure — the scope walk, the receiver's members, an import, a
    /// typed receiver (`exact`/`import`). A value has no call syntax to confirm it names a
    /// definition, so the repository's name alone (`name`/`candidate`) does not link it:
    /// such a mention stays in the unlinked tier. Words of unparsed text never link.
    fn value_edges(&self, cx: &FileCx, file: Ix, out: &mut Vec<NewEdge>) {
        let m = self.model;
        for v in m.f(file).mentions.iter() {
            if v.kind != MentionKind::Value || !m.any_defs_named(v.name) {
                continue;
            }
            let kind = EdgeKind::References;
            cx.line.set(v.line);
            let outcome = match v.qualifier.map(|q| m.names.str(q)) {
                None => self.resolve_bare(cx, v.from, v.name, kind, 0),
                Some(q) => self.resolve_qualified(cx, v.from, q, v.name, kind, 0),
            };
            // A value use passes no arguments to choose an overload by.
            if let Outcome::Resolved(dst, conf @ (Confidence::Exact | Confidence::Import)) =
                self.by_arity(cx, outcome, None, None, v.from)
            {
                out.push(NewEdge {
                    src: v.from,
                    dst,
                    kind,
                    conf,
                    line: v.line,
                });
            }
        }
    }

    /// Base lists that don't say which entries are classes and which interfaces
    /// (`class A : B, I`) are extracted as `extends`: a type that "extends" an interface
    /// or trait while not being one itself implements it.
    fn inheritance_kind(&self, kind: EdgeKind, src: Ix, dst: Ix) -> EdgeKind {
        let abstract_kind = |k: NodeKind| matches!(k, NodeKind::Interface | NodeKind::Trait);
        let m = self.model;
        if kind == EdgeKind::Extends
            && abstract_kind(m.n(dst).kind)
            && !abstract_kind(m.n(src).kind)
        {
            EdgeKind::Implements
        } else {
            kind
        }
    }

    fn file_cx(&self, file: Ix) -> FileCx<'a> {
        let m = self.model;
        let f = m.f(file);
        let mut bindings: HashMap<&str, Binding> = HashMap::new();
        let mut globs = Vec::new();
        let mut type_globs = Vec::new();
        for imp in &f.imports {
            let as_binding = || match &imp.target {
                Target::Files(fs) => Binding::Module(fs, &imp.module),
                Target::External(_) => Binding::External,
                Target::Unresolved => Binding::Unresolved,
            };
            let star = m.names.get("*");
            if imp.names.is_empty() {
                bindings.insert(&imp.module, as_binding());
                if let Some(a) = imp.alias {
                    bindings.insert(m.names.str(a), as_binding());
                } else if let Some(b) = default_binding(&imp.module) {
                    bindings.entry(b).or_insert_with(as_binding);
                } else if matches!(imp.target, Target::External(_))
                    && let Some(first) = imp.module.split('.').next()
                    && !first.is_empty()
                {
                    bindings.entry(first).or_insert(Binding::External);
                }
                continue;
            }
            if let Some(a) = imp.alias {
                bindings.insert(m.names.str(a), as_binding());
            }
            for (n, a) in &imp.names {
                if Some(*n) == star {
                    match &imp.target {
                        Target::Files(fs) => globs.push(fs.as_slice()),
                        Target::Unresolved => type_globs.push(&*imp.module),
                        Target::External(_) => {}
                    }
                    continue;
                }
                let local = m.names.str(a.unwrap_or(*n));
                let b = match &imp.target {
                    Target::Files(fs) => Binding::Symbol {
                        files: fs,
                        name: *n,
                        module: &imp.module,
                    },
                    Target::External(_) => Binding::External,
                    Target::Unresolved => Binding::Unresolved,
                };
                bindings.insert(local, b);
            }
        }
        FileCx {
            file,
            lang: f.lang,
            path: &f.path,
            bindings,
            globs,
            type_globs,
            glob_types: RefCell::new(None),
            resolving_globs: Cell::new(false),
            returns_a_type: RefCell::new(HashMap::new()),
            implementations: RefCell::new(HashMap::new()),
            reachable: OnceCell::new(),
            scope_children: OnceCell::new(),
            binding_scopes: OnceCell::new(),
            line: Cell::new(NO_LINE),
        }
    }

    /// The children of `scope` named `name`, in the children's order, when `scope` is a
    /// node of the file being resolved (`FileCx::scope_children`); `None` for a node of
    /// another file.
    fn children_named<'c>(&self, cx: &'c FileCx, scope: Ix, name: Sym) -> Option<&'c [(u64, Ix)]> {
        let m = self.model;
        if m.n(scope).file.get() != Some(cx.file) {
            return None;
        }
        // The table is built from the file node's and the definitions' children: every
        // node of a file is one of those (the scan this replaced looked at any node).
        debug_assert!(
            m.f(cx.file).node == Some(scope) || m.f(cx.file).defs.contains(&scope),
            "a scope of the file that is neither its file node nor a definition"
        );
        let all = cx.scope_children.get_or_init(|| {
            let f = m.f(cx.file);
            let mut all = Vec::with_capacity(f.defs.len());
            for &parent in f.node.iter().chain(&f.defs) {
                for &c in m.children_of(parent) {
                    all.push((scope_key(parent, m.n(c).name), c));
                }
            }
            // Stable: the children of one name stay in their order.
            all.sort_by_key(|&(key, _)| key);
            all
        });
        Some(entries_of(all, scope_key(scope, name)))
    }

    /// The indexes of the bindings of `scope` in `file`, in the bindings' order, when
    /// `file` is the file being resolved (`FileCx::binding_scopes`); `None` for another.
    fn bindings_of_scope<'c>(
        &self,
        cx: &'c FileCx,
        file: Ix,
        scope: Ix,
    ) -> Option<&'c [(Ix, u32)]> {
        if file != cx.file {
            return None;
        }
        let all = cx.binding_scopes.get_or_init(|| {
            let bindings = &self.model.f(file).bindings;
            let mut all: Vec<(Ix, u32)> = (0..bindings.len() as u32)
                .map(|i| (bindings[i as usize].scope, i))
                .collect();
            // Stable: the bindings of one scope stay in their order.
            all.sort_by_key(|&(scope, _)| scope);
            all
        });
        Some(entries_of(all, scope))
    }

    fn import_edges(&self, cx: &FileCx, file_node: Ix, out: &mut Vec<NewEdge>) {
        let m = self.model;
        let star = m.names.get("*");
        for imp in &m.f(cx.file).imports {
            let targets: Vec<Ix> = match &imp.target {
                Target::Files(fs) => fs.iter().filter_map(|&f| m.f(f).node).collect(),
                Target::External(x) => vec![*x],
                Target::Unresolved => vec![],
            };
            // Names imported from a package of several files: the files that define them
            // (`import a.b.C` imports `C`'s file, not every file of `a.b`).
            let mut imported = match &imp.target {
                Target::Files(fs) if fs.len() > 1 && !imp.names.is_empty() => {
                    let defining: Vec<Ix> = fs
                        .iter()
                        .copied()
                        .filter(|&f| {
                            imp.names.iter().any(|(n, _)| {
                                Some(*n) == star || self.top_level_in(f, *n).is_some()
                            })
                        })
                        .filter_map(|f| m.f(f).node)
                        .collect();
                    if defining.is_empty() {
                        targets.clone()
                    } else {
                        defining
                    }
                }
                _ => targets.clone(),
            };
            // `from pkg import submodule`, `use crate::util::{email}`: the submodules too.
            if let Target::Files(fs) = &imp.target {
                for (n, _) in &imp.names {
                    if Some(*n) != star
                        && fs.iter().all(|&f| self.top_level_in(f, *n).is_none())
                        && let Lookup::Module(sub) = self.lookup_symbol(cx, fs, *n, &imp.module)
                    {
                        imported.extend(sub.iter().filter_map(|&f| m.f(f).node));
                    }
                }
            }
            for &t in &imported {
                out.push(NewEdge {
                    src: file_node,
                    dst: t,
                    kind: EdgeKind::Imports,
                    conf: Confidence::Exact,
                    line: imp.line,
                });
            }
            if !imp.reexport {
                continue;
            }
            let mut exported = Vec::new();
            if imp.names.is_empty() || imp.names.iter().any(|(n, _)| Some(*n) == star) {
                exported.extend(targets.iter().copied());
            }
            if let Target::Files(fs) = &imp.target {
                for (n, _) in &imp.names {
                    if Some(*n) == star {
                        continue;
                    }
                    match self.lookup_symbol(cx, fs, *n, &imp.module) {
                        Lookup::Found(d) => exported.push(d),
                        Lookup::Module(files) => {
                            exported.extend(files.iter().filter_map(|&f| m.f(f).node))
                        }
                        Lookup::External | Lookup::NotFound => {}
                    }
                }
            }
            for d in exported {
                out.push(NewEdge {
                    src: file_node,
                    dst: d,
                    kind: EdgeKind::Exports,
                    conf: Confidence::Import,
                    line: imp.line,
                });
            }
        }
    }

    // ---- lookups ----------------------------------------------------------------------

    /// A top-level definition named `name` in `file`.
    fn top_level_in(&self, file: Ix, name: Sym) -> Option<Ix> {
        let m = self.model;
        let name_str = m.names.str(name);
        m.defs_named_in_file(name, file)
            .filter(|&d| {
                let node = m.n(d);
                node.kind != NodeKind::Module
                    && ((m.qname(node) == name_str && !is_value_member(m, node))
                        || self.top_level_extension(node))
            })
            .min()
    }

    /// `name` as exported by `files`, following re-exports.
    fn lookup_in_files(&self, files: &[Ix], name: Sym, depth: u8) -> Lookup {
        let m = self.model;
        for &f in files {
            if let Some(n) = self.top_level_in(f, name) {
                return Lookup::Found(n);
            }
        }
        if depth >= MAX_REEXPORT_DEPTH {
            return Lookup::NotFound;
        }
        let star = m.names.get("*");
        for &f in files {
            for imp in m.f(f).imports.iter().filter(|i| i.reexport) {
                if imp.names.is_empty() && imp.alias == Some(name) {
                    return match &imp.target {
                        Target::Files(ts) => Lookup::Module(ts.clone()),
                        Target::External(_) => Lookup::External,
                        Target::Unresolved => Lookup::NotFound,
                    };
                }
                for (n, a) in &imp.names {
                    if Some(*n) == star || a.unwrap_or(*n) != name {
                        continue;
                    }
                    return match &imp.target {
                        Target::Files(ts) => match self.lookup_in_files(ts, *n, depth + 1) {
                            Lookup::NotFound => self.submodule(f, &imp.module, *n),
                            other => other,
                        },
                        Target::External(_) => Lookup::External,
                        Target::Unresolved => Lookup::NotFound,
                    };
                }
            }
        }
        for &f in files {
            for imp in m.f(f).imports.iter().filter(|i| i.reexport) {
                if imp.names.iter().any(|(n, _)| Some(*n) == star)
                    && let Target::Files(ts) = &imp.target
                    && let found @ Lookup::Found(_) = self.lookup_in_files(ts, name, depth + 1)
                {
                    return found;
                }
            }
        }
        Lookup::NotFound
    }

    /// Whether `q` is one of the language's `base_receivers` (`super`, `super()`, the
    /// latter with any arguments: `super(Derived, self)`).
    fn is_base_receiver(&self, file: Ix, q: &str) -> bool {
        let m = self.model;
        let Some(lang) = self.language(m.f(file).lang) else {
            return false;
        };
        lang.manifest.base_receivers.iter().any(|w| {
            w == q
                || w.strip_suffix("()").is_some_and(|head| {
                    q.strip_prefix(head)
                        .is_some_and(|args| args.starts_with('(') && args.ends_with(')'))
                })
        })
    }

    /// `super.f()` in a method: `f` as a base of the enclosing type has it (the first
    /// base, in declaration order, that has it), `exact`.
    fn base_member(&self, from: Ix, name: Sym, kind: EdgeKind) -> Outcome {
        let m = self.model;
        let Some(t) = self.enclosing_type(from) else {
            return Outcome::Drop;
        };
        for e in &m.out[t as usize] {
            if matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements)
                && e.conf != Confidence::Candidate
                && let Some(d) = self.member(e.other, name, kind, 1)
            {
                return Outcome::Resolved(d, Confidence::Exact);
            }
        }
        Outcome::Drop
    }

    /// Whether `q`, standing alone as a qualifier in `file`, means the enclosing type's
    /// instance or the type itself: the file's language lists it in its manifest's
    /// `receivers` (the words are language data, not the map's).
    fn is_receiver(&self, file: Ix, q: &str) -> bool {
        let m = self.model;
        self.language(m.f(file).lang)
            .is_some_and(|l| l.manifest.receivers.iter().any(|r| r == q))
    }
    /// `from pkg import sub` / `use crate::util::{email}` where the name is a module.
    fn submodule(&self, from_file: Ix, module: &str, name: Sym) -> Lookup {
        let m = self.model;
        let f = m.f(from_file);
        let Some(lang) = self.language(f.lang) else {
            return Lookup::NotFound;
        };
        let t = self
            .modres
            .resolve_member(lang, &f.path, module, m.names.str(name));
        match (&t, target_files(m, &t)) {
            (_, Some(fs)) if !fs.is_empty() => Lookup::Module(fs),
            (ImportTarget::External(_), _) => Lookup::External,
            _ => Lookup::NotFound,
        }
    }

    fn lookup_symbol(&self, cx: &FileCx, files: &[Ix], name: Sym, module: &str) -> Lookup {
        match self.lookup_in_files(files, name, 0) {
            Lookup::NotFound => self.submodule(cx.file, module, name),
            other => other,
        }
    }

    fn binding_lookup(&self, cx: &FileCx, b: &Binding) -> Lookup {
        match b {
            Binding::Module(fs, _) => Lookup::Module(fs.to_vec()),
            Binding::Symbol {
                files,
                name,
                module,
            } => self.lookup_symbol(cx, files, *name, module),
            Binding::External => Lookup::External,
            Binding::Unresolved => Lookup::NotFound,
        }
    }

    /// The confidence of what an import binding leads to: `import`, or `name` when the
    /// import itself was found only by the namespaces files declare (no configuration
    /// maps it: PHP without a PSR-4 entry), a match by name however it is spelled.
    fn binding_conf(&self, cx: &FileCx, b: &Binding) -> Confidence {
        let module = match b {
            Binding::Module(_, module) | Binding::Symbol { module, .. } => *module,
            Binding::External | Binding::Unresolved => return Confidence::Import,
        };
        match self.language(cx.lang) {
            Some(lang) if self.modres.by_declaration(lang, cx.path, module) => Confidence::Name,
            _ => Confidence::Import,
        }
    }

    /// Files this file can reach through its imports (for unknown-receiver candidates).
    fn reachable<'c>(&self, cx: &'c FileCx) -> &'c HashSet<Ix> {
        cx.reachable.get_or_init(|| {
            let mut set = HashSet::new();
            for b in cx.bindings.values() {
                match self.binding_lookup(cx, b) {
                    Lookup::Module(fs) => set.extend(fs),
                    Lookup::Found(n) => set.extend(self.model.n(n).file.get()),
                    Lookup::External | Lookup::NotFound => {}
                }
            }
            for g in &cx.globs {
                set.extend(g.iter().copied());
            }
            set.remove(&cx.file);
            set
        })
    }

    // ---- members ----------------------------------------------------------------------

    /// The member `name` of type `ty`: declared inside it, declared apart from it
    /// (`impl T`, Go receivers: qualified `T.name`), or inherited through resolved
    /// `extends`/`implements` edges.
    fn member(&self, ty: Ix, name: Sym, kind: EdgeKind, depth: u8) -> Option<Ix> {
        let m = self.model;
        let t = m.n(ty);
        // A call (`x.bytes_range()`) is of a method where a field has the same name.
        let callable = |n: Ix| kind != EdgeKind::Calls || is_function_like(m.n(n).kind);
        let mut named = m
            .children_of(ty)
            .iter()
            .copied()
            .filter(|&c| m.n(c).name == name && fits(kind, m.n(c).kind));
        let first = named.next();
        if let Some(c) = first
            .filter(|&c| callable(c))
            .or_else(|| named.find(|&c| callable(c)))
        {
            return Some(c);
        }
        // A member declared apart from its type (a Go receiver, a C++ `T::f`, a Rust `impl`
        // elsewhere, a C# partial class's other part) has the type's qualified name as
        // its prefix. Where types are declared whole (`closed_types`), one declared
        // inside another type of the same name (`BaseTest.assertRaises` in another
        // module's `class BaseTest`) is that type's, never this one's.
        // Joined by hand: `format!`'s machinery was ≈ 900 instructions a call (issue 19).
        let (tq, n) = (m.qname(t), m.names.str(name));
        let mut want = String::with_capacity(tq.len() + 1 + n.len());
        want.push_str(tq);
        want.push('.');
        want.push_str(n);
        let tdir = t.file.get().map(|f| m.f(f).dir()).unwrap_or("");
        let closed = self
            .language(t.lang)
            .is_some_and(|l| l.manifest.closed_types);
        let apart = m
            .defs_qualified(name, &want)
            .filter(|&d| {
                let node = m.n(d);
                node.lang == t.lang
                    && fits(kind, node.kind)
                    && !(closed
                        && node
                            .parent
                            .get()
                            .is_some_and(|p| p != ty && is_type_like(m.n(p).kind)))
            })
            .min_by_key(|&n| {
                let node = m.n(n);
                let same_file = node.file == t.file;
                let same_dir = node.file.get().map(|f| m.f(f).dir()) == Some(tdir);
                (!callable(n), !same_file, !same_dir, n)
            });
        if apart.is_some_and(callable) {
            return apart;
        }
        // No method of that name: the field it is (a function-typed field called).
        if let Some(c) = first {
            return Some(c);
        }
        if apart.is_some() {
            return apart;
        }
        if depth >= MAX_BASE_DEPTH {
            return None;
        }
        for e in &m.out[ty as usize] {
            if matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements)
                && e.conf != Confidence::Candidate
                && let Some(found) = self.member(e.other, name, kind, depth + 1)
            {
                return Some(found);
            }
        }
        None
    }

    /// The type a definition belongs to (for `self`/`this`).
    fn enclosing_type(&self, from: Ix) -> Option<Ix> {
        let m = self.model;
        let mut cur = Some(from);
        while let Some(c) = cur {
            let n = m.n(c);
            if is_type_like(n.kind) {
                return Some(c);
            }
            if n.kind == NodeKind::File {
                break;
            }
            cur = n.parent.get();
        }
        // A method declared apart from its type in another file (Go receivers).
        let n = m.n(from);
        let (prefix, _) = m.qname(n).rsplit_once('.')?;
        let (_, last) = prefix.rsplit_once('.').unwrap_or(("", prefix));
        let sym = m.names.get(last)?;
        let dir = n.file.get().map(|f| m.f(f).dir());
        m.defs_qualified(sym, prefix)
            .filter(|&d| {
                let dn = m.n(d);
                is_type_like(dn.kind) && dn.lang == n.lang
            })
            .min_by_key(|&d| {
                let dn = m.n(d);
                (
                    dn.file != n.file,
                    dn.file.get().map(|f| m.f(f).dir()) != dir,
                    d,
                )
            })
    }

    /// Whether the file's language lets a method name its type's members without a
    /// receiver (`implicit_receiver` in its manifest).
    fn implicit_receiver(&self, cx: &FileCx) -> bool {
        self.language(cx.lang)
            .is_some_and(|l| l.manifest.implicit_receiver)
    }

    /// Whether the file's language prefers an overload's fixed arity over its varargs
    /// (`fixed_arity_first` in its manifest).
    fn fixed_arity_first(&self, cx: &FileCx) -> bool {
        self.language(cx.lang)
            .is_some_and(|l| l.manifest.fixed_arity_first)
    }

    // ---- references ---------------------------------------------------------------------

    /// Chooses among overloads by the number of arguments. A function a lookup found that
    /// has overloads — the function-like definitions of its qualified name in its file, its
    /// `~N` siblings (`put`, `put~2`; a C++ constructor's delegation `: Handle(raw)`) — is
    /// the one overload that accepts the call's number of arguments, with the lookup's
    /// confidence; where several accept, or the number is unknown (a spread, a value use),
    /// or none accepts, a candidate of each (of those that accept, else of all): the map
    /// does not weigh the arguments' types. A group none of whose members has an arity
    /// (languages whose queries capture no parameters: Python's redefinitions, C's `#if`
    /// variants) keeps the lookup's answer. In a language with `fixed_arity_first`
    /// (Java), an overload that accepts the count without its variadic part beats the
    /// variadic ones that accept it too. Where several accept and the call's arguments'
    /// kinds are known (`kinds`), they are weighed against the overloads' parameters
    /// (`by_kinds`).
    fn by_arity(
        &self,
        cx: &FileCx,
        outcome: Outcome,
        args: Option<u16>,
        kinds: Option<Sym>,
        from: Ix,
    ) -> Outcome {
        let m = self.model;
        let Outcome::Resolved(d, conf) = outcome else {
            return outcome;
        };
        let node = m.n(d);
        let Some(parent) = node.parent.get().filter(|_| is_function_like(node.kind)) else {
            return outcome;
        };
        let overload = |&c: &Ix| m.n(c).qname == node.qname && is_function_like(m.n(c).kind);
        let siblings = m.children_of(parent);
        // Most functions have no overload: no list made for them.
        if siblings.iter().filter(|c| overload(c)).nth(1).is_none() {
            return outcome;
        }
        let overloads: Vec<Ix> = siblings.iter().copied().filter(overload).collect();
        if overloads.len() < 2 || overloads.iter().all(|&o| m.arity(o).is_none()) {
            return outcome;
        }
        let mut accepting: Vec<Ix> = overloads
            .iter()
            .copied()
            .filter(|&o| args.is_some_and(|n| m.arity(o).is_none_or(|a| a.accepts(n))))
            .collect();
        let fixed = |o: Ix| m.arity(o).is_some_and(|a| a.max.is_some());
        if accepting.len() > 1 && self.fixed_arity_first(cx) && accepting.iter().any(|&o| fixed(o))
        {
            accepting.retain(|&o| fixed(o));
        }
        if accepting.len() > 1
            && let Some(k) = kinds
        {
            let kinds = shapes::decode_args(m.names.str(k));
            if args == Some(kinds.len() as u16) {
                accepting = self.by_kinds(accepting, &kinds, parent, from);
            }
        }
        match accepting.len() {
            1 => Outcome::Resolved(accepting[0], conf),
            0 => Outcome::Candidates(overloads),
            _ => Outcome::Candidates(accepting),
        }
    }

    /// Among the overloads that accept a call's number of arguments, those its arguments'
    /// kinds leave (`shapes.rs`): an overload a known argument can certainly not
    /// initialise is ruled out; of those left, the one that matches exactly every argument
    /// where they differ is the one called. What is unknown rules nothing out: an overload
    /// whose parameters are unknown stays, and none is then preferred. `class`: the
    /// overloads' parent, `from`: the caller (a class template's parameter `$T` means the
    /// same on both sides only inside that class).
    fn by_kinds(&self, accepting: Vec<Ix>, kinds: &[ArgKind], class: Ix, from: Ix) -> Vec<Ix> {
        let m = self.model;
        let viable: Vec<(Ix, Option<Params>)> = accepting
            .iter()
            .map(|&o| (o, m.params(o)))
            .filter(|(_, p)| {
                p.as_ref().is_none_or(|p| {
                    !kinds
                        .iter()
                        .zip(&p.list)
                        .any(|(a, q)| shapes::cannot_bind(a, q))
                })
            })
            .collect();
        // None left: the facts are wrong somewhere; the count's answer stands.
        if viable.is_empty() {
            return accepting;
        }
        if viable.len() > 1 {
            let known: Option<Vec<(Ix, Params)>> = viable
                .iter()
                .map(|(o, p)| p.clone().map(|p| (*o, p)))
                .collect();
            if let Some(known) = known
                && let Some(best) = shapes::best_overload(&known, kinds, self.inside(from, class))
            {
                return vec![best];
            }
        }
        viable.into_iter().map(|(o, _)| o).collect()
    }

    /// Whether `node` is `ancestor` or inside it.
    fn inside(&self, node: Ix, ancestor: Ix) -> bool {
        let m = self.model;
        let mut cur = Some(node);
        while let Some(c) = cur {
            if c == ancestor {
                return true;
            }
            cur = m.n(c).parent.get();
        }
        false
    }

    fn resolve_bare(&self, cx: &FileCx, from: Ix, name: Sym, kind: EdgeKind, depth: u8) -> Outcome {
        let m = self.model;
        let name_str = m.names.str(name);
        // 1. Scope walk: enclosing functions' local definitions, then the top level; in
        //    languages with an implicit receiver, a call also tries the members of each
        //    enclosing type on the way (`get(key)` in a method = `self.get(key)`).
        let implicit = kind == EdgeKind::Calls && self.implicit_receiver(cx);
        let mut cur = Some(from);
        while let Some(a) = cur {
            let node = m.n(a);
            if implicit
                && is_type_like(node.kind)
                && let Some(d) = self.member(a, name, kind, 0)
            {
                return Outcome::Resolved(d, Confidence::Exact);
            }
            // Inside a type, in languages whose members are in scope in its body, its own
            // name and the types nested in it name those types (Java's `Builder` as the
            // return type of `Option.Builder.hasArg`, a sibling nested class named from
            // another): innermost first, so a nested type shadows an outer one.
            if kind != EdgeKind::Calls && is_type_like(node.kind) && self.implicit_receiver(cx) {
                if node.name == name && fits(kind, node.kind) {
                    return Outcome::Resolved(a, Confidence::Exact);
                }
                let nested = m.children_of(a).iter().copied().find(|&c| {
                    let cn = m.n(c);
                    cn.name == name && is_type_like(cn.kind) && fits(kind, cn.kind)
                });
                if let Some(c) = nested {
                    return Outcome::Resolved(c, Confidence::Exact);
                }
            }
            let is_file = node.kind == NodeKind::File;
            // A namespace's (module's) members are in scope inside it (`class B : public A`
            // in `namespace shop`, beside `shop.A`).
            if is_file || is_function_like(node.kind) || node.kind == NodeKind::Module {
                let found = |&c: &Ix| {
                    let cn = m.n(c);
                    cn.name == name
                        && fits(kind, cn.kind)
                        && (!is_file || m.qname(cn) == name_str)
                        && (implicit || !is_value_member(m, cn))
                };
                let hit = match self.children_named(cx, a, name) {
                    Some(named) => named.iter().map(|&(_, c)| c).find(found),
                    None => m.children_of(a).iter().copied().find(found),
                };
                if let Some(c) = hit {
                    return Outcome::Resolved(c, Confidence::Exact);
                }
            }
            if is_file {
                break;
            }
            cur = node.parent.get();
        }
        // A member of the enclosing type, where the language lets the receiver go unsaid.
        if self.implicit_receiver(cx)
            && let Some(t) = self.enclosing_type(from)
            && let Some(d) = self.member(t, name, kind, 0)
        {
            return Outcome::Resolved(d, Confidence::Exact);
        }
        // Open modules: the namespaces around the use, in every file (`SessionStore`
        // inside `module Shop` is `Shop.SessionStore`, defined elsewhere).
        if self.open_modules(cx)
            && let Some(o) = self.namespace_path(cx, from, &[], name, kind, true)
        {
            return o;
        }
        // Namespaces reopened across files (`enclosing_namespace_paths`): `SourceLocation`
        // inside `namespace cppgc { namespace internal {` is `cppgc.SourceLocation` from
        // another header — but a name at a file's top level is left to the imports.
        if self.enclosing_namespace_paths(cx)
            && let Some(o) = self.namespace_path(cx, from, &[], name, kind, false)
        {
            return o;
        }
        // 2. Imports.
        if let Some(b) = cx.bindings.get(name_str) {
            let conf = self.binding_conf(cx, b);
            match self.binding_lookup(cx, b) {
                Lookup::Found(n) if fits(kind, m.n(n).kind) => {
                    return Outcome::Resolved(n, conf);
                }
                Lookup::Found(_) => return Outcome::Drop,
                Lookup::Module(fs) => {
                    return match fs.first().and_then(|&f| m.f(f).node) {
                        Some(fnode) if kind == EdgeKind::References => {
                            Outcome::Resolved(fnode, conf)
                        }
                        _ => Outcome::Drop,
                    };
                }
                Lookup::External => return Outcome::Drop,
                Lookup::NotFound => {}
            }
        }
        // Everything-imports (`*`): one that defines the name answers; when several define
        // it (files included on different branches, two `import *` of one name), which one
        // is meant is not known statically: all of them, as candidates.
        let mut from_globs: Vec<Ix> = Vec::new();
        for g in &cx.globs {
            match self.lookup_in_files(g, name, 0) {
                Lookup::Found(n) if fits(kind, m.n(n).kind) && !from_globs.contains(&n) => {
                    from_globs.push(n);
                }
                Lookup::External if from_globs.is_empty() => return Outcome::Drop,
                _ => {}
            }
        }
        match from_globs.len() {
            0 => {}
            1 => return Outcome::Resolved(from_globs[0], Confidence::Import),
            _ => return Outcome::Candidates(self.rank_candidates(cx, from_globs)),
        }
        // `use self::Strategy::*`: the variants of a repository enum (a type's members).
        let _ = depth;
        if !cx.type_globs.is_empty() && !cx.resolving_globs.get() {
            let types = self.glob_types(cx, from);
            for &(t, conf) in types.iter() {
                if let Some(d) = self.member(t, name, kind, 0) {
                    return Outcome::Resolved(d, conf);
                }
            }
        }
        // 3./4. The repository by name.
        self.global(cx, name, kind)
    }

    /// The types the file's everything-imports of types name, resolved once.
    fn glob_types(&self, cx: &FileCx, from: Ix) -> GlobTypes {
        if let Some(types) = cx.glob_types.borrow().as_ref() {
            return types.clone();
        }
        cx.resolving_globs.set(true);
        let file = self.model.f(cx.file).node.unwrap_or(from);
        let types: GlobTypes = cx
            .type_globs
            .iter()
            .filter_map(|g| self.glob_type(cx, file, g, 0))
            .collect();
        cx.resolving_globs.set(false);
        *cx.glob_types.borrow_mut() = Some(types.clone());
        types
    }

    /// The type an everything-import's path names (`self::Strategy`, `crate::a::Kind`):
    /// its last segment in the module the rest of the path resolves to (the import
    /// resolver's answer), or a type path resolved from the use.
    fn glob_type(&self, cx: &FileCx, from: Ix, path: &str, depth: u8) -> Option<(Ix, Confidence)> {
        let m = self.model;
        let (prefix, last) = infer::split_last(path);
        if !prefix.is_empty()
            && let Some(lang) = self.language(cx.lang)
            && let Some(fs) = target_files(m, &self.modres.resolve(lang, cx.path, prefix))
            && let Lookup::Found(t) = self.lookup_in_files(&fs, m.names.get(last)?, 0)
            && is_type_like(m.n(t).kind)
        {
            let conf = if m.n(t).file.get() == Some(cx.file) {
                Confidence::Exact
            } else {
                Confidence::Import
            };
            return Some((t, conf));
        }
        self.resolve_type(cx, from, path, depth)
    }

    /// A bare call of a local (a parameter, a variable, a closure parameter: extraction's
    /// `local`): scope wins, so never a sure edge to a definition of the same name. The
    /// value it holds may still be one of them (a function pointer taken from a table, a
    /// fixture's value): the same-named definitions the repository shows are candidates.
    fn local_call(&self, cx: &FileCx, name: Sym, kind: EdgeKind) -> Outcome {
        match self.global(cx, name, kind) {
            Outcome::Resolved(d, _) => Outcome::Candidates(vec![d]),
            other => other,
        }
    }

    fn global(&self, cx: &FileCx, name: Sym, kind: EdgeKind) -> Outcome {
        let m = self.model;
        let name_str = m.names.str(name);
        let dir = parent_dir(cx.path);
        let visible: Vec<Ix> = m
            .defs_qualified(name, name_str)
            .filter(|&d| {
                let node = m.n(d);
                node.lang == cx.lang
                    && node.file.get() != Some(cx.file)
                    && !is_value_member(m, node)
                    && fits(kind, node.kind)
                    && (node.exported || node.file.get().map(|f| m.f(f).dir()) == Some(dir))
            })
            .collect();
        match visible.len() {
            0 => Outcome::Drop,
            1 => Outcome::Resolved(visible[0], Confidence::Name),
            _ => Outcome::Candidates(self.rank_candidates(cx, visible)),
        }
    }

    fn rank_candidates(&self, cx: &FileCx, mut c: Vec<Ix>) -> Vec<Ix> {
        let m = self.model;
        let dir = parent_dir(cx.path);
        c.sort_by_cached_key(|&n| {
            let node = m.n(n);
            let path = node.file.get().map(|f| &*m.f(f).path).unwrap_or("");
            (
                node.file.get() != Some(cx.file),
                parent_dir(path) != dir,
                usize::MAX - common_prefix_segments(path, cx.path),
                m.node_id(n),
            )
        });
        c.truncate(MAX_CANDIDATES);
        c
    }

    fn resolve_qualified(
        &self,
        cx: &FileCx,
        from: Ix,
        q: &str,
        name: Sym,
        kind: EdgeKind,
        depth: u8,
    ) -> Outcome {
        if depth > MAX_DEPTH {
            return Outcome::Drop;
        }
        let m = self.model;
        let path_keyword = self.path_keyword(cx, q);
        if self.is_base_receiver(cx.file, q) {
            return self.base_member(from, name, kind);
        }
        if self.is_receiver(cx.file, q) {
            match self
                .enclosing_type(from)
                .and_then(|t| self.member(t, name, kind, 0))
            {
                Some(d) => return Outcome::Resolved(d, Confidence::Exact),
                // `self::f()`: the word is also the current module's.
                None if path_keyword.is_some() => {}
                None => return Outcome::Drop,
            }
        }
        if let Some(word) = path_keyword
            && let Some(o) = self.inline_module_path(from, word, name, kind)
        {
            return o;
        }
        // A typed local, parameter or member shadows what the file imports.
        if let Some(o) = self.member_of_typed(cx, from, q, name, kind, depth) {
            return o;
        }
        if let Some(b) = cx.bindings.get(q) {
            let l = self.binding_lookup(cx, b);
            let conf = self.binding_conf(cx, b);
            return self.member_of_lookup(cx, l, conf, name, kind, depth);
        }
        // A call's result (`ZodTuple.create(items).rest(…)`, `new X(…).f()`): the type the
        // callee's declaration says it returns, or the class a construction names.
        if let Some((callee, new)) = infer::call_callee(q) {
            let (prefix, f) = infer::split_last(callee);
            let ty = if new {
                self.resolve_type(cx, from, callee, depth + 1)
            } else if self.may_return_a_type(cx, f) {
                self.returned_type(cx, from, prefix, f, depth + 1)
            } else {
                None
            };
            return match ty.and_then(|(t, conf)| Some((self.member(t, name, kind, 0)?, conf))) {
                Some((d, conf)) => Outcome::Resolved(d, conf),
                None => Outcome::Drop,
            };
        }
        // `x.Stmt[0].Span()`: an element of a typed slice (Go's `Stmt []Expr`).
        if let Some(base) = infer::indexed(q)
            && let Some((t, conf)) = self.element_of_value(cx, from, base, true, depth + 1)
        {
            return match self.member(t, name, kind, 0) {
                Some(d) => Outcome::Resolved(d, conf),
                None => Outcome::Drop,
            };
        }
        if q.contains(['(', '[', ' ', '<', '"', '\'']) {
            return Outcome::Drop;
        }
        let segs = infer::segments(q);
        if segs.iter().any(|s| s.is_empty()) {
            return Outcome::Drop;
        }
        if let Some(first) = cx.bindings.get(segs[0])
            && matches!(first, Binding::External)
        {
            return Outcome::Drop;
        }
        // `tc.client.Lookup()`, `r.tr.ReadTiles()`: a field of a typed local or parameter,
        // typed by the field's own declaration, one segment at a time (the qualifier's head
        // must be typed by a binding fact or a signature; `self.x.y` is the receiver's case
        // below). Unresolved, the path is tried the other ways.
        if segs.len() > 1
            && !q.contains("::")
            && !q.contains("->")
            && (self
                .typed_binding(cx, cx.file, from, segs[0], cx.line.get())
                .is_some()
                || self.declared_in_scope(from, segs[0]).is_some())
            && let (prefix, last) = infer::split_last(q)
            && let Some(field) = m.names.get(last)
            && let Outcome::Resolved(p, conf) =
                self.resolve_qualified(cx, from, prefix, field, EdgeKind::References, depth + 1)
            && let o @ Outcome::Resolved(..) =
                self.member_of_value(cx, p, conf, name, kind, depth + 1)
        {
            return o;
        }
        // Open modules: a constant path (`Util::Loggable`, `Shop::SessionStore`) from the
        // namespaces around the use.
        if self.open_modules(cx)
            && let Some(o) = self.namespace_path(cx, from, &segs, name, kind, true)
        {
            return o;
        }
        // A path relative to an enclosing namespace (`internal::Slots::Count` inside
        // `shop`: `shop.internal.Slots.Count`), innermost first, where the language looks
        // names up so (`enclosing_namespace_paths`). A typed receiver (`store.get()`) was
        // settled above.
        if self.enclosing_namespace_paths(cx)
            && let Some(o) = self.namespace_path(cx, from, &segs, name, kind, true)
        {
            return o;
        }
        // `pkg.module.f()` after `import pkg`: down the package's modules.
        if segs.len() > 1
            && let Some(o) = self.module_walk(cx, q, name, kind, depth)
        {
            return o;
        }
        if segs.len() == 2 && self.is_receiver(cx.file, segs[0]) {
            // `self.store.refresh()`: the member's declared type.
            let Some(t) = self.enclosing_type(from) else {
                return Outcome::Drop;
            };
            let Some(sym) = m.names.get(segs[1]) else {
                return Outcome::Drop;
            };
            let Some(p) = self.member(t, sym, EdgeKind::References, 0) else {
                return Outcome::Drop;
            };
            return self.member_of_value(cx, p, Confidence::Exact, name, kind, depth);
        }
        if segs.len() == 1 {
            if let Some(ty) = self.declared_in_scope(from, q) {
                return match self.resolve_type(cx, from, ty, depth + 1) {
                    Some((t, conf)) => match self.member(t, name, kind, 0) {
                        Some(d) => Outcome::Resolved(d, conf),
                        None => Outcome::Drop,
                    },
                    None => Outcome::Drop,
                };
            }
            if let Some(sym) = m.names.get(q) {
                match self.resolve_bare(cx, from, sym, EdgeKind::References, depth + 1) {
                    Outcome::Resolved(v, conf) => {
                        let l = Lookup::Found(v);
                        return self.member_of_lookup(cx, l, conf, name, kind, depth);
                    }
                    Outcome::Candidates(_) | Outcome::Drop => {}
                }
                // An implicit receiver: a member of the enclosing type (`store_->refresh()`
                // in a method defined apart from the class that declares `store_`), typed by
                // its declaration wherever that is. Only when nothing else names `q`.
                if self.implicit_receiver(cx)
                    && let Some(t) = self.enclosing_type(from)
                    && let Some(p) = self.member(t, sym, EdgeKind::References, 0)
                    && p != from
                {
                    return self.member_of_value(cx, p, Confidence::Exact, name, kind, depth);
                }
            }
            return self.unknown_receiver(cx, name, kind);
        }
        // A path through the module tree (`crate::a::B`, `super::f` and the manifest's
        // path words), or a base type named by its full package path without an import
        // (`implements com.x.base.Builder<T>`).
        // A dotted path whose head names nothing in the file (`new com.x.base.Session(…)`,
        // `Builder<com.x.base.Session>`) is tried as a package path too, but only a package
        // of the repository answers: anything else (`window.location`) falls through.
        let sure_path = q.contains("::")
            || path_keyword.is_some()
            || matches!(kind, EdgeKind::Extends | EdgeKind::Implements);
        let unbound_path = segs.len() > 1 && !cx.bindings.contains_key(segs[0]);
        if sure_path || unbound_path {
            let f = m.f(cx.file);
            if let Some(lang) = self.language(f.lang) {
                let t = self.modres.resolve(lang, &f.path, q);
                match (&t, target_files(m, &t)) {
                    (_, Some(fs)) if !fs.is_empty() => {
                        let l = Lookup::Module(fs);
                        return self.member_of_lookup(cx, l, Confidence::Import, name, kind, depth);
                    }
                    (ImportTarget::External(_), _) if sure_path => return Outcome::Drop,
                    _ => {}
                }
            }
        }
        // `pkg.Type.method` / `crate::store::Type::new`: the qualifier as a type.
        if let Some((t, conf)) = self.resolve_type(cx, from, q, depth + 1) {
            return match self.member(t, name, kind, 0) {
                Some(d) => Outcome::Resolved(d, conf),
                None => Outcome::Drop,
            };
        }
        // A receiver path the map cannot type (`this._def.innerType._parse(…)`): where
        // receivers are statically typed, the name's override family may still say it.
        if !sure_path && let Some(o) = self.family_call(cx, name, kind) {
            return o;
        }
        Outcome::Drop
    }

    /// Which of the manifest's module-path words (`[imports]` `root_keyword`,
    /// `self_keyword`, `parent_keyword`) `q` is, if any.
    fn path_keyword(&self, cx: &FileCx, q: &str) -> Option<PathWord> {
        let lang = self.language(cx.lang)?;
        let word = |key: &str| lang.manifest.imports.get(key).and_then(|v| v.as_str());
        if word("self_keyword") == Some(q) {
            Some(PathWord::Current)
        } else if word("parent_keyword") == Some(q) {
            Some(PathWord::Parent)
        } else if word("root_keyword") == Some(q) {
            Some(PathWord::Root)
        } else {
            None
        }
    }

    /// `self::f` / `super::f` inside a module declared in the file (`mod tests { … }`):
    /// that module, or the one around it. `None` outside such a module (the file's own
    /// module path, which the import resolver follows).
    fn inline_module_path(
        &self,
        from: Ix,
        word: PathWord,
        name: Sym,
        kind: EdgeKind,
    ) -> Option<Outcome> {
        let m = self.model;
        let mut cur = Some(from);
        let mut module = None;
        while let Some(c) = cur {
            let n = m.n(c);
            if n.kind == NodeKind::File {
                break;
            }
            if n.kind == NodeKind::Module {
                module = Some(c);
                break;
            }
            cur = n.parent.get();
        }
        let module = module?;
        let scope = match word {
            PathWord::Current => module,
            PathWord::Parent => m.n(module).parent.get()?,
            PathWord::Root => return None,
        };
        let found = m.children_of(scope).iter().copied().find(|&c| {
            let cn = m.n(c);
            cn.name == name && fits(kind, cn.kind)
        });
        Some(match found {
            Some(d) => Outcome::Resolved(d, Confidence::Exact),
            None => Outcome::Drop,
        })
    }

    /// `pkg.module.f()` / `flask.helpers.f()` where a leading part of the qualifier is an
    /// imported module: each further segment is a symbol of the module so far (a type
    /// whose member comes next) or one of its submodules, found by the import resolver.
    fn module_walk(
        &self,
        cx: &FileCx,
        q: &str,
        name: Sym,
        kind: EdgeKind,
        depth: u8,
    ) -> Option<Outcome> {
        let m = self.model;
        let lang = self.language(cx.lang)?;
        let sep = lang
            .manifest
            .imports
            .get("separator")
            .and_then(|v| v.as_str())
            .unwrap_or(".");
        // The longest leading part that is an imported module.
        let cuts: Vec<usize> = q.match_indices(sep).map(|(i, _)| i).collect();
        let (cut, files, module) =
            cuts.iter()
                .rev()
                .find_map(|&i| match cx.bindings.get(&q[..i]) {
                    Some(Binding::Module(fs, module)) => Some((i, *fs, *module)),
                    _ => None,
                })?;
        let mut module = module.to_string();
        let mut at = Lookup::Module(files.to_vec());
        for seg in q[cut + sep.len()..].split(sep) {
            at = match at {
                Lookup::Module(fs) => {
                    let sym = m.names.get(seg);
                    match sym.map(|s| self.lookup_in_files(&fs, s, 0)) {
                        Some(found @ Lookup::Found(_)) => found,
                        _ => {
                            let from_file = &m.f(cx.file).path;
                            let t = self.modres.resolve_member(lang, from_file, &module, seg);
                            module = format!("{module}{sep}{seg}");
                            match target_files(m, &t) {
                                Some(fs) if !fs.is_empty() => Lookup::Module(fs),
                                _ => return Some(Outcome::Drop),
                            }
                        }
                    }
                }
                Lookup::Found(t) if is_type_like(m.n(t).kind) => {
                    match m
                        .names
                        .get(seg)
                        .and_then(|s| self.member(t, s, EdgeKind::References, 0))
                    {
                        Some(d) => Lookup::Found(d),
                        None => return Some(Outcome::Drop),
                    }
                }
                _ => return Some(Outcome::Drop),
            };
        }
        Some(self.member_of_lookup(cx, at, Confidence::Import, name, kind, depth))
    }

    /// `name` looked up in what a qualifier resolved to.
    fn member_of_lookup(
        &self,
        cx: &FileCx,
        l: Lookup,
        conf: Confidence,
        name: Sym,
        kind: EdgeKind,
        depth: u8,
    ) -> Outcome {
        let m = self.model;
        match l {
            Lookup::Found(n) => {
                let node = m.n(n);
                if is_type_like(node.kind) {
                    match self.member(n, name, kind, 0) {
                        Some(d) => Outcome::Resolved(d, conf),
                        None => Outcome::Drop,
                    }
                } else if node.kind == NodeKind::File {
                    self.member_of_lookup(
                        cx,
                        Lookup::Module(vec![node.file.get().unwrap_or(0)]),
                        conf,
                        name,
                        kind,
                        depth,
                    )
                } else {
                    self.member_of_value(cx, n, conf, name, kind, depth)
                }
            }
            Lookup::Module(fs) => match self.lookup_in_files(&fs, name, 0) {
                Lookup::Found(d) if fits(kind, m.n(d).kind) => {
                    Outcome::Resolved(d, conf.max(Confidence::Import))
                }
                _ => Outcome::Drop,
            },
            Lookup::External | Lookup::NotFound => Outcome::Drop,
        }
    }

    /// A member of a variable/property/constant, typed by its own declaration.
    fn member_of_value(
        &self,
        cx: &FileCx,
        v: Ix,
        conf: Confidence,
        name: Sym,
        kind: EdgeKind,
        depth: u8,
    ) -> Outcome {
        let m = self.model;
        let node = m.n(v);
        if !matches!(
            node.kind,
            NodeKind::Variable | NodeKind::Constant | NodeKind::Property
        ) {
            return Outcome::Drop;
        }
        // The type is resolved from the declaring file's point of view.
        let decl_file = node.file.get().unwrap_or(cx.file);
        let decl_cx;
        let dcx = if decl_file == cx.file {
            cx
        } else {
            decl_cx = self.file_cx(decl_file);
            &decl_cx
        };
        let own_name = m.names.str(node.name);
        let qualified_member;
        let bound_as = match node.parent.get().map(|p| m.n(p)) {
            // A field or property: bound as `self.x` / `this.x` in its type.
            Some(p) if is_type_like(p.kind) => {
                let t = node.parent.get().unwrap_or(v);
                let bs = &m.f(decl_file).bindings;
                qualified_member = bs.iter().find(|b| {
                    m.text(b.name)
                        .split_once('.')
                        .is_some_and(|(h, rest)| self.is_receiver(decl_file, h) && rest == own_name)
                        && self.enclosing_type(b.scope) == Some(t)
                });
                qualified_member.or_else(|| {
                    bs.iter()
                        .find(|b| b.scope == t && m.text(b.name) == own_name)
                })
            }
            _ => {
                let line = if decl_file == cx.file {
                    cx.line.get()
                } else {
                    NO_LINE
                };
                self.typed_binding(cx, decl_file, v, own_name, line)
            }
        };
        if let Some(b) = bound_as {
            let prefix = b.type_qualifier.get().map_or("", |q| m.text(q));
            let type_name = m.text(b.type_name);
            // A value made by a function (`var versionRE = lazyregexp.New(…)`): the type
            // its signature returns, as for a local (`member_of_typed`).
            let ty = self
                .resolve_type_parts(dcx, b.scope, prefix, type_name, depth + 1)
                .or_else(|| self.returned_type(dcx, b.scope, prefix, type_name, depth + 1));
            return match ty {
                Some((t, tconf)) => match self.member(t, name, kind, 0) {
                    Some(d) => Outcome::Resolved(d, conf.max(tconf)),
                    None => Outcome::Drop,
                },
                None => Outcome::Drop,
            };
        }
        let Some(sig) = m.signature(node) else {
            return Outcome::Drop;
        };
        let Some(ty) = infer::declared_type(sig, own_name) else {
            return Outcome::Drop;
        };
        match self.resolve_type(dcx, v, ty, depth + 1) {
            Some((t, tconf)) => match self.member(t, name, kind, 0) {
                Some(d) => Outcome::Resolved(d, conf.max(tconf)),
                None => Outcome::Drop,
            },
            None => Outcome::Drop,
        }
    }

    /// The binding fact that types `q` as seen from `from` at `line`: for `self.x`/`this.x`,
    /// one made anywhere in the same type; otherwise the innermost scope that binds the
    /// name. A binding that holds in a region (a match arm, a branch, a loop) types only
    /// the uses inside it, and before one of the whole scope (the innermost region: the
    /// latest such binding whose region holds the line); at an unknown line, none.
    fn typed_binding(
        &self,
        cx: &FileCx,
        file: Ix,
        from: Ix,
        q: &str,
        line: u32,
    ) -> Option<&'a crate::model::TypedName> {
        let m = self.model;
        let bindings = &m.f(file).bindings;
        if bindings.is_empty() {
            return None;
        }
        if let Some((head, _)) = q.split_once('.')
            && self.is_receiver(file, head)
        {
            let t = self.enclosing_type(from)?;
            return bindings
                .iter()
                .find(|b| m.text(b.name) == q && self.enclosing_type(b.scope) == Some(t));
        }
        let mut cur = Some(from);
        while let Some(c) = cur {
            let (mut region, mut whole) = (None, None);
            let mut consider = |b: &'a crate::model::TypedName| {
                if m.text(b.name) != q {
                    return;
                }
                // A local is not in scope in its own declaration (`note, err :=
                // note.Open(…)`: that `note` is still the package); a parameter, bound on
                // its function's name line, is in a one-line body.
                if b.until == NO_LINE
                    && line != NO_LINE
                    && b.line == line
                    && line > m.n(c).name_line
                {
                    return;
                }
                if b.until == NO_LINE {
                    whole = whole.or(Some(b));
                } else if line != NO_LINE
                    && (b.line..=b.until).contains(&line)
                    && region.is_none_or(|r: &crate::model::TypedName| b.line >= r.line)
                {
                    region = Some(b);
                }
            };
            match self.bindings_of_scope(cx, file, c) {
                Some(in_scope) => in_scope
                    .iter()
                    .for_each(|&(_, i)| consider(&bindings[i as usize])),
                None => bindings
                    .iter()
                    .filter(|b| b.scope == c)
                    .for_each(&mut consider),
            }
            if let Some(b) = region.or(whole) {
                return Some(b);
            }
            let n = m.n(c);
            if n.kind == NodeKind::File {
                return None;
            }
            cur = n.parent.get();
        }
        None
    }

    /// `name` as a member of the type a binding fact gives `q`; `None` when no fact types
    /// `q` (the caller tries other means), `Some(Drop)` when one does but the type or the
    /// member is not in the repository (a standard-library type, say).
    fn member_of_typed(
        &self,
        cx: &FileCx,
        from: Ix,
        q: &str,
        name: Sym,
        kind: EdgeKind,
        depth: u8,
    ) -> Option<Outcome> {
        let b = self.typed_binding(cx, cx.file, from, q, cx.line.get())?;
        let m = self.model;
        let prefix = b.type_qualifier.get().map_or("", |q| m.text(q));
        let type_name = m.text(b.type_name);
        // A part of a value (`Extension(ref s)`, `for s in &self.strats`): its type when the
        // declarations say it for sure; else the local is of unknown type (candidates).
        if let Some((ctor, field)) = infer::part(type_name) {
            let ty = if ctor.is_empty() {
                self.element_of_value(cx, b.scope, prefix, false, depth + 1)
            } else {
                self.field_of_constructor(cx, b.scope, prefix, ctor, field, depth + 1)
            };
            return Some(
                match ty.and_then(|(t, conf)| Some((self.member(t, name, kind, 0)?, conf))) {
                    Some((d, conf)) => Outcome::Resolved(d, conf),
                    None if ty.is_some() => Outcome::Drop,
                    None => self.unknown_receiver(cx, name, kind),
                },
            );
        }
        // What the binding's type names is read where it is declared (`note, err :=
        // note.Open(…)`: `note.Open` is the package's there, not the local's again).
        let at = cx.line.replace(b.line);
        let ty = self
            .resolve_type_parts(cx, b.scope, prefix, type_name, depth + 1)
            .or_else(|| self.returned_type(cx, b.scope, prefix, type_name, depth + 1));
        cx.line.set(at);
        Some(match ty {
            Some((t, conf)) => match self.member(t, name, kind, 0) {
                Some(d) => Outcome::Resolved(d, conf),
                None => Outcome::Drop,
            },
            None => Outcome::Drop,
        })
    }

    /// The element type of a value (`self.strats`, a parameter `rules`) whose declared type
    /// holds elements (`Vec<T>`, `[T; N]`, `&[T]`, `Option<T>`: `element_types` in the
    /// manifest): `T`, resolved where the value is declared.
    fn element_of_value(
        &self,
        cx: &FileCx,
        from: Ix,
        value: &str,
        indexed: bool,
        depth: u8,
    ) -> Option<(Ix, Confidence)> {
        let m = self.model;
        let lang = self.language(cx.lang)?;
        let segs = infer::segments(value);
        let (decl, text) = match segs.as_slice() {
            // `self.strats`: a field of the enclosing type.
            [recv, field] if self.is_receiver(cx.file, recv) => {
                let t = self.enclosing_type(from)?;
                let p = self.member(t, m.names.get(field)?, EdgeKind::References, 0)?;
                let sig = m.signature(m.n(p))?;
                (p, infer::declared_type_text(sig, field)?)
            }
            // A parameter of an enclosing function.
            [var] => {
                let mut cur = Some(from);
                let mut found = None;
                while let Some(c) = cur {
                    let n = m.n(c);
                    if n.kind == NodeKind::File {
                        break;
                    }
                    if is_function_like(n.kind)
                        && let Some(t) = m.signature(n).and_then(|sig| {
                            infer::declared_type_text(sig, var)
                                .or_else(|| infer::type_text_after_name(sig, var))
                        })
                    {
                        found = Some((c, t));
                        break;
                    }
                    cur = n.parent.get();
                }
                found?
            }
            // `f.Require` (Go's `for _, r := range f.Require`): a field of a typed local or
            // parameter, its type text read from the field's declaration.
            [head, field] => {
                let b = self.typed_binding(cx, cx.file, from, head, cx.line.get())?;
                let prefix = b.type_qualifier.get().map_or("", |q| m.text(q));
                let type_name = m.text(b.type_name);
                let (t, _) = self
                    .resolve_type_parts(cx, b.scope, prefix, type_name, depth + 1)
                    .or_else(|| self.returned_type(cx, b.scope, prefix, type_name, depth + 1))?;
                let p = self.member(t, m.names.get(field)?, EdgeKind::References, 0)?;
                let sig = m.signature(m.n(p))?;
                let text = infer::declared_type_text(sig, field)
                    .or_else(|| infer::type_text_after_name(sig, field))?;
                (p, text)
            }
            _ => return None,
        };
        // An index (`x.Stmt[0]`) takes an element of a slice or array only (Go's `[]T`,
        // `[N]T`, `...T`): a map's or another container's index is no element of it.
        let elem = if indexed {
            infer::slice_element(text)?
        } else {
            infer::element_type(text, &lang.manifest.element_types)?
        };
        let file = m.n(decl).file.get()?;
        let dcx;
        let dcx = if file == cx.file {
            cx
        } else {
            dcx = self.file_cx(file);
            &dcx
        };
        self.resolve_type(dcx, decl, elem, depth)
    }

    /// The type of a field of what a pattern's constructor takes apart: `Extension(ref s)`
    /// (the variant's or tuple struct's positional field `k`, as declared) or
    /// `Prefix { rule }` (the field named `k`, typed by its declaration).
    fn field_of_constructor(
        &self,
        cx: &FileCx,
        from: Ix,
        prefix: &str,
        ctor: &str,
        k: &str,
        depth: u8,
    ) -> Option<(Ix, Confidence)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = self.model;
        // `Some(x)`, `Ok(v)`: a constructor the repository does not define.
        let sym = m.names.get(ctor).filter(|&s| m.any_defs_named(s))?;
        let kind = EdgeKind::References;
        let outcome = if prefix.is_empty() {
            self.resolve_bare(cx, from, sym, kind, depth)
        } else {
            self.resolve_qualified(cx, from, prefix, sym, kind, depth)
        };
        let Outcome::Resolved(c, conf) = outcome else {
            return None;
        };
        let node = m.n(c);
        if !(is_type_like(node.kind) || node.kind == NodeKind::Constant) {
            return None;
        }
        let file = node.file.get()?;
        let fcx;
        let fcx = if file == cx.file {
            cx
        } else {
            fcx = self.file_cx(file);
            &fcx
        };
        if let Some((i, n)) = k.split_once('/') {
            let (i, n) = (i.parse().ok()?, n.parse().ok()?);
            let ty = infer::positional_type(m.signature(node)?, ctor, i, n)?;
            let (t, tconf) = self.resolve_type(fcx, c, ty, depth + 1)?;
            return Some((t, conf.max(tconf)));
        }
        let p = self.member(c, m.names.get(k)?, kind, 0)?;
        let pn = m.n(p);
        let ty = infer::declared_type(m.signature(pn)?, k)?;
        let (t, tconf) = self.resolve_type(fcx, p, ty, depth + 1)?;
        Some((t, conf.max(tconf)))
    }

    /// Whether some definition named `callee` could give its call's result a type (a
    /// class or struct, or a declared result type): most calls in a chain (`x.iter()`,
    /// `v.clone()`) name nothing of the repository's that does, and are not resolved.
    fn may_return_a_type(&self, cx: &FileCx, callee: &str) -> bool {
        let m = self.model;
        let Some(sym) = m.names.get(callee) else {
            return false;
        };
        // A partly loaded model (a CLI re-index) would load every file defining `callee`
        // (`new`: hundreds) only to answer this shortcut. `returned_type` asks the same of
        // the one definition it resolves the call to, so "some file defines it" is enough
        // to go on; not cached, as the answer is not this function's own.
        if !m.defs_named_loaded(sym) {
            return m.any_defs_named(sym);
        }
        if let Some(&known) = cx.returns_a_type.borrow().get(&sym) {
            return known;
        }
        let may = m.defs_named(sym).iter().any(|&d| {
            let node = m.n(d);
            matches!(node.kind, NodeKind::Class | NodeKind::Struct)
                || ((is_function_like(node.kind) || node.kind == NodeKind::Property)
                    && m.signature(node)
                        .is_some_and(|sig| self.return_type(node, sig, callee).is_some()))
        });
        cx.returns_a_type.borrow_mut().insert(sym, may);
        may
    }

    /// The return type a function's signature states: after its parameters, or, in a
    /// language with `return_type_before_name` (Java), before its name (where a `throws`
    /// clause after the parameters is no type).
    fn return_type<'s>(
        &self,
        node: &crate::model::Node,
        sig: &'s str,
        callee: &str,
    ) -> Option<&'s str> {
        let before = self
            .language(node.lang)
            .is_some_and(|l| l.manifest.return_type_before_name);
        if before {
            infer::return_type_before(sig, callee)
        } else {
            infer::return_type(sig, callee)
        }
    }

    /// One level of inference through a function: `c := NewContext(…)` binds `c` to the
    /// callee, which is no type; the type its signature says it returns is (resolved where
    /// the function is defined). The weaker of the two links' confidences.
    fn returned_type(
        &self,
        cx: &FileCx,
        from: Ix,
        prefix: &str,
        callee: &str,
        depth: u8,
    ) -> Option<(Ix, Confidence)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = self.model;
        let sym = m.names.get(callee)?;
        let outcome = if prefix.is_empty() {
            self.resolve_bare(cx, from, sym, EdgeKind::Calls, depth)
        } else {
            self.resolve_qualified(cx, from, prefix, sym, EdgeKind::Calls, depth)
        };
        let Outcome::Resolved(f, conf) = outcome else {
            return None;
        };
        let node = m.n(f);
        // Calling a class or struct makes (or converts to) one (`Session()`, `Wrapper(x)`).
        if is_type_like(node.kind) {
            return matches!(node.kind, NodeKind::Class | NodeKind::Struct).then_some((f, conf));
        }
        // A function, or a property holding one (`static create = (…): T => …`).
        if !(is_function_like(node.kind) || node.kind == NodeKind::Property) {
            return None;
        }
        let ret = self.return_type(node, m.signature(node)?, callee)?;
        let file = node.file.get()?;
        // `-> Self`: the type the function belongs to.
        if self.is_receiver(file, ret) {
            return self.enclosing_type(f).map(|t| (t, conf));
        }
        let fcx;
        let fcx = if file == cx.file {
            cx
        } else {
            fcx = self.file_cx(file);
            &fcx
        };
        let (t, tconf) = self.resolve_type(fcx, f, ret, depth + 1)?;
        Some((t, conf.max(tconf)))
    }

    /// A declared type for `var` in the signatures of `from` and its enclosing definitions.
    fn declared_in_scope(&self, from: Ix, var: &str) -> Option<&'a str> {
        let m = self.model;
        let mut cur = Some(from);
        while let Some(c) = cur {
            let n = m.n(c);
            if n.kind == NodeKind::File {
                return None;
            }
            if is_function_like(n.kind)
                && let Some(sig) = m.signature(n)
                && let Some(t) = infer::declared_type(sig, var)
            {
                return Some(t);
            }
            cur = n.parent.get();
        }
        None
    }

    /// Resolves a type path (`SessionStore`, `store.SessionStore`, `crate::a::T`).
    fn resolve_type(&self, cx: &FileCx, from: Ix, ty: &str, depth: u8) -> Option<(Ix, Confidence)> {
        let (prefix, last) = infer::split_last(ty);
        self.resolve_type_parts(cx, from, prefix, last, depth)
    }

    fn resolve_type_parts(
        &self,
        cx: &FileCx,
        from: Ix,
        prefix: &str,
        last: &str,
        depth: u8,
    ) -> Option<(Ix, Confidence)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let sym = self.model.names.get(last)?;
        let outcome = if prefix.is_empty() {
            self.resolve_bare(cx, from, sym, EdgeKind::Extends, depth)
        } else {
            self.resolve_qualified(cx, from, prefix, sym, EdgeKind::Extends, depth)
        };
        match outcome {
            Outcome::Resolved(t, c) if is_type_like(self.model.n(t).kind) => Some((t, c)),
            _ => None,
        }
    }

    /// `x.name()` with `x` unknown: candidates among the top-level definitions of the
    /// modules this file imports. Never exact/import/name.
    fn unknown_receiver(&self, cx: &FileCx, name: Sym, kind: EdgeKind) -> Outcome {
        let m = self.model;
        let reach = self.reachable(cx);
        // Statically typed receivers (`dispatch_families`): the methods of the name in this
        // file and the files it reaches, when they are one override family, say which
        // method the call is (the family's root), whatever the receiver's type.
        if let Some(root) = self.family_call(cx, name, kind) {
            return root;
        }
        if reach.is_empty() {
            return Outcome::Drop;
        }
        let name_str = m.names.str(name);
        // Languages whose functions all live in types (manifest `member_candidates`): a
        // method of a type the file can see is as likely as a top-level function.
        let members = self
            .language(cx.lang)
            .is_some_and(|l| l.manifest.member_candidates);
        let in_reach = |n: Ix| m.n(n).file.get().is_some_and(|f| reach.contains(&f));
        let mut c: Vec<Ix> = m
            .defs_named_in(name, reach)
            .filter(|&n| {
                let node = m.n(n);
                let top_level = m.qname(node) == name_str;
                let member =
                    members && node.parent.get().is_some_and(|p| is_type_like(m.n(p).kind));
                in_reach(n) && (top_level || member) && fits(kind, node.kind)
            })
            .collect();
        if c.is_empty() {
            // Where the reachable modules hold no such function, the receiver may be an
            // instance of one of their types (`$checker->validate()` with `$checker` one of
            // two classes): that name's methods there, still only candidates.
            c = m
                .defs_named_in(name, reach)
                .filter(|&n| {
                    let node = m.n(n);
                    in_reach(n)
                        && node.kind == NodeKind::Method
                        && node.parent.get().is_some_and(|p| is_type_like(m.n(p).kind))
                        && fits(kind, node.kind)
                })
                .collect();
        }
        if c.is_empty() {
            return Outcome::Drop;
        }
        Outcome::Candidates(self.rank_candidates(cx, c))
    }

    /// In a language with `dispatch_families`, a call of `name` on a receiver the map
    /// cannot type, when the methods of that name in this file and the files it reaches
    /// are one override family: a call of the family's root, at `name` tier.
    fn family_call(&self, cx: &FileCx, name: Sym, kind: EdgeKind) -> Option<Outcome> {
        let m = self.model;
        let lang = self.language(cx.lang)?;
        if !lang.manifest.dispatch_families {
            return None;
        }
        let methods: Vec<Ix> = m
            .defs_named_in(name, self.reachable(cx))
            .chain(m.defs_named_in_file(name, cx.file))
            .filter(|&n| {
                let node = m.n(n);
                node.lang == cx.lang && is_function_like(node.kind) && fits(kind, node.kind)
            })
            .collect();
        let root = self.family_root(&methods, name)?;
        Some(Outcome::Resolved(root, Confidence::Name))
    }

    /// The method every one of `methods` overrides or is: declared (once) in a type from
    /// which each method's type derives (resolved extends/implements edges), the nearest
    /// such to the first method's type. `None` when some method is not a member of a type,
    /// when no common type declares the name, or when there are fewer than two methods
    /// (a single method is no evidence of a family: the receiver may be of a type the map
    /// does not know).
    fn family_root(&self, methods: &[Ix], name: Sym) -> Option<Ix> {
        let m = self.model;
        if methods.len() < 2 {
            return None;
        }
        let owners: Vec<Ix> = methods
            .iter()
            .map(|&d| m.n(d).parent.get().filter(|&p| is_type_like(m.n(p).kind)))
            .collect::<Option<_>>()?;
        let lines: Vec<Vec<Ix>> = owners.iter().map(|&o| self.type_and_bases(o)).collect();
        lines[0].iter().copied().find_map(|base| {
            let mut declared = m
                .children_of(base)
                .iter()
                .copied()
                .filter(|&ch| m.n(ch).name == name && is_function_like(m.n(ch).kind));
            let root = declared.next()?;
            // Overloads in the root type: which one is called is not the family's to say.
            if declared.next().is_some() {
                return None;
            }
            lines.iter().all(|l| l.contains(&base)).then_some(root)
        })
    }

    /// Where interfaces are satisfied structurally (`structural_interfaces`: Go), the
    /// methods a call of the interface method `im` may run: for each method of its name
    /// declared for a type of the repository (not an interface), the one whose type's
    /// method set holds every method of the interface — its own and its embedded
    /// interfaces' — by name: the type's methods (value and pointer receivers alike) and
    /// those promoted from its embedded types (`member`). An interface with an unexported
    /// method is implemented only in its own package (directory). None when the
    /// interface embeds a type the map knows and is no interface (a constraint's), nor
    /// when more than [`MAX_IMPLEMENTATIONS`] types implement it.
    fn implementations(&self, cx: &FileCx, im: Ix) -> std::rc::Rc<[Ix]> {
        let m = self.model;
        let none = || std::rc::Rc::from(Vec::new());
        let n = m.n(im);
        let Some(iface) = n
            .parent
            .get()
            .filter(|&p| m.n(p).kind == NodeKind::Interface)
        else {
            return none();
        };
        if n.kind != NodeKind::Method
            || !self
                .language(n.lang)
                .is_some_and(|l| l.manifest.structural_interfaces)
        {
            return none();
        }
        if let Some(known) = cx.implementations.borrow().get(&im) {
            return known.clone();
        }
        let found: std::rc::Rc<[Ix]> = self.implementers(iface, im).unwrap_or_default().into();
        cx.implementations.borrow_mut().insert(im, found.clone());
        found
    }

    fn implementers(&self, iface: Ix, im: Ix) -> Option<Vec<Ix>> {
        let m = self.model;
        let i = m.n(iface);
        let mut names = Vec::new();
        self.interface_methods(iface, &mut names, 0)?;
        let exported = |s: Sym| {
            m.names
                .str(s)
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
        };
        let same_package = names.iter().any(|&s| !exported(s));
        let idir = i.file.get().map(|f| m.f(f).dir());
        let mut found: Vec<Ix> = Vec::new();
        let mut types: Vec<Ix> = Vec::new();
        for &d in m.defs_named(m.n(im).name) {
            let dn = m.n(d);
            if d == im || dn.lang != i.lang || dn.kind != NodeKind::Method {
                continue;
            }
            let Some(ty) = self.enclosing_type(d) else {
                continue;
            };
            if m.n(ty).kind == NodeKind::Interface || types.contains(&ty) {
                continue;
            }
            if same_package && m.n(ty).file.get().map(|f| m.f(f).dir()) != idir {
                continue;
            }
            let has_all = names.iter().all(|&s| {
                self.member(ty, s, EdgeKind::Calls, 0)
                    .is_some_and(|x| is_function_like(m.n(x).kind))
            });
            if has_all {
                types.push(ty);
                found.push(d);
            }
        }
        (found.len() <= MAX_IMPLEMENTATIONS).then_some(found)
    }

    /// The names of an interface's methods, its embedded interfaces' included; `None`
    /// when it embeds something the map does not know as an interface.
    fn interface_methods(&self, iface: Ix, out: &mut Vec<Sym>, depth: u8) -> Option<()> {
        let m = self.model;
        if depth > MAX_BASE_DEPTH {
            return None;
        }
        for &c in m.children_of(iface) {
            let cn = m.n(c);
            if cn.kind == NodeKind::Method && !out.contains(&cn.name) {
                out.push(cn.name);
            }
        }
        for e in &m.out[iface as usize] {
            if matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements) {
                if e.conf == Confidence::Candidate || m.n(e.other).kind != NodeKind::Interface {
                    return None;
                }
                self.interface_methods(e.other, out, depth + 1)?;
            }
        }
        Some(())
    }

    /// `ty` and the types it derives from through resolved extends/implements edges,
    /// nearest first (breadth-first, at most [`MAX_DEPTH`] levels up).
    fn type_and_bases(&self, ty: Ix) -> Vec<Ix> {
        let m = self.model;
        let mut seen = vec![ty];
        let mut level = vec![ty];
        for _ in 0..MAX_DEPTH {
            let mut next = Vec::new();
            for &t in &level {
                for e in &m.out[t as usize] {
                    if matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements)
                        && e.conf != Confidence::Candidate
                        && !seen.contains(&e.other)
                    {
                        seen.push(e.other);
                        next.push(e.other);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        seen
    }
}

/// One edge per (source, target, kind): the most certain, at the first line.
pub(crate) fn dedup_edges(edges: &mut Vec<NewEdge>) {
    edges.sort_by_key(|e| (e.src, e.dst, e.kind, e.conf, e.line));
    edges.dedup_by(|b, a| a.src == b.src && a.dst == b.dst && a.kind == b.kind);
    // A reference resolved for sure does not also keep the same target as a candidate.
    let _ = NO_LINE;
}
