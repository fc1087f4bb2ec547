//! Names bound in a local scope: parameters, local variables, closure and lambda
//! parameters, loop variables (`@local.name` in `bindings.scm`, with an optional
//! `@local.scope`: the node they are visible in; without it, the innermost function or
//! method around the name). A bare use of such a name inside that scope is the local, not
//! a definition of the same name elsewhere: scope wins over a global name match (a
//! parameter `make_user` called as `make_user()` is not the function `make_user` of
//! another file). Capture conventions: `grammars/README.md`.

use std::collections::HashMap;

use crate::defs::Defs;
use crate::facts::NodeKind;
use crate::ids::IdSet;
use crate::matches::Matches;
use crate::text::node_text;

/// A byte range `[start, end)`.
type Range = (usize, usize);

/// The local names of one file, each with the byte ranges it is visible in.
#[derive(Default)]
pub struct Locals {
    scopes: HashMap<String, Vec<(usize, usize)>>,
    /// Where each local name is declared (its name's first byte), with the range it is
    /// visible in.
    declared: HashMap<String, Vec<(usize, Range)>>,
}

impl Locals {
    /// Whether a bare use of `name` at byte `at` names a local binding.
    pub fn shadows(&self, name: &str, at: usize) -> bool {
        self.scopes
            .get(name)
            .is_some_and(|ranges| ranges.iter().any(|&(s, e)| s <= at && at < e))
    }

    /// The declarations (their names' first bytes) of the locals `name` visible at byte `at`.
    pub fn declared_at(&self, name: &str, at: usize) -> impl Iterator<Item = usize> {
        self.declared
            .get(name)
            .into_iter()
            .flatten()
            .filter(move |(_, (s, e))| *s <= at && at < *e)
            .map(|(d, _)| *d)
    }
}

pub fn extract(matches: &Matches, imports: &Matches, source: &str, defs: &Defs) -> Locals {
    let mut out = Locals::default();
    // A local bound by an import (`const x = require("./x")` in a function) names what the
    // import resolves to: resolution follows the import as for any imported name.
    let imported: IdSet = imports
        .iter()
        .flat_map(|m| {
            m.all("import.name")
                .chain(m.all("import.alias"))
                .chain(m.all("import.module_alias"))
        })
        .map(|n| n.id())
        .collect();
    // A name that a pattern gives its own scope (a closure's parameter) is visible there
    // only, even when a more general pattern (any parameter list) matches it too.
    let scoped: IdSet = matches
        .iter()
        .filter(|m| m.get("local.scope").is_some())
        .filter_map(|m| m.get("local.name"))
        .map(|n| n.id())
        .collect();
    for m in matches {
        let Some(name) = m.get("local.name") else {
            continue;
        };
        if m.get("local.scope").is_none() && scoped.contains(&name.id()) {
            continue;
        }
        // A name that is a definition (a nested function, a local class) is found by the
        // scope walk of resolution, which links its uses: it must stay a use.
        if defs.not_refs.contains(&name.id()) || imported.contains(&name.id()) {
            continue;
        }
        let text = node_text(&name, source).trim();
        if text.is_empty() || text == "_" {
            continue;
        }
        let range = match m.get("local.scope") {
            Some(scope) => (scope.start_byte(), scope.end_byte()),
            None => {
                let Some(i) = defs.innermost(name.start_byte(), name.end_byte()) else {
                    continue;
                };
                // Names bound in a type's or the file's body are members and globals,
                // which resolution knows as definitions.
                if !matches!(defs.facts[i].kind, NodeKind::Function | NodeKind::Method) {
                    continue;
                }
                defs.ranges[i]
            }
        };
        let declared = out.declared.entry(text.to_string()).or_default();
        if !declared.contains(&(name.start_byte(), range)) {
            declared.push((name.start_byte(), range));
        }
        let ranges = out.scopes.entry(text.to_string()).or_default();
        if !ranges.contains(&range) {
            ranges.push(range);
        }
    }
    out
}
