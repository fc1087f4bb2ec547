; Ruby definitions. Capture conventions: grammars/README.md.
; `class A::B` (compact style) defines `B` inside `A`: the scope before it is the class's
; `@owner`, so it is qualified `A.B` exactly like the nested `module A; class B` (a class
; reopened in another file, either way, has the same qualified name: the same class).

; `def x` (a method inside a class, a function inside a module or at the top level) and
; `def self.x` (a singleton method). The signature is the `def` line.
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function

; (`(_ scope: …)`: only a `scope_resolution` has `scope:`; grammars/README.md.)
(class name: [(constant) @name
              (scope_resolution !scope name: (constant) @name)
              (_ scope: (_) @owner name: (constant) @name)]) @definition.class
(module name: [(constant) @name
               (scope_resolution !scope name: (constant) @name)
               (_ scope: (_) @owner name: (constant) @name)]) @definition.module

; `DEFAULT_TTL = 3600`, `STORE = SessionStore.new` (Ruby forbids them inside methods).
(assignment left: (constant) @name) @definition.constant

; Docs: the comment lines right before a definition.
((comment)+ @doc . [(class) (module) (method) (singleton_method) (assignment)] @doc.for)

; Ruby's `private` is a call that changes what follows, which queries cannot follow:
; every definition counts as public, except names starting with `_` by convention.
[(class) (module) (method) (singleton_method) (assignment)] @exported
((method name: (identifier) @_n) @unexported (#match? @_n "^_"))
