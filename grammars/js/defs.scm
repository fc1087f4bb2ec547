; JavaScript definitions (JS and JSX). Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.

(function_declaration name: (identifier) @name body: (_) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (_) @body) @definition.function

(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(class name: (identifier) @name body: (_) @body) @definition.class

; Members.
(method_definition name: (_) @name body: (_) @body) @definition.method
(field_definition property: (_) @name) @definition.property

; Enums by convention: the keys of an object literal documented `/** @enum */` are
; constants of the variable that holds it (JavaScript has no enum declaration).
(program
  (comment) @_c .
  [(lexical_declaration (variable_declarator value: (object (pair key: (property_identifier) @name) @definition.constant)))
   (export_statement declaration: (lexical_declaration (variable_declarator value: (object (pair key: (property_identifier) @name) @definition.constant))))]
  (#match? @_c "@enum"))

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
(program
  [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (export_statement declaration: [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
                                   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)])])

; JSDoc: a `/** … */` comment right before a declaration (or its `export`).
((comment) @doc . (_) @doc.for
  (#match? @doc "^/[*][*]"))

; Exported: `export <declaration>`, `export { a, b }`, `export default a`, CommonJS
; `module.exports = { a, b }`; class members except `#private` ones.
(export_statement declaration: (_) @exported)
(export_statement declaration: [(lexical_declaration (variable_declarator) @exported)
                                (variable_declaration (variable_declarator) @exported)])
(export_statement (export_clause (export_specifier name: (identifier) @exported.name)) !source)
(export_statement value: (identifier) @exported.name)
((assignment_expression
   left: (member_expression object: (identifier) @_m property: (property_identifier) @_e)
   right: (object [(shorthand_property_identifier) @exported.name (pair value: (identifier) @exported.name)]))
  (#eq? @_m "module") (#eq? @_e "exports"))
(class_body [(method_definition) (field_definition)] @exported)
(method_definition name: (private_property_identifier)) @unexported
(field_definition property: (private_property_identifier)) @unexported
