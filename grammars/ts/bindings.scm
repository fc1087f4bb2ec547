; TypeScript names bound to types (TS and TSX). Capture conventions: grammars/README.md.

; Parents a field names are wildcards (compile cost, grammars/README.md): a `type:` of a
; parameter, declarator or field is a `type_annotation`; only a `nested_type_identifier`
; has `module:`; a `member_expression` is the only expression with `object:` and
; `property:`; a function's `parameters:` is `formal_parameters`; an `if`'s `condition:`
; a `parenthesized_expression`.

; (store: SessionStore), (s?: ns.Store)
([(required_parameter pattern: (identifier) @binding.name
    type: (_ [(type_identifier) @binding.type
                            (generic_type name: (type_identifier) @binding.type)
                            (_ module: (_) @binding.qualifier name: (type_identifier) @binding.type)]))
  (optional_parameter pattern: (identifier) @binding.name
    type: (_ [(type_identifier) @binding.type
                            (generic_type name: (type_identifier) @binding.type)
                            (_ module: (_) @binding.qualifier name: (type_identifier) @binding.type)]))] @binding)

; constructor(private store: SessionStore) → this.store
(required_parameter (accessibility_modifier) pattern: (identifier) @binding.name
  type: (_ (type_identifier) @binding.type)) @binding

; let x: Store;  class fields  private data: Map<…>
(variable_declarator name: (identifier) @binding.name
  type: (_ [(type_identifier) @binding.type
                          (generic_type name: (type_identifier) @binding.type)
                          (_ module: (_) @binding.qualifier name: (type_identifier) @binding.type)])) @binding
(public_field_definition name: (_) @binding.name
  type: (_ [(type_identifier) @binding.type
                          (generic_type name: (type_identifier) @binding.type)
                          (_ module: (_) @binding.qualifier name: (type_identifier) @binding.type)])) @binding

; const x = new Store(…)   this.x = new ns.Store(…)
(variable_declarator name: (identifier) @binding.name
  value: (new_expression constructor: [(identifier) @binding.type
                                       (_ object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(assignment_expression left: [(identifier) (member_expression)] @binding.name
  right: (new_expression constructor: [(identifier) @binding.type
                                       (_ object: (_) @binding.qualifier property: (property_identifier) @binding.type)])) @binding
(public_field_definition name: (_) @binding.name
  value: (new_expression constructor: (identifier) @binding.type)) @binding

; Local names (`@local.name`): parameters, local variables and loop variables of a
; function, and arrow/function-expression parameters (`@local.scope`: that function). A bare
; call of one (`callback()`, `matched(…)` in `(matched) => matched(…)`) is the local,
; never a function of the same name elsewhere.
([(arrow_function parameter: (identifier) @local.name)
  (arrow_function parameters: (_
    [(required_parameter pattern: (identifier) @local.name)
     (optional_parameter pattern: (identifier) @local.name)
     (required_parameter pattern: (rest_pattern (identifier) @local.name))]))
  (function_expression parameters: (_
    [(required_parameter pattern: (identifier) @local.name)
     (optional_parameter pattern: (identifier) @local.name)
     (required_parameter pattern: (rest_pattern (identifier) @local.name))]))]) @local.scope
(formal_parameters
  [(required_parameter pattern: (identifier) @local.name)
   (optional_parameter pattern: (identifier) @local.name)
   (required_parameter pattern: (rest_pattern (identifier) @local.name))])
(variable_declarator name: [(identifier) @local.name
                            (array_pattern (identifier) @local.name)])
(for_in_statement left: (identifier) @local.name)

; if (x instanceof C) { … }: inside the block (`@binding.region`), `x` is a `C` (zod's
; `if (type instanceof ZodLazy) return getDiscriminator(type.schema)`). Only a condition
; that is the test alone: `a || b`, `!(…)` narrow nothing here.
(if_statement
  condition: (_
    (binary_expression
      left: (identifier) @binding.name
      operator: "instanceof"
      right: [(identifier) @binding.type
              (_ object: (_) @binding.qualifier property: (property_identifier) @binding.type)]))
  consequence: (statement_block) @binding.region) @binding
