; Swift definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.
; `class`, `struct`, `enum`, `actor` and `extension` are all `class_declaration`s, told apart
; by `declaration_kind`. An extension is not a node: its members belong to the extended type
; (`@owner`), wherever that is declared, like Rust's `impl` blocks.

(class_declaration
  declaration_kind: "extension"
  name: [(user_type (type_identifier) @owner) (type_identifier) @owner]
  body: (_) @owner.body)

; `name: (_ bound_identifier: …)`: a declaration's `name:` holding `bound_identifier:` is
; always a `pattern`; a wildcard parent costs nothing to compile (grammars/README.md).
; Protocols and their requirements.
(protocol_declaration name: (type_identifier) @name body: (_) @body) @definition.interface
(protocol_body (protocol_function_declaration name: (simple_identifier) @name) @definition.method)
(protocol_body (protocol_property_declaration name: (_ bound_identifier: (simple_identifier) @name)) @definition.property)

; Members of types (and of extensions, through `@owner.body`).
; `function_declaration` patterns leave `@name`/`@body` to the engine (its `name` and `body`
; fields): spelled out, each of these three patterns took about a second to compile.
(class_body (function_declaration) @definition.method)
(enum_class_body (function_declaration) @definition.method)
(class_body (init_declaration "init" @name body: (_) @body) @definition.method)
(enum_class_body (init_declaration "init" @name body: (_) @body) @definition.method)
(class_body (property_declaration name: (_ bound_identifier: (simple_identifier) @name)) @definition.property)
(enum_class_body (property_declaration name: (_ bound_identifier: (simple_identifier) @name)) @definition.property)
; `case red, green`: each case is a constant (the definition is the name: one entry holds several).
(enum_entry name: (simple_identifier) @name @definition.constant)

(class_declaration declaration_kind: ["class" "actor"] name: (type_identifier) @name body: (_) @body) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name body: (_) @body) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name body: (_) @body) @definition.enum
(typealias_declaration name: (type_identifier) @name) @definition.type_alias
(function_declaration) @definition.function

; File-level `let` is a constant, `var` a variable. Locals are not nodes.
(source_file (property_declaration (value_binding_pattern mutability: "let") name: (_ bound_identifier: (simple_identifier) @name)) @definition.constant)
(source_file (property_declaration name: (_ bound_identifier: (simple_identifier) @name)) @definition.variable)

; Doc comments (`///`, `/** */`) right above a definition.
([(comment) (multiline_comment)]+ @doc . (_) @doc.for
  (#match? @doc "^(///|/[*][*])"))

; Visible: `internal` (the default) is visible to the whole module and `public`/`open`
; beyond it; only `private`/`fileprivate` keep a definition to its file.
(source_file [(function_declaration) (class_declaration) (protocol_declaration) (property_declaration) (typealias_declaration)] @exported)
(class_body [(function_declaration) (init_declaration) (property_declaration) (class_declaration) (typealias_declaration)] @exported)
(enum_class_body [(function_declaration) (init_declaration) (property_declaration) (class_declaration) (typealias_declaration)] @exported)
(protocol_body [(protocol_function_declaration) (protocol_property_declaration)] @exported)
(enum_entry name: (simple_identifier) @exported)
(_ (modifiers (visibility_modifier) @_v) (#match? @_v "^(private|fileprivate)")) @unexported
