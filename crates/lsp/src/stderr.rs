//! A bounded ring of a child's stderr lines: at most `lines` lines of at most `line_chars`
//! characters each, whatever the child writes (a server logging 10 MB keeps the memory of
//! the ring flat). Also collects `window/logMessage` errors and warnings, which some servers
//! use instead of stderr.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};

/// The marker appended to a line that was cut.
pub const CUT: char = '…';

#[derive(Debug)]
pub struct StderrRing {
    lines: VecDeque<String>,
    max_lines: usize,
    max_chars: usize,
    /// The line being assembled (bytes not yet ended by a newline), already capped.
    partial: Vec<u8>,
    partial_cut: bool,
    /// Lines pushed out of the ring, for the "(N earlier lines dropped)" note.
    dropped: u64,
}

impl StderrRing {
    pub fn new(max_lines: usize, max_chars: usize) -> Self {
        StderrRing {
            lines: VecDeque::with_capacity(max_lines.min(256)),
            max_lines: max_lines.max(1),
            max_chars: max_chars.max(8),
            partial: Vec::new(),
            partial_cut: false,
            dropped: 0,
        }
    }

    /// Feeds raw bytes as they come from the pipe.
    pub fn feed(&mut self, bytes: &[u8]) {
        for chunk in bytes.split_inclusive(|&b| b == b'\n') {
            let (body, ends) = match chunk.strip_suffix(b"\n") {
                Some(body) => (body, true),
                None => (chunk, false),
            };
            // Keep at most 4 bytes per char of the cap: enough for any UTF-8 text.
            let room = (self.max_chars * 4).saturating_sub(self.partial.len());
            if body.len() > room {
                self.partial.extend_from_slice(&body[..room]);
                self.partial_cut = true;
            } else {
                self.partial.extend_from_slice(body);
            }
            if ends {
                let raw = std::mem::take(&mut self.partial);
                let cut = std::mem::take(&mut self.partial_cut);
                self.push_line(&String::from_utf8_lossy(&raw), cut);
            }
        }
    }

    /// Adds a whole line (e.g. a `window/logMessage`).
    pub fn push_line(&mut self, line: &str, already_cut: bool) {
        let line = line.trim_end_matches('\r');
        let mut text: String = line.chars().take(self.max_chars).collect();
        if already_cut || text.len() < line.len() {
            text.push(CUT);
        }
        if self.lines.len() == self.max_lines {
            self.lines.pop_front();
            self.dropped += 1;
        }
        self.lines.push_back(text);
    }

    /// The last `n` lines (all when `n` is larger), oldest first, with the unfinished line.
    pub fn tail(&self, n: usize) -> Vec<String> {
        let mut out: Vec<String> = self
            .lines
            .iter()
            .skip(self.lines.len().saturating_sub(n))
            .cloned()
            .collect();
        if !self.partial.is_empty() {
            let mut text: String = String::from_utf8_lossy(&self.partial)
                .chars()
                .take(self.max_chars)
                .collect();
            if self.partial_cut {
                text.push(CUT);
            }
            out.push(text);
            if out.len() > n {
                out.remove(0);
            }
        }
        out
    }

    /// Lines that fell out of the ring so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Bytes held, for the memory test.
    pub fn held_bytes(&self) -> usize {
        self.lines.iter().map(String::len).sum::<usize>() + self.partial.len()
    }
}

pub type SharedRing = Arc<Mutex<StderrRing>>;

/// Drains a pipe into the ring until it closes. Reads in fixed chunks, so a line of
/// any length costs no more than the cap.
pub async fn drain<R: AsyncRead + Unpin>(mut pipe: R, ring: SharedRing) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if let Ok(mut ring) = ring.lock() {
                    ring.feed(&buf[..n]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_lines_each_capped() {
        let mut ring = StderrRing::new(3, 10);
        ring.feed(b"one\ntwo\nthree\nfour\n");
        ring.feed(b"a very long line that goes on\nfive-");
        ring.feed(b"part");
        assert_eq!(
            ring.tail(10),
            vec!["three", "four", "a very lon…", "five-part"]
        );
        assert_eq!(ring.dropped(), 2);
        assert_eq!(ring.tail(1), vec!["five-part"]);
    }

    #[test]
    fn memory_is_flat_under_a_flood() {
        let mut ring = StderrRing::new(100, 200);
        let line = vec![b'x'; 1000];
        for _ in 0..10_000 {
            ring.feed(&line);
            ring.feed(b"\n");
        }
        // A single 10 MB line without a newline is capped as well.
        ring.feed(&vec![b'y'; 10 * 1024 * 1024]);
        assert!(ring.held_bytes() <= 101 * 200 * 4, "{}", ring.held_bytes());
        assert!(ring.tail(1)[0].ends_with(CUT));
    }
}
