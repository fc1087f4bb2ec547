//! What the seven `nav_*` tools share, one file per concept:
//!
//! - [`target`]: the position argument (`file`+`line`+`col` or `nodeId`) → a [`Target`];
//! - [`anchors`]: server locations → root-relative anchors grouped by file, externals by
//!   name only;
//! - [`narrowing`]: test-code path rules, the notes' narrowing sentence, `complete`, the
//!   cursor generation;
//! - [`outline`]: a server's document outline (kind names, snapping, nearby symbols);
//! - [`errors`]: language-server errors → contract codes, and the servers' states;
//! - [`fallback`]: the map's answer, marked, when a server cannot serve the project.
//!
//! Everything is re-exported here, so a tool writes `use super::nav_common::{…}`.

pub mod anchors;
pub mod errors;
pub mod fallback;
pub mod narrowing;
pub mod outline;
pub mod target;

pub use anchors::*;
pub use errors::*;
pub use fallback::*;
pub use narrowing::*;
pub use outline::*;
pub use target::*;
