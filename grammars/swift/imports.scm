; Swift imports. Capture conventions: grammars/README.md.
; `import M` makes every public name of module M visible: a glob import. `import struct
; M.T` and `import M.Sub` name the module by the whole path (resolution takes its first
; segment). `@_exported import M` re-exports M to whoever imports this module.
(import_declaration (identifier) @import.module @import.glob) @import
(import_declaration
  (modifiers (attribute (user_type (type_identifier) @_a)))
  (#eq? @_a "_exported")) @import.reexport
