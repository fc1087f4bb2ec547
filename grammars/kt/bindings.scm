; Kotlin names bound to types. Capture conventions: grammars/README.md.

; (store: SessionStore)   class C(private val store: SessionStore)   val x: T = …
([(parameter (identifier) @binding.name . [(user_type . (identifier) @binding.type)
                                           (nullable_type (user_type . (identifier) @binding.type))])
  (class_parameter (identifier) @binding.name . [(user_type . (identifier) @binding.type)
                                                 (nullable_type (user_type . (identifier) @binding.type))])
  (property_declaration (variable_declaration (identifier) @binding.name . [(user_type . (identifier) @binding.type)
                                                                            (nullable_type (user_type . (identifier) @binding.type))]))] @binding)

; val x = T(…)
(property_declaration (variable_declaration . (identifier) @binding.name .)
  (call_expression . (identifier) @binding.type)) @binding

; Local names (`@local.name`): parameters and local `val`/`var`s of a function, loop
; variables, and lambda parameters (`@local.scope`: the lambda). Kotlin looks a called name
; up in the local scope first: `parse(x)` with `parse: (Int) -> Unit` invokes the
; parameter, never a function of the same name elsewhere.
(lambda_literal
  (lambda_parameters (variable_declaration (identifier) @local.name))) @local.scope
(function_value_parameters (parameter (identifier) @local.name))
(property_declaration (variable_declaration (identifier) @local.name))
(for_statement (variable_declaration (identifier) @local.name))
