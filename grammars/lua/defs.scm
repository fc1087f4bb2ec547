; Lua definitions. Capture conventions: grammars/README.md.
; Lua's only structure is the table. A table declared at the top level (`local X = {}`,
; `local X = setmetatable({}, …)`) is a `class` node: functions attached to it
; (`function X.f()`, `function X:f()`) are its methods (`X.f`), its fields set at the top
; level (`X.NAME = …`) its constants/properties. A module table (`local M = {} … return M`)
; and a class are the same thing to Lua, and to the map.

; Methods: the table before `.`/`:` owns them (defined earlier in the file → its child).
(function_declaration
  name: (dot_index_expression table: (identifier) @owner field: (identifier) @name)
  body: (_)? @body) @definition.function
(function_declaration
  name: (method_index_expression table: (identifier) @owner method: (identifier) @name)
  body: (_)? @body) @definition.function

; `X.f = function(…) … end` at the top level: a method of X like `function X.f()`.
(chunk
  (assignment_statement
    (variable_list . name: (dot_index_expression table: (identifier) @owner field: (identifier) @name) .)
    (expression_list . value: (function_definition body: (_)? @body) .)) @definition.function)

; `function f()` and `local function f()`.
(function_declaration name: (identifier) @name body: (_)? @body) @definition.function

; Top-level tables.
(chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name .)
      (expression_list . value: (table_constructor) .))) @definition.class)
((chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name .)
      (expression_list . value: (function_call name: (identifier) @_f)))) @definition.class)
  (#eq? @_f "setmetatable"))

; Fields set at the top level: `X.DEFAULT_TTL = 3600` (upper case: a constant), `X.name = …`
; (a property). Metatable fields (`X.__index = X`) are plumbing, not members.
; Fields of the standard library's tables (`package.path = …`) are settings, not members.
((chunk
  (assignment_statement
    (variable_list . name: (dot_index_expression table: (identifier) @owner field: (identifier) @name) .)) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$")
  (#not-any-of? @owner "_G" "package" "string" "table" "math" "io" "os" "debug" "coroutine" "utf8"))
((chunk
  (assignment_statement
    (variable_list . name: (dot_index_expression table: (identifier) @owner field: (identifier) @name) .)) @definition.property)
  (#not-match? @name "^__")
  (#not-any-of? @owner "_G" "package" "string" "table" "math" "io" "os" "debug" "coroutine" "utf8"))

; Docs: `---` / `--` comment lines right before a definition.
((comment)+ @doc . [(function_declaration) (variable_declaration) (assignment_statement)] @doc.for)

; `local` names are private to the file; the tables (which a module returns) and what is
; attached to them are public, as are global functions.
[(function_declaration) (assignment_statement)] @exported
(chunk (variable_declaration) @exported)
(_ local_declaration: (function_declaration) @unexported)
