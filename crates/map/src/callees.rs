//! The other half of reconciliation: the calls *from* a definition that the map did not
//! link (`Map::callee_check`), for answers about what a node calls (`map_neighbors`
//! `out`, `nav_callHierarchy` outgoing). A call in the node's own text whose name some
//! definition of the map carries, and that no `calls` edge from the node at that line
//! links (a call on an untyped receiver with several candidates, `getattr(obj, "name")()`),
//! is listed; a name no definition of the map carries is a call into a library or a
//! builtin, and is not (docs/answers.md, "Unlinked mentions").

use crate::db::{UsesOf, UsesReader};
use crate::model::{Ix, MentionKind, Model, is_function_like};
use crate::types::{MentionCheck, MentionSite};
use crate::{EdgeKind, State};

impl State {
    /// The calls and value uses in `id`'s own text whose names the map defines: linked
    /// (a `calls` edge from it at that line to a definition of that name, any confidence)
    /// or not. Empty for a file or module node. `reader` reads the file's references and
    /// mentions when the model left them in the database.
    pub(crate) fn callee_check(
        &self,
        id: &str,
        reader: Option<&UsesReader>,
    ) -> crate::error::Result<MentionCheck> {
        self.require_built()?;
        let node = self.lookup(id)?;
        let m = &self.model;
        let n = m.n(node);
        let mut out = MentionCheck::default();
        let (true, Some(fix)) = (n.is_def(), n.file.get()) else {
            return Ok(out);
        };
        let f = m.f(fix);
        let site = |line: u32, col: u32, kind: &'static str| MentionSite {
            file: f.path.to_string(),
            line: line + 1,
            col: col + 1,
            kind,
            enclosing: Some(m.node_id(node)),
        };
        let uses = self.uses(reader, fix, UsesOf::From(node))?;
        let calls = uses
            .refs
            .iter()
            .filter(|r| r.from == node && r.kind == EdgeKind::Calls)
            .filter(|r| !m.defs_named(r.name).is_empty())
            .map(|r| (r.name, r.line, r.col, "call"));
        // A value use (a callback, `getattr(obj, "name")`) of a function the map defines.
        let values = uses
            .mentions
            .iter()
            .filter(|x| x.from == node && x.kind != MentionKind::Import)
            .filter(|x| {
                m.defs_named(x.name)
                    .iter()
                    .any(|&d| is_function_like(m.n(d).kind))
            })
            .map(|x| (x.name, x.line, x.col, "value"));
        for (name, line, col, kind) in calls.chain(values) {
            if linked(m, node, name, line) {
                out.linked += 1;
                out.linked_sites.push(site(line, col, kind));
            } else {
                out.unlinked.push(site(line, col, kind));
            }
        }
        out.unlinked.sort_by_key(|s| (s.line, s.col));
        out.linked_sites.sort_by_key(|s| (s.line, s.col));
        Ok(out)
    }
}

/// An edge from `node` at `line` to a definition named `name` (any kind: a value use may
/// be linked as a reference).
fn linked(m: &Model, node: Ix, name: crate::model::Sym, line: u32) -> bool {
    m.out[node as usize]
        .iter()
        .any(|e| e.line == line && m.n(e.other).name == name)
}
