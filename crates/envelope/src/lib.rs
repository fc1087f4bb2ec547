//! The response envelope of contract §2: token budgets, ranked truncation, cursors and the
//! stable error codes.
//!
//! Owns: the envelope's JSON shape, the budget (default, `NAVMAP_TOKEN_BUDGET`, clamping),
//! the token estimate, the order of cuts that makes `used ≤ effective budget` hold by
//! construction, paging cursors and [`ErrorCode`]. Pure: depends on serde/serde_json only
//! and knows nothing of MCP, the map or language servers; the server crate calls
//! [`render`] once per tool call.
//!
//! A tool answers with a [`Payload`]: its `data`, the lists in it that may be cut (a JSON
//! pointer, the kind of item, a ranker and a narrowing sentence), warnings, and the
//! generation cursors are bound to. Nested lists are declared with `*` (`/clusters/*/hubs`)
//! and are trimmed evenly before the lists holding them. Only prose is ever shortened
//! (strings under [`SHORTENABLE_KEYS`] or keys the payload adds with
//! [`Payload::shortenable`]); identifiers come back whole or their item is dropped.
//!
//! ```
//! use navmap_envelope::{Budget, ListSpec, Payload, Request, render};
//! use serde_json::{Value, json};
//!
//! let results: Vec<Value> = (0..500)
//!     .map(|i| json!({"id": format!("py:src/app.py#handler_{i}"), "score": i}))
//!     .collect();
//! let payload = Payload::new(json!({"results": results, "total": 500})).list(
//!     ListSpec::new("/results", "results")
//!         .ranked_by(|a, b| b["score"].as_i64().cmp(&a["score"].as_i64()))
//!         .narrowing("Pass kind or a longer query to narrow"),
//! );
//! let out = render(Ok(payload), &Request::new(Budget::new(300)));
//! let env: Value = serde_json::from_str(&out.text).unwrap();
//! assert!(out.ok && out.tokens <= 300);
//! assert_eq!(env["truncated"], true);
//! assert_eq!(env["dropped"]["kind"], "results");
//! assert!(env["dropped"]["note"].as_str().unwrap().ends_with(", or raise tokenBudget."));
//! assert_eq!(env["data"]["results"][0]["score"], 499); // best first
//! assert!(env["cursor"].is_string());
//! ```
//!
//! Every cut is visible and resumable: budget cuts and the caps a tool applied
//! ([`Payload::capped`]: `maxNodes`, `limit`) appear in `dropped`; a cut list (nested ones
//! too) gets a cursor when a next page exists. Notes suggest narrowing parameters declared
//! as data ([`ListSpec::narrowing_param`], [`ListSpec::narrowing_prefix`] with the busiest
//! directory of the list itself) and leave out those the call set (the engine passes them
//! with [`Payload::given`]).
//!
//! Flags in `data` are the tool's: a `complete` field means the source list (a language
//! server's answer) was whole before any cut, and the envelope never rewrites it. A budget
//! cut is `truncated`; a filter the call asked for (`fileFilter`) is not incompleteness.
//!
//! The envelope text is compact JSON with keys in this order: `ok`, `data`, `tokenBudget`
//! `{requested, used, max}`, `truncated`, `dropped` (only when truncated), `cursor` (only
//! when a list was cut), `warnings` (always, possibly empty). Errors are
//! `{"ok":false,"error":{"code","message","hint",…extras}}`, also held to the budget.

mod budget;
mod cursor;
mod error;
mod payload;
mod render;

pub use budget::{
    Budget, DEFAULT_TOKEN_BUDGET, MAX_TOKEN_BUDGET, MIN_TOKEN_BUDGET, TOKEN_BUDGET_ENV,
    estimate_tokens,
};
pub use cursor::{Cursor, RESERVED_ARGS, args_hash};
pub use error::{ErrorCode, ToolError};
pub use payload::{
    Cap, Comparator, ListSpec, PathOf, Payload, Ranker, SHORTENABLE_KEYS, Suggestion, busiest_dir,
};
pub use render::{Rendered, Request, render, render_error};
