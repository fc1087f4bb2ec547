; Java names bound to types. Capture conventions: grammars/README.md.

; (SessionStore store, a.b.T t)   T x = …;   private T field;
([(formal_parameter type: [(type_identifier) @binding.type
                           (generic_type (type_identifier) @binding.type)
                           (scoped_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type)]
    name: (identifier) @binding.name)
  (field_declaration type: [(type_identifier) @binding.type
                            (generic_type (type_identifier) @binding.type)
                            (scoped_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type)]
    declarator: (variable_declarator name: (identifier) @binding.name))] @binding)

; T x = …;  (`var` is no type: `var x = new T()` below names it)
((local_variable_declaration type: [(type_identifier) @binding.type
                                    (generic_type (type_identifier) @binding.type)
                                    (scoped_type_identifier (_) @binding.qualifier . (type_identifier) @binding.type)]
   declarator: (variable_declarator name: (identifier) @binding.name)) @binding
  (#not-eq? @binding.type "var"))

; var x = new T(…);
(local_variable_declaration
  declarator: (variable_declarator name: (identifier) @binding.name
    value: (object_creation_expression type: [(type_identifier) @binding.type
                                              (generic_type (type_identifier) @binding.type)]))) @binding
