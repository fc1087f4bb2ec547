//! `debug_panic {}`: panics on purpose, to prove that a panic inside a tool becomes an
//! `INTERNAL` envelope and the server keeps serving. Registered only when
//! `NAVMAP_TEST_PANIC_TOOL=1`; invisible (not listed, unknown) otherwise.

use std::sync::Arc;

use super::{Args, Params, Tool, ToolFuture};
use crate::ServerContext;

pub const ENV: &str = "NAVMAP_TEST_PANIC_TOOL";

pub fn enabled() -> bool {
    std::env::var(ENV).is_ok_and(|v| v == "1")
}

pub struct DebugPanic;

impl Tool for DebugPanic {
    fn name(&self) -> &'static str {
        "debug_panic"
    }

    fn description(&self) -> &'static str {
        "Test only: panics."
    }

    fn params(&self) -> Params {
        Params::new()
    }

    fn call<'a>(&'a self, _ctx: &'a Arc<ServerContext>, _args: Args) -> ToolFuture<'a> {
        Box::pin(async move { panic!("debug_panic: deliberate panic (NAVMAP_TEST_PANIC_TOOL=1)") })
    }
}
