; PHP uses of names. Capture conventions: grammars/README.md.
; A variable qualifier is captured without its `$` (`$this->get()` → `this`, `$store` → `store`).

; Calls: `f()`, `\A\f()`, `$x->f()`, `$x?->f()`, `X::f()`, `self::f()`, `new X()`.
(function_call_expression function: (name) @name) @reference.call
(function_call_expression function: (qualified_name prefix: (_) @qualifier (name) @name)) @reference.call
(member_call_expression object: (variable_name (name) @qualifier) name: (name) @name) @reference.call
(member_call_expression object: (member_access_expression) @qualifier name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (variable_name (name) @qualifier) name: (name) @name) @reference.call
(scoped_call_expression scope: [(name) (relative_scope)] @qualifier name: (name) @name) @reference.call
(scoped_call_expression scope: (qualified_name (name) @qualifier) name: (name) @name) @reference.call
(object_creation_expression [(name) @name (qualified_name (name) @name)]) @reference.call

; Inheritance.
(base_clause [(name) @name (qualified_name (name) @name)] @reference.extends)
(class_interface_clause [(name) @name (qualified_name (name) @name)] @reference.implements)
; `use Trait;` in a class body: the class takes the trait's members (like a mixin).
(use_declaration [(name) @name (qualified_name (name) @name)] @reference.implements)

; Type references: parameter, property and return types.
(named_type [(name) @name (qualified_name (name) @name)]) @reference.type
