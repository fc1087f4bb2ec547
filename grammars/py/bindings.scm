; Python names bound to types. Capture conventions: grammars/README.md.
;
; `(_ …)` parents: where a field or the place already says which node it is, the parent is a
; wildcard (`(_ object: … attribute: …)` is an `attribute`, a class's `body: (_ …)` its
; `block`): tree-sitter analyses each named parent from every parse state where that node
; can begin, and this query's named parents were most of a one-file re-index (grammars/README.md,
; "Compile cost"). Each rewrite matches what the named form matched; the comments say why.

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
; One pattern per form, not one alternation (as the methods in defs.scm).
(parameters (identifier) @local.name)
(parameters (typed_parameter (identifier) @local.name))
(parameters (default_parameter name: (identifier) @local.name))
(parameters (typed_default_parameter name: (identifier) @local.name))
(parameters (list_splat_pattern (identifier) @local.name))
(parameters (dictionary_splat_pattern (identifier) @local.name))
; (A lambda's `parameters:` is `lambda_parameters`, an `alias:` of `as_pattern` its
; `as_pattern_target`.)
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
