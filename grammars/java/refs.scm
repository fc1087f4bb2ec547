; Java uses of names. Capture conventions: grammars/README.md.

; Calls and constructions: `f()`, `a.b.f()`, `new C()`, `new a.b.C()`.
(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @qualifier name: (identifier) @name) @reference.call
(object_creation_expression type: [(type_identifier) @name (generic_type (type_identifier) @name)]) @reference.call
(object_creation_expression type: [(scoped_type_identifier (_) @qualifier . (type_identifier) @name)
                                   (generic_type (scoped_type_identifier (_) @qualifier . (type_identifier) @name))]) @reference.call

; A call's argument count (crates/extract/src/arity.rs), to choose among overloads.
(argument_list) @arguments

; Inheritance: `class A extends B implements I, J`, `interface I extends J`.
(superclass [(type_identifier) @name (generic_type (type_identifier) @name)]) @reference.extends
(superclass [(scoped_type_identifier (_) @qualifier . (type_identifier) @name)]) @reference.extends
(super_interfaces (type_list [(type_identifier) @name (generic_type (type_identifier) @name)])) @reference.implements
; Fully qualified, generic or not: `implements com.google.protobuf.MessageLite.Builder<T>`.
(superclass (generic_type (scoped_type_identifier (_) @qualifier . (type_identifier) @name))) @reference.extends
(super_interfaces (type_list [(scoped_type_identifier (_) @qualifier . (type_identifier) @name)
                              (generic_type (scoped_type_identifier (_) @qualifier . (type_identifier) @name))])) @reference.implements
(extends_interfaces (type_list [(scoped_type_identifier (_) @qualifier . (type_identifier) @name)
                                (generic_type (scoped_type_identifier (_) @qualifier . (type_identifier) @name))])) @reference.extends
(extends_interfaces (type_list [(type_identifier) @name (generic_type (type_identifier) @name)])) @reference.extends

; Types anywhere (fields, parameters, generics); definition names are left out by the engine.
(type_identifier) @name @reference.type
(scoped_type_identifier (_) @qualifier . (type_identifier) @name) @reference.type

; Annotations.
(marker_annotation name: (identifier) @name) @reference.decorator
(annotation name: (identifier) @name) @reference.decorator

; Method references `s::refresh`, `this::f`, `T::m`: a use of the method (not a call).
(method_reference . (_) @qualifier . (identifier) @name .) @reference.method
