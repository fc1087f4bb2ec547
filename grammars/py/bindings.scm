; Python names bound to types. Capture conventions: grammars/README.md.

; def f(store: SessionStore, s: mod.Store = None)
(typed_parameter (identifier) @binding.name
  type: (type [(identifier) @binding.type
               (attribute object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding
(typed_default_parameter name: (identifier) @binding.name
  type: (type [(identifier) @binding.type
               (attribute object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding

; x: Store = …   self.x: Store = …
(assignment left: [(identifier) (attribute)] @binding.name
  type: (type [(identifier) @binding.type
               (attribute object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding

; x = Store(…)   self.x = mod.Store(…)
(assignment left: [(identifier) (attribute)] @binding.name
  right: (call function: [(identifier) @binding.type
                          (attribute object: (_) @binding.qualifier attribute: (identifier) @binding.type)])) @binding
