; C names bound to types. Capture conventions: grammars/README.md.

; void f(struct SessionStore *store)   struct BaseStore *base = …;   Id id;
([(parameter_declaration
    type: [(type_identifier) @binding.type
           (struct_specifier name: (type_identifier) @binding.type)
           (union_specifier name: (type_identifier) @binding.type)]
    declarator: [(identifier) @binding.name
                 (pointer_declarator declarator: (identifier) @binding.name)])
  (declaration
    type: [(type_identifier) @binding.type
           (struct_specifier name: (type_identifier) @binding.type)
           (union_specifier name: (type_identifier) @binding.type)]
    declarator: [(identifier) @binding.name
                 (pointer_declarator declarator: (identifier) @binding.name)
                 (init_declarator declarator: [(identifier) @binding.name
                                               (pointer_declarator declarator: (identifier) @binding.name)])])] @binding)

; Members: `struct BaseStore base;` bound as the field name.
(field_declaration_list
  (field_declaration
    type: [(type_identifier) @binding.type (struct_specifier name: (type_identifier) @binding.type)]
    declarator: [(field_identifier) @binding.name
                 (pointer_declarator declarator: (field_identifier) @binding.name)]) @binding)
