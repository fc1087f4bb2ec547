; Java imports and the file's own package. Capture conventions: grammars/README.md.

; import a.b.C;  → module `a.b.C`, name `C`: the resolver finds package `a.b` and in it the
; file `C.java` (a target that stays put when files are added to the package).
((import_declaration (scoped_identifier name: (identifier) @import.name) @import.module .) @import
  (#not-match? @import "^import[ \t]+static"))
; import static a.b.C.m;  → module `a.b.C` (the class), name `m`.
(import_declaration "static" (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
; import a.b.*;  import static a.b.C.*;
(import_declaration (scoped_identifier) @import.module (asterisk) @import.glob) @import
; `package a.b;` needs no pattern: the resolver reads package declarations itself
; (`declaration_keywords`), and types of the file's own package are visible by the map's
; same-directory rule (Java keeps a package in one directory).
