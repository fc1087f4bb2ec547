//! Open namespaces (a manifest's `open_modules`): a name is looked up in the namespaces
//! around its use across every file of the language, a class reopened in several files is
//! one class, and a module mixed into a class is an `implements` base.
//!
//! The qualified names do the work: `class A::B` and `module A; class B` are both `A.B`
//! (extraction qualifies a path-shaped owner as its dotted chain), so a reopening in a
//! test helper has the very qualified name of the class, and its methods are found as
//! members declared apart from the class (`Resolver::member`).

use super::{
    Confidence, EdgeKind, FileCx, Ix, NodeKind, Outcome, Resolver, Sym, fits, is_value_member,
};
use crate::model::is_type_like;

impl Resolver<'_> {
    /// Whether the file's language has open modules (manifest `open_modules`).
    pub(super) fn open_modules(&self, cx: &FileCx) -> bool {
        self.language(cx.lang)
            .is_some_and(|l| l.manifest.open_modules)
    }

    pub(super) fn enclosing_namespace_paths(&self, cx: &FileCx) -> bool {
        self.language(cx.lang)
            .is_some_and(|l| l.manifest.enclosing_namespace_paths)
    }

    /// `path::name` (`path` may be empty: a bare name) as a qualified name seen from the
    /// namespaces around `from`, innermost first: inside `Shop.CachedStore.get`,
    /// `SessionStore` is `Shop.CachedStore.get.SessionStore`, `Shop.CachedStore.SessionStore`,
    /// `Shop.SessionStore`, `SessionStore` — wherever in the repository that is defined.
    /// Without `top_level`, the last (a name at the top level of any file) is not tried.
    /// `None`: not found.
    pub(super) fn namespace_path(
        &self,
        cx: &FileCx,
        from: Ix,
        path: &[&str],
        name: Sym,
        kind: EdgeKind,
        top_level: bool,
    ) -> Option<Outcome> {
        let m = self.model;
        let name_str = m.names.str(name);
        let from_node = m.n(from);
        let mut scope: &str = if from_node.kind == NodeKind::File {
            ""
        } else {
            m.qname(from_node)
        };
        let tail = if path.is_empty() {
            name_str.to_string()
        } else {
            format!("{}.{name_str}", path.join("."))
        };
        loop {
            let want = if scope.is_empty() {
                tail.clone()
            } else {
                format!("{scope}.{tail}")
            };
            let found: Vec<Ix> = m
                .defs_qualified(name, &want)
                .filter(|&d| {
                    let n = m.n(d);
                    n.lang == cx.lang && !is_value_member(m, n) && mixes_in(kind, n.kind)
                })
                .collect();
            if !found.is_empty() {
                return Some(self.one_of_reopenings(cx, found));
            }
            if scope.is_empty() {
                return None;
            }
            scope = scope.rsplit_once('.').map(|(p, _)| p).unwrap_or("");
            if scope.is_empty() && !top_level {
                return None;
            }
        }
    }

    /// Definitions of one qualified name. A class or module reopened in several files is
    /// one: its edges go to the definition in this file, else the one in the file named
    /// after it (`session_store.rb` for `SessionStore`, not the test helper that reopens
    /// it), else the one with most members. Functions or constants defined twice are
    /// redefinitions, of which the one that counts is not known statically: candidates.
    fn one_of_reopenings(&self, cx: &FileCx, mut found: Vec<Ix>) -> Outcome {
        let m = self.model;
        let reach = self.reachable(cx);
        let conf = |d: Ix| match m.n(d).file.get() {
            Some(f) if f == cx.file => Confidence::Exact,
            Some(f) if reach.contains(&f) => Confidence::Import,
            _ => Confidence::Name,
        };
        if found.len() == 1 {
            return Outcome::Resolved(found[0], conf(found[0]));
        }
        let namespaces = found
            .iter()
            .all(|&d| is_type_like(m.n(d).kind) || m.n(d).kind == NodeKind::Module);
        if !namespaces {
            return Outcome::Candidates(self.rank_candidates(cx, found));
        }
        found.sort_by_cached_key(|&d| {
            let n = m.n(d);
            let path = n.file.get().map(|f| &*m.f(f).path).unwrap_or("");
            (
                n.file.get() != Some(cx.file),
                !named_after(path, m.names.str(n.name)),
                usize::MAX - m.children_of(d).len(),
                d,
            )
        });
        Outcome::Resolved(found[0], conf(found[0]))
    }
}

/// What an edge of `kind` may point at where modules are open: what it may anywhere, and
/// a module as a mixin (`include M`).
pub(super) fn mixes_in(kind: EdgeKind, target: NodeKind) -> bool {
    fits(kind, target) || (kind == EdgeKind::Implements && target == NodeKind::Module)
}

/// Whether a file is named after a definition: its stem, without `_` and `-`, is the name
/// in any case (`session_store.rb`, `SessionStore.java` for `SessionStore`).
fn named_after(path: &str, name: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split_once('.').map(|(s, _)| s).unwrap_or(file);
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    squash(stem) == squash(name)
}

#[cfg(test)]
mod tests {
    use super::named_after;

    #[test]
    fn a_file_is_named_after_a_definition_in_any_case_style() {
        assert!(named_after("lib/shop/session_store.rb", "SessionStore"));
        assert!(named_after("src/SessionStore.java", "SessionStore"));
        assert!(!named_after("test/test_helper.rb", "SessionStore"));
    }
}
