//! Name search: an in-memory index kept up to date per generation.
//!
//! One entry per distinct lower-cased name, every name also in one `\n`-separated buffer,
//! and a 64-bit mask of the characters each holds. A query runs one memmem search over the
//! buffer (exact, prefix and substring matches at once, at memory speed), then scans the
//! entries left for a bounded Damerau-Levenshtein (small typos) or a subsequence test,
//! both skipped at once when the masks show too many missing characters. Qualified names are
//! scanned only when the query has a separator (`.`, `::`, `#`), file paths always (there
//! are few). Linear on purpose: at 100k distinct names it stays around a millisecond and
//! needs no tuning. Updated incrementally: a rebuild re-registers only the nodes it
//! touched, so a one-file change costs microseconds here.

use std::collections::HashMap;

use crate::NodeKind;
use crate::model::{Ix, Model};
use crate::types::MatchKind;

const NONE: u32 = u32::MAX;
/// Fuzzy matching runs only while exact/prefix/substring matches are fewer than this.
pub(crate) const FUZZY_ONLY_BELOW: usize = 200;

struct Entry {
    lower: Box<str>,
    mask: u64,
    /// Offset of the name in `buf`.
    start: u32,
    nodes: Vec<Ix>,
}

#[derive(Default)]
pub(crate) struct SearchIndex {
    entries: Vec<Entry>,
    /// `\n` + every entry's name + `\n`…, in entry order (names of emptied entries stay
    /// until the index is rebuilt).
    buf: String,
    by_lower: HashMap<Box<str>, u32>,
    /// Node → its entry (`NONE` when not indexed).
    node_entry: Vec<u32>,
    /// Node → lower-cased qualified name, for definitions whose name is qualified.
    qname: Vec<Option<Box<str>>>,
    /// Node → lower-cased path, for file nodes.
    path: Vec<Option<Box<str>>>,
}

/// Which of 64 buckets a byte falls in: letters, digits and `_` get their own.
fn bucket(b: u8) -> u32 {
    match b {
        b'a'..=b'z' => (b - b'a') as u32,
        b'0'..=b'9' => 26 + (b - b'0') as u32,
        b'_' => 36,
        b'.' | b'/' | b':' | b'-' => 37,
        _ => 38 + (b as u32 % 26),
    }
}

fn mask_of(s: &str) -> u64 {
    s.bytes().fold(0u64, |m, b| m | (1u64 << bucket(b)))
}

impl SearchIndex {
    pub fn build(model: &Model) -> SearchIndex {
        let mut idx = SearchIndex::default();
        idx.update(model, model.node_ixs());
        idx
    }

    /// Rebuilt from scratch when emptied entries (renamed or deleted names) make up most
    /// of the index.
    pub fn needs_compaction(&self) -> bool {
        let empty = self.entries.iter().filter(|e| e.nodes.is_empty()).count();
        empty > 1024 && empty * 2 > self.entries.len()
    }

    fn ensure(&mut self, ix: Ix) {
        let need = ix as usize + 1;
        if self.node_entry.len() < need {
            self.node_entry.resize(need, NONE);
            self.qname.resize(need, None);
            self.path.resize(need, None);
        }
    }

    /// Re-registers these nodes as they are now in the model (gone ones leave).
    pub fn update(&mut self, model: &Model, nodes: impl IntoIterator<Item = Ix>) {
        for ix in nodes {
            self.ensure(ix);
            let i = ix as usize;
            let old = self.node_entry[i];
            let node = model.node(ix);
            let lower = node.map(|n| model.names.str(n.name).to_lowercase());
            if old != NONE {
                let same = lower
                    .as_deref()
                    .is_some_and(|l| *self.entries[old as usize].lower == *l);
                if !same {
                    self.entries[old as usize].nodes.retain(|&n| n != ix);
                    self.node_entry[i] = NONE;
                }
            }
            self.qname[i] = None;
            self.path[i] = None;
            let (Some(n), Some(lower)) = (node, lower) else {
                continue;
            };
            if self.node_entry[i] == NONE {
                let e = match self.by_lower.get(lower.as_str()) {
                    Some(&e) => e,
                    None => {
                        let e = self.entries.len() as u32;
                        if self.buf.is_empty() {
                            self.buf.push('\n');
                        }
                        let start = self.buf.len() as u32;
                        self.buf.push_str(&lower);
                        self.buf.push('\n');
                        self.entries.push(Entry {
                            mask: mask_of(&lower),
                            lower: lower.clone().into_boxed_str(),
                            start,
                            nodes: Vec::new(),
                        });
                        self.by_lower.insert(lower.into_boxed_str(), e);
                        e
                    }
                };
                self.entries[e as usize].nodes.push(ix);
                self.node_entry[i] = e;
            }
            match n.kind {
                NodeKind::File => self.path[i] = Some(n.qname.to_lowercase().into_boxed_str()),
                NodeKind::Module => {}
                _ if n.qname.contains('.') => {
                    self.qname[i] = Some(n.qname.to_lowercase().into_boxed_str())
                }
                _ => {}
            }
        }
    }

    /// The nodes whose lower-cased name is `lower` (files by their file name).
    pub fn nodes_named(&self, lower: &str) -> &[Ix] {
        self.by_lower
            .get(lower)
            .map(|&e| self.entries[e as usize].nodes.as_slice())
            .unwrap_or(&[])
    }

    /// Every distinct lower-cased name with its nodes.
    pub fn names(&self) -> impl Iterator<Item = (&str, &[Ix])> {
        self.entries
            .iter()
            .filter(|e| !e.nodes.is_empty())
            .map(|e| (&*e.lower, e.nodes.as_slice()))
    }

    /// Every matching node with how it matched (the best way, when several) and a
    /// closeness in [0, 1).
    pub fn find(&self, query: &str) -> Vec<(Ix, MatchKind, f64)> {
        let ql = query.trim().to_lowercase();
        if ql.is_empty() {
            return vec![];
        }
        let q = ql.as_bytes();
        let qmask = mask_of(&ql);
        let max_typos = if q.len() <= 5 { 1 } else { 2 };
        let mut hits: Vec<(Ix, MatchKind, f64)> = Vec::new();
        // Node → its position in `hits`, so later tiers keep only the best match.
        let mut at: Vec<u32> = vec![NONE; self.node_entry.len()];
        // Exact, prefix, substring: every occurrence of the query in the name buffer.
        let mut matched = vec![false; self.entries.len()];
        if !ql.contains('\n') {
            for p in memchr::memmem::find_iter(self.buf.as_bytes(), q) {
                let e = self.entries.partition_point(|e| e.start as usize <= p);
                let Some(ei) = e.checked_sub(1) else { continue };
                let entry = &self.entries[ei];
                if matched[ei] || entry.nodes.is_empty() {
                    continue;
                }
                matched[ei] = true;
                let name = &*entry.lower;
                let hit = if name.len() == q.len() {
                    (MatchKind::Exact, 0.99)
                } else if p == entry.start as usize {
                    (MatchKind::Prefix, closeness(q.len(), name.len()))
                } else {
                    (MatchKind::Substring, closeness(q.len(), name.len()))
                };
                for &n in &entry.nodes {
                    at[n as usize] = hits.len() as u32;
                    hits.push((n, hit.0, hit.1));
                }
            }
        }
        // Small typos and subsequences among the rest, unless better matches already
        // outnumber any page (fuzzy ones would rank below them all).
        if q.len() >= 3 && hits.len() < FUZZY_ONLY_BELOW {
            for (ei, e) in self.entries.iter().enumerate() {
                if matched[ei]
                    || e.nodes.is_empty()
                    || (qmask & !e.mask).count_ones() as usize > max_typos
                {
                    continue;
                }
                if let Some(c) = fuzzy(q, e.lower.as_bytes(), max_typos) {
                    for &n in &e.nodes {
                        at[n as usize] = hits.len() as u32;
                        hits.push((n, MatchKind::Fuzzy, c));
                    }
                }
            }
        }
        let better = |hits: &mut Vec<(Ix, MatchKind, f64)>, at: &mut Vec<u32>, n: Ix, kind, c| {
            let p = at[n as usize];
            if p == NONE {
                at[n as usize] = hits.len() as u32;
                hits.push((n, kind, c));
            } else if kind < hits[p as usize].1 {
                hits[p as usize] = (n, kind, c);
            }
        };
        if ql.contains(['.', ':', '#']) {
            let qn = ql.replace("::", ".").replace('#', ".");
            for (n, qname) in self.qname.iter().enumerate() {
                let Some(qname) = qname else { continue };
                let kind = if **qname == *qn {
                    MatchKind::Exact
                } else if qname.contains(qn.as_str()) {
                    MatchKind::QualifiedName
                } else {
                    continue;
                };
                better(
                    &mut hits,
                    &mut at,
                    n as Ix,
                    kind,
                    closeness(qn.len(), qname.len()),
                );
            }
        }
        for (n, path) in self.path.iter().enumerate() {
            let Some(path) = path else { continue };
            if path.contains(ql.as_str()) {
                better(
                    &mut hits,
                    &mut at,
                    n as Ix,
                    MatchKind::Path,
                    closeness(q.len(), path.len()),
                );
            }
        }
        hits
    }
}

/// In [0, 1): how much of the candidate the query covers (longer names rank lower).
fn closeness(q: usize, name: usize) -> f64 {
    if name == 0 {
        0.0
    } else {
        (q as f64 / name as f64).min(1.0) * 0.99
    }
}

/// Subsequence matches have a closeness below this; typo matches at least this.
pub(crate) const SUBSEQUENCE_CLOSENESS: f64 = 0.3;

/// A small typo (Damerau-Levenshtein within `max`) or an ordered subsequence starting at
/// the same letter (`sesstore` → `sessionstore`). Returns a closeness in [0, 1).
fn fuzzy(q: &[u8], name: &[u8], max: usize) -> Option<f64> {
    if name.len().abs_diff(q.len()) <= max
        && let Some(d) = bounded_dl(q, name, max)
    {
        return Some(0.9 - 0.3 * d as f64);
    }
    if name.first() == q.first() && name.len() <= 4 * q.len() && is_subsequence(q, name) {
        return Some(SUBSEQUENCE_CLOSENESS * closeness(q.len(), name.len()));
    }
    None
}

fn is_subsequence(q: &[u8], name: &[u8]) -> bool {
    let mut it = name.iter();
    q.iter().all(|c| it.any(|n| n == c))
}

/// Optimal-string-alignment distance if it is at most `max` (names up to 63 bytes;
/// longer ones are never typo matches). No allocation: rows live on the stack.
pub(crate) fn bounded_dl(a: &[u8], b: &[u8], max: usize) -> Option<usize> {
    // A common prefix and suffix cost nothing (`method_123_4` vs `method_124_3`).
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[pre..], &b[pre..]);
    let suf = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suf], &b[..b.len() - suf]);
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    const W: usize = 64;
    let (n, m) = (a.len(), b.len());
    if n >= W || m >= W {
        return None;
    }
    let big = max + 1;
    let mut prev2 = [big; W];
    let mut prev = [big; W];
    let mut cur = [big; W];
    for (j, p) in prev.iter_mut().enumerate().take(m + 1) {
        *p = j.min(big);
    }
    for i in 1..=n {
        cur[..=m].fill(big);
        cur[0] = i.min(big);
        let lo = i.saturating_sub(max).max(1);
        let hi = (i + max).min(m);
        let mut row_min = cur[0];
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v.min(big);
            row_min = row_min.min(cur[j]);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[m] <= max).then_some(prev[m])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typo_distance() {
        assert_eq!(bounded_dl(b"sessionstore", b"sessionstore", 2), Some(0));
        assert_eq!(bounded_dl(b"sesionstore", b"sessionstore", 2), Some(1));
        assert_eq!(bounded_dl(b"sessoinstore", b"sessionstore", 2), Some(1));
        assert_eq!(bounded_dl(b"sessoinstroe", b"sessionstore", 2), Some(2));
        assert_eq!(bounded_dl(b"abc", b"xyz", 1), None);
        assert!(fuzzy(b"sesstore", b"sessionstore", 2).is_some());
        assert!(fuzzy(b"xsstore", b"sessionstore", 2).is_none());
    }

    #[test]
    fn masks_bound_typos() {
        // Every distinct missing character needs at least one edit.
        let q = "sesionstore";
        let name = "sessionstore";
        assert!((mask_of(q) & !mask_of(name)).count_ones() <= 1);
        assert!((mask_of("xyzzy") & !mask_of(name)).count_ones() > 2);
    }
}
