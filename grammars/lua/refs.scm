; Lua uses of names. Capture conventions: grammars/README.md.

; `f(x)`, `M.f(x)`, `obj:m(x)`, `self:get(k)`, `a.b.f(x)`.
(function_call name: (identifier) @name) @reference.call
(function_call name: (dot_index_expression table: (_) @qualifier field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression table: (_) @qualifier method: (identifier) @name)) @reference.call

; `setmetatable({}, { __index = Base })`: the table derives from Base.
((function_call
   name: (identifier) @_f
   arguments: (arguments (table_constructor) (table_constructor (field name: (identifier) @_i value: (identifier) @name)))) @reference.extends
  (#eq? @_f "setmetatable")
  (#eq? @_i "__index"))
