; Python names bound to types. Capture conventions: grammars/README.md.

; def f(store: SessionStore, s: mod.Store = None)
(typed_parameter (identifier) @binding.name
  type: (type [(identifier) @binding.type
               (_ object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding
(typed_default_parameter name: (identifier) @binding.name
  type: (type [(identifier) @binding.type
               (_ object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding

; x: Store = …   self.x: Store = …
(assignment left: [(identifier) (attribute)] @binding.name
  type: (type [(identifier) @binding.type
               (_ object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding

; x = Store(…)   self.x = mod.Store(…)
(assignment left: [(identifier) (attribute)] @binding.name
  right: (_ function: [(identifier) @binding.type
                          (_ object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding

; Local names (`@local.name`): parameters, local variables, loop variables of a function,
; and lambda parameters (`@local.scope`: the lambda). A bare call of one is the local,
; never a function of the same name elsewhere (a pytest fixture parameter).
(parameters
  [(identifier) @local.name
   (typed_parameter (identifier) @local.name)
   (default_parameter name: (identifier) @local.name)
   (typed_default_parameter name: (identifier) @local.name)
   (list_splat_pattern (identifier) @local.name)
   (dictionary_splat_pattern (identifier) @local.name)])
(lambda
  parameters: (_
    [(identifier) @local.name
     (default_parameter name: (identifier) @local.name)])) @local.scope
(assignment left: [(identifier) @local.name
                   (pattern_list (identifier) @local.name)
                   (tuple_pattern (identifier) @local.name)])
(for_statement left: [(identifier) @local.name
                      (pattern_list (identifier) @local.name)])
(as_pattern alias: (_ (identifier) @local.name))
