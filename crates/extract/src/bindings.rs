//! Names bound to types: the `bindings.scm` query's matches → [`BindingFact`]s. Capture
//! conventions: `grammars/README.md`.

use crate::defs::{Defs, excerpt};
use crate::facts::BindingFact;
use crate::ids::IdSet;
use crate::matches::Match;
use crate::text::node_text;

pub fn extract(matches: &[Match], source: &str, defs: &Defs) -> Vec<BindingFact> {
    let mut seen = IdSet::default();
    let mut out = Vec::new();
    for m in matches {
        let (Some(name), Some(ty)) = (m.get("binding.name"), m.get("binding.type")) else {
            continue;
        };
        // One binding per name node: the first pattern that matched it.
        if !seen.insert(name.id()) {
            continue;
        }
        let at = m.get("binding").unwrap_or(name);
        let type_name = node_text(&ty, source).trim();
        if type_name.is_empty() || node_text(&name, source) == "_" {
            continue;
        }
        // A binding that *is* a definition (a typed field, a module-level variable) belongs
        // to the scope around that definition, not to itself.
        let mut scope = defs.innermost(at.start_byte(), at.end_byte());
        if let Some(i) = scope
            && defs.ranges[i] == (at.start_byte(), at.end_byte())
        {
            scope = defs.enclosing[i];
        }
        out.push(BindingFact {
            scope,
            name: excerpt(&name, source),
            type_name: type_name.to_string(),
            type_qualifier: m.get("binding.qualifier").map(|q| excerpt(&q, source)),
            line: name.start_position().row as u32,
        });
    }
    out.sort_by_key(|b| b.line);
    out
}
