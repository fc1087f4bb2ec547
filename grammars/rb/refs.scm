; Ruby uses of names. Capture conventions: grammars/README.md.

; `X.new` / `A::X.new` constructs X: a call of the class (like `new X()` elsewhere).
; `(_ scope: …)`: only a `scope_resolution` has `scope:`, and a call's `arguments:` is
; always an `argument_list`: wildcard parents cost nothing to compile (grammars/README.md).
((call receiver: [(constant) @name
                  (scope_resolution !scope name: (constant) @name)
                  (_ scope: (_) @qualifier name: (constant) @name)]
       method: (identifier) @_new) @reference.call
  (#eq? @_new "new"))

; Calls with a receiver (`self.get(k)`, `STORE.refresh(k)`, `checker.validate(v)`) and bare
; calls (`validate(v)`, `puts x`). A bare name without arguments (`ttl`) may be a local
; variable or a method: not captured.
((call receiver: (_) @qualifier method: (identifier) @name) @reference.call
  (#not-eq? @name "new"))
(call !receiver method: (identifier) @name) @reference.call

; Inheritance and mixins (`include`/`extend`/`prepend M` → implements). A path's scope is
; the qualifier (`< Shop::BaseStore`, `include Util::Loggable`): the map looks the path up
; from the namespaces around the use (the manifest's `open_modules`).
(superclass [(constant) @name
             (scope_resolution !scope name: (constant) @name)
             (_ scope: (_) @qualifier name: (constant) @name)]) @reference.extends
((call !receiver
       method: (identifier) @_m
       arguments: (_ [(constant) @name
                                  (scope_resolution !scope name: (constant) @name)
                                  (_ scope: (_) @qualifier name: (constant) @name)])) @reference.implements
  (#any-of? @_m "include" "extend" "prepend"))

; Other uses of constants: `DEFAULT_TTL`, `Shop::Util::Email`.
(scope_resolution scope: (_) @qualifier name: (constant) @name) @reference.type
(scope_resolution !scope name: (constant) @name) @reference.type
(constant) @name @reference.type
