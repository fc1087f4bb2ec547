; TypeScript definitions (TS and TSX grammars). Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.

(function_declaration name: (identifier) @name body: (_) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (_) @body) @definition.function
; Overload signatures (`function h(a: string): string;` before `function h(a: any) {…}`, or
; bodyless members of a class or an interface): `@overload` folds each group into one
; definition, the implementation (grammars/README.md).
(function_signature name: (identifier) @name) @definition.function @overload

(class_declaration name: (type_identifier) @name body: (_) @body) @definition.class
(abstract_class_declaration name: (type_identifier) @name body: (_) @body) @definition.class
(class name: (type_identifier) @name body: (_) @body) @definition.class
(interface_declaration name: (type_identifier) @name body: (_) @body) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type_alias
(enum_declaration name: (identifier) @name body: (_) @body) @definition.enum
(internal_module name: (_) @name body: (_) @body) @definition.module

; Members.
(method_definition name: (_) @name body: (_) @body) @definition.method
(abstract_method_signature name: (_) @name) @definition.method @overload
(method_signature name: (_) @name) @definition.method @overload
; A field holding a function (`static create = (…): T => …`): its signature runs to the
; function's body, so the result type it declares is read (`ZodTuple.create(…).rest(…)`).
(public_field_definition name: (_) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.property
(public_field_definition name: (_) @name) @definition.property
(property_signature name: (_) @name) @definition.property
; Enum members (`A`, `B = 2`): constants of the enum.
(enum_body name: (_) @name @definition.constant)
(enum_body (enum_assignment name: (_) @name) @definition.constant)

; Module-level `const f = () => …` / `function` expressions are functions; other
; `const`s are constants, `let`/`var` variables.
(program
  [(lexical_declaration
     (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.function)
   (export_statement declaration: (lexical_declaration
     (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.function))])
(program
  [(lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)
   (export_statement declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant))])
; (`(_ (variable_declarator …))`: only a `lexical_declaration` or `variable_declaration`
; holds a declarator: one wildcard parent for both, grammars/README.md.)
(program
  [(_ (variable_declarator name: (identifier) @name) @definition.variable)
   (export_statement declaration: (_ (variable_declarator name: (identifier) @name) @definition.variable))])

; JSDoc: a `/** … */` comment right before a declaration (or its `export`).
((comment) @doc . (_) @doc.for
  (#match? @doc "^/[*][*]"))

; Exported: `export <declaration>`, `export { a, b }`, `export default a`; public members.
(export_statement declaration: (_) @exported)
(export_statement declaration: (_ (variable_declarator) @exported))
(export_statement (_ (export_specifier name: (identifier) @exported.name)) !source)
(export_statement value: (identifier) @exported.name)
(class_body [(method_definition) (abstract_method_signature) (public_field_definition)] @exported)
(interface_body [(method_signature) (property_signature)] @exported)
(enum_body name: (_) @exported)
(enum_body (enum_assignment) @exported)
((method_definition (accessibility_modifier) @_a) @unexported (#eq? @_a "private"))
((public_field_definition (accessibility_modifier) @_a) @unexported (#eq? @_a "private"))
(method_definition name: (private_property_identifier)) @unexported
(public_field_definition name: (private_property_identifier)) @unexported
