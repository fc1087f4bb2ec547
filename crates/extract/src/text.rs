//! Small text helpers: UTF-16 columns, one-line signatures, first doc sentences.
//!
//! Comment-marker stripping knows the common comment syntaxes (`//`, `///`, `/** */`, `#`,
//! triple-quoted strings) without knowing which language uses which: a marker that a
//! language doesn't use never occurs at the start of its comments.

use tree_sitter::Node;

/// The cap on signatures, doc lines and qualifiers, in chars.
pub const CAP: usize = 200;

/// The source text of a node ("" if the range is not on char boundaries, which tree-sitter
/// never produces for valid UTF-8).
pub fn node_text<'s>(node: &Node, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or("")
}

/// 0-based UTF-16 column of a byte offset on its line.
pub fn utf16_col(source: &str, byte: usize, byte_col: usize) -> u32 {
    let start = byte.saturating_sub(byte_col);
    let prefix = source.get(start..byte).unwrap_or("");
    // Counted on the bytes (one pass the compiler vectorises, where decoding each char is
    // a branch per byte): every char's first byte is one unit, a 4-byte char's first byte
    // (`0xF0`–`0xF4`) one more, its surrogate pair.
    prefix
        .bytes()
        .map(|b| usize::from((b & 0xC0) != 0x80) + usize::from(b >= 0xF0))
        .sum::<usize>() as u32
}

/// Collapses every run of whitespace to one space and trims.
pub fn one_line(text: &str) -> String {
    if text.is_ascii() {
        return one_line_ascii(text);
    }
    one_line_any(text)
}

/// [`one_line`] of any text, char by char.
fn one_line_any(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(CAP * 4));
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > CAP * 4 {
            break;
        }
    }
    out
}

/// [`one_line`] of ASCII text, byte by byte (the common case: decoding chars to ask each
/// whether it is Unicode whitespace costs several times more). The same words and the same
/// stop: after the first word that takes the text past `CAP * 4` bytes.
fn one_line_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(CAP * 4));
    // `char::is_whitespace` over ASCII: the vertical tab too, unlike `is_ascii_whitespace`.
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r');
    let mut between = false;
    for &b in text.as_bytes() {
        if space(b) {
            between = true;
            continue;
        }
        if between && !out.is_empty() {
            if out.len() > CAP * 4 {
                break;
            }
            out.push(' ');
        }
        between = false;
        out.push(char::from(b));
    }
    out
}

/// Cuts to at most [`CAP`] chars, marking a cut with `…`.
pub fn cap(text: String) -> String {
    if text.chars().count() <= CAP {
        return text;
    }
    let mut out: String = text.chars().take(CAP - 1).collect();
    out.push('…');
    out
}

/// The one-line signature of a definition: its text up to its body when the query
/// captured one (minus a trailing `{`, `:`, `;` or `=`), else its first line.
pub fn signature(def: &Node, body: Option<&Node>, source: &str) -> Option<String> {
    let text = match body {
        Some(body) if body.start_byte() > def.start_byte() => {
            let head = source
                .get(def.start_byte()..body.start_byte())
                .unwrap_or("");
            let head = one_line(head);
            // `=` too: expression bodies (`def f(): T = …`, `fun f() = …`).
            head.trim_end_matches(['{', ':', ';', '=', ' ']).to_string()
        }
        _ => {
            let first = node_text(def, source).lines().next().unwrap_or("");
            one_line(first)
                .trim_end_matches(['{', ';', ' '])
                .to_string()
        }
    };
    (!text.is_empty()).then(|| cap(text))
}

/// The first sentence of a comment or docstring (of a run of line comments joined with
/// `\n`), without its markers: the first paragraph (up to a blank line, a `@tag` line or a
/// Markdown heading) cut after its first sentence, at most [`CAP`] chars. A sentence that
/// wraps over several physical lines stays whole, so a doc is never cut mid-sentence at a
/// line break.
pub fn first_doc_sentence(raw: &str) -> Option<String> {
    let mut para: Vec<&str> = Vec::new();
    for line in raw.lines() {
        let line = strip_tags(strip_markers(line.trim()));
        let ends_para = line.is_empty() || line.starts_with('@') || line.starts_with("# ");
        if ends_para {
            if para.is_empty() {
                continue;
            }
            break;
        }
        para.push(line);
        if para.iter().map(|l| l.len()).sum::<usize>() > CAP * 4 {
            break;
        }
    }
    if para.is_empty() {
        return None;
    }
    let text = one_line(&para.join(" "));
    Some(cap(first_sentence(&text).to_string()))
}

/// `text` up to and including the first `.`, `!` or `?` that ends a sentence: followed by
/// the end or by whitespace and not closing an abbreviation like `e.g.`.
fn first_sentence(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let after = i + 1;
        if after < bytes.len() && !bytes[after].is_ascii_whitespace() {
            continue;
        }
        let word = text[..i].rsplit(' ').next().unwrap_or("");
        if c == '.'
            && matches!(
                word.to_ascii_lowercase().as_str(),
                "e.g" | "i.e" | "etc" | "vs" | "cf"
            )
        {
            continue;
        }
        return &text[..after];
    }
    text
}

fn strip_markers(line: &str) -> &str {
    const OPEN: [&str; 17] = [
        "///", "//!", "/**", "/*!", "//", "/*", "r\"\"\"", "u\"\"\"", "\"\"\"", "r'''", "'''", "#",
        "*", "\"", "'", "---", "--",
    ];
    const CLOSE: [&str; 5] = ["*/", "\"\"\"", "'''", "\"", "'"];
    let mut s = line;
    for open in OPEN {
        if let Some(rest) = s.strip_prefix(open) {
            s = rest;
            break;
        }
    }
    let mut s = s.trim();
    for close in CLOSE {
        if let Some(rest) = s.strip_suffix(close) {
            s = rest;
            break;
        }
    }
    s.trim()
}

/// `<tag …>text</tag>` → `text`: a leading opening tag and a trailing closing tag, each a
/// `<` + letter … `>` run; anything else is left as written.
fn strip_tags(line: &str) -> &str {
    let is_tag = |t: &str| {
        t.strip_prefix('<')
            .and_then(|r| r.strip_prefix('/').or(Some(r)))
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()))
    };
    let mut s = line;
    if s.starts_with('<')
        && let Some(end) = s.find('>')
        && is_tag(&s[..end])
    {
        s = s[end + 1..].trim_start();
    }
    if s.ends_with('>')
        && let Some(start) = s.rfind("</")
        && is_tag(&s[start..s.len() - 1])
    {
        s = s[..start].trim_end();
    }
    s
}

/// A module specifier without its quotes (`"./store"` → `./store`).
pub fn unquote(text: &str) -> &str {
    text.trim().trim_matches(['"', '\'', '`'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_markers_are_stripped() {
        assert_eq!(
            first_doc_sentence("/// Keeps sessions.\n/// More.").as_deref(),
            Some("Keeps sessions.")
        );
        assert_eq!(
            first_doc_sentence("/**\n * Keeps sessions.\n */").as_deref(),
            Some("Keeps sessions.")
        );
        assert_eq!(
            first_doc_sentence("\"\"\"Keeps sessions.\"\"\"").as_deref(),
            Some("Keeps sessions.")
        );
        assert_eq!(
            first_doc_sentence("\"\"\"\n    Keeps.\n    \"\"\"").as_deref(),
            Some("Keeps.")
        );
        assert_eq!(
            first_doc_sentence("// Get returns it.").as_deref(),
            Some("Get returns it.")
        );
        assert_eq!(first_doc_sentence("# comment").as_deref(), Some("comment"));
        assert_eq!(first_doc_sentence("/** */"), None);
        assert_eq!(
            first_doc_sentence("/// <summary>\n/// Keeps sessions.\n/// </summary>").as_deref(),
            Some("Keeps sessions.")
        );
        assert_eq!(
            first_doc_sentence("/// <summary>Keeps <c>x</c>.</summary>").as_deref(),
            Some("Keeps <c>x</c>.")
        );
        assert_eq!(
            first_doc_sentence("// a < b > c").as_deref(),
            Some("a < b > c")
        );
    }

    #[test]
    fn docs_are_their_first_sentence() {
        // A sentence wrapped over two lines stays whole; the second sentence goes.
        assert_eq!(
            first_doc_sentence(
                "/// Keeps sessions in memory\n/// until they expire. More.\n///\n/// # Examples"
            )
            .as_deref(),
            Some("Keeps sessions in memory until they expire.")
        );
        assert_eq!(
            first_doc_sentence(
                "\"\"\"\n    Return the value,\n    e.g. 3, or None.\n\n    Args: x\n    \"\"\""
            )
            .as_deref(),
            Some("Return the value, e.g. 3, or None.")
        );
        // No sentence end: the whole first paragraph; a JSDoc tag ends it.
        assert_eq!(
            first_doc_sentence("/**\n * Builds the store\n * @param ttl seconds\n */").as_deref(),
            Some("Builds the store")
        );
        assert_eq!(
            first_doc_sentence("// v1.2 is out").as_deref(),
            Some("v1.2 is out")
        );
        assert_eq!(first_doc_sentence("/** */"), None);
        let long = format!("// {}", "word ".repeat(100));
        assert_eq!(first_doc_sentence(&long).unwrap().chars().count(), CAP);
    }

    #[test]
    fn caps_count_chars_not_bytes() {
        let long = "é".repeat(300);
        let capped = cap(long);
        assert_eq!(capped.chars().count(), CAP);
        assert!(capped.ends_with('…'));
    }

    #[test]
    fn one_line_of_ascii_is_one_line_of_any_text() {
        let long = "word ".repeat(CAP);
        for text in [
            "",
            "  ",
            " a  b\t\nc \x0B d\x0C\re ",
            "fn f(\n    a: u32,\n) -> u32",
            long.as_str(),
        ] {
            assert_eq!(one_line_ascii(text), one_line_any(text), "{text:?}");
        }
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs() {
        let src = "x = \"🚀 café\", y";
        let byte = src.find(", y").unwrap() + 2;
        // 🚀 is 4 bytes / 2 UTF-16 units, é is 2 bytes / 1 unit.
        assert_eq!(utf16_col(src, byte, byte), (byte - 2 - 1) as u32);
        for text in [
            "",
            "abc",
            "é ü 日本 🚀🚀 x",
            "\u{10FFFF}\u{FFFF}\u{80}\u{7F}",
        ] {
            let count = text.encode_utf16().count() as u32;
            assert_eq!(utf16_col(text, text.len(), text.len()), count, "{text}");
        }
    }
}
