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
