; TypeScript names bound to types (TS and TSX). Capture conventions: grammars/README.md.

; (store: SessionStore), (s?: ns.Store)
([(required_parameter pattern: (identifier) @binding.name
    type: (type_annotation [(type_identifier) @binding.type
                            (generic_type name: (type_identifier) @binding.type)
                            (nested_type_identifier module: (_) @binding.qualifier name: (type_identifier) @binding.type)]))
  (optional_parameter pattern: (identifier) @binding.name
    type: (type_annotation [(type_identifier) @binding.type
                            (generic_type name: (type_identifier) @binding.type)
                            (nested_type_identifier module: (_) @binding.qualifier name: (type_identifier) @binding.type)]))] @binding)

; constructor(private store: SessionStore) → this.store
(required_parameter (accessibility_modifier) pattern: (identifier) @binding.name
  type: (type_annotation (type_identifier) @binding.type)) @binding

; let x: Store;  class fields  private data: Map<…>
(variable_declarator name: (identifier) @binding.name
  type: (type_annotation [(type_identifier) @binding.type
                          (generic_type name: (type_identifier) @binding.type)
                          (nested_type_identifier module: (_) @binding.qualifier name: (type_identifier) @binding.type)])) @binding
(public_field_definition name: (_) @binding.name
  type: (type_annotation [(type_identifier) @binding.type
                          (generic_type name: (type_identifier) @binding.type)
                          (nested_type_identifier module: (_) @binding.qualifier name: (type_identifier) @binding.type)])) @binding

; const x = new Store(…)   this.x = new ns.Store(…)
(variable_declarator name: (identifier) @binding.name
  value: (new_expression constructor: [(identifier) @binding.type
                                       (member_expression object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(assignment_expression left: [(identifier) (member_expression)] @binding.name
  right: (new_expression constructor: [(identifier) @binding.type
                                       (member_expression object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(public_field_definition name: (_) @binding.name
  value: (new_expression constructor: (identifier) @binding.type)) @binding
