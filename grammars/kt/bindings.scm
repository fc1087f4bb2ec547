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
