; Java imports and the file's own package. Capture conventions: grammars/README.md.

; import a.b.C;  import static a.b.C.m;  → module `a.b` (a package, or a class for static
; imports), name `C` / `m`.
(import_declaration (scoped_identifier scope: (_) @import.module name: (identifier) @import.name)) @import
; import a.b.*;  import static a.b.C.*;
(import_declaration (scoped_identifier) @import.module (asterisk) @import.glob) @import
; `package a.b;` needs no pattern: the resolver reads package declarations itself
; (`declaration_keywords`), and types of the file's own package are visible by the map's
; same-directory rule (Java keeps a package in one directory).
