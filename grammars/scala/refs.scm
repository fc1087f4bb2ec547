; Scala uses of names. Capture conventions: grammars/README.md.

; Calls (also `T(…)`, a case class's or companion's `apply`): `f()`, `a.b.f()`, `f[T]()`.
(call_expression function: (identifier) @name) @reference.call
; (`(_ value: … field: …)`: only a `field_expression` has both fields; grammars/README.md.)
(call_expression function: (_ value: (_) @qualifier field: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (_ value: (_) @qualifier field: (identifier) @name))) @reference.call
; (`(_ type: … type_arguments: (_))`: a `generic_type`, see bindings.scm.)
; Constructions: `new C()`, `new C[T]()`, `new a.b.C()`.
(instance_expression [(type_identifier) @name (_ type: (type_identifier) @name type_arguments: (_))]) @reference.call
(instance_expression [(stable_type_identifier (_) @qualifier . (type_identifier) @name .)
                      (_ type: (stable_type_identifier (_) @qualifier . (type_identifier) @name .) type_arguments: (_))]) @reference.call

; Inheritance: `extends B(…) with T`. The clause does not say class or trait: all are
; `extends`, and the map records one that resolves to a trait as `implements`.
(extends_clause [(type_identifier) @name (_ type: (type_identifier) @name type_arguments: (_))]) @reference.extends
(extends_clause [(stable_type_identifier (_) @qualifier . (type_identifier) @name .)
                       (_ type: (stable_type_identifier (_) @qualifier . (type_identifier) @name .) type_arguments: (_))]) @reference.extends

; Annotations (before types: the first pattern wins between plain references).
(annotation name: (type_identifier) @name) @reference.decorator
(annotation name: (stable_type_identifier (_) @qualifier . (type_identifier) @name .)) @reference.decorator

; Scala 3 `export a.b` forwards a member: a reference to it (Scala's nearest re-export).
(export_declaration (identifier) @qualifier . (identifier) @name .) @reference.export

; Types anywhere; definition names are left out by the engine.
(type_identifier) @name @reference.type
(stable_type_identifier (_) @qualifier . (type_identifier) @name .) @reference.type
