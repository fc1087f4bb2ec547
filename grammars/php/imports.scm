; PHP imports. Capture conventions: grammars/README.md.
; `use A\B\C` names a class `C` of namespace `A\B`: module = the prefix, name = the class.

(namespace_use_declaration
  (namespace_use_clause
    (qualified_name prefix: (namespace_name) @import.module (name) @import.name)
    alias: (name)? @import.alias)) @import

; `use A\B\{C, D as E}` (group use).
(namespace_use_declaration
  (namespace_name) @import.module
  (namespace_use_group
    (namespace_use_clause [(name) @import.name (qualified_name)]
      alias: (name)? @import.alias))) @import

; `require __DIR__ . '/x.php'` (relative to the file) and `require 'x.php'`: every
; top-level definition of the file becomes visible.
((require_expression
  (binary_expression left: (name) @_d right: (string (string_content) @import.module))) @import @import.glob
  (#eq? @_d "__DIR__"))
(require_expression (string (string_content) @import.module)) @import @import.glob
((require_once_expression
  (binary_expression left: (name) @_d right: (string (string_content) @import.module))) @import @import.glob
  (#eq? @_d "__DIR__"))
(require_once_expression (string (string_content) @import.module)) @import @import.glob
((include_expression
  (binary_expression left: (name) @_d right: (string (string_content) @import.module))) @import @import.glob
  (#eq? @_d "__DIR__"))
(include_expression (string (string_content) @import.module)) @import @import.glob
((include_once_expression
  (binary_expression left: (name) @_d right: (string (string_content) @import.module))) @import @import.glob
  (#eq? @_d "__DIR__"))
(include_once_expression (string (string_content) @import.module)) @import @import.glob
