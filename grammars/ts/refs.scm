; TypeScript uses of names (TS and TSX grammars). Capture conventions: grammars/README.md.

; Parents a field names are wildcards (compile cost, grammars/README.md): of the nodes in a
; call's `function:`, a `new`'s `constructor:`, an `extends` value or a decorator, only a
; `member_expression` has `object:` and `property:` (a `nested_identifier` has them too but
; is never there); only a `nested_type_identifier` has `module:`.

; Calls and constructions: `f()`, `a.b.f()`, `new C()`, `new ns.C()`.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (_ object: (_) @qualifier property: (property_identifier) @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (_ object: (_) @qualifier property: (property_identifier) @name)) @reference.call

; Inheritance: `class A extends B implements I`, `interface I extends J`.
(extends_clause value: (identifier) @name) @reference.extends
(extends_clause value: (_ object: (_) @qualifier property: (property_identifier) @name)) @reference.extends
(implements_clause [(type_identifier) @name (generic_type name: (type_identifier) @name)]) @reference.implements
(implements_clause (_ module: (_) @qualifier name: (type_identifier) @name)) @reference.implements
(extends_type_clause type: [(type_identifier) @name (generic_type name: (type_identifier) @name)]) @reference.extends
(extends_type_clause type: (_ module: (_) @qualifier name: (type_identifier) @name)) @reference.extends

; Types anywhere (annotations, generics, aliases); definition names are left out by the engine.
(type_identifier) @name @reference.type
(nested_type_identifier module: (_) @qualifier name: (type_identifier) @name) @reference.type

; Decorators.
(decorator (identifier) @name) @reference.decorator
(decorator (_ object: (_) @qualifier property: (property_identifier) @name)) @reference.decorator
(decorator (call_expression function: (identifier) @name)) @reference.decorator
(decorator (call_expression function: (_ object: (_) @qualifier property: (property_identifier) @name))) @reference.decorator

; Mentions: names used as values (a method passed as a callback, `obj["name"]`), which
; resolution does not link but answers about uses account for. Not edges: `@mention`.
(member_expression object: (_) @qualifier property: (property_identifier) @name) @mention
(arguments (identifier) @name) @mention
(subscript_expression object: (_) @qualifier index: (string (string_fragment) @name)) @mention
(pair value: (identifier) @name) @mention
(shorthand_property_identifier) @name @mention
(array (identifier) @name) @mention
(variable_declarator value: (identifier) @name) @mention
; A class, enum or namespace at the head of a member access: `ZodBoolean.create`,
; `Kind.Value`. Capitalised only (a lower-case head is a variable, whose member is the use).
((member_expression object: (identifier) @name) @mention
  (#match? @name "^[A-Z]"))
; `x instanceof C`: a use of the class.
(binary_expression operator: "instanceof" right: (identifier) @name) @mention
; `typeof C` in a type (`(typeof ZodBoolean)["create"]`): a use of the value `C`.
(type_query (identifier) @name) @mention
; An object literal's key (`{ path: ctx.path }`): a property of the literal's contextual
; type, which tsserver relates to the interface's (or a class's) member of that name.
(pair key: (property_identifier) @name) @mention
