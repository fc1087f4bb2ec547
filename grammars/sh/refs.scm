; Bash uses of names. Capture conventions: grammars/README.md.

; Every simple command is a call of its name (`store_put "$1"`, `date +%s`); names with no
; definition in reach (builtins, programs on PATH) make no edge. `command date` /
; `builtin echo` call the program or builtin itself: their argument is not a use.
(command name: (command_name (word) @name)) @reference.call

; Variable uses: `$X`, `${X}`, `${X[k]}`, `X[k]=…` (an array element written).
; Positional parameters (`$1`) name nothing.
((simple_expansion (variable_name) @name) @reference.variable (#not-match? @name "^[0-9]+$"))
((expansion (variable_name) @name) @reference.variable (#not-match? @name "^[0-9]+$"))
(subscript name: (variable_name) @name) @reference.variable
