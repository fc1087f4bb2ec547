//! Receiver typing from declarations, without a type checker.
//!
//! `store.refresh()` resolves only if we know what `store` is. Extraction gives us the
//! one-line signature of every definition; a parameter or variable declared there with a
//! type (`store: SessionStore`, `s *store.SessionStore`, `store: &mut SessionStore`) or
//! initialised with a constructor (`store = new SessionStore(60)`, `= SessionStore()`)
//! names the type; a variable initialised by a call of a *function* (`c := NewContext(w)`)
//! is typed, one level deep, by the type that function's signature returns (`return_type`).
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
        if (at > 0 && is_ident_byte(bytes[at - 1])) || !sig[end..].starts_with('(') {
            continue;
        }
        let close = matching_paren(sig, end)?;
        let mut rest = sig[close + 1..].trim_start();
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
    fn splitting() {
        assert_eq!(split_last("store.SessionStore"), ("store", "SessionStore"));
        assert_eq!(split_last("crate::store::S"), ("crate::store", "S"));
        assert_eq!(split_last("S"), ("", "S"));
        assert_eq!(segments("self.a::b"), vec!["self", "a", "b"]);
        assert_eq!(segments("this->store_"), vec!["this", "store_"]);
    }
}
