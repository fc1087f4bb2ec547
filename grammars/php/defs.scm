; PHP definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.

; Methods (constructors included: `__construct` is a method); interface methods have no body.
(method_declaration name: (name) @name body: (_)? @body) @definition.method

(function_definition name: (name) @name body: (_) @body) @definition.function

(class_declaration name: (name) @name body: (_) @body) @definition.class
(interface_declaration name: (name) @name body: (_) @body) @definition.interface
(trait_declaration name: (name) @name body: (_) @body) @definition.trait
(enum_declaration name: (name) @name body: (_) @body) @definition.enum

; Enum cases are constants of their enum.
(enum_case name: (name) @name) @definition.constant

; Class constants and top-level `const X = …`.
(const_declaration (const_element (name) @name) @definition.constant)

; Properties: `private array $data` and promoted constructor parameters.
(property_declaration (property_element name: (variable_name (name) @name)) @definition.property)

; Docs: a `/** … */` (or `//`) comment right before a declaration.
((comment) @doc . [(class_declaration) (interface_declaration) (trait_declaration)
                   (enum_declaration) (function_definition) (method_declaration)
                   (const_declaration) (property_declaration)] @doc.for)

; Public: everything but `private`/`protected` members.
[(class_declaration) (interface_declaration) (trait_declaration) (enum_declaration)
 (function_definition) (method_declaration) (const_element) (property_element) (enum_case)] @exported
((method_declaration (visibility_modifier) @_v) @unexported (#any-of? @_v "private" "protected"))
((property_declaration (visibility_modifier) @_v (property_element) @unexported) (#any-of? @_v "private" "protected"))
((const_declaration (visibility_modifier) @_v (const_element) @unexported) (#any-of? @_v "private" "protected"))
