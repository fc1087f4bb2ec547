; C# names bound to types. Capture conventions: grammars/README.md.

; Parents a field names are wildcards (compile cost, grammars/README.md): only a
; `qualified_name` has `qualifier:` and `name:`; a lambda's `parameters:` holding a
; `parameter` is a `parameter_list`.
; (SessionStore store)   T field;   T Prop { get; }   T x = …;
([(parameter type: [(identifier) @binding.type
                    (generic_name (identifier) @binding.type)
                    (nullable_type type: [(identifier) @binding.type (generic_name (identifier) @binding.type)])
                    (_ qualifier: (_) @binding.qualifier name: (identifier) @binding.type)]
    name: (identifier) @binding.name)
  (property_declaration type: [(identifier) @binding.type
                               (generic_name (identifier) @binding.type)
                               (nullable_type type: [(identifier) @binding.type (generic_name (identifier) @binding.type)])
                               (_ qualifier: (_) @binding.qualifier name: (identifier) @binding.type)]
    name: (identifier) @binding.name)
  (variable_declaration type: [(identifier) @binding.type
                               (generic_name (identifier) @binding.type)
                               (nullable_type type: [(identifier) @binding.type (generic_name (identifier) @binding.type)])
                               (_ qualifier: (_) @binding.qualifier name: (identifier) @binding.type)]
    (variable_declarator name: (identifier) @binding.name))] @binding)

; var x = new T(…);  (`var` is an `implicit_type`, no type name)
(variable_declaration type: (implicit_type)
  (variable_declarator name: (identifier) @binding.name
    (object_creation_expression type: [(identifier) @binding.type
                                       (generic_name (identifier) @binding.type)]))) @binding

; Local names (`@local.name`): parameters and locals of a method, loop variables, and lambda
; parameters (`@local.scope`: the lambda). A simple name finds a local before a member:
; `parse()` with an `Action parse` parameter invokes the delegate.
(lambda_expression
  parameters: [(implicit_parameter) @local.name
               (_ (parameter name: (identifier) @local.name))]) @local.scope
(parameter name: (identifier) @local.name)
(variable_declarator name: (identifier) @local.name)
(foreach_statement left: (identifier) @local.name)
