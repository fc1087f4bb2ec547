//! Attribute macros as a preprocessor would see them: gone. `class V8_EXPORT Context :
//! public Data {`, `V8_INLINE static T* f(…)`, `V8_DEPRECATED("…") void g();` are read
//! by a grammar that knows no macros as a class named `V8_EXPORT` plus an error, and the
//! error's recovery may close the enclosing namespace early, so that every later
//! out-of-class member definition loses its namespace. The macro-like words standing where
//! an attribute stands are blanked, byte for byte (line breaks kept), so positions stay
//! where they were.
//!
//! Used only when a file does not parse as written, and kept only when the blanked text
//! parses with fewer errors (`lib.rs`), so code that parses is never changed. Which words
//! look like macros and where they may stand is described on
//! [`navmap_language::AttributeMacros`]; the comment, literal and directive syntax is the
//! language's (`[attribute_macros]` in its manifest).

use navmap_language::AttributeMacros;

/// Per byte of `source`: whether it is code (not inside a comment, a literal, or a
/// directive line with its `\` continuations).
fn code_bytes(source: &str, lexis: &AttributeMacros) -> Vec<bool> {
    let bytes = source.as_bytes();
    let mut code = vec![true; bytes.len()];
    let line = lexis.line_comment.as_bytes();
    let [open, close] = &lexis.block_comment;
    let (open, close) = (open.as_bytes(), close.as_bytes());
    let directive = lexis.directive.as_bytes();
    let starts = |at: usize, s: &[u8]| !s.is_empty() && bytes[at..].starts_with(s);
    let mut line_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if line_start && (b == b' ' || b == b'\t') {
            i += 1;
            continue;
        }
        let first_on_line = std::mem::take(&mut line_start);
        let end = if first_on_line && starts(i, directive) {
            // To the end of the line, and of each line continued with `\`.
            let mut e = i;
            loop {
                let eol = bytes[e..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(bytes.len(), |p| e + p);
                let continued = source[e..eol].trim_end().ends_with('\\');
                if !continued || eol >= bytes.len() {
                    break eol;
                }
                e = eol + 1;
            }
        } else if starts(i, line) {
            bytes[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |p| i + p)
        } else if !close.is_empty() && starts(i, open) {
            // A manifest whose block comment has an empty delimiter has none.
            find(bytes, i + open.len(), close).map_or(bytes.len(), |p| p + close.len())
        } else if lexis.quotes.iter().any(|q| starts(i, q.as_bytes())) {
            literal_end(bytes, i)
        } else {
            i += 1;
            continue;
        };
        code[i..end].iter_mut().for_each(|c| *c = false);
        i = end;
    }
    code
}

/// The first position at or after `from` where `what` (not empty) starts.
fn find(bytes: &[u8], from: usize, what: &[u8]) -> Option<usize> {
    if what.is_empty() {
        return None;
    }
    (from..=bytes.len().checked_sub(what.len())?).find(|&p| bytes[p..].starts_with(what))
}

/// The end of the literal opened by the quote at `at` (a `\` escapes; a line break ends an
/// unclosed one, so a stray quote never hides the rest of the file).
fn literal_end(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A macro-like word: capitals, digits and `_`, a capital first, at least one `_`.
fn looks_like_macro(word: &[u8]) -> bool {
    word.first().is_some_and(u8::is_ascii_uppercase)
        && word.contains(&b'_')
        && word
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// `source` with the macro-like words that stand as attributes blanked, or `None` when
/// there is none.
#[cfg(test)]
pub fn blanked(source: &str, lexis: &AttributeMacros) -> Option<String> {
    blank(source, lexis).map(|b| b.text)
}

/// A text with its attribute macros blanked, and where the macros' names stood.
pub struct Blanked {
    pub text: String,
    /// The byte range of each blanked macro's name (`V8_DEPRECATED` of
    /// `V8_DEPRECATED("…")`), in order: each is a use of that macro.
    pub words: Vec<(usize, usize)>,
}

/// [`blanked`], with where the macros' names stood.
pub fn blank(source: &str, lexis: &AttributeMacros) -> Option<Blanked> {
    let bytes = source.as_bytes();
    let code = code_bytes(source, lexis);
    // The next code byte at or after `i` that is not blank.
    let next = |mut i: usize| {
        while i < bytes.len() && (!code[i] || bytes[i].is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let word_end = |mut i: usize| {
        while i < bytes.len() && is_word_byte(bytes[i]) {
            i += 1;
        }
        i
    };
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut words: Vec<(usize, usize)> = Vec::new();
    // The last code byte before the current word that is not blank.
    let mut before: u8 = b'\n';
    let mut i = 0;
    while i < bytes.len() {
        if !code[i] || bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if !is_word_byte(bytes[i]) {
            before = bytes[i];
            i += 1;
            continue;
        }
        let end = word_end(i);
        if !looks_like_macro(&bytes[i..end]) {
            before = bytes[end - 1];
            i = end;
            continue;
        }
        // Its arguments, if any: `V8_DEPRECATED("…")`.
        let mut span_end = end;
        let mut after = next(end);
        let with_arguments = bytes.get(after) == Some(&b'(');
        if with_arguments {
            let Some(close) = matching_paren(bytes, &code, after) else {
                before = bytes[end - 1];
                i = end;
                continue;
            };
            span_end = close + 1;
            after = next(span_end);
        }
        let then = bytes.get(after).copied();
        let then_word = then.is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'~');
        let attribute = if then_word {
            // `FOO_T x;`, `const FOO_T x = …`: a declaration of a variable of a type
            // spelled in capitals, not an attribute.
            let x_end = word_end(after);
            let x_then = bytes.get(next(x_end)).copied();
            with_arguments || !matches!(x_then, Some(b';' | b'=' | b',' | b')' | b'['))
        } else {
            // After a declarator: `f() V8_NOEXCEPT {`, `g() V8_WARN_UNUSED_RESULT;`.
            !with_arguments && before == b')' && matches!(then, Some(b';' | b'{'))
        };
        if attribute {
            spans.push((i, span_end));
            words.push((i, end));
        }
        before = bytes[span_end - 1];
        i = span_end;
    }
    if spans.is_empty() {
        return None;
    }
    let mut out = bytes.to_vec();
    for (s, e) in spans {
        for b in &mut out[s..e] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Only whole ASCII words and whole literals inside their arguments were blanked; a
    // multi-byte character inside them became blanks byte by byte, still valid UTF-8.
    let text = String::from_utf8(out).ok()?;
    Some(Blanked { text, words })
}

/// The `)` closing the `(` at `open`, counting only code bytes.
fn matching_paren(bytes: &[u8], code: &[bool], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if !code[i] {
            continue;
        }
        match b {
            b'(' => depth += 1,
            b')' => {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lexis() -> AttributeMacros {
        AttributeMacros {
            line_comment: "//".into(),
            block_comment: ["/*".into(), "*/".into()],
            quotes: vec!["\"".into(), "'".into()],
            directive: "#".into(),
        }
    }

    fn kept(src: &str) -> String {
        let out = blanked(src, &lexis()).unwrap_or_else(|| src.to_string());
        assert_eq!(out.len(), src.len());
        assert_eq!(out.lines().count(), src.lines().count());
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// A manifest whose block comment has an empty delimiter (`["/*", ""]`, `["", "*/"]`)
    /// has no block comments: no panic (`what.len() - 1` underflowed), macros still blanked.
    #[test]
    fn an_empty_block_comment_delimiter_is_no_block_comment() {
        for block_comment in [["/*".into(), "".into()], ["".into(), "*/".into()]] {
            let lexis = AttributeMacros {
                block_comment,
                ..lexis()
            };
            let out = blanked("class V8_EXPORT Context /* x */ {", &lexis).unwrap();
            assert_eq!(
                out.split_whitespace().collect::<Vec<_>>().join(" "),
                "class Context /* x */ {"
            );
        }
        assert_eq!(find(b"ab*/", 0, b"*/"), Some(2));
        assert_eq!(find(b"ab", 0, b""), None);
        assert_eq!(find(b"", 0, b"*/"), None);
    }

    #[test]
    fn attribute_words_become_blanks_of_the_same_length() {
        assert_eq!(
            kept("class V8_EXPORT Context : public Data {"),
            "class Context : public Data {"
        );
        assert_eq!(
            kept("  V8_INLINE static T* New(Isolate* i);"),
            "static T* New(Isolate* i);"
        );
        assert_eq!(
            kept("V8_DEPRECATED(\"Use (g) instead\")\n  void f();"),
            "void f();"
        );
        assert_eq!(
            kept("static void* CPPGC_DEFAULT_ALIGNED Allocate(int);"),
            "static void* Allocate(int);"
        );
        assert_eq!(kept("Foo() V8_NOEXCEPT {}"), "Foo() {}");
    }

    #[test]
    fn code_that_only_looks_alike_is_left_alone() {
        for src in [
            "FOO_T x;",
            "const SIZE_T n = 0, m = 1;",
            "f(MAX_LEN, y);",
            "return FOO_BAR;",
            "FILE f; T g(x);",
            "#ifdef V8_ENABLE_CHECKS\nx();\n#endif",
            "#define DEF(n) V8_EXPORT static \\\n  int n;",
            "// V8_INLINE int f();",
            "/* V8_EXPORT Foo */",
            "s = \"V8_EXPORT Foo\";",
            "CHECK_EQ(a, b);",
        ] {
            assert!(blanked(src, &lexis()).is_none(), "{src}");
        }
    }
}
