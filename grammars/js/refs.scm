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

; Mentions: names used as values (a method passed as a callback, `obj["name"]`), which
; resolution does not link but answers about uses account for. Not edges: `@mention`.
(member_expression object: (_) @qualifier property: (property_identifier) @name) @mention
(arguments (identifier) @name) @mention
(subscript_expression object: (_) @qualifier index: (string (string_fragment) @name)) @mention
(pair value: (identifier) @name) @mention
(shorthand_property_identifier) @name @mention
(array (identifier) @name) @mention
(variable_declarator value: (identifier) @name) @mention
