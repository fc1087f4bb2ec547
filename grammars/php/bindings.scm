; PHP names bound to types. Capture conventions: grammars/README.md.
; Names are captured without `$`, like the qualifiers in refs.scm.

; function f(SessionStore $store), promoted `private SessionStore $store`
(simple_parameter
  type: (named_type [(name) @binding.type
                     (qualified_name prefix: (_) @binding.qualifier (name) @binding.type)])
  name: (variable_name (name) @binding.name)) @binding
(property_promotion_parameter
  type: (named_type [(name) @binding.type
                     (qualified_name prefix: (_) @binding.qualifier (name) @binding.type)])
  name: (variable_name (name) @binding.name)) @binding

; $x = new SessionStore(…)
(assignment_expression
  left: (variable_name (name) @binding.name)
  right: (object_creation_expression [(name) @binding.type
                                      (qualified_name prefix: (_) @binding.qualifier (name) @binding.type)])) @binding
