; C++ names bound to types. Capture conventions: grammars/README.md.

; void f(SessionStore& store, SessionStore* p, ns::Q q)   SessionStore s(1);
([(parameter_declaration
    type: [(type_identifier) @binding.type
           (qualified_identifier scope: (_) @binding.qualifier name: (type_identifier) @binding.type)
           (template_type name: (type_identifier) @binding.type)]
    declarator: [(identifier) @binding.name
                 (reference_declarator (identifier) @binding.name)
                 (pointer_declarator declarator: (identifier) @binding.name)])
  (declaration
    type: [(type_identifier) @binding.type
           (qualified_identifier scope: (_) @binding.qualifier name: (type_identifier) @binding.type)]
    declarator: [(identifier) @binding.name
                 (init_declarator declarator: [(identifier) @binding.name
                                               (pointer_declarator declarator: (identifier) @binding.name)
                                               (reference_declarator (identifier) @binding.name)])
                 (pointer_declarator declarator: (identifier) @binding.name)
                 (reference_declarator (identifier) @binding.name)])] @binding)

; auto s = SessionStore(…);   auto p = new SessionStore(…);
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator declarator: (identifier) @binding.name
                               value: [(call_expression function: (identifier) @binding.type)
                                       (new_expression type: (type_identifier) @binding.type)])) @binding

; Data members: `SessionStore* store_;` bound as the field name.
(field_declaration_list
  (field_declaration
    type: [(type_identifier) @binding.type (template_type name: (type_identifier) @binding.type)]
    declarator: [(field_identifier) @binding.name
                 (pointer_declarator declarator: (field_identifier) @binding.name)
                 (reference_declarator (field_identifier) @binding.name)]) @binding)

; Local names (`@local.name`): parameters (function pointers, `std::function`s) and locals
; of a function, range-`for` variables, and lambda parameters (`@local.scope`: the lambda).
; A call of one (`parse(x)`, `m()` in `[](auto m) { m(); }`) is the local.
(lambda_expression
  declarator: (abstract_function_declarator
    parameters: (parameter_list
      (parameter_declaration
        declarator: [(identifier) @local.name
                     (reference_declarator (identifier) @local.name)])))) @local.scope
(parameter_declaration
  declarator: [(identifier) @local.name
               (pointer_declarator declarator: (identifier) @local.name)
               (reference_declarator (identifier) @local.name)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (identifier) @local.name)))])
(init_declarator declarator: [(identifier) @local.name
                              (pointer_declarator declarator: (identifier) @local.name)
                              (reference_declarator (identifier) @local.name)])
(for_range_loop declarator: [(identifier) @local.name
                             (reference_declarator (identifier) @local.name)])

; A function-like macro's parameters: its body's words of those names are the arguments.
(preproc_function_def parameters: (preproc_params (identifier) @local.name))
