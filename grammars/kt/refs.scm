; Kotlin uses of names. Capture conventions: grammars/README.md.

; Calls and constructions (Kotlin has no `new`): `f()`, `a.b.f()`, `T()`.
(call_expression . (identifier) @name) @reference.call
(call_expression . (navigation_expression . (_) @qualifier . (identifier) @name .)) @reference.call

; Inheritance: `: Base()` calls a superclass constructor (extends); `: Iface` implements.
(delegation_specifier (constructor_invocation (user_type (identifier) @name .))) @reference.extends
(delegation_specifier (user_type (identifier) @name .)) @reference.implements

; Types anywhere; definition names are left out by the engine.
(user_type (identifier) @name .) @reference.type
(user_type (identifier) @name . (type_arguments)) @reference.type

; Annotations.
(annotation (user_type (identifier) @name)) @reference.decorator

; Callable references `s::refresh`, `::top` (a use, not a call). The grammar gives `s::m` the
; node of `s.m`: only the text tells them apart.
((navigation_expression . (_) @qualifier . (identifier) @name .) @reference.method
  (#match? @reference.method "^[^(]*::[A-Za-z_][A-Za-z0-9_]*$"))
(callable_reference . (identifier) @name .) @reference.method
