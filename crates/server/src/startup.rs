//! Answering before the map is ready (issue 19): `navmap serve` answers `initialize` at
//! once and opens the map in the background; a tool call that arrives first waits for it,
//! and a first map call on a root with no map waits for the first build. Both waits are
//! bounded by [`wait_bound`] and stated in the answer's warnings when noticeable.
//!
//! Tuning (tests): `NAVMAP_START_WAIT_MS` (the bound, default 10 s) and
//! `NAVMAP_TEST_OPEN_GATE` (a path: the map opens only once it exists, so a test can see
//! what is answered while the map opens; nothing else sets it).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use navmap_envelope::{ErrorCode, ToolError};
use navmap_map::RebuildOptions;

use crate::ServerContext;

/// The bound on both waits (env `NAVMAP_START_WAIT_MS`).
pub const WAIT_BOUND: Duration = Duration::from_secs(10);
/// A wait at least this long is stated in the answer.
pub const NOTICEABLE: Duration = Duration::from_millis(100);
/// Env: the bound in milliseconds.
pub const WAIT_ENV: &str = "NAVMAP_START_WAIT_MS";
/// Env, tests only: the map opens once this path exists (at most [`GATE_MAX`] later).
pub const OPEN_GATE_ENV: &str = "NAVMAP_TEST_OPEN_GATE";
/// A test that forgets to open its gate does not hang the server for ever.
const GATE_MAX: Duration = Duration::from_secs(60);

/// A duration in milliseconds from the environment (tests shorten waits this way).
pub(crate) fn env_ms(name: &str) -> Option<Duration> {
    std::env::var(name)
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(Duration::from_millis)
}

/// How long a call waits for the map to open, or for the first build.
pub fn wait_bound() -> Duration {
    env_ms(WAIT_ENV).unwrap_or(WAIT_BOUND)
}

/// The test knob: waits for the gate path to exist before the map opens (blocking; no
/// wait unless `NAVMAP_TEST_OPEN_GATE` is set).
pub fn open_gate_for_tests() {
    let Some(gate) = std::env::var_os(OPEN_GATE_ENV).filter(|v| !v.is_empty()) else {
        return;
    };
    let started = Instant::now();
    while !std::path::Path::new(&gate).exists() && started.elapsed() < GATE_MAX {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long the map's open waits for the first answer to be written ([`FirstAnswer`]):
/// a client sends `initialize` as soon as it has spawned the server, so this bound only
/// matters for a client that is slow to speak (or for none at all).
pub const OPEN_AFTER_ANSWER_MAX: Duration = Duration::from_millis(100);

/// Whether the server has written its first answer (on stdio, the one to `initialize`).
/// The map's open waits for it ([`FirstAnswer::wait`]): loading a map is tens of
/// milliseconds of CPU on one core, and on a 2-core machine it took that core from the
/// few tasks that read the request and write the answer (spawn to `initialize` answered,
/// python stdlib, 30 runs under load 7.6: median 14.7 ms with the open running beside it,
/// 6.6 ms with it held back). A call that arrives before the open is done waits for it,
/// as before.
#[derive(Default)]
pub struct FirstAnswer {
    written: std::sync::Mutex<bool>,
    cond: std::sync::Condvar,
}

impl FirstAnswer {
    /// The first answer is out.
    pub fn written(&self) {
        let mut w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        if !*w {
            *w = true;
            self.cond.notify_all();
        }
    }

    /// Blocks until the first answer is written, or `bound` passed.
    pub fn wait(&self, bound: Duration) {
        let w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self
            .cond
            .wait_timeout_while(w, bound, |written| !*written)
            .unwrap_or_else(|e| e.into_inner());
    }
}

/// The warning for a call that waited `waited` for `what`, when it was noticeable.
pub fn waited_warning(what: &str, waited: Duration) -> Option<String> {
    (waited >= NOTICEABLE).then(|| {
        format!(
            "This answer waited {} ms for {what}; later calls do not.",
            waited.as_millis()
        )
    })
}

/// The answer to a call that came while the map was still opening, past the bound.
pub fn still_opening() -> ToolError {
    ToolError::new(
        ErrorCode::MapNotBuilt,
        "The map is still opening (navmap has just started).",
        "Call again in a moment; the map opens in the background.",
    )
}

/// Before a map answer: when the map has never been built and first builds are allowed
/// ([`ServerContext::build_on_first_call`]), build it (joining a build under way) and wait
/// up to [`wait_bound`]. Past the bound the build goes on and the caller answers
/// `MAP_NOT_BUILT` ("being built") as before. Returns the wait's warning, if noticeable.
pub async fn first_build(ctx: &Arc<ServerContext>) -> Option<String> {
    if ctx.map.is_built() || !ctx.build_on_first_call.load(Ordering::Relaxed) {
        return None;
    }
    let started = Instant::now();
    let c = ctx.clone();
    // Its own task, not aborted with the call: a build others may join finishes anyway.
    let build = tokio::task::spawn_blocking(move || {
        c.freshness
            .rebuild_checked(RebuildOptions::default(), &|p| c.map_progress.emit(p))
    });
    match tokio::time::timeout(wait_bound(), build).await {
        Ok(Ok(Err(e))) => tracing::warn!("first build failed: {e}"),
        Ok(Err(e)) => tracing::warn!("first build task failed: {e}"),
        _ => {}
    }
    if !ctx.map.is_built() {
        return None;
    }
    waited_warning("the first build of the map", started.elapsed())
}
