//! Arity facts: how many arguments a call passes (`RefFact::args`) and how many a
//! definition accepts (`DefFact::arity`), from `@arguments` / `@parameters` captures.

mod common;

use common::extract_source;
use navmap_extract::facts::{Arity, EdgeKind, FileFacts};

/// `qualified name → arity` of the file's definitions that have one.
fn arities(f: &FileFacts) -> Vec<String> {
    f.defs
        .iter()
        .filter_map(|d| {
            let a = d.arity?;
            let max = a.max.map_or("*".to_string(), |m| m.to_string());
            Some(format!("{} {}..{}", d.qualified_name, a.min, max))
        })
        .collect()
}

/// `name@line args` of the file's calls (`?` where unknown).
fn calls(f: &FileFacts) -> Vec<String> {
    f.refs
        .iter()
        .filter(|r| r.kind == EdgeKind::Calls)
        .map(|r| {
            let n = r.args.map_or("?".to_string(), |n| n.to_string());
            format!("{}@{} {n}", r.name, r.line)
        })
        .collect()
}

#[test]
fn cpp_parameters_defaults_variadics_and_void() {
    let src = r#"#include <cstddef>
namespace cppgc {
template <typename T>
class BasicPersistent {
 public:
  BasicPersistent(const SourceLocation& loc = SourceLocation::Current()) {}
  BasicPersistent(T* raw, const SourceLocation& loc = SourceLocation::Current()) : raw_(raw) {}
  BasicPersistent(T& raw, const SourceLocation& loc = SourceLocation::Current())
      : BasicPersistent(&raw, loc) {}
  template <typename... Args>
  BasicPersistent(int tag, Args&&... args) : BasicPersistent(args...) {}
  void Clear(void) { /* none */ }
  virtual void Trace(Visitor* v, int depth) = 0;
 private:
  T* raw_;
};
}
int log(const char* fmt, ...) { return 0; }
int Ext::Outer::run(int a, int b /* the second */, int c) { return log("x", a, b); }
int main() { return log("%d", /* one */ 1) + cppgc::make(); }
"#;
    let f = extract_source("cpp", "include/handle.h", src);
    assert!(!f.had_errors, "{f:#?}");
    assert_eq!(
        arities(&f),
        [
            "cppgc.BasicPersistent.BasicPersistent 0..1",
            "cppgc.BasicPersistent.BasicPersistent 1..2",
            "cppgc.BasicPersistent.BasicPersistent 1..2",
            "cppgc.BasicPersistent.BasicPersistent 1..*",
            "cppgc.BasicPersistent.Clear 0..0",
            "cppgc.BasicPersistent.Trace 2..2",
            "log 1..*",
            "Ext.Outer.run 3..3",
            "main 0..0",
        ]
    );
    let calls = calls(&f);
    for want in [
        "Current@5 0",
        "BasicPersistent@8 2",
        // A pack expansion: the count is unknown.
        "BasicPersistent@10 ?",
        "log@18 3",
        // A comment is no argument.
        "log@19 2",
        "make@19 0",
    ] {
        assert!(calls.iter().any(|c| c == want), "{want} not in {calls:?}");
    }
}

#[test]
fn java_parameters_varargs_and_calls() {
    let src = r#"package shop;
class Store {
    Store() { this(0); }
    Store(int size) {}
    void put(String key) { put(key, 1); }
    void put(String key, int ttl) { log("put", key, ttl); }
    static void log(String fmt, Object... args) {}
    void self(Store this, int n) {}
    Store copy() { return new Store(size()); }
}
"#;
    let f = extract_source("java", "src/shop/Store.java", src);
    assert!(!f.had_errors, "{f:#?}");
    assert_eq!(
        arities(&f),
        [
            "Store.Store 0..0",
            "Store.Store 1..1",
            "Store.put 1..1",
            "Store.put 2..2",
            "Store.log 1..*",
            "Store.self 1..1",
            "Store.copy 0..0",
        ]
    );
    let calls = calls(&f);
    for want in ["put@4 2", "log@5 3", "Store@8 1", "size@8 0"] {
        assert!(calls.iter().any(|c| c == want), "{want} not in {calls:?}");
    }
}

#[test]
fn arity_accepts_its_range() {
    let a = Arity {
        min: 1,
        max: Some(2),
    };
    assert!(!a.accepts(0) && a.accepts(1) && a.accepts(2) && !a.accepts(3));
    let v = Arity { min: 1, max: None };
    assert!(!v.accepts(0) && v.accepts(1) && v.accepts(40));
}
