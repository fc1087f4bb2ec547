; Scala names bound to types. Capture conventions: grammars/README.md.

; `(_ type: … type_arguments: (_))` is a `generic_type`: in a type position no other node has
; both fields (a `case_class_pattern` has them in patterns only), and a wildcard parent
; costs nothing to compile where a named `generic_type` did (grammars/README.md).
; (store: SessionStore)   class C(store: SessionStore)   val x: T = …   val x: a.b.T[U] = …
([(parameter name: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (_ type: (type_identifier) @binding.type type_arguments: (_))
           (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .)
           (_ type: (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .) type_arguments: (_))])
  (class_parameter name: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (_ type: (type_identifier) @binding.type type_arguments: (_))
           (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .)
           (_ type: (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .) type_arguments: (_))])
  (val_definition pattern: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (_ type: (type_identifier) @binding.type type_arguments: (_))
           (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .)
           (_ type: (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .) type_arguments: (_))])
  (var_definition pattern: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (_ type: (type_identifier) @binding.type type_arguments: (_))
           (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .)
           (_ type: (stable_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type .) type_arguments: (_))])] @binding)

; val x = T(…)   val x = new T(…)
([(val_definition pattern: (identifier) @binding.name !type
    value: [(call_expression function: (identifier) @binding.type)
            (instance_expression [(type_identifier) @binding.type
                                  (_ type: (type_identifier) @binding.type type_arguments: (_))])])
  (var_definition pattern: (identifier) @binding.name !type
    value: [(call_expression function: (identifier) @binding.type)
            (instance_expression [(type_identifier) @binding.type
                                  (_ type: (type_identifier) @binding.type type_arguments: (_))])])] @binding)

; Local names (`@local.name`): parameters and local `val`/`var`s of a method, `for`
; enumerators, and lambda parameters (`@local.scope`: the lambda). `parse(x)` with
; `parse: Int => Unit` applies the parameter, never a method of the same name elsewhere.
(lambda_expression parameters: (identifier) @local.name) @local.scope
; (A lambda's `parameters:` holding a `binding` is a `bindings`.)
(lambda_expression
  parameters: (_ (binding name: (identifier) @local.name))) @local.scope
(parameter name: (identifier) @local.name)
(val_definition pattern: (identifier) @local.name)
(var_definition pattern: (identifier) @local.name)
(enumerator . (identifier) @local.name)
