//! Names in documentation comments (`@doc.links` in `refs.scm`, on a comment, read with the
//! manifest's `[doc_links]`): Javadoc's `{@link Type}`, `{@linkplain pkg.Type#member(A, B)
//! label}`, `{@value #FIELD}`, `@see Type#member`, `@throws Type`. The grammar leaves a
//! comment unparsed; the language's doc tool resolves these names as it resolves code's,
//! and its server lists them among a definition's references (jdtls does), so they are
//! `references` uses of what they name, from the innermost definition around the comment
//! (a member's documentation stands before it, inside its type).
//!
//! `Type` alone is a use of the type; `a.b.Outer.Type` of `Type` qualified by `a.b.Outer`,
//! and of `Outer` qualified by `a.b` (a segment spelled upper-case first is a type, the
//! others are packages); `#member` is a member of the type around the comment (qualified by
//! the manifest's first receiver word, which means that type); `Type#member` the type's
//! member, and a use of the type. A parenthesised parameter list gives the member's number
//! of parameters (`args`), which chooses among overloads as a call's arguments do. Names in
//! HTML (`<a href>`) or after other tags (`{@code …}`) are not uses.

use navmap_language::DocLinks;

use crate::facts::{EdgeKind, RefFact};
use crate::text::utf16_col;

/// A use found in a documentation comment, at a byte offset of the source.
pub struct DocUse {
    pub name: String,
    pub qualifier: Option<String>,
    pub at: usize,
    pub args: Option<u16>,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The uses a documentation comment's text holds (`start`: its byte offset in the source).
pub fn uses(text: &str, start: usize, rules: &DocLinks, receiver: Option<&str>) -> Vec<DocUse> {
    if rules.opens.is_empty() || !text.starts_with(&rules.opens) {
        return vec![];
    }
    let mut tags: Vec<usize> = vec![];
    for tag in rules.inline.iter().filter(|t| !t.is_empty()) {
        tags.extend(text.match_indices(tag.as_str()).map(|(i, _)| i + tag.len()));
    }
    // A block tag starts a line of the comment (after its opening, blanks or `*`), not a
    // word in a sentence (`mail@see`).
    let lead: Vec<char> = rules.opens.chars().chain([' ', '\t', '*']).collect();
    for tag in rules.block.iter().filter(|t| !t.is_empty()) {
        tags.extend(text.match_indices(tag.as_str()).filter_map(|(i, _)| {
            let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
            let before = text[line_start..i].trim_start_matches(lead.as_slice());
            before.is_empty().then_some(i + tag.len())
        }));
    }
    tags.sort_unstable();
    let mut out = vec![];
    for from in tags {
        let rest = &text[from..];
        let at = from + rest.len() - rest.trim_start_matches([' ', '\t']).len();
        out.extend(reference(&text[at..], start + at, rules, receiver));
    }
    out
}

/// The uses of the reference at the start of `s` (`pkg.Type#member(A, B)`), if it is one.
fn reference(s: &str, at: usize, rules: &DocLinks, receiver: Option<&str>) -> Vec<DocUse> {
    let path_len = s
        .find(|c: char| !(is_ident(c) || c == '.'))
        .unwrap_or(s.len());
    let path = s[..path_len].trim_end_matches('.');
    let mut uses = type_uses(path, at);
    let Some(member) = (!rules.member.is_empty())
        .then(|| s[path_len..].strip_prefix(rules.member.as_str()))
        .flatten()
    else {
        return uses;
    };
    let len = member.find(|c: char| !is_ident(c)).unwrap_or(member.len());
    let name = &member[..len];
    // `#member` alone needs the word for "the type around"; without one it names nothing.
    let qualifier = if path.is_empty() {
        receiver
    } else {
        Some(path)
    };
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) || qualifier.is_none() {
        return uses;
    }
    // `#m(String, int)`: its parameters, counted; `#m` alone says nothing of them.
    let args = member[len..].strip_prefix('(').and_then(|p| {
        let params = &p[..p.find(')')?];
        let n = match params.trim() {
            "" => 0,
            _ => params.split(',').count(),
        };
        u16::try_from(n).ok()
    });
    uses.push(DocUse {
        name: name.to_string(),
        qualifier: qualifier.map(str::to_string),
        at: at + path_len + rules.member.len(),
        args,
    });
    uses
}

/// `Type` or `pkg.Outer.Type`: a use of its last name, qualified by the rest, and of each
/// outer type on the way (a segment spelled upper-case first: in `OptionFormatter.Builder`
/// jdtls counts `OptionFormatter` too); package names are not uses.
fn type_uses(path: &str, at: usize) -> Vec<DocUse> {
    let mut out = vec![];
    let mut offset = 0;
    for (i, seg) in path.split('.').enumerate() {
        let last = offset + seg.len() == path.len();
        let type_like = seg.starts_with(char::is_uppercase);
        if !seg.is_empty() && !seg.starts_with(|c: char| c.is_ascii_digit()) && (last || type_like)
        {
            out.push(DocUse {
                name: seg.to_string(),
                qualifier: (i > 0).then(|| path[..offset - 1].to_string()),
                at: at + offset,
                args: None,
            });
        }
        offset += seg.len() + 1;
    }
    out
}

/// The uses of a documentation comment node as reference facts from `from` (the innermost
/// definition around the comment).
pub fn facts(
    node: &tree_sitter::Node,
    source: &str,
    from: Option<usize>,
    rules: &DocLinks,
    receiver: Option<&str>,
) -> Vec<RefFact> {
    let start = node.start_byte();
    let text = source.get(start..node.end_byte()).unwrap_or("");
    let mut line = node.start_position().row as u32;
    let mut seen = start;
    uses(text, start, rules, receiver)
        .into_iter()
        .map(|u| {
            // Uses come in order of offset: count the line breaks since the last one.
            line += source[seen..u.at].matches('\n').count() as u32;
            seen = u.at;
            let line_start = source[..u.at].rfind('\n').map_or(0, |n| n + 1);
            RefFact {
                from,
                kind: EdgeKind::References,
                name: u.name,
                qualifier: u.qualifier,
                line,
                col: utf16_col(source, u.at, u.at - line_start),
                local: false,
                args: u.args,
                arg_kinds: Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::uses;
    use navmap_language::DocLinks;

    /// Javadoc's conventions, as `grammars/java/language.toml` states them.
    fn javadoc() -> DocLinks {
        DocLinks {
            opens: "/**".into(),
            inline: vec!["{@link ".into(), "{@linkplain ".into(), "{@value ".into()],
            block: vec!["@see ".into(), "@throws ".into(), "@exception ".into()],
            member: "#".into(),
        }
    }

    /// (name, qualifier, args) of each use, each checked to stand at its offset.
    fn found(text: &str) -> Vec<(String, Option<String>, Option<u16>)> {
        uses(text, 0, &javadoc(), Some("this"))
            .into_iter()
            .map(|u| {
                assert!(
                    text[u.at..].starts_with(&u.name),
                    "{} at its offset",
                    u.name
                );
                (u.name, u.qualifier, u.args)
            })
            .collect()
    }

    #[test]
    fn links_see_and_throws_are_uses() {
        let doc = "/**\n * Uses {@link Option} and {@linkplain org.x.Help.Builder the builder}.\n * @deprecated Use {@link #get()}.\n * @see Options#addOption(String, String)\n * @throws AlreadySelectedException if selected.\n */";
        let got = found(doc);
        let names: Vec<(&str, Option<&str>, Option<u16>)> = got
            .iter()
            .map(|(n, q, a)| (n.as_str(), q.as_deref(), *a))
            .collect();
        assert_eq!(
            names,
            vec![
                ("Option", None, None),
                ("Help", Some("org.x"), None),
                ("Builder", Some("org.x.Help"), None),
                ("get", Some("this"), Some(0)),
                ("Options", None, None),
                ("addOption", Some("Options"), Some(2)),
                ("AlreadySelectedException", None, None),
            ]
        );
    }

    #[test]
    fn plain_comments_code_and_mid_sentence_tags_are_not() {
        assert!(found("/* {@link Option} */").is_empty());
        assert!(found("/** {@code Option} and mail@see x, <a href=\"#top\">x</a> */").is_empty());
        // Without a receiver word, `#member` names nothing; `Type#member` still does.
        let bare = uses("/** {@link #get()} {@link A#b} */", 0, &javadoc(), None);
        let names: Vec<&str> = bare.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, ["A", "b"]);
    }
}
