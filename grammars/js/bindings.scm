; JavaScript names bound to types. Capture conventions: grammars/README.md.

; const x = new Store(…)   this.x = new ns.Store(…)   class fields
(variable_declarator name: (identifier) @binding.name
  value: (new_expression constructor: [(identifier) @binding.type
                                       (member_expression object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(assignment_expression left: [(identifier) (member_expression)] @binding.name
  right: (new_expression constructor: [(identifier) @binding.type
                                       (member_expression object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(field_definition property: (_) @binding.name
  value: (new_expression constructor: (identifier) @binding.type)) @binding

; Local names (`@local.name`): parameters, local variables and loop variables of a
; function, and arrow/function-expression parameters (`@local.scope`: that function). A bare
; call of one (`callback()`, `matched(…)` in `(matched) => matched(…)`) is the local,
; never a function of the same name elsewhere.
([(arrow_function parameter: (identifier) @local.name)
  (arrow_function parameters: (formal_parameters
    [(identifier) @local.name
     (assignment_pattern left: (identifier) @local.name)
     (rest_pattern (identifier) @local.name)]))
  (function_expression parameters: (formal_parameters
    [(identifier) @local.name
     (assignment_pattern left: (identifier) @local.name)
     (rest_pattern (identifier) @local.name)]))]) @local.scope
(formal_parameters
  [(identifier) @local.name
   (assignment_pattern left: (identifier) @local.name)
   (rest_pattern (identifier) @local.name)])
(variable_declarator name: [(identifier) @local.name
                            (array_pattern (identifier) @local.name)])
(for_in_statement left: (identifier) @local.name)
