//! Definitions: the `defs.scm` query's matches → [`DefFact`]s with parents, qualified
//! names, signatures, docs and visibility. Capture conventions: `grammars/README.md`.

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, TreeCursor};

use crate::arity::{NamedParam, Parameters, TypedLocal};
use crate::facts::{ArgKind, DefFact, NodeKind};
use crate::ids::{IdMap, IdSet};
use crate::matches::{Match, Matches};
use crate::text::{first_doc_sentence, node_text, one_line, signature, utf16_col};

/// The definitions of a file plus what reference extraction needs to know about them.
#[derive(Default)]
pub struct Defs {
    pub facts: Vec<DefFact>,
    /// Byte range of each definition's node.
    pub ranges: Vec<(usize, usize)>,
    /// The innermost definition whose node contains this one (differs from
    /// `facts[i].parent` for methods attached to an owner type).
    pub enclosing: Vec<Option<usize>>,
    /// Definitions by qualified name (the first of duplicates).
    pub by_qualified: HashMap<String, usize>,
    /// Node ids of definition names and owner types: never references.
    pub not_refs: IdSet,
    /// Per definition: declared `@overload` (a signature of an overload group, folded
    /// into one definition by `crate::overloads`).
    pub overload: Vec<bool>,
    /// Per definition: declared `@partial` (one part of a type split over several
    /// declarations, folded into one definition by `crate::overloads::fold`).
    pub partial: Vec<bool>,
    /// Per definition: its parameters' names and what an argument naming each is
    /// (where its query captures them; empty otherwise).
    pub named_params: Vec<Vec<NamedParam>>,
    /// Per definition: what a call of it is, where its declared result says
    /// (`Parameters::result`).
    pub results: Vec<Option<ArgKind>>,
    /// Locals declared with a written type (`@variable.*`, `Parameters::locals`): what an
    /// argument naming one is, within its scope.
    pub typed_locals: Vec<TypedLocal>,
}

impl Defs {
    /// The innermost definition whose node contains the byte range `[start, end)`.
    pub fn innermost(&self, start: usize, end: usize) -> Option<usize> {
        // Definitions are sorted by start; the last one starting at or before `start`,
        // then up its chain of enclosing definitions until one contains the range.
        let idx = self.ranges.partition_point(|(s, _)| *s <= start);
        let mut cur = idx.checked_sub(1);
        while let Some(i) = cur {
            let (s, e) = self.ranges[i];
            if s <= start && end <= e {
                return Some(i);
            }
            cur = self.enclosing[i];
        }
        None
    }

    /// The qualified-name prefix of a scope (`""` for the file).
    pub fn prefix(&self, scope: Option<usize>) -> &str {
        scope
            .map(|i| self.facts[i].qualified_name.as_str())
            .unwrap_or("")
    }

    /// The definition an owner name (`impl X`, Go receiver `X`) denotes inside `scope`.
    pub fn owner(&self, scope: Option<usize>, owner: &str) -> Option<usize> {
        self.by_qualified
            .get(&join(self.prefix(scope), owner))
            .copied()
    }
}

pub fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

struct Raw<'t> {
    node: Node<'t>,
    pattern: usize,
    kind: NodeKind,
    name: Node<'t>,
    body: Option<Node<'t>>,
    owner: Option<Node<'t>>,
    /// `@owner.path`: the whole path the owner ends (`ScriptCompiler::Source::Source`).
    owner_path: Option<Node<'t>>,
    context: Option<Node<'t>>,
    overload: bool,
}

struct DocMatch<'t> {
    pattern: usize,
    target: Node<'t>,
    docs: Vec<Node<'t>>,
}

pub fn extract(matches: &Matches, source: &str, root: Node) -> Defs {
    let mut raws: IdMap<Raw> = IdMap::default();
    let mut exported_nodes = IdSet::default();
    let mut exported_names = HashSet::new();
    let mut unexported_nodes = IdSet::default();
    let mut partial_nodes = IdSet::default();
    let mut docs = Vec::new();
    // `@doc.line` matches: comments a run of doc lines may hold (below); `@doc.skip`: nodes
    // between a doc comment and what it documents (Rust's attributes); `@doc.line` and
    // `@doc.block` comments, with their patterns: doc comments whose target is found here.
    let mut doc_lines = IdSet::default();
    let mut doc_skips = IdSet::default();
    let mut doc_heads: Vec<(usize, Node)> = Vec::new();
    // `@owner` + `@owner.body` matches: (body node, owner name node).
    let mut owner_bodies: Vec<(Node, Node)> = Vec::new();
    let mut parameters = Parameters::default();
    for m in matches {
        parameters.collect(m);
        exported_nodes.extend(m.all("exported").map(|n| n.id()));
        unexported_nodes.extend(m.all("unexported").map(|n| n.id()));
        partial_nodes.extend(m.all("partial").map(|n| n.id()));
        exported_names.extend(m.all("exported.name").map(|n| node_text(&n, source)));
        doc_lines.extend(m.all("doc.line").map(|n| n.id()));
        doc_skips.extend(m.all("doc.skip").map(|n| n.id()));
        if let Some(head) = m.get("doc.line").or_else(|| m.get("doc.block")) {
            doc_heads.push((m.pattern, head));
        }
        collect_doc(m, &mut docs);
        collect_def(m, &mut raws);
        if let (Some(owner), Some(body)) = (m.get("owner"), m.get("owner.body"))
            && m.with_prefix("definition.").is_none()
        {
            owner_bodies.push((body, owner));
        }
    }
    targets_of_doc_heads(root, doc_heads, &doc_lines, &doc_skips, &mut docs);
    // Definitions directly in an owner's body belong to it. A separate pattern rather
    // than `@owner` in each item pattern: a pattern holding a capture while it waits for
    // more items keeps tree-sitter from returning any match inside the body until the
    // body ends (a quarter of all query time on Rust code).
    if !owner_bodies.is_empty() {
        // Walking the bodies' children is cheaper than asking each definition its parent.
        let mut owned: IdMap<Node> = IdMap::default();
        for (body, owner) in owner_bodies {
            let mut cursor = body.walk();
            owned.extend(body.children(&mut cursor).map(|child| (child.id(), owner)));
        }
        for raw in raws.values_mut().filter(|r| r.owner.is_none()) {
            raw.owner = owned.get(&raw.node.id()).copied();
        }
    }

    let mut raws: Vec<Raw> = raws.into_values().collect();
    // `_` binds nothing (Go's blank identifier, Python's throwaway).
    raws.retain(|r| node_text(&r.name, source) != "_");
    // Cached: the key asks tree-sitter for the node's range (a call into C each time).
    raws.sort_by_cached_key(|r| {
        (
            r.node.start_byte(),
            std::cmp::Reverse(r.node.end_byte()),
            r.pattern,
        )
    });

    let mut defs = Defs::default();
    let mut stack: Vec<usize> = Vec::new();
    for raw in &raws {
        let (start, end) = (raw.node.start_byte(), raw.node.end_byte());
        while let Some(&top) = stack.last() {
            let (s, e) = defs.ranges[top];
            if s <= start && end <= e {
                break;
            }
            stack.pop();
        }
        let enclosing = stack.last().copied();
        let index = defs.facts.len();
        let name = node_text(&raw.name, source).to_string();
        // An owner written as a path (`class A::B`: the scope `A::B` of a compact class
        // name) qualifies as its dotted chain, as the nested definitions would.
        // A path nested to the right (`ScriptCompiler::Source::Source`, `@owner.path`): its
        // text before the name, generic arguments left out.
        let owner_text = match (raw.owner_path, raw.owner) {
            (Some(path), _) => source
                .get(path.start_byte()..raw.name.start_byte())
                .map(|p| owner_path(&without_generics(p))),
            (None, Some(o)) => Some(owner_path(node_text(&o, source))),
            (None, None) => None,
        };
        let (parent, qualified_name) = match &owner_text {
            Some(owner) => {
                let owner_def = defs.owner(enclosing, owner);
                let qualified = join(&join(defs.prefix(enclosing), owner), &name);
                (owner_def.or(enclosing), qualified)
            }
            None => (enclosing, join(defs.prefix(enclosing), &name)),
        };
        let kind = match (raw.kind, parent.map(|p| defs.facts[p].kind)) {
            (NodeKind::Function, Some(pk)) if is_type(pk) => NodeKind::Method,
            (NodeKind::Function, _) if owner_text.is_some() => NodeKind::Method,
            (kind, _) => kind,
        };
        let name_pos = raw.name.start_position();
        let exported = !unexported_nodes.contains(&raw.node.id())
            && (exported_nodes.contains(&raw.node.id())
                || (enclosing.is_none() && exported_names.contains(name.as_str())));
        defs.not_refs.insert(raw.name.id());
        if let Some(owner) = raw.owner {
            defs.not_refs.insert(owner.id());
        }
        defs.by_qualified
            .entry(qualified_name.clone())
            .or_insert(index);
        let list = matches!(kind, NodeKind::Function | NodeKind::Method)
            .then(|| parameters.list_of(raw.name, raw.node))
            .flatten();
        // Languages that capture no shapes keep no parameters (arity only).
        let (params, named) = match list.filter(|_| parameters.has_shapes()) {
            Some(list) => {
                let (p, n) = parameters.params(list, raw.node, source);
                (Some(p), n)
            }
            None => (None, Vec::new()),
        };
        defs.facts.push(DefFact {
            kind,
            name,
            qualified_name,
            parent,
            start_line: raw.node.start_position().row as u32,
            end_line: raw.node.end_position().row as u32,
            name_line: name_pos.row as u32,
            name_col: utf16_col(source, raw.name.start_byte(), name_pos.column),
            signature: signature(&raw.context.unwrap_or(raw.node), raw.body.as_ref(), source),
            doc: None,
            exported,
            arity: list.map(|l| parameters.count(l)),
            params,
        });
        defs.named_params.push(named);
        defs.results.push(
            matches!(kind, NodeKind::Function | NodeKind::Method)
                .then(|| parameters.result(raw.node, source))
                .flatten(),
        );
        defs.ranges.push((start, end));
        defs.enclosing.push(enclosing);
        defs.overload.push(raw.overload);
        defs.partial.push(partial_nodes.contains(&raw.node.id()));
        stack.push(index);
    }

    defs.typed_locals = parameters.locals(source);
    docs.sort_by_key(|d| d.pattern);
    if !docs.is_empty() {
        // Doc matches can outnumber definitions (one per comment of a run): look targets up
        // rather than scanning every definition for each.
        let by_node: IdMap<usize> = raws
            .iter()
            .enumerate()
            .map(|(i, r)| (r.node.id(), i))
            .collect();
        for doc in docs {
            attach_doc(&mut defs, &by_node, doc, source);
        }
    }
    defs
}

/// `A::B` → `A.B`; a leading `::` (the top-level namespace) is dropped.
fn owner_path(text: &str) -> String {
    text.trim_start_matches("::").replace("::", ".")
}

/// `Box<T>::Inner<U>::` → `Box::Inner`: a path's text without its generic arguments, its
/// blanks, and the separator it ends with.
fn without_generics(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out.trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'))
        .to_string()
}

fn is_type(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Class | NodeKind::Interface | NodeKind::Trait | NodeKind::Struct | NodeKind::Enum
    )
}

fn collect_def<'t>(m: Match<'_, '_, 't>, raws: &mut IdMap<Raw<'t>>) {
    let Some((kind, node)) = m.with_prefix("definition.") else {
        return;
    };
    let Some(kind) = NodeKind::parse(kind) else {
        return;
    };
    // A pattern may leave `@name` out when the definition node has a `name` field: the
    // engine then takes that field (and the `body` field for `@body`). Spelling the
    // fields out in the query is equivalent but can be very costly to compile in large
    // grammars (a child pattern under a node that appears in many parse states).
    let (name, body) = match m.get("name") {
        Some(name) => (name, m.get("body")),
        None => match node.child_by_field_name("name").filter(|n| n.is_named()) {
            Some(name) => (name, node.child_by_field_name("body")),
            None => return,
        },
    };

    let raw = Raw {
        node,
        pattern: m.pattern,
        kind,
        name,
        body,
        owner: m.get("owner"),
        owner_path: m.get("owner.path"),
        context: m.get("context"),
        overload: m.get("overload").is_some(),
    };
    match raws.get_mut(&node.id()) {
        // The first pattern in the file decides kind and name; later ones may add parts.
        Some(old) if old.pattern <= raw.pattern => {
            old.body = old.body.or(raw.body);
            old.owner = old.owner.or(raw.owner);
            old.owner_path = old.owner_path.or(raw.owner_path);
            old.context = old.context.or(raw.context);
            old.overload |= raw.overload;
        }
        Some(old) => {
            let (body, owner, context) = (old.body, old.owner, old.context);
            let (overload, owner_path) = (old.overload, old.owner_path);
            *old = raw;
            old.overload |= overload;
            old.body = old.body.or(body);
            old.owner = old.owner.or(owner);
            old.owner_path = old.owner_path.or(owner_path);
            old.context = old.context.or(context);
        }
        None => {
            raws.insert(node.id(), raw);
        }
    }
}

fn collect_doc<'t>(m: Match<'_, '_, 't>, docs: &mut Vec<DocMatch<'t>>) {
    let nodes: Vec<Node> = m.all("doc").collect();
    if nodes.is_empty() {
        return;
    }
    let target = m
        .get("doc.for")
        .or_else(|| m.with_prefix("definition.").map(|(_, n)| n));
    if let Some(target) = target {
        docs.push(DocMatch {
            pattern: m.pattern,
            target,
            docs: nodes,
        });
    }
}

/// What each `@doc.line`/`@doc.block` comment documents: its next named sibling past the
/// `@doc.skip` nodes (attributes); a `@doc.line` (Rust's `///`) is read with the
/// `@doc.line`s right above it (each the one before's next named sibling) as one run. What
/// `((line_comment)+ @doc . (attribute_item)* . (_) @doc.for)` found, without its costs: a
/// first step without a root (≈ 2 ms of the compile each) and a query state per comment of
/// the run, compared pairwise (four tenths of the Rust query walk). Like that pattern, none
/// in an `ERROR` node (tree-sitter starts no pattern without a root there). The heads are
/// visited in start order by one forward walk ([`Siblings`]).
fn targets_of_doc_heads<'t>(
    root: Node<'t>,
    mut heads: Vec<(usize, Node<'t>)>,
    lines: &IdSet,
    skips: &IdSet,
    docs: &mut Vec<DocMatch<'t>>,
) {
    if heads.is_empty() {
        return;
    }
    heads.sort_by_key(|(_, n)| n.start_byte());
    let mut walk = Siblings::new(root);
    let mut run: Vec<Node<'t>> = Vec::new();
    let mut expected = None;
    for (pattern, head) in heads {
        let is_line = lines.contains(&head.id());
        if !is_line || expected != Some(head.id()) {
            run.clear();
        }
        expected = None;
        let found = walk.seek(head);
        let parent = if found { walk.parent() } else { head.parent() };
        if parent.is_some_and(|p| p.is_error()) {
            continue;
        }
        if is_line {
            run.push(head);
        }
        let next = if found {
            walk.next_named()
        } else {
            head.next_named_sibling()
        };
        // A doc line next: the run goes on (this comment documents nothing but a comment).
        if let Some(n) = next
            && lines.contains(&n.id())
        {
            expected = Some(n.id());
            continue;
        }
        let mut target = next;
        while let Some(n) = target
            && skips.contains(&n.id())
        {
            target = if found {
                walk.next_named()
            } else {
                n.next_named_sibling()
            };
        }
        if let Some(target) = target {
            docs.push(DocMatch {
                pattern,
                target,
                docs: if is_line {
                    std::mem::take(&mut run)
                } else {
                    vec![head]
                },
            });
        }
        run.clear();
    }
}

/// A tree cursor that moves forward only, onto nodes given in start order, and says the
/// parent and the next named siblings of the node it is on. `Node::parent` and
/// `Node::next_named_sibling` each start at the root in tree-sitter and scan, at every
/// level, the children before the node: asked for every `///` line of a large module or
/// `impl` that was quadratic in its items (perf, cargo-registry preset: 4 % of a cold
/// build). Here each node of the tree is passed at most once for all heads of a file.
/// Where the walk cannot reach a node forward (one that starts before where it stands),
/// [`Siblings::seek`] says so, starts over at the root, and the caller asks the node.
struct Siblings<'t> {
    root: Node<'t>,
    cursor: TreeCursor<'t>,
    /// The visible ancestors of the cursor's node, the root first.
    ancestors: Vec<Node<'t>>,
}

impl<'t> Siblings<'t> {
    fn new(root: Node<'t>) -> Self {
        Siblings {
            root,
            cursor: root.walk(),
            ancestors: Vec::new(),
        }
    }

    /// Moves the cursor onto `node`, forward from where it stands. False (the cursor back at
    /// the root) when `node` is not ahead of it, or has no width (the sibling rules of
    /// tree-sitter treat empty nodes apart).
    fn seek(&mut self, node: Node<'t>) -> bool {
        let (start, end) = (node.start_byte(), node.end_byte());
        if start < end {
            loop {
                let at = self.cursor.node();
                if at.id() == node.id() {
                    return true;
                }
                if at.start_byte() > start {
                    break;
                }
                if at.end_byte() >= end {
                    // `at` holds the node: down into it.
                    if !self.cursor.goto_first_child() {
                        break;
                    }
                    self.ancestors.push(at);
                    continue;
                }
                // `at` ends before the node: on to the next sibling, or up and on.
                let mut moved = false;
                while !moved {
                    moved = self.cursor.goto_next_sibling();
                    if !moved && !self.goto_parent() {
                        break;
                    }
                }
                if !moved {
                    break;
                }
            }
        }
        self.cursor.reset(self.root);
        self.ancestors.clear();
        false
    }

    fn goto_parent(&mut self) -> bool {
        let up = self.cursor.goto_parent();
        if up {
            self.ancestors.pop();
        }
        up
    }

    /// The parent of the cursor's node (what `Node::parent` gives).
    fn parent(&self) -> Option<Node<'t>> {
        self.ancestors.last().copied()
    }

    /// Moves the cursor onto the next named sibling of its node and gives it: what
    /// `Node::next_named_sibling` gives, which passes over siblings ending where the node
    /// ends (empty ones) and stays within the node's parent.
    fn next_named(&mut self) -> Option<Node<'t>> {
        let end = self.cursor.node().end_byte();
        while self.cursor.goto_next_sibling() {
            let n = self.cursor.node();
            if n.end_byte() > end && n.is_named() {
                return Some(n);
            }
        }
        None
    }
}

fn attach_doc(defs: &mut Defs, by_node: &IdMap<usize>, doc: DocMatch, source: &str) {
    let target = doc.target;
    // The definition that is the target, else the first (in start order) inside it: those
    // start at or after the target, so the search starts there.
    let (start, end) = (target.start_byte(), target.end_byte());
    let index = by_node.get(&target.id()).copied().or_else(|| {
        let from = defs.ranges.partition_point(|(s, _)| *s < start);
        defs.ranges[from..]
            .iter()
            .take_while(|(s, _)| *s <= end)
            .position(|(_, e)| *e <= end)
            .map(|i| from + i)
    });
    let Some(index) = index else { return };
    if defs.facts[index].doc.is_some() {
        return;
    }
    let mut nodes = doc.docs;
    nodes.sort_by_key(|n| n.start_byte());
    let Some(last) = nodes.last().copied() else {
        return;
    };
    // A comment block above the definition documents it only when nothing but
    // line breaks separates them; a blank line makes it a separate comment.
    if last.end_byte() <= target.start_byte() {
        let next_row = last.next_sibling().map(|n| n.start_position().row);
        if next_row.is_some_and(|row| row > last_row(&last) + 1) {
            return;
        }
    }
    // The run of comments that touch each other, ending at the last.
    let mut first = nodes.len() - 1;
    while first > 0
        && nodes[first - 1].end_byte() <= nodes[first].start_byte()
        && last_row(&nodes[first - 1]) + 1 >= nodes[first].start_position().row
    {
        first -= 1;
    }
    // The run read as one text, so a sentence wrapped over several line comments stays
    // whole. A line comment's text may end with its newline (Rust's `///`): kept, it
    // would read as a blank line between two lines, which ends the paragraph.
    let run: Vec<&str> = nodes[first..]
        .iter()
        .map(|n| node_text(n, source).trim_end_matches(['\n', '\r']))
        .collect();
    if let Some(doc) = first_doc_sentence(&run.join("\n")) {
        defs.facts[index].doc = Some(doc);
    }
}

/// The last row a node's text is on (a line comment's range may end at column 0 of the
/// next row, after its newline).
fn last_row(node: &Node) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    }
}

/// A whitespace-collapsed excerpt for qualifiers: a call chain broken over lines reads as
/// it would on one line (`a.b().c`, not `a.b() .c`).
pub fn excerpt(node: &Node, source: &str) -> String {
    let raw = node_text(node, source);
    // Most qualifiers (`self`, `store`, `a.b`) are short and on one line: no rewriting.
    if raw.len() <= crate::text::CAP && !raw.bytes().any(|b| b.is_ascii_whitespace()) {
        return raw.to_string();
    }
    let text = one_line(raw)
        .replace(" .", ".")
        .replace(" ?.", "?.")
        .replace(" ::", "::");
    crate::text::cap(text)
}
