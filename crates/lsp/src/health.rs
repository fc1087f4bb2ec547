//! A server's health per method, as a state rather than a timeout.
//!
//! Two states are recognised from the answers themselves:
//! - **wedged on a method**: the server answers one method with internal errors
//!   (`-32603`) several times in a row ([`LspConfig::method_failures`]), or stops
//!   answering it (two deadlines in a row) while it still answers others. pyright, frozen
//!   during a `references` request that navmap then cancelled, answers every later
//!   `references` with "this._token.cancel is not a function" and every `definition`
//!   correctly: alive, yet useless for that method until it is restarted. The pool
//!   restarts it ([`crate::pool`]), and the answer that saw it says so.
//! - **cannot serve this project**: the server said why, in words its manifest knows
//!   (`[[lsp.failure_hints]]`: gopls on a module that needs a newer Go), or it failed to
//!   start twice in a row. From then on queries fail at once with that reason
//!   ([`LspError::CannotServe`](crate::LspError::CannotServe)) instead of waiting 20–40 s
//!   for the same failure, for [`LspConfig::unservable_retry`]; then the server is
//!   restarted and asked again.
//!
//! [`LspConfig::method_failures`]: crate::LspConfig::method_failures
//! [`LspConfig::unservable_retry`]: crate::LspConfig::unservable_retry

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Timeouts in a row, with other methods answered meanwhile, that make a method wedged.
const TIMEOUTS_IN_A_ROW: usize = 2;

/// What one server process has shown per method. Reset when the process changes.
#[derive(Debug, Default)]
pub(crate) struct MethodHealth {
    /// The process these counts are about.
    pid: u32,
    /// Internal errors in a row per method, with the last message.
    errors: HashMap<&'static str, (usize, String)>,
    /// Deadlines missed in a row per method, and when the first of them was missed.
    timeouts: HashMap<&'static str, (usize, Instant)>,
    /// When the server last answered anything.
    last_answer: Option<Instant>,
}

impl MethodHealth {
    fn for_process(&mut self, pid: u32) {
        if self.pid != pid {
            *self = MethodHealth {
                pid,
                ..MethodHealth::default()
            };
        }
    }

    /// The server answered `method` (a result, or an error that is not an internal one).
    pub fn answered(&mut self, pid: u32, method: &'static str) {
        self.for_process(pid);
        self.errors.remove(method);
        self.timeouts.remove(method);
        self.last_answer = Some(Instant::now());
    }

    /// An internal error to `method`; the reason to restart when it makes `limit` in a row.
    pub fn internal_error(
        &mut self,
        pid: u32,
        method: &'static str,
        message: &str,
        limit: usize,
    ) -> Option<String> {
        self.for_process(pid);
        self.timeouts.remove(method);
        // An error answer is still an answer: the process is alive and reading.
        self.last_answer = Some(Instant::now());
        let e = self.errors.entry(method).or_insert((0, String::new()));
        e.0 += 1;
        e.1 = message.to_string();
        (e.0 >= limit.max(1)).then(|| {
            format!(
                "it answered {method} with an internal error {} times in a row ({})",
                e.0,
                short(&e.1)
            )
        })
    }

    /// `method` missed its deadline; the reason to restart when it has missed it
    /// [`TIMEOUTS_IN_A_ROW`] times while the server answered something else since the
    /// first miss (one method stuck, the rest working).
    pub fn timed_out(&mut self, pid: u32, method: &'static str, after: Duration) -> Option<String> {
        self.for_process(pid);
        let now = Instant::now();
        let e = self.timeouts.entry(method).or_insert((0, now));
        e.0 += 1;
        let (n, first) = *e;
        let others_answered = self.last_answer.is_some_and(|t| t > first);
        (n >= TIMEOUTS_IN_A_ROW && others_answered).then(|| {
            format!(
                "it stopped answering {method} ({n} deadlines of {}s missed in a row) while answering other requests",
                after.as_secs()
            )
        })
    }
}

fn short(message: &str) -> String {
    let m = message.trim();
    if m.chars().count() > 200 {
        let mut s: String = m.chars().take(199).collect();
        s.push('…');
        s
    } else {
        m.to_string()
    }
}

/// A server that said it cannot serve this project: why, the lines that show it, since
/// when, and which process said it.
#[derive(Debug, Clone)]
pub(crate) struct Unservable {
    pub pid: u32,
    pub reason: String,
    pub evidence: Vec<String>,
    pub since: Instant,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_in_a_row_wedge_a_method() {
        let mut h = MethodHealth::default();
        let m = "textDocument/references";
        assert!(h.internal_error(7, m, "boom", 3).is_none());
        assert!(h.internal_error(7, m, "boom", 3).is_none());
        // An answer in between resets the count.
        h.answered(7, m);
        assert!(h.internal_error(7, m, "boom", 3).is_none());
        assert!(h.internal_error(7, m, "boom", 3).is_none());
        let why = h.internal_error(7, m, "boom", 3).unwrap();
        assert!(
            why.contains("3 times in a row") && why.contains("boom"),
            "{why}"
        );
        // A new process starts from nothing.
        assert!(h.internal_error(8, m, "boom", 3).is_none());
    }

    #[test]
    fn a_method_that_times_out_while_others_answer_is_wedged() {
        let mut h = MethodHealth::default();
        let m = "textDocument/references";
        let d = Duration::from_secs(30);
        assert!(h.timed_out(1, m, d).is_none());
        // Frozen altogether: nothing else answered, not a method fault.
        assert!(h.timed_out(1, m, d).is_none());
        std::thread::sleep(Duration::from_millis(2));
        h.answered(1, "textDocument/definition");
        let why = h.timed_out(1, m, d).unwrap();
        assert!(why.contains("stopped answering"), "{why}");
    }
}
