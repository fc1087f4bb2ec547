; Swift names bound to types. Capture conventions: grammars/README.md.

; func f(store: SessionStore), func f(_ store: inout SessionStore)
(parameter
  name: (simple_identifier) @binding.name
  (user_type (type_identifier) @binding.type)) @binding

; let s: SessionStore = …   var s = SessionStore(ttl: 1)   (properties too)
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @binding.name)
  (type_annotation [(user_type (type_identifier) @binding.type)
                    (optional_type (user_type (type_identifier) @binding.type))])) @binding
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @binding.name)
  value: (call_expression (simple_identifier) @binding.type (call_suffix (value_arguments "(")))) @binding

; Local names (`@local.name`): parameters and locals of a function, loop variables, and
; closure parameters (`@local.scope`: the closure). A call of one (`parse(x)` with
; `parse: (Int) -> Void`) is the local, never a function of the same name elsewhere.
(lambda_literal
  (lambda_function_type
    (lambda_function_type_parameters (lambda_parameter name: (simple_identifier) @local.name)))) @local.scope
(parameter name: (simple_identifier) @local.name)
(property_declaration name: (pattern bound_identifier: (simple_identifier) @local.name))
(for_statement item: (pattern bound_identifier: (simple_identifier) @local.name))
