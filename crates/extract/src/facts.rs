//! What extraction finds in one file, before anything is resolved.
//!
//! This is the contract between the two halves of the map crate:
//! `extract` (tree-sitter queries → [`FileFacts`], per file, in parallel, no database)
//! and `store`/`resolve` (facts of all files → nodes and edges in SQLite).
//! Facts hold names, never node IDs of other files: resolution turns names into edges.
//!
//! Lines are 0-based here; columns are 0-based UTF-16 code units (the LSP convention).
//! The MCP edge converts to 1-based.

use serde::{Deserialize, Serialize};

/// Node kinds of contract §3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    File,
    Module,
    Class,
    Interface,
    Trait,
    Struct,
    Enum,
    Function,
    Method,
    Variable,
    Constant,
    TypeAlias,
    Property,
}

impl NodeKind {
    pub const ALL: [NodeKind; 13] = [
        NodeKind::File,
        NodeKind::Module,
        NodeKind::Class,
        NodeKind::Interface,
        NodeKind::Trait,
        NodeKind::Struct,
        NodeKind::Enum,
        NodeKind::Function,
        NodeKind::Method,
        NodeKind::Variable,
        NodeKind::Constant,
        NodeKind::TypeAlias,
        NodeKind::Property,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::File => "file",
            NodeKind::Module => "module",
            NodeKind::Class => "class",
            NodeKind::Interface => "interface",
            NodeKind::Trait => "trait",
            NodeKind::Struct => "struct",
            NodeKind::Enum => "enum",
            NodeKind::Function => "function",
            NodeKind::Method => "method",
            NodeKind::Variable => "variable",
            NodeKind::Constant => "constant",
            NodeKind::TypeAlias => "type_alias",
            NodeKind::Property => "property",
        }
    }

    pub fn parse(s: &str) -> Option<NodeKind> {
        NodeKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Edge kinds of contract §1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    Contains,
    Imports,
    Exports,
    Calls,
    Extends,
    Implements,
    References,
}

impl EdgeKind {
    pub const ALL: [EdgeKind; 7] = [
        EdgeKind::Contains,
        EdgeKind::Imports,
        EdgeKind::Exports,
        EdgeKind::Calls,
        EdgeKind::Extends,
        EdgeKind::Implements,
        EdgeKind::References,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Contains => "contains",
            EdgeKind::Imports => "imports",
            EdgeKind::Exports => "exports",
            EdgeKind::Calls => "calls",
            EdgeKind::Extends => "extends",
            EdgeKind::Implements => "implements",
            EdgeKind::References => "references",
        }
    }

    pub fn parse(s: &str) -> Option<EdgeKind> {
        EdgeKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// How an edge's target was found (contract §3). Ordered from most to least certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Scope walk, self/this/cls/Self members, same file.
    Exact,
    /// Followed through an import or re-export.
    Import,
    /// The only exported symbol of that name in the repository.
    Name,
    /// Unresolved: several matches or none; up to 5 ranked candidates.
    Candidate,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Exact => "exact",
            Confidence::Import => "import",
            Confidence::Name => "name",
            Confidence::Candidate => "candidate",
        }
    }
}

/// A definition found in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefFact {
    pub kind: NodeKind,
    pub name: String,
    /// Dotted chain of enclosing named definitions, e.g. `SessionStore.refresh`.
    /// Methods declared apart from their type (Rust `impl`, Go receivers) are
    /// qualified by the type. Duplicates are *not* numbered here: the store adds `~2`, `~3`.
    pub qualified_name: String,
    /// Index into [`FileFacts::defs`] of the enclosing definition, if any.
    pub parent: Option<usize>,
    /// 0-based first and last line of the whole definition.
    pub start_line: u32,
    pub end_line: u32,
    /// 0-based position of the name identifier (column in UTF-16 code units).
    pub name_line: u32,
    pub name_col: u32,
    /// One-line signature, at most 200 chars.
    pub signature: Option<String>,
    /// First sentence of the doc comment / docstring (whole even when it wraps), at most 200 chars.
    pub doc: Option<String>,
    /// Visible outside its module (exported, `pub`, capitalised in Go, no leading `_` in Python).
    pub exported: bool,
    /// The numbers of arguments a function accepts, where its query captures its parameter
    /// list (`@parameters`); `None`: unknown, any call is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arity: Option<Arity>,
    /// The declared shapes of its parameters, where its query captures them
    /// (`@parameter.type` and the shape captures, `crates/extract/src/arity.rs`): what
    /// the map weighs an overload's arguments against. `None`: unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Params>,
}

/// The shape of a declared type: of a parameter, or of the name an argument is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeShape {
    /// A named type by value (a class, an alias, an enumeration, a template parameter).
    Value,
    /// A pointer to `base`.
    Pointer,
    /// A reference to `base` that may change it (C++'s `T&`).
    Reference,
    /// A reference to a constant `base` (`const T&`).
    ConstReference,
    /// A reference to a temporary (`T&&`).
    RvalueReference,
    /// The type of the null pointer literal (`std::nullptr_t`).
    Null,
    /// A number, character or truth value (`int`, `bool`, `unsigned long`).
    Arithmetic,
    /// A declarator the shapes above do not describe (an array, a function pointer, a
    /// pointer to a pointer): compared as text, never ruled out.
    Other,
}

/// One parameter's declared type: its shape and its base type's text (the pointee of a
/// pointer, `const` included; the referent of a reference; the type of a value), blanks
/// normalised, the names of template parameters marked: `$T` for a parameter of an
/// enclosing template (the class's), `?U` for one of the function's own (deduced from
/// the arguments, so it matches anything).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Param {
    pub shape: TypeShape,
    pub base: String,
}

/// A function's parameters as declared (`DefFact::params`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    pub list: Vec<Param>,
    /// The function is itself a template (its parameter types may be deduced).
    #[serde(default)]
    pub template: bool,
    /// The qualifiers after its parameter list (C++'s `const`, `&&` on a method): they
    /// take part in choosing among overloads, so two overloads that differ in them are
    /// never told apart by their parameters alone.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub qualifiers: String,
}

/// What the text alone says of one argument of a call (`RefFact::arg_kinds`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgKind {
    Unknown,
    /// The null pointer literal (`nullptr`).
    Null,
    /// The integer literal `0` (a null pointer constant as well as a number).
    Zero,
    /// Another number, a character or a truth value literal.
    Arithmetic,
    /// A string literal.
    String,
    /// A pointer of a type the text does not say (`this`, the address of a pointer).
    Pointer,
    /// A name whose declared type is written (a parameter of the enclosing function), or
    /// its address (`&raw`: a pointer to its type, `lvalue` false). `shape` is one of
    /// `Value`, `Pointer`, `Null`, `Arithmetic` (a reference is the value it refers to);
    /// `base` as in [`Param`]; `konst`: the value itself is constant.
    Typed {
        shape: TypeShape,
        base: String,
        konst: bool,
        lvalue: bool,
    },
}

/// The numbers of arguments a function, method or constructor accepts: `min` (its
/// parameters without a default), `max` (all of them; `None`: variadic — C's `...`, a C++
/// parameter pack, Java's `T... xs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arity {
    pub min: u16,
    pub max: Option<u16>,
}

impl Arity {
    /// Whether a call with `args` arguments may call it.
    pub fn accepts(self, args: u16) -> bool {
        args >= self.min && self.max.is_none_or(|max| args <= max)
    }
}

/// A use of a name that resolution may turn into a `calls`, `extends`, `implements`
/// or `references` edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefFact {
    /// Index into [`FileFacts::defs`] of the innermost enclosing definition; `None` = the file.
    pub from: Option<usize>,
    pub kind: EdgeKind,
    /// The referenced name itself (last path segment): `refresh` in `self.store.refresh()`.
    pub name: String,
    /// What stands before the name, verbatim but trimmed: `self`, `this`, `Self`, `cls`,
    /// `self.store`, `store`, `crate::store`, `os.path`. `None` for a bare name.
    pub qualifier: Option<String>,
    /// 0-based line of the use.
    pub line: u32,
    /// 0-based UTF-16 column of the name (added with the mention index: absent in older data).
    #[serde(default)]
    pub col: u32,
    /// A bare call of a name bound in a local scope around it (a parameter, a local
    /// variable, a closure parameter): it calls that local, whatever value it holds, so
    /// resolution never links it for sure to a definition of the same name.
    #[serde(default)]
    pub local: bool,
    /// A call's number of arguments, where its query captures the argument list
    /// (`@arguments`) and no argument is a spread (`@argument.spread`: `f(args...)`);
    /// `None`: unknown (or not a call).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<u16>,
    /// A call's arguments' kinds in order, where its query captures them
    /// (`@argument.*`) and the text says at least one; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arg_kinds: Vec<ArgKind>,
}

/// What a mention that is not a [`RefFact`] is: a name imported by an import statement, a
/// name the language's queries see used as a value (`@mention` in `refs.scm`: a method
/// passed as a callback, a class assigned to a variable, `getattr(obj, "name")`), or a word
/// of a text the grammar leaves unparsed (`@mention.text`: a macro's body).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MentionKind {
    Import,
    /// A name used as a value. The map links it where the name is known for sure (the
    /// scope walk, `self`'s members, an import, a typed receiver: `exact`/`import`), never
    /// by the repository's name alone.
    Value,
    /// A word of an unparsed text: never linked (the words are not parsed, so no word is
    /// a use for sure).
    Text,
}

/// An occurrence of a name that is not a [`RefFact`] (see [`MentionKind`]). Together the
/// refs and these are the file's *mentions*: what an answer about the uses of a symbol
/// compares its links with, so that what it could not link is said, not dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MentionFact {
    /// Index into [`FileFacts::defs`] of the innermost enclosing definition; `None` = the file.
    pub from: Option<usize>,
    pub kind: MentionKind,
    pub name: String,
    /// What stands before the name (as for [`RefFact::qualifier`]).
    pub qualifier: Option<String>,
    /// 0-based line and UTF-16 column of the name.
    pub line: u32,
    pub col: u32,
}

/// One import / use / require statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportFact {
    /// The module specifier as written: `./store`, `..store`, `os.path`, `crate::store`,
    /// `example.com/shop/store`.
    pub module: String,
    /// Names imported from it; empty = the module itself; a name `*` = a glob.
    pub names: Vec<ImportedName>,
    /// `import x as y` / `import * as y` / Go's package alias: the local name of the module.
    pub alias: Option<String>,
    /// A re-export (`export … from`, `pub use`, an import inside `__init__.py`).
    pub reexport: bool,
    /// 0-based line of the statement.
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedName {
    pub name: String,
    pub alias: Option<String>,
}

/// A name the source binds to a type in so many words: a typed parameter, field or
/// variable (`store: SessionStore`, `s *store.SessionStore`, `let x: &Foo`), or a variable
/// assigned a construction or call (`store = new SessionStore()`, `x = Foo()`,
/// `s := &T{}`, `let s = T::new()`). Lets resolution type a receiver (`store.refresh()`)
/// without a type checker. For a call, `type_name` is the callee: an instance when it
/// names a class/struct, unknown otherwise. A name bound to a *part* of a value says which
/// in `type_name` (grammars/README.md, `bindings.scm`): `Ctor[0/1]` / `Ctor[field]` (the
/// positional field `0` of a pattern of `1` element, or the named field of the value a pattern's constructor `Ctor` takes apart:
/// `Extension(ref s)`, `Prefix { rule }`), `[]` (an element of the value written in
/// `type_qualifier`: `for x in &self.items`, `Some(x) = self.first`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BindingFact {
    /// Index into [`FileFacts::defs`] of the innermost enclosing definition (the function
    /// of a parameter); `None` = the file.
    pub scope: Option<usize>,
    /// The bound name as written: `store`, `self.store`, `this.data`.
    pub name: String,
    /// The type's (or callee's) last segment: `SessionStore`.
    pub type_name: String,
    /// What stands before it: `store` in `store.SessionStore`, `crate::store`.
    pub type_qualifier: Option<String>,
    /// 0-based line of the name.
    pub line: u32,
    /// 0-based last line of the region the binding holds in (a match arm, an `if let` or
    /// `instanceof` branch, a loop): uses outside `line..=until` are not typed by it.
    /// `None`: the whole scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<u32>,
}

/// Everything extraction found in one file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFacts {
    /// Language id from the language directory (`py`, `ts`, …).
    pub lang: String,
    /// Definitions in source order (parents before children).
    pub defs: Vec<DefFact>,
    pub refs: Vec<RefFact>,
    pub imports: Vec<ImportFact>,
    /// Names bound to types (added after the first API cut: absent in older data).
    #[serde(default)]
    pub bindings: Vec<BindingFact>,
    /// Mentions that are not refs: imported names and value uses (absent in older data).
    #[serde(default)]
    pub mentions: Vec<MentionFact>,
    /// True when tree-sitter reported syntax errors, or the query walk passed its match limit
    /// (`matches::MATCH_LIMIT`); facts are what it recovered.
    pub had_errors: bool,
    /// Number of lines in the file (for LOC figures).
    pub lines: u32,
}
