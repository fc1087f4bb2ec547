//! The map's error values. The server maps each variant to a contract error code.

/// What a map call can fail with. Clone so that a joined (single-flight) rebuild can hand
/// the same result to every caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// No complete build yet (the first build is still running, or never ran).
    #[error("the map is not built yet")]
    NotBuilt,
    /// The node ID parses but names nothing in the map.
    #[error("node not found: {0}")]
    NodeNotFound(String),
    /// The node ID does not follow `<lang>:<relpath>[#<qualifiedName>[~<n>]]`.
    #[error("bad node id {id:?}: {reason}")]
    BadNodeId { id: String, reason: String },
    /// An argument is out of range or malformed (a path outside the root, a depth of 9 …).
    #[error("bad argument {field}: {message}")]
    BadArgs { field: String, message: String },
    /// The map cannot be kept where asked: the file there is not navmap's map (navmap
    /// never deletes or overwrites a file it did not create).
    #[error("{0}")]
    Refused(String),
    /// The map database cannot give what an answer reads from it (a file's references and
    /// mentions, [`crate::MapConfig::uses_on_demand`]): it cannot be opened or read, or it
    /// no longer holds what this map was loaded or built with (a rebuild from scratch is
    /// rewriting it, another process rebuilt it). A rebuild makes the two agree again.
    #[error("{0}")]
    Unreadable(String),
    /// A bug or an I/O / SQLite failure the caller cannot fix.
    #[error("internal error: {0}")]
    Internal(String),
}

impl MapError {
    pub(crate) fn bad_args(field: &str, message: impl Into<String>) -> Self {
        MapError::BadArgs {
            field: field.to_string(),
            message: message.into(),
        }
    }

    pub(crate) fn internal(e: impl std::fmt::Display) -> Self {
        MapError::Internal(e.to_string())
    }
}

impl From<rusqlite::Error> for MapError {
    fn from(e: rusqlite::Error) -> Self {
        MapError::Internal(format!("sqlite: {e}"))
    }
}

pub type Result<T, E = MapError> = std::result::Result<T, E>;
