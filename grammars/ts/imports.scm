; TypeScript / JavaScript imports and re-exports. Capture conventions: grammars/README.md.

; Parents a field or a child names are wildcards (compile cost, grammars/README.md): a
; `source:` is a `string`; of an import clause's children only `named_imports` holds an
; `import_specifier` and only `namespace_import` an `identifier`; of an export's only an
; `export_clause` holds an `export_specifier`.

; import "m" (and the module of every other import form)
(import_statement source: (_ (string_fragment) @import.module)) @import
; import d from "m"
((import_statement (import_clause (identifier) @import.alias) source: (_ (string_fragment) @import.module)) @import
  (#set! import.name "default"))
; import * as ns from "m"
(import_statement (import_clause (_ (identifier) @import.module_alias)) source: (_ (string_fragment) @import.module)) @import
; import { a, b as c } from "m"
; (the names without `source:`, which follows them: a pattern with both keeps a query state
; per name until it comes, quadratic in a long list; `@import.from` joins them by the `@import.joined` statement, imports.rs)
(import_statement source: (_ (string_fragment) @import.from)) @import
(import_statement (import_clause (_ (import_specifier name: (_) @import.name !alias)))) @import.joined
(import_statement (import_clause (_ (import_specifier name: (_) @import.name alias: (_) @import.alias)))) @import.joined
; import x = require("m")
(import_statement (import_require_clause (identifier) @import.module_alias source: (_ (string_fragment) @import.module))) @import

; export { a, b as c } from "m"; export * from "m"; export * as ns from "m"
; (the names without `source:`, as above; `!source` exports are defs.scm's)
(export_statement source: (_ (string_fragment) @import.from)) @import
(export_statement (_ (export_specifier name: (_) @import.name !alias))) @import.joined @import.reexport
(export_statement (_ (export_specifier name: (_) @import.name alias: (_) @import.alias))) @import.joined @import.reexport
(export_statement "*" @import.glob source: (_ (string_fragment) @import.module)) @import @import.reexport
(export_statement (namespace_export (identifier) @import.module_alias) source: (_ (string_fragment) @import.module)) @import @import.reexport

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
