; Ruby names bound to types. Capture conventions: grammars/README.md.
; Ruby has no declared types: only constructions bind (`x = SessionStore.new`,
; `STORE = Shop::SessionStore.new(…)`, `@store = …` within its method).

((assignment
   left: [(constant) (identifier) (instance_variable)] @binding.name
   right: (call receiver: [(constant) @binding.type
                          (scope_resolution !scope name: (constant) @binding.type)
                          (_ scope: (_) @binding.qualifier name: (constant) @binding.type)]
                method: (identifier) @_new)) @binding
  (#eq? @_new "new"))
