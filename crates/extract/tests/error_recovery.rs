//! A file that stops parsing yields what tree-sitter recovered, flagged `had_errors`;
//! extraction never panics, whatever the input.

mod common;
use common::*;

#[test]
fn python_file_that_stops_parsing() {
    let src = "import os\n\ndef ok():\n    return os.getcwd()\n\ndef broken(:\n    pass\n\nclass After:\n    def m(self):\n        return ok()\n";
    let f = extract_source("py", "m.py", src);
    assert!(f.had_errors);
    assert_has(
        &defs(&f),
        &["def function ok @2:4 pub", "def class After @8:6 pub"],
    );
    assert_has(&refs(&f), &["calls os|getcwd from=ok @3"]);
    assert_eq!(imports(&f), ["import os [] @0"]);
}

#[test]
fn typescript_file_cut_in_the_middle() {
    let src = "import { a } from \"./a\";\nexport function first(): number { return a(); }\nexport class Half {\n  method() {\n    return first(\n";
    let f = extract_source("ts", "m.ts", src);
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function first @1:16 pub"]);
    assert_has(&refs(&f), &["calls a from=first @1"]);
    assert_eq!(imports(&f), ["import ./a [a] @0"]);
}

#[test]
fn rust_and_go_with_garbage() {
    let f = extract_source(
        "rs",
        "m.rs",
        "use crate::x;\npub fn good() {}\nfn bad( {\n}}}\npub struct Later;\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function good @1:7 pub"]);
    assert_eq!(imports(&f), ["import crate [x] @0"]);

    let f = extract_source(
        "go",
        "m.go",
        "package m\n\nfunc Good() {}\n\nfunc (x *T Bad( {\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function Good @2:5 pub"]);
}

#[test]
fn odd_inputs_never_panic() {
    let registry = navmap_grammars::registry();
    let inputs = [
        "",
        "\n\n\n",
        "\u{feff}x = 1",
        "😀😀😀",
        "}{)(][",
        "\0\0\0",
        &"(".repeat(5000),
    ];
    for lang in registry.all() {
        for ext in &lang.manifest.extensions {
            for input in inputs {
                let f = navmap_extract::extract(lang, ext, input);
                assert_eq!(f.lang, lang.id());
            }
        }
    }
    assert_eq!(extract_source("py", "e.py", "").lines, 0);
    assert_eq!(extract_source("py", "e.py", "x = 1").lines, 1);
    assert_eq!(extract_source("py", "e.py", "x = 1\ny = 2\n").lines, 2);
}

#[test]
fn jvm_and_dotnet_files_that_stop_parsing() {
    let f = extract_source(
        "java",
        "M.java",
        "package a;\nimport b.C;\nclass M {\n  void ok() { C.run(); }\n  void bad( {\n}\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def method M.ok @3:7 parent=M"]);
    assert_eq!(imports(&f), ["import b.C [C] @1"]);

    let f = extract_source(
        "kt",
        "M.kt",
        "package a\nimport b.C\nfun ok() = C.run()\nfun bad( {\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function ok @2:4 pub"]);
    assert_eq!(imports(&f), ["import b.C [C] @1"]);

    let f = extract_source(
        "cs",
        "M.cs",
        "using B;\nnamespace A;\nclass M {\n  void Ok() { C.Run(); }\n  void Bad( {\n}\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def method M.Ok @3:7 parent=M"]);
    assert_eq!(imports(&f), ["import B [*] @0"]);

    let f = extract_source(
        "scala",
        "M.scala",
        "package a\nimport b.C\nobject M {\n  def ok(): Unit = C.run()\n  def bad( = {\n}\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def method M.ok @3:6 pub parent=M"]);
    assert_eq!(imports(&f), ["import b.C [C] @1"]);
}

#[test]
fn c_cpp_and_swift_with_garbage() {
    let f = extract_source(
        "c",
        "m.c",
        "#include \"a.h\"\nint good(void) { return 1; }\nint bad( {\n}}}\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function good @1:4 pub"]);
    assert_eq!(imports(&f), ["import a.h [*] @0"]);

    let f = extract_source(
        "cpp",
        "m.cpp",
        "#include <vector>\nvoid Good::ok() {}\nclass X { void f( };\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def method Good.ok @1:11 pub"]);

    let f = extract_source(
        "swift",
        "m.swift",
        "import Foundation\nfunc good() {}\nfunc bad( {\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function good @1:5 pub"]);
}

#[test]
fn php_bash_ruby_lua_with_garbage() {
    let f = extract_source(
        "php",
        "m.php",
        "<?php\nuse A\\B;\nfunction good(): int { return 1; }\nfunction bad( {\n}}}\nclass Later {}\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function good @2:9 pub"]);
    assert_eq!(imports(&f), ["import A [B] @1"]);

    let f = extract_source(
        "sh",
        "m.sh",
        "source ./a.sh\ngood() { a_fn; }\nbad() { ( ; }\n)))} {{\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def function good @1:0 pub"]);
    assert_eq!(imports(&f), ["import ./a.sh [*] reexport @0"]);

    let f = extract_source(
        "rb",
        "m.rb",
        "require_relative \"a\"\nclass Good\n  def ok\n    1\n  end\nend\ndef bad(\n  ]]\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def class Good @1:6 pub"]);
    assert_eq!(imports(&f), ["import ./a [*] reexport @0"]);

    let f = extract_source(
        "lua",
        "m.lua",
        "local a = require(\"a\")\nlocal M = {}\nfunction M.good() return a.x() end\nfunction bad( \n)))\n",
    );
    assert!(f.had_errors);
    assert_has(&defs(&f), &["def class M @1:6 pub"]);
    assert_eq!(imports(&f), ["import a [a] @0"]);
}
