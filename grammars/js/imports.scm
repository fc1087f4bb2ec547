; JavaScript imports and re-exports (same forms as TypeScript). Capture conventions: grammars/README.md.

; import "m" (and the module of every other import form)
(import_statement source: (string (string_fragment) @import.module)) @import
; import d from "m"
((import_statement (import_clause (identifier) @import.alias) source: (string (string_fragment) @import.module)) @import
  (#set! import.name "default"))
; import * as ns from "m"
(import_statement (import_clause (namespace_import (identifier) @import.module_alias)) source: (string (string_fragment) @import.module)) @import
; import { a, b as c } from "m"
; (the names without `source:`, which follows them: a pattern with both keeps a query state
; per name until it comes, quadratic in a long list; `@import.from` joins them by the `@import.joined` statement, imports.rs)
(import_statement source: (string (string_fragment) @import.from)) @import
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name !alias)))) @import.joined
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_) @import.alias)))) @import.joined

; export { a, b as c } from "m"; export * from "m"; export * as ns from "m"
; (the names without `source:`, as above; `!source` exports are defs.scm's)
(export_statement source: (string (string_fragment) @import.from)) @import
(export_statement (export_clause (export_specifier name: (_) @import.name !alias))) @import.joined @import.reexport
(export_statement (export_clause (export_specifier name: (_) @import.name alias: (_) @import.alias))) @import.joined @import.reexport
(export_statement "*" @import.glob source: (string (string_fragment) @import.module)) @import @import.reexport
(export_statement (namespace_export (identifier) @import.module_alias) source: (string (string_fragment) @import.module)) @import @import.reexport

; require("m"), const x = require("m"), const { a, b: c } = require("m"), import("m")
((call_expression function: (identifier) @_f arguments: (arguments . (string (string_fragment) @import.module))) @import
  (#eq? @_f "require"))
((variable_declarator
   name: (identifier) @import.module_alias
   value: (call_expression function: (identifier) @_f arguments: (arguments . (string (string_fragment) @import.module))) @import)
  (#eq? @_f "require"))
((variable_declarator
   name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
   value: (call_expression function: (identifier) @_f arguments: (arguments . (string (string_fragment) @import.module))) @import)
  (#eq? @_f "require"))
((variable_declarator
   name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias))
   value: (call_expression function: (identifier) @_f arguments: (arguments . (string (string_fragment) @import.module))) @import)
  (#eq? @_f "require"))
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @import.module))) @import
