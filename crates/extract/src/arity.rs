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
//!
//! Shapes and kinds, so that the map can weigh overloads that take the same number of
//! arguments (`BasicPersistent(T*, loc)`, `BasicPersistent(std::nullptr_t, loc)`):
//!
//! - on a parameter (defs.scm), its shape — `@parameter.value` (a plain name or none),
//!   `@parameter.pointer`, `@parameter.reference`, `@parameter.rvalue` (its declarator),
//!   `@parameter.null`, `@parameter.arithmetic` (its type), `@parameter.const` (a `const`
//!   type) —, its type (`@parameter.type`) and its name (`@parameter.name`); a parameter
//!   no shape capture describes is [`TypeShape::Other`]. Template parameters
//!   (`@template.parameter` in a `@template`) are marked in the type's text: `?U` where the
//!   function is the template (deduced), `$T` where an enclosing one is (the class's).
//! - on an argument (refs.scm), what its text says: `@argument.null`, `@argument.zero`,
//!   `@argument.arithmetic`, `@argument.string`, `@argument.pointer`, and
//!   `@argument.name` (a name: typed by the enclosing function's parameter of that name)
//!   inside an optional `@argument.address` (its address). Anything else is unknown.

use tree_sitter::Node;

use crate::facts::{ArgKind, Arity, Param, Params, TypeShape};
use crate::ids::{IdMap, IdSet};
use crate::matches::Match;
use crate::text::node_text;

/// The captures that name a parameter or definition by its shape (the node a
/// `@parameter.type` or `@result.type` of the same match belongs to).
const SHAPE_CAPTURES: [&str; 7] = [
    "parameter.value",
    "parameter.pointer",
    "parameter.reference",
    "parameter.rvalue",
    "result.value",
    "result.pointer",
    "result.arithmetic",
];

/// A parameter's name, with what an argument naming it is (see [`Parameters::named`]).
#[derive(Debug, Clone)]
pub struct NamedParam {
    pub name: String,
    /// Byte where the name starts (the declaration a use of it must be).
    pub start: usize,
    pub param: Param,
    /// Its type is `const`.
    pub konst: bool,
}

/// A local variable declared with a written type (`@variable.type`,
/// `@variable.arithmetic`), visible from its name to the end of its scope
/// (`@variable.scope`: the block or statement that holds the declaration).
#[derive(Debug, Clone)]
pub struct TypedLocal {
    pub local: NamedParam,
    /// End byte of its scope.
    pub end: usize,
}

/// The parameter lists of a file, by the node they are a child of.
#[derive(Default)]
pub struct Parameters<'t> {
    lists: IdMap<Node<'t>>,
    optional: IdSet,
    variadic: IdSet,
    none: IdSet,
    /// Parameter node → its declarator's shape, its type's (null, arithmetic), its type
    /// node, its name node.
    shapes: IdMap<TypeShape>,
    type_shapes: IdMap<TypeShape>,
    types: IdMap<Node<'t>>,
    names: IdMap<Node<'t>>,
    konst: IdSet,
    /// Template declarations: node id → (byte range, parameter names).
    templates: IdMap<((usize, usize), Vec<Node<'t>>)>,
    /// Qualifiers after a parameter list, by the list's parent.
    qualifiers: IdMap<Vec<Node<'t>>>,
    /// Definition node → the shape of its declared result (`@result.*`), `const` ones.
    results: IdMap<TypeShape>,
    result_konst: IdSet,
    /// Typed locals: (name, type, shape, end of scope).
    locals: Vec<(Node<'t>, Node<'t>, TypeShape, usize)>,
}

impl<'t> Parameters<'t> {
    /// Collects the captures of one defs.scm match.
    pub fn collect(&mut self, m: Match<'_, '_, 't>) {
        for (capture, node) in m.captures {
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
                "parameter.const" => &mut self.konst,
                "parameter.type" | "result.type" => {
                    // The type of the node the match's shape capture names (Java's
                    // `Iterable` in `Iterable<Option> xs`), else of its parent.
                    if let Some(p) = SHAPE_CAPTURES
                        .iter()
                        .find_map(|c| m.get(c))
                        .or_else(|| node.parent())
                    {
                        self.types.insert(p.id(), *node);
                    }
                    continue;
                }
                "parameters.qualifier" => {
                    if let Some(p) = node.parent() {
                        self.qualifiers.entry(p.id()).or_default().push(*node);
                    }
                    continue;
                }
                "template.parameter" => {
                    if let Some(t) = m.get("template") {
                        let range = (t.start_byte(), t.end_byte());
                        let e = self.templates.entry(t.id()).or_insert((range, Vec::new()));
                        e.1.push(*node);
                    }
                    continue;
                }
                "result.value" | "result.pointer" | "result.arithmetic" => {
                    let shape = match *capture {
                        "result.pointer" => TypeShape::Pointer,
                        "result.arithmetic" => TypeShape::Arithmetic,
                        _ => TypeShape::Value,
                    };
                    let e = self.results.entry(node.id()).or_insert(shape);
                    if *e == TypeShape::Value {
                        *e = shape;
                    }
                    continue;
                }
                "result.const" => &mut self.result_konst,
                "variable.type" | "variable.arithmetic" => {
                    if let (Some(name), Some(scope)) =
                        (m.get("variable.name"), m.get("variable.scope"))
                    {
                        let shape = match *capture {
                            "variable.arithmetic" => TypeShape::Arithmetic,
                            _ => TypeShape::Value,
                        };
                        self.locals.push((name, *node, shape, scope.end_byte()));
                    }
                    continue;
                }
                "parameter.null" => {
                    self.type_shapes.insert(node.id(), TypeShape::Null);
                    continue;
                }
                "parameter.arithmetic" => {
                    self.type_shapes.insert(node.id(), TypeShape::Arithmetic);
                    continue;
                }
                shape => {
                    let shape = match shape {
                        "parameter.value" => TypeShape::Value,
                        "parameter.pointer" => TypeShape::Pointer,
                        "parameter.reference" => TypeShape::Reference,
                        "parameter.rvalue" => TypeShape::RvalueReference,
                        _ => continue,
                    };
                    self.shapes.insert(node.id(), shape);
                    if let Some(name) = m.get("parameter.name") {
                        self.names.insert(node.id(), name);
                    }
                    continue;
                }
            };
            set.insert(node.id());
        }
    }

    /// The parameter list beside the name of `def` (see [`Parameters::of`]).
    pub fn list_of(&self, name: Node<'t>, def: Node<'t>) -> Option<Node<'t>> {
        if self.lists.is_empty() {
            return None;
        }
        let mut cur = name.parent();
        while let Some(n) = cur {
            if let Some(list) = self.lists.get(&n.id()) {
                return Some(*list);
            }
            if n.id() == def.id() {
                return None;
            }
            cur = n.parent();
        }
        None
    }

    /// The declared parameters of `def` (whose parameter list is `list`), and its
    /// parameters' names with what an argument naming each is.
    pub fn params(&self, list: Node<'t>, def: Node<'t>, source: &str) -> (Params, Vec<NamedParam>) {
        let (own, deduced, fixed) = self.template_names(def, list.start_byte(), source);
        let mut list_out = Vec::new();
        let mut named = Vec::new();
        let mut cursor = list.walk();
        for p in list.children(&mut cursor) {
            let id = p.id();
            if self.variadic.contains(&id) {
                break;
            }
            if !p.is_named() || p.is_extra() || self.none.contains(&id) {
                continue;
            }
            let konst = self.konst.contains(&id);
            let base = self
                .types
                .get(&id)
                .map(|t| type_text(node_text(t, source), &deduced, &fixed))
                .unwrap_or_default();
            // A type's shape (null, arithmetic) refines a plain declarator's (a value).
            let shape = match self.shapes.get(&id) {
                Some(TypeShape::Value) => self.type_shapes.get(&id).or(Some(&TypeShape::Value)),
                other => other,
            };
            let param = match shape {
                Some(&shape) if !base.is_empty() => {
                    let (shape, base) = match shape {
                        TypeShape::Reference if konst => (TypeShape::ConstReference, base),
                        TypeShape::Pointer if konst => (shape, format!("const {base}")),
                        _ => (shape, base),
                    };
                    Param { shape, base }
                }
                _ => Param {
                    shape: TypeShape::Other,
                    base: type_text(
                        &param_text(p, self.names.get(&id), source),
                        &deduced,
                        &fixed,
                    ),
                },
            };
            if let Some(name) = self.names.get(&id) {
                named.push(NamedParam {
                    name: node_text(name, source).to_string(),
                    start: name.start_byte(),
                    param: param.clone(),
                    konst,
                });
            }
            list_out.push(param);
        }
        let qualifiers = list
            .parent()
            .and_then(|p| self.qualifiers.get(&p.id()))
            .map(|q| {
                q.iter()
                    .map(|n| node_text(n, source))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        let params = Params {
            list: list_out,
            template: own,
            qualifiers,
        };
        (params, named)
    }

    /// Whether `def` is itself a template (its declaration is a template's: its parent),
    /// and the names of the template parameters around byte `at`: its own (deduced), the
    /// enclosing ones' (its class's: fixed).
    fn template_names<'s>(
        &self,
        def: Node<'t>,
        at: usize,
        source: &'s str,
    ) -> (bool, Vec<&'s str>, Vec<&'s str>) {
        let own = def.parent().and_then(|p| self.templates.get(&p.id()));
        // A declaration that holds its own type parameters (Java's `<T> T get(…)`): they
        // are deduced, but the method is no template in C++'s sense (no tie-breaker
        // prefers a method that is not generic).
        let declares = self.templates.get(&def.id());
        let mut deduced = Vec::new();
        let mut fixed = Vec::new();
        for (range, names) in self.templates.values() {
            if range.0 <= at && at < range.1 {
                let into = match own.or(declares) {
                    Some((r, _)) if r == range => &mut deduced,
                    _ => &mut fixed,
                };
                into.extend(names.iter().map(|n| node_text(n, source)));
            }
        }
        (own.is_some(), deduced, fixed)
    }

    /// The file's typed locals (their types' texts as a parameter's; a class's type
    /// parameters are not marked: a local is compared only inside its method).
    pub fn locals(&self, source: &str) -> Vec<TypedLocal> {
        self.locals
            .iter()
            .map(|&(name, ty, shape, end)| TypedLocal {
                local: NamedParam {
                    name: node_text(&name, source).to_string(),
                    start: name.start_byte(),
                    param: Param {
                        shape,
                        base: type_text(node_text(&ty, source), &[], &[]),
                    },
                    konst: false,
                },
                end,
            })
            .collect()
    }

    /// What a call of the function `def` is, where its declared result is a value, a
    /// pointer or a number (`@result.*`; a template's result may be anything: unknown).
    pub fn result(&self, def: Node<'t>, source: &str) -> Option<ArgKind> {
        let &shape = self.results.get(&def.id())?;
        let ty = self.types.get(&def.id())?;
        let (own, deduced, fixed) = self.template_names(def, ty.start_byte(), source);
        if own {
            return None;
        }
        let base = type_text(node_text(ty, source), &deduced, &fixed);
        let konst = self.result_konst.contains(&def.id());
        let base = match shape {
            TypeShape::Pointer if konst => format!("const {base}"),
            _ => base,
        };
        Some(ArgKind::Typed {
            shape,
            base,
            konst: false,
            lvalue: false,
        })
    }

    /// Whether the language's queries capture parameter shapes at all.
    pub fn has_shapes(&self) -> bool {
        !self.shapes.is_empty() || !self.types.is_empty()
    }

    /// The arity of a parameter list.
    pub fn count(&self, list: Node<'t>) -> Arity {
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

/// A parameter's text without its name and default value: its type as written.
fn param_text(p: Node, name: Option<&Node>, source: &str) -> String {
    let end = {
        let mut cursor = p.walk();
        // A default value follows the last `=` child (a C++ optional parameter).
        p.children(&mut cursor)
            .find(|c| !c.is_named() && c.kind() == "=")
            .map_or(p.end_byte(), |c| c.start_byte())
    };
    let start = p.start_byte();
    let mut text = source.get(start..end).unwrap_or_default().to_string();
    if let Some(n) = name.filter(|n| n.end_byte() <= end && n.start_byte() >= start) {
        text.replace_range(n.start_byte() - start..n.end_byte() - start, " ");
    }
    text
}

/// A type's text with its blanks normalised (one space between two words, none
/// elsewhere) and its template parameters marked: `?U` (deduced), `$T` (fixed).
pub fn type_text(text: &str, deduced: &[&str], fixed: &[&str]) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut last_word = false;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if word(c) {
            let end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
            let w = &rest[..end];
            if last_word {
                out.push(' ');
            }
            if deduced.contains(&w) {
                out.push('?');
            } else if fixed.contains(&w) {
                out.push('$');
            }
            out.push_str(w);
            rest = &rest[end..];
            last_word = true;
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            last_word = false;
        }
    }
    out
}

/// One argument as its captures describe it, before a name is typed.
#[derive(Debug, Clone, Copy)]
pub enum RawArg<'t> {
    Unknown,
    Known(Literal),
    /// A name (`address`: its address, `&raw`).
    Name {
        name: Node<'t>,
        address: bool,
    },
    /// A value whose type is written (`@argument.value`, its type `@argument.type`: a
    /// cast, a construction).
    Typed(Node<'t>),
    /// A call of a method of the enclosing class on a name (`other.Get()`) or on `this`.
    Call {
        receiver: Option<Node<'t>>,
        method: Node<'t>,
    },
}

/// An argument whose kind its text alone gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Literal {
    Null,
    Zero,
    Arithmetic,
    String,
    Pointer,
}

impl Literal {
    pub fn kind(self) -> ArgKind {
        match self {
            Literal::Null => ArgKind::Null,
            Literal::Zero => ArgKind::Zero,
            Literal::Arithmetic => ArgKind::Arithmetic,
            Literal::String => ArgKind::String,
            Literal::Pointer => ArgKind::Pointer,
        }
    }
}

/// What an argument that names a parameter is: the parameter's value (a reference is
/// the value it refers to), or with `address` a pointer to it.
pub fn named_kind(p: &NamedParam, address: bool) -> ArgKind {
    let Param { shape, base } = &p.param;
    let value = |shape| ArgKind::Typed {
        shape,
        base: base.clone(),
        konst: p.konst,
        lvalue: true,
    };
    let pointer_to = |konst: bool| ArgKind::Typed {
        shape: TypeShape::Pointer,
        base: if konst {
            format!("const {base}")
        } else {
            base.clone()
        },
        konst: false,
        lvalue: false,
    };
    match (shape, address) {
        (TypeShape::Other, false) => ArgKind::Unknown,
        (TypeShape::Other | TypeShape::Pointer, true) => ArgKind::Pointer,
        (TypeShape::Pointer, false) => ArgKind::Typed {
            shape: TypeShape::Pointer,
            base: base.clone(),
            konst: false,
            lvalue: true,
        },
        (TypeShape::Reference | TypeShape::RvalueReference, false) => ArgKind::Typed {
            shape: TypeShape::Value,
            base: base.clone(),
            konst: false,
            lvalue: true,
        },
        (TypeShape::ConstReference, false) => ArgKind::Typed {
            shape: TypeShape::Value,
            base: base.clone(),
            konst: true,
            lvalue: true,
        },
        (TypeShape::Reference | TypeShape::RvalueReference, true) => pointer_to(false),
        (TypeShape::ConstReference, true) => pointer_to(true),
        (TypeShape::Value | TypeShape::Null | TypeShape::Arithmetic, false) => value(*shape),
        (TypeShape::Value | TypeShape::Null | TypeShape::Arithmetic, true) => pointer_to(p.konst),
    }
}

/// The argument counts of a file's calls, by the call node (the argument list's parent).
#[derive(Default)]
pub struct Arguments<'t> {
    lists: Vec<Node<'t>>,
    spread: IdSet,
    literals: IdMap<Literal>,
    /// Argument node → the name it is or whose address it takes.
    names: IdMap<(Node<'t>, bool)>,
    /// Argument node → the method it calls, with the receiver's name (none: `this`).
    calls: IdMap<(Option<Node<'t>>, Node<'t>)>,
    /// Argument node → its written type (`@argument.value`, `@argument.type`).
    typed: IdMap<Node<'t>>,
}

impl<'t> Arguments<'t> {
    /// Collects the captures of one refs.scm match.
    pub fn collect(&mut self, m: Match<'_, '_, 't>) {
        for (capture, node) in m.captures {
            match *capture {
                "arguments" => self.lists.push(*node),
                "argument.spread" => {
                    self.spread.insert(node.id());
                }
                "argument.type" => {
                    if let Some(value) = m.get("argument.value") {
                        self.typed.insert(value.id(), *node);
                    }
                }
                "argument.method" => {
                    if let Some(call) = m.get("argument.call") {
                        self.calls
                            .insert(call.id(), (m.get("argument.receiver"), *node));
                    }
                }
                "argument.name" => match m.get("argument.address") {
                    Some(a) => {
                        self.names.insert(a.id(), (*node, true));
                    }
                    None => {
                        self.names.entry(node.id()).or_insert((*node, false));
                    }
                },
                literal => {
                    let literal = match literal {
                        "argument.null" => Literal::Null,
                        "argument.zero" => Literal::Zero,
                        "argument.arithmetic" => Literal::Arithmetic,
                        "argument.string" => Literal::String,
                        "argument.pointer" => Literal::Pointer,
                        _ => continue,
                    };
                    // `0` is a number too: the null pointer constant wins.
                    let e = self.literals.entry(node.id()).or_insert(literal);
                    if literal == Literal::Zero {
                        *e = literal;
                    }
                }
            }
        }
    }

    /// Call node id → its arguments as their captures describe them (only calls with a
    /// known count and at least one argument of a captured kind).
    pub fn raw_kinds(&self) -> IdMap<Vec<RawArg<'t>>> {
        if self.literals.is_empty()
            && self.names.is_empty()
            && self.calls.is_empty()
            && self.typed.is_empty()
        {
            return IdMap::default();
        }
        self.lists
            .iter()
            .filter_map(|list| {
                let call = list.parent()?;
                let mut cursor = list.walk();
                let mut any = false;
                let mut out = Vec::new();
                for a in list.named_children(&mut cursor) {
                    if a.is_extra() {
                        continue;
                    }
                    if self.spread.contains(&a.id()) {
                        return None;
                    }
                    let raw = if let Some(&l) = self.literals.get(&a.id()) {
                        RawArg::Known(l)
                    } else if let Some(&(name, address)) = self.names.get(&a.id()) {
                        RawArg::Name { name, address }
                    } else if let Some(&(receiver, method)) = self.calls.get(&a.id()) {
                        RawArg::Call { receiver, method }
                    } else if let Some(&ty) = self.typed.get(&a.id()) {
                        RawArg::Typed(ty)
                    } else {
                        RawArg::Unknown
                    };
                    any |= !matches!(raw, RawArg::Unknown);
                    out.push(raw);
                }
                any.then_some((call.id(), out))
            })
            .collect()
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
