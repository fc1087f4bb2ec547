//! The twelve stable error codes of contract §2 and the error value tools return.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A stable error code. Serialises to the contract's string (`MAP_NOT_BUILT`, …); agents
/// match on these, so they never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    MapNotBuilt,
    NodeNotFound,
    BadNodeId,
    FileDeleted,
    SymbolNotFound,
    LspUnavailable,
    LspNotReady,
    LspFailed,
    LspTimeout,
    CursorStale,
    BadArgs,
    Internal,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 12] = [
        ErrorCode::MapNotBuilt,
        ErrorCode::NodeNotFound,
        ErrorCode::BadNodeId,
        ErrorCode::FileDeleted,
        ErrorCode::SymbolNotFound,
        ErrorCode::LspUnavailable,
        ErrorCode::LspNotReady,
        ErrorCode::LspFailed,
        ErrorCode::LspTimeout,
        ErrorCode::CursorStale,
        ErrorCode::BadArgs,
        ErrorCode::Internal,
    ];

    /// The wire string, identical to the serde form.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MapNotBuilt => "MAP_NOT_BUILT",
            ErrorCode::NodeNotFound => "NODE_NOT_FOUND",
            ErrorCode::BadNodeId => "BAD_NODE_ID",
            ErrorCode::FileDeleted => "FILE_DELETED",
            ErrorCode::SymbolNotFound => "SYMBOL_NOT_FOUND",
            ErrorCode::LspUnavailable => "LSP_UNAVAILABLE",
            ErrorCode::LspNotReady => "LSP_NOT_READY",
            ErrorCode::LspFailed => "LSP_FAILED",
            ErrorCode::LspTimeout => "LSP_TIMEOUT",
            ErrorCode::CursorStale => "CURSOR_STALE",
            ErrorCode::BadArgs => "BAD_ARGS",
            ErrorCode::Internal => "INTERNAL",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A domain failure: rendered as `{"ok":false,"error":{"code","message","hint",…extras}}`.
///
/// `extras` carries machine-readable context (`field`, `expected`, nearby symbols, a
/// stderr tail, …); keys that would shadow `code`, `message` or `hint` are ignored.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
    pub hint: String,
    pub extras: Map<String, Value>,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            hint: hint.into(),
            extras: Map::new(),
        }
    }

    /// `BAD_ARGS` with a message and a hint showing the expected shape.
    pub fn bad_args(message: impl Into<String>, hint: impl Into<String>) -> Self {
        ToolError::new(ErrorCode::BadArgs, message, hint)
    }

    /// `INTERNAL`: a bug in navmap, never the agent's fault.
    pub fn internal(message: impl Into<String>) -> Self {
        ToolError::new(
            ErrorCode::Internal,
            message,
            "This is a navmap bug; please report it. Other tools keep working.",
        )
    }

    /// Adds one extra field to the error object.
    pub fn with_extra(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.extras.insert(key.into(), value.into());
        self
    }

    /// The `error` object of the envelope.
    pub fn to_json(&self) -> Value {
        let mut obj = Map::new();
        obj.insert("code".into(), Value::from(self.code.as_str()));
        obj.insert("message".into(), Value::from(self.message.clone()));
        obj.insert("hint".into(), Value::from(self.hint.clone()));
        for (k, v) in &self.extras {
            if !matches!(k.as_str(), "code" | "message" | "hint") {
                obj.insert(k.clone(), v.clone());
            }
        }
        Value::Object(obj)
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_to_contract_strings() {
        for code in ErrorCode::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                Value::from(code.as_str())
            );
            let back: ErrorCode = serde_json::from_value(Value::from(code.as_str())).unwrap();
            assert_eq!(back, code);
        }
        assert_eq!(ErrorCode::LspNotReady.as_str(), "LSP_NOT_READY");
        assert_eq!(ErrorCode::MapNotBuilt.as_str(), "MAP_NOT_BUILT");
    }

    #[test]
    fn extras_cannot_shadow_the_fixed_fields() {
        let e = ToolError::bad_args("m", "h")
            .with_extra("field", "tokenBudget")
            .with_extra("code", "NOPE");
        let v = e.to_json();
        assert_eq!(v["code"], "BAD_ARGS");
        assert_eq!(v["field"], "tokenBudget");
    }
}
