//! Name search: an in-memory index kept up to date per generation.
//!
//! One entry per distinct lower-cased name, the names themselves in one `\n`-separated
//! buffer (an entry is its range there, found by name through a hash table of entry
//! numbers), and a 64-bit mask of the characters each holds. A query runs one memmem search over the
//! buffer (exact, prefix and substring matches at once, at memory speed), then scans the
//! entries left for a bounded Damerau-Levenshtein (small typos) or a subsequence test,
//! both skipped at once when the masks show too many missing characters. Qualified names are
//! scanned only when the query has a separator (`.`, `::`, `#`), file paths always (there
//! are few), both read from the model and lower-cased as they are compared (issue 19: a
//! lower-cased copy of every qualified name and path was a third of the index). Linear on purpose: at 100k distinct names it stays around a millisecond and
//! needs no tuning. Updated incrementally: a rebuild re-registers only the nodes it
//! touched, so a one-file change costs microseconds here.

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::NodeKind;
use crate::model::{Ix, Model, Rows};
use crate::types::MatchKind;

const NONE: u32 = u32::MAX;
/// Fuzzy matching runs only while exact/prefix/substring matches are fewer than this.
pub(crate) const FUZZY_ONLY_BELOW: usize = 200;

/// One distinct lower-cased name: 16 bytes, its text in `buf` (up to the next entry's) and
/// its node inline when there is one (most names), so the index holds no allocation per
/// name (issue 19: the server's resident size; a length and a node field apart made it 24).
struct Entry {
    mask: u64,
    /// Offset of the name in `buf`.
    start: u32,
    /// The only node; with [`MANY`] set, the index into `lists` once the name has had more
    /// than one node; `NONE` when none.
    nodes: u32,
}

/// The bit of [`Entry::nodes`] that makes it an index into `lists` (node indexes are row
/// ids, far below it).
const MANY: u32 = 1 << 31;

/// Entry `e`'s name: from its start to the `\n` before the next entry's (or the end).
fn entry_name<'a>(entries: &[Entry], buf: &'a str, e: usize) -> &'a str {
    let start = entries[e].start as usize;
    let end = entries.get(e + 1).map_or(buf.len(), |n| n.start as usize) - 1;
    &buf[start..end]
}

#[derive(Default)]
pub(crate) struct SearchIndex {
    entries: Vec<Entry>,
    /// Node lists of the names with more than one node, by list index (in one shared
    /// array: a `Vec` per list was 24 bytes and an allocation a list).
    lists: Rows<Ix>,
    /// How many lists `lists` has handed out.
    list_count: u32,
    /// `\n` + every entry's name + `\n`…, in entry order (names of emptied entries stay
    /// until the index is rebuilt).
    buf: String,
    /// Entry indexes, hashed by their name in `buf` (the text is not copied).
    by_lower: HashTable<u32>,
    hasher: foldhash::fast::FixedState,
    /// One past the largest node index registered: a node's entry is not kept (issue 19:
    /// 4 bytes a node, read only by [`SearchIndex::update`], which derives it from the
    /// entries' nodes).
    nodes_len: usize,
    /// The file nodes, ascending: their paths are searched on every query.
    file_nodes: Vec<Ix>,
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
        idx.entries.shrink_to_fit();
        idx.lists.freeze();
        idx.buf.shrink_to_fit();
        idx.file_nodes.shrink_to_fit();
        idx.by_lower.shrink_to_fit(|&e| {
            idx.hasher
                .hash_one(entry_name(&idx.entries, &idx.buf, e as usize))
        });
        idx
    }

    /// Rebuilt from scratch when emptied entries (renamed or deleted names) make up most
    /// of the index.
    pub fn needs_compaction(&self) -> bool {
        let empty = (0..self.entries.len())
            .filter(|&e| self.entry_nodes(e).is_empty())
            .count();
        empty > 1024 && empty * 2 > self.entries.len()
    }

    fn name(&self, e: usize) -> &str {
        entry_name(&self.entries, &self.buf, e)
    }

    fn entry_nodes(&self, e: usize) -> &[Ix] {
        let entry = &self.entries[e];
        if entry.nodes == NONE {
            &[]
        } else if entry.nodes & MANY != 0 {
            &self.lists[(entry.nodes & !MANY) as usize]
        } else {
            std::slice::from_ref(&entry.nodes)
        }
    }

    fn entry_of(&self, lower: &str) -> Option<u32> {
        let hash = self.hasher.hash_one(lower);
        self.by_lower
            .find(hash, |&e| self.name(e as usize) == lower)
            .copied()
    }

    fn push_node(&mut self, e: u32, ix: Ix) {
        assert!(ix < MANY, "a node index past 2^31");
        let entry = &mut self.entries[e as usize];
        if entry.nodes == NONE {
            entry.nodes = ix;
        } else if entry.nodes & MANY != 0 {
            self.lists.push(entry.nodes & !MANY, ix);
        } else {
            let list = self.list_count;
            assert!(list < !MANY, "2^31 lists");
            self.list_count += 1;
            self.lists.push(list, entry.nodes);
            self.lists.push(list, ix);
            entry.nodes = MANY | list;
        }
    }

    fn remove_node(&mut self, e: u32, ix: Ix) {
        let entry = &mut self.entries[e as usize];
        if entry.nodes == ix {
            entry.nodes = NONE;
        } else if entry.nodes != NONE && entry.nodes & MANY != 0 {
            self.lists.retain(entry.nodes & !MANY, |&n| n != ix);
        }
    }

    /// Node → its entry (`NONE` when not indexed), from the entries' nodes.
    fn node_entries(&self) -> Vec<u32> {
        let mut node_entry = vec![NONE; self.nodes_len];
        for e in 0..self.entries.len() {
            for &ix in self.entry_nodes(e) {
                node_entry[ix as usize] = e as u32;
            }
        }
        node_entry
    }

    /// A new entry for a name not in the index.
    fn add_entry(&mut self, lower: &str) -> u32 {
        let e = self.entries.len() as u32;
        if self.buf.is_empty() {
            self.buf.push('\n');
        }
        let start = self.buf.len() as u32;
        self.buf.push_str(lower);
        self.buf.push('\n');
        self.entries.push(Entry {
            mask: mask_of(lower),
            start,
            nodes: NONE,
        });
        let hash = self.hasher.hash_one(lower);
        let (entries, buf, hasher) = (&self.entries, &self.buf, &self.hasher);
        self.by_lower.insert_unique(hash, e, |&x| {
            hasher.hash_one(entry_name(entries, buf, x as usize))
        });
        e
    }

    /// Re-registers these nodes as they are now in the model (gone ones leave).
    pub fn update(&mut self, model: &Model, nodes: impl IntoIterator<Item = Ix>) {
        let mut node_entry = self.node_entries();
        for ix in nodes {
            let i = ix as usize;
            if node_entry.len() <= i {
                node_entry.resize(i + 1, NONE);
            }
            let old = node_entry[i];
            let node = model.node(ix);
            let is_file = node.is_some_and(|n| n.kind == NodeKind::File);
            match (self.file_nodes.binary_search(&ix), is_file) {
                (Err(at), true) => self.file_nodes.insert(at, ix),
                (Ok(at), false) => _ = self.file_nodes.remove(at),
                _ => {}
            }
            let lower = node.map(|n| model.names.str(n.name).to_lowercase());
            if old != NONE {
                let same = lower
                    .as_deref()
                    .is_some_and(|l| self.name(old as usize) == l);
                if !same {
                    self.remove_node(old, ix);
                    node_entry[i] = NONE;
                }
            }
            let Some(lower) = lower else {
                continue;
            };
            if node_entry[i] == NONE {
                let e = match self.entry_of(&lower) {
                    Some(e) => e,
                    None => self.add_entry(&lower),
                };
                self.push_node(e, ix);
                node_entry[i] = e;
            }
        }
        self.nodes_len = node_entry.len();
    }

    /// The nodes whose lower-cased name is `lower` (files by their file name).
    pub fn nodes_named(&self, lower: &str) -> &[Ix] {
        self.entry_of(lower)
            .map(|e| self.entry_nodes(e as usize))
            .unwrap_or(&[])
    }

    /// Every distinct lower-cased name with its nodes.
    pub fn names(&self) -> impl Iterator<Item = (&str, &[Ix])> {
        (0..self.entries.len())
            .map(|e| (self.name(e), self.entry_nodes(e)))
            .filter(|(_, nodes)| !nodes.is_empty())
    }

    /// The definitions whose qualified name is qualified (holds a `.`), in node order,
    /// with it as written.
    fn qualified<'m>(
        model: &'m Model,
        query: &'m [u8],
    ) -> impl Iterator<Item = (Ix, &'m str)> + 'm {
        // A query with a `.` is found only in a name with one: no test needed.
        let any = memchr::memchr(b'.', query).is_some();
        model.nodes.iter().enumerate().filter_map(move |(ix, n)| {
            let n = n.as_ref()?;
            if matches!(n.kind, NodeKind::File | NodeKind::Module) {
                return None;
            }
            let qname = model.qname(n);
            // Shorter than the query: neither equal to it nor holding it, lower-cased
            // (ASCII keeps its length; other text may grow).
            if qname.len() < query.len() && qname.is_ascii() {
                return None;
            }
            (any || qname.contains('.')).then_some((ix as Ix, qname))
        })
    }

    /// The file nodes, in node order, with their paths as written.
    fn paths<'m>(&'m self, model: &'m Model) -> impl Iterator<Item = (Ix, &'m str)> + 'm {
        self.file_nodes
            .iter()
            .filter_map(|&ix| Some((ix, model.qname(model.slot(ix)?))))
            .filter(|(_, path)| !path.is_empty())
    }

    /// Every matching node with how it matched (the best way, when several) and a
    /// closeness in [0, 1). `model` is the one the index was last updated from.
    pub fn find(&self, model: &Model, query: &str) -> Vec<(Ix, MatchKind, f64)> {
        let ql = query.trim().to_lowercase();
        if ql.is_empty() {
            return vec![];
        }
        let q = ql.as_bytes();
        let qmask = mask_of(&ql);
        let max_typos = if q.len() <= 5 { 1 } else { 2 };
        let mut hits: Vec<(Ix, MatchKind, f64)> = Vec::new();
        // Node → its position in `hits`, so later tiers keep only the best match.
        let mut at: Vec<u32> = vec![NONE; self.nodes_len.max(model.nodes.len())];
        // Exact, prefix, substring: every occurrence of the query in the name buffer.
        let mut matched = vec![false; self.entries.len()];
        if !ql.contains('\n') {
            for p in memchr::memmem::find_iter(self.buf.as_bytes(), q) {
                let e = self.entries.partition_point(|e| e.start as usize <= p);
                let Some(ei) = e.checked_sub(1) else { continue };
                let nodes = self.entry_nodes(ei);
                if matched[ei] || nodes.is_empty() {
                    continue;
                }
                matched[ei] = true;
                let entry = &self.entries[ei];
                let name_len = self.name(ei).len();
                let hit = if name_len == q.len() {
                    (MatchKind::Exact, 0.99)
                } else if p == entry.start as usize {
                    (MatchKind::Prefix, closeness(q.len(), name_len))
                } else {
                    (MatchKind::Substring, closeness(q.len(), name_len))
                };
                for &n in nodes {
                    at[n as usize] = hits.len() as u32;
                    hits.push((n, hit.0, hit.1));
                }
            }
        }
        // Small typos and subsequences among the rest, unless better matches already
        // outnumber any page (fuzzy ones would rank below them all).
        if q.len() >= 3 && hits.len() < FUZZY_ONLY_BELOW {
            for (ei, e) in self.entries.iter().enumerate() {
                if matched[ei] || (qmask & !e.mask).count_ones() as usize > max_typos {
                    continue;
                }
                let nodes = self.entry_nodes(ei);
                if nodes.is_empty() {
                    continue;
                }
                if let Some(c) = fuzzy(q, self.name(ei).as_bytes(), max_typos) {
                    for &n in nodes {
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
        // One searcher per query (`str::contains` builds one per call: most of a scan).
        let mut lower = Vec::new();
        if ql.contains(['.', ':', '#']) {
            let qn = ql.replace("::", ".").replace('#', ".");
            let finder = memchr::memmem::Finder::new(qn.as_bytes());
            for (n, qname) in Self::qualified(model, qn.as_bytes()) {
                let qname = lower_into(qname, &mut lower);
                let kind = if qname == qn.as_bytes() {
                    MatchKind::Exact
                } else if finder.find(qname).is_some() {
                    MatchKind::QualifiedName
                } else {
                    continue;
                };
                better(
                    &mut hits,
                    &mut at,
                    n,
                    kind,
                    closeness(qn.len(), qname.len()),
                );
            }
        }
        let finder = memchr::memmem::Finder::new(q);
        for (n, path) in self.paths(model) {
            let path = lower_into(path, &mut lower);
            if finder.find(path).is_some() {
                better(
                    &mut hits,
                    &mut at,
                    n,
                    MatchKind::Path,
                    closeness(q.len(), path.len()),
                );
            }
        }
        hits
    }
}

/// `text` lower-cased as `str::to_lowercase` writes it, in `buf` (ASCII in place, without
/// allocating).
fn lower_into<'b>(text: &str, buf: &'b mut Vec<u8>) -> &'b [u8] {
    buf.clear();
    if text.is_ascii() {
        buf.extend_from_slice(text.as_bytes());
        buf.make_ascii_lowercase();
    } else {
        buf.extend_from_slice(text.to_lowercase().as_bytes());
    }
    buf
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
    fn texts_fold_as_to_lowercase_writes_them() {
        let mut buf = Vec::new();
        for t in ["os.path.Join", "ÉCOLE.Straße", "İstanbul.X", "a_b/C.py", ""] {
            assert_eq!(lower_into(t, &mut buf), t.to_lowercase().as_bytes());
        }
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
