; Swift names bound to types. Capture conventions: grammars/README.md.

; func f(store: SessionStore), func f(_ store: inout SessionStore)
(parameter
  name: (simple_identifier) @binding.name
  (user_type (type_identifier) @binding.type)) @binding

; Parents a field already names are wildcards (compile cost, grammars/README.md): a
; `name:`/`item:` holding `bound_identifier:` is a `pattern`; `wrapped:` only an
; `optional_type`; of a call's children only a `call_suffix` holds `value_arguments`; a
; closure's `type:` is a `lambda_function_type`, whose only child holding a
; `lambda_parameter` is `lambda_function_type_parameters`.
; let s: SessionStore = …   var s = SessionStore(ttl: 1)   (properties too)
(property_declaration
  name: (_ bound_identifier: (simple_identifier) @binding.name)
  (type_annotation [(user_type (type_identifier) @binding.type)
                    (_ wrapped: (user_type (type_identifier) @binding.type))])) @binding
(property_declaration
  name: (_ bound_identifier: (simple_identifier) @binding.name)
  value: (call_expression (simple_identifier) @binding.type (_ (value_arguments "(")))) @binding

; Local names (`@local.name`): parameters and locals of a function, loop variables, and
; closure parameters (`@local.scope`: the closure). A call of one (`parse(x)` with
; `parse: (Int) -> Void`) is the local, never a function of the same name elsewhere.
(lambda_literal
  type: (_ (_ (lambda_parameter name: (simple_identifier) @local.name)))) @local.scope
(parameter name: (simple_identifier) @local.name)
(property_declaration name: (_ bound_identifier: (simple_identifier) @local.name))
(for_statement item: (_ bound_identifier: (simple_identifier) @local.name))
