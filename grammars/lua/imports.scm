; Lua imports. Capture conventions: grammars/README.md.
; `local X = require("a.b")` binds X to what `a/b.lua` returns. The map cannot follow a
; return value, so X is imported as a name of that module: it resolves when the module's
; table has the same name (`local SessionStore = …; return SessionStore`), as is usual.
; The `require(…)` call is the statement of every pattern, so they describe one import.

((variable_declaration
   (assignment_statement
     (variable_list . name: (identifier) @import.name .)
     (expression_list . value: (function_call
                                 name: (identifier) @_r
                                 arguments: (arguments . (string content: (string_content) @import.module) .)) @import)))
  (#eq? @_r "require"))

; A module returning a table of required modules re-exports them under the field names:
; `return { SessionStore = require("shop.store") }`.
((return_statement
   (expression_list
     (table_constructor
       (field name: (identifier) @import.module_alias
              value: (function_call
                       name: (identifier) @_r
                       arguments: (arguments . (string content: (string_content) @import.module) .)) @import @import.reexport))))
  (#eq? @_r "require"))

; Any other `require("a.b")` (for its effects, or inside an expression).
((function_call
   name: (identifier) @_r
   arguments: (arguments . (string content: (string_content) @import.module) .)) @import
  (#eq? @_r "require"))
