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

; Local names (`@local.name`): parameters (function pointers too) and locals of a function.
; A call through a function-pointer parameter (`parse(x)`) is the parameter, never a
; function of the same name elsewhere.
(parameter_declaration
  declarator: [(identifier) @local.name
               (pointer_declarator declarator: (identifier) @local.name)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (identifier) @local.name)))])
(init_declarator declarator: [(identifier) @local.name
                              (pointer_declarator declarator: (identifier) @local.name)])

; A function-like macro's parameters: its body's words of those names are the arguments.
(preproc_function_def parameters: (preproc_params (identifier) @local.name))
