//! Mentions that are not uses with an edge kind: the `import.name` captures of
//! `imports.scm`, the `@mention` captures of `refs.scm` (names used as values, which
//! resolution does not link) and the words of the `@mention.text` captures (text the
//! grammar leaves unparsed, such as a macro's body). With the refs they form the file's
//! mention index: what an answer about the uses of a symbol checks its links against.
//! Capture conventions: `grammars/README.md`.

use crate::defs::{Defs, excerpt};
use crate::facts::{MentionFact, MentionKind};
use crate::ids::{IdMap, IdSet};
use crate::locals::Locals;
use crate::matches::Matches;
use crate::text::{node_text, unquote, utf16_col};

/// A name as a mention: an identifier-like word (a dotted path or a quoted phrase is not
/// one name).
fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The words of a text the grammar leaves unparsed (`@mention.text`: a macro's body), as
/// byte offsets into it: identifier-like runs that do not start with a digit, outside quoted
/// strings and comments (`"…"`, `'…'`, `//…`, `/*…*/`: a marker the language does not use
/// never occurs in its text, as in `crate::text`).
fn words(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' | '\'' => {
                // To the closing quote (a backslash escapes the next char) or the line's end.
                while let Some((_, d)) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == c || d == '\n' {
                        break;
                    }
                }
            }
            '/' if bytes.get(i + 1) == Some(&b'/') => {
                while chars.next_if(|&(_, d)| d != '\n').is_some() {}
            }
            '/' if bytes.get(i + 1) == Some(&b'*') => {
                chars.next();
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(text.len(), |e| i + 2 + e + 2);
                while chars.next_if(|&(j, _)| j < end).is_some() {}
            }
            c if word_char(c) => {
                let mut end = i + c.len_utf8();
                while let Some((j, d)) = chars.next_if(|&(_, d)| word_char(d)) {
                    end = j + d.len_utf8();
                }
                if !c.is_ascii_digit() {
                    out.push((i, &text[i..end]));
                }
            }
            _ => {}
        }
    }
    out
}

pub fn extract(
    refs: &Matches,
    imports: &Matches,
    source: &str,
    defs: &Defs,
    locals: &Locals,
) -> Vec<MentionFact> {
    // Name nodes that are refs already (they carry their own kind).
    let mut taken: IdSet = IdSet::default();
    for m in refs {
        if m.with_prefix("reference.").is_some()
            && let Some(name) = m.get("name")
        {
            taken.insert(name.id());
        }
    }
    let mut found: IdMap<MentionFact> = IdMap::default();
    // The qualifier's text is made only for a name that may still be a mention: most
    // `@mention` names with one are a method call's (`x.f()`), a reference already.
    let mut add =
        |kind: MentionKind, name: tree_sitter::Node, qualifier: Option<tree_sitter::Node>| {
            if taken.contains(&name.id())
                || defs.not_refs.contains(&name.id())
                || found.contains_key(&name.id())
            {
                return;
            }
            let qualifier = qualifier
                .map(|q| excerpt(&q, source))
                .filter(|q| !q.is_empty());
            // A bare local (a parameter passed on, `f(client)`) is not a mention of any
            // definition; a quoted name (`getattr(obj, "client")`) is not the local.
            if qualifier.is_none()
                && kind == MentionKind::Value
                && locals.shadows(node_text(&name, source), name.start_byte())
            {
                return;
            }
            let text = unquote(node_text(&name, source).trim());
            if !is_word(text) {
                return;
            }
            let pos = name.start_position();
            found.insert(
                name.id(),
                MentionFact {
                    from: defs.innermost(name.start_byte(), name.end_byte()),
                    kind,
                    name: text.to_string(),
                    qualifier,
                    line: pos.row as u32,
                    col: utf16_col(source, name.start_byte(), pos.column),
                },
            );
        };
    for m in refs {
        if m.get("mention").is_none() {
            continue;
        }
        if let Some(name) = m.get("name") {
            add(MentionKind::Value, name, m.get("qualifier"));
        }
    }
    let joined = crate::imports::joined_statements(imports);
    for m in imports {
        if let Some(s) = m.get("import.joined")
            && !joined.contains(&s.id())
        {
            continue;
        }
        for name in m.all("import.name") {
            add(MentionKind::Import, name, None);
        }
    }
    let mut out: Vec<MentionFact> = found.into_values().collect();
    for m in refs {
        if let Some(node) = m.get("mention.text") {
            text_mentions(node, source, defs, locals, &mut out);
        }
    }
    out.sort_by_key(|m| (m.line, m.col));
    out
}

/// The words of an unparsed text (`@mention.text`) as value mentions, each from the
/// innermost definition around it (the macro whose body it is). A word bound as a local
/// there (a macro's parameter) is no mention, as for a bare name in code.
fn text_mentions(
    node: tree_sitter::Node,
    source: &str,
    defs: &Defs,
    locals: &Locals,
    out: &mut Vec<MentionFact>,
) {
    let text = node_text(&node, source);
    let start = node.start_byte();
    let pos = node.start_position();
    // Line and line-start byte of the word being placed, advanced word by word.
    let (mut line, mut line_start, mut seen) = (pos.row, start - pos.column, 0);
    for (off, word) in words(text) {
        for (i, _) in text[seen..off].match_indices('\n') {
            line += 1;
            line_start = start + seen + i + 1;
        }
        seen = off;
        let at = start + off;
        if locals.shadows(word, at) {
            continue;
        }
        out.push(MentionFact {
            from: defs.innermost(at, at + word.len()),
            kind: MentionKind::Text,
            name: word.to_string(),
            qualifier: None,
            line: line as u32,
            col: utf16_col(source, at, at - line_start),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    fn names(text: &str) -> Vec<&str> {
        words(text).into_iter().map(|(_, w)| w).collect()
    }

    #[test]
    fn words_skip_strings_comments_and_numbers() {
        assert_eq!(
            names("f(x, \"g h\", 'i') /* j */ + 0x1F + k // l\n m"),
            ["f", "x", "k", "m"]
        );
        assert_eq!(names("a->b.c ## d \\\n e_1"), ["a", "b", "c", "d", "e_1"]);
        assert_eq!(names("\"unterminated\n z"), ["z"]);
    }

    #[test]
    fn words_are_at_their_byte_offsets() {
        let text = "é(ünï, x)";
        for (at, w) in words(text) {
            assert_eq!(&text[at..at + w.len()], w);
        }
        assert_eq!(names(text), ["é", "ünï", "x"]);
    }
}
