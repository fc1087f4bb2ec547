//! `map_search {query, kind = any, limit = 20}`: find nodes by name.
//!
//! The arguments are fully declared and validated here. The search itself needs the map,
//! which is not wired into the server yet: until then every valid call honestly answers
//! `MAP_NOT_BUILT`. The map engineer replaces the body with the query and a `/results`
//! list (already ranked by the map; narrowing: pass `kind` or a longer `query`).

use std::sync::Arc;

use navmap_envelope::{ErrorCode, ToolError};

use super::{Args, Param, Params, Tool, ToolFuture};
use crate::ServerContext;

/// `any` plus every node kind of contract §3.
pub const KINDS: &[&str] = &[
    "any",
    "file",
    "module",
    "class",
    "interface",
    "trait",
    "struct",
    "enum",
    "function",
    "method",
    "variable",
    "constant",
    "type_alias",
    "property",
];

pub struct MapSearch;

impl Tool for MapSearch {
    fn name(&self) -> &'static str {
        "map_search"
    }

    fn description(&self) -> &'static str {
        "Find symbols and files by name (exact, prefix, substring, path, fuzzy), ranked by importance. Returns node IDs for map_neighbors and resolve."
    }

    fn params(&self) -> Params {
        Params::new()
            .param(
                Param::string("query", "Name, qualified name or path fragment.")
                    .min_len(2)
                    .required(),
            )
            .param(Param::one_of("kind", "Only nodes of this kind.", KINDS).default("any"))
            .param(Param::integer("limit", "Maximum results.", 1, 100).default(20))
    }

    fn call<'a>(&'a self, _ctx: &'a Arc<ServerContext>, args: Args) -> ToolFuture<'a> {
        Box::pin(async move {
            // Read what the search will need, so a mismatch with the declaration fails now.
            let (_query, _kind, _limit) =
                (args.str("query")?, args.str("kind")?, args.int("limit")?);
            Err(ToolError::new(
                ErrorCode::MapNotBuilt,
                "The map has not been built yet.",
                "Call map_rebuild to build it; nav_* tools work without the map.",
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navmap_map::NodeKind;

    #[test]
    fn kinds_are_any_plus_the_node_kinds() {
        let expected: Vec<&str> = std::iter::once("any")
            .chain(NodeKind::ALL.iter().map(|k| k.as_str()))
            .collect();
        assert_eq!(KINDS, expected.as_slice());
    }
}
