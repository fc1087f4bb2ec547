//! Import resolution per language: on the fixtures (real config files) and on small
//! synthetic layouts for the rules the fixtures don't exercise.

mod common;
use std::collections::{BTreeMap, BTreeSet};

use common::*;
use navmap_extract::{ImportResolver, ImportTarget};

fn files(t: &[&str]) -> ImportTarget {
    ImportTarget::Files(t.iter().map(|s| s.to_string()).collect())
}

fn ext(p: &str) -> ImportTarget {
    ImportTarget::External(p.to_string())
}

/// A resolver over a fixture, reading its real config files.
fn fixture_resolver(lang: &str) -> ImportResolver {
    let registry = navmap_grammars::registry();
    let root = fixture_root(lang);
    ImportResolver::new(&registry, &fixture_files(lang), &move |rel| {
        std::fs::read_to_string(root.join(rel)).ok()
    })
}

/// A resolver over an in-memory repository: path → content ("" for files nobody reads).
fn memory_resolver(repo: &[(&str, &str)]) -> ImportResolver {
    let registry = navmap_grammars::registry();
    let contents: BTreeMap<String, String> = repo
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_string()))
        .collect();
    let files: BTreeSet<String> = contents.keys().cloned().collect();
    ImportResolver::new(&registry, &files, &move |rel| contents.get(rel).cloned())
}

fn lang(id: &str) -> std::sync::Arc<navmap_language::Language> {
    navmap_grammars::registry().by_id(id).unwrap().clone()
}

#[test]
fn py_fixture() {
    let r = fixture_resolver("py");
    let py = lang("py");
    assert_eq!(
        r.resolve(&py, "shop/api.py", ".store"),
        files(&["shop/store.py"])
    );
    assert_eq!(
        r.resolve(&py, "shop/api.py", "."),
        files(&["shop/__init__.py"])
    );
    assert_eq!(
        r.resolve(&py, "shop/api.py", ".util"),
        files(&["shop/util/__init__.py"])
    );
    assert_eq!(
        r.resolve_member(&py, "shop/api.py", ".", "store"),
        files(&["shop/store.py"])
    );
    assert_eq!(
        r.resolve_member(&py, "shop/api.py", ".util", "email"),
        files(&["shop/util/email.py"])
    );
    assert_eq!(
        r.resolve_member(&py, "shop/api.py", ".store", "SessionStore"),
        ImportTarget::Unresolved
    );
    assert_eq!(
        r.resolve(&py, "shop/util/email.py", "..base"),
        files(&["shop/base.py"])
    );
    assert_eq!(
        r.resolve(&py, "shop/util/email.py", "shop.store"),
        files(&["shop/store.py"])
    );
    assert_eq!(r.resolve(&py, "shop/api.py", "os.path"), ext("os"));
    assert_eq!(r.resolve(&py, "shop/api.py", "json"), ext("json"));
    assert_eq!(
        r.resolve(&py, "shop/api.py", "shop.missing"),
        ImportTarget::Unresolved
    );
    assert_eq!(
        r.resolve(&py, "shop/api.py", "...toofar"),
        ImportTarget::Unresolved
    );
    assert_eq!(r.config_files(), ["pyproject.toml"]);
}

#[test]
fn py_src_layout_and_namespace_packages() {
    let r = memory_resolver(&[
        ("pyproject.toml", ""),
        ("src/app/__init__.py", ""),
        ("src/app/core.py", ""),
        ("src/app/ns/a.py", ""),
        ("tests/test_core.py", ""),
        ("scripts/run.py", ""),
        ("scripts/helpers.py", ""),
    ]);
    let py = lang("py");
    assert_eq!(
        r.resolve(&py, "tests/test_core.py", "app.core"),
        files(&["src/app/core.py"])
    );
    assert_eq!(
        r.resolve(&py, "tests/test_core.py", "app"),
        files(&["src/app/__init__.py"])
    );
    // A directory without __init__.py: a namespace package of its modules.
    assert_eq!(
        r.resolve(&py, "src/app/core.py", "app.ns"),
        files(&["src/app/ns/a.py"])
    );
    // Scripts import their neighbours.
    assert_eq!(
        r.resolve(&py, "scripts/run.py", "helpers"),
        files(&["scripts/helpers.py"])
    );
    assert_eq!(
        r.resolve(&py, "scripts/run.py", "requests.adapters"),
        ext("requests")
    );
}

#[test]
fn ts_fixture() {
    let r = fixture_resolver("ts");
    let ts = lang("ts");
    // `.js` written, `.ts` on disk.
    assert_eq!(
        r.resolve(&ts, "src/store.ts", "./base.js"),
        files(&["src/base.ts"])
    );
    assert_eq!(
        r.resolve(&ts, "src/api.ts", "./store"),
        files(&["src/store.ts"])
    );
    assert_eq!(
        r.resolve(&ts, "src/api.ts", "./util/token.js"),
        files(&["src/util/token.ts"])
    );
    // tsconfig.json `paths`.
    assert_eq!(
        r.resolve(&ts, "src/api.ts", "@util/email"),
        files(&["src/util/email.ts"])
    );
    // tsconfig.json `baseUrl` (".").
    assert_eq!(
        r.resolve(&ts, "src/api.ts", "src/store"),
        files(&["src/store.ts"])
    );
    assert_eq!(
        r.resolve(&ts, "src/index.ts", "./util/missing"),
        ImportTarget::Unresolved
    );
    assert_eq!(r.resolve(&ts, "src/api.ts", "react"), ext("react"));
    assert_eq!(
        r.resolve(&ts, "src/api.ts", "@types/node/fs"),
        ext("@types/node")
    );
    assert_eq!(r.resolve(&ts, "src/api.ts", "node:fs"), ext("fs"));
    assert_eq!(r.config_files(), ["package.json", "tsconfig.json"]);
    assert!(r.is_config_file("packages/new/tsconfig.json"));
}

#[test]
fn ts_index_files_extends_and_workspace_packages() {
    let r = memory_resolver(&[
        (
            "tsconfig.base.json",
            r#"{ "compilerOptions": { "baseUrl": "./", "paths": { "~/*": ["app/src/*"] } } }"#,
        ),
        (
            "app/tsconfig.json",
            r#"{ "extends": "../tsconfig.base.json", /* c */ "compilerOptions": { "strict": true, }, }"#,
        ),
        ("app/src/widgets/index.tsx", ""),
        ("app/src/main.ts", ""),
        ("app/src/lib.d.ts", ""),
        (
            "packages/ui/package.json",
            r#"{ "name": "@acme/ui", "main": "dist/index.js", "source": "src/index.ts" }"#,
        ),
        ("packages/ui/src/index.ts", ""),
        ("packages/ui/src/button.ts", ""),
    ]);
    let ts = lang("ts");
    assert_eq!(
        r.resolve(&ts, "app/src/main.ts", "./widgets"),
        files(&["app/src/widgets/index.tsx"])
    );
    assert_eq!(
        r.resolve(&ts, "app/src/main.ts", "~/widgets"),
        files(&["app/src/widgets/index.tsx"])
    );
    assert_eq!(
        r.resolve(&ts, "app/src/main.ts", "./lib"),
        files(&["app/src/lib.d.ts"])
    );
    assert_eq!(
        r.resolve(&ts, "app/src/main.ts", "@acme/ui"),
        files(&["packages/ui/src/index.ts"])
    );
    assert_eq!(
        r.resolve(&ts, "app/src/main.ts", "@acme/ui/button"),
        files(&["packages/ui/src/button.ts"])
    );
    assert_eq!(
        r.resolve(&ts, "app/src/main.ts", "../../../outside"),
        ImportTarget::Unresolved
    );
}

#[test]
fn js_fixture() {
    let r = fixture_resolver("js");
    let js = lang("js");
    assert_eq!(
        r.resolve(&js, "src/api.js", "./store.js"),
        files(&["src/store.js"])
    );
    assert_eq!(
        r.resolve(&js, "src/api.js", "./util/email.js"),
        files(&["src/util/email.js"])
    );
    assert_eq!(
        r.resolve(&js, "src/index.js", "./base"),
        files(&["src/base.js"])
    );
    assert_eq!(
        r.resolve(&js, "src/index.js", "./util/email"),
        files(&["src/util/email.js"])
    );
    assert_eq!(r.resolve(&js, "src/index.js", "lodash/fp"), ext("lodash"));
    // The package's own name leads to its entry point.
    assert_eq!(
        r.resolve(&js, "src/api.js", "shop"),
        files(&["src/index.js"])
    );
}

#[test]
fn rs_fixture() {
    let r = fixture_resolver("rs");
    let rs = lang("rs");
    assert_eq!(r.resolve(&rs, "src/lib.rs", "api"), files(&["src/api.rs"]));
    assert_eq!(
        r.resolve(&rs, "src/lib.rs", "util"),
        files(&["src/util/mod.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/util/mod.rs", "email"),
        files(&["src/util/email.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/store.rs", "crate::base"),
        files(&["src/base.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/api.rs", "super::store"),
        files(&["src/store.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/api.rs", "crate::util"),
        files(&["src/util/mod.rs"])
    );
    assert_eq!(
        r.resolve_member(&rs, "src/api.rs", "crate::util", "email"),
        files(&["src/util/email.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/util/token.rs", "super::super::store"),
        files(&["src/store.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/util/email.rs", "self"),
        files(&["src/util/email.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/util/email.rs", "super"),
        files(&["src/util/mod.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "src/lib.rs", "crate"),
        files(&["src/lib.rs"])
    );
    // An item is not a module: the caller splits `SessionStore` off.
    assert_eq!(
        r.resolve(&rs, "src/api.rs", "crate::store::SessionStore"),
        ImportTarget::Unresolved
    );
    assert_eq!(r.resolve(&rs, "src/store.rs", "std::time"), ext("std"));
    // `use store::X` in api.rs names a child of `api`, which does not exist: not local.
    assert_eq!(r.resolve(&rs, "src/api.rs", "store"), ext("store"));
    assert_eq!(r.config_files(), ["Cargo.toml"]);
}

#[test]
fn rs_workspace_members_by_name() {
    let r = memory_resolver(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        (
            "crates/core-lib/Cargo.toml",
            "[package]\nname = \"core-lib\"\n",
        ),
        ("crates/core-lib/src/lib.rs", ""),
        ("crates/core-lib/src/graph/mod.rs", ""),
        ("crates/core-lib/src/graph/walk.rs", ""),
        (
            "crates/app/Cargo.toml",
            "[package]\nname = \"app\"\n[lib]\nname = \"app_impl\"\n",
        ),
        ("crates/app/src/main.rs", ""),
        ("crates/app/src/cli.rs", ""),
        ("crates/app/src/cli/args.rs", ""),
    ]);
    let rs = lang("rs");
    assert_eq!(
        r.resolve(&rs, "crates/app/src/main.rs", "core_lib"),
        files(&["crates/core-lib/src/lib.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "crates/app/src/main.rs", "core_lib::graph::walk"),
        files(&["crates/core-lib/src/graph/walk.rs"])
    );
    // A non-mod.rs module keeps its children in a directory named after it.
    assert_eq!(
        r.resolve(&rs, "crates/app/src/cli.rs", "args"),
        files(&["crates/app/src/cli/args.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "crates/app/src/cli/args.rs", "super"),
        files(&["crates/app/src/cli.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "crates/app/src/cli/args.rs", "crate::cli"),
        files(&["crates/app/src/cli.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "crates/core-lib/src/graph/walk.rs", "crate::graph"),
        files(&["crates/core-lib/src/graph/mod.rs"])
    );
    assert_eq!(
        r.resolve(&rs, "crates/app/src/main.rs", "serde::de"),
        ext("serde")
    );
}

#[test]
fn go_fixture() {
    let r = fixture_resolver("go");
    let go = lang("go");
    assert_eq!(
        r.resolve(&go, "api/api.go", "example.com/shop/store"),
        files(&["store/store.go"])
    );
    assert_eq!(
        r.resolve(&go, "api/api.go", "example.com/shop/util/token"),
        files(&["util/token/token.go"])
    );
    assert_eq!(
        r.resolve(&go, "store/store.go", "example.com/shop/base"),
        files(&["base/base.go"])
    );
    assert_eq!(
        r.resolve(&go, "api/api.go", "example.com/shop/nothing"),
        ImportTarget::Unresolved
    );
    assert_eq!(
        r.resolve(&go, "api/api.go", "encoding/json"),
        ext("encoding")
    );
    assert_eq!(
        r.resolve(&go, "api/api.go", "github.com/gorilla/mux/middleware"),
        ext("github.com/gorilla/mux")
    );
    assert_eq!(r.config_files(), ["go.mod"]);
}

#[test]
fn go_packages_are_directories_without_tests() {
    let r = memory_resolver(&[
        (
            "go.mod",
            "// the module\nmodule \"example.org/m\" // trailing\n\ngo 1.22\n",
        ),
        ("pkg/a/a.go", ""),
        ("pkg/a/b.go", ""),
        ("pkg/a/a_test.go", ""),
        ("pkg/a/README.md", ""),
        ("tools/go.mod", "module example.org/m/tools\n"),
        ("tools/gen/gen.go", ""),
        ("cmd/main.go", ""),
    ]);
    let go = lang("go");
    assert_eq!(
        r.resolve(&go, "cmd/main.go", "example.org/m/pkg/a"),
        files(&["pkg/a/a.go", "pkg/a/b.go"])
    );
    // The nested module wins for its own paths.
    assert_eq!(
        r.resolve(&go, "cmd/main.go", "example.org/m/tools/gen"),
        files(&["tools/gen/gen.go"])
    );
    assert_eq!(
        r.resolve(&go, "cmd/main.go", "../pkg/a"),
        files(&["pkg/a/a.go", "pkg/a/b.go"])
    );
}

#[test]
fn java_packages_are_read_from_the_files() {
    let r = fixture_resolver("java");
    let registry = navmap_grammars::registry();
    let java = registry.by_id("java").unwrap().clone();
    let p = "src/main/java/com/example/shop/";
    let api = format!("{p}api/Api.java");
    // A package: all its files.
    assert_eq!(
        r.resolve(&java, &api, "com.example.shop.store"),
        ImportTarget::Files(vec![
            format!("{p}store/SessionStore.java"),
            format!("{p}store/Stores.java")
        ])
    );
    // A type of a package (static imports, `resolve_member`): its file.
    assert_eq!(
        r.resolve_member(&java, &api, "com.example.shop.util", "Email"),
        ImportTarget::Files(vec![format!("{p}util/Email.java")])
    );
    // The importer is not part of what it imports.
    assert_eq!(
        r.resolve(
            &java,
            &format!("{p}store/Stores.java"),
            "com.example.shop.store"
        ),
        ImportTarget::Files(vec![format!("{p}store/SessionStore.java")])
    );
    assert_eq!(
        r.resolve(&java, &api, "java.util"),
        ImportTarget::External("java".into())
    );
    // Inside the repository's packages but nowhere: unresolved, not external.
    assert_eq!(
        r.resolve(&java, &api, "com.example.shop.missing"),
        ImportTarget::Unresolved
    );
}

#[test]
fn declared_packages_need_not_match_directories() {
    let r = memory_resolver(&[
        ("pom.xml", ""),
        ("src/main/java/a/One.java", "package x.y;\nclass One {}\n"),
        (
            "lib/Two.java",
            "// package z;\npackage x.y;\nclass Two {}\n",
        ),
        ("src/main/java/q/r/Three.java", "class Three {}\n"),
    ]);
    let registry = navmap_grammars::registry();
    let java = registry.by_id("java").unwrap().clone();
    assert_eq!(
        r.resolve(&java, "src/Main.java", "x.y"),
        ImportTarget::Files(vec![
            "lib/Two.java".into(),
            "src/main/java/a/One.java".into()
        ])
    );
    // No declaration: the directory under a source root stands in for the package.
    assert_eq!(
        r.resolve(&java, "src/Main.java", "q.r"),
        ImportTarget::Files(vec!["src/main/java/q/r/Three.java".into()])
    );
}

#[test]
fn csharp_namespaces_are_read_from_the_files_wherever_they_are() {
    let r = fixture_resolver("cs");
    let registry = navmap_grammars::registry();
    let cs = registry.by_id("cs").unwrap().clone();
    // `using Shop.Util;`: the namespace's files, one of them in another directory.
    assert_eq!(
        r.resolve(&cs, "Api/Api.cs", "Shop.Util"),
        ImportTarget::Files(vec![
            "Checks/Token.cs".into(),
            "Util/Email.cs".into(),
            "Util/IValidator.cs".into()
        ])
    );
    // `using Handler = Shop.Store.SessionStore;`: the namespace's file named after the type.
    assert_eq!(
        r.resolve(&cs, "Api/Api.cs", "Shop.Store.SessionStore"),
        ImportTarget::Files(vec!["Store/SessionStore.cs".into()])
    );
    // A type of a namespace with no file named after it: the namespace's files.
    assert_eq!(
        r.resolve(&cs, "Api/Api.cs", "Shop.Base.SessionState"),
        ImportTarget::Files(vec!["Base/BaseStore.cs".into()])
    );
    assert_eq!(
        r.resolve(&cs, "Api/Api.cs", "System.Text.Json"),
        ImportTarget::External("System".into())
    );
    // No source-root fallback: a directory is not a namespace.
    assert_eq!(
        r.resolve(&cs, "Api/Api.cs", "Checks"),
        ImportTarget::External("Checks".into())
    );
    assert_eq!(
        r.resolve(&cs, "Api/Api.cs", "Shop.Missing"),
        ImportTarget::Unresolved
    );
}

#[test]
fn scala_packages_follow_the_sbt_layout() {
    let r = fixture_resolver("scala");
    let registry = navmap_grammars::registry();
    let scala = registry.by_id("scala").unwrap().clone();
    let p = "src/main/scala/com/example/shop/";
    let api = format!("{p}api/Api.scala");
    assert_eq!(
        r.resolve(&scala, &api, "com.example.shop.store"),
        ImportTarget::Files(vec![
            format!("{p}store/Defaults.scala"),
            format!("{p}store/SessionStore.scala")
        ])
    );
    assert_eq!(
        r.resolve_member(&scala, &api, "com.example.shop.util", "Email"),
        ImportTarget::Files(vec![format!("{p}util/Email.scala")])
    );
    assert_eq!(
        r.resolve(&scala, &api, "scala.collection"),
        ImportTarget::External("scala".into())
    );
    assert_eq!(
        r.resolve(&scala, &api, "com.example.missing"),
        ImportTarget::Unresolved
    );
}

#[test]
fn a_nested_member_resolves_to_the_file_of_its_outermost_type() {
    let r = memory_resolver(&[
        ("pom.xml", ""),
        (
            "src/main/java/a/b/Outer.java",
            "package a.b;\nclass Outer { static class Inner {} }\n",
        ),
        (
            "src/main/java/a/b/Other.java",
            "package a.b;\nclass Other {}\n",
        ),
    ]);
    let registry = navmap_grammars::registry();
    let java = registry.by_id("java").unwrap().clone();
    assert_eq!(
        r.resolve(&java, "src/main/java/M.java", "a.b.Outer.Inner"),
        ImportTarget::Files(vec!["src/main/java/a/b/Outer.java".into()])
    );
    assert_eq!(
        r.resolve(&java, "src/main/java/M.java", "a.b.Other"),
        ImportTarget::Files(vec!["src/main/java/a/b/Other.java".into()])
    );
}

#[test]
fn cpp_fixture() {
    let r = fixture_resolver("cpp");
    let cpp = lang("cpp");
    // Next to the includer first, then `-Iinclude` from compile_flags.txt.
    assert_eq!(
        r.resolve(&cpp, "include/store.hpp", "base.hpp"),
        files(&["include/base.hpp"])
    );
    assert_eq!(
        r.resolve(&cpp, "src/store.cpp", "store.hpp"),
        files(&["include/store.hpp"])
    );
    assert_eq!(
        r.resolve(&cpp, "src/api.cpp", "util/token.hpp"),
        files(&["include/util/token.hpp"])
    );
    assert_eq!(
        r.resolve(&cpp, "src/api.cpp", "<iostream>"),
        ext("iostream")
    );
    assert_eq!(
        r.resolve(&cpp, "src/api.cpp", "gen/none.hpp"),
        ImportTarget::Unresolved
    );
    assert!(r.is_config_file("compile_flags.txt"));
}

#[test]
fn cpp_include_dirs_from_a_compilation_database() {
    let r = memory_resolver(&[
        (
            "build/compile_commands.json",
            r#"[{"directory": "..", "command": "c++ -Ithird/lib -isystem /usr/include -c app/main.cpp", "file": "app/main.cpp"}]"#,
        ),
        ("app/main.cpp", ""),
        ("third/lib/dep/dep.hpp", ""),
        ("include/own.hpp", ""),
        ("app/local.hpp", ""),
    ]);
    let cpp = lang("cpp");
    assert_eq!(
        r.resolve(&cpp, "app/main.cpp", "dep/dep.hpp"),
        files(&["third/lib/dep/dep.hpp"])
    );
    assert_eq!(
        r.resolve(&cpp, "app/main.cpp", "<dep/dep.hpp>"),
        files(&["third/lib/dep/dep.hpp"])
    );
    // The common layout `include/` without any flag.
    assert_eq!(
        r.resolve(&cpp, "app/main.cpp", "own.hpp"),
        files(&["include/own.hpp"])
    );
    // `<…>` never looks next to the includer.
    assert_eq!(
        r.resolve(&cpp, "app/main.cpp", "<local.hpp>"),
        ext("local.hpp")
    );
    assert_eq!(
        r.resolve(&cpp, "app/main.cpp", "<sys/types.h>"),
        ext("sys/types.h")
    );
}

#[test]
fn c_fixture() {
    let r = fixture_resolver("c");
    let c = lang("c");
    assert_eq!(
        r.resolve(&c, "include/store.h", "base.h"),
        files(&["include/base.h"])
    );
    // `-Iinclude` from compile_flags.txt (the importer's directory has no such file).
    assert_eq!(
        r.resolve(&c, "src/util/check.c", "util/email.h"),
        files(&["include/util/email.h"])
    );
    assert_eq!(
        r.resolve(&c, "src/api.c", "api.h"),
        files(&["include/api.h"])
    );
    assert_eq!(r.resolve(&c, "src/store.c", "<stdlib.h>"), ext("stdlib.h"));
    assert_eq!(
        r.resolve(&c, "src/api.c", "missing.h"),
        ImportTarget::Unresolved
    );
}

#[test]
fn swift_fixture() {
    let r = fixture_resolver("swift");
    let swift = lang("swift");
    // A module is its target directory, every file below it.
    assert_eq!(
        r.resolve(&swift, "Sources/Shop/API.swift", "Store"),
        files(&["Sources/Store/BaseStore.swift", "Sources/Store/Store.swift"])
    );
    assert_eq!(
        r.resolve(&swift, "Sources/Store/Store.swift", "Shop"),
        files(&[
            "Sources/Shop/API.swift",
            "Sources/Shop/Shop.swift",
            "Sources/Shop/util/email.swift",
            "Sources/Shop/util/token.swift",
        ])
    );
    assert_eq!(
        r.resolve(&swift, "Sources/Shop/API.swift", "Foundation"),
        ext("Foundation")
    );
    assert_eq!(
        r.resolve(&swift, "Sources/Shop/API.swift", "Foundation.NSString"),
        ext("Foundation")
    );
    assert!(r.is_config_file("Package.swift"));
}

#[test]
fn php_fixture_psr4_and_requires() {
    let r = fixture_resolver("php");
    let php = lang("php");
    // `use Shop\Util\Email` is module `Shop\Util` (a namespace directory) + name `Email`.
    assert_eq!(
        r.resolve(&php, "src/Api.php", "Shop\\Util"),
        files(&["src/Util/Email.php", "src/Util/Token.php"])
    );
    assert_eq!(
        r.resolve_member(&php, "src/Api.php", "Shop\\Util", "Email"),
        files(&["src/Util/Email.php"])
    );
    assert_eq!(
        r.resolve(&php, "bin/refresh.php", "\\Shop\\SessionStore"),
        files(&["src/SessionStore.php"])
    );
    // Under the prefix but not there: unresolved, not external.
    assert_eq!(
        r.resolve(&php, "src/Api.php", "Shop\\Nowhere"),
        ImportTarget::Unresolved
    );
    assert_eq!(r.resolve(&php, "src/Api.php", "Psr\\Log"), ext("Psr"));
    // `require __DIR__ . '/../src/helpers.php'`: relative to the file.
    assert_eq!(
        r.resolve(&php, "bin/refresh.php", "/../src/helpers.php"),
        files(&["src/helpers.php"])
    );
    assert_eq!(
        r.resolve(&php, "bin/refresh.php", "/../vendor/autoload.php"),
        ImportTarget::Unresolved
    );
    assert!(r.is_config_file("composer.json"));
}

#[test]
fn php_prefix_lists_and_nested_projects() {
    let r = memory_resolver(&[
        (
            "pkg/composer.json",
            r#"{"autoload": {"psr-4": {"Acme\\Core\\": ["lib/", "extra/"]}},
                "autoload-dev": {"psr-4": {"Acme\\Tests\\": "tests/"}}}"#,
        ),
        ("pkg/lib/Box.php", ""),
        ("pkg/extra/Crate.php", ""),
        ("pkg/tests/BoxTest.php", ""),
        ("pkg/lib/inc.php", ""),
    ]);
    let php = lang("php");
    assert_eq!(
        r.resolve(&php, "pkg/lib/Box.php", "Acme\\Core\\Crate"),
        files(&["pkg/extra/Crate.php"])
    );
    assert_eq!(
        r.resolve(&php, "pkg/lib/Box.php", "Acme\\Tests\\BoxTest"),
        files(&["pkg/tests/BoxTest.php"])
    );
    // A plain `require 'inc.php'`: beside the importer first.
    assert_eq!(
        r.resolve(&php, "pkg/lib/Box.php", "inc.php"),
        files(&["pkg/lib/inc.php"])
    );
}

#[test]
fn sh_sources_are_paths() {
    let r = fixture_resolver("sh");
    let sh = lang("sh");
    // `source "$(dirname "$0")/../lib/api.sh"` is captured as `/../lib/api.sh`.
    assert_eq!(
        r.resolve(&sh, "bin/refresh.sh", "/../lib/api.sh"),
        files(&["lib/api.sh"])
    );
    assert_eq!(
        r.resolve(&sh, "lib/api.sh", "/util/token.sh"),
        files(&["lib/util/token.sh"])
    );
    assert_eq!(
        r.resolve(&sh, "lib/util/email.sh", "../store.sh"),
        files(&["lib/store.sh"])
    );
    // A plain path: beside the importer, then from the root.
    assert_eq!(
        r.resolve(&sh, "lib/api.sh", "store.sh"),
        files(&["lib/store.sh"])
    );
    assert_eq!(
        r.resolve(&sh, "bin/refresh.sh", "lib/base.sh"),
        files(&["lib/base.sh"])
    );
    // Not in the repository: unresolved, never a package.
    assert_eq!(
        r.resolve(&sh, "lib/api.sh", "/nowhere.sh"),
        ImportTarget::Unresolved
    );
}

#[test]
fn rb_require_load_path_and_require_relative() {
    let r = fixture_resolver("rb");
    let rb = lang("rb");
    // `require "shop"` / `require "shop/session_store"`: `lib/` is on the load path.
    assert_eq!(
        r.resolve(&rb, "bin/refresh.rb", "shop"),
        files(&["lib/shop.rb"])
    );
    assert_eq!(
        r.resolve(&rb, "lib/shop/api.rb", "shop/session_store"),
        files(&["lib/shop/session_store.rb"])
    );
    // `require_relative "util/email"` is captured as `./util/email`.
    assert_eq!(
        r.resolve(&rb, "lib/shop/api.rb", "./util/email"),
        files(&["lib/shop/util/email.rb"])
    );
    assert_eq!(
        r.resolve(&rb, "lib/shop/util/email.rb", "./../base_store"),
        files(&["lib/shop/base_store.rb"])
    );
    // Relative and missing: unresolved; a library that is not here: external.
    assert_eq!(
        r.resolve(&rb, "lib/shop/api.rb", "./nowhere"),
        ImportTarget::Unresolved
    );
    assert_eq!(r.resolve(&rb, "lib/shop/api.rb", "json"), ext("json"));
    assert_eq!(
        r.resolve(&rb, "lib/shop/api.rb", "active_support/core_ext"),
        ext("active_support")
    );
    assert!(r.is_config_file("Gemfile"));
}

#[test]
fn lua_require_searches_source_roots() {
    let r = fixture_resolver("lua");
    let lua = lang("lua");
    assert_eq!(
        r.resolve(&lua, "src/shop/api.lua", "shop.store"),
        files(&["src/shop/store.lua"])
    );
    // A directory module: `shop/init.lua`.
    assert_eq!(
        r.resolve(&lua, "bin/refresh.lua", "shop"),
        files(&["src/shop/init.lua"])
    );
    assert_eq!(
        r.resolve(&lua, "src/shop/api.lua", "shop.util.token"),
        files(&["src/shop/util/token.lua"])
    );
    // Under a local package but missing: unresolved; anything else: external.
    assert_eq!(
        r.resolve(&lua, "src/shop/api.lua", "shop.nowhere"),
        ImportTarget::Unresolved
    );
    assert_eq!(
        r.resolve(&lua, "src/shop/api.lua", "cjson.safe"),
        ext("cjson")
    );
    // `lua/` (Neovim plugins) is a source root too.
    let r = memory_resolver(&[("lua/plug/init.lua", ""), ("lua/plug/ui.lua", "")]);
    assert_eq!(
        r.resolve(&lua, "lua/plug/init.lua", "plug.ui"),
        files(&["lua/plug/ui.lua"])
    );
}
