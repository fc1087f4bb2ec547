//! Extension functions (a manifest's `extension_functions`): `fun String.toHttpUrl()` is
//! qualified by the type it extends (`String.toHttpUrl`), so a receiver whose type the map
//! knows finds it as a member declared apart from that type (`Resolver::member`). Where the
//! receiver's type is unknown (`"…".toHttpUrl()`, a library's value, a call chain), the one
//! visible extension of that name is the callee: `import` when the file imports that name
//! from the extension's file, else `name`; several are candidates.

use super::{Binding, Confidence, EdgeKind, FileCx, Ix, NodeKind, Outcome, Resolver, Sym, fits};
use crate::model::{Node, is_function_like, is_type_like, parent_dir};

impl Resolver<'_> {
    /// Whether the file's language has extension functions (manifest
    /// `extension_functions`).
    pub(super) fn extension_functions(&self, cx: &FileCx) -> bool {
        self.language(cx.lang)
            .is_some_and(|l| l.manifest.extension_functions)
    }

    /// The extension function `name` called on a receiver of unknown type, if one is.
    pub(super) fn extension_call(&self, cx: &FileCx, name: Sym) -> Option<Outcome> {
        let m = self.model;
        let dir = parent_dir(cx.path);
        let found: Vec<Ix> = m
            .defs_named_where(name, |n| {
                n.lang == cx.lang
                    && fits(EdgeKind::Calls, n.kind)
                    && self.declared_apart(n)
                    && (n.exported || n.file.get().map(|f| m.f(f).dir()) == Some(dir))
            })
            .collect();
        match found.len() {
            0 => None,
            1 => {
                let d = found[0];
                let imported = matches!(
                    cx.bindings.get(m.names.str(name)),
                    Some(Binding::Symbol { files, .. }) if m.n(d).file.get().is_some_and(|f| files.contains(&f))
                );
                let conf = if imported {
                    Confidence::Import
                } else {
                    Confidence::Name
                };
                Some(Outcome::Resolved(d, conf))
            }
            _ => Some(Outcome::Candidates(self.rank_candidates(cx, found))),
        }
    }

    /// An extension function at the top level of its file (`fun String.toHttpUrl()`):
    /// what `import a.b.toHttpUrl` names, although its qualified name is the type's.
    pub(super) fn top_level_extension(&self, n: &Node) -> bool {
        let m = self.model;
        n.parent
            .get()
            .is_some_and(|p| m.n(p).kind == NodeKind::File)
            && self.declared_apart(n)
            && self
                .language(n.lang)
                .is_some_and(|l| l.manifest.extension_functions)
    }

    /// A function qualified by a type it is declared apart from: its parent is no type
    /// (the type is elsewhere), or its lines are outside the type's (after it in the file).
    fn declared_apart(&self, n: &Node) -> bool {
        let m = self.model;
        if !is_function_like(n.kind) || !m.qname(n).contains('.') {
            return false;
        }
        match n.parent.get().map(|p| m.n(p)) {
            Some(p) if is_type_like(p.kind) => {
                n.start_line > p.end_line || n.end_line < p.start_line
            }
            _ => true,
        }
    }
}
