//! Small text helpers: UTF-16 columns, one-line signatures, first doc lines.
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
    prefix.encode_utf16().count() as u32
}

/// Collapses every run of whitespace to one space and trims.
pub fn one_line(text: &str) -> String {
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
/// captured one (minus a trailing `{` or `:`), else its first line.
pub fn signature(def: &Node, body: Option<&Node>, source: &str) -> Option<String> {
    let text = match body {
        Some(body) if body.start_byte() > def.start_byte() => {
            let head = source
                .get(def.start_byte()..body.start_byte())
                .unwrap_or("");
            let head = one_line(head);
            head.trim_end_matches(['{', ':', ';', ' ']).to_string()
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

/// The first non-empty line of a comment or docstring, without its markers.
pub fn first_doc_line(raw: &str) -> Option<String> {
    for line in raw.lines() {
        let line = strip_markers(line.trim());
        if !line.is_empty() {
            return Some(cap(one_line(line)));
        }
    }
    None
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
            first_doc_line("/// Keeps sessions.\n/// More.").as_deref(),
            Some("Keeps sessions.")
        );
        assert_eq!(
            first_doc_line("/**\n * Keeps sessions.\n */").as_deref(),
            Some("Keeps sessions.")
        );
        assert_eq!(
            first_doc_line("\"\"\"Keeps sessions.\"\"\"").as_deref(),
            Some("Keeps sessions.")
        );
        assert_eq!(
            first_doc_line("\"\"\"\n    Keeps.\n    \"\"\"").as_deref(),
            Some("Keeps.")
        );
        assert_eq!(
            first_doc_line("// Get returns it.").as_deref(),
            Some("Get returns it.")
        );
        assert_eq!(first_doc_line("# comment").as_deref(), Some("comment"));
        assert_eq!(first_doc_line("/** */"), None);
    }

    #[test]
    fn caps_count_chars_not_bytes() {
        let long = "é".repeat(300);
        let capped = cap(long);
        assert_eq!(capped.chars().count(), CAP);
        assert!(capped.ends_with('…'));
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs() {
        let src = "x = \"🚀 café\", y";
        let byte = src.find(", y").unwrap() + 2;
        // 🚀 is 4 bytes / 2 UTF-16 units, é is 2 bytes / 1 unit.
        assert_eq!(utf16_col(src, byte, byte), (byte - 2 - 1) as u32);
    }
}
