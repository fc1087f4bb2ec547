; Swift uses of names. Capture conventions: grammars/README.md.
; The grammar crate's TAGS_QUERY has no calls: these are navmap's own.

; Calls: `f(x)`, `Type(x)` (construction), `f { … }` (trailing closure), `obj.m(x)`,
; `self.m(x)`, `Type.m(x)`. Subscripts (`data[key]`) parse as calls too: their arguments
; open with `[`, and they are left out.
; Wildcard parents where fields name them (grammars/README.md, compile cost): only a
; `call_suffix` holds `value_arguments` among a call's children; only a
; `navigation_expression` has `target:` and `suffix:` (its `suffix:` a `navigation_suffix`);
; only an `inheritance_specifier` has `inherits_from:` among a declaration's children.
(call_expression (simple_identifier) @name (_ (value_arguments "(")) ) @reference.call
(call_expression (simple_identifier) @name (call_suffix (lambda_literal))) @reference.call
(call_expression
  (_ target: (_) @qualifier suffix: (_ suffix: (simple_identifier) @name))
  (call_suffix [(value_arguments "(") (lambda_literal)])) @reference.call

; Inheritance. A class's list may start with its superclass and protocols follow, which the
; syntax cannot tell apart: all are `extends`. Structs, enums and actors only conform to
; protocols (`implements`); so do extensions, on behalf of the extended type (`@owner`).
; Protocols refine protocols (`extends`).
(class_declaration declaration_kind: "class"
  (_ inherits_from: (user_type (type_identifier) @name)) @reference.extends)
(class_declaration declaration_kind: ["struct" "enum" "actor"]
  (_ inherits_from: (user_type (type_identifier) @name)) @reference.implements)
(class_declaration declaration_kind: "extension"
  name: (user_type (type_identifier) @owner)
  (_ inherits_from: (user_type (type_identifier) @name)) @reference.implements)
(protocol_declaration
  (_ inherits_from: (user_type (type_identifier) @name)) @reference.extends)

; Types anywhere; definition names are left out by the engine.
((type_identifier) @name @reference.type)
