//! Declared tool parameters, their JSON schema, and validation into [`Args`].
//!
//! A tool declares its parameters once ([`Params`]); the same declaration produces the
//! `inputSchema` of `tools/list` and checks every call, so the two cannot disagree. Every
//! failure is a `BAD_ARGS` envelope naming the field and the expected shape: a wrong type,
//! a missing required field, an unknown enum value, an out-of-range integer, a string
//! that is too short, or a field the tool does not take (agents misspell names; silently
//! ignoring `fileFiter` would answer a different question).
//!
//! `tokenBudget` and `cursor` are added to every tool and handled by the engine.
//!
//! The schema is what an agent pays for on every session (`tools/list` is context), so it
//! says each thing once. Shared definitions are in the server's `instructions` (positions,
//! node IDs, budgets, cursors, node and edge kinds); a parameter's description is a short
//! reminder with its range (`tokenBudget`: `100-10000`; `col`: `1-based UTF-16`). A flag
//! or a count whose range the schema shows may go undescribed (its name says it); an
//! empty description is left out. `cursor` is shown only on tools whose answer holds a list
//! that a budget can cut ([`Params::paged`]), and a hint names only what the schema shows.
//! Bounds that only guard against absurd input (a line beyond a million) are checked but
//! not shown; values several tools share are listed in the instructions
//! ([`Param::values_unshown`]). What holds for every tool is also said once there: integers
//! count from 1 (a minimum of 1 is checked, not shown), flags default to false, unknown
//! arguments are refused (checked; no `additionalProperties`). Validation is the same for
//! every tool: `cursor` is accepted everywhere.

use navmap_envelope::{ErrorCode, ToolError};
use serde_json::{Map, Value, json};

/// One declared parameter.
#[derive(Debug, Clone)]
pub struct Param {
    name: &'static str,
    description: &'static str,
    shape: Shape,
    required: bool,
    default: Option<Value>,
    default_shown: bool,
    /// The allowed values of an enum or list are listed in the schema (else in the
    /// server's instructions, once for the tools that share them).
    values_shown: bool,
}

#[derive(Debug, Clone)]
enum Shape {
    String {
        min_len: usize,
    },
    Integer {
        min: i64,
        max: i64,
    },
    Boolean,
    Enum(&'static [&'static str]),
    StringList {
        values: Option<&'static [&'static str]>,
    },
}

impl Param {
    fn new(name: &'static str, description: &'static str, shape: Shape) -> Self {
        Param {
            name,
            description,
            shape,
            required: false,
            default: None,
            default_shown: true,
            values_shown: true,
        }
    }

    /// A string.
    pub fn string(name: &'static str, description: &'static str) -> Self {
        Param::new(name, description, Shape::String { min_len: 0 })
    }

    /// An integer in `min..=max` (outside is `BAD_ARGS`).
    pub fn integer(name: &'static str, description: &'static str, min: i64, max: i64) -> Self {
        Param::new(name, description, Shape::Integer { min, max })
    }

    pub fn boolean(name: &'static str, description: &'static str) -> Self {
        Param::new(name, description, Shape::Boolean)
    }

    /// A string that must be one of `values`.
    pub fn one_of(
        name: &'static str,
        description: &'static str,
        values: &'static [&'static str],
    ) -> Self {
        Param::new(name, description, Shape::Enum(values))
    }

    /// An array of strings.
    pub fn strings(name: &'static str, description: &'static str) -> Self {
        Param::new(name, description, Shape::StringList { values: None })
    }

    /// An array of strings, each one of `values`.
    pub fn strings_of(
        name: &'static str,
        description: &'static str,
        values: &'static [&'static str],
    ) -> Self {
        Param::new(
            name,
            description,
            Shape::StringList {
                values: Some(values),
            },
        )
    }

    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The value used when the call omits the field (shown in the schema).
    pub fn default(mut self, value: impl Into<Value>) -> Self {
        self.default = Some(value.into());
        self
    }

    /// A default the server's instructions state once for every tool (`col` = 1): applied,
    /// not repeated in each schema.
    pub fn default_unshown(mut self, value: impl Into<Value>) -> Self {
        self.default = Some(value.into());
        self.default_shown = false;
        self
    }

    /// Allowed values several tools share (node kinds, edge kinds), listed once in the
    /// server's instructions: checked, not repeated in each schema.
    pub fn values_unshown(mut self) -> Self {
        self.values_shown = false;
        self
    }

    /// For strings: the minimum length in characters.
    pub fn min_len(mut self, n: usize) -> Self {
        if let Shape::String { min_len } = &mut self.shape {
            *min_len = n;
        }
        self
    }

    /// The expected shape in words, for messages and hints.
    fn expected(&self) -> String {
        match &self.shape {
            Shape::String { min_len: 0 } => "a string".into(),
            Shape::String { min_len } => format!("a string of at least {min_len} characters"),
            Shape::Integer {
                min: i64::MIN,
                max: i64::MAX,
            } => "an integer".into(),
            Shape::Integer { min, max } => format!("an integer in [{min}, {max}]"),
            Shape::Boolean => "true or false".into(),
            Shape::Enum(values) => format!("one of {}", quoted(values)),
            Shape::StringList { values: None } => "an array of strings".into(),
            Shape::StringList { values: Some(v) } => {
                format!("an array of strings, each one of {}", quoted(v))
            }
        }
    }

    /// The compact form used in the whole-tool signature of hints.
    fn short(&self) -> String {
        let ty = match &self.shape {
            Shape::String { min_len: 0 } => "string".to_string(),
            Shape::String { min_len } => format!("string (≥ {min_len} chars)"),
            Shape::Integer {
                min: i64::MIN,
                max: i64::MAX,
            } => "integer".into(),
            Shape::Integer { min, max } => format!("integer {min}–{max}"),
            Shape::Boolean => "boolean".into(),
            Shape::Enum(values) => values.join("|"),
            Shape::StringList { values: None } => "[string]".into(),
            Shape::StringList { values: Some(v) } => format!("[{}]", v.join("|")),
        };
        let opt = if self.required { "" } else { "?" };
        format!("{}{opt}: {ty}", self.name)
    }

    fn schema(&self) -> Value {
        let mut s = match &self.shape {
            Shape::String { min_len: 0 } => json!({"type": "string"}),
            Shape::String { min_len } => json!({"type": "string", "minLength": min_len}),
            Shape::Integer { min, max } => {
                let mut s = json!({"type": "integer"});
                // Every integer here counts from 1 (the instructions say so once).
                if *min != i64::MIN && *min != 1 {
                    s["minimum"] = Value::from(*min);
                }
                // Guards against absurd input only: checked, not worth the agent's tokens.
                if *max < SHOWN_MAX {
                    s["maximum"] = Value::from(*max);
                }
                s
            }
            Shape::Boolean => json!({"type": "boolean"}),
            Shape::Enum(values) if self.values_shown => {
                json!({"type": "string", "enum": values})
            }
            Shape::Enum(_) => json!({"type": "string"}),
            Shape::StringList { values: Some(v) } if self.values_shown => {
                json!({"type": "array", "items": {"type": "string", "enum": v}})
            }
            Shape::StringList { .. } => {
                json!({"type": "array", "items": {"type": "string"}})
            }
        };
        if let Value::Object(obj) = &mut s {
            // A flag is off unless set (said once in the instructions).
            if let Some(d) = self
                .default
                .as_ref()
                .filter(|d| self.default_shown && **d != Value::Bool(false))
            {
                obj.insert("default".into(), d.clone());
            }
            if !self.description.is_empty() {
                obj.insert("description".into(), Value::from(self.description));
            }
        }
        s
    }

    /// Checks one present, non-null value.
    fn check(&self, value: &Value) -> Result<Value, String> {
        let wrong = || format!("expected {}, got {}", self.expected(), describe(value));
        match &self.shape {
            Shape::String { min_len } => {
                let s = value.as_str().ok_or_else(wrong)?;
                if s.chars().count() < *min_len {
                    return Err(wrong());
                }
                Ok(value.clone())
            }
            Shape::Integer { min, max } => {
                let n = as_integer(value).ok_or_else(wrong)?;
                if n < *min || n > *max {
                    return Err(format!("{n} is out of range: expected {}", self.expected()));
                }
                Ok(Value::from(n))
            }
            Shape::Boolean => value.as_bool().map(Value::from).ok_or_else(wrong),
            Shape::Enum(values) => {
                let s = value.as_str().ok_or_else(wrong)?;
                if !values.contains(&s) {
                    return Err(format!(
                        "unknown value {:?}: expected {}",
                        clip(s),
                        self.expected()
                    ));
                }
                Ok(value.clone())
            }
            Shape::StringList { values } => {
                let items = value.as_array().ok_or_else(wrong)?;
                for item in items {
                    let s = item.as_str().ok_or_else(wrong)?;
                    if let Some(allowed) = values
                        && !allowed.contains(&s)
                    {
                        return Err(format!(
                            "unknown value {:?}: expected {}",
                            clip(s),
                            self.expected()
                        ));
                    }
                }
                Ok(value.clone())
            }
        }
    }
}

/// All parameters of one tool, in declaration order.
#[derive(Debug, Clone)]
pub struct Params {
    params: Vec<Param>,
    /// The tool's answer holds a list a budget can cut: `cursor` is shown (schema and
    /// hints); it is accepted either way.
    paged: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            params: Vec::new(),
            paged: true,
        }
    }
}

/// Integer maxima from here on are not shown in the schema (module docs).
const SHOWN_MAX: i64 = 100_000;

/// The arguments every tool takes, handled by the engine: the server's `instructions`
/// explain them once for all tools; the schema reminds of the budget's range.
pub(crate) fn common_params() -> [Param; 2] {
    [
        Param::integer("tokenBudget", "100-10000", i64::MIN, i64::MAX),
        Param::string("cursor", "paging"),
    ]
}

impl Params {
    pub fn new() -> Self {
        Params::default()
    }

    pub fn param(mut self, param: Param) -> Self {
        self.params.push(param);
        self
    }

    /// Whether the tool's answer holds a list a budget can cut (`Tool::paged`): only then
    /// do its schema and its error hints name `cursor`.
    pub fn paged(mut self, paged: bool) -> Self {
        self.paged = paged;
        self
    }

    /// Tool params followed by `tokenBudget` and `cursor` (what validation accepts).
    fn all(&self) -> impl Iterator<Item = Param> + '_ {
        self.params.iter().cloned().chain(common_params())
    }

    /// What the tool's schema shows, and so all that its hints may name: [`Params::all`]
    /// without `cursor` on a tool that is not paged.
    fn shown(&self) -> impl Iterator<Item = Param> + '_ {
        self.all().filter(|p| self.paged || p.name != "cursor")
    }

    /// The `inputSchema` for `tools/list`.
    pub fn schema(&self) -> Map<String, Value> {
        let mut properties = Map::new();
        for p in self.shown() {
            let mut s = p.schema();
            if p.name == "tokenBudget"
                && let Value::Object(o) = &mut s
            {
                // The engine clamps budgets rather than refusing them.
                o.remove("minimum");
                o.remove("maximum");
            }
            properties.insert(p.name.to_string(), s);
        }
        let required: Vec<&str> = self
            .params
            .iter()
            .filter(|p| p.required)
            .map(|p| p.name)
            .collect();
        let mut schema = Map::new();
        schema.insert("type".into(), Value::from("object"));
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".into(), json!(required));
        }
        // No `additionalProperties: false`: 28 characters on every tool to say what
        // validation says anyway (an unknown argument is BAD_ARGS naming it).
        schema
    }

    /// `map_search {query: string (≥ 2 chars), kind?: any|file|…}`: the hint of every
    /// `BAD_ARGS` of this tool.
    pub fn signature(&self, tool: &str) -> String {
        let fields: Vec<String> = self.shown().map(|p| p.short()).collect();
        format!("{tool} {{{}}}", fields.join(", "))
    }

    /// Validates a call's arguments (absent = `{}`); `null` counts as omitted.
    pub fn validate(
        &self,
        tool: &str,
        raw: Option<&Map<String, Value>>,
    ) -> Result<Args, ToolError> {
        let empty = Map::new();
        let raw = raw.unwrap_or(&empty);
        let hint = || format!("Expected arguments: {}.", self.signature(tool));
        let all: Vec<Param> = self.all().collect();

        // Unknown fields first, in the caller's order, so the first typo is named.
        for key in raw.keys() {
            if !all.iter().any(|p| p.name == key) {
                let known: Vec<&'static str> = self.shown().map(|p| p.name).collect();
                return Err(ToolError::bad_args(
                    format!("{}: unknown field for {tool}", clip(key)),
                    hint(),
                )
                .with_extra("field", clip(key))
                .with_extra("expected", format!("one of {}", quoted(&known))));
            }
        }
        let mut values = Map::new();
        for p in &all {
            match raw.get(p.name).filter(|v| !v.is_null()) {
                Some(v) => {
                    let checked = p.check(v).map_err(|why| {
                        ToolError::bad_args(format!("{}: {why}", p.name), hint())
                            .with_extra("field", p.name)
                            .with_extra("expected", p.expected())
                    })?;
                    values.insert(p.name.to_string(), checked);
                }
                None if p.required => {
                    return Err(ToolError::bad_args(
                        format!("{}: missing required field ({})", p.name, p.expected()),
                        hint(),
                    )
                    .with_extra("field", p.name)
                    .with_extra("expected", p.expected()));
                }
                None => {
                    if let Some(d) = &p.default {
                        values.insert(p.name.to_string(), d.clone());
                    }
                }
            }
        }
        Ok(Args {
            tool: tool.to_string(),
            signature: self.signature(tool),
            given: raw
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, _)| k.clone())
                .collect(),
            values,
        })
    }
}

/// Validated arguments of one call, defaults applied; `tokenBudget` and `cursor` are
/// taken out by the engine before the tool sees them.
///
/// Getters cannot fail on user input (that was checked); they return `INTERNAL` only
/// when a tool asks for a field it did not declare with that type — a bug.
#[derive(Debug, Clone)]
pub struct Args {
    tool: String,
    signature: String,
    values: Map<String, Value>,
    /// The names the call set itself (not filled in from defaults).
    given: Vec<String>,
}

impl Args {
    /// Whether the call set `name` itself (rather than getting its default).
    pub fn given(&self, name: &str) -> bool {
        self.given.iter().any(|g| g == name)
    }

    /// All values, defaults applied (what cursors are bound to).
    pub fn values(&self) -> &Map<String, Value> {
        &self.values
    }

    pub(crate) fn take(&mut self, name: &str) -> Option<Value> {
        self.values.remove(name)
    }

    /// Sets a value the engine derived (`nodeId` from `symbol`: `tools::symbol`).
    pub(crate) fn set(&mut self, name: &str, value: Value) {
        self.values.insert(name.to_string(), value);
    }

    fn undeclared(&self, name: &str, ty: &str) -> ToolError {
        ToolError::internal(format!(
            "{} read argument {name} as {ty}, but declared it otherwise or not at all",
            self.tool
        ))
    }

    /// A string the call gave or that has a default; `INTERNAL` if neither.
    pub fn str(&self, name: &str) -> Result<&str, ToolError> {
        self.opt_str(name)
            .ok_or_else(|| self.undeclared(name, "a required string"))
    }

    pub fn opt_str(&self, name: &str) -> Option<&str> {
        self.values.get(name).and_then(Value::as_str)
    }

    pub fn int(&self, name: &str) -> Result<i64, ToolError> {
        self.opt_int(name)
            .ok_or_else(|| self.undeclared(name, "an integer"))
    }

    pub fn opt_int(&self, name: &str) -> Option<i64> {
        self.values.get(name).and_then(Value::as_i64)
    }

    pub fn bool(&self, name: &str) -> Result<bool, ToolError> {
        self.opt_bool(name)
            .ok_or_else(|| self.undeclared(name, "a boolean"))
    }

    pub fn opt_bool(&self, name: &str) -> Option<bool> {
        self.values.get(name).and_then(Value::as_bool)
    }

    pub fn opt_strings(&self, name: &str) -> Option<Vec<String>> {
        let items = self.values.get(name)?.as_array()?;
        Some(
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        )
    }

    /// `BAD_ARGS` for a rule the schema cannot express (e.g. "a position or a nodeId"),
    /// with the same hint as every other argument error of this tool.
    pub fn bad(&self, field: &str, why: &str) -> ToolError {
        ToolError::new(
            ErrorCode::BadArgs,
            format!("{field}: {why}"),
            format!("Expected arguments: {}.", self.signature),
        )
        .with_extra("field", field)
    }
}

/// Integers, including integral floats (`20.0`), saturating beyond `i64`.
fn as_integer(value: &Value) -> Option<i64> {
    if let Some(n) = value.as_i64() {
        return Some(n);
    }
    if value.as_u64().is_some() {
        return Some(i64::MAX);
    }
    let f = value.as_f64()?;
    (f.fract() == 0.0 && f.is_finite()).then_some(f as i64)
}

/// "a string (\"lots\")": what the caller sent, briefly.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("a boolean ({b})"),
        Value::Number(n) => format!("a number ({n})"),
        Value::String(s) => format!("a string ({:?})", clip(s)),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 40 {
        let head: String = s.chars().take(39).collect();
        format!("{head}…")
    } else {
        s.to_string()
    }
}

fn quoted(values: &[&str]) -> String {
    let q: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
    q.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: &[&str] = &["any", "class", "function"];

    fn params() -> Params {
        Params::new()
            .param(Param::string("query", "What to find").min_len(2).required())
            .param(Param::one_of("kind", "Kind", KINDS).default("any"))
            .param(Param::integer("limit", "Max", 1, 100).default(20))
            .param(Param::strings_of(
                "edgeKinds",
                "Edges",
                &["calls", "imports"],
            ))
    }

    fn call(args: Value) -> Result<Args, ToolError> {
        params().validate("map_search", args.as_object())
    }

    fn field_of(err: &ToolError) -> &str {
        assert_eq!(err.code, ErrorCode::BadArgs);
        err.extras["field"].as_str().unwrap()
    }

    #[test]
    fn valid_calls_get_defaults() {
        let args = call(json!({"query": "Cart", "tokenBudget": 800})).unwrap();
        assert_eq!(args.str("query").unwrap(), "Cart");
        assert_eq!(args.str("kind").unwrap(), "any");
        assert_eq!(args.int("limit").unwrap(), 20);
        assert_eq!(args.opt_int("tokenBudget"), Some(800));
        assert_eq!(args.opt_strings("edgeKinds"), None);
        let args = call(json!({"query": "Cart", "limit": 5.0, "kind": null})).unwrap();
        assert_eq!(args.int("limit").unwrap(), 5);
        assert_eq!(args.str("kind").unwrap(), "any");
    }

    #[test]
    fn each_kind_of_mistake_names_its_field() {
        let cases = [
            (
                json!({"query": "Cart", "tokenBudget": "lots"}),
                "tokenBudget",
                "expected an integer",
            ),
            (json!({}), "query", "missing required field"),
            (json!({"query": "C"}), "query", "at least 2 characters"),
            (
                json!({"query": "Cart", "kind": "gizmo"}),
                "kind",
                "unknown value \"gizmo\"",
            ),
            (
                json!({"query": "Cart", "limit": 500}),
                "limit",
                "out of range",
            ),
            (
                json!({"query": "Cart", "limit": 1.5}),
                "limit",
                "got a number (1.5)",
            ),
            (
                json!({"query": "Cart", "edgeKinds": ["calls", "eats"]}),
                "edgeKinds",
                "\"eats\"",
            ),
            (
                json!({"query": "Cart", "fileFiter": "src/"}),
                "fileFiter",
                "unknown field",
            ),
        ];
        for (args, field, words) in cases {
            let err = call(args.clone()).unwrap_err();
            assert_eq!(field_of(&err), field, "{args}");
            assert!(
                err.message.starts_with(&format!("{field}: ")),
                "{}",
                err.message
            );
            assert!(err.message.contains(words), "{args}: {}", err.message);
            assert!(
                err.hint
                    .starts_with("Expected arguments: map_search {query: string (≥ 2 chars)"),
                "{}",
                err.hint
            );
            assert!(
                err.hint
                    .ends_with("tokenBudget?: integer, cursor?: string}."),
                "{}",
                err.hint
            );
        }
    }

    #[test]
    fn the_schema_matches_the_declaration() {
        let s = Value::Object(params().schema());
        assert_eq!(s["type"], "object");
        assert_eq!(s["required"], json!(["query"]));
        assert!(s.get("additionalProperties").is_none());
        assert!(call(json!({"query": "Cart", "bogus": 1})).is_err());
        assert_eq!(s["properties"]["kind"]["enum"], json!(KINDS));
        assert_eq!(s["properties"]["limit"]["maximum"], 100);
        assert_eq!(s["properties"]["tokenBudget"]["type"], "integer");
        assert!(s["properties"]["tokenBudget"].get("minimum").is_none());
        assert_eq!(s["properties"]["cursor"]["type"], "string");
        // Explained once in the instructions; the schema gives the range.
        assert_eq!(s["properties"]["tokenBudget"]["description"], "100-10000");
        let unpaged = Value::Object(params().paged(false).schema());
        assert!(unpaged["properties"].get("cursor").is_none());
        assert!(call(json!({"query": "Cart", "cursor": "x"})).is_ok());
    }

    #[test]
    fn absurd_bounds_are_checked_but_not_shown() {
        let p = Params::new().param(Param::integer("line", "", 1, 10_000_000));
        let s = Value::Object(p.clone().paged(false).schema());
        assert_eq!(s["properties"]["line"], json!({"type": "integer"}));
        let err = p
            .validate("t", json!({"line": 10_000_001}).as_object())
            .unwrap_err();
        assert_eq!(field_of(&err), "line");
    }

    #[test]
    fn huge_budgets_saturate_instead_of_failing() {
        let args = call(json!({"query": "Cart", "tokenBudget": 18446744073709551615u64})).unwrap();
        assert_eq!(args.opt_int("tokenBudget"), Some(i64::MAX));
        let args = call(json!({"query": "Cart", "tokenBudget": -3})).unwrap();
        assert_eq!(args.opt_int("tokenBudget"), Some(-3));
    }

    #[test]
    fn undeclared_reads_are_internal() {
        let args = call(json!({"query": "Cart"})).unwrap();
        assert_eq!(args.str("nope").unwrap_err().code, ErrorCode::Internal);
        assert_eq!(args.int("query").unwrap_err().code, ErrorCode::Internal);
    }

    /// Issue 20: `resolve` (not paged) offered a `cursor` in its error hint that its
    /// schema lacks. A hint names exactly what the schema shows.
    #[test]
    fn hints_name_only_what_the_schema_shows() {
        for paged in [true, false] {
            let p = params().paged(paged);
            let shown = Value::Object(p.schema());
            let err = p
                .validate("map_search", json!({"bogus": 1}).as_object())
                .unwrap_err();
            assert_eq!(err.hint.contains("cursor"), paged, "{}", err.hint);
            let expected = err.extras["expected"].as_str().unwrap();
            assert_eq!(expected.contains("cursor"), paged, "{expected}");
            assert_eq!(shown["properties"].get("cursor").is_some(), paged);
            // Accepted either way.
            assert!(
                p.validate(
                    "map_search",
                    json!({"query": "Cart", "cursor": "x"}).as_object()
                )
                .is_ok()
            );
        }
    }

    #[test]
    fn shared_values_are_checked_but_not_listed() {
        let p = Params::new()
            .param(Param::one_of("kind", "node kind", KINDS).values_unshown())
            .param(Param::strings_of("edgeKinds", "edge kinds", &["calls"]).values_unshown());
        let s = Value::Object(p.schema());
        assert_eq!(
            s["properties"]["kind"],
            json!({"type": "string", "description": "node kind"})
        );
        assert_eq!(
            s["properties"]["edgeKinds"]["items"],
            json!({"type": "string"})
        );
        let err = p
            .validate("t", json!({"kind": "gizmo"}).as_object())
            .unwrap_err();
        assert!(err.message.contains("\"class\""), "{}", err.message);
        let err = p
            .validate("t", json!({"edgeKinds": ["eats"]}).as_object())
            .unwrap_err();
        assert_eq!(field_of(&err), "edgeKinds");
    }
}
