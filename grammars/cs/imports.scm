; C# `using` directives. Capture conventions: grammars/README.md.
; A file's own namespace needs no pattern: the resolver reads `namespace` lines itself.

; using A.B;  using static A.B.C;  → everything of namespace `A.B` (or of type `C`): a glob.
((using_directive . [(identifier) (qualified_name)] @import.module .) @import @import.glob
  (#not-match? @import "="))
((using_directive "static" [(identifier) (qualified_name)] @import.module .) @import @import.glob)
; using D = A.B.C;  → module `A.B.C` (the resolver finds namespace `A.B` and its file named
; `C`, else its files), name `C`, local name `D`. A namespace alias (`using D = A.B;`)
; has the same form: its name then binds nothing.
(using_directive name: (identifier) @import.alias
  (qualified_name name: (identifier) @import.name) @import.module) @import
(using_directive name: (identifier) @import.alias
  (identifier) @import.module @import.name .) @import
