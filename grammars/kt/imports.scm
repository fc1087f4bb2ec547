; Kotlin imports. Capture conventions: grammars/README.md.
; The module is the whole path (`a.b.C`): the resolver finds the package `a.b` and, in it,
; the file named `C` or else the package's files; the name `C` is what the file binds.
; A file's own package needs no pattern: the resolver reads `package` lines itself.

; import a.b.C as D
(import (qualified_identifier (identifier) @import.name .) @import.module (identifier) @import.alias) @import
; import a.b.C
((import (qualified_identifier (identifier) @import.name .) @import.module .) @import
  (#not-match? @import "[*]"))
; import a.b.*
((import (qualified_identifier) @import.module .) @import @import.glob
  (#match? @import "[*]"))
