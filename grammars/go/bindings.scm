; Go names bound to types. Capture conventions: grammars/README.md.

; func (s *SessionStore) M(st *store.SessionStore, n Name)   var x T
([(parameter_declaration name: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (pointer_type (type_identifier) @binding.type)
           (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)
           (pointer_type (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type))])
  (var_spec name: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (pointer_type (type_identifier) @binding.type)
           (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)
           (pointer_type (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type))])] @binding)

; x := T{…}   x := &pkg.T{…}   x := pkg.New(…)   x := New(…)
(short_var_declaration
  left: (expression_list . (identifier) @binding.name)
  right: (expression_list . [(composite_literal type: [(type_identifier) @binding.type
                                                        (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)])
                             (unary_expression operand: (composite_literal type: [(type_identifier) @binding.type
                                                                                   (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)]))
                             (call_expression function: [(identifier) @binding.type
                                                         (selector_expression operand: (_) @binding.qualifier field: (field_identifier) @binding.type)])])) @binding

; p, ok := v.Interface().(Expr)   x := v.(*pkg.T): a type assertion's type.
(short_var_declaration
  left: (expression_list . (identifier) @binding.name)
  right: (expression_list . (type_assertion_expression
                              type: [(type_identifier) @binding.type
                                     (pointer_type (type_identifier) @binding.type)
                                     (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)
                                     (pointer_type (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type))]))) @binding

; var versionRE = lazyregexp.New(…)   var x = T{…}   (a package-level value, or a local)
(var_spec . name: (identifier) @binding.name
  value: (expression_list . [(composite_literal type: [(type_identifier) @binding.type
                                                        (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)])
                             (unary_expression operand: (composite_literal type: [(type_identifier) @binding.type
                                                                                   (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)]))
                             (call_expression function: [(identifier) @binding.type
                                                         (selector_expression operand: (_) @binding.qualifier field: (field_identifier) @binding.type)])])) @binding

; Struct fields: `client *Client`, `tr TileReader` (a chain `tc.client.Lookup()` is typed
; one field at a time). The binding is the field's definition: its scope is the struct.
(field_declaration name: (field_identifier) @binding.name
  type: [(type_identifier) @binding.type
         (pointer_type (type_identifier) @binding.type)
         (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type)
         (pointer_type (qualified_type package: (_) @binding.qualifier name: (type_identifier) @binding.type))]) @binding

; for _, r := range f.Require { r.setIndirect(…) }: the value is an element of the ranged
; slice (`@binding.of`: the map reads its declared type, `[]*Require`), in the loop's body.
(for_statement
  (range_clause left: (expression_list (_) . (identifier) @binding.name .)
                right: [(selector_expression) (identifier)] @binding.of)
  body: (block) @binding.region) @binding

; Local names (`@local.name`): parameters and variables of a function, and parameters of a
; function literal (`@local.scope`: the literal). A bare call of one (`parse(x)` with
; `parse func(int)`) is the local, never a function of the same name elsewhere.
(func_literal
  parameters: (parameter_list (parameter_declaration name: (identifier) @local.name))) @local.scope
(parameter_declaration name: (identifier) @local.name)
(variadic_parameter_declaration name: (identifier) @local.name)
(short_var_declaration left: (expression_list (identifier) @local.name))
(var_spec name: (identifier) @local.name)
(range_clause left: (expression_list (identifier) @local.name))
; `switch v := x.(type)` and `case v := <-ch:` bind locals too (a `return v` there is the
; local, no mention of a package-level `v`).
(type_switch_statement alias: (expression_list (identifier) @local.name))
(receive_statement left: (expression_list (identifier) @local.name))
