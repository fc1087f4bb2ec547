; Lua names bound to types. Capture conventions: grammars/README.md.
; Lua has no declared types: constructions bind. `local s = Store.new(…)` binds s to Store
; (the table the constructor is called on); `local self = setmetatable({}, Store)` too.

((variable_declaration
   (assignment_statement
     (variable_list . name: (identifier) @binding.name .)
     (expression_list . value: (function_call
                                 name: (dot_index_expression table: (identifier) @binding.type field: (identifier) @_new))))) @binding
  (#eq? @_new "new"))
((variable_declaration
   (assignment_statement
     (variable_list . name: (identifier) @binding.name .)
     (expression_list . value: (function_call
                                 name: (identifier) @_f
                                 arguments: (arguments (table_constructor) . (identifier) @binding.type))))) @binding
  (#eq? @_f "setmetatable"))

; Local names (`@local.name`): parameters and `local`s of a function, loop variables, and
; parameters of an anonymous function (`@local.scope`: that function). A call of one
; (`parse(x)` with `parse` a parameter) is the local, never a function elsewhere.
(function_definition
  parameters: (parameters name: (identifier) @local.name)) @local.scope
(parameters name: (identifier) @local.name)
(variable_declaration (assignment_statement (variable_list name: (identifier) @local.name)))
(variable_declaration (variable_list name: (identifier) @local.name))
(for_generic_clause (variable_list name: (identifier) @local.name))
(for_numeric_clause name: (identifier) @local.name)
