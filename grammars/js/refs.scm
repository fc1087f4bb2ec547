; JavaScript uses of names (JS and JSX). Capture conventions: grammars/README.md.

; Calls and constructions: `f()`, `a.b.f()`, `new C()`, `new ns.C()`.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call

; Inheritance: `class A extends B`, `class A extends ns.B`.
(class_heritage (identifier) @name) @reference.extends
(class_heritage (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.extends

; Decorators.
(decorator (identifier) @name) @reference.decorator
(decorator (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.decorator
(decorator (call_expression function: (identifier) @name)) @reference.decorator
(decorator (call_expression function: (member_expression object: (_) @qualifier property: (property_identifier) @name))) @reference.decorator

; Components used as JSX elements (`<Widget …>`) are calls.
(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
(jsx_opening_element name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
