; Go uses of names. Capture conventions: grammars/README.md.
; No `implements`: Go interfaces are satisfied structurally, and guessing would mislead.

; Calls: `f()`, `pkg.F()`, `x.y.M()`, generic instantiations.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (selector_expression operand: (_) @qualifier field: (field_identifier) @name)) @reference.call
(call_expression function: (index_expression operand: (identifier) @name)) @reference.call

; Embedded types in structs and interfaces extend them.
(field_declaration_list (field_declaration !name type: [(type_identifier) @name (pointer_type (type_identifier) @name)]) @reference.extends)
(field_declaration_list (field_declaration !name type: [(qualified_type package: (_) @qualifier name: (type_identifier) @name)
                                                        (pointer_type (qualified_type package: (_) @qualifier name: (type_identifier) @name))]) @reference.extends)
(interface_type (type_elem (type_identifier) @name) @reference.extends)
(interface_type (type_elem (qualified_type package: (_) @qualifier name: (type_identifier) @name)) @reference.extends)

; Types anywhere; definition names are left out by the engine.
((type_identifier) @name @reference.type
  (#not-any-of? @name "string" "bool" "byte" "rune" "error" "any" "int" "int8" "int16" "int32" "int64"
    "uint" "uint8" "uint16" "uint32" "uint64" "uintptr" "float32" "float64" "complex64" "complex128"))
(qualified_type package: (_) @qualifier name: (type_identifier) @name) @reference.type

; Mentions: names used as values (a method value `s.Refresh` passed as a callback, a
; function as an argument), which resolution does not link but answers about uses account
; for. Not edges: `@mention`.
(selector_expression operand: (_) @qualifier field: (field_identifier) @name) @mention
(argument_list (identifier) @name) @mention
; A function (or package-level value) used as a value elsewhere: returned (a lexer's state
; function, `return lexNumber`), assigned, declared with it, an element of a composite
; literal (`map[string]stateFn{"top": lexTop}`; a key is a field name, not a use). Locals
; (`@local.name` in bindings.scm) are no mentions.
(return_statement (expression_list (identifier) @name)) @mention
(assignment_statement right: (expression_list (identifier) @name)) @mention
(short_var_declaration right: (expression_list (identifier) @name)) @mention
(var_spec value: (expression_list (identifier) @name)) @mention
(keyed_element value: (literal_element (identifier) @name)) @mention
(literal_value (literal_element (identifier) @name)) @mention
; A conversion to a pointer type, `(*T)(nil)` (`var _ I = (*T)(nil)`), parses as a call of a
; parenthesized dereference: `T` is a type use.
(call_expression function: (parenthesized_expression (unary_expression operand: (identifier) @name))) @mention
