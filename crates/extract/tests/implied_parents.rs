//! The Python queries write a parent node as a wildcard where a field already implies its
//! type (`(_ object: … attribute: …)` is an `attribute`, `body: (_ …)` of a class is its
//! `block`: tree-sitter analyses every *named* parent step of a query from every parse
//! state where that node can begin, which made the Python query the larger part of a
//! one-file re-index; docs/performance.md, "Cheaper query compiles"). Each such rewrite
//! must match exactly the nodes the named form matched; these cases sit on the edges
//! where a wildcard could match more (other nodes with the same field, statements with
//! the same child), and hold for the named form and the rewrite alike.

use navmap_extract::facts::{EdgeKind, FileFacts, NodeKind};

fn py(source: &str) -> FileFacts {
    let registry = navmap_grammars::registry();
    let lang = registry.by_id("py").unwrap();
    navmap_extract::extract_path(lang, "t.py", source)
}

fn defs(f: &FileFacts) -> Vec<(String, NodeKind)> {
    f.defs
        .iter()
        .map(|d| (d.qualified_name.clone(), d.kind))
        .collect()
}

fn refs(f: &FileFacts, kind: EdgeKind) -> Vec<(String, Option<String>)> {
    f.refs
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| (r.name.clone(), r.qualifier.clone()))
        .collect()
}

fn s(x: &str) -> String {
    x.to_string()
}

#[test]
fn class_and_module_assignments_are_definitions_and_nothing_else_in_their_statements_is() {
    // `(_ (assignment …))` in a block or module: only an expression statement holds an
    // assignment; `+=` (augmented), a chained assignment's inner target and a bare
    // expression define nothing.
    let f = py(concat!(
        "LIMIT = 1\n",
        "LIMIT += 1\n",
        "a = b = 2\n",
        "class Store:\n",
        "    size = 3\n",
        "    size += 1\n",
        "    c = d = 4\n",
        "    len(size)\n",
    ));
    assert_eq!(
        defs(&f),
        vec![
            (s("LIMIT"), NodeKind::Constant),
            (s("a"), NodeKind::Variable),
            (s("Store"), NodeKind::Class),
            (s("Store.size"), NodeKind::Property),
            (s("Store.c"), NodeKind::Property),
        ]
    );
}

#[test]
fn enum_members_are_constants_through_either_base_shape() {
    let f = py(concat!(
        "class Color(Enum):\n    RED = 1\n",
        "class Mode(enum.IntFlag):\n    READ = 1\n",
        "class Plain(Base):\n    x = 1\n",
    ));
    assert_eq!(
        defs(&f),
        vec![
            (s("Color"), NodeKind::Class),
            (s("Color.RED"), NodeKind::Constant),
            (s("Mode"), NodeKind::Class),
            (s("Mode.READ"), NodeKind::Constant),
            (s("Plain"), NodeKind::Class),
            (s("Plain.x"), NodeKind::Property),
        ]
    );
}

#[test]
fn only_a_leading_string_expression_is_a_docstring() {
    // `body: (_ . (expression_statement (string)))`: a `return "x"` first is no docstring.
    let f = py(concat!(
        "def documented():\n    \"Says what it does.\"\n    return 1\n",
        "def returns():\n    return \"not a doc\"\n",
        "class Told:\n    \"A class.\"\n",
        "class Asserts:\n    assert \"not a doc\"\n",
    ));
    let docs: Vec<(String, Option<String>)> = f
        .defs
        .iter()
        .map(|d| (d.name.clone(), d.doc.clone()))
        .collect();
    assert_eq!(
        docs,
        vec![
            (s("documented"), Some(s("Says what it does."))),
            (s("returns"), None),
            (s("Told"), Some(s("A class."))),
            (s("Asserts"), None),
        ]
    );
}

#[test]
fn methods_are_the_functions_of_a_class_decorated_or_not() {
    let f = py(concat!(
        "class S:\n",
        "    def get(self):\n        pass\n",
        "    @property\n    def size(self):\n        pass\n",
        "    if True:\n        def hidden(self):\n            pass\n",
    ));
    assert_eq!(
        defs(&f),
        vec![
            (s("S"), NodeKind::Class),
            (s("S.get"), NodeKind::Method),
            (s("S.size"), NodeKind::Method),
            (s("S.hidden"), NodeKind::Method),
        ]
    );
}

#[test]
fn calls_decorators_bases_and_annotations_keep_their_names_and_qualifiers() {
    let f = py(concat!(
        "@register\n@app.route\n@cached()\n@mod.wrap(1)\n",
        "def f(a: Dict[str, Session], b: mod.Store, c: typing.List[Item], d: \"Later\", e: x.y.Z = None) -> None:\n",
        "    g()\n    obj.attr.h()\n",
        "class C(Base, pkg.Mixin, metaclass=Meta):\n    pass\n",
    ));
    assert_eq!(
        refs(&f, EdgeKind::Calls),
        vec![
            (s("cached"), None),
            (s("wrap"), Some(s("mod"))),
            (s("g"), None),
            (s("h"), Some(s("obj.attr")))
        ]
    );
    assert_eq!(
        refs(&f, EdgeKind::Extends),
        vec![(s("Base"), None), (s("Mixin"), Some(s("pkg")))]
    );
    // A decorator that is a call is kept as the call.
    let mut references = refs(&f, EdgeKind::References);
    references.sort();
    let mut expected = vec![
        (s("register"), None),
        (s("route"), Some(s("app"))),
        (s("Dict"), None),
        (s("str"), None),
        (s("Session"), None),
        (s("Store"), Some(s("mod"))),
        (s("List"), Some(s("typing"))),
        (s("Item"), None),
        (s("Later"), None),
        (s("Z"), Some(s("x.y"))),
    ];
    expected.sort();
    assert_eq!(references, expected);
}

#[test]
fn reflective_names_bindings_and_locals_come_through_their_wildcard_parents() {
    let f = py(concat!(
        "def run(store: Store, other: mod.Other = None):\n",
        "    x = Cls()\n",
        "    self.y = mod.Make()\n",
        "    getattr(store, \"refresh\")\n",
        "    f = lambda parse, n=1: parse(n)\n",
        "    with open(p) as whole:\n        whole()\n",
    ));
    let mut bindings: Vec<(String, String, Option<String>)> = f
        .bindings
        .iter()
        .map(|b| {
            (
                b.name.clone(),
                b.type_name.clone(),
                b.type_qualifier.clone(),
            )
        })
        .collect();
    bindings.sort();
    assert_eq!(
        bindings,
        vec![
            (s("other"), s("Other"), Some(s("mod"))),
            (s("self.y"), s("Make"), Some(s("mod"))),
            (s("store"), s("Store"), None),
            (s("x"), s("Cls"), None),
        ]
    );
    assert!(
        f.mentions
            .iter()
            .any(|m| m.name == "refresh" && m.qualifier.as_deref() == Some("store")),
        "getattr(store, \"refresh\") mentions refresh on store"
    );
    // `parse(n)` calls the lambda's parameter, `whole()` the name `with … as` binds.
    let local_calls: Vec<(String, bool)> = f
        .refs
        .iter()
        .filter(|r| r.kind == EdgeKind::Calls && r.qualifier.is_none())
        .map(|r| (r.name.clone(), r.local))
        .collect();
    assert!(local_calls.contains(&(s("parse"), true)), "{local_calls:?}");
    assert!(local_calls.contains(&(s("whole"), true)), "{local_calls:?}");
}
