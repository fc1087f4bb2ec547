//! Macro arguments parsed again as code. A grammar keeps a macro's arguments as a flat
//! token tree (`assert!(parse(x))`: the identifier `parse` and a token tree `(x)`), so the
//! calls in them are invisible to the queries. The nodes a query marks `@reparse` are
//! copied into a *shadow* text of the same length — blanks everywhere else, line breaks
//! kept, so every byte offset, line and column is the original's — wrapped as the
//! manifest's `[reparse]` says (a function body: `prefix`, each copy followed by
//! `separator`, `suffix` at the end); the shadow is parsed and its uses are the file's.

use navmap_language::Reparse;

use crate::compiled::{Compiled, Section};
use crate::defs::Defs;
use crate::facts::{MentionFact, RefFact};
use crate::locals::Locals;
use crate::matches::{self, Matches};

/// The uses (references and mentions) that the refs patterns of `query` find in the spans
/// of `source` (macro arguments, nested ones copied with their outermost) when parsed again
/// in a [`shadow`], at their own positions in `source`; spans that `keep` turns down are
/// not parsed.
#[allow(clippy::too_many_arguments)]
pub fn uses(
    compiled: &Compiled,
    query: &tree_sitter::Query,
    spans: &mut [(usize, usize)],
    source: &str,
    wrap: &Reparse,
    defs: &Defs,
    locals: &Locals,
    keep: impl Fn(&str) -> bool,
) -> (Vec<RefFact>, Vec<MentionFact>) {
    let Some((mut shadow, mut tree)) = parsed(compiled, source, spans, wrap, &keep) else {
        return Default::default();
    };
    // A copy that does not parse sends the parser into error recovery, which reads on
    // through the copies after it (a string's words read as code, a statement swallowed):
    // what it finds then depends on every copy, the ones left out too. So a shadow with an
    // error is parsed again with every copy, as if none had been left out.
    if shadow.left_out && tree.root_node().has_error() {
        let Some(again) = parsed(compiled, source, spans, wrap, &|_: &str| true) else {
            return Default::default();
        };
        (shadow, tree) = again;
    }
    let shadow = shadow.text;
    // Predicates read the shadow; facts read the source (the same bytes inside the copies,
    // and columns count the source's characters before them).
    let mut found = [Matches::default()];
    matches::each(query, tree.root_node(), &shadow, &mut found, |pattern| {
        (compiled.section(pattern) == Some(Section::Refs)).then_some(0)
    });
    let found = &found[0];
    let refs = crate::refs::extract(found, source, defs, locals);
    let mentions = crate::mentions::extract(found, &Matches::default(), source, defs, locals);
    (refs, mentions)
}

/// The shadow text for the byte ranges `spans` of `source`, or `None` when there is
/// nothing to copy or no room for the prefix before the first span. Nested spans are
/// copied once, with their outermost span; an outermost span that `keep` turns down is
/// left blank (see [`may_name`]).
pub struct Shadow {
    pub text: String,
    /// The parts of `text` to parse (the wrapper and the copies), in order: the parser
    /// skips the blanks between them instead of reading them.
    pub ranges: Vec<tree_sitter::Range>,
    /// Whether `keep` turned a copy down.
    pub left_out: bool,
}

pub fn shadow(
    source: &str,
    spans: &mut [(usize, usize)],
    wrap: &Reparse,
    keep: impl Fn(&str) -> bool,
) -> Option<Shadow> {
    spans.sort_by_key(|&(s, e)| (s, std::cmp::Reverse(e)));
    let mut outer: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in spans.iter() {
        if outer.last().is_none_or(|&(_, last_end)| s >= last_end) {
            outer.push((s, e));
        }
    }
    // The prefix's room is looked for before the first span, kept or not, and each
    // separator before the next span, kept or not: a span left out changes no other
    // byte of the shadow.
    let first = outer.first()?.0;
    let kept: Vec<bool> = outer
        .iter()
        .map(|&(s, e)| source.get(s..e).is_some_and(&keep))
        .collect();
    if !kept.contains(&true) {
        return None;
    }
    let bytes = source.as_bytes();
    let mut text: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\n' { b'\n' } else { b' ' })
        .collect();
    // The prefix goes into blanks before the first copy, on one line (a line break it
    // overwrote would shift every later line).
    let at = free_run(&text, 0, first, wrap.prefix.len())?;
    text[at..at + wrap.prefix.len()].copy_from_slice(wrap.prefix.as_bytes());
    let mut parts = vec![(at, at + wrap.prefix.len())];
    let sep = wrap.separator.as_bytes();
    for (i, &(s, e)) in outer.iter().enumerate() {
        if !kept[i] {
            continue;
        }
        text[s..e].copy_from_slice(&bytes[s..e]);
        parts.push((s, e));
        // Each copy is closed by a separator in the blanks before the next one; with no
        // room for it there, the copies run together and that part parses as it may.
        let next = outer.get(i + 1).map_or(text.len(), |n| n.0);
        if let Some(at) = free_run(&text, e, next, sep.len()) {
            text[at..at + sep.len()].copy_from_slice(sep);
            parts.push((at, at + sep.len()));
        }
    }
    let end = text.len();
    text.extend_from_slice(wrap.separator.as_bytes());
    text.extend_from_slice(wrap.suffix.as_bytes());
    parts.push((end, text.len()));
    let ranges = with_points(&text, &parts);
    // Whole UTF-8 sequences were copied and everything else is ASCII.
    let text = String::from_utf8(text).ok()?;
    let left_out = kept.contains(&false);
    Some(Shadow {
        text,
        ranges,
        left_out,
    })
}

/// The shadow of `spans` (the copies `keep` takes) and its parse.
fn parsed(
    compiled: &Compiled,
    source: &str,
    spans: &mut [(usize, usize)],
    wrap: &Reparse,
    keep: &dyn Fn(&str) -> bool,
) -> Option<(Shadow, tree_sitter::Tree)> {
    let shadow = shadow(source, spans, wrap, keep)?;
    let tree = crate::PARSER.with(|parser| {
        let mut parser = parser.borrow_mut();
        parser.set_language(&compiled.grammar).ok()?;
        parser.set_included_ranges(&shadow.ranges).ok()?;
        let tree = parser.parse(&shadow.text, None);
        // The next file is parsed whole.
        let _ = parser.set_included_ranges(&[]);
        tree
    })?;
    Some((shadow, tree))
}

/// Byte ranges (sorted, disjoint) as tree-sitter ranges, their points found in one pass.
fn with_points(text: &[u8], parts: &[(usize, usize)]) -> Vec<tree_sitter::Range> {
    let mut row = 0;
    let mut line_start = 0;
    let mut pos = 0;
    let mut point = |at: usize| {
        for (i, &b) in text[pos..at].iter().enumerate() {
            if b == b'\n' {
                row += 1;
                line_start = pos + i + 1;
            }
        }
        pos = at;
        tree_sitter::Point::new(row, at - line_start)
    };
    parts
        .iter()
        .map(|&(s, e)| {
            let start_point = point(s);
            let end_point = point(e);
            tree_sitter::Range {
                start_byte: s,
                end_byte: e,
                start_point,
                end_point,
            }
        })
        .collect()
}

/// The start of the first run of `len` blanks (no line break) in `text[from..to]`.
fn free_run(text: &[u8], from: usize, to: usize, len: usize) -> Option<usize> {
    let mut run = 0;
    for (i, &b) in text.get(from..to)?.iter().enumerate() {
        run = if b == b' ' { run + 1 } else { 0 };
        if run == len {
            return Some(from + i + 1 - len);
        }
    }
    None
}

/// Whether a copy of `text` (a macro's arguments) may yield a use when parsed again: every
/// use and mention the reparse finds is named by an identifier (a call's, a type's, a
/// field's, a value's name, or a word of a nested macro's arguments, which follow that
/// macro's name), and text with no word character outside its literals holds none
/// (`("done")`, `()`, `[0; 16]`, `("{}: {}", 1, 2.5e3)`): no parse can find a use in it.
///
/// Literals read as tokens: a `"…"` string (a backslash escapes the next byte), a one-char
/// `'x'` or escaped `'\n'` quote, a plain number (`number_end`). Anything this reading is
/// unsure of counts as a possible name, so that no use is lost: a letter or `_` or
/// non-ASCII byte outside a literal (a prefixed or raw string `r"…"` starts with one), a
/// number with a suffix (`10u32`, `123abc`: a lexer may read the suffix as a name), a
/// quote that is not a one-char literal (`'a` is a label), a literal left open at the end
/// (error recovery may read its words as code), a comment (`//`, `/*`: a quote in it
/// would mislead the reading).
pub fn may_name(text: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                loop {
                    match b.get(i) {
                        None => return true,
                        Some(b'\\') => i += 2,
                        Some(b'"') => break,
                        Some(_) => i += 1,
                    }
                }
                i += 1;
            }
            b'\'' => {
                // `'\…'`: an escape up to the next quote on the line; `'x'`: one char.
                let close = if b.get(i + 1) == Some(&b'\\') {
                    b.get(i + 3..)
                        .and_then(|rest| rest.iter().position(|&c| c == b'\'' || c == b'\n'))
                        .map(|at| i + 3 + at)
                } else {
                    text.get(i + 1..)
                        .and_then(|rest| rest.chars().next())
                        .map(|c| i + 1 + c.len_utf8())
                };
                match close {
                    Some(at) if b.get(at) == Some(&b'\'') => i = at + 1,
                    _ => return true,
                }
            }
            b'/' if matches!(b.get(i + 1), Some(b'/' | b'*')) => return true,
            b'0'..=b'9' => match number_end(b, i) {
                Some(end) => i = end,
                None => return true,
            },
            c if word(c) || !c.is_ascii() => return true,
            _ => i += 1,
        }
    }
    false
}

/// The end of the plain number at `b[i]` (a digit): `0x`, `0o`, `0b` and their digits, or
/// decimal digits with an optional exponent (`1e-5`; `2.5e3` is read as `2`, `.`, `5e3`),
/// `_` anywhere after the first digit. `None` when a word character follows (a suffix).
fn number_end(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |i: &mut usize, digit: fn(u8) -> bool| {
        while *i < b.len() && (digit(b[*i]) || b[*i] == b'_') {
            *i += 1;
        }
    };
    match (b[i], b.get(i + 1)) {
        (b'0', Some(b'x')) => {
            i += 2;
            digits(&mut i, |c| c.is_ascii_hexdigit());
        }
        (b'0', Some(b'o')) => {
            i += 2;
            digits(&mut i, |c| (b'0'..=b'7').contains(&c));
        }
        (b'0', Some(b'b')) => {
            i += 2;
            digits(&mut i, |c| c == b'0' || c == b'1');
        }
        _ => {
            digits(&mut i, |c| c.is_ascii_digit());
            if matches!(b.get(i), Some(b'e' | b'E')) {
                let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
                if b.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
                    i += 1 + sign;
                    digits(&mut i, |c| c.is_ascii_digit());
                }
            }
        }
    }
    let suffixed = b
        .get(i)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || !c.is_ascii());
    (!suffixed).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The uses the reparse finds in `source`'s `@reparse` spans, with `keep` as the
    /// filter of the spans, as `crate::extract` runs it.
    fn reparsed(source: &str, keep: fn(&str) -> bool) -> (Vec<RefFact>, Vec<MentionFact>) {
        let registry = navmap_grammars::registry();
        let lang = registry.by_id("rs").unwrap();
        let compiled = crate::compiled::get(lang, "rs").unwrap();
        let query = compiled.query.as_ref().unwrap();
        let tree = crate::parse(&compiled.grammar, source).unwrap();
        let mut sections: [Matches; 4] = Default::default();
        matches::each(query, tree.root_node(), source, &mut sections, |p| {
            compiled.section(p).map(|s| s as usize)
        });
        let defs = crate::defs::extract(&sections[0], source, tree.root_node());
        let locals = crate::locals::extract(&sections[3], &sections[2], source, &defs);
        let mut spans: Vec<(usize, usize)> = sections[1]
            .iter()
            .filter_map(|m| m.get("reparse"))
            .map(|n| (n.start_byte(), n.end_byte()))
            .collect();
        let wrap = lang.manifest.reparse.as_ref().unwrap();
        uses(
            &compiled, query, &mut spans, source, wrap, &defs, &locals, keep,
        )
    }

    fn names(found: &(Vec<RefFact>, Vec<MentionFact>)) -> Vec<String> {
        let refs = found.0.iter().map(|r| r.name.clone());
        refs.chain(found.1.iter().map(|m| m.name.clone())).collect()
    }

    /// Arguments with no word outside their literals, parsed again all the same, yield
    /// nothing: what `may_name` turns down loses no use.
    #[test]
    fn arguments_without_a_name_yield_nothing() {
        let source = r#"fn run() {
    println!("done {} {}", 1, 2.5e3);
    todo!();
    panic!("a 'b' \"c\" {x}");
    assert!(1 == 1, "{}", '\n');
    let v = vec![0; 0x1F];
    eprintln!("{}", ['a', '\'', '\u{1F600}', 'é']);
    unreachable!("{}", -1_000 + 1e-5);
}
"#;
        let spans = reparsed(source, |_| true);
        assert_eq!(names(&spans), Vec::<String>::new());
        // Each span really is turned down (else the test would prove nothing).
        let kept = reparsed(source, |text| {
            assert!(!may_name(text), "{text}");
            true
        });
        assert!(kept.0.is_empty() && kept.1.is_empty());
        assert_eq!(reparsed(source, may_name).0.len(), 0);
    }

    /// Arguments with a name still yield their uses, the same with the filter as without.
    #[test]
    fn arguments_with_a_name_keep_their_uses() {
        let source = r#"fn run(x: u32) {
    println!("done");
    assert!(parse(x), "{}", Kind::A);
    let v = vec![make(); 10u32];
    todo!();
    eprintln!("{}", x.len);
    debug_assert!(1 < 'a'.len_utf8(), "{}", 'b);
}
"#;
        let all = reparsed(source, |_| true);
        let filtered = reparsed(source, may_name);
        assert_eq!(names(&filtered), names(&all));
        let found = names(&filtered);
        for name in ["parse", "Kind", "make", "len", "len_utf8"] {
            assert!(found.iter().any(|n| n == name), "{name} in {found:?}");
        }
        assert_eq!(format!("{:?}", filtered.0), format!("{:?}", all.0));
        assert_eq!(format!("{:?}", filtered.1), format!("{:?}", all.1));
    }

    /// A shadow with an error is parsed again with every copy: what error recovery finds
    /// depends on the copies left out too. Without an error, a copy turned down stays out.
    #[test]
    fn a_shadow_with_an_error_is_parsed_again_whole() {
        let not_skipme: fn(&str) -> bool = |text| !text.contains("skipme");
        let clean = "fn run() {\n    assert!(skipme(x));\n    assert!(other(y));\n}\n";
        let found = names(&reparsed(clean, not_skipme));
        assert!(found.contains(&"other".to_string()), "{found:?}");
        assert!(!found.contains(&"skipme".to_string()), "{found:?}");
        // `(s, Some(v) if v > 1);` is no statement.
        let broken = "fn run() {\n    matches!(s, Some(v) if v > 1);\n    assert!(skipme(x));\n}\n";
        let found = names(&reparsed(broken, not_skipme));
        assert!(found.contains(&"skipme".to_string()), "{found:?}");
    }

    #[test]
    fn what_may_hold_a_name() {
        for text in [
            "(\"done\")",
            "()",
            "[0; 16]",
            "(\"{}: {}\", 1, 2.5e3, 0x1F, 0b10, 0o7, 1_000, 1E+9)",
            "('x', '\\'', '\\u{41}', 'é', \"\\\"\")",
            "(-1 + 2 * (3 / 4) % 5, [1, 2], {})",
        ] {
            assert!(!may_name(text), "{text}");
        }
        for text in [
            "(x)",
            "(_)",
            "(é)",
            "(r\"raw\")",
            "(b\"bytes\")",
            "(10u32)",
            "(123abc)",
            "(0b12)",
            "(1e)",
            "('a)",
            "(\"open)",
            "('\\n)",
            "(1 // note\n)",
            "(1 /* \" */)",
            "(1.max(2))",
        ] {
            assert!(may_name(text), "{text}");
        }
    }
}
