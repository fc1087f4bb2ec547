//! Rust's doc comments: a run of `///` lines documents the item below it, attributes
//! between them or not. `defs.scm` captures the comment above the item (`@doc`) and every
//! `///` comment (`@doc.line`); the reader adds the run's earlier lines. The quantified
//! pattern it replaces, `((line_comment)+ @doc . (attribute_item)* . (_) @doc.for)`, lost
//! the doc of an item whose run had another line comment above it (a `//!` module header,
//! a `// TODO`): tree-sitter kept the longer in-progress match, which took that comment
//! in and then failed `#match? @doc "^///"` (docs/performance.md, "Rust's patterns
//! cheaper to compile and to walk").

use navmap_extract::facts::FileFacts;

fn rs(source: &str) -> FileFacts {
    let registry = navmap_grammars::registry();
    let lang = registry.by_id("rs").unwrap();
    navmap_extract::extract_path(lang, "t.rs", source)
}

fn docs(f: &FileFacts) -> Vec<(String, Option<String>)> {
    f.defs
        .iter()
        .map(|d| (d.name.clone(), d.doc.clone()))
        .collect()
}

fn s(x: &str) -> (String, Option<String>) {
    let (name, doc) = x.split_once('=').unwrap();
    (name.to_string(), (!doc.is_empty()).then(|| doc.to_string()))
}

#[test]
fn a_run_below_a_module_header_or_a_plain_comment_documents_its_item() {
    let f = rs(concat!(
        "//! The module.\n//! Its second line.\n\n",
        "/// A unit struct.\npub struct A;\n\n",
        "// TODO: a plain comment\n/// The second.\nfn b() {}\n",
    ));
    assert_eq!(docs(&f), vec![s("A=A unit struct."), s("b=The second.")]);
}

#[test]
fn the_run_is_read_whole_and_ends_at_a_blank_line_or_another_comment() {
    let f = rs(concat!(
        "/// The first line.\n/// The second.\n///\n/// Details.\nfn whole() {}\n",
        "/// Far away.\n\n/// Near.\nfn near() {}\n",
        "/// Cut off.\n// x\n/// Kept.\nfn cut() {}\n",
        "/// With attributes.\n#[inline]\n#[must_use]\nfn attributed() -> u8 { 0 }\n",
        "/// Not touching.\n\nfn apart() {}\n",
    ));
    assert_eq!(
        docs(&f),
        vec![
            s("whole=The first line."),
            s("near=Near."),
            s("cut=Kept."),
            s("attributed=With attributes."),
            s("apart="),
        ]
    );
}

#[test]
fn runs_in_impls_traits_and_fields_document_their_items() {
    let f = rs(concat!(
        "// header\n/// A struct.\nstruct S {\n    // plain\n    /// A field.\n    f: u8,\n}\n",
        "impl S {\n    // plain\n    /// A method.\n    /// More on it.\n    fn m(&self) {}\n}\n",
    ));
    assert_eq!(
        docs(&f),
        vec![s("S=A struct."), s("f=A field."), s("m=A method."),]
    );
}

/// A `///` comment's text ends with its newline; read as is, a sentence wrapped over two
/// lines was cut after the first (the newline read as a blank line ending the paragraph).
#[test]
fn a_sentence_wrapped_over_several_lines_is_read_whole() {
    let f = rs(concat!(
        "/// Returns the session stored under\n/// the key, if any.\n///\n/// Details.\n",
        "pub fn get() {}\n",
        "struct S {\n    /// The time the session\n    /// was last touched.\n    at: u64,\n}\n",
    ));
    assert_eq!(
        docs(&f),
        vec![
            s("get=Returns the session stored under the key, if any."),
            s("S="),
            s("at=The time the session was last touched."),
        ]
    );
}
