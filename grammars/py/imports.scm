; Python imports. Capture conventions: grammars/README.md.
; Module specifiers stay as written: `os.path`, `.store`, `..` (relative ones keep their dots).

; import a.b, c
(import_statement name: (dotted_name) @import.module) @import
; import a.b as c
(import_statement
  name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.module_alias)) @import

; from m import a, b
(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.name) @import
; from m import a as b
(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
; from m import *
(import_from_statement
  module_name: (_) @import.module
  (wildcard_import) @import.glob) @import

; from __future__ import x
(future_import_statement name: (dotted_name) @import.name) @import
