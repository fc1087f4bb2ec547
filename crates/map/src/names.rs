//! Names as an agent writes them → nodes (contract §3, "Addressing by name").
//!
//! An agent knows a name, not a node ID. The forms understood, tried in this order:
//! - a full node ID (`py:src/app.py#Cart.add`), also without its `<lang>:` prefix;
//! - `file#name`: a path or a path's tail (`sessions.py#Session`, `src/requests/api.py#get`)
//!   and a qualified name inside that file;
//! - a path or a path's tail alone (`requests/api.py`): the file;
//! - a qualified name with `.`, `::` or `/` between the parts (`Session.get_adapter`,
//!   `requests.get`, `sessions.Session`, `gin.Context`): the last part is the symbol's
//!   name; the parts before it must appear, in order, in the symbol's *chain*: the root
//!   directory's name, the directories and the file's stem of its path, then the
//!   enclosing definitions. Enclosing definitions are never skipped (`requests.get` is not
//!   `Session.get`), directories are (`requests.get` is `src/requests/api.py#get`; the
//!   fewer skipped, the better). Leading parts the map knows nowhere (a package name that
//!   is no directory, a language keyword such as a crate or module root word) are
//!   ignored and reported.
//!
//! Several matches are ranked: the name's exact case, fewer skipped directories, not test
//! code, then hub score. No match: the nearest names by edit distance, the members of the
//! named container first (`Context.Nope` → `Context.Next`), so the agent can retry at once.

use std::cmp::Reverse;
use std::collections::HashSet;

use crate::State;
use crate::error::{MapError, Result};
use crate::model::Ix;
use crate::query::ordered_score;
use crate::search::bounded_dl;
use crate::types::SymbolMatches;

/// Nearest names given when nothing matched.
const NEAREST: usize = 5;
/// Edit distance within which a name counts as near (beyond the named container's members).
const NEAR_DISTANCE: usize = 2;

/// Path segments that mark test code, whatever the language (a rank, never a filter).
const TEST_SEGMENTS: &[&str] = &["test", "tests", "testing", "__tests__", "spec", "specs"];

/// How well one candidate matched: lower is better.
type Rank = (u32, u32, bool, Reverse<u32>, Ix);

impl State {
    /// The nodes `query` names, best first (at most `limit`), or the nearest names.
    /// `root_name` is the name of the root directory (the first part of every chain).
    pub(crate) fn find_symbol(
        &self,
        root_name: &str,
        query: &str,
        limit: usize,
    ) -> Result<SymbolMatches> {
        self.require_built()?;
        let q = query.trim();
        if q.is_empty() {
            return Err(MapError::bad_args("symbol", "an empty name"));
        }
        Ok(match self.named_by(root_name, q) {
            Ok((found, ignored)) => self.matched(found, limit, ignored),
            Err(near) => self.nearest_only(root_name, &near),
        })
    }

    /// The nodes `q` names, best first, with the qualifiers ignored; or, when none, the
    /// qualified name to look for near names of.
    pub(crate) fn named_by(
        &self,
        root_name: &str,
        q: &str,
    ) -> std::result::Result<(Vec<Ix>, Vec<String>), String> {
        let m = &self.model;
        if let Some(ix) = m.find_id(q) {
            return Ok((vec![ix], vec![]));
        }
        let q = self.without_lang(q);
        if let Some(ix) = m.find_id(q) {
            return Ok((vec![ix], vec![]));
        }
        if let Some((left, right)) = q.split_once('#') {
            let files = self.files_at(left);
            if !files.is_empty() {
                let found = self.in_files(&files, right);
                if !found.is_empty() {
                    return Ok((self.ranked(found), vec![]));
                }
                return Err(format!("{}.{right}", stem(left)));
            }
        }
        if !q.contains('#') {
            let files: Vec<Ix> = self
                .files_at(q)
                .into_iter()
                .filter_map(|f| m.f(f).node)
                .collect();
            if !files.is_empty() {
                return Ok((self.ranked(files), vec![]));
            }
        }
        let (found, ignored) = self.qualified(root_name, &segments(q));
        if found.is_empty() {
            return Err(q.to_string());
        }
        Ok((found, ignored))
    }

    fn matched(&self, ranked: Vec<Ix>, limit: usize, ignored: Vec<String>) -> SymbolMatches {
        SymbolMatches {
            total: ranked.len(),
            matches: ranked
                .into_iter()
                .take(limit.max(1))
                .map(|ix| self.view(ix))
                .collect(),
            ignored,
            nearest: vec![],
        }
    }

    fn nearest_only(&self, root_name: &str, q: &str) -> SymbolMatches {
        SymbolMatches {
            matches: vec![],
            total: 0,
            ignored: vec![],
            nearest: self.nearest(root_name, &segments(q)),
        }
    }

    /// `py:x` → `x` when `py` is a language of the map (a node ID that is not in it, or one
    /// typed with a stale `~n`).
    fn without_lang<'q>(&self, q: &'q str) -> &'q str {
        match q.split_once(':') {
            Some((lang, rest))
                if !rest.starts_with(':') && self.model.langs.iter().any(|l| &**l == lang) =>
            {
                rest
            }
            _ => q,
        }
    }

    /// Indexed files whose path is `tail` or ends with `/<tail>`: exact case if any, else
    /// ignoring case.
    fn files_at(&self, tail: &str) -> Vec<Ix> {
        let tail = tail.trim_start_matches("./").trim_matches('/');
        if tail.is_empty() {
            return vec![];
        }
        let m = &self.model;
        let ends = |path: &str, t: &str| {
            path == t
                || (path.len() > t.len()
                    && path.ends_with(t)
                    && path.as_bytes()[path.len() - t.len() - 1] == b'/')
        };
        let exact: Vec<Ix> = m
            .indexed_file_ixs()
            .filter(|&f| ends(&m.f(f).path, tail))
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        let lower = tail.to_lowercase();
        m.indexed_file_ixs()
            .filter(|&f| ends(&m.f(f).path.to_lowercase(), &lower))
            .collect()
    }

    /// Definitions of `files` whose qualified name is `qname` (exact, then ignoring case,
    /// then ending with `.qname`); the file nodes when `qname` is empty.
    fn in_files(&self, files: &[Ix], qname: &str) -> Vec<Ix> {
        let m = &self.model;
        let qname = qname.trim();
        if qname.is_empty() {
            return files.iter().filter_map(|&f| m.f(f).node).collect();
        }
        let defs = || files.iter().flat_map(|&f| m.f(f).defs.iter().copied());
        let by_id: Vec<Ix> = files
            .iter()
            .filter_map(|&f| {
                let id = m.node_id(m.f(f).node?);
                m.find_id(&format!("{id}#{qname}"))
            })
            .collect();
        if !by_id.is_empty() {
            return by_id;
        }
        let lower = qname.replace("::", ".").to_lowercase();
        let tail = format!(".{lower}");
        let same: Vec<Ix> = defs()
            .filter(|&d| m.qname(m.n(d)).to_lowercase() == lower)
            .collect();
        if !same.is_empty() {
            return same;
        }
        defs()
            .filter(|&d| m.qname(m.n(d)).to_lowercase().ends_with(&tail))
            .collect()
    }

    /// Best first.
    fn ranked(&self, mut nodes: Vec<Ix>) -> Vec<Ix> {
        nodes.sort_by_key(|&ix| (self.is_test(ix), ordered_score(self.score(ix)), ix));
        nodes.dedup();
        nodes
    }

    fn is_test(&self, ix: Ix) -> bool {
        let m = &self.model;
        m.n(ix).file.get().is_some_and(|f| {
            m.f(f).path.split('/').any(|s| {
                let s = s.to_lowercase();
                let stem = s.split('.').next().unwrap_or("");
                TEST_SEGMENTS.contains(&stem)
                    || stem.starts_with("test_")
                    || stem.ends_with("_test")
                    || stem.ends_with("_spec")
            })
        })
    }

    /// The qualified form: candidates named like the last part whose chain holds the
    /// others in order; the leading parts the map knows nowhere are ignored (returned).
    fn qualified(&self, root_name: &str, segs: &[String]) -> (Vec<Ix>, Vec<String>) {
        let Some((last, prefix)) = segs.split_last() else {
            return (vec![], vec![]);
        };
        let known = self.known_words(root_name);
        let skip = prefix
            .iter()
            .take_while(|s| !known.contains(&s.to_lowercase()))
            .count();
        let (ignored, prefix) = prefix.split_at(skip);
        let mut ranked: Vec<Rank> = self
            .named(last)
            .into_iter()
            .filter_map(|ix| {
                let gaps = self.chain_match(root_name, ix, prefix)?;
                let n = self.model.n(ix);
                let case = u32::from(
                    self.model.names.str(n.name) != last.as_str()
                        && self.stem_of(ix) != Some(last.as_str()),
                );
                Some((
                    case,
                    gaps,
                    self.is_test(ix),
                    ordered_score(self.score(ix)),
                    ix,
                ))
            })
            .collect();
        ranked.sort();
        (ranked.into_iter().map(|r| r.4).collect(), ignored.to_vec())
    }

    /// Nodes named `name` ignoring case, and files whose stem it is.
    fn named(&self, name: &str) -> Vec<Ix> {
        let m = &self.model;
        let lower = name.to_lowercase();
        let mut v: Vec<Ix> = self.derived().search.nodes_named(&lower).to_vec();
        v.extend(
            m.indexed_file_ixs()
                .filter(|&f| stem(&m.f(f).path).to_lowercase() == lower)
                .filter_map(|f| m.f(f).node),
        );
        v.sort_unstable();
        v.dedup();
        v
    }

    /// A file node's stem (`api` of `src/api.py`); `None` for other nodes.
    fn stem_of(&self, ix: Ix) -> Option<&str> {
        let n = self.model.n(ix);
        (n.kind == crate::NodeKind::File).then(|| stem(self.model.qname(n)))
    }

    /// Every word a qualifier may name: the root's name, directories and file stems,
    /// and every symbol name (lower-cased).
    fn known_words(&self, root_name: &str) -> HashSet<String> {
        let m = &self.model;
        let mut words: HashSet<String> = HashSet::from([root_name.to_lowercase()]);
        for f in m.indexed_file_ixs() {
            let path = &m.f(f).path;
            for part in path
                .rsplit_once('/')
                .map(|(d, _)| d)
                .unwrap_or("")
                .split('/')
            {
                words.insert(part.to_lowercase());
            }
            words.insert(stem(path).to_lowercase());
        }
        words.extend(self.derived().search.names().map(|(n, _)| n.to_string()));
        words
    }

    /// Whether `prefix` appears in order in the chain of `ix` (its definitions without
    /// a gap, its path with gaps): the number of skipped path parts, or `None`.
    fn chain_match(&self, root_name: &str, ix: Ix, prefix: &[String]) -> Option<u32> {
        let m = &self.model;
        let n = m.n(ix);
        let mut path: Vec<String> = vec![root_name.to_lowercase()];
        let mut defs: Vec<String> = Vec::new();
        match n.file.get() {
            Some(f) => {
                let p = &m.f(f).path;
                let dirs = p.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
                path.extend(
                    dirs.split('/')
                        .filter(|s| !s.is_empty())
                        .map(str::to_lowercase),
                );
                if n.kind != crate::NodeKind::File {
                    path.push(stem(p).to_lowercase());
                    let parts: Vec<&str> = m.qname(n).split('.').collect();
                    defs = parts[..parts.len().saturating_sub(1)]
                        .iter()
                        .map(|s| s.to_lowercase())
                        .collect();
                }
            }
            None => {
                // An external module: its package parts.
                let parts: Vec<&str> = m.qname(n).split(['.', '/']).collect();
                path = parts[..parts.len().saturating_sub(1)]
                    .iter()
                    .map(|s| s.to_lowercase())
                    .collect();
            }
        }
        let mut want = prefix.iter().rev().map(|s| s.to_lowercase()).peekable();
        // Enclosing definitions: matched from the innermost, never skipped.
        for d in defs.iter().rev() {
            match want.peek() {
                None => return Some(0),
                Some(w) if w == d => {
                    want.next();
                }
                Some(_) => return None,
            }
        }
        // Path parts: matched from the file on, each part skipped before the last match
        // counting as a gap.
        let mut gaps = 0;
        for p in path.iter().rev() {
            let Some(w) = want.peek() else { break };
            if w == p {
                want.next();
            } else {
                gaps += 1;
            }
        }
        want.peek().is_none().then_some(gaps)
    }

    /// The node IDs of the nearest names: candidates named alike whose chain did not
    /// match, members of the named container by edit distance, then any name within
    /// [`NEAR_DISTANCE`].
    fn nearest(&self, root_name: &str, segs: &[String]) -> Vec<String> {
        let Some((last, prefix)) = segs.split_last() else {
            return vec![];
        };
        let m = &self.model;
        let want = last.to_lowercase();
        let mut out: Vec<Ix> = self.ranked(self.named(last));
        if !prefix.is_empty() {
            let (containers, _) = self.qualified(root_name, prefix);
            let mut members: Vec<(usize, Ix)> = containers
                .iter()
                .take(3)
                .flat_map(|&c| m.children_of(c).iter().copied())
                .filter_map(|ix| {
                    let name = m.names.str(m.n(ix).name).to_lowercase();
                    let d =
                        bounded_dl(want.as_bytes(), name.as_bytes(), want.len().max(name.len()))?;
                    Some((closeness_key(&want, &name, d), ix))
                })
                .collect();
            members.sort_by_key(|&(k, ix)| (k, ordered_score(self.score(ix)), ix));
            out.extend(members.into_iter().map(|(_, ix)| ix));
        }
        if out.len() < NEAREST {
            let mut near: Vec<(usize, Reverse<u32>, Ix)> = self
                .derived()
                .search
                .names()
                .filter_map(|(name, nodes)| {
                    let d = bounded_dl(want.as_bytes(), name.as_bytes(), NEAR_DISTANCE)?;
                    Some((closeness_key(&want, name, d), nodes))
                })
                .flat_map(|(k, nodes)| {
                    nodes
                        .iter()
                        .map(move |&ix| (k, ordered_score(self.score(ix)), ix))
                })
                .collect();
            near.sort();
            out.extend(near.into_iter().map(|n| n.2));
        }
        let mut seen = HashSet::new();
        out.into_iter()
            .filter(|ix| seen.insert(*ix))
            .take(NEAREST)
            .map(|ix| m.node_id(ix))
            .collect()
    }
}

/// Orders near names: the edit distance, a different first letter counting one more
/// (agents mistype the middle of a name, not its start), then the longer common prefix,
/// then the closer length.
fn closeness_key(want: &str, name: &str, distance: usize) -> usize {
    let first = usize::from(want.chars().next() != name.chars().next());
    let common = want
        .chars()
        .zip(name.chars())
        .take_while(|(a, b)| a == b)
        .count()
        .min(9);
    let len = want.len().abs_diff(name.len()).min(9);
    ((distance + first) * 10 + (9 - common)) * 10 + len
}

/// The parts of a qualified name: split at `.`, `::`, `/`, `#` and `->`.
fn segments(q: &str) -> Vec<String> {
    q.replace("::", ".")
        .replace("->", ".")
        .split(['.', '/', '#', '\\'])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `src/api.py` → `api`; `Makefile` → `Makefile`.
fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_split_every_separator() {
        assert_eq!(segments("a::b.c/d#e"), ["a", "b", "c", "d", "e"]);
        assert_eq!(segments("Context.Next"), ["Context", "Next"]);
    }

    #[test]
    fn near_names_prefer_the_same_start() {
        let next = closeness_key("nope", "next", 3);
        let done = closeness_key("nope", "done", 2);
        assert!(next <= done, "{next} {done}");
        assert_eq!(stem("src/a.b.py"), "a.b");
    }
}
