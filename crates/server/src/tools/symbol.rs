//! The `symbol` argument (contract §3, "Addressing by name"): a name as an agent writes
//! it, resolved through the map in the same call.
//!
//! Every tool that takes `nodeId` declares [`symbol_param`]; the engine calls
//! [`resolve_symbol_arg`] before the tool runs, so the tool sees a `nodeId` as if the
//! agent had passed it, and [`Chosen::annotate`] after, so every answer names the node it
//! chose (`nodeId`) and, when the name fits several, the next best (`alternatives`, with
//! `matches` counting them all). `map_path` resolves its `from`/`to` the same way
//! ([`resolve_name`]). No match is `NODE_NOT_FOUND` with the nearest names (`nearest`).
//! The forms understood and the ranking are the map's (`navmap_map::Map::find_symbol`).

use std::sync::Arc;

use navmap_envelope::{ErrorCode, ToolError};
use serde_json::Value;

use super::map_common::with_map;
use super::{Args, Param};
use crate::ServerContext;

/// Alternatives listed beside the node chosen.
const ALTERNATIVES: usize = 3;

/// Arguments a `symbol` replaces: a node ID or a position.
const TARGET_FIELDS: &[&str] = &["nodeId", "file", "line"];

/// The `symbol` parameter (explained once in the server's instructions).
pub fn symbol_param() -> Param {
    Param::string("symbol", "a name")
}

/// The node a name was resolved to.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub id: String,
    /// The next best matches' IDs.
    pub alternatives: Vec<String>,
    /// Every match, the chosen one included.
    pub matches: usize,
    /// Leading qualifiers the map knows nowhere, ignored.
    pub ignored: Vec<String>,
}

impl Chosen {
    /// Writes the choice into an answer: `<key>` (the node ID chosen), and when the name
    /// fits several, `<key>Alternatives` / `alternatives` and the count `matches`.
    pub fn annotate(&self, data: &mut Value, key: &str) {
        let Value::Object(o) = data else { return };
        o.insert(key.into(), self.id.clone().into());
        let alt_key = if key == "nodeId" {
            "alternatives".to_string()
        } else {
            format!("{key}Alternatives")
        };
        if !self.alternatives.is_empty() {
            o.insert(alt_key, self.alternatives.clone().into());
            if self.matches > self.alternatives.len() + 1 {
                let count_key = if key == "nodeId" {
                    "matches".to_string()
                } else {
                    format!("{key}Matches")
                };
                o.insert(count_key, self.matches.into());
            }
        }
        if !self.ignored.is_empty() {
            o.insert("ignoredQualifiers".into(), self.ignored.clone().into());
        }
    }
}

/// Resolves `name` (from argument `field`) through the map: the best match, or
/// `NODE_NOT_FOUND` with the nearest names.
pub async fn resolve_name(
    ctx: &Arc<ServerContext>,
    field: &'static str,
    name: &str,
) -> Result<Chosen, ToolError> {
    let owned = name.to_string();
    let found = with_map(ctx, field, move |m| m.find_symbol(&owned, 1 + ALTERNATIVES)).await?;
    let mut ids = found.matches.into_iter().map(|n| n.id);
    let Some(id) = ids.next() else {
        let hint = if found.nearest.is_empty() {
            "Find names with map_search; if the code changed, map_rebuild first."
        } else {
            "Did you mean one of `nearest`? Pass it as symbol, or find names with map_search."
        };
        return Err(ToolError::new(
            ErrorCode::NodeNotFound,
            format!("{field}: nothing in the map is named {name:?}"),
            hint,
        )
        .with_extra("field", field)
        .with_extra("nearest", found.nearest));
    };
    Ok(Chosen {
        id,
        alternatives: ids.collect(),
        matches: found.total,
        ignored: found.ignored,
    })
}

/// For a call with `symbol`: resolves it and puts the node ID chosen in `nodeId`, so the
/// tool answers as for a node ID. `BAD_ARGS` when `symbol` comes with a node ID or a
/// position. `None` when the call has no `symbol`.
pub(crate) async fn resolve_symbol_arg(
    ctx: &Arc<ServerContext>,
    args: &mut Args,
) -> Result<Option<Chosen>, ToolError> {
    let Some(name) = args.opt_str("symbol").map(str::to_string) else {
        return Ok(None);
    };
    if let Some(other) = TARGET_FIELDS.iter().find(|f| args.given(f)) {
        return Err(args.bad(
            "symbol",
            &format!("pass either symbol or {other}, not both"),
        ));
    }
    if name.trim().is_empty() {
        return Err(args.bad("symbol", "an empty name"));
    }
    let chosen = resolve_name(ctx, "symbol", &name).await?;
    args.take("symbol");
    args.set("nodeId", chosen.id.clone().into());
    Ok(Some(chosen))
}
