; Scala imports. Capture conventions: grammars/README.md.
; The grammar gives a path as sibling identifiers (`path: a`, `path: b`, …): every part but
; the last is an `@import.prefix`. A named import's module is its whole path (`a.b.C`, name
; `C`): the resolver finds package `a.b` and in it the file named `C`, else the package's
; files, a target that rarely moves when files are added. A glob's module is the package.
; A file's own package needs no pattern: the resolver reads `package` clauses itself.

(import_declaration (identifier) @import.prefix . (identifier))
(import_declaration (identifier) @import.prefix .
  [(namespace_selectors) (namespace_wildcard) (as_renamed_identifier)])

; import a.b.C
(import_declaration (identifier) @import.module @import.name .) @import
; import a.b.C as D (Scala 3)
(import_declaration (as_renamed_identifier name: (identifier) @import.module @import.name
                                           alias: (identifier) @import.alias)) @import
; import a.b.{C, D => E}   (`C => _` hides C: no entry)
(import_declaration (namespace_selectors (identifier) @import.module @import.name)) @import
(import_declaration (namespace_selectors
  (arrow_renamed_identifier name: (identifier) @import.module @import.name
                            alias: (identifier) @import.alias))) @import
; import a.b._   import a.b.*   import a.b.{given, *}
(import_declaration (namespace_wildcard) @import.glob) @import
(import_declaration (namespace_selectors (namespace_wildcard) @import.glob)) @import
