; Kotlin definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.
; (The kotlin-ng grammar has one `class_declaration` for classes, interfaces and enums.)

(class_declaration "interface" name: (identifier) @name) @definition.interface
(class_declaration name: (identifier) @name (enum_class_body) @body) @definition.enum
(class_declaration name: (identifier) @name (class_body) @body) @definition.class
(class_declaration name: (identifier) @name) @definition.class
; `object` (and companion objects with a name) → class.
(object_declaration name: (identifier) @name (class_body) @body) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(companion_object name: (identifier) @name (class_body) @body) @definition.class
(type_alias type: (identifier) @name) @definition.type_alias

; Enum constants are nodes, so "the members of an enum" is answerable.
(enum_entry . (identifier) @name) @definition.constant

; Secondary constructors are methods named `constructor` (the primary one is the class line).
(secondary_constructor "constructor" @name (block) @body) @definition.method
(secondary_constructor "constructor" @name) @definition.method

; Functions: in a class body they become methods.
(function_declaration name: (identifier) @name (function_body) @body) @definition.function
(function_declaration name: (identifier) @name) @definition.function
; Extension functions (`fun String.toHttpUrl()`) are declared apart from the type they
; extend: qualified by it (`String.toHttpUrl`), like Go's methods by their receiver.
(function_declaration
  [(user_type (identifier) @owner .)
   (user_type (identifier) @owner . (type_arguments) .)
   (nullable_type (user_type (identifier) @owner .))]
  name: (identifier) @name) @definition.function

; Properties: in a class body or the primary constructor (`val`/`var` parameters);
; top level: `const val` constants, other top-level properties variables.
(class_body (property_declaration (variable_declaration . (identifier) @name)) @definition.property)
(class_parameter ["val" "var"] (identifier) @name) @definition.property
((source_file (property_declaration (modifiers) @_m (variable_declaration . (identifier) @name)) @definition.constant)
  (#match? @_m "const"))
(source_file (property_declaration (variable_declaration . (identifier) @name)) @definition.variable)

; KDoc: a `/** … */` comment right before a declaration.
((block_comment) @doc . (_) @doc.for
  (#match? @doc "^/[*][*]"))

; Visibility: public by default; `private` is not exported.
[(class_declaration) (object_declaration) (companion_object) (type_alias) (enum_entry)
 (function_declaration) (property_declaration) (class_parameter) (secondary_constructor)] @exported
((_ (modifiers (visibility_modifier) @_v)) @unexported (#eq? @_v "private"))
