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
