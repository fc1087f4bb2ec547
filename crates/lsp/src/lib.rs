//! Live navigation: language-server clients started on demand (contract §5).
//! Returns plain Rust values; knows nothing of MCP, envelopes or the map.
