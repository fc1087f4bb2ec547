//! Name search: an in-memory index rebuilt per generation.
//!
//! One entry per distinct lower-cased name, the names concatenated in one buffer so a
//! query is a linear scan over a few hundred kilobytes: exact, prefix and substring
//! tests, then a bounded Damerau-Levenshtein (small typos) or a subsequence test for the
//! rest. Qualified names are scanned only when the query has a separator (`.`, `::`,
//! `#`), file paths always (there are few). Linear on purpose: at 100k distinct names it
//! stays around a millisecond and needs no tuning, where a trigram index would need
//! maintenance on every generation.

use std::collections::HashMap;

use crate::NodeKind;
use crate::model::{Ix, Model};
use crate::types::MatchKind;

struct Entry {
    start: u32,
    len: u32,
    nodes: Vec<Ix>,
}

#[derive(Default)]
pub(crate) struct SearchIndex {
    buf: String,
    entries: Vec<Entry>,
    /// (definition node, lower-cased qualified name), for qualified queries.
    qnames: Vec<(Ix, Box<str>)>,
    /// (file node, lower-cased path).
    paths: Vec<(Ix, Box<str>)>,
}

impl SearchIndex {
    pub fn build(model: &Model) -> SearchIndex {
        let mut by_name: HashMap<String, Vec<Ix>> = HashMap::new();
        let mut qnames = Vec::new();
        let mut paths = Vec::new();
        for ix in model.node_ixs() {
            let n = model.n(ix);
            by_name
                .entry(model.names.str(n.name).to_lowercase())
                .or_default()
                .push(ix);
            match n.kind {
                NodeKind::File => paths.push((ix, n.qname.to_lowercase().into_boxed_str())),
                NodeKind::Module => {}
                _ => {
                    if n.qname.contains('.') {
                        qnames.push((ix, n.qname.to_lowercase().into_boxed_str()));
                    }
                }
            }
        }
        let mut names: Vec<(String, Vec<Ix>)> = by_name.into_iter().collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        let mut buf = String::new();
        let mut entries = Vec::with_capacity(names.len());
        for (name, nodes) in names {
            entries.push(Entry {
                start: buf.len() as u32,
                len: name.len() as u32,
                nodes,
            });
            buf.push_str(&name);
        }
        SearchIndex {
            buf,
            entries,
            qnames,
            paths,
        }
    }

    /// Every matching node with how it matched (the best way, when several).
    pub fn find(&self, query: &str) -> Vec<(Ix, MatchKind, f64)> {
        let ql = query.trim().to_lowercase();
        let mut hits: HashMap<Ix, (MatchKind, f64)> = HashMap::new();
        if ql.is_empty() {
            return vec![];
        }
        let q = ql.as_bytes();
        let max_typos = if q.len() <= 5 { 1 } else { 2 };
        for e in &self.entries {
            let name = &self.buf[e.start as usize..(e.start + e.len) as usize];
            let hit = if name == ql {
                Some((MatchKind::Exact, 0.0))
            } else if name.starts_with(ql.as_str()) {
                Some((MatchKind::Prefix, closeness(q.len(), name.len())))
            } else if name.contains(ql.as_str()) {
                Some((MatchKind::Substring, closeness(q.len(), name.len())))
            } else if q.len() >= 3 {
                fuzzy(q, name.as_bytes(), max_typos).map(|c| (MatchKind::Fuzzy, c))
            } else {
                None
            };
            if let Some(h) = hit {
                for &n in &e.nodes {
                    hits.insert(n, h);
                }
            }
        }
        if ql.contains(['.', ':', '#']) {
            let qn = ql.replace("::", ".").replace('#', ".");
            for (n, qname) in &self.qnames {
                let kind = if **qname == *qn {
                    MatchKind::Exact
                } else if qname.contains(qn.as_str()) {
                    MatchKind::QualifiedName
                } else {
                    continue;
                };
                insert_better(&mut hits, *n, kind, closeness(qn.len(), qname.len()));
            }
        }
        for (n, path) in &self.paths {
            if path.contains(ql.as_str()) {
                insert_better(
                    &mut hits,
                    *n,
                    MatchKind::Path,
                    closeness(q.len(), path.len()),
                );
            }
        }
        hits.into_iter().map(|(n, (k, c))| (n, k, c)).collect()
    }
}

fn insert_better(hits: &mut HashMap<Ix, (MatchKind, f64)>, n: Ix, kind: MatchKind, c: f64) {
    let e = hits.entry(n).or_insert((kind, c));
    if kind < e.0 {
        *e = (kind, c);
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

/// A small typo (Damerau-Levenshtein within `max`) or an ordered subsequence starting at
/// the same letter (`sesstore` → `sessionstore`). Returns a closeness in [0, 1).
fn fuzzy(q: &[u8], name: &[u8], max: usize) -> Option<f64> {
    if name.len().abs_diff(q.len()) <= max
        && let Some(d) = bounded_dl(q, name, max)
    {
        return Some(0.9 - 0.3 * d as f64);
    }
    if name.first() == q.first() && name.len() <= 4 * q.len() && is_subsequence(q, name) {
        return Some(0.3 * closeness(q.len(), name.len()));
    }
    None
}

fn is_subsequence(q: &[u8], name: &[u8]) -> bool {
    let mut it = name.iter();
    q.iter().all(|c| it.any(|n| n == c))
}

/// Optimal-string-alignment distance if it is at most `max`.
fn bounded_dl(a: &[u8], b: &[u8], max: usize) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    let big = max + 1;
    let mut prev2 = vec![big; m + 1];
    let mut prev: Vec<usize> = (0..=m).map(|j| j.min(big)).collect();
    let mut cur = vec![big; m + 1];
    for i in 1..=n {
        cur.fill(big);
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
}
