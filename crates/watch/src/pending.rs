//! The burst being debounced: a bounded set of paths and the two deadlines (quiet, max-wait).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::Changes;

/// Paths changed since the last `settled` signal.
pub(crate) struct Pending {
    paths: HashSet<String>,
    /// Set once the burst stopped being a list of paths (too many, or unknown).
    rescan: bool,
    first: Option<Instant>,
    last: Option<Instant>,
    max_paths: usize,
}

impl Pending {
    pub(crate) fn new(max_paths: usize) -> Self {
        Pending {
            paths: HashSet::new(),
            rescan: false,
            first: None,
            last: None,
            max_paths,
        }
    }

    /// Records a batch observed at `now`. Past `max_paths` distinct paths the set is
    /// dropped for a rescan flag: memory stays bounded whatever the burst.
    pub(crate) fn add(&mut self, batch: &Changes, now: Instant) {
        if batch.paths.is_empty() && !batch.rescan {
            return;
        }
        self.first.get_or_insert(now);
        self.last = Some(now);
        if batch.rescan {
            self.collapse();
        }
        if self.rescan {
            return;
        }
        for p in &batch.paths {
            if self.paths.len() >= self.max_paths && !self.paths.contains(p) {
                self.collapse();
                return;
            }
            self.paths.insert(p.clone());
        }
    }

    fn collapse(&mut self) {
        self.rescan = true;
        self.paths = HashSet::new();
    }

    /// When the burst settles: `quiet` after its last event, but no later than `max_wait`
    /// after its first. `None` when nothing is pending.
    pub(crate) fn deadline(&self, quiet: Duration, max_wait: Duration) -> Option<Instant> {
        let (first, last) = (self.first?, self.last?);
        Some((last + quiet).min(first + max_wait))
    }

    /// The burst, sorted, leaving this empty.
    pub(crate) fn take(&mut self) -> Changes {
        let mut paths: Vec<String> = std::mem::take(&mut self.paths).into_iter().collect();
        paths.sort_unstable();
        let rescan = std::mem::take(&mut self.rescan);
        self.first = None;
        self.last = None;
        Changes { paths, rescan }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(paths: &[&str]) -> Changes {
        Changes {
            paths: paths.iter().map(|p| p.to_string()).collect(),
            rescan: false,
        }
    }

    #[test]
    fn deadline_is_quiet_after_last_capped_by_max_wait() {
        let (quiet, max_wait) = (Duration::from_millis(300), Duration::from_secs(2));
        let t0 = Instant::now();
        let mut p = Pending::new(10);
        assert_eq!(p.deadline(quiet, max_wait), None);
        p.add(&batch(&["a"]), t0);
        assert_eq!(p.deadline(quiet, max_wait), Some(t0 + quiet));
        p.add(&batch(&["b"]), t0 + Duration::from_millis(1900));
        assert_eq!(p.deadline(quiet, max_wait), Some(t0 + max_wait));
        let c = p.take();
        assert_eq!(c, batch(&["a", "b"]));
        assert_eq!(p.deadline(quiet, max_wait), None);
    }

    #[test]
    fn union_is_deduplicated_and_bounded() {
        let now = Instant::now();
        let mut p = Pending::new(3);
        p.add(&batch(&["b", "a"]), now);
        p.add(&batch(&["a", "c"]), now);
        assert_eq!(p.take(), batch(&["a", "b", "c"]));
        p.add(&batch(&["a", "b", "c", "d", "e"]), now);
        p.add(&batch(&["f"]), now);
        let c = p.take();
        assert!(c.rescan && c.paths.is_empty());
        p.add(&batch(&["g"]), now);
        assert_eq!(
            p.take(),
            batch(&["g"]),
            "the flag belongs to one burst only"
        );
    }

    #[test]
    fn empty_batches_start_nothing() {
        let mut p = Pending::new(3);
        p.add(&Changes::default(), Instant::now());
        assert!(p.deadline(Duration::ZERO, Duration::ZERO).is_none());
        p.add(
            &Changes {
                paths: vec![],
                rescan: true,
            },
            Instant::now(),
        );
        assert!(p.take().rescan);
    }
}
