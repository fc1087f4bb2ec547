; Go definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.

; Methods belong to their receiver's type (`@owner`), wherever it is declared.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @owner
             (pointer_type (type_identifier) @owner)
             (generic_type type: (type_identifier) @owner)
             (pointer_type (generic_type type: (type_identifier) @owner))]))
  name: (field_identifier) @name
  body: (_)? @body) @definition.method

(function_declaration name: (identifier) @name body: (_)? @body) @definition.function

; A declaration of one type/const/var: the signature starts at its keyword (`@context`).
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct .) @context
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface .) @context
(type_declaration . (type_spec name: (type_identifier) @name) @definition.type_alias .) @context
(type_declaration . (type_alias name: (type_identifier) @name) @definition.type_alias .) @context
(source_file (const_declaration . (const_spec name: (identifier) @name) @definition.constant .) @context)
(source_file (var_declaration . (var_spec name: (identifier) @name) @definition.variable .) @context)

(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type_alias
(type_alias name: (type_identifier) @name) @definition.type_alias

; Struct fields and interface methods.
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.property)
(interface_type (method_elem name: (field_identifier) @name) @definition.method)

; Package-level constants and variables.
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))

; Doc comments: the `//` lines right above a declaration (for a grouped type/const/var
; declaration the comment documents its first spec).
((comment)+ @doc . (_) @doc.for)
(type_declaration (comment)+ @doc . (type_spec) @doc.for)
(const_declaration (comment)+ @doc . (const_spec) @doc.for)
(var_declaration (comment)+ @doc . (var_spec) @doc.for)
(field_declaration_list (comment)+ @doc . (field_declaration) @doc.for)

; Exported: the name starts with an upper-case letter.
([(function_declaration name: (_) @_n)
  (method_declaration name: (_) @_n)
  (type_spec name: (_) @_n)
  (type_alias name: (_) @_n)
  (field_declaration name: (_) @_n)
  (method_elem name: (_) @_n)
  (const_spec name: (_) @_n)
  (var_spec name: (_) @_n)] @exported
  (#match? @_n "^[A-Z]"))
