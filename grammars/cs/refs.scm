; C# uses of names. Capture conventions: grammars/README.md.

; Parents a field names are wildcards (compile cost, grammars/README.md): only a
; `qualified_name` has `qualifier:` and `name:`, only a `member_access_expression` has
; `expression:` and `name:`, and only a `conditional_access_expression` holds a
; `member_binding_expression`.
; Calls: `f()`, `F<T>()`, `a.b.F()`, `a.F<T>()`.
(invocation_expression function: [(identifier) @name (generic_name (identifier) @name)]) @reference.call
(invocation_expression function: (_ expression: _ @qualifier
                                   name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
; Null-conditional calls: `a?.F()`, `a?.F<T>()`.
(invocation_expression function: (_ condition: _ @qualifier
  (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)]))) @reference.call
; Constructions: `new C()`, `new C<T>()`, `new A.B.C()`.
(object_creation_expression type: [(identifier) @name (generic_name (identifier) @name)]) @reference.call
(object_creation_expression type: (_ qualifier: (_) @qualifier
                                    name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call

; Inheritance. A base list does not say which entries are classes and which interfaces:
; all are `extends`, and the map records one that resolves to an interface as
; `implements` (grammars/README.md, refs.scm).
(base_list [(identifier) @name (generic_name (identifier) @name)]) @reference.extends
(base_list (_ qualifier: (_) @qualifier
                           name: [(identifier) @name (generic_name (identifier) @name)])) @reference.extends
(base_list (primary_constructor_base_type type: [(identifier) @name (generic_name (identifier) @name)])) @reference.extends

; Attributes (before types: the first pattern wins between plain references).
(attribute name: [(identifier) @name (generic_name (identifier) @name)]) @reference.decorator
(attribute name: (_ qualifier: (_) @qualifier name: (identifier) @name)) @reference.decorator

; Types in type positions (fields, parameters, returns, casts, generics, `T?`, `T[]`);
; a bare identifier elsewhere is a variable, not a type. Definition names are left out
; by the engine.
(_ type: [(identifier) @name (generic_name (identifier) @name)] @reference.type)
(_ returns: [(identifier) @name (generic_name (identifier) @name)] @reference.type)
(type_argument_list [(identifier) @name (generic_name (identifier) @name)] @reference.type)
(_ type: (_ qualifier: (_) @qualifier name: (identifier) @name) @reference.type)
(_ returns: (_ qualifier: (_) @qualifier name: (identifier) @name) @reference.type)
(type_parameter_constraint (type [(identifier) @name (generic_name (identifier) @name)]) @reference.type)
