//! The response envelope of contract §2: token budgets, ranked truncation, cursors and the
//! stable error codes. Pure: depends on serde_json only, knows nothing of MCP, the map or
//! language servers.
