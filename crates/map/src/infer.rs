//! Receiver typing from declarations, without a type checker.
//!
//! `store.refresh()` resolves only if we know what `store` is. Extraction gives us the
//! one-line signature of every definition; a parameter or variable declared there with a
//! type (`store: SessionStore`, `s *store.SessionStore`, `store: &mut SessionStore`) or
//! initialised with a constructor (`store = new SessionStore(60)`, `= SessionStore()`)
//! names the type; a variable initialised by a call of a *function* (`c := NewContext(w)`)
//! is typed, one level deep, by the type that function's signature returns (`return_type`).
//! A name a pattern or a loop binds to a part of a value is typed by the part's
//! declaration: a constructor's positional field (`positional_type`), the element of a
//! declared `Vec<T>`/`[T]` (`element_type`, `declared_type_text`).
//! Everything else stays unknown, and unknown receivers never become
//! exact/import/name edges (see `resolve.rs`).

/// The type path declared for `var` in `sig`, e.g. `store.SessionStore`, if any.
pub(crate) fn declared_type<'s>(sig: &'s str, var: &str) -> Option<&'s str> {
    if var.is_empty() {
        return None;
    }
    let bytes = sig.as_bytes();
    let mut start = 0;
    while let Some(pos) = sig[start..].find(var) {
        let at = start + pos;
        let end = at + var.len();
        start = end;
        let before_ok = at == 0 || !is_ident_byte(bytes[at - 1]);
        let after_ok = end == bytes.len() || !is_ident_byte(bytes[end]);
        // `self.store` / `x.store` declare a member, not `store` itself: skip those too.
        if !before_ok || !after_ok || (at > 0 && bytes[at - 1] == b'.') {
            continue;
        }
        let rest = sig[end..].trim_start();
        if let Some(after) = rest.strip_prefix(':')
            && !after.starts_with(':')
        {
            if let Some(t) = type_path(skip_type_prefixes(after.trim_start())) {
                return Some(t);
            }
            continue;
        }
        if let Some(after) = rest.strip_prefix('=')
            && !after.starts_with('=')
            && !after.starts_with('>')
        {
            let mut v = after.trim_start();
            v = v.strip_prefix("new ").unwrap_or(v).trim_start();
            v = v.strip_prefix('&').unwrap_or(v);
            if let Some(t) = type_path(v) {
                let next = v[t.len()..].trim_start();
                if next.starts_with('(') || next.starts_with('{') || next.starts_with('<') {
                    return Some(constructor_type(t));
                }
            }
            continue;
        }
        // A parameter written name-then-type (`(s *store.SessionStore, key string)`).
        let prev = sig[..at].trim_end();
        if (prev.ends_with('(') || prev.ends_with(','))
            && rest.len() < sig.len() - end
            && let Some(t) = type_path(skip_type_prefixes(rest))
        {
            return Some(t);
        }
    }
    None
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

fn skip_type_prefixes(mut s: &str) -> &str {
    loop {
        let before = s;
        for p in [
            "&",
            "*",
            "[]",
            "mut ",
            "const ",
            "readonly ",
            "dyn ",
            "impl ",
        ] {
            if let Some(r) = s.strip_prefix(p) {
                s = r.trim_start();
            }
        }
        // Lifetimes: `&'a mut T`.
        if let Some(r) = s.strip_prefix('\'') {
            s = r
                .trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
                .trim_start();
        }
        if s == before {
            return s;
        }
    }
}

/// The longest `ident((.|::)ident)*` at the start of `s`.
fn type_path(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        let seg_start = i;
        while i < b.len() && is_ident_byte(b[i]) {
            i += 1;
        }
        if i == seg_start || b[seg_start].is_ascii_digit() {
            return if seg_start == 0 {
                None
            } else {
                Some(trim_sep(&s[..seg_start]))
            };
        }
        if s[i..].starts_with("::") && s[i + 2..].bytes().next().is_some_and(is_ident_byte) {
            i += 2;
        } else if s[i..].starts_with('.') && s[i + 1..].bytes().next().is_some_and(is_ident_byte) {
            i += 1;
        } else {
            return Some(&s[..i]);
        }
    }
}

fn trim_sep(s: &str) -> &str {
    s.trim_end_matches(':').trim_end_matches('.')
}

/// `Sessions::new` (a constructor function on a type) → `Sessions`; `SessionStore` → itself.
fn constructor_type(t: &str) -> &str {
    if let Some((prefix, last)) = t.rsplit_once("::")
        && last.starts_with(|c: char| c.is_ascii_lowercase())
    {
        return prefix;
    }
    t
}

/// The type a function's signature says it returns, written after its parameter list
/// (`func NewContext(n int) *Context`, `def make() -> Session`, `function f(): Store`,
/// `fun f(): Store`; the first of several results, `(*Context, error)`), if any. A return
/// type written before the name (`Session create()`) is not read: `None`.
pub(crate) fn return_type<'s>(sig: &'s str, name: &str) -> Option<&'s str> {
    let bytes = sig.as_bytes();
    let mut start = 0;
    while let Some(pos) = sig[start..].find(name) {
        let at = start + pos;
        let end = at + name.len();
        start = end;
        if at > 0 && is_ident_byte(bytes[at - 1]) {
            continue;
        }
        // A function value (`create = <T>(…): R =>`, `create = async (…): R =>`) says its
        // result after a `:` only; generic parameters (`rest<S>(…)`) come before the `(`.
        let mut open = end;
        let arrow_value = sig[end..]
            .trim_start()
            .strip_prefix('=')
            .filter(|r| !r.starts_with(['=', '>']));
        if let Some(r) = arrow_value {
            let r = r.trim_start();
            open = sig.len() - r.strip_prefix("async ").unwrap_or(r).trim_start().len();
        }
        if sig[open..].starts_with('<') {
            let Some(close) = matching_angle(sig, open) else {
                continue;
            };
            open = close + 1;
        }
        if !sig[open..].starts_with('(') {
            continue;
        }
        let close = matching_paren(sig, open)?;
        let mut rest = sig[close + 1..].trim_start();
        if arrow_value.is_some() && !rest.starts_with(':') {
            return None;
        }
        for arrow in ["->", ":"] {
            if let Some(r) = rest.strip_prefix(arrow) {
                rest = r.trim_start();
            }
        }
        rest = skip_type_prefixes(rest.strip_prefix('(').unwrap_or(rest).trim_start());
        let first = type_path(rest)?;
        // A named result (`(c *Context, r *Engine)`): the type follows the name.
        let after = &rest[first.len()..];
        if after.starts_with(' ') {
            let next = skip_type_prefixes(after.trim_start());
            if let Some(t) = type_path(next) {
                return Some(t);
            }
        }
        return Some(first);
    }
    None
}

/// A return type written before the function's name (the manifest's
/// `return_type_before_name`: Java's `public static Builder builder(String opt)`,
/// `public Map.Entry<K, V> first()`): the type path that ends right before the name, its
/// generic arguments left out. `None` for an array (`String[] f()`: no receiver's type).
/// A primitive or `void` comes back as such and resolves to no type.
pub(crate) fn return_type_before<'s>(sig: &'s str, name: &str) -> Option<&'s str> {
    let bytes = sig.as_bytes();
    let mut start = 0;
    while let Some(pos) = sig[start..].find(name) {
        let at = start + pos;
        let end = at + name.len();
        start = end;
        if (at > 0 && is_ident_byte(bytes[at - 1])) || !sig[end..].trim_start().starts_with('(') {
            continue;
        }
        let mut before = sig[..at].trim_end();
        if before.ends_with('>') {
            before = before[..opening_angle(before)?].trim_end();
        }
        let b = before.as_bytes();
        let mut i = b.len();
        while i > 0 && (is_ident_byte(b[i - 1]) || b[i - 1] == b'.') {
            i -= 1;
        }
        let ty = before[i..].trim_start_matches('.');
        return (!ty.is_empty() && !ty.as_bytes()[0].is_ascii_digit()).then_some(ty);
    }
    None
}

/// The index of the `<` that opens the `>` ending `s`.
fn opening_angle(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The index of the `>` that closes the `<` at `open` (an arrow `=>` inside is no close).
fn matching_angle(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut prev = ' ';
    for (i, c) in s[open..].char_indices() {
        match c {
            '<' => depth += 1,
            '>' if prev != '=' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
        prev = c;
    }
    None
}

/// A call written as a qualifier (`ZodTuple.create(items)`, `Foo::new(x)`, `Session()`):
/// the callee's path, when it is a plain path (`new X(…)` → `X` with `true`: a
/// construction). `None` for anything else (`a[0]`, `f(x)(y)`, `g(x).h`).
pub(crate) fn call_callee(q: &str) -> Option<(&str, bool)> {
    let body = q.trim_end().strip_suffix(')')?;
    let mut depth = 1usize;
    let mut open = None;
    for (i, c) in body.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let raw = body[..open?].trim_end();
    let (callee, new) = match raw.strip_prefix("new ") {
        Some(c) => (c.trim_start(), true),
        None => (raw, false),
    };
    if !callee.is_empty() && type_path(callee) == Some(callee) {
        return Some((callee, new));
    }
    // A link of a chain (`Option.builder(o).hasArg(true)`, `new B().id(k)`): a name called
    // on a call's result, which is typed link by link from the first.
    let (prefix, last) = split_last(raw);
    (!last.is_empty()
        && type_path(last) == Some(last)
        && prefix.ends_with(')')
        && call_callee(prefix).is_some())
    .then_some((raw, false))
}

/// The index of the `)` that closes the `(` at `open`.
fn matching_paren(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The ends of the places where `var` stands in `sig` as a whole name (not part of a longer
/// name, not a member `x.var`), in order.
fn name_ends<'s>(sig: &'s str, var: &'s str) -> impl Iterator<Item = usize> + 's {
    let bytes = sig.as_bytes();
    sig.match_indices(var).filter_map(move |(at, _)| {
        let end = at + var.len();
        let before_ok = at == 0 || !(is_ident_byte(bytes[at - 1]) || bytes[at - 1] == b'.');
        let after_ok = end >= bytes.len() || !is_ident_byte(bytes[end]);
        (before_ok && after_ok).then_some(end)
    })
}

/// `text` up to its first `,`, `=`, `;`, `)` or `{` outside brackets (`<…>` counted as
/// brackets where `angles`), trimmed: a declared type's text.
fn type_text(text: &str, angles: bool) -> &str {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '<' if angles => depth += 1,
            '>' if angles && depth > 0 => depth -= 1,
            '[' | '(' => depth += 1,
            ']' | ')' if depth > 0 => depth -= 1,
            ',' | '=' | ';' | ')' | '{' if depth == 0 => return text[..i].trim_end(),
            _ => {}
        }
    }
    text.trim_end()
}

/// The type text declared for `var` in `sig` (`strats: Vec<Strategy>` → `Vec<Strategy>`):
/// what follows `var:` up to a `,`, `=`, `;` or `)` outside brackets.
pub(crate) fn declared_type_text<'s>(sig: &'s str, var: &'s str) -> Option<&'s str> {
    name_ends(sig, var).find_map(|end| {
        let after = sig[end..].trim_start().strip_prefix(':')?;
        // `var::path` is a path, not a declaration.
        (!after.starts_with(':')).then(|| type_text(after.trim_start(), true))
    })
}

/// The declared type's text of `var` written name-then-type, without a colon (Go: a
/// field `Require []*Require`, a parameter `(rs []*Require, n int)`): up to a `,`, `)`,
/// `;`, `=` or `{` outside brackets. `None` when no type follows the name.
pub(crate) fn type_text_after_name<'s>(sig: &'s str, var: &'s str) -> Option<&'s str> {
    name_ends(sig, var).find_map(|end| {
        if !sig[end..].starts_with([' ', '\t']) {
            return None;
        }
        let after = sig[end..].trim_start();
        (after.starts_with("...")
            || after.starts_with(|c: char| c == '[' || c == '*' || c.is_alphabetic() || c == '_'))
        // Go's channel types (`chan<- T`) are no brackets; `...T` is a variadic one's.
        .then(|| type_text(after, false))
    })
}

/// The element type of a declared type: `[T; N]`, `[T]`, `&[T]` → `T`; `W<T, …>` → `T`
/// where `W` is one of `wrappers` (the manifest's `element_types`). Else `None`.
pub(crate) fn element_type<'s>(ty: &'s str, wrappers: &[String]) -> Option<&'s str> {
    if let Some(elem) = slice_element(ty) {
        return Some(elem);
    }
    let t = skip_type_prefixes(ty.trim());
    if let Some(inner) = t.strip_prefix('[') {
        let inner = skip_type_prefixes(inner.trim_start());
        return type_path(inner).filter(|p| !p.is_empty());
    }
    let head = type_path(t)?;
    let (_, last) = split_last(head);
    if !wrappers.iter().any(|w| w == last) {
        return None;
    }
    let args = t[head.len()..].trim_start().strip_prefix('<')?;
    type_path(skip_type_prefixes(args.trim_start()))
}

/// The element of a Go slice, array or variadic parameter: `[]*Require`, `[4]Hash` (the
/// length before the type), `...Signer`. (A Rust slice `[T]` or array `[T; N]` has its
/// type inside the brackets instead: `element_type`.)
pub(crate) fn slice_element(ty: &str) -> Option<&str> {
    let ty = ty.trim();
    if let Some(rest) = ty.strip_prefix("...") {
        return type_path(skip_type_prefixes(rest.trim_start())).filter(|p| !p.is_empty());
    }
    let rest = ty.strip_prefix('[')?;
    let close = rest.find(']')?;
    if !rest[..close].bytes().all(|b| b.is_ascii_digit()) || rest[close + 1..].trim().is_empty() {
        return None;
    }
    type_path(skip_type_prefixes(rest[close + 1..].trim_start())).filter(|p| !p.is_empty())
}

/// The value an index expression indexes, when the whole text is `value[…]` and `value`
/// is a plain path (`x.Stmt[0]`, `x.Stmt[len(x.Stmt)-1]` → `x.Stmt`).
pub(crate) fn indexed(q: &str) -> Option<&str> {
    let inner = q.strip_suffix(']')?;
    let mut depth = 0usize;
    for (i, b) in inner.bytes().enumerate().rev() {
        match b {
            b']' => depth += 1,
            b'[' if depth == 0 => {
                let base = &inner[..i];
                let plain = !base.is_empty()
                    && base
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
                return plain.then_some(base);
            }
            b'[' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The type of the `k`-th positional field of a tuple-like constructor, read from its
/// declaration (`Extension(ExtensionStrategy)`, `pub struct Wrapper<T>(pub Inner, T);`),
/// when it declares `n` fields (the pattern's element count: a rest pattern `..` in it
/// stands for other fields than one, and the position would lie).
pub(crate) fn positional_type<'s>(sig: &'s str, name: &str, k: usize, n: usize) -> Option<&'s str> {
    let bytes = sig.as_bytes();
    let mut start = 0;
    while let Some(pos) = sig[start..].find(name) {
        let at = start + pos;
        let end = at + name.len();
        start = end;
        if (at > 0 && is_ident_byte(bytes[at - 1]))
            || (end < bytes.len() && is_ident_byte(bytes[end]))
        {
            continue;
        }
        let mut rest = sig[end..].trim_start();
        if rest.starts_with('<') {
            let mut depth = 0i32;
            let close = rest.char_indices().find(|&(_, c)| {
                match c {
                    '<' => depth += 1,
                    '>' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })?;
            rest = rest[close.0 + 1..].trim_start();
        }
        let open = sig.len() - rest.len();
        if !rest.starts_with('(') {
            return None;
        }
        let close = matching_paren(sig, open)?;
        let mut depth = 0i32;
        let mut fields = vec![];
        let mut from = open + 1;
        for (i, c) in sig[open + 1..close].char_indices() {
            match c {
                '<' | '[' | '(' => depth += 1,
                '>' | ']' | ')' => depth -= 1,
                ',' if depth == 0 => {
                    fields.push(&sig[from..open + 1 + i]);
                    from = open + 2 + i;
                }
                _ => {}
            }
        }
        fields.push(&sig[from..close]);
        // A trailing comma (`(A, B,)`) declares no field.
        if fields.last().is_some_and(|f| f.trim().is_empty()) {
            fields.pop();
        }
        return (fields.len() == n && k < n)
            .then(|| field_type(fields[k]))
            .flatten();
    }
    None
}

/// A positional field's type without its visibility (`pub Inner`, `pub(crate) Inner`).
fn field_type(text: &str) -> Option<&str> {
    let mut t = text.trim();
    if let Some(r) = t.strip_prefix("pub") {
        let r = r.trim_start();
        t = match r.strip_prefix('(') {
            Some(r) => r.split_once(')').map_or(r, |(_, rest)| rest),
            None => r,
        }
        .trim_start();
    }
    type_path(skip_type_prefixes(t))
}

/// A binding's type that names a part of a value (`bindings.scm`): `Ctor[k]` → (`Ctor`,
/// `k`: `i/n` or a field's name), `[]` → (``, ``); `None` for a plain type.
pub(crate) fn part(type_name: &str) -> Option<(&str, &str)> {
    let (base, rest) = type_name.split_once('[')?;
    Some((base, rest.strip_suffix(']')?))
}

/// Splits a type or qualifier path into (prefix, last segment).
pub(crate) fn split_last(path: &str) -> (&str, &str) {
    let a = path.rfind("::").map(|i| (i, 2));
    let b = path.rfind('.').map(|i| (i, 1));
    match a.into_iter().chain(b).max_by_key(|(i, _)| *i) {
        Some((i, w)) => (&path[..i], &path[i + w..]),
        None => ("", path),
    }
}

/// Splits a qualifier into segments at `.` and `::`.
pub(crate) fn segments(q: &str) -> Vec<&str> {
    // `->` is member access through a pointer: `this->store_` is the path `this`, `store_`.
    q.split("::")
        .flat_map(|s| s.split("->"))
        .flat_map(|s| s.split('.'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn return_types_written_before_the_name() {
        for (sig, name, want) in [
            (
                "public static Builder builder(String opt)",
                "builder",
                Some("Builder"),
            ),
            (
                "public Builder hasArg(final boolean hasArg)",
                "hasArg",
                Some("Builder"),
            ),
            (
                "public Map.Entry<K, List<V>> first()",
                "first",
                Some("Map.Entry"),
            ),
            (
                "public static Option create() throws IllegalArgumentException",
                "create",
                Some("Option"),
            ),
            (
                "public String[] getOptionValues(final char c)",
                "getOptionValues",
                None,
            ),
            ("public <T> T get(final Supplier<T> s)", "get", Some("T")),
        ] {
            assert_eq!(super::return_type_before(sig, name), want, "{sig}");
        }
    }

    #[test]
    fn return_types_written_after_the_parameters() {
        let cases = [
            (
                "func NewContext(n int) *Context",
                "NewContext",
                Some("Context"),
            ),
            (
                "func CreateTestContext(w http.ResponseWriter) (c *Context, r *Engine)",
                "CreateTestContext",
                Some("Context"),
            ),
            ("func Open() (*db.Conn, error)", "Open", Some("db.Conn")),
            ("def make(a, b=f(1)) -> Session", "make", Some("Session")),
            ("function f(x: number): Store", "f", Some("Store")),
            ("Session create()", "create", None),
            (
                "static create = <Items extends [A, ...A[]] | []>(schemas: Items, params?: P): ZodTuple<Items, null> =>",
                "create",
                Some("ZodTuple"),
            ),
            (
                "rest<RestSchema extends ZodTypeAny>(rest: RestSchema): ZodTuple<T, RestSchema>",
                "rest",
                Some("ZodTuple"),
            ),
            (
                "static make = async (n: number): Promise<Store> =>",
                "make",
                Some("Promise"),
            ),
            ("total = (a + b) * c", "total", None),
            ("pub fn new(ttl: u64) -> Self", "new", Some("Self")),
            (
                "func (s *Store) Get(key string) Value",
                "Get",
                Some("Value"),
            ),
        ];
        for (sig, name, want) in cases {
            assert_eq!(return_type(sig, name), want, "{sig}");
        }
    }

    #[test]
    fn annotated_parameters() {
        let sig = "def handle_refresh(store: SessionStore, key: str) -> str";
        assert_eq!(declared_type(sig, "store"), Some("SessionStore"));
        assert_eq!(declared_type(sig, "key"), Some("str"));
        assert_eq!(declared_type(sig, "handle"), None);
        assert_eq!(
            declared_type(
                "pub fn handle_refresh(store: &mut SessionStore, key: &str)",
                "store"
            ),
            Some("SessionStore")
        );
        assert_eq!(
            declared_type("fn f<'a>(s: &'a mut crate::store::Store)", "s"),
            Some("crate::store::Store")
        );
    }

    #[test]
    fn name_then_type_parameters() {
        let sig = "func HandleRefresh(s *store.SessionStore, key string) string";
        assert_eq!(declared_type(sig, "s"), Some("store.SessionStore"));
        assert_eq!(declared_type(sig, "key"), Some("string"));
        assert_eq!(declared_type("def f(store, key)", "store"), None);
    }

    #[test]
    fn constructor_initialisers() {
        assert_eq!(
            declared_type("export const store = new SessionStore(60)", "store"),
            Some("SessionStore")
        );
        assert_eq!(
            declared_type("store = SessionStore()", "store"),
            Some("SessionStore")
        );
        assert_eq!(
            declared_type("let s = Sessions::new()", "s"),
            Some("Sessions")
        );
        assert_eq!(declared_type("x = compute(1)", "x"), Some("compute"));
        assert_eq!(declared_type("x = 3", "x"), None);
        assert_eq!(declared_type("x == y", "x"), None);
    }

    #[test]
    fn members_and_properties() {
        assert_eq!(
            declared_type("private data: Map<string, Session> = new Map();", "data"),
            Some("Map")
        );
        assert_eq!(declared_type("data: Sessions", "data"), Some("Sessions"));
        // `self.data` is not a declaration of `data` as a local.
        assert_eq!(declared_type("self.data.get(key)", "data"), None);
    }

    #[test]
    fn calls_written_as_qualifiers() {
        assert_eq!(
            call_callee("ZodTuple.create(items.map((i) => f(i)))"),
            Some(("ZodTuple.create", false))
        );
        assert_eq!(call_callee("Foo::new(x)"), Some(("Foo::new", false)));
        assert_eq!(
            call_callee("new ZodTuple({ ...d })"),
            Some(("ZodTuple", true))
        );
        assert_eq!(call_callee("Session()"), Some(("Session", false)));
        assert_eq!(call_callee("f(x)(y)"), None);
        assert_eq!(call_callee("a[0]"), None);
        assert_eq!(call_callee("g(x).h"), None);
        // A chain's link: the name called on the previous call's result.
        assert_eq!(
            call_callee("Option.builder(String.valueOf(o)).hasArg(t != null)"),
            Some(("Option.builder(String.valueOf(o)).hasArg", false))
        );
        assert_eq!(call_callee("f(x)(y).h(z)"), None);
        assert_eq!(call_callee("new B().id(k)"), Some(("new B().id", false)));
    }

    #[test]
    fn parts_of_declared_types() {
        let wrappers = vec!["Vec".to_string(), "Option".to_string()];
        assert_eq!(
            declared_type_text("strats: Vec<GlobSetMatchStrategy>", "strats"),
            Some("Vec<GlobSetMatchStrategy>")
        );
        assert_eq!(
            declared_type_text("fn f(a: HashMap<K, V>, b: u8)", "a"),
            Some("HashMap<K, V>")
        );
        assert_eq!(declared_type_text("self.a: T", "a"), None);
        assert_eq!(element_type("Vec<Strategy>", &wrappers), Some("Strategy"));
        assert_eq!(element_type("&[Rule]", &wrappers), Some("Rule"));
        assert_eq!(element_type("[Rule; 4]", &wrappers), Some("Rule"));
        assert_eq!(
            element_type("Option<crate::a::Rule>", &wrappers),
            Some("crate::a::Rule")
        );
        assert_eq!(element_type("HashMap<K, V>", &wrappers), None);
        assert_eq!(element_type("Rule", &wrappers), None);
        // Go: the brackets before the type.
        assert_eq!(element_type("[]*Require", &wrappers), Some("Require"));
        assert_eq!(element_type("[4]tlog.Hash", &wrappers), Some("tlog.Hash"));
        assert_eq!(element_type("[]", &wrappers), None);
        // Go's variadic parameter is a slice; an index takes an element of a slice only.
        assert_eq!(element_type("...Signer", &wrappers), Some("Signer"));
        assert_eq!(slice_element("...*note.Signer"), Some("note.Signer"));
        assert_eq!(slice_element("[]Expr"), Some("Expr"));
        assert_eq!(slice_element("map[string]Expr"), None);
        assert_eq!(slice_element("[Rule]"), None);
        assert_eq!(
            type_text_after_name(
                "func Sign(n *Note, signers ...Signer) ([]byte, error)",
                "signers"
            ),
            Some("...Signer")
        );
        assert_eq!(indexed("x.Stmt[0]"), Some("x.Stmt"));
        assert_eq!(indexed("x.Stmt[len(x.Stmt)-1]"), Some("x.Stmt"));
        assert_eq!(indexed("m[k[0]]"), Some("m"));
        assert_eq!(indexed("f()[0]"), None);
        assert_eq!(indexed("x.Stmt"), None);
        assert_eq!(indexed("[0]"), None);
        assert_eq!(
            type_text_after_name("Require   []*Require", "Require"),
            Some("[]*Require")
        );
        assert_eq!(
            type_text_after_name("func f(rs []*Require, n int)", "rs"),
            Some("[]*Require")
        );
        assert_eq!(type_text_after_name("def f(self, rs)", "rs"), None);
        assert_eq!(
            type_text_after_name("func f(out chan<- int, n int)", "out"),
            Some("chan<- int")
        );
        assert_eq!(
            declared_type_text("m: Map<K, V>, n: u8", "m"),
            Some("Map<K, V>")
        );
        assert_eq!(declared_type_text("x::y(z: Z)", "x"), None);
        assert_eq!(type_text_after_name("int rs = 0", "rs"), None);
        assert_eq!(
            positional_type("Extension(ExtensionStrategy)", "Extension", 0, 1),
            Some("ExtensionStrategy")
        );
        assert_eq!(
            positional_type(
                "pub struct Pair<T>(pub Vec<T>, pub(crate) Rule);",
                "Pair",
                1,
                2
            ),
            Some("Rule")
        );
        assert_eq!(
            positional_type("Extension(ExtensionStrategy)", "Extension", 1, 2),
            None
        );
        // `Quad(a, .., z)`: 3 elements for 4 fields, `z` is no field 2.
        assert_eq!(positional_type("Quad(A, B, C, D)", "Quad", 2, 3), None);
        assert_eq!(positional_type("Pair(A, B,)", "Pair", 1, 2), Some("B"));
        assert_eq!(
            positional_type("Prefix { rule: PrefixRule }", "Prefix", 0, 1),
            None
        );
        assert_eq!(part("Extension[0/1]"), Some(("Extension", "0/1")));
        assert_eq!(part("[]"), Some(("", "")));
        assert_eq!(part("Store"), None);
    }

    #[test]
    fn splitting() {
        assert_eq!(split_last("store.SessionStore"), ("store", "SessionStore"));
        assert_eq!(split_last("crate::store::S"), ("crate::store", "S"));
        assert_eq!(split_last("S"), ("", "S"));
        assert_eq!(segments("self.a::b"), vec!["self", "a", "b"]);
        assert_eq!(segments("this->store_"), vec!["this", "store_"]);
    }
}
