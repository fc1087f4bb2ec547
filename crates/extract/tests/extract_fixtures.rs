//! Golden tests of extraction on the fixtures (`fixtures/README.md` holds the answers):
//! definitions with qualified names and positions, references with qualifiers, imports.
//! Positions here are 0-based (facts); the README's are 1-based.

mod common;
use common::*;

#[test]
fn py_store() {
    let f = extract_fixture("py", "shop/store.py");
    assert!(!f.had_errors);
    assert_eq!(f.lines, 34);
    assert_eq!(
        defs(&f),
        [
            "def constant DEFAULT_TTL @7:0 pub",
            "def class SessionStore @10:6 pub",
            "def method SessionStore.__init__ @13:8 parent=SessionStore",
            "def method SessionStore.get @17:8 pub parent=SessionStore",
            "def method SessionStore.put @22:8 pub parent=SessionStore",
            "def method SessionStore.refresh @26:8 pub parent=SessionStore",
        ]
    );
    let class = &f.defs[1];
    assert_eq!(
        class.doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        class.signature.as_deref(),
        Some("class SessionStore(BaseStore)")
    );
    assert_eq!(
        f.defs[5].signature.as_deref(),
        Some("def refresh(self, key: str) -> bool")
    );
    assert_eq!((f.defs[5].start_line, f.defs[5].end_line), (26, 33));
    assert_has(
        &refs(&f),
        &[
            "extends BaseStore from=SessionStore @10",
            "calls self._data|get from=SessionStore.get @20",
            "calls self|get from=SessionStore.refresh @28",
            "calls self|put from=SessionStore.refresh @32",
            "calls time|time from=SessionStore.refresh @31",
            "references Optional from=SessionStore.get @17",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import time [] @2",
            "import typing [Dict, Optional] @3",
            "import .base [BaseStore] @5",
        ]
    );
}

#[test]
fn py_api_and_package() {
    let f = extract_fixture("py", "shop/api.py");
    assert_has(
        &defs(&f),
        &[
            "def function handle_refresh @12:4 pub",
            "def function check @18:4 pub",
            "def variable _checkers @9:0",
        ],
    );
    assert_has(
        &refs(&f),
        &[
            "references SessionStore from=handle_refresh @12",
            "calls store|refresh from=handle_refresh @14",
            "calls checker|validate from=check @22",
            "calls store_module|SessionStore from=default_store @28",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import json [] @2",
            "import os.path [] as osp @3",
            "import . [store as store_module] @5",
            "import .store [SessionStore] @6",
            "import .util [email, token] @7",
        ]
    );
    // Every import of a package's __init__.py re-exports.
    let init = extract_fixture("py", "shop/__init__.py");
    assert_eq!(
        imports(&init),
        [
            "import .store [SessionStore] reexport @2",
            "import .api [handle_refresh as refresh_handler] reexport @3",
        ]
    );
    let clash: Vec<String> = ["shop/util/email.py", "shop/util/token.py"]
        .iter()
        .flat_map(|p| defs(&extract_fixture("py", p)))
        .collect();
    assert_eq!(
        clash,
        [
            "def function validate @3:4 pub",
            "def function validate @3:4 pub"
        ]
    );
}

#[test]
fn ts_store_and_base() {
    let f = extract_fixture("ts", "src/store.ts");
    assert_eq!(
        defs(&f),
        [
            "def constant DEFAULT_TTL @2:13 pub",
            "def class SessionStore @5:13 pub",
            "def property SessionStore.data @6:10 parent=SessionStore",
            "def method SessionStore.constructor @8:2 pub parent=SessionStore",
            "def method SessionStore.get @13:2 pub parent=SessionStore",
            "def method SessionStore.put @19:2 pub parent=SessionStore",
            "def method SessionStore.refresh @24:2 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[1].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        f.defs[6].signature.as_deref(),
        Some("refresh(key: string): boolean")
    );
    assert_has(
        &refs(&f),
        &[
            "extends ExpiringStore from=SessionStore @5",
            "implements BaseStore from=SessionStore @5",
            "calls this.data|get from=SessionStore.get @15",
            "calls this|get from=SessionStore.refresh @25",
            "calls this|put from=SessionStore.refresh @30",
            "references Session from=SessionStore.put @19",
        ],
    );
    // A definition's own name is not a reference to itself.
    assert_none_starts(&refs(&f), &["references SessionStore"]);
    assert_eq!(
        imports(&f),
        ["import ./base.js [BaseStore, ExpiringStore, Session] @0"]
    );

    let base = extract_fixture("ts", "src/base.ts");
    assert_has(
        &defs(&base),
        &[
            "def interface BaseStore @1:17 pub",
            "def method BaseStore.get @2:2 pub parent=BaseStore",
            "def type_alias Session @7:12 pub",
            "def class ExpiringStore @10:22 pub",
            "def method ExpiringStore.get @13:11 pub parent=ExpiringStore",
        ],
    );
    assert_has(
        &refs(&base),
        &["implements BaseStore from=ExpiringStore @10"],
    );
}

#[test]
fn ts_api_and_barrel() {
    let f = extract_fixture("ts", "src/api.ts");
    assert_has(
        &defs(&f),
        &[
            "def constant checkers @4:6",
            "def function handleRefresh @7:16 pub",
            "def function check @13:16 pub",
        ],
    );
    assert_has(
        &refs(&f),
        &[
            "references SessionStore from=handleRefresh @7",
            "calls store|refresh from=handleRefresh @8",
            "calls checker|validate from=check @16",
            "calls SessionStore from=defaultStore @21",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import @util/email [] as email @0",
            "import ./util/token.js [] as token @1",
            "import ./store [SessionStore] @2",
        ]
    );
    let index = extract_fixture("ts", "src/index.ts");
    assert_eq!(
        imports(&index),
        [
            "import ./store [SessionStore, DEFAULT_TTL] reexport @1",
            "import ./api [handleRefresh as refreshHandler] reexport @2",
            "import ./base [BaseStore] reexport @3",
        ]
    );
}

#[test]
fn js_fixture() {
    let f = extract_fixture("js", "src/store.js");
    assert_has(
        &defs(&f),
        &[
            "def class SessionStore @5:13 pub",
            "def method SessionStore.get @13:2 pub parent=SessionStore",
            "def method SessionStore.refresh @24:2 pub parent=SessionStore",
        ],
    );
    assert_has(
        &refs(&f),
        &[
            "extends BaseStore from=SessionStore @5",
            "calls this.data|get from=SessionStore.get @15",
            "calls this|get from=SessionStore.refresh @25",
        ],
    );
    let api = extract_fixture("js", "src/api.js");
    assert_has(
        &defs(&api),
        &[
            "def constant store @7:13 pub",
            "def function handleRefresh @10:16 pub",
        ],
    );
    assert_has(
        &refs(&api),
        &[
            "calls SessionStore from=store @7",
            "calls store|refresh from=handleRefresh @11",
            "calls checker|validate from=check @19",
        ],
    );
    let index = extract_fixture("js", "src/index.js");
    assert_eq!(
        imports(&index),
        [
            "import ./store.js [SessionStore, DEFAULT_TTL] reexport @1",
            "import ./api.js [handleRefresh as refreshHandler, store] reexport @2",
            "import ./base.js [*] reexport @3",
        ]
    );
}

#[test]
fn js_import_forms() {
    let src = r#"import def, { a as b, c } from "m1";
import * as ns from "m2";
import "./side.js";
const { x, y: z } = require("m3");
const whole = require("node:path");
export * as spaced from "./sp.js";
export default function main() { return import("./lazy.js"); }
"#;
    let f = extract_source("js", "src/forms.js", src);
    assert_eq!(
        imports(&f),
        [
            "import m1 [default as def, a as b, c] @0",
            "import m2 [] as ns @1",
            "import ./side.js [] @2",
            "import m3 [x, y as z] @3",
            "import node:path [] as whole @4",
            "import ./sp.js [] as spaced reexport @5",
            "import ./lazy.js [] @6",
        ]
    );
    assert_has(
        &defs(&f),
        &["def function main @6:24 pub", "def constant whole @4:6"],
    );
}

#[test]
fn rs_store_and_lib() {
    let f = extract_fixture("rs", "src/store.rs");
    assert_eq!(
        defs(&f),
        [
            "def constant DEFAULT_TTL @7:10 pub",
            "def struct SessionStore @11:11 pub",
            "def property SessionStore.data @12:4 parent=SessionStore",
            "def property SessionStore.ttl @13:4 parent=SessionStore",
            "def method SessionStore.new @18:11 pub parent=SessionStore",
            "def method SessionStore.refresh @23:11 pub parent=SessionStore",
            "def method SessionStore.get @38:7 pub parent=SessionStore",
            "def method SessionStore.put @43:7 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[1].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        f.defs[5].signature.as_deref(),
        Some("pub fn refresh(&mut self, key: &str) -> bool")
    );
    assert_has(
        &refs(&f),
        &[
            "implements BaseStore from=SessionStore @37",
            "calls self|get from=SessionStore.refresh @24",
            "calls self|put from=SessionStore.refresh @32",
            "calls self.data|get from=SessionStore.get @40",
            "calls Sessions|new from=SessionStore.new @19",
            "calls SystemTime::now()|duration_since from=SessionStore.refresh @28",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import std::time [SystemTime, UNIX_EPOCH] @2",
            "import crate::base [BaseStore, Session, Sessions] @4"
        ]
    );
    let lib = extract_fixture("rs", "src/lib.rs");
    assert_eq!(
        imports(&lib),
        [
            "import api [] @2",
            "import base [] @3",
            "import store [] @4",
            "import util [] @5",
            "import api [handle_refresh as refresh_handler] reexport @7",
            "import store [SessionStore, DEFAULT_TTL] reexport @8",
        ]
    );
    let base = extract_fixture("rs", "src/base.rs");
    assert_has(
        &defs(&base),
        &[
            "def trait BaseStore @15:10 pub",
            "def method BaseStore.get @17:7 pub parent=BaseStore",
            "def type_alias Sessions @12:9 pub",
        ],
    );
    assert_eq!(
        base.defs
            .iter()
            .find(|d| d.name == "get")
            .and_then(|d| d.doc.as_deref()),
        Some("Returns the session stored under key.")
    );
}

#[test]
fn rs_api_and_use_trees() {
    let f = extract_fixture("rs", "src/api.rs");
    assert_has(
        &refs(&f),
        &[
            "references SessionStore from=handle_refresh @6",
            "calls store|refresh from=handle_refresh @7",
            "calls validate from=check @16",
            "calls SessionStore|new from=default_store @21",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import super::store [SessionStore] @2",
            "import crate::util [email, token] @3"
        ]
    );
    let src = "use a::b::{self, c as d, e::{f, g::*}, h::i};\npub use crate::x::Y as Z;\nuse super::*;\nextern crate serde as sd;\nuse ::std::fmt;\n";
    let f = extract_source("rs", "src/m.rs", src);
    assert_eq!(
        imports(&f),
        [
            "import a::b [self, c as d] @0",
            "import a::b::e [f] @0",
            "import a::b::e::g [*] @0",
            "import a::b::h [i] @0",
            "import crate::x [Y as Z] reexport @1",
            "import super [*] @2",
            "import serde [] as sd @3",
            "import ::std [fmt] @4",
        ]
    );
}

#[test]
fn go_store_and_api() {
    let f = extract_fixture("go", "store/store.go");
    assert_eq!(
        defs(&f),
        [
            "def constant DefaultTTL @10:6 pub",
            "def struct SessionStore @13:5 pub",
            "def property SessionStore.data @14:1 parent=SessionStore",
            "def property SessionStore.ttl @15:1 parent=SessionStore",
            "def function New @19:5 pub",
            "def method SessionStore.Get @24:23 pub parent=SessionStore",
            "def method SessionStore.Put @30:23 pub parent=SessionStore",
            "def method SessionStore.Refresh @35:23 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[1].signature.as_deref(),
        Some("type SessionStore struct")
    );
    assert_eq!(
        f.defs[7].doc.as_deref(),
        Some("Refresh extends a session's lifetime; false when it does not exist.")
    );
    assert_has(
        &refs(&f),
        &[
            "calls s|Get from=SessionStore.Refresh @36",
            "calls s|Put from=SessionStore.Refresh @41",
        ],
    );
    // Go is structural: no implements edge, even with the compile-time assertion.
    assert_none_starts(&refs(&f), &["implements"]);
    assert_eq!(
        imports(&f),
        ["import time [] @4", "import example.com/shop/base [] @6"]
    );

    let api = extract_fixture("go", "api/api.go");
    assert_has(
        &refs(&api),
        &[
            "references store|SessionStore from=HandleRefresh @20",
            "calls s|Refresh from=HandleRefresh @21",
            "calls checker|Validate from=Check @30",
            "calls r.URL.Query()|Get from=Handler @36",
        ],
    );
    assert_eq!(
        imports(&api),
        [
            "import encoding/json [] @4",
            "import net/http [] @5",
            "import example.com/shop/store [] @7",
            "import example.com/shop/util/email [] @8",
            "import example.com/shop/util/token [] as tok @9",
        ]
    );
}

#[test]
fn utf16_columns_of_names_after_non_ascii() {
    // 🚀 is two UTF-16 units (four bytes), é one (two bytes).
    let f = extract_source("py", "m.py", "a = \"🚀 é\"; b = 2\n");
    assert_has(
        &defs(&f),
        &["def variable a @0:0 pub", "def variable b @0:12 pub"],
    );
    let f = extract_source("ts", "m.ts", "const s = \"🚀\"; export function f() {}\n");
    assert_has(&defs(&f), &["def function f @0:32 pub"]);
}

#[test]
fn every_fixture_file_extracts_without_errors() {
    let registry = navmap_grammars::registry();
    for lang in ["py", "ts", "js", "rs", "go", "php", "sh", "rb", "lua"] {
        for file in fixture_files(lang) {
            let Some(language) = registry.for_path(&file) else {
                continue;
            };
            let facts = navmap_extract::extract_path(language, &file, &read_fixture(lang, &file));
            assert!(!facts.had_errors, "{lang}/{file} has syntax errors");
            assert_eq!(facts.lang, language.id());
        }
    }
}

#[test]
fn tsx_components_and_typescript_forms() {
    let src = r#"import React from "react";
/** A widget. */
@Component({ tag: "w" })
export default class Widget extends Base<Props> implements ns.Renderable {
  #secret = 1;
  private hidden(): void {}
  render() { return <Panel title="é"><Icon.Small /></Panel>; }
}
export enum Color { Red, Green }
namespace Inner { export const x = 1; }
export type Id = string | number;
interface Props extends Common<T> { id: Id }
"#;
    let f = extract_source("ts", "src/w.tsx", src);
    assert!(!f.had_errors, "{:#?}", f);
    assert_has(
        &defs(&f),
        &[
            "def class Widget @3:21 pub",
            "def property Widget.#secret @4:2 parent=Widget",
            "def method Widget.hidden @5:10 parent=Widget",
            "def method Widget.render @6:2 pub parent=Widget",
            "def enum Color @8:12 pub",
            "def module Inner @9:10",
            "def type_alias Id @10:12 pub",
            "def interface Props @11:10",
            "def property Props.id @11:36 pub parent=Props",
        ],
    );
    assert_eq!(f.defs[0].doc.as_deref(), Some("A widget."));
    assert_has(
        &refs(&f),
        &[
            "calls Component from=<file> @2",
            "extends Base from=Widget @3",
            "implements ns|Renderable from=Widget @3",
            "references Props from=Widget @3",
            "calls Panel from=Widget.render @6",
            "calls Icon|Small from=Widget.render @6",
            "extends Common from=Props @11",
            "references Id from=Props.id @11",
        ],
    );
    assert_eq!(imports(&f), ["import react [default as React] @0"]);
}

#[test]
fn python_decorators_and_nested_definitions() {
    let src = "import functools\n\n@functools.lru_cache(maxsize=1)\ndef cached() -> 'Config':\n    def inner():\n        pass\n    return inner()\n\nclass Config:\n    LIMIT = 3\n    @staticmethod\n    def make(): ...\n";
    let f = extract_source("py", "m.py", src);
    assert_has(
        &defs(&f),
        &[
            "def function cached @3:4 pub",
            "def function cached.inner @4:8 pub parent=cached",
            "def class Config @8:6 pub",
            "def property Config.LIMIT @9:4 pub parent=Config",
            "def method Config.make @11:8 pub parent=Config",
        ],
    );
    assert_has(
        &refs(&f),
        &[
            "calls functools|lru_cache from=<file> @2",
            "references Config from=cached @3",
            "calls inner from=cached @6",
            "references staticmethod from=Config @10",
        ],
    );
}

/// `<name>: <qualifier>|<type> in <scope>`.
fn bindings(f: &navmap_extract::facts::FileFacts) -> Vec<String> {
    f.bindings
        .iter()
        .map(|b| {
            let scope = b
                .scope
                .map(|i| f.defs[i].qualified_name.as_str())
                .unwrap_or("<file>");
            let ty = match &b.type_qualifier {
                Some(q) => format!("{q}|{}", b.type_name),
                None => b.type_name.clone(),
            };
            format!("{}: {ty} in {scope} @{}", b.name, b.line)
        })
        .collect()
}

#[test]
fn bindings_type_the_receivers_of_the_api_calls() {
    // The fixtures' API functions get their store by a typed parameter or a construction.
    assert_has(
        &bindings(&extract_fixture("py", "shop/api.py")),
        &["store: SessionStore in handle_refresh @12"],
    );
    assert_has(
        &bindings(&extract_fixture("ts", "src/api.ts")),
        &["store: SessionStore in handleRefresh @7"],
    );
    assert_has(
        &bindings(&extract_fixture("js", "src/api.js")),
        &["store: SessionStore in <file> @7"],
    );
    assert_has(
        &bindings(&extract_fixture("js", "src/store.js")),
        &["this.data: Map in SessionStore.constructor @8"],
    );
    assert_has(
        &bindings(&extract_fixture("ts", "src/store.ts")),
        &["data: Map in SessionStore @6"],
    );
    assert_has(
        &bindings(&extract_fixture("rs", "src/api.rs")),
        &["store: SessionStore in handle_refresh @6"],
    );
    let go = bindings(&extract_fixture("go", "api/api.go"));
    assert_has(
        &go,
        &[
            "s: store|SessionStore in HandleRefresh @20",
            "r: http|Request in Handler @35",
        ],
    );
    let go = bindings(&extract_fixture("go", "store/store.go"));
    assert_has(&go, &["s: SessionStore in SessionStore.Refresh @35"]);
    assert_none_starts(&go, &["_:"]);

    let f = extract_source(
        "rs",
        "m.rs",
        "fn f() { let s = crate::store::SessionStore::new(1); let t = Point { x: 1 }; let u: &mut Vec<u8> = v; }\n",
    );
    assert_has(
        &bindings(&f),
        &[
            "s: crate::store|SessionStore in f @0",
            "t: Point in f @0",
            "u: Vec in f @0",
        ],
    );
    let f = extract_source(
        "py",
        "m.py",
        "class A:\n    def __init__(self):\n        self.store = store.SessionStore()\n",
    );
    assert_has(
        &bindings(&f),
        &["self.store: store|SessionStore in A.__init__ @2"],
    );
    let f = extract_source(
        "go",
        "m.go",
        "package m\nfunc F() { x := &pkg.T{}; y := New() }\n",
    );
    assert_has(&bindings(&f), &["x: pkg|T in F @1", "y: New in F @1"]);
}

#[test]
fn php_store_enum_and_api() {
    let f = extract_fixture("php", "src/SessionStore.php");
    assert!(!f.had_errors);
    assert_eq!(
        defs(&f),
        [
            "def class SessionStore @9:6 pub",
            "def constant SessionStore.DEFAULT_TTL @11:17 pub parent=SessionStore",
            "def property SessionStore.data @13:19 parent=SessionStore",
            "def method SessionStore.__construct @15:20 pub parent=SessionStore",
            "def method SessionStore.get @20:20 pub parent=SessionStore",
            "def method SessionStore.put @26:20 pub parent=SessionStore",
            "def method SessionStore.refresh @32:20 pub parent=SessionStore",
            "def method SessionStore.count @44:20 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[0].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        f.defs[6].signature.as_deref(),
        Some("public function refresh(string $key): bool")
    );
    assert_has(
        &refs(&f),
        &[
            "implements BaseStore from=SessionStore @9",
            "calls this|get from=SessionStore.refresh @34",
            "calls this|put from=SessionStore.refresh @39",
            "calls count from=SessionStore.count @47",
        ],
    );

    let e = extract_fixture("php", "src/SessionState.php");
    assert_eq!(
        defs(&e),
        [
            "def enum SessionState @7:5 pub",
            "def constant SessionState.Active @9:9 pub parent=SessionState",
            "def constant SessionState.Expired @10:9 pub parent=SessionState",
        ]
    );

    let api = extract_fixture("php", "src/Api.php");
    assert_has(
        &refs(&api),
        &[
            "references SessionStore from=Api.handleRefresh @13",
            "calls store|refresh from=Api.handleRefresh @15",
            "calls checker|validate from=Api.check @24",
        ],
    );
    assert_eq!(
        imports(&api),
        [
            "import Shop\\Util [Email] @6",
            "import Shop\\Util [Token as TokenCheck] @7",
        ]
    );
    let t = extract_source(
        "php",
        "t.php",
        "<?php\ntrait Stamps { public function stamp(): int { return 1; } }\nclass A { use Stamps; }\n",
    );
    assert_has(
        &defs(&t),
        &[
            "def trait Stamps @1:6 pub",
            "def method Stamps.stamp @1:31 pub parent=Stamps",
        ],
    );
    assert_has(&refs(&t), &["implements Stamps from=A @2"]);
    let bin = extract_fixture("php", "bin/refresh.php");
    assert_eq!(
        imports(&bin),
        [
            "import /../vendor/autoload.php [*] @4",
            "import /../src/helpers.php [*] @5",
            "import Shop [Api] @7",
        ]
    );
}

#[test]
fn sh_store_api_and_sources() {
    let f = extract_fixture("sh", "lib/store.sh");
    assert!(!f.had_errors);
    assert_eq!(
        defs(&f),
        [
            "def variable SessionStore @7:12 pub",
            "def function date @10:0 pub",
            "def function store_get @15:0 pub",
            "def function store_put @22:0 pub",
            "def function store_refresh @28:0 pub",
        ]
    );
    assert_eq!(
        f.defs[0].signature.as_deref(),
        Some("declare -gA SessionStore=()")
    );
    assert_eq!(
        f.defs[0].doc.as_deref(),
        Some("The sessions: key → expiry time (seconds since the epoch).")
    );
    let r = refs(&f);
    assert_has(
        &r,
        &[
            "calls store_get from=store_refresh @30",
            "calls date from=store_refresh @31",
            "calls store_put from=store_refresh @32",
            "references SessionStore from=store_put @24",
        ],
    );
    // `command date` inside `date()` calls the program: no use of `date` there.
    assert!(
        !r.iter().any(|x| x.starts_with("calls date from=date")),
        "{r:?}"
    );
    // Positional parameters are not names.
    assert!(!r.iter().any(|x| x.starts_with("references 1 ")), "{r:?}");
    assert_eq!(imports(&f), ["import /base.sh [*] reexport @4"]);

    let base = extract_fixture("sh", "lib/base.sh");
    assert_has(&defs(&base), &["def constant BASE_STORE_TTL @5:9 pub"]);

    let api = extract_fixture("sh", "lib/api.sh");
    assert_has(
        &refs(&api),
        &[
            "calls store_refresh from=handle_refresh @8",
            "calls validate from=check @20",
        ],
    );
    assert_eq!(
        imports(&api),
        [
            "import /store.sh [*] reexport @4",
            "import /util/email.sh [*] reexport @15",
            "import /util/token.sh [*] reexport @17",
        ]
    );
    let bin = extract_fixture("sh", "bin/refresh.sh");
    assert_eq!(imports(&bin), ["import /../lib/api.sh [*] reexport @4"]);
    // Only the script's own directory is a known prefix; other variables are not followed.
    let other = extract_source(
        "sh",
        "x.sh",
        "source \"$HOME/.shoprc\"\n. ./local.sh\nsource 'quoted.sh'\nsource \"${0%/*}/a.sh\"\n\
         source \"$(cd \"$(dirname \"$0\")\" && pwd)/b.sh\"\nsource \"$(cd /tmp && pwd)/c.sh\"\n",
    );
    assert_eq!(
        imports(&other),
        [
            "import ./local.sh [*] reexport @1",
            "import quoted.sh [*] reexport @2",
            "import /a.sh [*] reexport @3",
            "import /b.sh [*] reexport @4",
        ]
    );
}

#[test]
fn rb_store_module_and_requires() {
    let f = extract_fixture("rb", "lib/shop/session_store.rb");
    assert!(!f.had_errors);
    assert_eq!(
        defs(&f),
        [
            "def class SessionStore @6:12 pub",
            "def constant SessionStore.DEFAULT_TTL @7:2 pub parent=SessionStore",
            "def method SessionStore.initialize @11:6 pub parent=SessionStore",
            "def method SessionStore.get @18:6 pub parent=SessionStore",
            "def method SessionStore.put @23:6 pub parent=SessionStore",
            "def method SessionStore.refresh @28:6 pub parent=SessionStore",
            "def method SessionStore.size @37:6 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[0].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(f.defs[5].signature.as_deref(), Some("def refresh(key)"));
    assert_has(
        &refs(&f),
        &[
            "extends BaseStore from=SessionStore @6",
            "calls self|get from=SessionStore.refresh @29",
            "calls put from=SessionStore.refresh @32",
            "calls @data|size from=SessionStore.size @39",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import time [*] reexport @2",
            "import ./base_store [*] reexport @3",
        ]
    );

    let shop = extract_fixture("rb", "lib/shop.rb");
    assert_eq!(
        defs(&shop),
        [
            "def module Shop @3:7 pub",
            "def constant Shop.VERSION @4:2 pub parent=Shop",
            "def module Shop.Util @7:9 pub parent=Shop",
        ]
    );

    let api = extract_fixture("rb", "lib/shop/api.rb");
    let r = refs(&api);
    assert_has(
        &r,
        &[
            "calls SessionStore from=Api.STORE @10",
            "calls STORE|refresh from=Api.handle_refresh @14",
            "calls checker|validate from=Api.check @22",
        ],
    );
    // `X.new` is a call of X, not of a method `new`.
    assert!(!r.iter().any(|x| x.contains("|new ")), "{r:?}");
    assert_has(&bindings(&api), &["STORE: SessionStore in Api @10"]);
    assert_eq!(
        imports(&api),
        [
            "import json [*] reexport @2",
            "import shop/session_store [*] reexport @3",
            "import ./util/email [*] reexport @4",
            "import ./util/token [*] reexport @5",
        ]
    );
}

#[test]
fn lua_tables_methods_and_requires() {
    let f = extract_fixture("lua", "src/shop/store.lua");
    assert!(!f.had_errors);
    assert_eq!(
        defs(&f),
        [
            "def class SessionStore @4:6 pub",
            "def constant SessionStore.DEFAULT_TTL @8:13 pub parent=SessionStore",
            "def method SessionStore.new @11:22 pub parent=SessionStore",
            "def method SessionStore.get @19:22 pub parent=SessionStore",
            "def method SessionStore.put @24:22 pub parent=SessionStore",
            "def method SessionStore.refresh @29:22 pub parent=SessionStore",
            "def method SessionStore.format @40:22 pub parent=SessionStore",
        ]
    );
    // `---` doc comments lose all three dashes.
    assert_eq!(
        f.defs[0].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        f.defs[5].signature.as_deref(),
        Some("function SessionStore:refresh(key)")
    );
    assert_has(
        &refs(&f),
        &[
            "extends BaseStore from=SessionStore @4",
            "calls self|get from=SessionStore.refresh @30",
            "calls self|put from=SessionStore.refresh @35",
            "calls string|format from=SessionStore.format @41",
        ],
    );
    assert_eq!(imports(&f), ["import shop.base_store [BaseStore] @0"]);

    let api = extract_fixture("lua", "src/shop/api.lua");
    assert_eq!(
        defs(&api),
        [
            "def class api @5:6 pub",
            "def method api.handle_refresh @11:13 pub parent=api",
            "def method api.check @17:13 pub parent=api",
        ]
    );
    assert_has(
        &refs(&api),
        &[
            "calls SessionStore|new from=<file> @8",
            "calls store|refresh from=api.handle_refresh @12",
            "calls checker|validate from=api.check @20",
        ],
    );
    assert_eq!(
        imports(&api),
        [
            "import shop.store [SessionStore] @1",
            "import shop.util.email [email] @2",
            "import shop.util.token [token] @3",
        ]
    );
    let init = extract_fixture("lua", "src/shop/init.lua");
    assert_eq!(
        imports(&init),
        [
            "import shop.store [] as SessionStore reexport @2",
            "import shop.api [] as api reexport @3",
        ]
    );
    // Local functions are private; fields of standard tables are not definitions.
    let other = extract_source(
        "lua",
        "x.lua",
        "local function helper() end\nfunction global() end\npackage.path = \"?.lua\"\nlocal M = {}\nM.f = function(x) return x end\nM.n = 1\n",
    );
    assert_eq!(
        defs(&other),
        [
            "def function helper @0:15",
            "def function global @1:9 pub",
            "def class M @3:6 pub",
            "def method M.f @4:2 pub parent=M",
            "def property M.n @5:2 pub parent=M",
        ]
    );
}
