; JavaScript names bound to types. Capture conventions: grammars/README.md.

; const x = new Store(…)   this.x = new ns.Store(…)   class fields
(variable_declarator name: (identifier) @binding.name
  value: (new_expression constructor: [(identifier) @binding.type
                                       (member_expression object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(assignment_expression left: [(identifier) (member_expression)] @binding.name
  right: (new_expression constructor: [(identifier) @binding.type
                                       (member_expression object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(field_definition property: (_) @binding.name
  value: (new_expression constructor: (identifier) @binding.type)) @binding
