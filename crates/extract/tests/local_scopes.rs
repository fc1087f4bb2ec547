//! Scope shadowing: in every language whose bare calls can name a local, a call of a
//! parameter, local variable or closure/lambda parameter is marked `local` (resolution
//! then never links it for sure), while a same-named call outside that scope is not.

mod common;

use navmap_extract::facts::{EdgeKind, FileFacts};

/// (language, path, source, the callee called as a local and once, outside its scope, as
/// a function). Each source calls `parse` through a local and `parse` elsewhere.
const CASES: [(&str, &str, &str); 13] = [
    (
        "py",
        "t.py",
        "def run(parse):\n    parse(1)\n\nf = lambda parse: parse(3)\n\ndef other():\n    parse(2)\n",
    ),
    (
        "ts",
        "t.ts",
        "function run(parse: () => void) {\n  parse();\n}\nfunction other() {\n  items.map((parse) => parse());\n  parse();\n}\n",
    ),
    (
        "js",
        "t.js",
        "function run(parse) {\n  parse();\n}\nfunction other() {\n  items.map((parse) => parse());\n  parse();\n}\n",
    ),
    (
        "rs",
        "t.rs",
        "fn run(parse: impl Fn(u8)) {\n    parse(1);\n}\nfn other() {\n    items.iter().map(|parse| parse(2));\n    parse(3);\n}\n",
    ),
    (
        "go",
        "t.go",
        "package p\n\nfunc run(parse func(int)) {\n\tparse(1)\n}\n\nfunc other() {\n\tf := func(parse func()) { parse() }\n\tparse(2)\n}\n",
    ),
    (
        "kt",
        "t.kt",
        "fun run(parse: (Int) -> Unit) {\n    parse(1)\n}\nfun other() {\n    items.forEach { parse -> parse(2) }\n    parse(3)\n}\n",
    ),
    (
        "cs",
        "T.cs",
        "class T {\n  void Run(Action parse) { parse(); }\n  void Other() { list.ForEach(parse => parse()); parse(); }\n}\n",
    ),
    (
        "scala",
        "T.scala",
        "object T {\n  def run(parse: Int => Unit): Unit = parse(1)\n  def other(): Unit = { items.foreach(parse => parse(2)); parse(3) }\n}\n",
    ),
    (
        "c",
        "t.c",
        "void run(void (*parse)(int)) {\n    parse(1);\n}\nvoid other(void) {\n    parse(2);\n}\n",
    ),
    (
        "cpp",
        "t.cpp",
        "void run(std::function<void()> parse) {\n    parse();\n}\nvoid other() {\n    auto l = [](auto parse) { parse(); };\n    parse();\n}\n",
    ),
    (
        "lua",
        "t.lua",
        "local function run(parse)\n  parse(1)\nend\nlocal function other()\n  local f = function(parse) parse() end\n  parse(2)\nend\n",
    ),
    (
        "swift",
        "t.swift",
        "func run(parse: (Int) -> Void) {\n    parse(1)\n}\nfunc other() {\n    items.forEach { parse in parse(2) }\n    parse(3)\n}\n",
    ),
    (
        "py",
        "test_fixture.py",
        "def test_login(make_user):\n    user = make_user(\"ann\")\n    make_user(user)\n\ndef test_other():\n    make_user(\"bob\")\n",
    ),
];

fn calls(f: &FileFacts, name: &str) -> Vec<(u32, bool)> {
    f.refs
        .iter()
        .filter(|r| r.kind == EdgeKind::Calls && r.name == name && r.qualifier.is_none())
        .map(|r| (r.line, r.local))
        .collect()
}

#[test]
fn a_call_of_a_local_is_marked_and_the_same_name_outside_its_scope_is_not() {
    let registry = navmap_grammars::registry();
    for (lang, path, source) in CASES {
        let language = registry.by_id(lang).unwrap();
        let f = navmap_extract::extract_path(language, path, source);
        let name = if path.starts_with("test_") {
            "make_user"
        } else {
            "parse"
        };
        let got = calls(&f, name);
        assert!(
            got.iter().any(|(_, local)| *local),
            "{lang}: no local call of {name}: {got:?}"
        );
        // The last call in each source is outside every scope that binds the name.
        let last = got.iter().max_by_key(|(line, _)| *line).unwrap();
        assert!(
            !last.1,
            "{lang}: the call outside the scope is not local: {got:?}"
        );
        assert!(
            got.iter()
                .filter(|(l, _)| *l != last.0)
                .all(|(_, local)| *local),
            "{lang}: every call inside the scopes is local: {got:?}"
        );
    }
}

/// Java looks a called name up among methods only: `parse()` with a parameter `parse`
/// calls the method, so Java has no local patterns and such a call stays a plain use.
#[test]
fn a_java_call_is_never_of_a_local() {
    let registry = navmap_grammars::registry();
    let java = registry.by_id("java").unwrap();
    let f = navmap_extract::extract_path(
        java,
        "T.java",
        "class T {\n  void parse() {}\n  void run(Runnable parse) { parse(); }\n}\n",
    );
    assert_eq!(calls(&f, "parse"), [(2, false)]);
}

/// A local bound by an import (`const validate = require("./validate")` inside a
/// function) is the imported name: its call stays an ordinary use that resolution follows
/// through the import.
#[test]
fn a_local_bound_by_an_import_is_not_a_local() {
    let registry = navmap_grammars::registry();
    let js = registry.by_id("js").unwrap();
    let f = navmap_extract::extract_path(
        js,
        "t.js",
        "function run(x) {\n  const validate = require(\"./validate\");\n  return validate(x);\n}\n",
    );
    assert_eq!(calls(&f, "validate"), [(2, false)]);
}
