//! Arity: how many arguments a call passes and how many a definition accepts, so that the
//! map can choose among a function's overloads (`f`, `f~2`: same owner, same name). Capture
//! conventions (`grammars/README.md`):
//!
//! - `@parameters` (defs.scm) on a parameter list: the definition whose `@name` it stands
//!   beside (the list is a child of the name's nearest ancestor that has one: C++'s
//!   `function_declarator`, Java's `method_declaration`) accepts its parameters; a
//!   parameter captured `@parameter.optional` (a default value) may be left out,
//!   `@parameter.variadic` (`...`, a pack, `T... xs`) takes any number, `@parameter.none`
//!   is none (C's `(void)`).
//! - `@arguments` (refs.scm) on an argument list: the call it is a child of passes its
//!   named children (comments left out); an argument captured `@argument.spread` (a C++
//!   pack expansion `args...`) makes the count unknown.
//!
//! Unknown stays unknown (`None`): it accepts every call.

use tree_sitter::Node;

use crate::facts::Arity;
use crate::ids::{IdMap, IdSet};
use crate::matches::Match;

/// The parameter lists of a file, by the node they are a child of.
#[derive(Default)]
pub struct Parameters<'t> {
    lists: IdMap<Node<'t>>,
    optional: IdSet,
    variadic: IdSet,
    none: IdSet,
}

impl<'t> Parameters<'t> {
    /// Collects the captures of one defs.scm match.
    pub fn collect(&mut self, m: &Match<'_, 't>) {
        for (capture, node) in &m.captures {
            let set = match *capture {
                "parameters" => {
                    if let Some(parent) = node.parent() {
                        self.lists.entry(parent.id()).or_insert(*node);
                    }
                    continue;
                }
                "parameter.optional" => &mut self.optional,
                "parameter.variadic" => &mut self.variadic,
                "parameter.none" => &mut self.none,
                _ => continue,
            };
            set.insert(node.id());
        }
    }

    /// The arity of the definition `def` named by `name`: the parameter list beside the
    /// name (a child of the name's nearest ancestor, up to `def`, that has one).
    pub fn of(&self, name: Node<'t>, def: Node<'t>) -> Option<Arity> {
        if self.lists.is_empty() {
            return None;
        }
        let mut cur = name.parent();
        while let Some(n) = cur {
            if let Some(list) = self.lists.get(&n.id()) {
                return Some(self.count(*list));
            }
            if n.id() == def.id() {
                return None;
            }
            cur = n.parent();
        }
        None
    }

    fn count(&self, list: Node<'t>) -> Arity {
        let (mut min, mut max) = (0u16, Some(0u16));
        let mut cursor = list.walk();
        for p in list.children(&mut cursor) {
            let id = p.id();
            if self.variadic.contains(&id) {
                max = None;
            } else if !p.is_named() || p.is_extra() || self.none.contains(&id) {
                continue;
            } else {
                if !self.optional.contains(&id) {
                    min = min.saturating_add(1);
                }
                max = max.map(|m| m.saturating_add(1));
            }
        }
        Arity { min, max }
    }
}

/// The argument counts of a file's calls, by the call node (the argument list's parent).
#[derive(Default)]
pub struct Arguments<'t> {
    lists: Vec<Node<'t>>,
    spread: IdSet,
}

impl<'t> Arguments<'t> {
    /// Collects the captures of one refs.scm match.
    pub fn collect(&mut self, m: &Match<'_, 't>) {
        for (capture, node) in &m.captures {
            match *capture {
                "arguments" => self.lists.push(*node),
                "argument.spread" => {
                    self.spread.insert(node.id());
                }
                _ => {}
            }
        }
    }

    /// Call node id → its number of arguments (`None`: a spread among them).
    pub fn counts(&self) -> IdMap<Option<u16>> {
        self.lists
            .iter()
            .filter_map(|list| {
                let call = list.parent()?;
                let mut cursor = list.walk();
                let mut n = Some(0u16);
                for a in list.named_children(&mut cursor) {
                    if self.spread.contains(&a.id()) {
                        n = None;
                        break;
                    }
                    if !a.is_extra() {
                        n = n.map(|n| n.saturating_add(1));
                    }
                }
                Some((call.id(), n))
            })
            .collect()
    }
}
