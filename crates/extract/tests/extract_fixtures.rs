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
    for lang in [
        "py", "ts", "js", "rs", "go", "java", "kt", "cs", "scala", "cpp", "c", "swift", "php",
        "sh", "rb", "lua",
    ] {
        for file in fixture_files(lang) {
            let Some(language) = fixture_language(&registry, lang, &file) else {
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

/// Enum members and variants are constants of their enum ("the members of X" is one
/// `map_neighbors` call with a kind filter).
#[test]
fn enum_members_and_variants_are_constants() {
    let f = extract_source(
        "py",
        "m.py",
        "import enum\nclass Color(enum.Enum):\n    RED = 1\n    GREEN: int = 2\n    def label(self): ...\nclass Plain:\n    X = 1\n",
    );
    assert_has(
        &defs(&f),
        &[
            "def constant Color.RED @2:4 pub parent=Color",
            "def constant Color.GREEN @3:4 pub parent=Color",
            "def method Color.label @4:8 pub parent=Color",
            "def property Plain.X @6:4 pub parent=Plain",
        ],
    );
    let f = extract_source(
        "ts",
        "m.ts",
        "export enum Mode { Fast, Slow = 2, 'Odd' = 3 }\n",
    );
    assert_has(
        &defs(&f),
        &[
            "def enum Mode @0:12 pub",
            "def constant Mode.Fast @0:19 pub parent=Mode",
            "def constant Mode.Slow @0:25 pub parent=Mode",
        ],
    );
    let f = extract_source(
        "rs",
        "m.rs",
        "pub enum Shape { Dot, Circle(f64), Rect { w: u32, h: u32 } }\n",
    );
    assert_has(
        &defs(&f),
        &[
            "def enum Shape @0:9 pub",
            "def constant Shape.Dot @0:17 pub parent=Shape",
            "def constant Shape.Circle @0:22 pub parent=Shape",
            "def constant Shape.Rect @0:35 pub parent=Shape",
            "def property Shape.Rect.w @0:42 parent=Shape.Rect",
        ],
    );
    // JavaScript has none either: a `/** @enum */` object's keys are its constants.
    let f = extract_source(
        "js",
        "m.js",
        "/** @enum {string} */\nexport const Level = { LOW: 'low', HIGH: 'high' };\nconst plain = { a: 1 };\n",
    );
    let d = defs(&f);
    assert_has(
        &d,
        &[
            "def constant Level.LOW @1:23 parent=Level",
            "def constant Level.HIGH @1:35 parent=Level",
        ],
    );
    assert_none_starts(&d, &["def constant plain.a"]);
    // Go has no enum type: its iota constants already are package-level constants.
    let f = extract_source(
        "go",
        "m.go",
        "package m\ntype Kind int\nconst (\n\tA Kind = iota\n\tB\n)\n",
    );
    assert_has(
        &defs(&f),
        &["def constant A @3:1 pub", "def constant B @4:1 pub"],
    );
}

const JAVA: &str = "src/main/java/com/example/shop/";

#[test]
fn java_store_enum_and_api() {
    let f = extract_fixture("java", &format!("{JAVA}store/SessionStore.java"));
    assert_eq!(
        defs(&f),
        [
            "def class SessionStore @8:13 pub",
            "def constant SessionStore.DEFAULT_TTL @9:29 pub parent=SessionStore",
            "def property SessionStore.data @11:39 parent=SessionStore",
            "def property SessionStore.ttl @12:23 parent=SessionStore",
            "def method SessionStore.SessionStore @14:11 pub parent=SessionStore",
            "def method SessionStore.get @20:19 pub parent=SessionStore",
            "def method SessionStore.put @27:16 pub parent=SessionStore",
            "def method SessionStore.refresh @32:19 pub parent=SessionStore",
            "def constant SessionStore.KEY_PREFIX @43:31 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[0].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        f.defs[1].signature.as_deref(),
        Some("public static final long DEFAULT_TTL = 3600")
    );
    assert_has(
        &refs(&f),
        &[
            "implements BaseStore from=SessionStore @8",
            "calls data|get from=SessionStore.get @22",
            "calls this|get from=SessionStore.refresh @33",
            "calls this|put from=SessionStore.refresh @38",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import com.example.shop.base.BaseStore [BaseStore] @2",
            "import com.example.shop.base.Session [Session] @3",
            "import java.util.HashMap [HashMap] @4",
            "import java.util.Map [Map] @5",
        ]
    );
    assert_has(&bindings(&f), &["data: Map in SessionStore @11"]);

    // Enum constants are nodes: the members of an enum are answerable.
    let e = extract_fixture("java", &format!("{JAVA}base/SessionState.java"));
    assert_eq!(
        defs(&e),
        [
            "def enum SessionState @3:12 pub",
            "def constant SessionState.ACTIVE @4:4 pub parent=SessionState",
            "def constant SessionState.EXPIRED @5:4 pub parent=SessionState",
            "def method SessionState.usable @8:19 pub parent=SessionState",
        ]
    );

    let api = extract_fixture("java", &format!("{JAVA}api/Api.java"));
    assert_has(
        &refs(&api),
        &[
            "references SessionStore from=Api.handleRefresh @12",
            "calls store|refresh from=Api.handleRefresh @13",
            "calls checker|validate from=Api.check @21",
            "calls SessionStore from=Api.defaultStore @26",
            // A class named before its member, and a Javadoc link (from the class).
            "references SessionStore from=Api.stripPrefix @36",
            "calls Checks|checkName from=Api.stripPrefix @37",
            "references Checks from=Api.stripPrefix @37",
            "references SessionStore|refresh from=Api @31",
        ],
    );
    assert_has(
        &bindings(&api),
        &["store: SessionStore in Api.handleRefresh @12"],
    );
    // `var checker = … ? new Email() : new Token()`: `var` types nothing.
    assert!(!bindings(&api).iter().any(|b| b.starts_with("checker:")));
    assert_eq!(
        imports(&api),
        [
            "import com.example.shop.store.SessionStore [SessionStore] @2",
            "import com.example.shop.util.Checks [Checks] @3",
            "import com.example.shop.util.Email [Email] @4",
            "import com.example.shop.util.Token [Token] @5",
        ]
    );
}

const KOTLIN: &str = "src/main/kotlin/com/example/shop/";

#[test]
fn kotlin_store_objects_and_api() {
    let f = extract_fixture("kt", &format!("{KOTLIN}store/SessionStore.kt"));
    assert_eq!(
        defs(&f),
        [
            "def constant DEFAULT_TTL @5:10 pub",
            "def class SessionStore @8:6 pub",
            "def property SessionStore.ttl @8:31 parent=SessionStore",
            "def property SessionStore.data @9:16 parent=SessionStore",
            "def method SessionStore.get @12:17 pub parent=SessionStore",
            "def method SessionStore.put @18:17 pub parent=SessionStore",
            "def method SessionStore.refresh @23:8 pub parent=SessionStore",
        ]
    );
    assert_has(
        &refs(&f),
        &[
            "implements BaseStore from=SessionStore @8",
            "calls data|get from=SessionStore.get @14",
            "calls this|get from=SessionStore.refresh @24",
            "calls this|put from=SessionStore.refresh @26",
        ],
    );
    // The module is the whole path; the resolver finds the package and the file.
    assert_eq!(
        imports(&f),
        [
            "import com.example.shop.base.BaseStore [BaseStore] @2",
            "import com.example.shop.base.Session [Session] @3",
        ]
    );

    let b = extract_fixture("kt", &format!("{KOTLIN}base/BaseStore.kt"));
    assert_has(
        &defs(&b),
        &[
            "def class Session @3:11 pub",
            "def property Session.expires @3:41 pub parent=Session",
            "def interface BaseStore @6:10 pub",
            "def method BaseStore.get @7:8 pub parent=BaseStore",
            "def enum SessionState @13:11 pub",
            "def constant SessionState.ACTIVE @14:4 pub parent=SessionState",
            "def constant SessionState.EXPIRED @15:4 pub parent=SessionState",
        ],
    );
    let e = extract_fixture("kt", &format!("{KOTLIN}util/Email.kt"));
    assert_eq!(
        defs(&e),
        [
            "def class Email @3:7 pub",
            "def method Email.validate @5:17 pub parent=Email",
        ]
    );
    let alias = extract_fixture("kt", &format!("{KOTLIN}Shop.kt"));
    assert_eq!(defs(&alias), ["def type_alias Store @3:10 pub"]);

    let api = extract_fixture("kt", &format!("{KOTLIN}api/Api.kt"));
    assert_has(
        &refs(&api),
        &[
            "calls store|refresh from=handleRefresh @8",
            "calls checker|validate from=check @16",
            "calls SessionStore from=defaultStore @20",
        ],
    );
    assert_has(
        &bindings(&api),
        &["store: SessionStore in handleRefresh @7"],
    );
    assert!(!bindings(&api).iter().any(|b| b.starts_with("checker:")));
    let forms = extract_source(
        "kt",
        "a/F.kt",
        "import a.b.*\nimport a.b.C as D\nimport a.b.E\n",
    );
    assert_eq!(
        imports(&forms),
        [
            "import a.b [*] @0",
            "import a.b.C [C as D] @1",
            "import a.b.E [E] @2"
        ]
    );
}

#[test]
fn csharp_store_base_list_and_api() {
    let f = extract_fixture("cs", "Store/SessionStore.cs");
    assert_eq!(
        defs(&f),
        [
            "def class SessionStore @7:13 pub",
            "def constant SessionStore.DefaultTtl @9:22 pub parent=SessionStore",
            "def property SessionStore.data @11:49 parent=SessionStore",
            "def property SessionStore.ttl @12:26 parent=SessionStore",
            "def method SessionStore.SessionStore @14:11 pub parent=SessionStore",
            "def method SessionStore.Get @20:20 pub parent=SessionStore",
            "def method SessionStore.Put @26:16 pub parent=SessionStore",
            "def method SessionStore.Remove @32:16 pub parent=SessionStore",
            "def method SessionStore.Refresh @39:16 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[5].doc.as_deref(),
        Some("Returns the session stored under key.")
    );
    assert_has(
        &refs(&f),
        &[
            // A base list does not say class or interface: the map decides.
            "extends BaseStore from=SessionStore @7",
            "calls data|Remove from=SessionStore.Remove @35",
            "calls this|Get from=SessionStore.Refresh @41",
            "calls this|Put from=SessionStore.Refresh @47",
        ],
    );
    // `using N;` imports a whole namespace.
    assert_eq!(
        imports(&f),
        [
            "import System [*] @0",
            "import System.Collections.Generic [*] @1",
            "import Shop.Base [*] @2",
        ]
    );

    let b = extract_fixture("cs", "Base/BaseStore.cs");
    assert_has(
        &defs(&b),
        &[
            "def class Session @3:13 pub",
            "def property Session.Expires @6:16 pub parent=Session",
            "def interface BaseStore @16:17 pub",
            "def method BaseStore.Get @18:13 pub parent=BaseStore",
            "def enum SessionState @24:12 pub",
            "def constant SessionState.Active @26:4 pub parent=SessionState",
            "def constant SessionState.Expired @27:4 pub parent=SessionState",
        ],
    );
    // Block-scoped namespace.
    let e = extract_fixture("cs", "Util/Email.cs");
    assert_eq!(
        defs(&e),
        [
            "def class Email @3:17 pub",
            "def method Email.Validate @6:20 pub parent=Email",
        ]
    );

    let api = extract_fixture("cs", "Api/Api.cs");
    assert_has(
        &refs(&api),
        &[
            "calls store|Refresh from=Api.HandleRefresh @13",
            "calls checker|Validate from=Api.Check @22",
            "calls Handler from=Api.DefaultStore @28",
            "references SessionStore from=Api.HandleRefresh @11",
        ],
    );
    assert_eq!(
        imports(&api),
        [
            "import System.Text.Json [*] @0",
            "import Shop.Store [*] @1",
            "import Shop.Util [*] @2",
            "import Shop.Store.SessionStore [SessionStore as Handler] @3",
        ]
    );
    assert_has(
        &bindings(&api),
        &["store: SessionStore in Api.HandleRefresh @11"],
    );
    assert!(!bindings(&api).iter().any(|b| b.starts_with("checker:")));
    let forms = extract_source(
        "cs",
        "F.cs",
        "using static A.B.C;\nusing D = A.B.E;\nusing X = Y;\n\
         class K<T> : Base<T>, I where T : J {\n  \
         [Attr] T f() { var k = new K<T>(); IList<T> l = null; return k.g<T>(); }\n}\n",
    );
    assert_eq!(
        imports(&forms),
        [
            "import A.B.C [*] @0",
            "import A.B.E [E as D] @1",
            "import Y [Y as X] @2",
        ]
    );
    assert_has(
        &refs(&forms),
        &[
            "extends Base from=K @3",
            "extends I from=K @3",
            "references J from=K @3",
            "references Attr from=K.f @4",
            "calls K from=K.f @4",
            "calls k|g from=K.f @4",
            "references IList from=K.f @4",
        ],
    );
    assert_has(&bindings(&forms), &["k: K in K.f @4", "l: IList in K.f @4"]);
    let nulls = extract_source(
        "cs",
        "N.cs",
        "class A { bool F(S s) { var x = s?.Refresh(1); return this?.G<int>() ?? false; } }\n",
    );
    assert_has(
        &refs(&nulls),
        &["calls s|Refresh from=A.F @0", "calls this|G from=A.F @0"],
    );
}

const SCALA: &str = "src/main/scala/com/example/shop/";

#[test]
fn scala_store_traits_objects_and_api() {
    let f = extract_fixture("scala", &format!("{SCALA}store/SessionStore.scala"));
    assert_eq!(
        defs(&f),
        [
            "def class SessionStore @6:6 pub",
            // A plain class parameter: a private field.
            "def property SessionStore.ttl @6:19 parent=SessionStore",
            "def property SessionStore.data @7:14 parent=SessionStore",
            "def method SessionStore.get @10:15 pub parent=SessionStore",
            "def method SessionStore.put @16:15 pub parent=SessionStore",
            "def method SessionStore.refresh @21:6 pub parent=SessionStore",
        ]
    );
    assert_has(
        &refs(&f),
        &[
            // `extends` does not say class or trait: the map decides.
            "extends BaseStore from=SessionStore @6",
            "calls data|get from=SessionStore.get @12",
            "calls this|get from=SessionStore.refresh @22",
            "calls this|put from=SessionStore.refresh @26",
        ],
    );
    // The module is the package, the name what the file binds (like Java).
    assert_eq!(
        imports(&f),
        [
            "import scala.collection.mutable [mutable] @2",
            "import com.example.shop.base.BaseStore [BaseStore] @3",
            "import com.example.shop.base.Session [Session] @3",
        ]
    );
    assert_has(&bindings(&f), &["data: mutable|Map in SessionStore @7"]);

    let b = extract_fixture("scala", &format!("{SCALA}base/BaseStore.scala"));
    assert_eq!(
        defs(&b),
        [
            "def class Session @3:17 pub",
            "def property Session.user @3:25 pub parent=Session",
            "def property Session.expires @3:43 pub parent=Session",
            "def trait BaseStore @6:6 pub",
            "def method BaseStore.get @7:6 pub parent=BaseStore",
            "def method BaseStore.put @9:6 pub parent=BaseStore",
            "def enum SessionState @13:5 pub",
            "def constant SessionState.Active @14:7 pub parent=SessionState",
            "def constant SessionState.Expired @14:15 pub parent=SessionState",
        ]
    );
    let d = extract_fixture("scala", &format!("{SCALA}store/Defaults.scala"));
    assert_eq!(defs(&d), ["def constant DefaultTtl @3:10 pub"]);
    let e = extract_fixture("scala", &format!("{SCALA}util/Email.scala"));
    assert_eq!(
        defs(&e),
        [
            "def class Email @3:7 pub",
            "def method Email.validate @5:15 pub parent=Email",
        ]
    );
    let shop = extract_fixture("scala", &format!("{SCALA}Shop.scala"));
    assert_eq!(refs(&shop), ["references Api|handleRefresh from=Shop @7"]);

    let api = extract_fixture("scala", &format!("{SCALA}api/Api.scala"));
    assert_has(
        &refs(&api),
        &[
            "calls store|refresh from=Api.handleRefresh @9",
            "calls checker|validate from=Api.check @17",
            "calls SessionStore from=Api.defaultStore @21",
        ],
    );
    assert_has(
        &bindings(&api),
        &["store: SessionStore in Api.handleRefresh @8"],
    );
    assert!(!bindings(&api).iter().any(|b| b.starts_with("checker:")));
    let forms = extract_source(
        "scala",
        "F.scala",
        "import x.y.{C => D, E, F => _}\nimport x.y.G as H\nimport x.y._\nimport x.z.*\n\
         class K[T](val n: Int, m: String) extends Base[T](n) with I {\n  \
         final val Max = 3\n  @inline def f(): Unit = { val k = new K[T](1, \"a\"); val z = Foo(1); k.g[T]() }\n}\n",
    );
    assert_eq!(
        imports(&forms),
        [
            "import x.y.C [C as D] @0",
            "import x.y.E [E] @0",
            "import x.y.G [G as H] @1",
            "import x.y [*] @2",
            "import x.z [*] @3",
        ]
    );
    assert_has(
        &defs(&forms),
        &[
            "def property K.n @4:15 pub parent=K",
            "def constant K.Max @5:12 pub parent=K",
        ],
    );
    assert_has(
        &refs(&forms),
        &[
            "extends Base from=K @4",
            "extends I from=K @4",
            "references inline from=K.f @6",
            "calls K from=K.f @6",
            "calls Foo from=K.f @6",
            "calls k|g from=K.f @6",
        ],
    );
    assert_has(&bindings(&forms), &["k: K in K.f @6", "z: Foo in K.f @6"]);
}

#[test]
fn csharp_visibility_follows_the_defaults() {
    // Top-level types are internal (seen by the assembly); members and nested types private.
    let f = extract_source(
        "cs",
        "V.cs",
        "class Top {\n  int a;\n  internal int b;\n  void M() {}\n  public void N() {}\n  \
         class Nested {}\n  protected internal class Shared {}\n  private protected void P() {}\n}\n\
         namespace X {\n  class InBlock {}\n}\ninterface I { void Q(); }\nenum E { One }\n",
    );
    assert_eq!(
        defs(&f),
        [
            "def class Top @0:6 pub",
            "def property Top.a @1:6 parent=Top",
            "def property Top.b @2:15 pub parent=Top",
            "def method Top.M @3:7 parent=Top",
            "def method Top.N @4:14 pub parent=Top",
            "def class Top.Nested @5:8 parent=Top",
            "def class Top.Shared @6:27 pub parent=Top",
            "def method Top.P @7:25 parent=Top",
            "def class InBlock @10:8 pub",
            "def interface I @12:10 pub",
            "def method I.Q @12:19 pub parent=I",
            "def enum E @13:5 pub",
            "def constant E.One @13:9 pub parent=E",
        ]
    );
}

#[test]
fn java_method_references_are_uses() {
    let f = extract_source(
        "java",
        "M.java",
        "class A { void f(S s) { list.forEach(s::refresh); h(this::f); } }\n",
    );
    assert_has(
        &refs(&f),
        &[
            "references s|refresh from=A.f @0",
            "references this|f from=A.f @0",
        ],
    );
}

#[test]
fn kotlin_callable_references_are_uses() {
    let f = extract_source(
        "kt",
        "M.kt",
        "fun f(s: S) { list.forEach(s::refresh); h(::top); s.data.size }\n",
    );
    let r = refs(&f);
    assert_has(
        &r,
        &["references s|refresh from=f @0", "references top from=f @0"],
    );
    // A plain navigation is not a reference to a method.
    assert!(!r.iter().any(|l| l.contains("|size")), "{r:?}");
}

#[test]
fn java_import_forms() {
    let f = extract_source(
        "java",
        "M.java",
        "import a.b.C;\nimport static a.b.C.m;\nimport a.b.*;\nimport static a.b.C.*;\nimport a.b.Outer.Inner;\n",
    );
    assert_eq!(
        imports(&f),
        [
            "import a.b.C [C] @0",
            "import a.b.C [m] @1",
            "import a.b [*] @2",
            "import a.b.C [*] @3",
            "import a.b.Outer.Inner [Inner] @4",
        ]
    );
}

#[test]
fn kotlin_secondary_constructors_are_methods() {
    let f = extract_source(
        "kt",
        "A.kt",
        "class A(val x: Int) {\n  constructor() : this(0) { println(1) }\n  private constructor(s: String) : this(s.length)\n}\n",
    );
    assert_eq!(
        defs(&f),
        [
            "def class A @0:6 pub",
            "def property A.x @0:12 pub parent=A",
            "def method A.constructor @1:2 pub parent=A",
            "def method A.constructor @2:10 parent=A",
        ]
    );
}

#[test]
fn cpp_store_header_and_definitions() {
    // The class lives in the header; its methods are defined out of class in the .cpp,
    // qualified by their class. In-class declarations are not nodes, pure virtual ones are.
    let h = extract_fixture("cpp", "include/store.hpp");
    assert!(!h.had_errors);
    assert_eq!(
        defs(&h),
        [
            "def constant DEFAULT_TTL @7:14 pub",
            "def class SessionStore @10:6 pub",
            "def property SessionStore.ttl_ @18:8 parent=SessionStore",
            "def property SessionStore.data_ @19:56 parent=SessionStore",
        ]
    );
    assert_eq!(
        h.defs[1].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        h.defs[1].signature.as_deref(),
        Some("class SessionStore : public BaseStore")
    );
    assert_has(&refs(&h), &["extends BaseStore from=SessionStore @10"]);
    // A header's includes are visible to whoever includes it: re-exports.
    assert_eq!(
        imports(&h),
        [
            "import <map> [*] reexport @2",
            "import <string> [*] reexport @3",
            "import base.hpp [*] reexport @5",
        ]
    );

    let f = extract_fixture("cpp", "src/store.cpp");
    assert_eq!(
        defs(&f),
        [
            "def method SessionStore.SessionStore @5:14 pub",
            "def method SessionStore.get @8:41 pub",
            "def method SessionStore.put @16:19 pub",
            "def method SessionStore.refresh @21:19 pub",
        ]
    );
    assert_eq!(
        f.defs[3].signature.as_deref(),
        Some("bool SessionStore::refresh(const std::string& key)")
    );
    assert_eq!(
        f.defs[3].doc.as_deref(),
        Some("Extends the session's lifetime; false when it is unknown.")
    );
    assert_eq!((f.defs[3].start_line, f.defs[3].end_line), (21, 28));
    assert_has(
        &refs(&f),
        &[
            "calls this|get from=SessionStore.refresh @22",
            "calls this|put from=SessionStore.refresh @26",
            "calls data_|find from=SessionStore.get @9",
            "calls std|get from=SessionStore.get @13",
            "calls std|time from=SessionStore.put @17",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import store.hpp [*] @0",
            "import <ctime> [*] @2",
            "import <tuple> [*] @3",
        ]
    );

    let base = extract_fixture("cpp", "include/base.hpp");
    assert_eq!(
        defs(&base),
        [
            "def class BaseStore @6:6 pub",
            "def method BaseStore.get @9:39 pub parent=BaseStore",
            "def method BaseStore.put @10:17 pub parent=BaseStore",
            "def method BaseStore.refresh @11:17 pub parent=BaseStore",
        ]
    );
}

#[test]
fn cpp_api_and_umbrella_header() {
    let f = extract_fixture("cpp", "src/api.cpp");
    assert_eq!(
        defs(&f),
        [
            "def function handle_refresh @8:12 pub",
            "def function check @16:5 pub",
            "def function check_both @20:5 pub",
        ]
    );
    assert_eq!(
        f.defs[1].doc.as_deref(),
        Some("Which validate runs depends on the type each caller instantiates this with.")
    );
    assert_has(
        &refs(&f),
        &[
            "references SessionStore from=handle_refresh @8",
            "calls store|refresh from=handle_refresh @9",
            "calls validate from=check @17",
            "calls check from=check_both @21",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import api.hpp [*] @0",
            "import <iostream> [*] @2",
            "import util/email.hpp [*] @4",
            "import util/token.hpp [*] @5",
        ]
    );
    assert_has(
        &bindings(&f),
        &[
            "store: SessionStore in handle_refresh @8",
            "key: std|string in handle_refresh @8",
        ],
    );
    let shop = extract_fixture("cpp", "include/shop.hpp");
    assert!(shop.defs.is_empty());
    assert_eq!(
        imports(&shop),
        [
            "import api.hpp [*] reexport @3",
            "import store.hpp [*] reexport @4",
        ]
    );
    // Prototypes are not nodes: the clash's definitions are the two .cpp functions.
    let clash: Vec<String> = [
        "include/util/email.hpp",
        "src/util/email.cpp",
        "src/util/token.cpp",
    ]
    .iter()
    .flat_map(|p| defs(&extract_fixture("cpp", p)))
    .filter(|d| d.contains("validate"))
    .collect();
    assert_eq!(
        clash,
        [
            "def function validate @2:5 pub",
            "def function validate @2:5 pub"
        ]
    );
}

#[test]
fn cpp_forms() {
    let src = r#"#define MAX_ITEMS 10
#define SQUARE(x) ((x) * (x))
namespace shop {
enum class Color { Red, Green };
typedef unsigned long Id;
using Name = std::string;
struct Point {
    int x;
    int sum() const { return x + this->x; }
};
class Cart : public Base, private shop::Helper {
    Point* origin_;
    void add(int n) { origin_->sum(); helper(n); }
};
namespace {
static int hidden() { return 1; }
}
}
int main() { auto c = new shop::Cart(); shop::Cart d; d.add(1); return 0; }
"#;
    let f = extract_source("cpp", "src/forms.cpp", src);
    assert!(!f.had_errors, "{f:#?}");
    assert_has(
        &defs(&f),
        &[
            "def constant MAX_ITEMS @0:8 pub",
            "def function SQUARE @1:8 pub",
            "def module shop @2:10 pub",
            "def enum shop.Color @3:11 pub parent=shop",
            "def constant shop.Color.Red @3:19 parent=shop.Color",
            "def constant shop.Color.Green @3:24 parent=shop.Color",
            "def type_alias shop.Id @4:22 pub parent=shop",
            "def type_alias shop.Name @5:6 pub parent=shop",
            "def struct shop.Point @6:7 pub parent=shop",
            "def property shop.Point.x @7:8 pub parent=shop.Point",
            "def method shop.Point.sum @8:8 pub parent=shop.Point",
            "def class shop.Cart @10:6 pub parent=shop",
            "def method shop.Cart.add @12:9 parent=shop.Cart",
            "def function shop.hidden @15:11 parent=shop",
            "def function main @18:4 pub",
        ],
    );
    assert_has(
        &refs(&f),
        &[
            "extends Base from=shop.Cart @10",
            "extends shop|Helper from=shop.Cart @10",
            "calls origin_|sum from=shop.Cart.add @12",
            "calls helper from=shop.Cart.add @12",
            "calls d|add from=main @18",
        ],
    );
    assert_has(
        &bindings(&f),
        &[
            "origin_: Point in shop.Cart @11",
            "d: shop|Cart in main @18",
        ],
    );
}

/// V8's headers (`include/handle.h` is written as they are): attribute macros read as a
/// class name plus an error once closed the namespace early, so the members defined after
/// their class lost it; an `#if` whose branches each open a brace nested the next
/// definition inside the previous one.
#[test]
fn cpp_attribute_macros_and_braces_split_by_if_keep_the_namespace() {
    let registry = navmap_grammars::registry();
    let language = fixture_language(&registry, "cpp", "include/handle.h").unwrap();
    assert_eq!(language.id(), "cpp");
    let f = extract_fixture("cpp", "include/handle.h");
    assert!(!f.had_errors);
    assert_has(
        &defs(&f),
        &[
            "def module shop @10:10 pub",
            "def class shop.internal.Slots @13:18 pub parent=shop.internal",
            "def method shop.internal.Slots.Count @15:25 parent=shop.internal.Slots",
            "def class shop.Handle @20:18 pub parent=shop",
            "def method shop.Handle.New @33:16 pub parent=shop.Handle",
            "def method shop.Handle.Reset @35:13 pub parent=shop.Handle",
            "def method shop.Handle.Get @37:12 pub parent=shop.Handle",
            "def function shop.Total @48:11 pub parent=shop",
        ],
    );
    // Not a class named after the macro, nor a second, namespace-less `Handle.New`.
    assert!(
        defs(&f).iter().all(|d| !d.contains("class SHOP_EXPORT")
            && !d.contains(" Handle.")
            && !d.contains("Get.")),
        "{:#?}",
        defs(&f)
    );
    assert_has(
        &refs(&f),
        &[
            "calls a|Get from=shop.Total @48",
            "calls b|Get from=shop.Total @48",
        ],
    );
}

/// An attribute macro blanked for the parse (`class SHOP_EXPORT Handle`,
/// `SHOP_DEPRECATED("…") void Reset();`) is still a use of its macro, from the definition
/// around it, at its own position: clangd lists it as a reference of the `#define`
/// (before: no use at all, a silent miss of the macro's users).
#[test]
fn cpp_a_blanked_attribute_macro_is_a_use_of_its_macro() {
    let f = extract_fixture("cpp", "include/handle.h");
    let uses: Vec<String> = refs(&f)
        .into_iter()
        .filter(|r| r.contains("SHOP_"))
        .collect();
    assert_eq!(
        uses,
        [
            "references SHOP_EXPORT from=shop.internal.Slots @13",
            "references SHOP_INLINE from=shop.internal.Slots @15",
            "references SHOP_EXPORT from=shop.Handle @20",
            "references SHOP_INLINE from=shop.Handle @22",
            "references SHOP_DEPRECATED from=shop.Handle @23",
            "references SHOP_EXPORT from=shop.Persistent @53",
        ],
        "{:#?}",
        refs(&f)
    );
}

/// V8's `v8-forward.h`: `class Function;` (or `template <…> class Persistent;`) inside
/// `namespace v8` declares, it does not use
/// (before: a `references` edge from the namespace, which clangd does not list), nor does
/// a template's friend declaration; a plain `friend class` and a member's type are uses.
#[test]
fn cpp_a_forward_declaration_is_no_use() {
    let src = "namespace v8 {\nclass Function;\nstruct S;\nclass C { friend class Function; Function* f; template <class F> friend class Global; };\ntemplate <class T, class M = Traits<T>>\nclass Persistent;\n}\nclass Top;\n";
    let f = extract_source("cpp", "src/forward.cpp", src);
    let uses = refs(&f);
    assert_has(
        &uses,
        &[
            "references Function from=v8.C @3",
            "references Function from=v8.C.f @3",
            "references Traits from=v8 @4",
        ],
    );
    for declared in [
        "Function from=v8 @1",
        "S from=v8",
        "Persistent",
        "Top",
        "Global",
    ] {
        assert!(
            !uses.iter().any(|u| u.contains(declared)),
            "{declared}: {uses:?}"
        );
    }
}

#[test]
fn cpp_fixture_files_extract_without_errors() {
    let registry = navmap_grammars::registry();
    for file in fixture_files("cpp") {
        let Some(language) = fixture_language(&registry, "cpp", &file) else {
            continue;
        };
        let facts = navmap_extract::extract_path(language, &file, &read_fixture("cpp", &file));
        assert!(!facts.had_errors, "cpp/{file} has syntax errors");
        assert_eq!(facts.lang, "cpp");
    }
}

#[test]
fn c_store_header_and_functions() {
    let h = extract_fixture("c", "include/store.h");
    assert!(!h.had_errors);
    // Include guards are not constants; prototypes are not nodes.
    assert_eq!(
        defs(&h),
        [
            "def constant DEFAULT_TTL @8:8 pub",
            "def constant MAX_SESSIONS @9:8 pub",
            "def enum SessionState @11:5 pub",
            "def constant SessionState.SESSION_ACTIVE @11:20 parent=SessionState",
            "def constant SessionState.SESSION_EXPIRED @11:36 parent=SessionState",
            "def struct Session @13:7 pub",
            "def property Session.key @14:9 pub parent=Session",
            "def property Session.value @15:9 pub parent=Session",
            "def property Session.expires @16:11 pub parent=Session",
            "def struct SessionStore @20:7 pub",
            "def property SessionStore.base @21:21 pub parent=SessionStore",
            "def property SessionStore.ttl @22:8 pub parent=SessionStore",
            "def property SessionStore.count @23:11 pub parent=SessionStore",
            "def property SessionStore.sessions @24:20 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        h.defs[9].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        imports(&h),
        [
            "import <stddef.h> [*] reexport @3",
            "import <time.h> [*] reexport @4",
            "import base.h [*] reexport @6",
        ]
    );
    // The "base": a table of function pointers, which are its members.
    let base = extract_fixture("c", "include/base.h");
    assert_eq!(
        defs(&base),
        [
            "def struct BaseStore @6:7 pub",
            "def property BaseStore.get @7:18 pub parent=BaseStore",
            "def property BaseStore.put @8:11 pub parent=BaseStore",
            "def property BaseStore.refresh @9:11 pub parent=BaseStore",
            "def property BaseStore.free @10:11 pub parent=BaseStore",
        ]
    );

    let f = extract_fixture("c", "src/store.c");
    assert_eq!(
        defs(&f),
        [
            "def function base_get @5:19",
            "def function base_put @9:12",
            "def function base_refresh @13:12",
            "def function base_free @17:12",
            "def function store_new @22:21 pub",
            "def function store_get @31:12 pub",
            "def function store_put @40:5 pub",
            "def function store_refresh @51:5 pub",
            "def function store_free @60:5 pub",
        ]
    );
    assert_eq!(
        f.defs[7].signature.as_deref(),
        Some("bool store_refresh(struct SessionStore *store, const char *key)")
    );
    assert_eq!(
        f.defs[7].doc.as_deref(),
        Some("Extends the session's lifetime; false when it is unknown.")
    );
    assert_eq!((f.defs[7].start_line, f.defs[7].end_line), (51, 58));
    assert_has(
        &refs(&f),
        &[
            "calls store_get from=store_refresh @52",
            "calls store_put from=store_refresh @56",
            "calls free from=store_free @61",
            "references SessionStore from=store_refresh @51",
            "references base_refresh from=store_new @24",
        ],
    );
    assert_eq!(
        imports(&f),
        [
            "import store.h [*] @0",
            "import <stdlib.h> [*] @2",
            "import <string.h> [*] @3",
        ]
    );
    assert_has(
        &bindings(&f),
        &[
            "store: SessionStore in store_refresh @51",
            "s: Session in store_put @44",
        ],
    );
}

/// Found by `navmap-bench accuracy` on the tree-sitter runtime: a name used in another
/// macro's body (`#define LOG(...) ts_parser__log(...)`) is in one unparsed `preproc_arg`;
/// its words are mentions from the macro, the macro's parameters are not.
#[test]
fn c_a_macro_body_mentions_the_names_it_uses() {
    let f = extract_fixture("c", "src/util/each.c");
    let mentions = mentions(&f);
    assert_has(
        &mentions,
        &["mention store_refresh from=REFRESH_EACH @5:34"],
    );
    assert_none_starts(
        &mentions,
        &[
            "mention store from=",
            "mention keys from=",
            "mention n from=",
        ],
    );
    assert!(
        f.refs.iter().all(|r| r.name != "store_refresh"),
        "a mention, not an edge: {:?}",
        f.refs
    );
}

/// Found by `navmap-bench accuracy` on globset: a project's own macro called in a test
/// module (`syntaxerr!(err_range1, "[z-a]", ErrorKind::InvalidRange(…))`) keeps its
/// arguments as tokens; their words are mentions from the module, not edges.
#[test]
fn rs_the_words_of_an_unparsed_macros_arguments_are_mentions() {
    let f = extract_fixture("rs", "src/util/keys.rs");
    let mentions = mentions(&f);
    assert_has(&mentions, &["mention with_prefix from=tests @66:42"]);
    assert!(
        f.refs.iter().all(|r| r.name != "with_prefix"),
        "a mention, not an edge: {:?}",
        f.refs
    );
}

/// Found by `navmap-bench accuracy` on zod: an object literal's key (`{ path: parts }`)
/// and a type query (`typeof LazyInput`) are uses tsserver counts.
#[test]
fn ts_object_keys_and_type_queries_are_mentions() {
    let f = extract_fixture("ts", "src/view/input.ts");
    assert_has(
        &mentions(&f),
        &[
            "mention path from=child @25:4",
            "mention LazyInput from=LazyInputClass @31:36",
        ],
    );
}

#[test]
fn c_api_and_the_validate_clash() {
    let f = extract_fixture("c", "src/api.c");
    assert_eq!(
        defs(&f),
        [
            "def function handle_refresh @5:12 pub",
            "def function refresh_default @12:5 pub",
        ]
    );
    assert_has(
        &refs(&f),
        &[
            "references SessionStore from=handle_refresh @5",
            "calls store_refresh from=handle_refresh @6",
            "calls base|refresh from=refresh_default @15",
            "calls base|free from=refresh_default @16",
        ],
    );
    assert_eq!(
        imports(&f),
        ["import api.h [*] @0", "import <stdio.h> [*] @2"]
    );
    assert_has(
        &bindings(&f),
        &[
            "store: SessionStore in handle_refresh @5",
            "base: BaseStore in refresh_default @14",
        ],
    );
    let shop = extract_fixture("c", "include/shop.h");
    assert!(shop.defs.is_empty());
    assert_eq!(
        imports(&shop),
        [
            "import api.h [*] reexport @4",
            "import store.h [*] reexport @5"
        ]
    );
    // Two `static` functions named validate, each behind a table of function pointers.
    let email = extract_fixture("c", "src/util/email.c");
    assert_eq!(
        defs(&email),
        [
            "def function validate @4:12",
            "def constant email_validator @8:23 pub",
        ]
    );
    assert_has(
        &refs(&email),
        &["references validate from=email_validator @8"],
    );
    let check = extract_fixture("c", "src/util/check.c");
    assert_eq!(
        defs(&check),
        [
            "def constant validators @3:37",
            "def function check @6:5 pub"
        ]
    );
    assert_has(
        &refs(&check),
        &[
            "calls validate from=check @9",
            "references token_validator from=validators @3",
        ],
    );
}

#[test]
fn c_forms() {
    let src = r#"#define SQUARE(x) ((x) * (x))
typedef unsigned long Id;
typedef struct Point { int x, y; } Point;
typedef struct { int w; } Size;
typedef struct rect_s { Size size; } Rect;
typedef int (*Compare)(const void *, const void *);
union Value { int i; double d; };
int counter = 0;
static const char *names[] = {"a"};
extern int elsewhere;
int **grid(void) { return 0; }
int main(void) { struct Point p = {0}; Id id = 1; return grid()[0][0] + SQUARE(p.x) + (int)id; }
"#;
    let f = extract_source("c", "src/forms.c", src);
    assert!(!f.had_errors, "{f:#?}");
    assert_has(
        &defs(&f),
        &[
            "def function SQUARE @0:8 pub",
            "def type_alias Id @1:22 pub",
            "def struct Point @2:15 pub",
            "def property Point.x @2:27 pub parent=Point",
            "def struct Size @3:26 pub",
            "def property Size.w @3:21 pub parent=Size",
            "def struct rect_s @4:15 pub",
            "def property rect_s.size @4:29 pub parent=rect_s",
            "def type_alias Rect @4:37 pub",
            "def type_alias Compare @5:14 pub",
            "def struct Value @6:6 pub",
            "def variable counter @7:4 pub",
            "def constant names @8:19",
            "def function grid @10:6 pub",
            "def function main @11:4 pub",
        ],
    );
    // One node for `typedef struct Point { … } Point;`.
    assert_eq!(
        defs(&f)
            .iter()
            .filter(|d| d.split(' ').nth(2) == Some("Point"))
            .count(),
        1,
        "{:#?}",
        defs(&f)
    );
    assert_none_starts(
        &defs(&f),
        &["def variable elsewhere", "def constant elsewhere"],
    );
    assert_has(
        &refs(&f),
        &["calls grid from=main @11", "calls SQUARE from=main @11"],
    );
    assert_has(
        &bindings(&f),
        &["p: Point in main @11", "id: Id in main @11"],
    );
}

#[test]
fn c_fixture_files_extract_without_errors() {
    let registry = navmap_grammars::registry();
    for file in fixture_files("c") {
        let Some(language) = fixture_language(&registry, "c", &file) else {
            continue;
        };
        let facts = navmap_extract::extract_path(language, &file, &read_fixture("c", &file));
        assert!(!facts.had_errors, "c/{file} has syntax errors");
        assert_eq!(facts.lang, "c");
    }
}

#[test]
fn swift_store_protocol_and_extension() {
    let f = extract_fixture("swift", "Sources/Store/Store.swift");
    assert!(!f.had_errors);
    // Members of `extension SessionStore: BaseStore` belong to SessionStore.
    assert_eq!(
        defs(&f),
        [
            "def constant defaultTTL @2:11 pub",
            "def struct SessionStore @5:14 pub",
            "def property SessionStore.data @6:16 parent=SessionStore",
            "def property SessionStore.ttl @7:15 pub parent=SessionStore",
            "def method SessionStore.init @9:11 pub parent=SessionStore",
            "def method SessionStore.refresh @14:25 pub parent=SessionStore",
            "def method SessionStore.get @25:16 pub parent=SessionStore",
            "def method SessionStore.put @29:25 pub parent=SessionStore",
        ]
    );
    assert_eq!(
        f.defs[1].doc.as_deref(),
        Some("Keeps sessions in memory — café edition ☕.")
    );
    assert_eq!(
        f.defs[5].signature.as_deref(),
        Some("public mutating func refresh(_ key: String) -> Bool")
    );
    assert_eq!((f.defs[5].start_line, f.defs[5].end_line), (14, 20));
    assert_has(
        &refs(&f),
        &[
            "implements BaseStore from=SessionStore @23",
            "calls self|get from=SessionStore.refresh @15",
            "calls self|put from=SessionStore.refresh @18",
            "calls Session from=SessionStore.put @30",
        ],
    );
    // `data[key]` is a subscript, not a call.
    assert_none_starts(&refs(&f), &["calls data "]);
    assert_eq!(imports(&f), ["import Foundation [*] @0"]);

    let base = extract_fixture("swift", "Sources/Store/BaseStore.swift");
    assert_eq!(
        defs(&base),
        [
            "def interface BaseStore @3:16 pub",
            "def method BaseStore.get @4:9 pub parent=BaseStore",
            "def method BaseStore.put @5:18 pub parent=BaseStore",
            "def method BaseStore.refresh @6:18 pub parent=BaseStore",
            "def struct Session @10:14 pub",
            "def property Session.value @11:15 pub parent=Session",
            "def property Session.expires @12:15 pub parent=Session",
        ]
    );
}

#[test]
fn swift_api_module_import_and_reexport() {
    let f = extract_fixture("swift", "Sources/Shop/API.swift");
    assert_eq!(
        defs(&f),
        [
            "def function handleRefresh @4:12 pub",
            "def function check @11:5 pub",
            "def function loadedValue @16:5 pub",
        ]
    );
    assert_has(
        &refs(&f),
        &[
            "references SessionStore from=handleRefresh @4",
            "calls store|refresh from=handleRefresh @5",
            "calls validate from=check @12",
            "calls result|get from=loadedValue @17",
        ],
    );
    assert_eq!(
        imports(&f),
        ["import Foundation [*] @0", "import Store [*] @1"]
    );
    assert_has(
        &bindings(&f),
        &[
            "store: SessionStore in handleRefresh @4",
            "result: Result in loadedValue @16",
        ],
    );
    let shop = extract_fixture("swift", "Sources/Shop/Shop.swift");
    assert_eq!(imports(&shop), ["import Store [*] reexport @1"]);
    assert_eq!(defs(&shop), ["def constant refreshHandler @4:11 pub"]);
    let clash: Vec<String> = [
        "Sources/Shop/util/email.swift",
        "Sources/Shop/util/token.swift",
    ]
    .iter()
    .flat_map(|p| defs(&extract_fixture("swift", p)))
    .filter(|d| d.contains("validate"))
    .collect();
    assert_eq!(
        clash,
        [
            "def function validate @5:5 pub",
            "def function validate @5:5 pub"
        ]
    );
}

#[test]
fn swift_forms() {
    let src = r#"typealias Key = String
protocol Named: CustomStringConvertible { var name: String { get } }
enum Color: String { case red, green
    func shade() -> Color { return self }
}
class Cart: Base, Named {
    private var items: [Key] = []
    fileprivate func hidden() {}
    var name: String { "cart" }
    func add(_ k: Key) { items.append(k); let c = Cart(); c.hidden(); helper { 1 }; _ = items[0] }
}
actor Counter { var n = 0 }
extension Cart { func total() -> Int { self.items.count } }
var counter = 0
"#;
    let f = extract_source("swift", "Sources/M/forms.swift", src);
    assert!(!f.had_errors, "{f:#?}");
    assert_eq!(
        defs(&f),
        [
            "def type_alias Key @0:10 pub",
            "def interface Named @1:9 pub",
            "def property Named.name @1:46 pub parent=Named",
            "def enum Color @2:5 pub",
            "def constant Color.red @2:26 pub parent=Color",
            "def constant Color.green @2:31 pub parent=Color",
            "def method Color.shade @3:9 pub parent=Color",
            "def class Cart @5:6 pub",
            "def property Cart.items @6:16 parent=Cart",
            "def method Cart.hidden @7:21 parent=Cart",
            "def property Cart.name @8:8 pub parent=Cart",
            "def method Cart.add @9:9 pub parent=Cart",
            "def class Counter @11:6 pub",
            "def property Counter.n @11:20 pub parent=Counter",
            "def method Cart.total @12:22 pub parent=Cart",
            "def variable counter @13:4 pub",
        ]
    );
    assert_has(
        &refs(&f),
        &[
            "extends CustomStringConvertible from=Named @1",
            "extends Base from=Cart @5",
            "extends Named from=Cart @5",
            "calls items|append from=Cart.add @9",
            "calls Cart from=Cart.add @9",
            "calls c|hidden from=Cart.add @9",
            "calls helper from=Cart.add @9",
        ],
    );
    assert_none_starts(&refs(&f), &["calls items from"]);
    assert_has(
        &bindings(&f),
        &["c: Cart in Cart.add @9", "k: Key in Cart.add @9"],
    );
}

#[test]
fn swift_fixture_files_extract_without_errors() {
    let registry = navmap_grammars::registry();
    for file in fixture_files("swift") {
        let Some(language) = fixture_language(&registry, "swift", &file) else {
            continue;
        };
        let facts = navmap_extract::extract_path(language, &file, &read_fixture("swift", &file));
        assert!(!facts.had_errors, "swift/{file} has syntax errors");
        assert_eq!(facts.lang, "swift");
    }
}

#[test]
fn cpp_member_visibility_follows_access_sections() {
    let src = "class A {\n    int hidden_;\npublic:\n    void shown() {}\n    virtual int pure() = 0;\nprivate:\n    int secret_;\n};\nstruct B { int x; private: int y; };\n";
    let f = extract_source("cpp", "a.hpp", src);
    assert_eq!(
        defs(&f),
        [
            "def class A @0:6 pub",
            "def property A.hidden_ @1:8 parent=A",
            "def method A.shown @3:9 pub parent=A",
            "def method A.pure @4:16 pub parent=A",
            "def property A.secret_ @6:8 parent=A",
            "def struct B @8:7 pub",
            "def property B.x @8:15 pub parent=B",
            "def property B.y @8:31 parent=B",
        ]
    );
}

#[test]
fn cpp_out_of_class_definitions_in_and_out_of_namespaces() {
    let src = "#include \"ns.hpp\"\nnamespace shop {\nvoid Store::get() {}\n}\nvoid shop::Store::put() {}\nshop::Store shop::Store::make() { return Store(); }\ntemplate <typename T> void Box<T>::open() {}\nStore& Store::operator=(const Store&) = default;\nnamespace v8 {\nScriptCompiler::Source::Source() {}\n}\n";
    let f = extract_source("cpp", "src/ns.cpp", src);
    // The owner is the whole path before the name (V8's `ScriptCompiler::Source::Source`;
    // before: its innermost scope only, `Store.put`, `v8.Source.Source`).
    assert_eq!(
        defs(&f),
        [
            "def module shop @1:10 pub",
            "def method shop.Store.get @2:12 pub parent=shop",
            "def method shop.Store.put @4:18 pub",
            "def method shop.Store.make @5:25 pub",
            "def method Box.open @6:35 pub",
            "def module v8 @8:10 pub",
            "def method v8.ScriptCompiler.Source.Source @9:24 pub parent=v8",
        ]
    );
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
            "def class Shop.SessionStore @6:12 pub",
            "def constant Shop.SessionStore.DEFAULT_TTL @7:2 pub parent=Shop.SessionStore",
            "def method Shop.SessionStore.initialize @11:6 pub parent=Shop.SessionStore",
            "def method Shop.SessionStore.get @18:6 pub parent=Shop.SessionStore",
            "def method Shop.SessionStore.put @23:6 pub parent=Shop.SessionStore",
            "def method Shop.SessionStore.refresh @28:6 pub parent=Shop.SessionStore",
            "def method Shop.SessionStore.size @37:6 pub parent=Shop.SessionStore",
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
            "extends Shop|BaseStore from=Shop.SessionStore @6",
            "calls self|get from=Shop.SessionStore.refresh @29",
            "calls put from=Shop.SessionStore.refresh @32",
            "calls @data|size from=Shop.SessionStore.size @39",
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
            "calls Shop|SessionStore from=Shop.Api.STORE @10",
            "calls STORE|refresh from=Shop.Api.handle_refresh @14",
            "calls checker|validate from=Shop.Api.check @22",
        ],
    );
    // `X.new` is a call of X, not of a method `new`.
    assert!(!r.iter().any(|x| x.contains("|new ")), "{r:?}");
    assert_has(
        &bindings(&api),
        &["STORE: Shop|SessionStore in Shop.Api @10"],
    );
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

/// Issue 17: an overload group (signatures, then the implementation) is one definition,
/// the implementation, with the first signature and the count of the others; a class's
/// overloaded method too. Before, each signature was a definition (`h`, `h~2`, …).
#[test]
fn ts_overload_signatures_fold_into_the_implementation() {
    let f = extract_fixture("ts", "src/view/h.ts");
    let named = |q: &str| f.defs.iter().filter(|d| d.qualified_name == q).count();
    assert_eq!(named("h"), 1, "{:#?}", defs(&f));
    assert_eq!(named("Renderer.mount"), 1, "{:#?}", defs(&f));
    let h = f.defs.iter().find(|d| d.qualified_name == "h").unwrap();
    // The implementation's name position, the group's first line, the first signature.
    assert_eq!((h.name_line, h.start_line, h.end_line), (17, 12, 22));
    assert_eq!(
        h.signature.as_deref(),
        Some("function h(type: string): VNode (+2 overloads)")
    );
    assert_eq!(h.doc.as_deref(), Some("Creates a virtual node."));
    assert!(h.exported);
    let mount = f
        .defs
        .iter()
        .position(|d| d.qualified_name == "Renderer.mount")
        .unwrap();
    assert_eq!(f.defs[mount].kind, navmap_extract::facts::NodeKind::Method);
    assert_eq!(f.defs[mount].name_line, 38);
    // Uses in the folded signatures' types and the implementation's body come from the
    // one definition, whose index survived the renumbering.
    let h_index = f.defs.iter().position(|d| d.qualified_name == "h").unwrap();
    assert!(
        f.refs
            .iter()
            .any(|r| r.name == "createVNode" && r.from == Some(h_index))
    );
    assert!(
        f.refs
            .iter()
            .any(|r| r.name == "render" && r.from == Some(mount))
    );
    for d in &f.defs {
        if let Some(p) = d.parent {
            assert!(p < f.defs.len(), "{d:?}");
        }
    }
}

/// Issue 17: a `.h` that holds C++ (leveldb's `include/leveldb/status.h`) is C++: parsed by
/// the C grammar its classes did not exist (`Status` came out as a function). C++ by its
/// syntax, or by a C++ source beside it and no C source; else C.
#[test]
fn a_dot_h_header_is_cpp_where_its_text_or_its_directory_says_so() {
    let registry = navmap_grammars::registry();
    let cpp = fixture_language(&registry, "cpp", "include/status.h").unwrap();
    assert_eq!(cpp.id(), "cpp");
    for file in fixture_files("c").iter().filter(|f| f.ends_with(".h")) {
        assert_eq!(
            fixture_language(&registry, "c", file).unwrap().id(),
            "c",
            "{file}"
        );
    }
    let plain = || Some("int f(int);\n".to_string());
    let lang_of = |siblings: &[&str]| {
        let siblings: Vec<String> = siblings.iter().map(|s| s.to_string()).collect();
        registry
            .for_file("db/x.h", &|| siblings.clone(), &plain)
            .unwrap()
            .id()
            .to_string()
    };
    assert_eq!(lang_of(&["x.h", "x.cc"]), "cpp");
    assert_eq!(lang_of(&["x.h", "x.cc", "y.c"]), "c");
    assert_eq!(lang_of(&["x.h"]), "c");
    let f = navmap_extract::extract_path(
        cpp,
        "include/status.h",
        &read_fixture("cpp", "include/status.h"),
    );
    assert!(!f.had_errors);
    let classes: Vec<&str> = f
        .defs
        .iter()
        .filter(|d| d.kind == navmap_extract::facts::NodeKind::Class)
        .map(|d| d.qualified_name.as_str())
        .collect();
    assert_eq!(
        classes,
        ["shop.Status", "shop.DetailedStatus"],
        "{:#?}",
        defs(&f)
    );
}

/// Issue 17: `#if` / `#else` around a member's header (Newtonsoft.Json's shape) gave one
/// body two headers: every later member lost its class (`Reader.ReadNumberValue.Reset`).
/// Parsed again with each block's first branch, the class keeps its members, at their
/// own positions.
#[test]
fn cs_a_conditional_member_header_keeps_the_class_around_it() {
    let f = extract_fixture("cs", "Text/Reader.cs");
    assert!(!f.had_errors);
    let methods: Vec<(&str, u32)> = f
        .defs
        .iter()
        .filter(|d| d.kind == navmap_extract::facts::NodeKind::Method)
        .map(|d| (d.qualified_name.as_str(), d.name_line))
        .collect();
    assert_eq!(
        methods,
        [("Reader.ReadNumberValue", 10), ("Reader.Reset", 22)],
        "{:#?}",
        defs(&f)
    );
    assert!(
        f.refs
            .iter()
            .any(|r| r.name == "ReadNumberValue" && r.line == 25)
    );
}

/// C#'s `partial class Item` declared twice in one file is one class: every member under
/// `Item`, no `Item~2` (before: two definitions `Item`, the second part's members under it).
#[test]
fn cs_the_parts_of_a_partial_class_are_one_definition() {
    let f = extract_fixture("cs", "Store/Item.cs");
    assert!(!f.had_errors);
    assert_eq!(
        defs(&f),
        [
            "def class Item @3:21 pub",
            "def property Item.Key @5:18 pub parent=Item",
            "def method Item.Item @7:11 pub parent=Item",
            "def method Item.Matches @17:16 pub parent=Item",
            "def method Item.Describe @22:18 pub parent=Item",
        ]
    );
    assert_eq!(
        f.defs[0].doc.as_deref(),
        Some("A stored item: its data (the part a generator writes).")
    );
    assert!(
        f.refs
            .iter()
            .any(|r| r.name == "Matches" && r.from == Some(4))
    );
}
