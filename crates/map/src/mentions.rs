//! Reconciliation: the mentions of a symbol's name that the map did not link to it.
//!
//! Every answer about the uses of a symbol (callers, references, importers, implementers)
//! lists the edges resolution made. Resolution drops what it cannot place (a call on a
//! receiver of unknown type in a file that imports nothing defining the name, a method
//! passed as a value, `getattr(obj, "name")`). This module compares the edges into a node
//! with the mention index (the refs and mentions of every file that names it) and returns
//! what is left, minus what is provably something else. The rule (docs/answers.md,
//! "Unlinked mentions"):
//!
//! - **linked**: the mention's enclosing definition has an edge of the mention's kind to
//!   the target (calls for a call, extends/implements for a base, references for a type
//!   use, any for a value); an imported name, when the import resolved to the target's file
//!   or a use in the importing file resolved to the target;
//! - **excluded**, provably something else:
//!   1. *linked elsewhere*: the same enclosing definition has a non-candidate edge at that
//!      line to another definition of that name, and the mentions there with the same
//!      qualifier go with it (`x.get()` resolved to `Cache.get` is not a use of
//!      `Store.get`), unless that definition is a member of a type the target's type
//!      derives from (`input.path` linked to `Input.path` may reach `Lazy.path` when
//!      `Lazy implements Input`); for an import, a use in the file resolved for sure
//!      elsewhere;
//!   2. *a receiver of a known other type*: the qualifier is a name bound to a type
//!      (`s: Cache`, `s = Cache()`) that is not the target's type nor one of its subtypes
//!      or supertypes (a receiver typed as an interface the target's type implements may
//!      hold the target's type)
//!      (for a function outside any type: any type);
//!   3. *a local binding*: a bare name bound inside the enclosing function (a parameter,
//!      a local variable, a closure parameter, a typed binding);
//!   4. *another package's name*: an import from an external module.
//!
//!   Definitions of other symbols are never mentions: extraction leaves them out.
//! - **unlinked**: the rest.

/// A fast hasher (foldhash): these sets are hashed per occurrence, and SipHash was a tenth
/// of an answer about a popular name's uses.
type HashSet<T> = foldhash::HashSet<T>;

use crate::db::{Uses, UsesOf, UsesReader};
use crate::error::MapError;
use crate::model::{Ix, MentionKind, Model, Sym, Target, is_function_like, is_type_like};
use crate::types::{MentionCheck, MentionSite};
use crate::{Confidence, EdgeKind, NodeKind, State};

/// One occurrence to check, whether it came from a ref or a mention.
struct Occurrence<'m> {
    from: Ix,
    /// The edge kinds that would link it (empty = any).
    links: &'static [EdgeKind],
    qualifier: Option<&'m str>,
    line: u32,
    col: u32,
    kind: &'static str,
    /// For an import: where the statement leads.
    import: Option<&'m Target>,
    /// A bare call of a local (a parameter, a variable, a closure parameter).
    local: bool,
}

fn ref_links(kind: EdgeKind) -> (&'static [EdgeKind], &'static str) {
    match kind {
        EdgeKind::Calls => (&[EdgeKind::Calls], "call"),
        EdgeKind::Extends | EdgeKind::Implements => {
            (&[EdgeKind::Extends, EdgeKind::Implements], "base")
        }
        _ => (&[EdgeKind::References], "reference"),
    }
}

impl State {
    /// The references and mentions of file `fix` that `which` selects: the model's, or
    /// the database's when the model left them there (`FileRec::uses_on_disk`).
    pub(crate) fn uses(
        &self,
        reader: Option<&UsesReader>,
        fix: Ix,
        which: UsesOf,
    ) -> crate::error::Result<Uses> {
        let f = self.model.f(fix);
        if !f.uses_on_disk {
            return Ok(Uses {
                refs: f
                    .refs
                    .iter()
                    .filter(|r| which.keeps(r.from, r.name))
                    .collect(),
                mentions: f
                    .mentions
                    .iter()
                    .filter(|x| which.keeps(x.from, x.name))
                    .collect(),
            });
        }
        match reader {
            Some(r) => r.read(&self.model, self.meta.generation, fix, which),
            None => Err(MapError::Internal(format!(
                "the uses of {} are in the database and the map has no reader for them",
                f.path
            ))),
        }
    }

    /// Whether `ty` embeds a type that no sure edge resolved (`struct { *bufio.Writer }`:
    /// a type outside the repository), so that its method set holds methods the map does
    /// not know.
    fn embeds_unknown(&self, reader: Option<&UsesReader>, ty: Ix) -> crate::error::Result<bool> {
        let m = &self.model;
        let Some(file) = m.n(ty).file.get() else {
            return Ok(false);
        };
        let uses = self.uses(reader, file, UsesOf::From(ty))?;
        Ok(uses.refs.iter().any(|r| {
            r.kind == EdgeKind::Extends
                && !m.out[ty as usize].iter().any(|e| {
                    matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements)
                        && e.conf != Confidence::Candidate
                        && e.line == r.line
                        && m.n(e.other).name == r.name
                })
        }))
    }

    /// The mentions of `id`'s name that no edge links to it and no rule excludes, with
    /// the counts of linked and excluded ones. File and module nodes have no mentions to
    /// check (their uses are imports by path). `reader` reads the files whose references
    /// and mentions the model left in the database.
    pub(crate) fn mention_check(
        &self,
        id: &str,
        reader: Option<&UsesReader>,
        structural: &dyn Fn(&str) -> bool,
    ) -> crate::error::Result<MentionCheck> {
        self.require_built()?;
        let target = self.lookup(id)?;
        let m = &self.model;
        let t = m.n(target);
        let mut out = MentionCheck::default();
        if !t.is_def() {
            return Ok(out);
        }
        let sym = t.name;
        let owner = t.parent.get().filter(|&p| is_type_like(m.n(p).kind));
        // Rule 2's related types: a receiver typed as a subtype, or as a supertype (an
        // interface the target's type implements: the call may dispatch to the target).
        let subtypes = owner
            .map(|o| {
                let mut related = subtypes(m, o);
                related.extend(supertypes(m, o));
                related
            })
            .unwrap_or_default();
        // Rule 1's exception: a use linked to a member of a type the target's type derives
        // from (`input.path` with `input: Input`, linked to `Input.path`) may dispatch to
        // the target (`Lazy.path`, `Lazy implements Input`).
        let mut bases = owner.map(|o| supertypes(m, o)).unwrap_or_default();
        // Where interfaces are satisfied structurally (`structural_interfaces`: Go), no edge
        // says which the target's type implements: every interface declaring a method of
        // the target's name may hold it (`s.ops.Lookup(…)` linked to `ServerOps.Lookup`
        // may run `TestServer.Lookup`). Both exceptions above apply to them.
        // The other way, an interface's method is run by a call linked to any type's
        // method of its name (`line.Comment()` linked to `Comments.Comment`, promoted into
        // `Line`, which satisfies `Expr`: gopls lists it as a use of `Expr.Comment`).
        // Any receiver's type may satisfy it, through a method of its own or one promoted
        // from an embedded type (`Line` embeds `Comments`): rule 2 proves nothing then.
        let mut subtypes = subtypes;
        let mut any_receiver = false;
        // Whether the target's type may hold methods the map cannot see: one promoted from
        // an embedded type outside the repository (`struct { *bufio.Writer }`). The map's
        // method sets (`Resolver::implementers`) then cannot rule the type out of an
        // interface, so a call through one is not proof of another definition (rule 1).
        let mut open_method_set = false;
        if let Some(o) = owner
            && t.file
                .get()
                .is_some_and(|f| structural(m.lang(m.f(f).lang)))
        {
            let of_interface = m.n(o).kind == NodeKind::Interface;
            open_method_set = !of_interface && self.embeds_unknown(reader, o)?;
            any_receiver = of_interface;
            for &d in m.defs_named(sym) {
                if let Some(p) = m.n(d).parent.get()
                    && is_type_like(m.n(p).kind)
                    && (of_interface || m.n(p).kind == NodeKind::Interface)
                {
                    bases.insert(p);
                    subtypes.insert(p);
                }
            }
        }
        let target_dir = t
            .file
            .get()
            .map(|f| m.f(f).dir().to_string())
            .unwrap_or_default();
        for fix in m.files_mentioning(sym) {
            let f = m.f(fix);
            let uses = self.uses(reader, fix, UsesOf::Name(sym))?;
            let occurrences = occurrences(m, fix, sym, &uses);
            // Rule 1: (enclosing, qualifier) pairs whose use resolved to another definition.
            let elsewhere: HashSet<(Ix, Option<&str>)> = occurrences
                .iter()
                .filter(|o| linked_elsewhere(m, o, sym, target, &bases, open_method_set))
                .map(|o| (o.from, o.qualifier))
                .collect();
            for o in &occurrences {
                let linked = match o.import {
                    Some(to) => import_linked(m, fix, to, target),
                    None => linked(m, o, target),
                };
                let from = m.n(o.from);
                let site = MentionSite {
                    file: f.path.to_string(),
                    line: o.line + 1,
                    col: o.col + 1,
                    kind: o.kind,
                    // The node the map's edges start at: a definition or an inline module
                    // (`mod tests { m!(…); }`), the file only at file level.
                    enclosing: (from.kind != NodeKind::File).then(|| m.node_id(o.from)),
                };
                if linked {
                    out.linked += 1;
                    out.linked_sites.push(site);
                    continue;
                }
                let excluded = elsewhere.contains(&(o.from, o.qualifier))
                    || o.import.is_some_and(|to| import_elsewhere(m, fix, to, sym))
                    || (!any_receiver && other_typed_receiver(m, fix, o, owner, &subtypes))
                    || local_binding(m, fix, o, sym);
                if excluded {
                    out.excluded += 1;
                    continue;
                }
                out.unlinked.push(site);
            }
        }
        // Ranked: the target's own directory first (nearest code is likeliest to use it),
        // then calls before other kinds, then by file and position.
        out.unlinked.sort_by(|a, b| {
            let near = |u: &MentionSite| crate::model::parent_dir(&u.file) != target_dir;
            let kind = |u: &MentionSite| u.kind != "call";
            (near(a), kind(a), &a.file, a.line, a.col).cmp(&(
                near(b),
                kind(b),
                &b.file,
                b.line,
                b.col,
            ))
        });
        Ok(out)
    }
}

/// The refs and mentions of `sym` in one file (`uses`: the file's).
fn occurrences<'m>(m: &'m Model, fix: Ix, sym: Sym, uses: &Uses) -> Vec<Occurrence<'m>> {
    let f = m.f(fix);
    let mut out = Vec::new();
    for r in uses.refs.iter().filter(|r| r.name == sym) {
        let (links, kind) = ref_links(r.kind);
        out.push(Occurrence {
            from: r.from,
            links,
            qualifier: r.qualifier.map(|q| m.names.str(q)),
            line: r.line,
            col: r.col,
            kind,
            import: None,
            local: r.local,
        });
    }
    for mention in uses.mentions.iter().filter(|x| x.name == sym) {
        let (links, kind, import): (&'static [EdgeKind], _, _) = match mention.kind {
            MentionKind::Import => {
                let target = f
                    .imports
                    .iter()
                    .find(|i| i.line == mention.line && i.names.iter().any(|(n, _)| *n == sym))
                    .map(|i| &i.target);
                (&[EdgeKind::Imports], "import", target)
            }
            MentionKind::Value | MentionKind::Text => (&[], "value", None),
        };
        out.push(Occurrence {
            from: mention.from,
            links,
            qualifier: mention.qualifier.map(|q| m.names.str(q)),
            line: mention.line,
            col: mention.col,
            kind,
            import,
            local: false,
        });
    }
    out
}

fn linked(m: &Model, o: &Occurrence, target: Ix) -> bool {
    m.out[o.from as usize]
        .iter()
        .any(|e| e.other == target && (o.links.is_empty() || o.links.contains(&e.kind)))
}

/// An import of the name is linked when the map resolved the statement to the target's
/// file (imports are edges between files), or when a use in the importing file was
/// resolved to the target (through a re-export).
fn import_linked(m: &Model, fix: Ix, to: &Target, target: Ix) -> bool {
    let target_file = m.n(target).file.get();
    if let Target::Files(files) = to
        && target_file.is_some_and(|tf| files.contains(&tf))
    {
        return true;
    }
    m.file_nodes(fix)
        .into_iter()
        .any(|n| m.out[n as usize].iter().any(|e| e.other == target))
}

/// Rule 4 and rule 1 for imports: the statement imports from another package, or leads
/// to other files and a use in this file was resolved for sure to another definition of
/// the name.
fn import_elsewhere(m: &Model, fix: Ix, to: &Target, sym: Sym) -> bool {
    match to {
        Target::External(_) => true,
        Target::Unresolved => false,
        Target::Files(_) => m.file_nodes(fix).into_iter().any(|n| {
            m.out[n as usize]
                .iter()
                .any(|e| e.conf != Confidence::Candidate && m.n(e.other).name == sym)
        }),
    }
}

/// Rule 1: an edge from the same enclosing definition, at this line, to another
/// definition of the name, resolved for sure. A variant of the target (the same qualified
/// name in the same file, `f` and `f~2`: a function defined in each branch of an `#if`)
/// is not another definition: which one the use reaches is the build's choice; nor is a
/// member of one of `bases` (the types the target's type derives from), which the use may
/// reach by dispatch. Where the target's type has an open method set (`open`: it embeds a
/// type the map does not know), a use linked to a member of one of `bases` (a call through
/// an interface) may reach the target whatever else it is linked to: the map's list of the
/// interface's implementers could not hold the target's type.
fn linked_elsewhere(
    m: &Model,
    o: &Occurrence,
    sym: Sym,
    target: Ix,
    bases: &HashSet<Ix>,
    open: bool,
) -> bool {
    let t = m.n(target);
    let sure_here = |e: &&crate::model::Edge| {
        e.line == o.line && e.conf != Confidence::Candidate && m.n(e.other).name == sym
    };
    let of_a_base = |e: &&crate::model::Edge| {
        m.n(e.other)
            .parent
            .get()
            .is_some_and(|p| bases.contains(&p))
    };
    let edges = &m.out[o.from as usize];
    if open && edges.iter().filter(sure_here).any(|e| of_a_base(&e)) {
        return false;
    }
    edges.iter().filter(sure_here).any(|e| {
        let other = m.n(e.other);
        e.other != target && !(other.file == t.file && other.qname == t.qname) && !of_a_base(&e)
    })
}

/// The types that derive from `ty` (resolved extends/implements edges, transitively).
fn subtypes(m: &Model, ty: Ix) -> HashSet<Ix> {
    let mut seen: HashSet<Ix> = [ty].into_iter().collect();
    let mut todo = vec![ty];
    while let Some(t) = todo.pop() {
        for e in &m.inc[t as usize] {
            if matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements)
                && e.conf != Confidence::Candidate
                && seen.insert(e.other)
            {
                todo.push(e.other);
            }
        }
    }
    seen
}

/// The types `ty` derives from (resolved extends/implements edges, transitively).
fn supertypes(m: &Model, ty: Ix) -> HashSet<Ix> {
    let mut seen: HashSet<Ix> = [ty].into_iter().collect();
    let mut todo = vec![ty];
    while let Some(t) = todo.pop() {
        for e in &m.out[t as usize] {
            if matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements)
                && e.conf != Confidence::Candidate
                && seen.insert(e.other)
            {
                todo.push(e.other);
            }
        }
    }
    seen
}

/// Rule 2: the qualifier is a name bound to a type that is neither the target's type nor
/// one of its subtypes or supertypes. A bound type the map does not know is not proof (it may be an
/// alias of the target's type), nor is a callee whose result type is unknown.
fn other_typed_receiver(
    m: &Model,
    fix: Ix,
    o: &Occurrence,
    owner: Option<Ix>,
    subtypes: &HashSet<Ix>,
) -> bool {
    let Some(q) = o.qualifier else { return false };
    let Some(b) = binding_in_scope(m, fix, o.from, q) else {
        return false;
    };
    let Some(ty) = m.names.get(m.text(b.type_name)) else {
        return false;
    };
    let types: Vec<Ix> = m
        .defs_named(ty)
        .iter()
        .copied()
        .filter(|&d| is_type_like(m.n(d).kind))
        .collect();
    if types.is_empty() {
        return false;
    }
    match owner {
        // A function outside any type is never a member of a typed receiver.
        None => true,
        Some(_) => types.iter().all(|d| !subtypes.contains(d)),
    }
}

/// Rule 3: a bare name bound inside the enclosing function: a call extraction found to be
/// of a local (a parameter, a variable, a closure parameter), or a name with a typed
/// binding there. (A bare value use of a local is no mention at all: extraction leaves
/// it out.)
fn local_binding(m: &Model, fix: Ix, o: &Occurrence, sym: Sym) -> bool {
    if o.qualifier.is_some() {
        return false;
    }
    if o.local {
        return true;
    }
    let name = m.names.str(sym);
    binding_in_scope(m, fix, o.from, name).is_some_and(|b| is_function_like(m.n(b.scope).kind))
}

/// The binding of `name` visible from `from`: the innermost scope first, up to the file.
fn binding_in_scope<'m>(
    m: &'m Model,
    fix: Ix,
    from: Ix,
    name: &str,
) -> Option<&'m crate::model::TypedName> {
    let bindings = &m.f(fix).bindings;
    let mut cur = Some(from);
    while let Some(c) = cur {
        if let Some(b) = bindings
            .iter()
            .find(|b| b.scope == c && m.text(b.name) == name)
        {
            return Some(b);
        }
        cur = m.n(c).parent.get();
    }
    None
}
