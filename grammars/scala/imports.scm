; Scala imports. Capture conventions: grammars/README.md.
; The grammar gives a path as sibling identifiers (`path: a`, `path: b`, …): every part but
; the imported name is an `@import.prefix`, so the module is the package (`a.b`) and the
; name is what the file binds, like Java. A file's own package needs no pattern: the
; resolver reads `package` clauses itself.

(import_declaration (identifier) @import.prefix . (identifier))
(import_declaration (identifier) @import.prefix .
  [(namespace_selectors) (namespace_wildcard) (as_renamed_identifier)])

; import a.b.C
(import_declaration (identifier) @import.name .) @import
; import a.b.C as D (Scala 3)
(import_declaration (as_renamed_identifier name: (identifier) @import.name alias: (identifier) @import.alias)) @import
; import a.b.{C, D => E}   (`C => _` hides C: no entry)
(import_declaration (namespace_selectors (identifier) @import.name)) @import
(import_declaration (namespace_selectors
  (arrow_renamed_identifier name: (identifier) @import.name alias: (identifier) @import.alias))) @import
; import a.b._   import a.b.*   import a.b.{given, *}
(import_declaration (namespace_wildcard) @import.glob) @import
(import_declaration (namespace_selectors (namespace_wildcard) @import.glob)) @import
