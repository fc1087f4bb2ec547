; Rust uses of names. Capture conventions: grammars/README.md.
; Inner parents are wildcards where their fields say which node they are, anchored at
; their first field (`(_ . path: (_) name: (identifier))`): which node each one is, and why,
; is in defs.scm's header.
; A macro's `macro` field is an `identifier` or a `scoped_identifier`: `(_ name: …)` is
; the latter; in an impl's `type`, `(_ name: (type_identifier))` a `scoped_type_identifier`.

; Calls: `f()`, `a::b::f()`, `Type::f()`, `x.y.f()`, turbofish forms, macros: forms of one
; parent share one pattern (one parent step to compile, not six). Uses that start at one
; byte (`a::f(x).g()`) are ordered by pattern, so the calls through a field stay apart:
; between the plain calls and the turbofish ones, as they were.
(call_expression function: [(identifier) @name
                            (_ . path: (_) @qualifier name: (identifier) @name)]) @reference.call
(call_expression function: (_ . value: (_) @qualifier field: (field_identifier) @name)) @reference.call
; a `generic_function` (the only call's function with `type_arguments`)
(call_expression
  function: (_ . function: [(identifier) @name
                          (_ . path: (_) @qualifier name: (identifier) @name)
                          (_ . value: (_) @qualifier field: (field_identifier) @name)]
               type_arguments: (_))) @reference.call
(macro_invocation macro: [(identifier) @name
                          (_ . path: (_) @qualifier name: (identifier) @name)]) @reference.call

; `impl Trait for Type`: an `implements` edge from the type (`@owner`) to the trait.
(impl_item
  trait: [(type_identifier) @name
          (_ . type: (type_identifier) @name type_arguments: (_))
          (_ . path: (_) @qualifier name: (type_identifier) @name)
          (_ . type: (_ . path: (_) @qualifier name: (type_identifier) @name) type_arguments: (_))]
  type: [(type_identifier) @owner
         (_ . type: (type_identifier) @owner type_arguments: (_))
         (_ name: (type_identifier) @owner)]) @reference.implements

; Types anywhere (signatures, fields, generics, struct literals, bounds); definition names
; are left out by the engine.
((type_identifier) @name @reference.type
  (#not-eq? @name "Self"))
(scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name) @reference.type
; A type at the head of a value path: `Kind::Variant` (patterns, struct fields, arguments),
; `Type::new()`, `crate::Kind::Variant`. Capitalised only: a lower-case head is a module.
((scoped_identifier path: (identifier) @name) @reference.type
  (#match? @name "^[A-Z]") (#not-eq? @name "Self"))
((scoped_identifier path: (_ . path: (_) @qualifier name: (identifier) @name)) @reference.type
  (#match? @name "^[A-Z]"))

; Mentions: names used as values (`iter.map(Self::parse)`, `x.field`, a function passed
; as an argument), which resolution does not link but answers about uses account for.
; Not edges: `@mention`.
(field_expression value: (_) @qualifier field: (field_identifier) @name) @mention
(arguments (identifier) @name) @mention
(arguments (_ . path: (_) @qualifier name: (identifier) @name)) @mention
; A function named where a value goes: an array element (a table of fn pointers
; `[email::validate, token::validate]`), a `let` initialiser, a struct field's value, a
; tuple element, a returned value. Resolution links those it knows for sure (scope,
; imports); the rest stay mentions.
(array_expression (identifier) @name) @mention
(array_expression (_ . path: (_) @qualifier name: (identifier) @name)) @mention
(let_declaration value: (identifier) @name) @mention
(let_declaration value: (_ . path: (_) @qualifier name: (identifier) @name)) @mention
(field_initializer value: (identifier) @name) @mention
(field_initializer value: (_ . path: (_) @qualifier name: (identifier) @name)) @mention
(tuple_expression (identifier) @name) @mention
(tuple_expression (_ . path: (_) @qualifier name: (identifier) @name)) @mention
(return_expression (identifier) @name) @mention
(return_expression (_ . path: (_) @qualifier name: (identifier) @name)) @mention

; Macro arguments are token trees, not expressions: those of the macros whose arguments
; are expressions are parsed again as code (`[reparse]` in language.toml), so the calls
; inside `assert!(parse(x))`, `format!("{}", s.len())`, `vec![f(a)]` are uses.
(macro_invocation
  macro: [(identifier) @_m (_ name: (identifier) @_m)]
  (token_tree) @reparse
  (#any-of? @_m "assert" "assert_eq" "assert_ne" "debug_assert" "debug_assert_eq"
    "debug_assert_ne" "format" "format_args" "print" "println" "eprint" "eprintln" "write"
    "writeln" "vec" "panic" "dbg" "todo" "unimplemented" "unreachable" "matches"
    "info" "debug" "warn" "error" "trace" "bail" "ensure" "anyhow"))

; Any other macro's arguments stay unparsed tokens (a project's own `syntaxerr!(name,
; "[z-a]", ErrorKind::InvalidRange('z', 'a'))`): their words are mentions from the
; enclosing definition, for the unlinked tier. Not edges.
(macro_invocation
  macro: [(identifier) @_m (_ name: (identifier) @_m)]
  (token_tree) @mention.text
  (#not-any-of? @_m "assert" "assert_eq" "assert_ne" "debug_assert" "debug_assert_eq"
    "debug_assert_ne" "format" "format_args" "print" "println" "eprint" "eprintln" "write"
    "writeln" "vec" "panic" "dbg" "todo" "unimplemented" "unreachable" "matches"
    "info" "debug" "warn" "error" "trace" "bail" "ensure" "anyhow"))
