; Rust names bound to types. Capture conventions: grammars/README.md.

; fn f(store: &mut SessionStore, s: crate::store::Store)   let x: Store = …
([(parameter pattern: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (generic_type type: (type_identifier) @binding.type)
           (scoped_type_identifier path: (_) @binding.qualifier name: (type_identifier) @binding.type)
           (reference_type type: [(type_identifier) @binding.type
                                  (generic_type type: (type_identifier) @binding.type)
                                  (scoped_type_identifier path: (_) @binding.qualifier name: (type_identifier) @binding.type)])])
  (let_declaration pattern: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (generic_type type: (type_identifier) @binding.type)
           (scoped_type_identifier path: (_) @binding.qualifier name: (type_identifier) @binding.type)
           (reference_type type: [(type_identifier) @binding.type
                                  (generic_type type: (type_identifier) @binding.type)
                                  (scoped_type_identifier path: (_) @binding.qualifier name: (type_identifier) @binding.type)])])] @binding)

; let s = Store::new(…);  let s = Store { … };  let s = mod::Store::new(…)
(let_declaration pattern: (identifier) @binding.name
  value: (call_expression function: (scoped_identifier
    path: [(identifier) @binding.type
           (scoped_identifier path: (_) @binding.qualifier name: (identifier) @binding.type)]))) @binding
(let_declaration pattern: (identifier) @binding.name
  value: (struct_expression name: [(type_identifier) @binding.type
                                   (scoped_type_identifier path: (_) @binding.qualifier name: (type_identifier) @binding.type)])) @binding

; Local names (`@local.name`): parameters, `let` and loop bindings of a function, and
; closure parameters (`@local.scope`: the closure). A bare call of one (`parse(x)` with
; `parse: impl Fn(…)`, `|matched| matched(…)`) is the local, never a function elsewhere.
(closure_expression
  parameters: (closure_parameters
    [(identifier) @local.name
     (parameter pattern: (identifier) @local.name)])) @local.scope
(parameter pattern: [(identifier) @local.name
                     (tuple_pattern (identifier) @local.name)])
(let_declaration pattern: [(identifier) @local.name
                           (tuple_pattern (identifier) @local.name)])
(for_expression pattern: [(identifier) @local.name
                          (tuple_pattern (identifier) @local.name)])
(let_condition pattern: (tuple_struct_pattern (identifier) @local.name))
