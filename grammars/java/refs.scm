; Java uses of names. Capture conventions: grammars/README.md.

; Calls and constructions: `f()`, `a.b.f()`, `new C()`, `new a.b.C()`.
(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @qualifier name: (identifier) @name) @reference.call
(object_creation_expression type: [(type_identifier) @name (generic_type (type_identifier) @name)]) @reference.call
(object_creation_expression type: [(scoped_type_identifier (_) @qualifier . (type_identifier) @name)
                                   (generic_type (scoped_type_identifier (_) @qualifier . (type_identifier) @name))]) @reference.call

; A call's argument count (crates/extract/src/arity.rs), to choose among overloads.
(argument_list) @arguments
;
; Its arguments' kinds, where the text says them (crates/extract/src/arity.rs): `null` (no
; primitive takes it), other literals, a name (typed by the enclosing method's parameter
; of that name), a method of the caller's class called bare or on `this` (typed by its
; declared result), and a value whose type is written: a cast `(Class<?>) x`, a
; construction `new T(…)`, `String.valueOf(…)` / `String.format(…)` / `String.join(…)`
; (`@argument.value`, its type `@argument.type`, generic arguments left out).
(argument_list (null_literal) @argument.null)
(argument_list [(true) (false) (character_literal) (decimal_integer_literal) (hex_integer_literal)
                (octal_integer_literal) (binary_integer_literal) (decimal_floating_point_literal)
                (hex_floating_point_literal)] @argument.arithmetic)
(argument_list (string_literal) @argument.string)
(argument_list (identifier) @argument.name)
(argument_list (method_invocation !object name: (identifier) @argument.method) @argument.call)
(argument_list (method_invocation object: (this) name: (identifier) @argument.method) @argument.call)
(argument_list (cast_expression type: [(type_identifier) (scoped_type_identifier)] @argument.type) @argument.value)
(argument_list (cast_expression type: (generic_type . [(type_identifier) (scoped_type_identifier)] @argument.type)) @argument.value)
(argument_list (cast_expression type: [(integral_type) (floating_point_type) (boolean_type)]) @argument.arithmetic)
(argument_list (object_creation_expression type: [(type_identifier) (scoped_type_identifier)] @argument.type) @argument.value)
(argument_list (object_creation_expression type: (generic_type . [(type_identifier) (scoped_type_identifier)] @argument.type)) @argument.value)
((argument_list (method_invocation object: (identifier) @argument.type name: (identifier) @_m) @argument.value)
 (#eq? @argument.type "String")
 (#any-of? @_m "valueOf" "format" "join"))

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

; A type named before a member: `OptionFormatter.DEFAULT_OPT_PREFIX`, `Util.strip(s)`,
; `Option.builder()`. The grammar parses the object as an `identifier`, the same node as a
; variable's; one spelled as Java spells types (an upper-case letter first, a lower-case one
; after it, so no `CONSTANT`) is taken for a type's name. A variable spelled so names no
; type, and resolution finds none; a type spelled `URL` or `IO` is not captured (unfinished).
((field_access object: (identifier) @name) @reference.type
 (#match? @name "^[A-Z][A-Za-z0-9_$]*[a-z]"))
((method_invocation object: (identifier) @name) @reference.type
 (#match? @name "^[A-Z][A-Za-z0-9_$]*[a-z]"))

; Types anywhere (fields, parameters, generics); definition names are left out by the engine.
(type_identifier) @name @reference.type
(scoped_type_identifier (_) @qualifier . (type_identifier) @name) @reference.type

; Annotations.
(marker_annotation name: (identifier) @name) @reference.decorator
(annotation name: (identifier) @name) @reference.decorator

; Method references `s::refresh`, `this::f`, `T::m`: a use of the method (not a call).
(method_reference . (_) @qualifier . (identifier) @name .) @reference.method

; Javadoc (`/** … */`): `{@link Type#member(A, B)}`, `@see`, `@throws` name code; the grammar
; does not parse a comment: its text is read with the manifest's `[doc_links]`.
(block_comment) @doc.links
