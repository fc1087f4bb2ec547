//! Arity facts: how many arguments a call passes (`RefFact::args`) and how many a
//! definition accepts (`DefFact::arity`), from `@arguments` / `@parameters` captures.

mod common;

use common::extract_source;
use navmap_extract::facts::{ArgKind, Arity, EdgeKind, FileFacts};

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

/// `qualified name (shape base, …)` of the file's definitions with parameter shapes;
/// `<…>` marks a function template, a suffix its qualifiers.
fn shapes(f: &FileFacts) -> Vec<String> {
    f.defs
        .iter()
        .filter_map(|d| {
            let p = d.params.as_ref()?;
            let list: Vec<String> = p
                .list
                .iter()
                .map(|q| format!("{:?} {}", q.shape, q.base))
                .collect();
            let t = if p.template { "<>" } else { "" };
            Some(format!(
                "{}{t}({}){}",
                d.qualified_name,
                list.join(", "),
                p.qualifiers
            ))
        })
        .collect()
}

/// `name@line kinds` of the file's calls with argument kinds.
fn kinds(f: &FileFacts) -> Vec<String> {
    f.refs
        .iter()
        .filter(|r| !r.arg_kinds.is_empty())
        .map(|r| {
            let k: Vec<String> = r
                .arg_kinds
                .iter()
                .map(|k| match k {
                    ArgKind::Typed {
                        shape,
                        base,
                        konst,
                        lvalue,
                    } => format!(
                        "{}{shape:?} {base}{}",
                        if *konst { "const " } else { "" },
                        if *lvalue { "" } else { " (temporary)" }
                    ),
                    other => format!("{other:?}"),
                })
                .collect();
            format!("{}@{} {}", r.name, r.line, k.join(", "))
        })
        .collect()
}

/// cppgc's constructors (`BasicPersistent`, `BasicMember`): parameters that differ in
/// their types only, each shape with its base type, the class's template parameter
/// marked `$T`, a function template's own `?U`; the delegations' arguments typed by the
/// constructor's parameters (`&raw` of a `T&` is a pointer to `$T`), a method of the
/// class called on a parameter of its type by the method's result (`other.Get()`: a `T*`;
/// not on another instance, `BasicPersistent<U>`), literals by their text; a name a lambda's parameter shadows, `NULL`, a call: unknown. A declarator no
/// shape describes (`const T* const* slots`) is `Other`, compared as its text (name kept).
#[test]
fn cpp_parameter_shapes_and_argument_kinds() {
    let src = r#"#include <cstddef>
namespace cppgc {
template <typename T>
class BasicPersistent {
 public:
  BasicPersistent(std::nullptr_t, const SourceLocation& loc = SourceLocation::Current()) {}
  BasicPersistent(SentinelPointer s, const SourceLocation& loc = SourceLocation::Current()) {}
  BasicPersistent(T* raw, const SourceLocation& loc = SourceLocation::Current()) {}
  BasicPersistent(T& raw, const SourceLocation& loc = SourceLocation::Current())
      : BasicPersistent(&raw, loc) {}
  BasicPersistent(const BasicPersistent& other, const SourceLocation& loc)
      : BasicPersistent(other.Get(), loc) {}
  template <typename U>
  BasicPersistent(BasicPersistent<U>&& other, const T* const* slots, int n) : BasicPersistent(nullptr, other.Get()) {}
  BasicPersistent(unsigned long size, const char* name, bool b) : BasicPersistent(0, "x", 'c', NULL) {
    auto f = [this](int size) { return Use(size, this, 2.5); };
    Use(size, &name, b, true);
  }
  T* Get() const & { return nullptr; }
};
}
"#;
    let f = extract_source("cpp", "include/persistent.h", src);
    assert!(!f.had_errors, "{f:#?}");
    let q = "cppgc.BasicPersistent.BasicPersistent";
    assert_eq!(
        shapes(&f),
        [
            format!("{q}(Null std::nullptr_t, ConstReference SourceLocation)"),
            format!("{q}(Value SentinelPointer, ConstReference SourceLocation)"),
            format!("{q}(Pointer $T, ConstReference SourceLocation)"),
            format!("{q}(Reference $T, ConstReference SourceLocation)"),
            format!("{q}(ConstReference BasicPersistent, ConstReference SourceLocation)"),
            format!(
                "{q}<>(RvalueReference BasicPersistent<?U>, Other const $T*const*slots, Arithmetic int)"
            ),
            format!("{q}(Arithmetic unsigned long, Pointer const char, Arithmetic bool)"),
            "cppgc.BasicPersistent.Get()const &".to_string(),
        ]
    );
    assert_eq!(
        kinds(&f),
        [
            "BasicPersistent@9 Pointer $T (temporary), const Value SourceLocation",
            "BasicPersistent@11 Pointer $T (temporary), const Value SourceLocation",
            "BasicPersistent@13 Null, Unknown",
            "BasicPersistent@14 Zero, String, Arithmetic, Unknown",
            "Use@15 Unknown, Pointer, Arithmetic",
            "Use@16 Arithmetic unsigned long, Pointer, Arithmetic bool, Arithmetic",
        ]
    );
}

/// Java (commons-cli's shapes): a parameter of a class type is a value of its erasure
/// (`Supplier<T>` → `Supplier`, `TextStyle.Builder` kept whole), a primitive one
/// arithmetic, an array none (`Other`: its text, name and all); a generic method's own type parameter is deduced
/// (`?T`, the method no template), a class's fixed (`$E`). Arguments: `null`, literals, a
/// parameter by its declared type, a method of the class called bare or on `this` by its
/// declared result, a cast, `new T(…)` and `String.valueOf(…)` by their written type, a
/// local by its declared type where it is visible (a `for` loop's variable too); a
/// conditional, a field, another object's method, a `var`, a local out of its scope: unknown.
#[test]
fn java_parameter_shapes_and_argument_kinds() {
    let src = r#"package a;
class Box<E> {
    private Option field;
    public <T> T get(final String name, final Supplier<T> fallback, int[] xs, char c) {
        return get(resolve(name), fallback, null, 'c');
    }
    public <T> T get(final Option option, final T fallback, String xs[], final double d) {
        return get(this.resolve("x"), (Class<?>) fallback, new Builder<E>(), String.valueOf(d));
    }
    Option resolve(final TextStyle.Builder b, E e) {
        return use(b, e, field, b.get(), b == null ? null : b, 1.5, true);
    }
    private java.util.List<E> all() { return null; }
    void locals(java.util.List<TextStyle.Builder> list) {
        for (final TextStyle.Builder t : list) { final double f = 2; use(t, f); }
        { var v = list; Builder<E> b = null; use(b, v); }
        use(b, t);
    }
}
"#;
    let f = extract_source("java", "src/a/Box.java", src);
    assert!(!f.had_errors, "{f:#?}");
    assert_eq!(
        shapes(&f),
        [
            "Box.get(Value String, Value Supplier, Other int[]xs, Arithmetic char)",
            "Box.get(Value Option, Value ?T, Other String xs[], Arithmetic double)",
            "Box.resolve(Value TextStyle.Builder, Value $E)",
            "Box.all()",
            "Box.locals(Value java.util.List)",
        ]
    );
    assert_eq!(
        kinds(&f),
        [
            "get@4 Value Option (temporary), Value Supplier, Null, Arithmetic",
            "resolve@4 Value String",
            "get@7 Value Option (temporary), Value Class (temporary), Value Builder (temporary), Value String (temporary)",
            "resolve@7 String",
            "valueOf@7 Arithmetic double",
            "use@10 Value TextStyle.Builder, Value $E, Unknown, Unknown, Unknown, Arithmetic, Arithmetic",
            "use@14 Value TextStyle.Builder, Arithmetic double",
            "use@15 Value Builder, Unknown",
        ]
    );
}
