; C# definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.
; Namespaces are not nodes (like Java packages): the resolver reads them from the files.

(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name body: (_) @body) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name body: (_) @body) @definition.struct
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name body: (_) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (_) @body) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type_alias

; Enum members are nodes, so "the members of an enum" is answerable.
(enum_member_declaration name: (identifier) @name) @definition.constant

; Parents a field or a child names are wildcards (compile cost, grammars/README.md): of a
; field's children only a `variable_declaration` holds a `variable_declarator`; of a
; record's only a `parameter_list` holds a `parameter`; a namespace's or interface's
; `body:` is a `declaration_list`.
; Members: methods, constructors and local functions (functions inside a method body).
(method_declaration name: (identifier) @name body: (_) @body) @definition.method
; Without a body (interfaces, `abstract`, `extern`): the signature runs to the `;`, so
; attributes on lines of their own don't stand in for it.
(method_declaration name: (identifier) @name ";" @body) @definition.method
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(local_function_statement name: (identifier) @name body: (_) @body) @definition.function
(local_function_statement name: (identifier) @name) @definition.function

; `const` fields are constants, other fields, properties and events properties.
; `@context`: the signature starts at the field's modifiers and type.
((field_declaration (modifier) @_m (_ (variable_declarator name: (identifier) @name) @definition.constant)) @context
  (#eq? @_m "const"))
(field_declaration (_ (variable_declarator name: (identifier) @name) @definition.property)) @context
(event_field_declaration (_ (variable_declarator name: (identifier) @name) @definition.property)) @context
(property_declaration name: (identifier) @name accessors: (_) @body) @definition.property
(property_declaration name: (identifier) @name) @definition.property
; Primary-constructor parameters of records are properties.
(record_declaration (_ (parameter name: (identifier) @name) @definition.property))

; XML doc comments: a run of `///` lines right before a declaration.
(((comment)+ @doc . (_) @doc.for)
  (#match? @doc "^///"))

; Visibility. Types outside other types default to `internal`, which every file of the
; assembly sees: exported unless `private`. Members (and nested types) default to
; `private`: exported when `public` or `internal` (also `protected internal`). Interface and
; enum members are public.
(compilation_unit [(class_declaration) (record_declaration) (struct_declaration)
                   (interface_declaration) (enum_declaration) (delegate_declaration)] @exported)
(namespace_declaration body: (_ [(class_declaration) (record_declaration)
  (struct_declaration) (interface_declaration) (enum_declaration) (delegate_declaration)] @exported))
((_ (modifier) @_m) @exported (#any-of? @_m "public" "internal"))
((field_declaration (modifier) @_m (_ (variable_declarator) @exported))
  (#any-of? @_m "public" "internal"))
((event_field_declaration (modifier) @_m (_ (variable_declarator) @exported))
  (#any-of? @_m "public" "internal"))
(interface_declaration body: (_ [(method_declaration) (property_declaration)] @exported))
(enum_member_declaration) @exported
((_ (modifier) @_m) @unexported (#eq? @_m "private"))

; `partial class Item` declared more than once in a file is one class (all members under
; `Item`, no `Item~2`); partial methods (a declaration and its implementation) likewise.
((_ (modifier) @_p) @partial (#eq? @_p "partial"))
