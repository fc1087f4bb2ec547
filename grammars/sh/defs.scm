; Bash definitions. Capture conventions: grammars/README.md.
; Bash has functions and variables only; every function is global once its file is sourced.
; A "store" in the fixture is a set of functions (`store_get`, …) and an associative array.

(function_definition name: (word) @name body: (_) @body) @definition.function

; Top-level declared variables: `readonly X=…` / `declare -r X=…` are constants,
; `declare -A X=()`, `export X=…`, `typeset X=…` variables. Plain `X=…` assignments are
; not definitions (a script reassigns them freely; the first would be arbitrary).
; The signature starts at the declaration (`declare -gA X=()`).
; Top level is `program`, or an `ERROR` node where the rest of the file does not parse.
[(program (declaration_command "readonly" (variable_assignment name: (variable_name) @name) @definition.constant) @context)
 (ERROR (declaration_command "readonly" (variable_assignment name: (variable_name) @name) @definition.constant) @context)]
([(program (declaration_command (word) @_flags (variable_assignment name: (variable_name) @name) @definition.constant) @context)
  (ERROR (declaration_command (word) @_flags (variable_assignment name: (variable_name) @name) @definition.constant) @context)]
  (#match? @_flags "^-[a-zA-Z]*r"))
[(program (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable) @context)
 (ERROR (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable) @context)]

; Docs: the comment lines right before a function or declaration.
((comment)+ @doc . [(function_definition) (declaration_command)] @doc.for)

; Everything is visible to whoever sources the file; a leading `_` marks a private helper
; by convention.
(function_definition) @exported
(variable_assignment) @exported
((function_definition name: (word) @_n) @unexported (#match? @_n "^_"))
