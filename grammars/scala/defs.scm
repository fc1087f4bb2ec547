; Scala definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.
; Packages are not nodes (like Java): the resolver reads `package` clauses from the files.

(class_definition name: (identifier) @name body: (_) @body) @definition.class
(class_definition name: (identifier) @name) @definition.class
; `object` (and `case object`) → class.
(object_definition name: (identifier) @name body: (_) @body) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name body: (_) @body) @definition.trait
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name body: (_) @body) @definition.enum
(package_object name: (identifier) @name body: (_) @body) @definition.module
(type_definition name: (type_identifier) @name) @definition.type_alias

; Enum cases are nodes, so "the members of an enum" is answerable.
(simple_enum_case name: (identifier) @name) @definition.constant
(full_enum_case name: (identifier) @name) @definition.constant

; Functions: in a class, object or trait body they become methods.
(function_definition name: (identifier) @name body: (_) @body) @definition.function
(function_declaration name: (identifier) @name) @definition.function

; (`(_ … pattern: …)`: among a body's or a file's children only `val_definition` and
; `var_definition` have a `pattern:` field; a wildcard parent costs nothing to compile,
; grammars/README.md.)
; Values: `final val` is a constant; other `val`/`var` in a template body properties, at the
; top level (Scala 3) variables; local values in function bodies are not nodes.
((template_body (_ (modifiers) @_m pattern: (identifier) @name) @definition.constant)
  (#match? @_m "final"))
((compilation_unit (_ (modifiers) @_m pattern: (identifier) @name) @definition.constant)
  (#match? @_m "final"))
(template_body [(_ pattern: (identifier) @name)
                (val_declaration name: (identifier) @name)
                (var_declaration name: (identifier) @name)] @definition.property)
(compilation_unit (_ pattern: (identifier) @name) @definition.variable)
; Class parameters are members (a plain one is a private field the body may use, also as
; `this.x`); public when `val`/`var` or of a `case class`.
(class_parameter name: (identifier) @name) @definition.property

; Scaladoc: a `/** … */` comment right before a definition.
((block_comment) @doc . (_) @doc.for
  (#match? @doc "^/[*][*]"))

; Visibility: public by default; `private` and `protected` members are not exported.
[(class_definition) (object_definition) (trait_definition) (enum_definition) (package_object)
 (type_definition) (simple_enum_case) (full_enum_case) (function_definition)
 (function_declaration) (val_definition) (var_definition) (val_declaration)
 (var_declaration)] @exported
(class_parameter ["val" "var"]) @exported
; (`class_parameters` is the only child of a class holding a `class_parameter`.)
(class_definition "case" (_ (class_parameter) @exported))
((_ (modifiers (access_modifier) @_v)) @unexported (#match? @_v "^(private|protected)"))
